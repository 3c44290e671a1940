/*
 * mcts: the information-set MCTS of search/mcts.h (it determinizes every iteration for the
 * player to move, so hidden parts of the state are never read). Keys: iters=, time= (ms per
 * move), threads=, c=, fpu=, fpu_rel=, vloss=, unobs=0|1, unobs_below=, sync=,
 * parallel=tree|root, final=visits|mean, mem= (MiB), reuse=0|1, rollout=random|heuristic
 * with eps= and sample=, prior=none|heuristic with prior_w= and prior_form=, cutoff=D (D
 * random moves past the leaf, then the heuristic's evaluate), params=FILE and any weight
 * name (the heuristic's weights). Without iters= and time=: iters=1000. Keys that would
 * change nothing (eps= without heuristic rollouts, ...) are refused.
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
#define MCTS_BOT_DEFAULT_EPS 0.1
/* Scores closer than this count as equal in heuristic rollouts. */
#define MCTS_BOT_TIE_EPS 1e-12

typedef struct mcts_bot {
    mcts_options_t opt;   /* search options (seed replaced at every reset) */
    mcts_t *search;       /* the searcher, remade at every reset */
    const heuristic_t *h; /* the game's heuristic, NULL if no hook uses it */
    heur_params_t w;      /* its weights */
    double eps;           /* heuristic rollouts: share of uniformly random moves */
    int sample;           /* heuristic rollouts: moves scored per ply, 0: all */
    mcts_stats_t last;    /* statistics of the last search */
    bool searched;        /* last is set (a search ran since the last reset) */
    mcts_bot_totals_t totals; /* over every search since the bot was made */
} mcts_bot_t;

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
static void prior_heuristic(const game_api_t *api, const void *state, const move_t *moves,
                            int n, double *priors, void *ctx)
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

static void evaluate_heuristic(const game_api_t *api, const void *state, double *values,
                               void *ctx)
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

/* A choice among names: its index, or -1 with err listing them. */
static int key_choice(const char *key, const char *value, const char *const *names, char *err,
                      size_t errlen)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(value, names[i]))
            return i;
    int n = snprintf(err, errlen, "bad value '%s' for key '%s' (one of", value, key);
    for (int i = 0; names[i] && n > 0 && (size_t)n < errlen; i++)
        n += snprintf(err + n, errlen - (size_t)n, "%s %s", i ? "," : "", names[i]);
    if (n > 0 && (size_t)n < errlen)
        snprintf(err + n, errlen - (size_t)n, ")");
    return -1;
}

/* Which keys were given, to refuse those that would change nothing. */
typedef struct mcts_keys_seen {
    int eps, sample, prior_w, prior_form; /* index+1 of the key in the spec, 0: not given */
    int weights, params;               /* the same, for weights and params= */
    int rollout_heur, prior_heur;      /* rollout=heuristic, prior=heuristic given */
    int cutoff;                        /* cutoff= given */
    int iters, time;                   /* budgets given */
} mcts_keys_seen_t;

static const char *const choice_parallel[] = {"tree", "root", NULL};
static const char *const choice_final[] = {"visits", "mean", NULL};
static const char *const choice_bool[] = {"0", "1", NULL};
static const char *const choice_rollout[] = {"random", "heuristic", NULL};
static const char *const choice_prior[] = {"none", "heuristic", NULL};
static const char *const choice_prior_form[] = {"decay", "puct", NULL};

/* One key other than params=: 0, or -1 with err. */
static int mcts_key(mcts_bot_t *mb, const heuristic_t *h, const char *key, const char *value,
                    int k, mcts_keys_seen_t *seen, char *err, size_t errlen)
{
    mcts_options_t *o = &mb->opt;
    long v;
    int c, i;
    if (!strcmp(key, "iters")) {
        if (bot_spec_int(key, value, 1, 2000000000L, &o->iterations, err, errlen))
            return -1;
        seen->iters = k + 1;
    } else if (!strcmp(key, "time")) {
        if (bot_spec_int(key, value, 1, 100000000L, &o->time_ms, err, errlen))
            return -1;
        seen->time = k + 1;
    } else if (!strcmp(key, "threads")) {
        if (bot_spec_int(key, value, 1, 256, &v, err, errlen))
            return -1;
        o->threads = (int)v;
    } else if (!strcmp(key, "c")) {
        return bot_spec_double(key, value, 0.0, 1e6, &o->c, err, errlen);
    } else if (!strcmp(key, "fpu")) {
        return bot_spec_double(key, value, -1e6, 1e6, &o->fpu, err, errlen);
    } else if (!strcmp(key, "fpu_rel")) {
        if ((c = key_choice(key, value, choice_bool, err, errlen)) < 0)
            return -1;
        o->fpu_relative = c == 1;
    } else if (!strcmp(key, "vloss")) {
        if (bot_spec_int(key, value, 0, 1000000, &v, err, errlen))
            return -1;
        o->virtual_loss = (int)v;
    } else if (!strcmp(key, "unobs")) {
        if ((c = key_choice(key, value, choice_bool, err, errlen)) < 0)
            return -1;
        o->unobserved = c == 1;
    } else if (!strcmp(key, "unobs_below")) {
        if (bot_spec_int(key, value, 1, 1000000000, &v, err, errlen))
            return -1;
        o->unobserved_below = (int)v;
    } else if (!strcmp(key, "sync")) {
        if (bot_spec_int(key, value, 0, 64, &v, err, errlen))
            return -1;
        o->sync = (int)v;
    } else if (!strcmp(key, "parallel")) {
        if ((c = key_choice(key, value, choice_parallel, err, errlen)) < 0)
            return -1;
        o->parallel = c ? MCTS_PARALLEL_ROOT : MCTS_PARALLEL_TREE;
    } else if (!strcmp(key, "final")) {
        if ((c = key_choice(key, value, choice_final, err, errlen)) < 0)
            return -1;
        o->final = c ? MCTS_FINAL_MEAN : MCTS_FINAL_VISITS;
    } else if (!strcmp(key, "mem")) {
        if (bot_spec_int(key, value, 1, 1L << 20, &v, err, errlen))
            return -1;
        o->memory_bytes = (size_t)v << 20;
    } else if (!strcmp(key, "reuse")) {
        if ((c = key_choice(key, value, choice_bool, err, errlen)) < 0)
            return -1;
        o->reuse = c == 1;
    } else if (!strcmp(key, "rollout")) {
        if ((c = key_choice(key, value, choice_rollout, err, errlen)) < 0)
            return -1;
        seen->rollout_heur = c == 1 ? k + 1 : 0;
    } else if (!strcmp(key, "eps")) {
        if (bot_spec_double(key, value, 0.0, 1.0, &mb->eps, err, errlen))
            return -1;
        seen->eps = k + 1;
    } else if (!strcmp(key, "sample")) {
        if (bot_spec_int(key, value, 0, GAME_MAX_MOVES, &v, err, errlen))
            return -1;
        mb->sample = (int)v;
        seen->sample = k + 1;
    } else if (!strcmp(key, "prior")) {
        if ((c = key_choice(key, value, choice_prior, err, errlen)) < 0)
            return -1;
        seen->prior_heur = c == 1 ? k + 1 : 0;
    } else if (!strcmp(key, "prior_w")) {
        if (bot_spec_double(key, value, 0.0, 1e6, &o->prior_weight, err, errlen))
            return -1;
        seen->prior_w = k + 1;
    } else if (!strcmp(key, "prior_form")) {
        if ((c = key_choice(key, value, choice_prior_form, err, errlen)) < 0)
            return -1;
        o->prior_form = c ? MCTS_PRIOR_PUCT : MCTS_PRIOR_DECAY;
        seen->prior_form = k + 1;
    } else if (!strcmp(key, "cutoff")) {
        if (bot_spec_int(key, value, 0, 100000, &v, err, errlen))
            return -1;
        o->cutoff_depth = (int)v;
        seen->cutoff = k + 1;
    } else if (h && (i = heur_param_find(h, key)) >= 0) {
        if (bot_spec_double(key, value, -1e12, 1e12, &mb->w.value[i], err, errlen))
            return -1;
        if (!seen->weights)
            seen->weights = k + 1;
    } else {
        snprintf(err, errlen,
                 "unknown key '%s' (mcts takes iters, time, threads, c, fpu, fpu_rel, vloss, "
                 "unobs, unobs_below, sync, parallel, final, mem, reuse, rollout, eps, "
                 "sample, prior, prior_w, prior_form, cutoff, params and the heuristic's "
                 "weights)",
                 key);
        return -1;
    }
    return 0;
}

static int mcts_bot_keys(bot_t *b, mcts_bot_t *mb, const bot_spec_t *spec, char *err,
                         size_t errlen)
{
    const heuristic_t *h = heuristic_for(b->api);
    mcts_keys_seen_t seen;
    memset(&seen, 0, sizeof seen);
    if (h)
        heur_params_default(h, &mb->w);
    /* The file first, so that weights given as keys override it in any key order. */
    for (int k = 0; k < spec->key_count; k++)
        if (!strcmp(spec->keys[k], "params")) {
            seen.params = k + 1;
            if (!h) {
                snprintf(err, errlen, "params=: no heuristic for game '%s'", b->api->name);
                return -1;
            }
            if (heur_params_load(h, spec->values[k], &mb->w, err, errlen))
                return -1;
        }
    for (int k = 0; k < spec->key_count; k++)
        if (strcmp(spec->keys[k], "params") &&
            mcts_key(mb, h, spec->keys[k], spec->values[k], k, &seen, err, errlen))
            return -1;
    if (seen.iters && !seen.time)
        mb->opt.time_ms = 0;
    if (seen.time && !seen.iters)
        mb->opt.iterations = 0;
    if (!seen.iters && !seen.time)
        mb->opt.iterations = MCTS_BOT_DEFAULT_ITERS;
    if (seen.eps && !seen.rollout_heur) {
        snprintf(err, errlen, "key 'eps' needs rollout=heuristic");
        return -1;
    }
    if (seen.sample && !seen.rollout_heur) {
        snprintf(err, errlen, "key 'sample' needs rollout=heuristic");
        return -1;
    }
    if ((seen.prior_w || seen.prior_form) && !seen.prior_heur) {
        snprintf(err, errlen, "key '%s' needs prior=heuristic",
                 seen.prior_w ? "prior_w" : "prior_form");
        return -1;
    }
    /* The search plays the cutoff's moves at random, whatever the rollout policy. */
    if (seen.cutoff && seen.rollout_heur) {
        snprintf(err, errlen, "keys 'cutoff' and 'rollout=heuristic' exclude each other "
                              "(cutoff plays random moves before evaluate)");
        return -1;
    }
    bool uses_heuristic = seen.rollout_heur || seen.prior_heur || seen.cutoff;
    if ((seen.params || seen.weights) && !uses_heuristic) {
        snprintf(err, errlen, "key '%s' needs rollout=heuristic, prior=heuristic or cutoff=",
                 spec->keys[(seen.params ? seen.params : seen.weights) - 1]);
        return -1;
    }
    if (uses_heuristic && !h) {
        snprintf(err, errlen, "no heuristic for game '%s'", b->api->name);
        return -1;
    }
    if (uses_heuristic)
        mb->h = h;
    if (seen.rollout_heur) {
        mb->opt.rollout = rollout_heuristic;
        mb->opt.rollout_ctx = mb;
    }
    if (seen.prior_heur) {
        mb->opt.prior = prior_heuristic;
        mb->opt.prior_ctx = mb;
    }
    if (seen.cutoff) {
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
    move_t mv = mcts_search(mb->search, state, &mb->last);
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

const mcts_stats_t *mcts_bot_last_stats(const bot_t *b)
{
    if (b->kind != &bot_kind_mcts)
        return NULL;
    const mcts_bot_t *mb = b->impl;
    return mb->searched ? &mb->last : NULL;
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
    mcts_t *fresh = mcts_new(b->api, &mb->opt);
    if (fresh) {
        mcts_free(mb->search);
        mb->search = fresh;
    } else {
        mcts_reset(mb->search);
    }
}

const bot_kind_t bot_kind_mcts = {
    .name = "mcts",
    .help = "mcts: information-set MCTS; keys: iters, time (ms), threads, c, fpu, "
            "fpu_rel=0|1, vloss, unobs=0|1, unobs_below (>= 1), sync (0-64), "
            "parallel=tree|root, final=visits|mean, mem (MiB), reuse=0|1, "
            "rollout=random|heuristic, eps, sample, prior=none|heuristic, prior_w, "
            "prior_form=decay|puct, cutoff, params=FILE, weight names",
    .init = mcts_bot_init,
    .choose = mcts_bot_choose,
    .observe = mcts_bot_observe,
    .reset = mcts_bot_reset,
    .destroy = mcts_bot_destroy,
};
