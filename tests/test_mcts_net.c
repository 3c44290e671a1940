/*
 * mcts:net=FILE (bots/mcts_net.c, docs/NETS.md): a search with a network's prior and value.
 * Nets are made here with nn_net_random (and edited through nn/internal.h for a policy
 * that puts all its mass on one move). Checks: the search is deterministic with a seed;
 * it visits most the move the policy prefers; the hooks give the net's values to the
 * right seats and blend with value_mix; one forward pass per new node; tree and root
 * parallelism; bad files, another game and another player count are refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "bots/mcts_bot.h"
#include "bots/mcts_net.h"
#include "core/connect4/connect4.h"
#include "core/towerup/towerup.h"
#include "nn/internal.h"
#include "tests/test.h"

/* Saves a random net for api and players to path. */
static void make_net(const game_api_t *api, int players, uint64_t seed, const char *path)
{
    char err[256];
    nn_net_t *net = nn_net_random(api, players, 32, 1, seed, NULL, NULL, err, sizeof err);
    CHECK_MSG(net && nn_net_save(net, path, err, sizeof err) == 0, "%s", err);
    nn_net_free(net);
}

/* A Connect Four net whose policy gives action `action` a logit of 30, every other 0. */
static void make_onehot_net(int action, const char *path)
{
    char err[256];
    nn_net_t *net = nn_net_random(&connect4_api, 2, 32, 1, 7, NULL, NULL, err, sizeof err);
    CHECK(net != NULL);
    if (!net)
        return;
    memset((float *)net->policy_w, 0, (size_t)net->A * (size_t)net->H * sizeof(float));
    memset((float *)net->policy_b, 0, (size_t)net->A * sizeof(float));
    ((float *)net->policy_b)[action] = 30.0f;
    CHECK_MSG(nn_net_save(net, path, err, sizeof err) == 0, "%s", err);
    nn_net_free(net);
}

static void new_state(const game_api_t *api, int players, uint64_t seed, void *state)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = players;
    opt.seed = seed;
    char err[256];
    CHECK_MSG(api->new_game(state, &opt, err, sizeof err) == 0, "%s", err);
}

/* The root statistics of one search by a new bot. */
static int search_once(const game_api_t *api, const char *spec, uint64_t seed, const void *state,
                       mcts_move_stat_t *out)
{
    char err[512];
    bot_t *b = bot_new(api, spec, seed, err, sizeof err);
    CHECK_MSG(b != NULL, "%s: %s", spec, err);
    if (!b)
        return 0;
    bot_choose(b, state);
    const mcts_stats_t *st = bot_last_search(b);
    int n = st ? st->root_move_count : 0;
    for (int i = 0; i < n; i++)
        out[i] = st->root_moves[i];
    bot_free(b);
    return n;
}

/* Same seed, same search (Tower Up: determinized every iteration). */
static void test_deterministic(void)
{
    make_net(&towerup_api, 2, 3, "test_mcts_net_tu2.net");
    _Alignas(16) unsigned char state[towerup_api.state_size];
    new_state(&towerup_api, 2, 11, state);
    const char *spec = "mcts:net=test_mcts_net_tu2.net,iters=300";
    static mcts_move_stat_t a[GAME_MAX_MOVES], b[GAME_MAX_MOVES];
    int na = search_once(&towerup_api, spec, 5, state, a);
    int nb = search_once(&towerup_api, spec, 5, state, b);
    CHECK(na > 1 && na == nb);
    long visits = 0;
    for (int i = 0; i < na && i < nb; i++) {
        CHECK(a[i].move == b[i].move && a[i].visits == b[i].visits && a[i].mean == b[i].mean);
        visits += a[i].visits;
    }
    CHECK_EQ_INT(visits, 300);
}

/* A policy with all its mass on one move: that move is visited most at small budgets. */
static void test_onehot_policy(void)
{
    _Alignas(16) unsigned char state[connect4_api.state_size];
    new_state(&connect4_api, 2, 1, state);
    move_t moves[GAME_MAX_MOVES];
    int n = connect4_api.gen_moves(state, moves);
    CHECK_EQ_INT(n, 7);
    for (int pick = 0; pick < n; pick += 6) { /* the first and the last column */
        int action = connect4_api.move_action(state, moves[pick]);
        make_onehot_net(action, "test_mcts_net_onehot.net");
        for (int iters = 20; iters <= 200; iters *= 10) {
            char spec[128];
            snprintf(spec, sizeof spec, "mcts:net=test_mcts_net_onehot.net,iters=%d", iters);
            mcts_move_stat_t st[GAME_MAX_MOVES];
            int k = search_once(&connect4_api, spec, 1, state, st);
            CHECK_MSG(k == 7 && st[0].move == moves[pick], "%s: most visited %u, not %u", spec,
                      (unsigned)st[0].move, (unsigned)moves[pick]);
            CHECK_MSG(st[0].visits > iters / 2, "%s: %ld visits", spec, st[0].visits);
        }
    }
    remove("test_mcts_net_onehot.net");
}

/* The evaluate hook gives value j of the net to seat (mover + j) mod players; value_mix 1
   is a playout's result; the prior hook is the softmax of the gathered logits. */
static void test_hooks(void)
{
    make_net(&towerup_api, 3, 9, "test_mcts_net_tu3.net");
    _Alignas(16) unsigned char state[towerup_api.state_size], undo[GAME_UNDO_MAX];
    new_state(&towerup_api, 3, 4, state);
    move_t moves[GAME_MAX_MOVES];
    int n = towerup_api.gen_moves(state, moves);
    towerup_api.make(state, moves[n - 1], undo);
    int mover = towerup_api.to_move(state);
    n = towerup_api.gen_moves(state, moves);
    CHECK(n > 1 && n <= GAME_MAX_MOVES);

    char err[256];
    nn_net_t *net = nn_net_load("test_mcts_net_tu3.net", &towerup_api, 3, err, sizeof err);
    CHECK_MSG(net != NULL, "%s", err);
    nn_workspace_t *ws = nn_workspace_new(net, 1);
    float *obs = malloc((size_t)towerup_api.observation_size(3) * sizeof(float));
    static int ids[GAME_MAX_MOVES];
    static float logits[GAME_MAX_MOVES], want_prior[GAME_MAX_MOVES];
    float v[3];
    towerup_api.observation(state, mover, obs);
    for (int i = 0; i < n; i++)
        ids[i] = towerup_api.move_action(state, moves[i]);
    CHECK(nn_eval(net, ws, obs, ids, n, logits, v) == 0);
    nn_softmax(logits, n, want_prior);

    for (int mix = 0; mix <= 1; mix++) {
        mcts_net_options_t o = {.threads = 2, .prior_temp = 1.0, .value_mix = mix};
        mcts_net_t *mn = mcts_net_new(&towerup_api, "test_mcts_net_tu3.net", &o, err, sizeof err);
        CHECK_MSG(mn != NULL, "%s", err);
        if (!mn)
            continue;
        CHECK_EQ_INT(mcts_net_players(mn), 3);
        double values[3], sum = 0.0;
        mcts_net_evaluate(&towerup_api, state, values, mn);
        for (int j = 0; j < 3; j++) {
            if (!mix)
                CHECK(values[(mover + j) % 3] == (double)v[j]);
            sum += values[j];
        }
        if (mix) /* a finished game's results: places share 1 + 0.5 + 0 */
            CHECK(fabs(sum - 1.5) < 1e-9);
        static double priors[GAME_MAX_MOVES];
        mcts_net_prior(&towerup_api, state, moves, n, priors, mn);
        for (int i = 0; i < n; i++)
            CHECK(priors[i] == (double)want_prior[i]);
        CHECK_EQ_INT(mcts_net_evals(mn), 1); /* the prior came from the evaluation's cache */
        mcts_net_free(mn);
    }
    free(obs);
    nn_workspace_free(ws);
    nn_net_free(net);
}

/* One forward pass per new node (the leaf's, whose priors serve its expansion), in one
   thread; with several threads and both parallel modes the search stays sound. */
static void test_search(void)
{
    make_net(&connect4_api, 2, 5, "test_mcts_net_c4.net");
    _Alignas(16) unsigned char state[connect4_api.state_size];
    new_state(&connect4_api, 2, 1, state);
    char err[256];
    for (int threads = 1; threads <= 3; threads += 2)
        for (int mode = MCTS_PARALLEL_TREE; mode <= MCTS_PARALLEL_ROOT; mode++) {
            mcts_net_options_t no = {.threads = threads, .prior_temp = 1.0};
            mcts_net_t *mn =
                mcts_net_new(&connect4_api, "test_mcts_net_c4.net", &no, err, sizeof err);
            CHECK_MSG(mn != NULL, "%s", err);
            if (!mn)
                continue;
            mcts_options_t opt;
            mcts_options_default(&opt);
            opt.iterations = 600;
            opt.threads = threads;
            opt.parallel = (mcts_parallel_t)mode;
            opt.prior = mcts_net_prior;
            opt.prior_ctx = mn;
            opt.evaluate = mcts_net_evaluate;
            opt.evaluate_ctx = mn;
            opt.cutoff_depth = 0;
            opt.prior_form = MCTS_PRIOR_PUCT;
            opt.c = 0.0;
            mcts_t *m = mcts_new(&connect4_api, &opt);
            CHECK(m != NULL);
            mcts_stats_t st;
            move_t mv = mcts_search(m, state, &st);
            move_t moves[GAME_MAX_MOVES];
            int n = connect4_api.gen_moves(state, moves), legal = 0;
            for (int i = 0; i < n; i++)
                legal |= moves[i] == mv;
            CHECK(legal);
            CHECK_EQ_INT(st.iterations, 600);
            CHECK_MSG(mcts_check(m, err, sizeof err) == 0, "%s", err);
            long evals = mcts_net_evals(mn);
            if (threads == 1) /* each node's leaf pass, and once more for the root's prior */
                CHECK_MSG(evals <= st.nodes + 1 && evals >= st.nodes / 2, "%ld passes, %ld nodes",
                          evals, st.nodes);
            else
                CHECK_MSG(evals > 0 && evals <= 2 * 600, "%ld passes", evals);
            mcts_free(m);
            mcts_net_free(mn);
        }
    /* The bot with three threads: a legal move, through the key. */
    mcts_move_stat_t st[GAME_MAX_MOVES];
    CHECK(search_once(&connect4_api, "mcts:net=test_mcts_net_c4.net,threads=3,iters=400", 2, state,
                      st) == 7);
}

/* Bad nets: not a net, another game, another player count, a truncated file. */
static void test_refused(void)
{
    char err[512];
    FILE *f = fopen("test_mcts_net_bad.net", "wb");
    CHECK(f != NULL);
    if (f) {
        fputs("not a net at all", f);
        fclose(f);
    }
    bot_t *b = bot_new(&connect4_api, "mcts:net=test_mcts_net_bad.net", 1, err, sizeof err);
    CHECK_MSG(!b && strstr(err, "test_mcts_net_bad.net: ") && !strchr(err, '\n'), "%s", err);
    b = bot_new(&connect4_api, "mcts:net=test_mcts_net_tu2.net", 1, err, sizeof err);
    CHECK_MSG(!b && strstr(err, "the net is for towerup, not connect4"), "%s", err);
    /* A truncated copy. */
    char *data = test_read_file("test_mcts_net_tu2.net");
    f = fopen("test_mcts_net_bad.net", "wb");
    if (f) {
        fwrite(data, 1, 200, f);
        fclose(f);
    }
    free(data);
    b = bot_new(&towerup_api, "mcts:net=test_mcts_net_bad.net", 1, err, sizeof err);
    CHECK_MSG(!b && strstr(err, "test_mcts_net_bad.net: "), "%s", err);
    /* Another player count: refused by bot_check_players, and a forfeit if played. */
    b = bot_new(&towerup_api, "mcts:net=test_mcts_net_tu2.net,iters=10", 1, err, sizeof err);
    CHECK_MSG(b != NULL, "%s", err);
    if (b) {
        CHECK(bot_check_players(b, 2, err, sizeof err) == 0);
        CHECK(bot_check_players(b, 3, err, sizeof err) == -1);
        CHECK_MSG(strstr(err, "the net is for 2 players, not 3"), "%s", err);
        _Alignas(16) unsigned char state[towerup_api.state_size];
        new_state(&towerup_api, 3, 1, state);
        game_options_t opt;
        game_options_default(&opt);
        opt.players = 3;
        bot_begin(b, state, &opt, 0);
        CHECK(bot_faulted(b, err, sizeof err) && strstr(err, "not 3"));
        bot_free(b);
    }
    /* pimc passes the net to its inner mcts bot: the same checks, and a fault, no crash,
       when it is asked to move in a game of another count. */
    b = bot_new(&towerup_api, "pimc:net=test_mcts_net_tu2.net,iters=20", 1, err, sizeof err);
    CHECK_MSG(b != NULL, "%s", err);
    if (b) {
        CHECK(bot_check_players(b, 2, err, sizeof err) == 0);
        CHECK(bot_check_players(b, 3, err, sizeof err) == -1 && strstr(err, "not 3"));
        _Alignas(16) unsigned char state[towerup_api.state_size];
        new_state(&towerup_api, 3, 1, state);
        bot_choose(b, state);
        CHECK(bot_faulted(b, err, sizeof err) && strstr(err, "for 2 players, not 3"));
        bot_free(b);
    }
    /* Keys that need the net, and those it excludes. */
    const char *bad[] = {"mcts:cpuct=1",
                         "mcts:value_mix=0.5",
                         "mcts:prior_temp=2",
                         "mcts:net=test_mcts_net_tu2.net,prior=heuristic",
                         "mcts:net=test_mcts_net_tu2.net,rollout=random",
                         "mcts:net=test_mcts_net_tu2.net,rave=100",
                         "mcts:net=test_mcts_net_tu2.net,cutoff=4",
                         "mcts:net=test_mcts_net_tu2.net,prior_temp=0"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        b = bot_new(&towerup_api, bad[i], 1, err, sizeof err);
        CHECK_MSG(!b, "%s accepted", bad[i]);
        bot_free(b);
    }
    b = bot_new(&towerup_api, "mcts:net=test_mcts_net_tu2.net,value_mix=0.5,cutoff=2,iters=50", 1,
                err, sizeof err);
    CHECK_MSG(b != NULL, "%s", err);
    bot_free(b);
    remove("test_mcts_net_bad.net");
}

int main(void)
{
    test_deterministic();
    test_onehot_policy();
    test_hooks();
    test_search();
    test_refused();
    remove("test_mcts_net_tu2.net");
    remove("test_mcts_net_tu3.net");
    remove("test_mcts_net_c4.net");
    return test_finish("test_mcts_net");
}
