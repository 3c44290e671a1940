/*
 * Tower Up heuristic (core/towerup/heuristic.c): a consistent weight table, finite scores and
 * values in [0, 1] over random positions of 2-4 player games, the obvious best build of a
 * hand-made position ranked first, objective chips as the rules give them, the most
 * points in a last turn, an argmax player that beats random play, and the exact evaluation
 * and move scores of fixed positions (a changed or inverted term fails there).
 */
#include <math.h>
#include <string.h>

#include "bots/heuristic.h"
#include "core/towerup/towerup.h"
#include "tests/test.h"

enum { K, G, W, B };

static void defaults(heur_params_t *w)
{
    const heuristic_t *h = &heuristic_towerup;
    w->count = h->param_count;
    for (int i = 0; i < h->param_count; i++)
        w->value[i] = h->params[i].value;
}

static void check_param_table(void)
{
    const heuristic_t *h = &heuristic_towerup;
    CHECK(h->api == &towerup_api);
    CHECK(h->param_count > 0 && h->param_count <= HEUR_MAX_PARAMS);
    CHECK(h->score_moves && h->evaluate);
    for (int i = 0; i < h->param_count; i++) {
        const heur_param_def_t *d = &h->params[i];
        CHECK_MSG(d->name && d->name[0] && d->help && d->help[0], "weight %d", i);
        CHECK_MSG(d->lo <= d->value && d->value <= d->hi, "%s default out of bounds", d->name);
        CHECK_MSG(d->lo < d->hi && d->step > 0, "%s bounds or step", d->name);
        for (int j = 0; j < i; j++)
            CHECK_MSG(strcmp(d->name, h->params[j].name), "%s named twice", d->name);
    }
}

static int argmax(const double *v, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (v[i] > v[best])
            best = i;
    return best;
}

static void new_game(towerup_state_t *s, int players, uint64_t seed)
{
    game_options_t o;
    game_options_default(&o);
    o.players = players;
    o.seed = seed;
    char err[GAME_ERR_MAX];
    int rc = towerup_new_game(s, &o, err, sizeof err);
    CHECK_MSG(rc == 0, "%s", err);
}

/* Every legal move of positions along random games: finite scores, values in [0, 1]
   (the result once the game is over), and the state left untouched. */
static void check_random_positions(void)
{
    const heuristic_t *h = &heuristic_towerup;
    heur_params_t w;
    defaults(&w);
    static move_t moves[GAME_MAX_MOVES];
    static double scores[GAME_MAX_MOVES];
    int bad_scores = 0, bad_values = 0, touched = 0, positions = 0;
    for (int players = 2; players <= 4; players++)
        for (uint64_t seed = 1; seed <= 12; seed++) {
            towerup_state_t s, copy;
            new_game(&s, players, 1000 * players + seed);
            pcg32_t rng;
            pcg32_seed(&rng, seed, (uint64_t)players);
            for (;;) {
                memcpy(&copy, &s, sizeof s);
                double v[TOWERUP_MAX_PLAYERS];
                h->evaluate(&s, &w, v);
                for (int p = 0; p < players; p++)
                    bad_values += !(v[p] >= 0 && v[p] <= 1);
                int n = towerup_gen_moves(&s, moves);
                if (!n) {
                    /* Over: the values are the game result. */
                    double res[TOWERUP_MAX_PLAYERS];
                    towerup_api.result(&s, res);
                    for (int p = 0; p < players; p++)
                        bad_values += v[p] != res[p];
                    break;
                }
                h->score_moves(&s, moves, n, &w, scores);
                for (int i = 0; i < n; i++)
                    bad_scores += !isfinite(scores[i]);
                touched += memcmp(&copy, &s, sizeof s) != 0;
                positions++;
                /* Half the moves follow the heuristic, so positions look like real play. */
                int k = pcg32_bounded(&rng, 2) ? argmax(scores, n)
                                               : (int)pcg32_bounded(&rng, (uint32_t)n);
                towerup_undo_t u;
                towerup_make(&s, moves[k], &u);
            }
        }
    CHECK_EQ_INT(bad_scores, 0);
    CHECK_EQ_INT(bad_values, 0);
    CHECK_EQ_INT(touched, 0);
    CHECK(positions > 500);
}

/* A building of a colour and height with no roofs, or with one roof of owner at level 1. */
static void put(towerup_state_t *s, int site, int colour, int height, int owner)
{
    s->site[site] = (uint8_t)(height | colour << 4);
    s->roofs[site] = owner >= 0 ? (uint32_t)(owner + 1) : 0;
}

/*
 * Player 0 has roofs on black, grey and white buildings far from an empty site T whose
 * only neighbour N is a roofless brown building 3 floors high. Founding at T with the
 * roof on N scores 4 brown steps and meets `colors` (7): it must score highest.
 */
static void check_obvious_best(void)
{
    towerup_state_t s;
    game_options_t o;
    game_options_default(&o);
    o.players = 2;
    o.seed = 9;
    o.first_player = 0;
    test_option(&o, "objectives=colors,park,areas");
    char err[GAME_ERR_MAX];
    CHECK(towerup_new_game(&s, &o, err, sizeof err) == 0);
    s.phase = TOWERUP_PHASE_PLAY;
    s.setup_done = s.setup_count;
    s.to_move = 0;
    memset(s.site, 0, sizeof s.site);
    memset(s.roofs, 0, sizeof s.roofs);
    const towerup_board_t *b = s.board;
    int T = -1, N = -1;
    for (int i = 0; i < b->site_count && T < 0; i++)
        if (towerup_popcount(b->nbr[i]) >= 2) {
            T = i;
            N = __builtin_ctzll(b->nbr[i]);
        }
    CHECK(T >= 0);
    if (T < 0 || N < 0)
        return;
    put(&s, N, B, 3, -1);
    /* The other neighbours of T stay empty; the three roofed buildings stand apart. */
    uint64_t avoid = 1ULL << T | b->nbr[T] | b->nbr[N] | 1ULL << N;
    int placed = 0;
    for (int i = 0; i < b->site_count && placed < 3; i++) {
        if (avoid >> i & 1)
            continue;
        put(&s, i, placed, 1, 0);
        avoid |= 1ULL << i | b->nbr[i];
        placed++;
    }
    CHECK_EQ_INT(placed, 3);
    static const uint8_t sup[4] = {2, 2, 2, 2};
    memcpy(s.supply[0], sup, 4);
    memcpy(s.supply[1], sup, 4);
    towerup_fix_derived(&s);
    CHECK(towerup_check(&s, err, sizeof err) == 0);

    const heuristic_t *h = &heuristic_towerup;
    heur_params_t w;
    defaults(&w);
    static move_t moves[GAME_MAX_MOVES];
    static double scores[GAME_MAX_MOVES];
    int n = towerup_gen_moves(&s, moves);
    h->score_moves(&s, moves, n, &w, scores);
    move_t best = moves[argmax(scores, n)];
    char text[GAME_MOVE_TEXT_MAX];
    towerup_move_to_text(&s, best, text);
    CHECK_MSG(towerup_move_kind(best) == TOWERUP_MOVE_BUILD && towerup_move_site(best) == T &&
                  towerup_move_roof(best) == N,
              "best move %s, expected a founding at %d roofed at %d", text, T, N);
    towerup_undo_t u;
    towerup_make(&s, best, &u);
    CHECK(s.met[0] & 1);
    CHECK_EQ_INT(towerup_score(&s, 0), 4 + 7);
}

/*
 * With only obj_done on (obj_progress 0), switching obj_done from 0 to 1 adds to a
 * founding exactly the chips it wins: the heuristic's objective checks agree with the
 * rules for all ten objectives (random objectives, 2-4 players, outside final turns).
 */
static void check_objective_chips(void)
{
    const heuristic_t *h = &heuristic_towerup;
    heur_params_t w0, w1;
    defaults(&w0);
    int done = -1, progress = -1, scale = -1;
    for (int i = 0; i < h->param_count; i++) {
        done = strcmp(h->params[i].name, "obj_done") ? done : i;
        progress = strcmp(h->params[i].name, "obj_progress") ? progress : i;
        scale = strcmp(h->params[i].name, "scale") ? scale : i;
    }
    CHECK(done >= 0 && progress >= 0 && scale >= 0);
    if (done < 0 || progress < 0 || scale < 0)
        return;
    w0.value[progress] = 0;
    w0.value[done] = 0;
    w1 = w0;
    w1.value[done] = 1;
    static move_t moves[GAME_MAX_MOVES];
    static double s0[GAME_MAX_MOVES], s1[GAME_MAX_MOVES];
    int builds = 0, won = 0, wrong = 0;
    for (uint64_t seed = 0; seed < 90; seed++) {
        towerup_state_t s;
        game_options_t o;
        game_options_default(&o);
        o.players = 2 + (int)(seed % 3);
        o.seed = 9000 + seed;
        test_option(&o, "objectives=random");
        char err[GAME_ERR_MAX];
        CHECK_MSG(towerup_new_game(&s, &o, err, sizeof err) == 0, "%s", err);
        pcg32_t rng;
        pcg32_seed(&rng, seed, 13);
        int n;
        while ((n = towerup_gen_moves(&s, moves)) > 0) {
            if (s.phase == TOWERUP_PHASE_PLAY && !s.final_round) {
                h->score_moves(&s, moves, n, &w0, s0);
                h->score_moves(&s, moves, n, &w1, s1);
                int p = s.to_move;
                for (int i = 0; i < n; i++) {
                    if (towerup_move_kind(moves[i]) != TOWERUP_MOVE_BUILD)
                        continue;
                    towerup_state_t c = s;
                    towerup_undo_t u;
                    towerup_make(&c, moves[i], &u);
                    int chips = 0;
                    for (int j = s.chip_count[p]; j < c.chip_count[p]; j++)
                        chips += c.chips[p][j];
                    double d = (s1[i] - s0[i]) * w0.value[scale];
                    builds++;
                    won += chips > 0;
                    wrong += fabs(d - chips) > 1e-6;
                }
            }
            towerup_undo_t u;
            towerup_make(&s, moves[pcg32_bounded(&rng, (uint32_t)n)], &u);
        }
    }
    CHECK(builds > 10000 && won > 100);
    CHECK_EQ_INT(wrong, 0);
}

/* Score with the cone a player would get now (an unset cone from the visible roofs). */
static int points_now(const towerup_state_t *s, int p)
{
    int v = towerup_score(s, p), c = towerup_visible_roofs(s, p);
    if (c > TOWERUP_CONE_MAX)
        c = TOWERUP_CONE_MAX;
    return v + (s->cone[p] < 0 ? towerup_column_value[c] : 0);
}

/*
 * The last turn of 2-player games: when no move earns an extra turn, what counts is the
 * points it leaves between the two players, and the best-scored move must get the most.
 */
static void check_last_turn(void)
{
    heur_params_t w;
    defaults(&w);
    static move_t moves[GAME_MAX_MOVES];
    static double scores[GAME_MAX_MOVES];
    int checked = 0, worse = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        towerup_state_t s;
        new_game(&s, 2, 7000 + seed);
        pcg32_t rng;
        pcg32_seed(&rng, seed, 11);
        int n;
        while ((n = towerup_gen_moves(&s, moves)) > 0) {
            heuristic_towerup.score_moves(&s, moves, n, &w, scores);
            int k = argmax(scores, n), p = s.to_move;
            if (s.final_round && s.final_left == 1) {
                int best = -1000, got = 0;
                bool extra = false;
                for (int i = 0; i < n; i++) {
                    towerup_state_t c = s;
                    towerup_undo_t u;
                    towerup_make(&c, moves[i], &u);
                    extra |= !towerup_is_over(&c) && c.to_move == p;
                    int v = points_now(&c, p) - points_now(&c, 1 - p);
                    best = v > best ? v : best;
                    got = i == k ? v : got;
                }
                if (!extra) {
                    checked++;
                    worse += got < best;
                }
            }
            if (pcg32_double(&rng) < 0.3)
                k = (int)pcg32_bounded(&rng, (uint32_t)n);
            towerup_undo_t u;
            towerup_make(&s, moves[k], &u);
        }
    }
    CHECK(checked > 100);
    CHECK_EQ_INT(worse, 0);
}

/* One game of an argmax player (seat hero) against uniform random: hero's result. */
static double play_vs_random(uint64_t seed, int hero, const heur_params_t *w)
{
    static move_t moves[GAME_MAX_MOVES];
    static double scores[GAME_MAX_MOVES];
    towerup_state_t s;
    new_game(&s, 2, seed);
    pcg32_t rng;
    pcg32_seed(&rng, seed, 77);
    int n;
    while ((n = towerup_gen_moves(&s, moves)) > 0) {
        int k;
        if (s.to_move == hero) {
            heuristic_towerup.score_moves(&s, moves, n, w, scores);
            k = argmax(scores, n);
        } else {
            k = (int)pcg32_bounded(&rng, (uint32_t)n);
        }
        towerup_undo_t u;
        towerup_make(&s, moves[k], &u);
    }
    int ranks[TOWERUP_MAX_PLAYERS];
    double res[TOWERUP_MAX_PLAYERS];
    towerup_ranks(&s, ranks);
    game_result_from_ranks(2, ranks, res);
    return res[hero];
}

static void check_beats_random(void)
{
    heur_params_t w;
    defaults(&w);
    int wins = 0;
    for (int g = 0; g < 100; g++)
        wins += play_vs_random(5000 + (uint64_t)g, g & 1, &w) == 1.0;
    printf("argmax of score_moves beat random in %d of 100 two-player games\n", wins);
    CHECK(wins >= 90);
}

/* One pinned position: a seeded game, random moves played, and what the default weights
   give there: the evaluation (each player's value weighted by player + 1, summed) and the
   move scores (each weighted by 1 + index % 7, summed). */
typedef struct pin {
    int players;   /* player count */
    uint64_t seed; /* seed of the game and of the random moves */
    int plies;     /* random moves played */
    double eval;   /* evaluation digest */
    double scores; /* move score digest */
} pin_t;

/* Exact to rounding: a changed term, weight or sign of the heuristic moves these far more. */
static bool pin_close(double got, double want)
{
    return fabs(got - want) <= 1e-9 * (1.0 + fabs(want));
}

static const pin_t towerup_pins[] = {
    {2, 720, 0, 1.5, 6.5999999999999996},
    {2, 721, 10, 1.3860136417274516, 37.415151578947373},
    {2, 722, 25, 1.05166736646284, 61.206019025604562},
    {2, 723, 45, 1.9341624818664966, 32.273842105263157},
    {3, 730, 0, 3, 13.224999999999996},
    {3, 731, 10, 3.4219882523155127, 30.607567555816686},
    {3, 732, 25, 3.3428534301307851, 343.67882415464339},
    {3, 733, 45, 3.3600135478919375, 79.131842105263146},
    {4, 740, 0, 5, 13.224999999999996},
    {4, 741, 10, 4.7895751213153854, 52.692035086364569},
    {4, 742, 25, 4.6530439295925703, 74.392189210526311},
    {4, 743, 45, 5.720811854354908, 470.895371976136},
};

/* The evaluation and move scores of fixed positions (set-up, early, middle, late) are the
   pinned numbers: a changed or inverted term fails here even where the play tests pass. */
static void check_pinned_values(void)
{
    const heuristic_t *h = &heuristic_towerup;
    heur_params_t w;
    defaults(&w);
    static move_t moves[GAME_MAX_MOVES];
    static double scores[GAME_MAX_MOVES];
    int mismatches = 0;
    for (size_t k = 0; k < sizeof towerup_pins / sizeof *towerup_pins; k++) {
        const pin_t *pin = &towerup_pins[k];
        towerup_state_t s;
        new_game(&s, pin->players, pin->seed);
        pcg32_t rng;
        pcg32_seed(&rng, pin->seed, 29);
        for (int i = 0; i < pin->plies; i++) {
            int n = towerup_gen_moves(&s, moves);
            if (n == 0)
                break;
            towerup_undo_t u;
            towerup_make(&s, moves[pcg32_bounded(&rng, (uint32_t)n)], &u);
        }
        double v[TOWERUP_MAX_PLAYERS], eval = 0.0, digest = 0.0;
        h->evaluate(&s, &w, v);
        for (int p = 0; p < pin->players; p++)
            eval += v[p] * (p + 1);
        int n = towerup_gen_moves(&s, moves);
        h->score_moves(&s, moves, n, &w, scores);
        for (int i = 0; i < n; i++)
            digest += scores[i] * (1 + i % 7);
        if (!pin_close(eval, pin->eval) || !pin_close(digest, pin->scores)) {
            mismatches++;
            printf("    {%d, %llu, %d, %.17g, %.17g},\n", pin->players,
                   (unsigned long long)pin->seed, pin->plies, eval, digest);
        }
    }
    CHECK_MSG(mismatches == 0, "%d pinned Tower Up positions changed (lines above)", mismatches);
}

int main(void)
{
    check_param_table();
    check_random_positions();
    check_obvious_best();
    check_objective_chips();
    check_last_turn();
    check_beats_random();
    check_pinned_values();
    return test_finish("test_heur_towerup");
}
