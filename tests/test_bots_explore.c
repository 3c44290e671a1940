/*
 * Exploration keys of the heuristic and greedy bots (temp=T, eps=E), on fixed positions of
 * both games: the default and temp=0,eps=0 choose exactly as before (the argmax, the same
 * random numbers drawn); eps=E plays a uniformly random move a share E of the time; temp=T
 * draws moves with the softmax probabilities of the scores; each is deterministic for a
 * seed. Frequencies are counted over many bot seeds (fixed, so the test is deterministic)
 * and compared with their expectation within five standard deviations.
 */
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>

#include "bots/bot.h"
#include "bots/heuristic.h"
#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "tests/test.h"

/* Room for a state of either game, aligned for any field. */
typedef struct any_state {
    alignas(16) unsigned char bytes[2048]; /* the state's bytes */
} any_state_t;

static const game_api_t *const games[] = {&towerup_api, &uptown_api};
#define GAME_COUNT 2

/* Bot seeds per frequency count. */
#define DRAWS 4000

/*
 * A position of a 2-player game after plies random moves from seed, with at least 4 legal
 * moves and one best heuristic score by a clear margin: 0, or -1 if the game ends first.
 */
static int explore_position(const game_api_t *api, uint64_t seed, int plies, any_state_t *s)
{
    game_options_t o;
    game_options_default(&o);
    o.players = 2;
    o.seed = seed;
    char err[GAME_ERR_MAX];
    if (api->new_game(s, &o, err, sizeof err))
        return -1;
    pcg32_t rng;
    pcg32_seed(&rng, seed, 3);
    alignas(16) unsigned char undo[GAME_UNDO_MAX];
    move_t moves[GAME_MAX_MOVES];
    for (int k = 0; k < plies; k++) {
        int n = api->gen_moves(s, moves);
        api->make(s, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
        if (api->is_terminal(s))
            return -1;
    }
    return 0;
}

/* The moves of s, their default scores and the index of the best: the move count. */
static int scored_moves(const game_api_t *api, const void *s, move_t *moves, double *scores,
                        int *best)
{
    const heuristic_t *h = heuristic_for(api);
    heur_params_t w;
    heur_params_default(h, &w);
    int n = api->gen_moves(s, moves);
    h->score_moves(s, moves, n, &w, scores);
    *best = 0;
    for (int i = 1; i < n; i++)
        if (scores[i] > scores[*best])
            *best = i;
    return n;
}

/* A position with >= 4 moves whose best score leads the next by more than 1e-6. */
static int clear_position(const game_api_t *api, any_state_t *s)
{
    move_t moves[GAME_MAX_MOVES];
    double scores[GAME_MAX_MOVES];
    for (uint64_t seed = 1; seed < 200; seed++) {
        if (explore_position(api, seed, 12 + (int)(seed % 7), s))
            continue;
        int best, n = scored_moves(api, s, moves, scores, &best);
        if (n < 4 || n > 120)
            continue;
        bool clear = true;
        for (int i = 0; i < n; i++)
            clear = clear && (i == best || scores[i] < scores[best] - 1e-6);
        if (clear)
            return 0;
    }
    CHECK_MSG(false, "%s: no position with a clear best move", api->name);
    return -1;
}

/* counts[i] = how often spec chose move i of moves[0..n) at s over DRAWS bot seeds. */
static void count_choices(const game_api_t *api, const char *spec, const void *s,
                          const move_t *moves, int n, long *counts)
{
    char err[GAME_ERR_MAX];
    bot_t *b = bot_new(api, spec, 1, err, sizeof err);
    CHECK_MSG(b != NULL, "%s: %s", spec, err);
    memset(counts, 0, sizeof *counts * (size_t)n);
    if (!b)
        return;
    for (uint64_t seed = 0; seed < DRAWS; seed++) {
        bot_reset(b, seed * 7919 + 11);
        move_t m = bot_choose(b, s);
        int i = 0;
        while (i < n && moves[i] != m)
            i++;
        CHECK_MSG(i < n, "%s %s: illegal move %u", api->name, spec, m);
        if (i < n)
            counts[i]++;
    }
    bot_free(b);
}

/* Each counts[i] / DRAWS is within five standard deviations of p[i]. */
static void check_frequencies(const char *what, const long *counts, const double *p, int n)
{
    for (int i = 0; i < n; i++) {
        double f = (double)counts[i] / DRAWS;
        double sd = sqrt(p[i] * (1 - p[i]) / DRAWS);
        CHECK_MSG(fabs(f - p[i]) <= 5 * sd + 1e-9, "%s: move %d chosen %.4f, expected %.4f", what,
                  i, f, p[i]);
    }
}

/* Bots a and b choose the same move at s for every one of 300 seeds. */
static void check_same_choices(const game_api_t *api, const char *a, const char *b, const void *s)
{
    char err[GAME_ERR_MAX];
    bot_t *ba = bot_new(api, a, 1, err, sizeof err), *bb = bot_new(api, b, 1, err, sizeof err);
    CHECK_MSG(ba && bb, "%s or %s: %s", a, b, err);
    for (uint64_t seed = 0; ba && bb && seed < 300; seed++) {
        bot_reset(ba, seed);
        bot_reset(bb, seed);
        move_t ma = bot_choose(ba, s), mb = bot_choose(bb, s);
        /* Twice more: the random numbers drawn so far must also be the same. */
        ma ^= bot_choose(ba, s) << 1;
        mb ^= bot_choose(bb, s) << 1;
        CHECK_MSG(ma == mb, "%s seed %llu: %s and %s differ", api->name, (unsigned long long)seed,
                  a, b);
    }
    bot_free(ba);
    bot_free(bb);
}

static void test_heuristic(const game_api_t *api)
{
    any_state_t s;
    if (clear_position(api, &s))
        return;
    move_t moves[GAME_MAX_MOVES];
    double scores[GAME_MAX_MOVES], p[GAME_MAX_MOVES] = {0};
    long counts[GAME_MAX_MOVES];
    int best, n = scored_moves(api, &s, moves, scores, &best);
    char what[128];

    /* Default: always the best move, and temp=0,eps=0 is the default draw for draw. */
    count_choices(api, "heuristic", &s, moves, n, counts);
    CHECK_MSG(counts[best] == DRAWS, "%s heuristic: best move %ld of %d", api->name, counts[best],
              DRAWS);
    check_same_choices(api, "heuristic", "heuristic:temp=0,eps=0", &s);

    /* eps: the best move 1 - E + E/n of the time, every other E/n. */
    const double eps = 0.4;
    for (int i = 0; i < n; i++)
        p[i] = eps / n + (i == best ? 1 - eps : 0);
    count_choices(api, "heuristic:eps=0.4", &s, moves, n, counts);
    snprintf(what, sizeof what, "%s heuristic:eps=0.4", api->name);
    check_frequencies(what, counts, p, n);
    count_choices(api, "heuristic:eps=1", &s, moves, n, counts);
    for (int i = 0; i < n; i++)
        p[i] = 1.0 / n;
    snprintf(what, sizeof what, "%s heuristic:eps=1", api->name);
    check_frequencies(what, counts, p, n);

    /* temp: the softmax of score / T, at a temperature where it is spread. */
    double spread = 0;
    for (int i = 0; i < n; i++)
        spread = fmax(spread, scores[best] - scores[i]);
    double temp = spread / 3, sum = 0;
    for (int i = 0; i < n; i++)
        sum += p[i] = exp((scores[i] - scores[best]) / temp);
    for (int i = 0; i < n; i++)
        p[i] /= sum;
    char spec[64];
    snprintf(spec, sizeof spec, "heuristic:temp=%.17g", temp);
    count_choices(api, spec, &s, moves, n, counts);
    snprintf(what, sizeof what, "%s %s", api->name, spec);
    check_frequencies(what, counts, p, n);
    CHECK_MSG(counts[best] < DRAWS, "%s: temp never left the best move", what);

    /* Deterministic for a seed. */
    check_same_choices(api, spec, spec, &s);
    check_same_choices(api, "heuristic:eps=0.3,temp=0.2", "heuristic:temp=0.2,eps=0.3", &s);
}

static void test_greedy(const game_api_t *api)
{
    any_state_t s;
    if (clear_position(api, &s))
        return;
    move_t moves[GAME_MAX_MOVES];
    double scores[GAME_MAX_MOVES], p[GAME_MAX_MOVES] = {0};
    long counts[GAME_MAX_MOVES], plain[GAME_MAX_MOVES];
    int best, n = scored_moves(api, &s, moves, scores, &best);
    char what[128];

    check_same_choices(api, "greedy", "greedy:temp=0,eps=0", &s);
    count_choices(api, "greedy", &s, moves, n, plain);
    int top = 0, distinct = 0;
    for (int i = 0; i < n; i++) {
        top = plain[i] > plain[top] ? i : top;
        distinct += plain[i] > 0;
    }

    /* eps=1 and a huge temperature: uniform. */
    for (int i = 0; i < n; i++)
        p[i] = 1.0 / n;
    count_choices(api, "greedy:eps=1", &s, moves, n, counts);
    snprintf(what, sizeof what, "%s greedy:eps=1", api->name);
    check_frequencies(what, counts, p, n);
    count_choices(api, "greedy:temp=1e9", &s, moves, n, counts);
    snprintf(what, sizeof what, "%s greedy:temp=1e9", api->name);
    check_frequencies(what, counts, p, n);

    /* eps=0.5: half of the default's choices, plus a uniform half. */
    for (int i = 0; i < n; i++)
        p[i] = 0.5 * (double)plain[i] / DRAWS + 0.5 / n;
    count_choices(api, "greedy:eps=0.5", &s, moves, n, counts);
    snprintf(what, sizeof what, "%s greedy:eps=0.5", api->name);
    /* The default's frequencies are themselves counted: allow for their noise too. */
    for (int i = 0; i < n; i++) {
        double f = (double)counts[i] / DRAWS, sd = sqrt(2 * p[i] * (1 - p[i]) / DRAWS);
        CHECK_MSG(fabs(f - p[i]) <= 5 * sd + 1e-9, "%s: move %d chosen %.4f, expected %.4f", what,
                  i, f, p[i]);
    }

    /* A moderate temperature: more moves tried than by argmax, the favourite still first. */
    count_choices(api, "greedy:temp=0.02", &s, moves, n, counts);
    int tdistinct = 0, ttop = 0;
    for (int i = 0; i < n; i++) {
        tdistinct += counts[i] > 0;
        ttop = counts[i] > counts[ttop] ? i : ttop;
    }
    CHECK_MSG(tdistinct > distinct, "%s greedy:temp=0.02: %d moves tried, argmax %d", api->name,
              tdistinct, distinct);
    CHECK_MSG(counts[top] < plain[top], "%s greedy:temp=0.02: favourite not less often", api->name);
    check_same_choices(api, "greedy:temp=0.02,eps=0.1", "greedy:eps=0.1,temp=0.02", &s);
}

/* Bad values are refused naming the key. */
static void test_errors(const game_api_t *api)
{
    const char *bad[] = {"heuristic:eps=1.5", "heuristic:eps=-0.1", "heuristic:eps=x",
                         "greedy:temp=-1",    "greedy:eps=2",       "greedy:temp=hot"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char err[GAME_ERR_MAX] = "";
        bot_t *b = bot_new(api, bad[i], 1, err, sizeof err);
        CHECK_MSG(b == NULL, "%s: accepted", bad[i]);
        bot_free(b);
        const char *key = strchr(bad[i], ':') + 1;
        char name[8];
        snprintf(name, sizeof name, "%.*s", (int)(strchr(key, '=') - key), key);
        CHECK_MSG(strstr(err, name) != NULL, "%s: '%s' does not name the key", bad[i], err);
    }
}

int main(void)
{
    for (int g = 0; g < GAME_COUNT; g++) {
        test_errors(games[g]);
        test_heuristic(games[g]);
        test_greedy(games[g]);
    }
    return test_finish("test_bots_explore");
}
