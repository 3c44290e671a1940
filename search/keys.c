/* The core search's option keys and the lookup over every idea's table (search/keys.h). */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "search/keys.h"

const mcts_key_choice_t mcts_key_bool[] = {{"0", 0}, {"1", 1}, {NULL, 0}};
static const mcts_key_choice_t choice_parallel[] = {
    {"tree", MCTS_PARALLEL_TREE}, {"root", MCTS_PARALLEL_ROOT}, {NULL, 0}};
static const mcts_key_choice_t choice_final[] = {
    {"visits", MCTS_FINAL_VISITS}, {"mean", MCTS_FINAL_MEAN}, {NULL, 0}};
static const mcts_key_choice_t choice_prior_form[] = {
    {"decay", MCTS_PRIOR_DECAY}, {"puct", MCTS_PRIOR_PUCT}, {NULL, 0}};
static const mcts_key_choice_t choice_backup[] = {{"maxn", MCTS_BACKUP_MAXN},
                                                  {"paranoid", MCTS_BACKUP_PARANOID},
                                                  {"brs", MCTS_BACKUP_BRS},
                                                  {NULL, 0}};

/* The budget, threads, UCB, parallelism, final choice, memory, reuse, prior form, cutoff,
   backup, cheat and progressive widening; the help's texts say what the mcts bot does
   around them (its presets, its heuristic hooks). */
const mcts_key_def_t mcts_core_keys[] = {
    {"iters", MCTS_KEY_INT, 1, 2000000000, NULL, "N", NULL,
     "1000 if neither `iters` nor `time` is given", "iterations per move", NULL, MCTS_STORE_LONG,
     offsetof(mcts_options_t, iterations)},
    {"time", MCTS_KEY_INT, 1, 100000000, NULL, "MS", NULL, "none",
     "milliseconds per move (with `iters` too: whichever ends first)", NULL, MCTS_STORE_LONG,
     offsetof(mcts_options_t, time_ms)},
    {"threads", MCTS_KEY_INT, 1, 256, NULL, "N", NULL, "1",
     "search threads (also what tournaments schedule by)", NULL, MCTS_STORE_INT,
     offsetof(mcts_options_t, threads)},
    {"c", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "X", NULL, "0.7",
     "UCB exploration constant (results in [0, 1])", NULL, MCTS_STORE_DOUBLE,
     offsetof(mcts_options_t, c)},
    {"fpu", MCTS_KEY_DOUBLE, -1e6, 1e6, NULL, "X", NULL,
     "0.3 (`preset=best` with a heuristic), else 10",
     "first-play urgency: score of an untried move (10: try each once first; with a prior, "
     "plus the bias of the best untried prior)",
     NULL, MCTS_STORE_DOUBLE, offsetof(mcts_options_t, fpu)},
    {"fpu_rel", MCTS_KEY_CHOICE, 0, 0, mcts_key_bool, NULL, NULL, "0",
     "1: `fpu` is added to the mover's mean over the node's tried moves (e.g. `fpu=-0.1`)", NULL,
     MCTS_STORE_BOOL, offsetof(mcts_options_t, fpu_relative)},
    {"vloss", MCTS_KEY_INT, 0, 1000000, NULL, "N", NULL, "0",
     "virtual losses per thread in a node (tree parallelism)",
     "none by default, as two threads ran 6 % more iterations a second without (with "
     "`sync=64`); against one thread at double time they scored 0.478 instead of 0.441 in "
     "Tower Up (800 deals) but 0.488 instead of 0.517 in Uptown (300 deals), both within "
     "noise (docs/PARALLEL.md); at equal iterations one virtual loss chose worse in Tower "
     "Up (regret against a reference search, docs/PARALLEL.md); with many threads, try 1",
     MCTS_STORE_INT, offsetof(mcts_options_t, virtual_loss)},
    {"unobs", MCTS_KEY_CHOICE, 0, 0, mcts_key_bool, NULL, NULL, "0",
     "with several threads on one tree, count the other threads' passes whose results are "
     "not published yet as visits in the exploration term, not in the mean (as WU-UCT), at "
     "nodes with fewer than `unobs_below` published visits",
     "at equal iterations in Tower Up two threads chose like one thread with 1.04 times the "
     "iterations with it (below 64) and 0.87 without, but at 20 ms it chose no better, as "
     "it costs 3 % of the iterations (docs/PARALLEL.md)",
     MCTS_STORE_BOOL, offsetof(mcts_options_t, unobserved)},
    {"unobs_below", MCTS_KEY_INT, 1, 1000000000, NULL, "N", NULL, "64",
     "with `unobs=1`, the published visits below which a node's passes are counted",
     "counting at every node (a large N) chose as well per iteration but cost 7 to 11 % of "
     "the iterations at 20 ms and chose worse there (each count writes a line the other core "
     "reads)",
     MCTS_STORE_INT, offsetof(mcts_options_t, unobserved_below)},
    {"sync", MCTS_KEY_INT, 0, 64, NULL, "N", NULL, "0",
     "iterations a thread runs before it publishes its results to the shared tree; 0: 64 "
     "with several threads in tree mode, else 1 (one thread searches the same for any value)",
     "`sync=1` chooses a little better per iteration but runs fewer, and at 20 ms chose as "
     "well as 64 (docs/PARALLEL.md)",
     MCTS_STORE_INT, offsetof(mcts_options_t, sync)},
    {"parallel", MCTS_KEY_CHOICE, 0, 0, choice_parallel, NULL, NULL, "tree",
     "one shared tree, or one tree per thread with root statistics summed", NULL, MCTS_STORE_ENUM,
     offsetof(mcts_options_t, parallel)},
    {"final", MCTS_KEY_CHOICE, 0, 0, choice_final, NULL, NULL, "visits",
     "most-visited root move, or best mean among moves with at least 1/10 of the most visits", NULL,
     MCTS_STORE_ENUM, offsetof(mcts_options_t, final)},
    {"mem", MCTS_KEY_INT, 1, 1L << 20, NULL, "MiB", NULL, "256",
     "cap on the node arena, 88 bytes a node plus 24 per node and thread (expansion stops "
     "when full; rollouts go on)",
     NULL, MCTS_STORE_MIB, offsetof(mcts_options_t, memory_bytes)},
    {"reuse", MCTS_KEY_CHOICE, 0, 0, mcts_key_bool, NULL, NULL, "1",
     "keep the subtree of the moves played since the last search (tree mode)", NULL,
     MCTS_STORE_BOOL, offsetof(mcts_options_t, reuse)},
    {"prior_w", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "X", "prior=heuristic", "0.5",
     "weight of the bias added to UCB", NULL, MCTS_STORE_DOUBLE,
     offsetof(mcts_options_t, prior_weight)},
    {"prior_form", MCTS_KEY_CHOICE, 0, 0, choice_prior_form, NULL, "prior=heuristic", "puct",
     "bias `prior_w * prior / (visits + 1)`, or PUCT: that times sqrt(parent's visits)", NULL,
     MCTS_STORE_ENUM, offsetof(mcts_options_t, prior_form)},
    {"cutoff", MCTS_KEY_INT, 0, 100000, NULL, "D", NULL,
     "8 (`preset=best` with a heuristic, unless `rollout=heuristic`, `mast` or `nst`), else "
     "none (full playouts)",
     "after the tree, D random moves, then the heuristic's `evaluate` gives the result (no "
     "playout to the end); `cutoff=0` evaluates the leaf; excludes `rollout=heuristic`",
     NULL, MCTS_STORE_INT, offsetof(mcts_options_t, cutoff_depth)},
    {"backup", MCTS_KEY_CHOICE, 0, 0, choice_backup, NULL, NULL, "maxn",
     "what a node keeps: max^n, the result of the player who moved into it; paranoid, the "
     "searcher's result at its own moves and 1 minus it at the others' (they play as one "
     "coalition against it; the same as max^n with 2 players); brs, best-reply search "
     "(BRS+): values as paranoid, but between two of the searcher's moves only one opponent, "
     "chosen in the tree, moves in it, the others play the heuristic's best move (random "
     "without a prior) outside it (the same as paranoid with 2 players)",
     NULL, MCTS_STORE_ENUM, offsetof(mcts_options_t, backup)},
    {"cheat", MCTS_KEY_CHOICE, 0, 0, mcts_key_bool, NULL, NULL, "0",
     "1: a reference that sees hidden information (searches the true state, no "
     "determinization), to measure what hidden information costs; `tournament` plays it "
     "only with `--allow-cheat`",
     NULL, MCTS_STORE_BOOL, offsetof(mcts_options_t, cheat)},
    {"pw", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "C", NULL, "0",
     "progressive widening: a node with v visits has at most ceil(C * v^`pw_a`) children "
     "(at least 1), added best prior first (at random without a prior); 0: off",
     NULL, MCTS_STORE_DOUBLE, offsetof(mcts_options_t, pw)},
    {"pw_a", MCTS_KEY_DOUBLE, 0, 1, NULL, "ALPHA", NULL, "0.5",
     "the exponent of progressive widening (only with `pw` above 0)", NULL, MCTS_STORE_DOUBLE,
     offsetof(mcts_options_t, pw_alpha)},
    {0},
};

/* Every idea's table, searched in this order. */
static const mcts_key_def_t *const key_tables[] = {mcts_core_keys, mcts_multi_keys, mcts_amaf_keys,
                                                   mcts_mast_keys, mcts_noise_keys};

const mcts_key_def_t *mcts_key_lookup(const char *name)
{
    for (size_t t = 0; t < sizeof key_tables / sizeof key_tables[0]; t++)
        for (const mcts_key_def_t *d = key_tables[t]; d->name; d++)
            if (!strcmp(d->name, name))
                return d;
    return NULL;
}

/* Enums are stored as ints. */
_Static_assert(sizeof(mcts_parallel_t) == sizeof(int) && sizeof(mcts_final_t) == sizeof(int) &&
                   sizeof(mcts_prior_form_t) == sizeof(int) &&
                   sizeof(mcts_backup_t) == sizeof(int) && sizeof(mcts_tree_t) == sizeof(int),
               "the option enums are int-sized");

void mcts_key_store(const mcts_key_def_t *d, mcts_options_t *o, long iv, double dv)
{
    char *p = (char *)o + d->offset;
    switch (d->store) {
    case MCTS_STORE_LONG: memcpy(p, &iv, sizeof iv); break;
    case MCTS_STORE_INT:
    case MCTS_STORE_ENUM: {
        int v = (int)iv;
        memcpy(p, &v, sizeof v);
        break;
    }
    case MCTS_STORE_DOUBLE: memcpy(p, &dv, sizeof dv); break;
    case MCTS_STORE_BOOL: {
        bool v = iv != 0;
        memcpy(p, &v, sizeof v);
        break;
    }
    case MCTS_STORE_MIB: {
        size_t v = (size_t)iv << 20;
        memcpy(p, &v, sizeof v);
        break;
    }
    case MCTS_STORE_NONE:
    default: break;
    }
}
