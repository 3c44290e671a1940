/*
 * mcts: the information-set MCTS of search/mcts.h (it determinizes every iteration for the
 * player to move, so hidden parts of the state are never read). Its keys are the table
 * mcts_keys below (name, type, range, default, help), which also prints `skyline play
 * --help` and BOTS.md's key list; any weight name of the game's heuristic is a key too.
 * Without iters= and time=: iters=1000. Keys that would change nothing (eps= without
 * heuristic rollouts, ...) are refused.
 *
 * Presets (key preset=): `best`, the default, is the strongest setting known for the game:
 * for a game with a heuristic prior=heuristic, cutoff=8 and fpu=0.3 (docs/RESULTS.md,
 * "Search defaults"), for a game without one plain UCT; `plain` is plain UCT (random
 * playouts, no prior, fpu=10) everywhere. Keys given override the preset's values.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/heuristic.h"
#include "bots/kinds.h"
#include "bots/mcts_bot.h"
#include "search/mcts.h"

/* Budget when neither iters= nor time= is given. */
#define MCTS_BOT_DEFAULT_ITERS 1000
#define MCTS_BOT_DEFAULT_EPS   0.1
/* The best preset for a game with a heuristic: cut-off depth and first-play urgency. */
#define MCTS_BOT_BEST_CUTOFF 8
#define MCTS_BOT_BEST_FPU    0.3
/* Game clock: own moves expected in a game, the fewest expected left, and the reserve in
   moves that the allotment divides by on top (Tower Up 2p: about 20 searched moves a bot
   a game, Uptown about 15). */
#define MCTS_CLOCK_EXPECTED_MOVES 30
#define MCTS_CLOCK_MIN_LEFT       8
#define MCTS_CLOCK_MARGIN         2
/* Scores closer than this count as equal in heuristic rollouts. */
#define MCTS_BOT_TIE_EPS 1e-12

typedef struct mcts_bot {
    mcts_options_t opt;       /* search options (seed replaced at every reset) */
    mcts_t *search;           /* the searcher, remade at every reset */
    const heuristic_t *h;     /* the game's heuristic, NULL if no hook uses it */
    heur_params_t w;          /* its weights */
    double eps;               /* heuristic rollouts: share of uniformly random moves */
    int sample;               /* heuristic rollouts: moves scored per ply, 0: all */
    mcts_stats_t last;        /* statistics of the last search */
    bool searched;            /* last is set (a search ran since the last reset) */
    mcts_bot_totals_t totals; /* over every search since the bot was made */
    long clock_ms;            /* game clock (clock=), 0: none */
    double clock_left;        /* milliseconds left on it in this game */
    int own_moves;            /* searches made in this game (game clock) */
} mcts_bot_t;

int mcts_clock_moves_left(int own_moves)
{
    int left = MCTS_CLOCK_EXPECTED_MOVES - own_moves;
    return left < MCTS_CLOCK_MIN_LEFT ? MCTS_CLOCK_MIN_LEFT : left;
}

long mcts_clock_allot(long remaining_ms, int own_moves)
{
    long ms = remaining_ms / (mcts_clock_moves_left(own_moves) + MCTS_CLOCK_MARGIN);
    return ms < 1 ? 1 : ms;
}

/* Epsilon-greedy playout to the end of the game with the heuristic's move scores. */
static void rollout_heuristic(const game_api_t *api, void *state, pcg32_t *rng, void *ctx)
{
    const mcts_bot_t *mb = ctx;
    move_t moves[GAME_MAX_MOVES];
    double scores[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    for (;;) {
        int n = api->gen_moves(state, moves);
        if (n == 0)
            return;
        int pick = 0;
        if (n > 1 && pcg32_double(rng) < mb->eps) {
            pick = (int)pcg32_bounded(rng, (uint32_t)n);
        } else if (n > 1) {
            /* With sample=K, only K moves drawn at random (the first K after a partial
               shuffle) are scored: much cheaper where there are many legal moves. */
            if (mb->sample > 0 && n > mb->sample) {
                for (int i = 0; i < mb->sample; i++) {
                    int j = i + (int)pcg32_bounded(rng, (uint32_t)(n - i));
                    move_t t = moves[i];
                    moves[i] = moves[j];
                    moves[j] = t;
                }
                n = mb->sample;
            }
            mb->h->score_moves(state, moves, n, &mb->w, scores);
            int ties = 1;
            for (int i = 1; i < n; i++) {
                if (scores[i] > scores[pick] + MCTS_BOT_TIE_EPS) {
                    pick = i;
                    ties = 1;
                } else if (scores[i] >= scores[pick] - MCTS_BOT_TIE_EPS &&
                           pcg32_bounded(rng, (uint32_t)++ties) == 0) {
                    pick = i;
                }
            }
        }
        api->make(state, moves[pick], undo);
    }
}

/* Priors of the legal moves: the softmax (temperature 1) of the heuristic's move scores. */
static void prior_heuristic(const game_api_t *api, const void *state, const move_t *moves, int n,
                            double *priors, void *ctx)
{
    const mcts_bot_t *mb = ctx;
    (void)api;
    mb->h->score_moves(state, moves, n, &mb->w, priors);
    double top = -HUGE_VAL, sum = 0.0;
    for (int i = 0; i < n; i++)
        top = priors[i] > top ? priors[i] : top;
    for (int i = 0; i < n; i++)
        sum += priors[i] = exp(priors[i] - top);
    for (int i = 0; i < n; i++)
        priors[i] /= sum;
}

static void evaluate_heuristic(const game_api_t *api, const void *state, double *values, void *ctx)
{
    const mcts_bot_t *mb = ctx;
    (void)api;
    mb->h->evaluate(state, &mb->w, values);
}

static void mcts_bot_destroy(bot_t *b)
{
    mcts_bot_t *mb = b->impl;
    if (!mb)
        return;
    mcts_free(mb->search);
    free(mb);
    b->impl = NULL;
}

/* How a key's value is read. */
typedef enum mcts_key_type {
    MCTS_KEY_INT,    /* an integer in [lo, hi] */
    MCTS_KEY_DOUBLE, /* a number in [lo, hi] */
    MCTS_KEY_CHOICE, /* one of `choices`, read as its index */
    MCTS_KEY_FILE    /* a path */
} mcts_key_type_t;

/* The keys, in the order of the table below (and of --help and BOTS.md). */
enum {
    K_ITERS,
    K_TIME,
    K_THREADS,
    K_C,
    K_FPU,
    K_FPU_REL,
    K_VLOSS,
    K_UNOBS,
    K_UNOBS_BELOW,
    K_SYNC,
    K_PARALLEL,
    K_FINAL,
    K_MEM,
    K_REUSE,
    K_ROLLOUT,
    K_EPS,
    K_SAMPLE,
    K_PRIOR,
    K_PRIOR_W,
    K_PRIOR_FORM,
    K_CUTOFF,
    K_PARAMS,
    K_PRESET,
    K_BACKUP,
    K_CHEAT,
    K_CLOCK,
    K_COUNT
};

/* One key of the mcts bot: how it is read and what --help and BOTS.md say of it. */
typedef struct mcts_key_def {
    const char *name;           /* the key */
    mcts_key_type_t type;       /* how its value is read */
    double lo, hi;              /* range of an int or double */
    const char *const *choices; /* a choice's names, NULL-terminated; else NULL */
    const char *arg;            /* what the value is called in help (N, X, MS, FILE) */
    const char *needs;          /* "key=value" that must be given too, or NULL */
    const char *deflt;          /* the default, as help shows it */
    const char *help;           /* one line: what it does */
    const char *notes;          /* more, for BOTS.md only (measurements), or NULL */
} mcts_key_def_t;

static const char *const choice_bool[] = {"0", "1", NULL};
static const char *const choice_parallel[] = {"tree", "root", NULL};
static const char *const choice_final[] = {"visits", "mean", NULL};
static const char *const choice_rollout[] = {"random", "heuristic", NULL};
static const char *const choice_prior[] = {"none", "heuristic", NULL};
static const char *const choice_prior_form[] = {"decay", "puct", NULL};
static const char *const choice_preset[] = {"best", "plain", NULL};
static const char *const choice_backup[] = {"maxn", "paranoid", NULL};

static const mcts_key_def_t mcts_keys[K_COUNT] = {
    {"iters", MCTS_KEY_INT, 1, 2000000000, NULL, "N", NULL,
     "1000 if neither `iters` nor `time` is given", "iterations per move", NULL},
    {"time", MCTS_KEY_INT, 1, 100000000, NULL, "MS", NULL, "none",
     "milliseconds per move (with `iters` too: whichever ends first)", NULL},
    {"threads", MCTS_KEY_INT, 1, 256, NULL, "N", NULL, "1",
     "search threads (also what tournaments schedule by)", NULL},
    {"c", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "X", NULL, "0.7",
     "UCB exploration constant (results in [0, 1])", NULL},
    {"fpu", MCTS_KEY_DOUBLE, -1e6, 1e6, NULL, "X", NULL,
     "0.3 (`preset=best` with a heuristic), else 10",
     "first-play urgency: score of an untried move (10: try each once first; with a prior, "
     "plus the bias of the best untried prior)",
     NULL},
    {"fpu_rel", MCTS_KEY_CHOICE, 0, 0, choice_bool, NULL, NULL, "0",
     "1: `fpu` is added to the mover's mean over the node's tried moves (e.g. `fpu=-0.1`)", NULL},
    {"vloss", MCTS_KEY_INT, 0, 1000000, NULL, "N", NULL, "0",
     "virtual losses per thread in a node (tree parallelism)",
     "none by default, as two threads ran 6 % more iterations a second without (with "
     "`sync=64`); against one thread at double time they scored 0.478 instead of 0.441 in "
     "Tower Up (800 deals) but 0.488 instead of 0.517 in Uptown (300 deals), both within "
     "noise (docs/PARALLEL.md); at equal iterations one virtual loss chose worse in Tower "
     "Up (regret against a reference search, docs/PARALLEL.md); with many threads, try 1"},
    {"unobs", MCTS_KEY_CHOICE, 0, 0, choice_bool, NULL, NULL, "0",
     "with several threads on one tree, count the other threads' passes whose results are "
     "not published yet as visits in the exploration term, not in the mean (as WU-UCT), at "
     "nodes with fewer than `unobs_below` published visits",
     "at equal iterations in Tower Up two threads chose like one thread with 1.04 times the "
     "iterations with it (below 64) and 0.87 without, but at 20 ms it chose no better, as "
     "it costs 3 % of the iterations (docs/PARALLEL.md)"},
    {"unobs_below", MCTS_KEY_INT, 1, 1000000000, NULL, "N", NULL, "64",
     "with `unobs=1`, the published visits below which a node's passes are counted",
     "counting at every node (a large N) chose as well per iteration but cost 7 to 11 % of "
     "the iterations at 20 ms and chose worse there (each count writes a line the other core "
     "reads)"},
    {"sync", MCTS_KEY_INT, 0, 64, NULL, "N", NULL, "0",
     "iterations a thread runs before it publishes its results to the shared tree; 0: 64 "
     "with several threads in tree mode, else 1 (one thread searches the same for any value)",
     "`sync=1` chooses a little better per iteration but runs fewer, and at 20 ms chose as "
     "well as 64 (docs/PARALLEL.md)"},
    {"parallel", MCTS_KEY_CHOICE, 0, 0, choice_parallel, NULL, NULL, "tree",
     "one shared tree, or one tree per thread with root statistics summed", NULL},
    {"final", MCTS_KEY_CHOICE, 0, 0, choice_final, NULL, NULL, "visits",
     "most-visited root move, or best mean among moves with at least 1/10 of the most visits",
     NULL},
    {"mem", MCTS_KEY_INT, 1, 1L << 20, NULL, "MiB", NULL, "256",
     "cap on the node arena, 88 bytes a node plus 24 per node and thread (expansion stops "
     "when full; rollouts go on)",
     NULL},
    {"reuse", MCTS_KEY_CHOICE, 0, 0, choice_bool, NULL, NULL, "1",
     "keep the subtree of the moves played since the last search (tree mode)", NULL},
    {"rollout", MCTS_KEY_CHOICE, 0, 0, choice_rollout, NULL, NULL, "random",
     "playouts: the game's random playout, or epsilon-greedy on `score_moves`", NULL},
    {"eps", MCTS_KEY_DOUBLE, 0, 1, NULL, "X", "rollout=heuristic", "0.1",
     "heuristic rollouts: share of uniformly random moves", NULL},
    {"sample", MCTS_KEY_INT, 0, GAME_MAX_MOVES, NULL, "K", "rollout=heuristic", "0",
     "heuristic rollouts: score only K random legal moves per ply (0: all)", NULL},
    {"prior", MCTS_KEY_CHOICE, 0, 0, choice_prior, NULL, NULL,
     "heuristic (`preset=best` with a heuristic), else none",
     "progressive bias: a node's prior is the softmax of `score_moves` over its moves (one "
     "call per expansion); untried moves are expanded best prior first",
     NULL},
    {"prior_w", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "X", "prior=heuristic", "0.5",
     "weight of the bias added to UCB", NULL},
    {"prior_form", MCTS_KEY_CHOICE, 0, 0, choice_prior_form, NULL, "prior=heuristic", "puct",
     "bias `prior_w * prior / (visits + 1)`, or PUCT: that times sqrt(parent's visits)", NULL},
    {"cutoff", MCTS_KEY_INT, 0, 100000, NULL, "D", NULL,
     "8 (`preset=best` with a heuristic, unless `rollout=heuristic`), else none (full "
     "playouts)",
     "after the tree, D random moves, then the heuristic's `evaluate` gives the result (no "
     "playout to the end); `cutoff=0` evaluates the leaf; excludes `rollout=heuristic`",
     NULL},
    {"params", MCTS_KEY_FILE, 0, 0, NULL, "FILE", NULL, "built-in",
     "the heuristic's weights for heuristic rollouts, prior and evaluate; any weight may "
     "also be given as a key by its name, over the file",
     NULL},
    {"preset", MCTS_KEY_CHOICE, 0, 0, choice_preset, NULL, NULL, "best",
     "`best`: the strongest setting known for the game (with a heuristic: `prior=heuristic,"
     "cutoff=8,fpu=0.3`; without one: plain UCT); `plain`: plain UCT (random playouts, no "
     "prior, `fpu=10`); keys given override the preset",
     "`mcts:iters=2000` against `heuristic` (2 players): see docs/RESULTS.md, \"Search "
     "defaults\""},
    {"backup", MCTS_KEY_CHOICE, 0, 0, choice_backup, NULL, NULL, "maxn",
     "what a node keeps: max^n, the result of the player who moved into it; paranoid, the "
     "searcher's result at its own moves and 1 minus it at the others' (they play as one "
     "coalition against it; the same as max^n with 2 players)",
     NULL},
    {"cheat", MCTS_KEY_CHOICE, 0, 0, choice_bool, NULL, NULL, "0",
     "1: a reference that sees hidden information (searches the true state, no "
     "determinization), to measure what hidden information costs; `tournament` plays it "
     "only with `--allow-cheat`",
     NULL},
    {"clock", MCTS_KEY_INT, 1, 1000000000, NULL, "MS", NULL, "none",
     "a game clock: total milliseconds per game, each move given remaining / (expected own "
     "moves left + 2), the moves left being 30 less those made, at least 8; excludes "
     "`time`",
     NULL},
};

/* The range of an int or double key as help and errors say it ("from LO to HI"). */
static void key_range(const mcts_key_def_t *d, char *out, size_t len)
{
    if (d->type == MCTS_KEY_INT)
        snprintf(out, len, "from %ld to %ld", (long)d->lo, (long)d->hi);
    else
        snprintf(out, len, "from %g to %g", d->lo, d->hi);
}

/* The key's form in help: name=ARG, or name=a|b|c for a choice. */
static void key_form(const mcts_key_def_t *d, bool markdown, char *out, size_t len)
{
    size_t n = (size_t)snprintf(out, len, "%s=", d->name);
    if (!d->choices) {
        snprintf(out + n, len - n, "%s", d->arg);
        return;
    }
    for (int i = 0; d->choices[i] && n < len; i++)
        n += (size_t)snprintf(out + n, len - n, "%s%s", i ? (markdown ? "\\|" : "|") : "",
                              d->choices[i]);
}

/* One key of the text help: its form, then text in lines of at most about 90 columns. */
static void print_wrapped(FILE *out, const char *form, const char *text)
{
    enum { INDENT = 28, WIDTH = 90 };
    int col = fprintf(out, "  %-*s", INDENT - 3, form);
    if (col >= INDENT) {
        fprintf(out, "\n%*s", INDENT - 1, "");
    }
    col = INDENT - 1;
    while (*text) {
        int len = (int)strcspn(text, " ");
        if (col + 1 + len > WIDTH && col > INDENT - 1) {
            fprintf(out, "\n%*s", INDENT - 1, "");
            col = INDENT - 1;
        }
        col += fprintf(out, " %.*s", len, text);
        text += len;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

void mcts_bot_keys_print(FILE *out, bool markdown)
{
    char form[128], range[64];
    if (markdown)
        fprintf(out, "| key | meaning | range | default |\n|---|---|---|---|\n");
    for (int k = 0; k < K_COUNT; k++) {
        const mcts_key_def_t *d = &mcts_keys[k];
        key_form(d, markdown, form, sizeof form);
        range[0] = '\0';
        if (d->type == MCTS_KEY_INT || d->type == MCTS_KEY_DOUBLE)
            key_range(d, range, sizeof range);
        if (markdown) {
            fprintf(out, "| `%s` | %s", form, d->help);
            if (d->needs)
                fprintf(out, "; needs `%s`", d->needs);
            if (d->notes)
                fprintf(out, "; %s", d->notes);
            fprintf(out, " | %s | %s |\n", range[0] ? range : "", d->deflt);
        } else {
            char text[1024];
            snprintf(text, sizeof text, "%s%s%s (%s%sdefault %s)", d->help,
                     d->needs ? "; needs " : "", d->needs ? d->needs : "", range,
                     range[0] ? ", " : "", d->deflt);
            print_wrapped(out, form, text);
        }
    }
    if (!markdown)
        print_wrapped(out, "NAME=X", "a weight of the game's heuristic by its name");
}

/* The index of the key named name, or -1. */
static int key_find(const char *name)
{
    for (int k = 0; k < K_COUNT; k++)
        if (!strcmp(mcts_keys[k].name, name))
            return k;
    return -1;
}

/* Reads value for key d: *iv gets an int or a choice's index, *dv a double. 0, or -1
   with err naming the key, the value and what it may be. */
static int key_read(const mcts_key_def_t *d, const char *value, long *iv, double *dv, char *err,
                    size_t errlen)
{
    switch (d->type) {
    case MCTS_KEY_INT:
        return bot_spec_int(d->name, value, (long)d->lo, (long)d->hi, iv, err, errlen);
    case MCTS_KEY_DOUBLE: return bot_spec_double(d->name, value, d->lo, d->hi, dv, err, errlen);
    case MCTS_KEY_CHOICE:
        for (int i = 0; d->choices[i]; i++)
            if (!strcmp(value, d->choices[i])) {
                *iv = i;
                return 0;
            }
        int n = snprintf(err, errlen, "bad value '%s' for key '%s' (one of", value, d->name);
        for (int i = 0; d->choices[i] && n > 0 && (size_t)n < errlen; i++)
            n += snprintf(err + n, errlen - (size_t)n, "%s %s", i ? "," : "", d->choices[i]);
        if (n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n, ")");
        return -1;
    case MCTS_KEY_FILE:
    default: return 0;
    }
}

/* Stores the value of key k (read by key_read) into the bot's options. */
static void key_store(mcts_bot_t *mb, int k, long iv, double dv)
{
    mcts_options_t *o = &mb->opt;
    switch (k) {
    case K_ITERS: o->iterations = iv; break;
    case K_TIME: o->time_ms = iv; break;
    case K_THREADS: o->threads = (int)iv; break;
    case K_C: o->c = dv; break;
    case K_FPU: o->fpu = dv; break;
    case K_FPU_REL: o->fpu_relative = iv == 1; break;
    case K_VLOSS: o->virtual_loss = (int)iv; break;
    case K_UNOBS: o->unobserved = iv == 1; break;
    case K_UNOBS_BELOW: o->unobserved_below = (int)iv; break;
    case K_SYNC: o->sync = (int)iv; break;
    case K_PARALLEL: o->parallel = iv ? MCTS_PARALLEL_ROOT : MCTS_PARALLEL_TREE; break;
    case K_FINAL: o->final = iv ? MCTS_FINAL_MEAN : MCTS_FINAL_VISITS; break;
    case K_MEM: o->memory_bytes = (size_t)iv << 20; break;
    case K_REUSE: o->reuse = iv == 1; break;
    case K_EPS: mb->eps = dv; break;
    case K_SAMPLE: mb->sample = (int)iv; break;
    case K_PRIOR_W: o->prior_weight = dv; break;
    case K_PRIOR_FORM: o->prior_form = iv ? MCTS_PRIOR_PUCT : MCTS_PRIOR_DECAY; break;
    case K_CUTOFF: o->cutoff_depth = (int)iv; break;
    case K_BACKUP: o->backup = iv ? MCTS_BACKUP_PARANOID : MCTS_BACKUP_MAXN; break;
    case K_CHEAT: o->cheat = iv == 1; break;
    case K_CLOCK: mb->clock_ms = iv; break;
    default: break; /* rollout, prior, params: their hooks are set once all keys are read */
    }
}

/* The unknown-key error, listing the table's keys. */
static void key_unknown(const char *key, char *err, size_t errlen)
{
    int n = snprintf(err, errlen, "unknown key '%s' (mcts takes", key);
    for (int k = 0; k < K_COUNT && n > 0 && (size_t)n < errlen; k++)
        n += snprintf(err + n, errlen - (size_t)n, "%s %s", k ? "," : "", mcts_keys[k].name);
    if (n > 0 && (size_t)n < errlen)
        snprintf(err + n, errlen - (size_t)n, " and the heuristic's weights)");
}

static int mcts_bot_keys(bot_t *b, mcts_bot_t *mb, const bot_spec_t *spec, char *err, size_t errlen)
{
    const heuristic_t *h = heuristic_for(b->api);
    /* given[k]: index + 1 in the spec of table key k (0: not given); chosen[k]: the choice
       index of a choice key given. */
    int given[K_COUNT] = {0};
    long chosen[K_COUNT] = {0};
    int weights = 0; /* index + 1 of the first weight given by name */
    if (h)
        heur_params_default(h, &mb->w);
    /* The file first, so that weights given as keys override it in any key order. */
    for (int k = 0; k < spec->key_count; k++)
        if (!strcmp(spec->keys[k], mcts_keys[K_PARAMS].name)) {
            given[K_PARAMS] = k + 1;
            if (!h) {
                snprintf(err, errlen, "params=: no heuristic for game '%s'", b->api->name);
                return -1;
            }
            if (heur_params_load(h, spec->values[k], &mb->w, err, errlen))
                return -1;
        }
    for (int k = 0; k < spec->key_count; k++) {
        const char *key = spec->keys[k], *value = spec->values[k];
        int t = key_find(key);
        int i;
        if (t == K_PARAMS)
            continue;
        if (t >= 0) {
            long iv = 0;
            double dv = 0.0;
            if (key_read(&mcts_keys[t], value, &iv, &dv, err, errlen))
                return -1;
            key_store(mb, t, iv, dv);
            given[t] = k + 1;
            chosen[t] = iv;
        } else if (h && (i = heur_param_find(h, key)) >= 0) {
            if (bot_spec_double(key, value, -1e12, 1e12, &mb->w.value[i], err, errlen))
                return -1;
            if (!weights)
                weights = k + 1;
        } else {
            key_unknown(key, err, errlen);
            return -1;
        }
    }
    bool rollout_heur = given[K_ROLLOUT] && chosen[K_ROLLOUT] == 1;
    bool prior_heur = given[K_PRIOR] && chosen[K_PRIOR] == 1;
    /* The best preset fills in the keys not given (a game without a heuristic: none). */
    bool best = h && !(given[K_PRESET] && chosen[K_PRESET] == 1);
    bool cutoff = given[K_CUTOFF];
    if (best && !given[K_PRIOR])
        prior_heur = true;
    if (best && !given[K_CUTOFF] && !rollout_heur) {
        mb->opt.cutoff_depth = MCTS_BOT_BEST_CUTOFF;
        cutoff = true;
    }
    if (best && !given[K_FPU])
        mb->opt.fpu = MCTS_BOT_BEST_FPU;
    if (given[K_CLOCK] && given[K_TIME]) {
        snprintf(err, errlen, "keys 'clock' and 'time' exclude each other");
        return -1;
    }
    if (given[K_CLOCK]) { /* the time of each move is set before its search */
        mb->opt.time_ms = mcts_clock_allot(mb->clock_ms, 0);
        given[K_TIME] = given[K_CLOCK];
    }
    if (given[K_ITERS] && !given[K_TIME])
        mb->opt.time_ms = 0;
    if (given[K_TIME] && !given[K_ITERS])
        mb->opt.iterations = 0;
    if (!given[K_ITERS] && !given[K_TIME])
        mb->opt.iterations = MCTS_BOT_DEFAULT_ITERS;
    /* A key that needs another's value changes nothing without it. */
    for (int t = 0; t < K_COUNT; t++) {
        const char *needs = mcts_keys[t].needs;
        if (!given[t] || !needs)
            continue;
        bool met = (!strcmp(needs, "rollout=heuristic") && rollout_heur) ||
                   (!strcmp(needs, "prior=heuristic") && prior_heur);
        if (!met) {
            snprintf(err, errlen, "key '%s' needs %s", mcts_keys[t].name, needs);
            return -1;
        }
    }
    /* The search plays the cutoff's moves at random, whatever the rollout policy. */
    if (given[K_CUTOFF] && rollout_heur) {
        snprintf(err, errlen,
                 "keys 'cutoff' and 'rollout=heuristic' exclude each other "
                 "(cutoff plays random moves before evaluate)");
        return -1;
    }
    bool uses_heuristic = rollout_heur || prior_heur || cutoff;
    if ((given[K_PARAMS] || weights) && !uses_heuristic) {
        snprintf(err, errlen, "key '%s' needs rollout=heuristic, prior=heuristic or cutoff=",
                 spec->keys[(given[K_PARAMS] ? given[K_PARAMS] : weights) - 1]);
        return -1;
    }
    if (uses_heuristic && !h) {
        snprintf(err, errlen, "no heuristic for game '%s'", b->api->name);
        return -1;
    }
    if (uses_heuristic)
        mb->h = h;
    if (rollout_heur) {
        mb->opt.rollout = rollout_heuristic;
        mb->opt.rollout_ctx = mb;
    }
    if (prior_heur) {
        mb->opt.prior = prior_heuristic;
        mb->opt.prior_ctx = mb;
    }
    if (cutoff) {
        mb->opt.evaluate = evaluate_heuristic;
        mb->opt.evaluate_ctx = mb;
    }
    return 0;
}

static int mcts_bot_init(bot_t *b, const bot_spec_t *spec, char *err, size_t errlen)
{
    mcts_bot_t *mb = calloc(1, sizeof *mb);
    if (!mb) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    b->impl = mb;
    mcts_options_default(&mb->opt);
    mb->eps = MCTS_BOT_DEFAULT_EPS;
    if (mcts_bot_keys(b, mb, spec, err, errlen)) {
        mcts_bot_destroy(b);
        return -1;
    }
    mb->opt.seed = b->seed;
    mb->clock_left = (double)mb->clock_ms;
    mb->search = mcts_new(b->api, &mb->opt);
    if (!mb->search) {
        snprintf(err, errlen, "cannot make the searcher (out of memory for mem=%zu MiB?)",
                 mb->opt.memory_bytes >> 20);
        mcts_bot_destroy(b);
        return -1;
    }
    b->threads = mb->opt.threads;
    return 0;
}

static move_t mcts_bot_choose(bot_t *b, const void *state)
{
    mcts_bot_t *mb = b->impl;
    mb->searched = true;
    if (mb->clock_ms)
        mcts_set_time(mb->search, mcts_clock_allot((long)mb->clock_left, mb->own_moves));
    move_t mv = mcts_search(mb->search, state, &mb->last);
    if (mb->clock_ms) {
        mb->clock_left -= mb->last.seconds * 1000.0;
        mb->own_moves++;
    }
    const mcts_stats_t *st = &mb->last;
    if (st->root_move_count > 1)
        mcts_bot_totals_add(&mb->totals, &(mcts_bot_totals_t){.searches = 1,
                                                              .iterations = st->iterations,
                                                              .seconds = st->seconds,
                                                              .reused = st->reused,
                                                              .reused_visits = st->reused_visits,
                                                              .max_nodes = st->nodes});
    return mv;
}

void mcts_bot_totals_add(mcts_bot_totals_t *into, const mcts_bot_totals_t *t)
{
    into->searches += t->searches;
    into->iterations += t->iterations;
    into->seconds += t->seconds;
    into->reused += t->reused;
    into->reused_visits += t->reused_visits;
    if (t->max_nodes > into->max_nodes)
        into->max_nodes = t->max_nodes;
}

bool mcts_bot_totals(const bot_t *b, mcts_bot_totals_t *t)
{
    if (b->kind != &bot_kind_mcts)
        return false;
    *t = ((const mcts_bot_t *)b->impl)->totals;
    return true;
}

const mcts_options_t *mcts_bot_options(const bot_t *b)
{
    if (b->kind != &bot_kind_mcts)
        return NULL;
    return &((const mcts_bot_t *)b->impl)->opt;
}

bool mcts_bot_cheats(const bot_t *b)
{
    return b->kind == &bot_kind_mcts && ((const mcts_bot_t *)b->impl)->opt.cheat;
}

const mcts_stats_t *mcts_bot_last_stats(const bot_t *b)
{
    if (b->kind != &bot_kind_mcts)
        return NULL;
    const mcts_bot_t *mb = b->impl;
    return mb->searched ? &mb->last : NULL;
}

_Static_assert(sizeof(mcts_bot_totals_t) <= BOT_STATS_MAX, "mcts totals fit bot_stats_t");

static void mcts_bot_stats_add(const bot_t *b, void *acc)
{
    mcts_bot_totals_add(acc, &((const mcts_bot_t *)b->impl)->totals);
}

/* The search totals as a table: searches, iterations and time a search, tree reuse. */
static void mcts_bot_stats_print(FILE *out, const char *label, const char *const *labels,
                                 const void *const *accs, int n)
{
    bool header = false;
    for (int i = 0; i < n; i++) {
        const mcts_bot_totals_t *t = accs[i];
        if (!t || t->searches == 0)
            continue;
        if (!header)
            fprintf(out,
                    "%-5s searches  iterations/search  ms/search  iterations/s  reused  "
                    "reused visits/search  most nodes\n",
                    label);
        header = true;
        double n_searches = (double)t->searches;
        fprintf(out, "%-5s %8ld  %17.1f  %9.2f  %12.0f  %6ld  %20.1f  %10ld\n", labels[i],
                t->searches, (double)t->iterations / n_searches, 1000.0 * t->seconds / n_searches,
                t->seconds > 0 ? (double)t->iterations / t->seconds : 0.0, t->reused,
                t->reused ? (double)t->reused_visits / (double)t->reused : 0.0, t->max_nodes);
    }
}

static void mcts_bot_observe(bot_t *b, const void *state, move_t m)
{
    mcts_bot_t *mb = b->impl;
    (void)state;
    if (mb->opt.reuse)
        mcts_advance(mb->search, m);
}

/* A new game: a new searcher seeded with the bot's new seed (the old tree is useless). */
static void mcts_bot_reset(bot_t *b)
{
    mcts_bot_t *mb = b->impl;
    mb->opt.seed = b->seed;
    mb->searched = false;
    mb->clock_left = (double)mb->clock_ms;
    mb->own_moves = 0;
    mcts_t *fresh = mcts_new(b->api, &mb->opt);
    if (fresh) {
        mcts_free(mb->search);
        mb->search = fresh;
    } else {
        mcts_reset(mb->search);
    }
}

static void mcts_bot_print_keys(FILE *out) { mcts_bot_keys_print(out, false); }

const bot_kind_t bot_kind_mcts = {
    .name = "mcts",
    .help = "mcts: information-set MCTS (search/mcts.h); keys below",
    .print_keys = mcts_bot_print_keys,
    .init = mcts_bot_init,
    .choose = mcts_bot_choose,
    .observe = mcts_bot_observe,
    .reset = mcts_bot_reset,
    .destroy = mcts_bot_destroy,
    .stats_add = mcts_bot_stats_add,
    .stats_print = mcts_bot_stats_print,
    .last_search = mcts_bot_last_stats,
};
