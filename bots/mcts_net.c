/* The network evaluator of the mcts bot (bots/mcts_net.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/mcts_net.h"
#include "core/rng.h"
#include "nn/net.h"
#include "nn/nets.h"

/* Cache slots per thread (a power of two), the most legal moves whose priors a slot keeps
   (a position with more is evaluated again when it is expanded), and the slots a key may
   take (from its home slot on; a new entry replaces the least recently used of them). */
#define NET_CACHE_SLOTS 1024
#define NET_CACHE_MOVES 256
#define NET_CACHE_WAYS  4

/* One evaluation kept: the key (0: empty), the move count, whether priors are kept, and
   the values relative to the mover (the net's order). */
typedef struct net_entry {
    uint64_t key;
    uint64_t used; /* the thread's evaluation count when it was last used */
    int32_t n;
    int32_t has_prior;
    float values[GAME_MAX_PLAYERS];
} net_entry_t;

/* One search thread's scratch, made once. */
typedef struct net_scratch {
    nn_workspace_t *ws;
    float *obs;                     /* the mover's observation */
    int ids[GAME_MAX_MOVES];        /* the legal moves' action ids */
    float logits[GAME_MAX_MOVES];   /* their logits, then their priors */
    move_t moves[GAME_MAX_MOVES];   /* legal moves of the leaf, and playout moves */
    float values[GAME_MAX_PLAYERS]; /* the net's values */
    net_entry_t *entries;           /* the cache, NET_CACHE_SLOTS */
    float *priors;                  /* NET_CACHE_MOVES priors per slot */
    void *state;                    /* a copy for value_mix's playouts */
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    pcg32_t rng;      /* value_mix's playouts */
    long evals;       /* forward passes run */
    uint64_t lookups; /* cache look-ups (the cache's clock) */
} net_scratch_t;

struct mcts_net {
    const game_api_t *api;
    nn_net_t *net;  /* the net, or NULL with an evaluator */
    mcts_net_fn fn; /* the evaluator, or NULL with a net */
    void *fn_ctx;   /* passed to fn */
    int players;    /* the net's player count */
    int obs_size;   /* its observation size */
    mcts_net_options_t opt;
    net_scratch_t **scratch; /* opt.threads of them */
};

static void scratch_free(net_scratch_t *s)
{
    if (!s)
        return;
    nn_workspace_free(s->ws);
    free(s->obs);
    free(s->entries);
    free(s->priors);
    free(s->state);
    free(s);
}

static net_scratch_t *scratch_new(const mcts_net_t *n)
{
    net_scratch_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->ws = n->net ? nn_workspace_new(n->net, 1) : NULL;
    s->obs = malloc((size_t)n->obs_size * sizeof(float));
    s->entries = calloc(NET_CACHE_SLOTS, sizeof *s->entries);
    s->priors = malloc((size_t)NET_CACHE_SLOTS * NET_CACHE_MOVES * sizeof(float));
    s->state = malloc(n->api->state_size);
    if ((n->net && !s->ws) || !s->obs || !s->entries || !s->priors || !s->state) {
        scratch_free(s);
        return NULL;
    }
    return s;
}

void mcts_net_free(mcts_net_t *n)
{
    if (!n)
        return;
    for (int t = 0; n->scratch && t < n->opt.threads; t++)
        scratch_free(n->scratch[t]);
    free(n->scratch);
    nn_net_free(n->net);
    free(n);
}

/* The evaluator over net (owned; NULL: fn) with its scratch, or NULL with err. */
static mcts_net_t *net_make(const game_api_t *api, nn_net_t *net, mcts_net_fn fn, void *ctx,
                            int players, int obs_size, const mcts_net_options_t *opt, char *err,
                            size_t errlen)
{
    mcts_net_t *n = calloc(1, sizeof *n);
    if (!n) {
        nn_net_free(net);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    n->api = api;
    n->net = net;
    n->fn = fn;
    n->fn_ctx = ctx;
    n->players = players;
    n->obs_size = obs_size;
    n->opt = *opt;
    n->opt.threads = opt->threads < 1 ? 1 : opt->threads;
    n->scratch = calloc((size_t)n->opt.threads, sizeof *n->scratch);
    for (int t = 0; n->scratch && t < n->opt.threads; t++)
        if (!(n->scratch[t] = scratch_new(n))) {
            mcts_net_free(n);
            snprintf(err, errlen, "out of memory for the net's scratch");
            return NULL;
        }
    if (!n->scratch) {
        mcts_net_free(n);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    mcts_net_seed(n, 1);
    return n;
}

mcts_net_t *mcts_net_new(const game_api_t *api, const char *path, const mcts_net_options_t *opt,
                         char *err, size_t errlen)
{
    nn_net_t *net = nn_net_open(path, api, 0, err, errlen); /* a file, or a name (nn/nets.h) */
    if (!net)
        return NULL;
    const nn_info_t *info = nn_net_info(net);
    return net_make(api, net, NULL, NULL, info->players, info->observation_size, opt, err, errlen);
}

mcts_net_t *mcts_net_new_fn(const game_api_t *api, int players, mcts_net_fn fn, void *ctx,
                            const mcts_net_options_t *opt, char *err, size_t errlen)
{
    if (players < 2 || players > GAME_MAX_PLAYERS || !api->observation_size || !api->action_count ||
        !api->move_action || !api->observation || api->observation_size(players) <= 0 ||
        api->action_count(players) <= 0) {
        snprintf(err, errlen, "%s has no observation or action space for %d players", api->name,
                 players);
        return NULL;
    }
    return net_make(api, NULL, fn, ctx, players, api->observation_size(players), opt, err, errlen);
}

int mcts_net_players(const mcts_net_t *n) { return n->players; }

long mcts_net_evals(const mcts_net_t *n)
{
    long sum = 0;
    for (int t = 0; t < n->opt.threads; t++)
        sum += n->scratch[t]->evals;
    return sum;
}

void mcts_net_seed(mcts_net_t *n, uint64_t seed)
{
    for (int t = 0; t < n->opt.threads; t++)
        pcg32_seed(&n->scratch[t]->rng, rng_mix64(seed), 0x6e657400ULL + (uint64_t)t);
}

/* The calling search thread's scratch. */
static net_scratch_t *scratch_of(mcts_net_t *n)
{
    int t = mcts_thread_index();
    return n->scratch[t >= 0 && t < n->opt.threads ? t : 0];
}

/* The cache key of the mover's observation (in s->obs) and legal moves; never 0. */
static uint64_t eval_key(const net_scratch_t *s, int obs_size, int mover, const move_t *moves,
                         int n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)mover << 32 ^ (uint64_t)n;
    for (int i = 0; i < obs_size; i++) {
        uint32_t bits;
        memcpy(&bits, &s->obs[i], sizeof bits);
        h = (h ^ bits) * 0x100000001b3ULL;
    }
    for (int i = 0; i < n; i++)
        h = (h ^ moves[i]) * 0x100000001b3ULL;
    h = rng_mix64(h);
    return h ? h : 1;
}

/*
 * The net at state (mover to move, moves[0..n) legal): the cache entry with the values,
 * and with want_prior the priors in *prior (the entry's, or s->logits when there are too
 * many moves to keep).
 */
static const net_entry_t *net_eval(mcts_net_t *net, net_scratch_t *s, const void *state,
                                   const move_t *moves, int n, bool want_prior, const float **prior)
{
    const game_api_t *api = net->api;
    int mover = api->to_move(state);
    api->observation(state, mover, s->obs);
    uint64_t key = eval_key(s, net->obs_size, mover, moves, n);
    uint32_t home = (uint32_t)(key >> 40), slot = home & (NET_CACHE_SLOTS - 1);
    s->lookups++;
    for (uint32_t w = 0; w < NET_CACHE_WAYS; w++) {
        uint32_t k = (home + w) & (NET_CACHE_SLOTS - 1);
        net_entry_t *c = &s->entries[k];
        if (c->key == key && c->n == n) {
            slot = k;
            break;
        }
        if (c->used < s->entries[slot].used)
            slot = k; /* the least recently used (an empty one first) */
    }
    net_entry_t *e = &s->entries[slot];
    float *kept = s->priors + (size_t)slot * NET_CACHE_MOVES;
    *prior = kept;
    e->used = s->lookups;
    if (e->key == key && e->n == n && (e->has_prior || !want_prior))
        return e;
    bool keep = n <= NET_CACHE_MOVES;
    int n_ids = want_prior || keep ? n : 0; /* the policy rows only when they may be used */
    for (int i = 0; i < n_ids; i++)
        s->ids[i] = api->move_action(state, moves[i]);
    s->evals++;
    int rc = net->net ? nn_eval(net->net, s->ws, s->obs, s->ids, n_ids, s->logits, s->values)
                      : net->fn(net->fn_ctx, s->obs, net->obs_size, s->ids, n_ids, s->logits,
                                s->values, net->players);
    for (int i = 0; !rc && !net->net && i < n_ids; i++)
        rc = isfinite(s->logits[i]) ? 0 : -1;
    for (int j = 0; !rc && !net->net && j < net->players; j++)
        rc = s->values[j] >= 0.0f && s->values[j] <= 1.0f ? 0 : -1;
    if (rc) {
        /* An id out of range (an engine bug), or an evaluator that failed or gave a logit
           that is not finite or a value outside [0, 1] (its caller reports it): a uniform
           prior and even values. */
        for (int i = 0; i < n_ids; i++)
            s->logits[i] = 0.0f;
        for (int j = 0; j < net->players; j++)
            s->values[j] = 0.5f;
    }
    if (net->opt.prior_temp != 1.0)
        for (int i = 0; i < n_ids; i++)
            s->logits[i] = (float)(s->logits[i] / net->opt.prior_temp);
    nn_softmax(s->logits, n_ids, s->logits);
    e->key = key;
    e->n = n;
    e->has_prior = keep && n_ids > 0;
    memcpy(e->values, s->values, sizeof e->values);
    if (e->has_prior)
        memcpy(kept, s->logits, (size_t)n * sizeof(float));
    else
        *prior = s->logits;
    return e;
}

void mcts_net_prior(const game_api_t *api, const void *state, const move_t *moves, int n,
                    double *priors, void *ctx)
{
    (void)api;
    mcts_net_t *net = ctx;
    net_scratch_t *s = scratch_of(net);
    const float *p;
    net_eval(net, s, state, moves, n, true, &p);
    for (int i = 0; i < n; i++)
        priors[i] = p[i];
}

/* The result that value_mix blends in: mix_evaluate after mix_cutoff random moves, or a
   random playout to the end. */
static void mix_result(mcts_net_t *net, net_scratch_t *s, const void *state, double *out)
{
    const game_api_t *api = net->api;
    void *st = s->state;
    memcpy(st, state, api->state_size);
    if (net->opt.mix_evaluate) {
        for (int d = 0; d < net->opt.mix_cutoff; d++) {
            int n = api->gen_moves(st, s->moves);
            if (n == 0)
                break;
            api->make(st, s->moves[pcg32_bounded(&s->rng, (uint32_t)n)], s->undo);
        }
        if (!api->is_terminal(st)) {
            net->opt.mix_evaluate(api, st, out, net->opt.mix_ctx);
            return;
        }
    } else if (api->playout) {
        api->playout(st, &s->rng);
    } else {
        int n;
        while ((n = api->gen_moves(st, s->moves)) > 0)
            api->make(st, s->moves[pcg32_bounded(&s->rng, (uint32_t)n)], s->undo);
    }
    api->result(st, out);
}

void mcts_net_evaluate(const game_api_t *api, const void *state, double *values, void *ctx)
{
    mcts_net_t *net = ctx;
    net_scratch_t *s = scratch_of(net);
    int n = api->gen_moves(state, s->moves);
    const float *p;
    const net_entry_t *e = net_eval(net, s, state, s->moves, n, false, &p);
    int players = api->player_count(state), mover = api->to_move(state);
    int P = players < net->players ? players : net->players;
    for (int j = 0; j < P; j++)
        values[(mover + j) % players] = e->values[j];
    double lambda = net->opt.value_mix;
    if (lambda > 0.0) {
        double mixed[GAME_MAX_PLAYERS];
        mix_result(net, s, state, mixed);
        for (int q = 0; q < players; q++)
            values[q] = (1.0 - lambda) * values[q] + lambda * mixed[q];
    }
}

void mcts_net_eval_state(mcts_net_t *n, const void *state, const move_t *moves, int count,
                         double *priors, double *values)
{
    net_scratch_t *s = n->scratch[0];
    const float *p;
    const net_entry_t *e = net_eval(n, s, state, moves, count, true, &p);
    for (int i = 0; i < count; i++)
        priors[i] = p[i];
    int players = n->api->player_count(state), mover = n->api->to_move(state);
    int P = players < n->players ? players : n->players;
    for (int j = 0; j < P; j++)
        values[(mover + j) % players] = e->values[j];
}
