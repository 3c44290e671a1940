/*
 * The mcts bot's self-play keys (bots/BOTS.md, "Self-play keys"): noise=EPS mixes
 * Dirichlet noise into the root's priors (search/noise.c), temp_moves=M draws the bot's
 * first M moves of a game in proportion to the root's visits. Checks: a seeded game with
 * noise differs from the one without and is the same when played again, with the
 * heuristic prior (Tower Up) and with a net's (Connect Four), and whole games run with two
 * threads in each parallel mode and with a tree per player; temp_moves draws a move
 * other than the most visited as often as the visits say (over fixed seeds, within five
 * standard deviations), never an unvisited one, and from the bot's (M+1)-th move of a game
 * on, extra turns included, plays the most visited; bad values and combinations are
 * refused with one line naming the key.
 */
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "bots/mcts_bot.h"
#include "core/connect4/connect4.h"
#include "core/towerup/towerup.h"
#include "nn/net.h"
#include "search/mcts.h"
#include "tests/test.h"

/* Most moves a test game may have. */
#define MAX_PLIES 1000

/* A new 2-player game of api from seed in a malloc'd state. */
static void *new_game(const game_api_t *api, uint64_t seed, game_options_t *o)
{
    game_options_default(o);
    o->players = 2;
    o->seed = seed;
    void *s = aligned_alloc(64, (api->state_size + 63) / 64 * 64);
    char err[GAME_ERR_MAX];
    CHECK(s != NULL);
    if (s && api->new_game(s, o, err, sizeof err)) {
        CHECK_MSG(false, "%s", err);
        free(s);
        return NULL;
    }
    return s;
}

/* A 2-player game of api from seed, both seats bots of spec seeded by seed and seat: its
   moves into moves, their count returned (-1 if a bot cannot be made). */
static int play_game(const game_api_t *api, const char *spec, uint64_t seed, move_t *moves)
{
    game_options_t o;
    void *s = new_game(api, seed, &o);
    bot_t *b[2] = {NULL, NULL};
    char err[GAME_ERR_MAX];
    for (int p = 0; p < 2; p++) {
        b[p] = bot_new(api, spec, seed * 2 + (uint64_t)p, err, sizeof err);
        CHECK_MSG(b[p] != NULL, "%s: %s", spec, err);
    }
    int count = -1;
    if (s && b[0] && b[1]) {
        alignas(16) unsigned char undo[GAME_UNDO_MAX];
        for (int p = 0; p < 2; p++)
            bot_begin(b[p], s, &o, p);
        for (count = 0; !api->is_terminal(s) && count < MAX_PLIES; count++) {
            move_t mv = bot_choose(b[api->to_move(s)], s);
            for (int p = 0; p < 2; p++)
                bot_observe(b[p], s, mv);
            api->make(s, mv, undo);
            moves[count] = mv;
        }
    }
    for (int p = 0; p < 2; p++)
        bot_free(b[p]);
    free(s);
    return count;
}

/* True if the games of specs a and b from seed are the very same. */
static bool same_game(const game_api_t *api, const char *a, const char *b, uint64_t seed)
{
    static move_t ma[MAX_PLIES], mb[MAX_PLIES];
    int na = play_game(api, a, seed, ma), nb = play_game(api, b, seed, mb);
    CHECK(na > 0 && nb > 0);
    return na == nb && !memcmp(ma, mb, (size_t)na * sizeof *ma);
}

/* noise=: a game differs from the one without and is reproducible, on api with specs
   plain (no noise) and noisy. */
static void check_noise_game(const game_api_t *api, const char *plain, const char *noisy)
{
    for (uint64_t seed = 1; seed <= 2; seed++) {
        CHECK_MSG(same_game(api, noisy, noisy, seed), "%s, seed %d: not reproducible", noisy,
                  (int)seed);
        CHECK_MSG(same_game(api, plain, plain, seed), "%s, seed %d: not reproducible", plain,
                  (int)seed);
        CHECK_MSG(!same_game(api, plain, noisy, seed), "%s and %s, seed %d: the same game", plain,
                  noisy, (int)seed);
    }
}

static void check_noise(void)
{
    /* Tower Up: the best preset's heuristic prior. */
    check_noise_game(&towerup_api, "mcts:iters=150", "mcts:iters=150,noise=0.5");
    check_noise_game(&towerup_api, "mcts:iters=150",
                     "mcts:iters=150,noise=0.25,noise_alpha=0.3,temp_moves=3");
    /* Two threads on one tree, one tree each, a tree per player: whole games. */
    static move_t moves[MAX_PLIES];
    const char *threaded[] = {"mcts:iters=200,threads=2,noise=0.5",
                              "mcts:iters=200,threads=2,parallel=root,noise=0.5",
                              "mcts:iters=200,threads=2,tree=multi,noise=0.5"};
    for (int k = 0; k < 3; k++)
        CHECK_MSG(play_game(&towerup_api, threaded[k], 1, moves) > 0, "%s", threaded[k]);
    /* Connect Four: a net's prior. */
    const char *path = "test_mcts_selfplay.net";
    char err[GAME_ERR_MAX];
    nn_net_t *net = nn_net_random(&connect4_api, 2, 16, 1, 5, NULL, NULL, err, sizeof err);
    CHECK_MSG(net && nn_net_save(net, path, err, sizeof err) == 0, "%s", err);
    nn_net_free(net);
    char plain[128], noisy[160];
    snprintf(plain, sizeof plain, "mcts:iters=100,net=%s", path);
    snprintf(noisy, sizeof noisy, "%s,noise=0.5", plain);
    check_noise_game(&connect4_api, plain, noisy);
    remove(path);
}

/* Visits of the most visited root move of st, and those of mv (-1: not a root move). */
static long top_visits(const mcts_stats_t *st, move_t mv, long *mv_visits)
{
    long top = 0;
    *mv_visits = -1;
    for (int i = 0; i < st->root_move_count; i++) {
        if (st->root_moves[i].visits > top)
            top = st->root_moves[i].visits;
        if (st->root_moves[i].move == mv)
            *mv_visits = st->root_moves[i].visits;
    }
    return top;
}

/* temp_moves=1 on one position over many bot seeds: how often a move other than a most
   visited one is drawn, against the expectation from each search's visits. */
static void check_temp_frequency(void)
{
    enum { DRAWS = 600 };
    game_options_t o;
    void *s = new_game(&towerup_api, 3, &o);
    char err[GAME_ERR_MAX];
    bot_t *b = bot_new(&towerup_api, "mcts:preset=plain,iters=40,temp_moves=1", 1, err, sizeof err);
    CHECK_MSG(b != NULL, "%s", err);
    if (!s || !b) {
        free(s);
        bot_free(b);
        return;
    }
    double expect = 0.0, var = 0.0;
    int other = 0, unvisited = 0;
    for (int k = 0; k < DRAWS; k++) {
        bot_reset(b, 1000 + (uint64_t)k);
        bot_begin(b, s, &o, 0);
        move_t mv = bot_choose(b, s);
        const mcts_stats_t *st = mcts_bot_last_stats(b);
        long v, total = 0, at_top = 0, top = top_visits(st, mv, &v);
        for (int i = 0; i < st->root_move_count; i++) {
            total += st->root_moves[i].visits;
            at_top += st->root_moves[i].visits == top ? top : 0;
        }
        double q = 1.0 - (double)at_top / (double)total;
        expect += q;
        var += q * (1.0 - q);
        other += v < top;
        unvisited += v <= 0;
    }
    CHECK_MSG(unvisited == 0, "%d draws of an unvisited move", unvisited);
    CHECK_MSG(fabs(other - expect) <= 5.0 * sqrt(var) + 1.0 && expect > 20.0,
              "moves other than the most visited: %d drawn, %.1f expected (sd %.1f)", other, expect,
              sqrt(var));
    bot_free(b);
    free(s);
}

/* temp_moves=4 through whole games: a seat's first four choices may be any visited move,
   every later one (extra turns counted as the seat's moves) is a most visited one. */
static void check_temp_count(void)
{
    int early_other = 0, late = 0, extra_turns = 0;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        game_options_t o;
        void *s = new_game(&towerup_api, seed, &o);
        bot_t *b[2];
        char err[GAME_ERR_MAX];
        for (int p = 0; p < 2; p++) {
            b[p] = bot_new(&towerup_api, "mcts:preset=plain,iters=30,temp_moves=4",
                           seed * 2 + (uint64_t)p, err, sizeof err);
            CHECK_MSG(b[p] != NULL, "%s", err);
        }
        if (!s || !b[0] || !b[1])
            return;
        for (int p = 0; p < 2; p++)
            bot_begin(b[p], s, &o, p);
        int made[2] = {0, 0}, last = -1;
        alignas(16) unsigned char undo[GAME_UNDO_MAX];
        for (int ply = 0; !towerup_api.is_terminal(s) && ply < MAX_PLIES; ply++) {
            int p = towerup_api.to_move(s);
            extra_turns += p == last;
            last = p;
            move_t mv = bot_choose(b[p], s);
            long v, top = top_visits(mcts_bot_last_stats(b[p]), mv, &v);
            if (made[p] < 4)
                early_other += v < top;
            else
                CHECK_MSG(v == top, "seed %d seat %d move %d: %ld visits, the most %ld", (int)seed,
                          p, made[p] + 1, v, top);
            late += made[p] >= 4;
            made[p]++;
            for (int q = 0; q < 2; q++)
                bot_observe(b[q], s, mv);
            towerup_api.make(s, mv, undo);
        }
        for (int p = 0; p < 2; p++)
            bot_free(b[p]);
        free(s);
    }
    CHECK_MSG(early_other > 0 && late > 50 && extra_turns > 0,
              "%d early moves not the most visited, %d later moves, %d extra turns", early_other,
              late, extra_turns);
}

/* bot_new refuses spec on api with one line that holds want. */
static void check_refused(const game_api_t *api, const char *spec, const char *want)
{
    char err[GAME_ERR_MAX];
    bot_t *b = bot_new(api, spec, 1, err, sizeof err);
    CHECK_MSG(!b && strstr(err, want) && !strchr(err, '\n'), "%s: %s", spec, b ? "accepted" : err);
    bot_free(b);
}

static void check_bad_values(void)
{
    check_refused(&towerup_api, "mcts:noise=1.5",
                  "bad value '1.5' for key 'noise' (a number from 0 to 1)");
    check_refused(&towerup_api, "mcts:noise=x", "'noise'");
    check_refused(&towerup_api, "mcts:noise=0.25,noise_alpha=0", "from 0.001 to 1000");
    check_refused(&towerup_api, "mcts:noise_alpha=0.3", "key 'noise_alpha' needs noise=");
    check_refused(&towerup_api, "mcts:noise=0,noise_alpha=0.3", "needs noise= above 0");
    check_refused(&towerup_api, "mcts:preset=plain,noise=0.25", "key 'noise' needs a prior");
    check_refused(&towerup_api, "mcts:prior=none,noise=0.25", "key 'noise' needs a prior");
    check_refused(&connect4_api, "mcts:noise=0.25", "key 'noise' needs a prior");
    check_refused(&towerup_api, "mcts:temp_moves=-1", "from 0 to 1000000");
    check_refused(&towerup_api, "mcts:temp_moves=1.5", "'temp_moves'");
    /* The search refuses noise without a prior hook too, saying why. */
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.root_noise = 0.25;
    char err[GAME_ERR_MAX];
    mcts_t *m = mcts_create(&towerup_api, &opt, err, sizeof err);
    CHECK_MSG(!m && strstr(err, "root_noise without a prior hook"), "%s", m ? "made" : err);
    mcts_free(m);
}

int main(void)
{
    check_bad_values();
    check_noise();
    check_temp_frequency();
    check_temp_count();
    return test_finish("test_mcts_selfplay");
}
