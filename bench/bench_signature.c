/*
 * The searches of the bench signature: from a case's mid position, one thread and a fixed
 * iteration budget, the default search and, for a game with a heuristic, the guided one
 * (BENCH_SIGNATURE_GUIDED_SPEC).
 * Their tree nodes alone hardly move when the search picks other moves (nearly every
 * iteration adds one node), so the signature also folds in what the searches decided: the
 * move each one chose and the visits of every root move. A backup crediting the wrong
 * player, a changed selection formula or a changed heuristic term changes them.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "bots/heuristic.h"
#include "bots/mcts_bot.h"
#include "core/rng.h"
#include "search/mcts.h"

/* Folds one search's decision (the chosen move, every root move with its visits) into h. */
static uint64_t fold_search(uint64_t h, move_t chosen, const mcts_stats_t *st)
{
    h = rng_mix64(h ^ chosen);
    h = rng_mix64(h ^ (uint64_t)st->root_move_count);
    for (int i = 0; i < st->root_move_count; i++) {
        const mcts_move_stat_t *ms = &st->root_moves[i];
        h = rng_mix64(h ^ ((uint64_t)ms->move << 32 | (uint32_t)ms->visits));
    }
    return h;
}

/* The default search: its nodes, and its decision folded into *h. */
static int default_search(const game_api_t *api, const void *state, long iterations, long *nodes,
                          uint64_t *h, char *err, size_t errlen)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = iterations;
    opt.threads = 1;
    opt.reuse = false;
    opt.seed = 1;
    mcts_t *m = mcts_new(api, &opt);
    if (!m) {
        snprintf(err, errlen, "bench: the %s searcher could not be made", api->name);
        return -1;
    }
    mcts_stats_t st;
    move_t mv = mcts_search(m, state, &st);
    *nodes = st.nodes;
    *h = fold_search(*h, mv, &st);
    mcts_free(m);
    return 0;
}

/* The guided search of the mcts bot (its heuristic prior and evaluation): its nodes, and
   its decision folded into *h. */
static int guided_search(const game_api_t *api, const void *state, long iterations, long *nodes,
                         uint64_t *h, char *err, size_t errlen)
{
    char spec[BOT_SPEC_TEXT_MAX];
    snprintf(spec, sizeof spec, "%s,iters=%ld", BENCH_SIGNATURE_GUIDED_SPEC, iterations);
    bot_t *b = bot_new(api, spec, 1, err, errlen);
    if (!b)
        return -1;
    move_t mv = bot_choose(b, state);
    const mcts_stats_t *st = mcts_bot_last_stats(b);
    if (!st) {
        snprintf(err, errlen, "bench: the %s guided search did not run", api->name);
        bot_free(b);
        return -1;
    }
    *nodes = st->nodes;
    *h = fold_search(*h, mv, st);
    bot_free(b);
    return 0;
}

int bench_signature_searches(const game_api_t *api, const void *state, long iterations,
                             bench_result_t *r, char *err, size_t errlen)
{
    uint64_t h = 0;
    long guided_nodes = 0;
    if (default_search(api, state, iterations, &r->signature_nodes, &h, err, errlen))
        return -1;
    /* The guided search needs the game's heuristic (a game without one has none). */
    if (heuristic_for(api) && guided_search(api, state, iterations, &guided_nodes, &h, err, errlen))
        return -1;
    r->signature_nodes += guided_nodes;
    /* 32 bits: the sum over the cases stays a modest, exactly representable number. */
    r->signature_key = (uint32_t)(h >> 32);
    return 0;
}
