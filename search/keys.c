/* The core search's option keys and the lookup over every idea's table (search/keys.h). */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "search/keys.h"

/* Rows of a switch (0 or 1, stored as a bool) and of a choice (stored as its enum). */
#define KEY_SWITCH(name, deflt, help, notes, field)                                                \
    {                                                                                              \
        name, MCTS_KEY_CHOICE, 0, 0, mcts_key_bool, NULL, NULL, deflt, help, notes,                \
            MCTS_STORE_BOOL, offsetof(mcts_options_t, field)                                       \
    }
#define KEY_CHOICE(name, choices, needs, deflt, help, field)                                       \
    {                                                                                              \
        name, MCTS_KEY_CHOICE, 0, 0, choices, NULL, needs, deflt, help, NULL, MCTS_STORE_ENUM,     \
            offsetof(mcts_options_t, field)                                                        \
    }

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
    KEY_SWITCH(
        "fpu_rel", "0",
        "1: `fpu` is added to the mover's mean over the node's tried moves (e.g. `fpu=-0.1`)", NULL,
        fpu_relative),
    {"vloss", MCTS_KEY_INT, 0, 1000000, NULL, "N", NULL, "0",
     "virtual losses per thread in a node (tree parallelism)",
     "none by default, as two threads ran 6 % more iterations a second without (with "
     "`sync=64`); against one thread at double time they scored 0.478 instead of 0.441 in "
     "Tower Up (800 deals) but 0.488 instead of 0.517 in Uptown (300 deals), both within "
     "noise (docs/PARALLEL.md); at equal iterations one virtual loss chose worse in Tower "
     "Up (regret against a reference search, docs/PARALLEL.md); with many threads, try 1",
     MCTS_STORE_INT, offsetof(mcts_options_t, virtual_loss)},
    KEY_SWITCH(
        "unobs", "0",
        "with several threads on one tree, count the other threads' passes whose results are "
        "not published yet as visits in the exploration term, not in the mean (as WU-UCT), at "
        "nodes with fewer than `unobs_below` published visits",
        "at equal iterations in Tower Up two threads chose like one thread with 1.04 times the "
        "iterations with it (below 64) and 0.87 without, but at 20 ms it chose no better, as "
        "it costs 3 % of the iterations (docs/PARALLEL.md)",
        unobserved),
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
    KEY_CHOICE("parallel", choice_parallel, NULL, "tree",
               "one shared tree, or one tree per thread with root statistics summed", parallel),
    KEY_CHOICE(
        "final", choice_final, NULL, "visits",
        "most-visited root move, or best mean among moves with at least 1/10 of the most visits",
        final),
    {"mem", MCTS_KEY_INT, 1, 1L << 20, NULL, "MiB", NULL, "256",
     "cap on the node arena, 88 bytes a node plus 24 per node and thread (expansion stops "
     "when full; rollouts go on)",
     NULL, MCTS_STORE_MIB, offsetof(mcts_options_t, memory_bytes)},
    KEY_SWITCH("reuse", "1",
               "keep the subtree of the moves played since the last search (tree mode)", NULL,
               reuse),
    {"prior_w", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "X", "prior=heuristic", "0.5",
     "weight of the bias added to UCB", NULL, MCTS_STORE_DOUBLE,
     offsetof(mcts_options_t, prior_weight)},
    KEY_CHOICE("prior_form", choice_prior_form, "prior=heuristic", "puct",
               "bias `prior_w * prior / (visits + 1)`, or PUCT: that times sqrt(parent's visits)",
               prior_form),
    {"cutoff", MCTS_KEY_INT, 0, 100000, NULL, "D", NULL,
     "8 (`preset=best` with a heuristic, unless `rollout=heuristic`, `mast` or `nst`), else "
     "none (full playouts)",
     "after the tree, D random moves, then the heuristic's `evaluate` gives the result (no "
     "playout to the end); `cutoff=0` evaluates the leaf; excludes `rollout=heuristic`",
     NULL, MCTS_STORE_INT, offsetof(mcts_options_t, cutoff_depth)},
    KEY_CHOICE(
        "backup", choice_backup, NULL, "maxn",
        "what a node keeps: max^n, the result of the player who moved into it; paranoid, the "
        "searcher's result at its own moves and 1 minus it at the others' (they play as one "
        "coalition against it; the same as max^n with 2 players); brs, best-reply search "
        "(BRS+): values as paranoid, but between two of the searcher's moves only one opponent, "
        "chosen in the tree, moves in it, the others play the heuristic's best move (random "
        "without a prior) outside it (the same as paranoid with 2 players)",
        backup),
    KEY_SWITCH("cheat", "0",
               "1: a reference that sees hidden information (searches the true state, no "
               "determinization), to measure what hidden information costs; `tournament` plays it "
               "only with `--allow-cheat`",
               NULL, cheat),
    {"pw", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "C", NULL, "0",
     "progressive widening: a node with v visits has at most ceil(C * v^`pw_a`) children "
     "(at least 1), added best prior first (at random without a prior); 0: off",
     NULL, MCTS_STORE_DOUBLE, offsetof(mcts_options_t, pw)},
    {"pw_a", MCTS_KEY_DOUBLE, 0, 1, NULL, "ALPHA", NULL, "0.5",
     "the exponent of progressive widening (only with `pw` above 0)", NULL, MCTS_STORE_DOUBLE,
     offsetof(mcts_options_t, pw_alpha)},
    {0},
};

/* The rules between the search ideas' keys, in the order a spec is checked against them
   (rollout=, prior= and net= are the bot's: its hooks; rollout=mast and rollout=nst turn on
   the search's own playouts). */
const mcts_key_rule_t mcts_key_rules[] = {
    {"tree=multi", NULL, "parallel=root",
     "keys 'tree=multi' and 'parallel=root' exclude each other"},
    {"tree=multi", NULL, "backup=brs", "keys 'tree=multi' and 'backup=brs' exclude each other"},
    {"pw_a", "pw>0", NULL, "key 'pw_a' needs pw= above 0 (progressive widening on)"},
    /* The search plays the cutoff's moves at random, whatever the rollout policy. */
    {"cutoff", NULL, "rollout=heuristic",
     "keys 'cutoff' and 'rollout=heuristic' exclude each other (cutoff plays random moves "
     "before evaluate)"},
    {"grave", "rave>0", NULL, "key 'grave' needs rave=K with K > 0"},
    /* RAVE records the playout's moves, which the heuristic rollout does not report. */
    {"rave>0", NULL, "rollout=heuristic",
     "keys 'rave' and 'rollout=heuristic' exclude each other (heuristic rollouts do not report "
     "their moves)"},
    {"rave>0|rollout=mast|rollout=nst", NULL, "backup=brs",
     "key 'backup=brs' excludes 'rave', 'grave' and 'rollout=mast|nst' (its moves outside the "
     "tree are not recorded)"},
    {"rave>0|rollout=mast|rollout=nst", NULL, "tree=multi",
     "key 'tree=multi' excludes 'rave', 'grave' and 'rollout=mast|nst' (they record the path "
     "of one tree)"},
    {"noise_alpha", "noise>0", NULL, "key 'noise_alpha' needs noise= above 0 (root noise on)"},
    {"noise>0", "prior=heuristic|net", NULL,
     "key 'noise' needs a prior to mix into: prior=heuristic or net= (the best preset's prior "
     "in a game with a heuristic)"},
    {0},
};

/* GRAVE turns RAVE on (the grave row's help). */
const mcts_key_fill_t mcts_key_fills[] = {
    {"grave", "rave=300", "rave"},
    {0},
};

/* Every idea's table, searched in this order. */
const mcts_key_def_t *const mcts_key_tables[] = {mcts_core_keys, mcts_multi_keys, mcts_mast_keys,
                                                 mcts_amaf_keys, mcts_noise_keys, NULL};

const mcts_key_def_t *mcts_key_lookup(const char *name)
{
    for (size_t t = 0; mcts_key_tables[t]; t++)
        for (const mcts_key_def_t *d = mcts_key_tables[t]; d->name; d++)
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
    mcts_key_store_at(d, o, iv, dv);
}

void mcts_key_store_at(const mcts_key_def_t *d, void *base, long iv, double dv)
{
    char *p = (char *)base + d->offset;
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

int mcts_key_parse(const mcts_key_def_t *d, const char *text, long *iv, double *dv)
{
    char *end;
    errno = 0;
    switch (d->type) {
    case MCTS_KEY_INT:
        *iv = strtol(text, &end, 10);
        *dv = (double)*iv;
        return errno || end == text || *end || *dv < d->lo || *dv > d->hi ? -1 : 0;
    case MCTS_KEY_DOUBLE:
        *dv = strtod(text, &end);
        *iv = 0;
        return errno || end == text || *end || !(*dv >= d->lo && *dv <= d->hi) ? -1 : 0;
    case MCTS_KEY_CHOICE:
        for (int i = 0; d->choices[i].name; i++)
            if (!strcmp(text, d->choices[i].name)) {
                *iv = d->choices[i].value;
                *dv = (double)*iv;
                return 0;
            }
        return -1;
    case MCTS_KEY_FILE:
    default: return -1;
    }
}

int mcts_key_default(const mcts_key_def_t *d, long *iv, double *dv)
{
    return mcts_key_parse(d, d->deflt, iv, dv);
}

void mcts_key_defaults(mcts_options_t *o)
{
    for (size_t t = 0; mcts_key_tables[t]; t++)
        for (const mcts_key_def_t *d = mcts_key_tables[t]; d->name; d++) {
            long iv;
            double dv;
            if (mcts_key_default(d, &iv, &dv) == 0)
                mcts_key_store(d, o, iv, dv);
        }
}

double mcts_key_value(const mcts_key_def_t *d, const mcts_options_t *o)
{
    return mcts_key_value_at(d, o);
}

double mcts_key_value_at(const mcts_key_def_t *d, const void *base)
{
    const char *p = (const char *)base + d->offset;
    switch (d->store) {
    case MCTS_STORE_LONG: {
        long v;
        memcpy(&v, p, sizeof v);
        return (double)v;
    }
    case MCTS_STORE_INT:
    case MCTS_STORE_ENUM: {
        int v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case MCTS_STORE_DOUBLE: {
        double v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case MCTS_STORE_BOOL: {
        bool v;
        memcpy(&v, p, sizeof v);
        return v ? 1.0 : 0.0;
    }
    case MCTS_STORE_MIB: {
        size_t v;
        memcpy(&v, p, sizeof v);
        return (double)(v >> 20);
    }
    case MCTS_STORE_NONE:
    default: return 0.0;
    }
}

/* Whether the term (len bytes: KEY, KEY>0 or KEY=VALUE) holds. */
static bool term_holds(const char *term, size_t len, mcts_key_get_fn get, void *ctx)
{
    size_t name_len = strcspn(term, "=>");
    name_len = name_len < len ? name_len : len;
    bool given = false;
    double value = 0.0;
    const mcts_key_def_t *d = get(ctx, term, name_len, &given, &value);
    if (!d)
        return false;
    if (name_len == len)
        return given;
    const char *rest = term + name_len + 1;
    size_t rest_len = len - name_len - 1;
    if (term[name_len] == '>')
        return rest_len == 1 && rest[0] == '0' && value > 0.0;
    if (d->type == MCTS_KEY_FILE)
        return given;
    char text[64];
    long iv;
    double dv;
    if (rest_len >= sizeof text)
        return false;
    memcpy(text, rest, rest_len);
    text[rest_len] = '\0';
    return mcts_key_parse(d, text, &iv, &dv) == 0 && dv == value;
}

bool mcts_key_holds(const char *cond, mcts_key_get_fn get, void *ctx)
{
    while (*cond) {
        size_t alt = strcspn(cond, "|");
        bool all = true;
        for (size_t at = 0; at < alt && all;) {
            size_t len = strcspn(cond + at, "&|");
            all = term_holds(cond + at, len, get, ctx);
            at += len + (cond[at + len] == '&');
        }
        if (all)
            return true;
        cond += alt + (cond[alt] == '|');
    }
    return false;
}

void mcts_key_names(const char *cond, void (*check)(const char *name, size_t len, void *ctx),
                    void *ctx)
{
    while (*cond) {
        size_t len = strcspn(cond, "&|");
        check(cond, strcspn(cond, "=>&|"), ctx);
        cond += len + (cond[len] != '\0');
    }
}
