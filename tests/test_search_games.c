/*
 * MCTS on the real games. Positions are found by criteria in seeded random games (not
 * hard-coded), so that they survive changes in the engines' move order:
 *  - Tower Up: a player with one roof left has exactly one build that wins for sure;
 *  - Uptown: the last move of a 3-player game, where only tiles that join two groups of
 *    the mover's colour give the best result;
 *  - no peeking: two states that differ only in the draw-pile order (Tower Up) or in the
 *    opponents' racks (Uptown) give the same search, move and statistics.
 */
#include <math.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "search/mcts.h"
#include "tests/test.h"

/* Room for a state of either game, aligned for any field. */
typedef struct any_state {
    alignas(16) unsigned char bytes[2048]; /* the state's bytes */
} any_state_t;

/*
 * The exact result for player me (2 players, zero-sum minimax on results), looking at most
 * depth moves ahead on the state as given (hidden parts included): -1 if not settled.
 */
static double solve(const game_api_t *api, const void *s, int me, int depth)
{
    if (api->is_terminal(s)) {
        double r[GAME_MAX_PLAYERS];
        api->result(s, r);
        return r[me];
    }
    if (depth == 0)
        return -1.0;
    move_t moves[GAME_MAX_MOVES];
    any_state_t next, undo;
    int n = api->gen_moves(s, moves);
    int p = api->to_move(s);
    double best = p == me ? -2.0 : 2.0;
    for (int i = 0; i < n && best >= -1.0; i++) {
        api->copy(&next, s);
        api->make(&next, moves[i], &undo);
        double v = solve(api, &next, me, depth - 1);
        if (v < 0.0)
            best = -3.0; /* unsettled: stop */
        else if (p == me ? v > best : v < best)
            best = v;
    }
    return best < -1.0 ? -1.0 : best;
}

/* The worst of solve over several determinizations for me: 1 means a sure win. */
static double solve_sampled(const game_api_t *api, const void *s, int me, int depth)
{
    any_state_t d;
    pcg32_t rng;
    pcg32_seed(&rng, 12345, 6);
    double worst = 1.0;
    for (int k = 0; k < 6 && worst >= 0.0; k++) {
        api->copy(&d, s);
        api->determinize(&d, me, &rng);
        double v = solve(api, &d, me, depth);
        worst = v < worst ? v : worst;
    }
    return worst;
}

static mcts_t *searcher(const game_api_t *api, long iterations, uint64_t seed, int threads)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = iterations;
    opt.seed = seed;
    opt.threads = threads;
    mcts_t *m = mcts_new(api, &opt);
    CHECK(m != NULL);
    return m;
}

static bool is_legal(const game_api_t *api, const void *s, move_t mv)
{
    move_t moves[GAME_MAX_MOVES];
    int n = api->gen_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == mv)
            return true;
    return false;
}

/*
 * The build that surely wins with the last roof, if it is the only one and every other
 * build surely ends the game without a sure win; else 0.
 */
static move_t towerup_sole_winning_roof(const towerup_state_t *s)
{
    move_t moves[GAME_MAX_MOVES];
    int n = towerup_gen_moves(s, moves);
    move_t win = 0;
    int wins = 0;
    for (int i = 0; i < n; i++) {
        if (towerup_move_kind(moves[i]) != TOWERUP_MOVE_BUILD)
            continue;
        towerup_state_t t = *s;
        towerup_undo_t u;
        towerup_make(&t, moves[i], &u);
        double v = solve_sampled(&towerup_api, &t, s->to_move, 3);
        if (v < 0.0)
            return 0;
        if (v == 1.0) {
            win = moves[i];
            wins++;
        }
    }
    return wins == 1 ? win : 0;
}

static void test_towerup_last_roof(void)
{
    int found = 0;
    for (uint64_t seed = 1; seed < 400 && found < 3; seed++) {
        game_options_t o;
        game_options_default(&o);
        o.players = 2;
        o.seed = seed;
        char err[GAME_ERR_MAX];
        towerup_state_t s;
        towerup_undo_t u;
        if (towerup_new_game(&s, &o, err, sizeof err) != 0) {
            CHECK_MSG(false, "%s", err);
            return;
        }
        pcg32_t rng;
        pcg32_seed(&rng, seed, 5);
        move_t moves[GAME_MAX_MOVES];
        while (!towerup_is_over(&s)) {
            int p = s.to_move;
            if (s.phase == TOWERUP_PHASE_PLAY && s.roofs_left[p] == 1 &&
                s.end_trigger == TOWERUP_END_NONE) {
                move_t win = towerup_sole_winning_roof(&s);
                if (win != 0) {
                    found++;
                    mcts_t *m = searcher(&towerup_api, 3000, seed, 1);
                    mcts_stats_t st;
                    move_t mv = mcts_search(m, &s, &st);
                    char a[GAME_MOVE_TEXT_MAX], b[GAME_MOVE_TEXT_MAX];
                    towerup_move_to_text(&s, win, a);
                    towerup_move_to_text(&s, mv, b);
                    CHECK_MSG(mv == win, "seed %llu: winning roof %s, search played %s",
                              (unsigned long long)seed, a, b);
                    mcts_free(m);
                    if (found == 1) {
                        /* The same position with two threads: a legal move. */
                        m = searcher(&towerup_api, 1000, seed, 2);
                        CHECK(is_legal(&towerup_api, &s, mcts_search(m, &s, NULL)));
                        mcts_free(m);
                    }
                    break;
                }
            }
            int n = towerup_gen_moves(&s, moves);
            towerup_make(&s, moves[pcg32_bounded(&rng, (uint32_t)n)], &u);
        }
    }
    CHECK_EQ_INT(found, 3);
}

/* Whether only moves that lower the mover's group count reach the best result. */
static bool uptown_join_decides(const uptown_state_t *s, double *best)
{
    move_t moves[GAME_MAX_MOVES];
    int n = uptown_gen_moves(s, moves);
    int p = s->to_move;
    int groups = uptown_player_groups(s, p);
    double lo = 2.0, hi = -1.0;
    bool best_joins = true;
    double r[GAME_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        uptown_state_t t = *s;
        uptown_play(&t, moves[i]);
        uptown_result(&t, r);
        lo = r[p] < lo ? r[p] : lo;
        if (r[p] > hi) {
            hi = r[p];
            best_joins = true;
        }
        if (r[p] == hi && uptown_player_groups(&t, p) >= groups)
            best_joins = false;
    }
    *best = hi;
    return hi > lo && best_joins;
}

static void test_uptown_join(void)
{
    int found = 0;
    for (uint64_t seed = 1; seed < 400 && found < 4; seed++) {
        game_options_t o;
        game_options_default(&o);
        o.players = 3;
        o.seed = seed;
        char err[GAME_ERR_MAX];
        uptown_state_t s;
        if (uptown_new_game(&s, &o, err, sizeof err) != 0) {
            CHECK_MSG(false, "%s", err);
            return;
        }
        pcg32_t rng;
        pcg32_seed(&rng, seed, 9);
        move_t moves[GAME_MAX_MOVES];
        int n;
        while ((n = uptown_gen_moves(&s, moves)) > 0) {
            uptown_state_t t = s;
            uptown_play(&t, moves[0]);
            if (uptown_is_terminal(&t))
                break;
            uptown_play(&s, moves[pcg32_bounded(&rng, (uint32_t)n)]);
        }
        double best;
        if (n == 0 || !uptown_join_decides(&s, &best))
            continue;
        found++;
        int p = s.to_move;
        mcts_t *m = searcher(&uptown_api, 2000, seed, 1);
        move_t mv = mcts_search(m, &s, NULL);
        mcts_free(m);
        CHECK(is_legal(&uptown_api, &s, mv));
        uptown_state_t t = s;
        uptown_play(&t, mv);
        double r[GAME_MAX_PLAYERS];
        uptown_result(&t, r);
        char text[GAME_MOVE_TEXT_MAX];
        uptown_move_to_text(&s, mv, text);
        CHECK_MSG(r[p] == best, "seed %llu: %s gives %.3f, best %.3f", (unsigned long long)seed,
                  text, r[p], best);
        CHECK(uptown_player_groups(&t, p) < uptown_player_groups(&s, p));
    }
    CHECK_EQ_INT(found, 4);
}

static bool stats_equal(const mcts_stats_t *a, const mcts_stats_t *b)
{
    if (a->iterations != b->iterations || a->nodes != b->nodes || a->max_depth != b->max_depth ||
        a->root_move_count != b->root_move_count)
        return false;
    for (int i = 0; i < a->root_move_count; i++)
        if (a->root_moves[i].move != b->root_moves[i].move ||
            a->root_moves[i].visits != b->root_moves[i].visits ||
            a->root_moves[i].mean != b->root_moves[i].mean)
            return false;
    return true;
}

/*
 * Determinizes a and b for observer with the same rng, then plays the same random game
 * from both: every legal-move list must match. Returns the first differing ply, or -1.
 */
static int determinized_divergence(const game_api_t *api, const void *a, const void *b,
                                   int observer)
{
    any_state_t *x = malloc(sizeof *x), *y = malloc(sizeof *y), *u = malloc(sizeof *u);
    move_t *mx = malloc(GAME_MAX_MOVES * sizeof *mx), *my = malloc(GAME_MAX_MOVES * sizeof *my);
    pcg32_t rx, ry;
    pcg32_seed(&rx, 31, 4);
    ry = rx;
    api->copy(x, a);
    api->copy(y, b);
    api->determinize(x, observer, &rx);
    api->determinize(y, observer, &ry);
    int diverged = -1;
    for (int ply = 0; diverged < 0; ply++) {
        int nx = api->gen_moves(x, mx), ny = api->gen_moves(y, my);
        if (nx != ny || memcmp(mx, my, (size_t)nx * sizeof *mx) != 0)
            diverged = ply;
        else if (nx == 0)
            break;
        else {
            move_t mv = mx[pcg32_bounded(&rx, (uint32_t)nx)];
            api->make(x, mv, u);
            api->make(y, mv, u);
        }
    }
    free(x);
    free(y);
    free(u);
    free(mx);
    free(my);
    return diverged;
}

/* Same seed, one thread: the same move and statistics from both states. */
static void check_same_search(const game_api_t *api, const void *a, const void *b, const char *what)
{
    int ply = determinized_divergence(api, a, b, api->to_move(a));
    CHECK_MSG(ply < 0,
              "%s: %s_determinize depends on what the observer cannot see (games from two "
              "determinizations with one rng differ at ply %d): hidden cards/tiles should be "
              "put in a canonical order (e.g. sorted) before they are shuffled",
              what, api->name, ply);
    mcts_t *ma = searcher(api, 300, 21, 1);
    mcts_t *mb = searcher(api, 300, 21, 1);
    mcts_stats_t sa, sb;
    move_t va = mcts_search(ma, a, &sa);
    move_t vb = mcts_search(mb, b, &sb);
    CHECK_MSG(va == vb, "%s: different moves", what);
    CHECK_MSG(stats_equal(&sa, &sb), "%s: different statistics", what);
    mcts_free(ma);
    mcts_free(mb);
}

static void test_towerup_no_peeking(void)
{
    for (int players = 2; players <= 4; players++) {
        game_options_t o;
        game_options_default(&o);
        o.players = players;
        o.seed = 40 + (uint64_t)players;
        char err[GAME_ERR_MAX];
        towerup_state_t a, b;
        towerup_undo_t u;
        CHECK(towerup_new_game(&a, &o, err, sizeof err) == 0);
        pcg32_t rng;
        pcg32_seed(&rng, 3, (uint64_t)players);
        move_t moves[GAME_MAX_MOVES];
        while (a.phase != TOWERUP_PHASE_PLAY || a.turns < 6) {
            int n = towerup_gen_moves(&a, moves);
            towerup_make(&a, moves[pcg32_bounded(&rng, (uint32_t)n)], &u);
        }
        /* Another draw-pile order and reshuffle stream: nothing a player can see. */
        b = a;
        int lo = b.draw_pos, hi = b.draw_end - 1;
        CHECK(hi - lo >= 2);
        for (; lo < hi; lo++, hi--) {
            uint8_t c = b.draw[lo];
            b.draw[lo] = b.draw[hi];
            b.draw[hi] = c;
        }
        pcg32_seed(&b.rng, 777, 1);
        towerup_fix_derived(&b);
        CHECK(towerup_check(&b, err, sizeof err) == 0);
        CHECK(memcmp(&a, &b, sizeof a) != 0);
        check_same_search(&towerup_api, &a, &b, "towerup draw order");
    }
}

/* Swaps, for every colour the observer does not own, a rack tile with a pile tile. */
static void uptown_swap_hidden(uptown_state_t *s, int observer)
{
    unsigned own = uptown_player_colours(s, observer);
    for (int c = 0; c < s->colours; c++) {
        if ((own >> c & 1) || s->rack[c] == 0 || s->pile_pos[c] >= UPTOWN_TILE_COUNT)
            continue;
        int rack_tile = __builtin_ctz(s->rack[c]);
        int pos = s->pile_pos[c];
        int pile_tile = s->pile[c][pos];
        s->rack[c] = (s->rack[c] & ~(1u << rack_tile)) | 1u << pile_tile;
        /* Keep the pile a permutation: the two tiles trade places in it too. */
        for (int i = 0; i < pos; i++)
            if (s->pile[c][i] == rack_tile)
                s->pile[c][i] = (uint8_t)pile_tile;
        s->pile[c][pos] = (uint8_t)rack_tile;
    }
    uptown_recompute(s);
}

static void test_uptown_no_peeking(void)
{
    for (int players = 2; players <= 5; players++) {
        game_options_t o;
        game_options_default(&o);
        o.players = players;
        o.seed = 60 + (uint64_t)players;
        char err[GAME_ERR_MAX];
        uptown_state_t a, b;
        CHECK(uptown_new_game(&a, &o, err, sizeof err) == 0);
        pcg32_t rng;
        pcg32_seed(&rng, 4, (uint64_t)players);
        move_t moves[GAME_MAX_MOVES];
        for (int k = 0; k < 3 * players; k++) {
            int n = uptown_gen_moves(&a, moves);
            uptown_play(&a, moves[pcg32_bounded(&rng, (uint32_t)n)]);
        }
        b = a;
        uptown_swap_hidden(&b, b.to_move);
        CHECK(uptown_check(&b, err, sizeof err) == 0);
        CHECK(memcmp(&a, &b, sizeof a) != 0);
        CHECK(uptown_observation_equal(&a, &b, a.to_move));
        check_same_search(&uptown_api, &a, &b, "uptown opponent racks");

        /* The observer's own pile order is hidden from it too. */
        b = a;
        int c = __builtin_ctz(uptown_player_colours(&b, b.to_move));
        uint8_t *rest = b.pile[c] + b.pile_pos[c];
        int count = UPTOWN_TILE_COUNT - b.pile_pos[c];
        CHECK(count >= 2);
        for (int i = 0; i < count / 2; i++) {
            uint8_t t = rest[i];
            rest[i] = rest[count - 1 - i];
            rest[count - 1 - i] = t;
        }
        uptown_recompute(&b);
        CHECK(uptown_check(&b, err, sizeof err) == 0);
        CHECK(uptown_observation_equal(&a, &b, a.to_move));
        check_same_search(&uptown_api, &a, &b, "uptown own pile order");
    }
}

/*
 * Memory caps on the real games, whose nodes have up to a hundred children: with a few
 * kilobytes the child arrays fill their arena before the nodes do. The search says it was
 * capped, runs its whole budget, plays a legal move and leaves a sound tree (no node
 * allocated outside it), with one and two threads, and the nodes it holds fit the cap
 * at 88 bytes a node plus 24 per node and thread (mcts_new).
 */
static void test_memory_caps(void)
{
    static const size_t caps[] = {3000, 20000, 200000};
    for (int g = 0; g < 2; g++) {
        const game_api_t *api = g ? &uptown_api : &towerup_api;
        alignas(16) unsigned char s[2048];
        game_options_t o;
        game_options_default(&o);
        o.players = 3;
        o.seed = 31;
        char err[256];
        CHECK(api->new_game(s, &o, err, sizeof err) == 0);
        for (int c = 0; c < 3; c++) {
            for (int threads = 1; threads <= 2; threads++) {
                mcts_options_t opt;
                mcts_options_default(&opt);
                opt.iterations = 3000;
                opt.threads = threads;
                opt.memory_bytes = caps[c];
                mcts_t *m = mcts_new(api, &opt);
                CHECK(m != NULL);
                if (!m)
                    continue;
                mcts_stats_t st;
                move_t mv = mcts_search(m, s, &st);
                CHECK(is_legal(api, s, mv));
                CHECK(st.memory_capped);
                CHECK_EQ_INT(st.iterations, 3000);
                CHECK_MSG(mcts_check(m, err, sizeof err) == 0, "%s cap %zu: %s", api->name, caps[c],
                          err);
                CHECK_MSG((size_t)st.nodes * (88 + 24 * (size_t)threads) <= caps[c],
                          "%s cap %zu: %ld nodes", api->name, caps[c], st.nodes);
                mcts_free(m);
            }
        }
    }
}

/*
 * mcts_stats_t.root_value: the mean result per seat of the search's iterations. Results
 * of a game sum to players / 2 (RULES.md 1.10), so do the means; and as every iteration
 * passes one root move, the searcher's own is the visit-weighted mean of the root moves'
 * means (one tree, a tree per player, or a tree per thread).
 */
static void test_root_value(void)
{
    for (int g = 0; g < 2; g++) {
        const game_api_t *api = g ? &uptown_api : &towerup_api;
        alignas(16) unsigned char s[2048];
        game_options_t o;
        game_options_default(&o);
        o.players = 3;
        o.seed = 77;
        char err[256];
        CHECK(api->new_game(s, &o, err, sizeof err) == 0);
        int me = api->to_move(s);
        for (int mode = 0; mode < 3; mode++) {
            mcts_options_t opt;
            mcts_options_default(&opt);
            opt.iterations = 2000;
            opt.threads = mode == 0 ? 1 : 2;
            if (mode == 1)
                opt.tree = MCTS_TREE_MULTI;
            if (mode == 2)
                opt.parallel = MCTS_PARALLEL_ROOT;
            mcts_t *m = mcts_new(api, &opt);
            CHECK(m != NULL);
            if (!m)
                continue;
            mcts_stats_t st;
            mcts_search(m, s, &st);
            double sum = 0, weighted = 0;
            long visits = 0;
            for (int p = 0; p < 3; p++) {
                CHECK(st.root_value[p] >= 0 && st.root_value[p] <= 1);
                sum += st.root_value[p];
            }
            for (int i = 0; i < st.root_move_count; i++) {
                weighted += st.root_moves[i].mean * (double)st.root_moves[i].visits;
                visits += st.root_moves[i].visits;
            }
            CHECK_MSG(fabs(sum - 1.5) < 1e-9, "%s mode %d: values sum to %g", api->name, mode, sum);
            CHECK_EQ_INT(visits, st.iterations);
            CHECK_MSG(fabs(weighted / (double)visits - st.root_value[me]) < 1e-6,
                      "%s mode %d: root value %g, the moves' mean %g", api->name, mode,
                      st.root_value[me], weighted / (double)visits);
            CHECK(st.root_value[3] == 0 && st.root_value[4] == 0);
            mcts_free(m);
        }
    }
}

int main(void)
{
    test_root_value();
    test_memory_caps();
    test_towerup_last_roof();
    test_uptown_join();
    test_towerup_no_peeking();
    test_uptown_no_peeking();
    return test_finish("test_search_games");
}
