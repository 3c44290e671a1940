/*
 * mcts: the information-set MCTS of search/mcts.h (it determinizes every iteration for the
 * player to move, so hidden parts of the state are never read). Its keys are those of
 * bots/mcts_keys.h: the search's from the tables of the search ideas (search/keys.h), and
 * its own (name, type, range, default, help), which also print `skyline play --help` and
 * BOTS.md's key list; any weight name of the game's heuristic is a key too.
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
#include "bots/mcts_keys.h"
#include "bots/mcts_net.h"
#include "search/mcts.h"

/* Budget when neither iters= nor time= is given. */
#define MCTS_BOT_DEFAULT_ITERS 1000
#define MCTS_BOT_DEFAULT_EPS   0.1
/* The RAVE equivalence parameter that grave= turns on when rave= is not given. */
#define MCTS_BOT_GRAVE_RAVE 300.0

/* The best preset for a game with a heuristic: cut-off depth and first-play urgency. */
#define MCTS_BOT_BEST_CUTOFF 8
#define MCTS_BOT_BEST_FPU    0.3
/* Game clock: own moves expected in a game, the fewest expected left, and the reserve in
   moves that the allotment divides by on top (Tower Up 2p: about 20 searched moves a bot
   a game, Uptown about 15). */
#define MCTS_CLOCK_EXPECTED_MOVES 30
#define MCTS_CLOCK_MIN_LEFT       8
#define MCTS_CLOCK_MARGIN         2
/* With net=: the PUCT constant and the first-play urgency (relative) unless given. */
#define MCTS_BOT_NET_CPUCT 1.0
#define MCTS_BOT_NET_FPU   (-0.1)
/* Scores closer than this count as equal in heuristic rollouts. */
#define MCTS_BOT_TIE_EPS 1e-12

typedef struct mcts_bot {
    mcts_options_t opt;         /* search options (seed replaced at every reset) */
    mcts_t *search;             /* the searcher, remade at every reset */
    const heuristic_t *h;       /* the game's heuristic, NULL if no hook uses it */
    heur_params_t w;            /* its weights */
    double eps;                 /* heuristic rollouts: share of uniformly random moves */
    int sample;                 /* heuristic rollouts: moves scored per ply, 0: all */
    mcts_stats_t last;          /* statistics of the last search */
    bool searched;              /* last is set (a search ran since the last reset) */
    mcts_bot_totals_t totals;   /* over every search since the bot was made */
    long clock_ms;              /* game clock (clock=), 0: none */
    long clock_inc;             /* its increment per own move (clock=BASE+INC) */
    long h_left;                /* the harness's clock before this move (bot_clock), -1: none */
    long h_inc;                 /* its increment */
    long h_move;                /* the harness's limit of this move, 0: none */
    double clock_left;          /* milliseconds left on it in this game */
    int own_moves;              /* choices made in this game (game clock, temp_moves) */
    mcts_net_t *net;            /* net=: the network evaluator, else NULL */
    mcts_net_options_t net_opt; /* the net's options, as the keys made them */
    bool net_evaluator;         /* net=@evaluator: an evaluator is to be given (net NULL
                                   until mcts_bot_set_evaluator) */
    double net_mix;             /* value_mix= */
    double net_temp;            /* prior_temp= */
    int temp_moves;             /* temp_moves=: own moves a game drawn by visits */
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
    mcts_net_free(mb->net);
    free(mb);
    b->impl = NULL;
}

/* Stores the value of key k (read by mcts_key_read): a search key where its row says
   (search/keys.h), the bot's own into the bot. */
static void key_store(mcts_bot_t *mb, int k, long iv, double dv)
{
    mcts_key_store(mcts_key(k), &mb->opt, iv, dv);
    switch (k) {
    case K_EPS: mb->eps = dv; break;
    case K_SAMPLE: mb->sample = (int)iv; break;
    case K_VALUE_MIX: mb->net_mix = dv; break;
    case K_PRIOR_TEMP: mb->net_temp = dv; break;
    case K_TEMP_MOVES: mb->temp_moves = (int)iv; break;
    default: break; /* in the options; rollout, prior, params, net: hooks set once all are read */
    }
}

/* noise= and noise_alpha= (prior: a prior hook will be set): 0, or -1 with err one line. */
static int mcts_bot_noise_keys(const mcts_bot_t *mb, const int *given, bool prior, char *err,
                               size_t errlen)
{
    if (given[K_NOISE_ALPHA] && !(mb->opt.root_noise > 0.0)) {
        snprintf(err, errlen, "key 'noise_alpha' needs noise= above 0 (root noise on)");
        return -1;
    }
    if (mb->opt.root_noise > 0.0 && !prior) {
        snprintf(err, errlen,
                 "key 'noise' needs a prior to mix into: prior=heuristic or net= (the best "
                 "preset's prior in a game with a heuristic)");
        return -1;
    }
    return 0;
}

/*
 * net=FILE (docs/NETS.md): the net gives the prior and the leaves' values, PUCT selection.
 * given[k]: as in mcts_bot_read_keys, all other keys read. 0, or -1 with err one line.
 */
static int mcts_bot_net_keys(bot_t *b, mcts_bot_t *mb, const int *given, const char *path,
                             char *err, size_t errlen)
{
    mcts_options_t *o = &mb->opt;
    const char *other = given[K_PRIOR]     ? "prior"
                        : given[K_ROLLOUT] ? "rollout"
                        : given[K_RAVE]    ? "rave"
                        : given[K_GRAVE]   ? "grave"
                                           : NULL;
    if (other) {
        snprintf(err, errlen,
                 "keys 'net' and '%s' exclude each other (the net gives the prior and the "
                 "leaves' values)",
                 other);
        return -1;
    }
    if (given[K_CUTOFF] && !(mb->net_mix > 0.0)) {
        snprintf(err, errlen, "key 'cutoff' with 'net' needs value_mix= above 0 (what it blends)");
        return -1;
    }
    mcts_net_options_t no = {.threads = o->threads,
                             .prior_temp = mb->net_temp,
                             .value_mix = mb->net_mix,
                             .mix_cutoff = given[K_CUTOFF] ? o->cutoff_depth : 0,
                             .mix_evaluate = given[K_CUTOFF] ? evaluate_heuristic : NULL,
                             .mix_ctx = mb};
    mb->net_opt = no;
    mb->net_evaluator = !strcmp(path, MCTS_BOT_NET_EVALUATOR);
    if (!mb->net_evaluator) {
        if (!(mb->net = mcts_net_new(b->api, path, &no, err, errlen)))
            return -1;
        o->prior = mcts_net_prior;
        o->prior_ctx = mb->net;
        o->evaluate = mcts_net_evaluate;
        o->evaluate_ctx = mb->net;
    }
    o->cutoff_depth = 0;
    o->prior_form = MCTS_PRIOR_PUCT;
    if (!given[K_CPUCT])
        o->prior_weight = MCTS_BOT_NET_CPUCT;
    if (!given[K_C])
        o->c = 0.0;
    if (!given[K_FPU])
        o->fpu = MCTS_BOT_NET_FPU;
    if (!given[K_FPU] && !given[K_FPU_REL])
        o->fpu_relative = true;
    return 0;
}

/* What the keys turn on, for the checks between keys (mcts_bot_keys). */
typedef struct {
    bool rollout_heur, rollout_mast, rollout_nst, prior_heur, cutoff;
} mcts_bot_uses_t;

/*
 * Reads the spec's keys into mb: params= first, so that weights given as keys override it in
 * any key order. given[k]: index + 1 in the spec of table key k (0: not given); chosen[k]: the
 * choice value of a choice key given; *weights: index + 1 of the first weight given by name.
 */
static int mcts_bot_read_keys(bot_t *b, mcts_bot_t *mb, const bot_spec_t *spec,
                              const heuristic_t *h, int *given, long *chosen, int *weights,
                              char *err, size_t errlen)
{
    for (int k = 0; k < spec->key_count; k++)
        if (!strcmp(spec->keys[k], mcts_key(K_PARAMS)->name)) {
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
        int t = mcts_key_find(key);
        int i;
        if (t == K_PARAMS)
            continue;
        if (t == K_CLOCK) { /* BASE or BASE+INC */
            if (bot_tc_parse("key 'clock'", value, &mb->clock_ms, &mb->clock_inc, err, errlen))
                return -1;
            given[t] = k + 1;
        } else if (t >= 0) {
            long iv = 0;
            double dv = 0.0;
            if (mcts_key_read(mcts_key(t), value, &iv, &dv, err, errlen))
                return -1;
            key_store(mb, t, iv, dv);
            given[t] = k + 1;
            chosen[t] = iv;
        } else if (h && (i = heur_param_find(h, key)) >= 0) {
            if (bot_spec_double(key, value, -HEUR_VALUE_MAX, HEUR_VALUE_MAX, &mb->w.value[i], err,
                                errlen))
                return -1;
            if (!*weights)
                *weights = k + 1;
        } else {
            mcts_key_unknown(key, err, errlen);
            return -1;
        }
    }
    return 0;
}

/* The rollout and prior chosen, and the best preset's fill-in of the keys not given. */
static mcts_bot_uses_t mcts_bot_uses(mcts_bot_t *mb, const heuristic_t *h, const int *given,
                                     const long *chosen)
{
    mcts_bot_uses_t u;
    u.rollout_heur = given[K_ROLLOUT] && chosen[K_ROLLOUT] == MCTS_BOT_ROLLOUT_HEURISTIC;
    /* MAST and NST: the search plays and records the moves (search/amaf.h). */
    u.rollout_mast = given[K_ROLLOUT] && chosen[K_ROLLOUT] == MCTS_BOT_ROLLOUT_MAST;
    u.rollout_nst = given[K_ROLLOUT] && chosen[K_ROLLOUT] == MCTS_BOT_ROLLOUT_NST;
    mb->opt.playout = u.rollout_mast  ? MCTS_PLAYOUT_MAST
                      : u.rollout_nst ? MCTS_PLAYOUT_NST
                                      : MCTS_PLAYOUT_HOOK;
    u.prior_heur = given[K_PRIOR] && chosen[K_PRIOR] == MCTS_BOT_PRIOR_HEURISTIC;
    /* The best preset fills in the keys not given (a game without a heuristic: none). */
    bool best =
        h && !(given[K_PRESET] && chosen[K_PRESET] == MCTS_BOT_PRESET_PLAIN) && !given[K_NET];
    u.cutoff = given[K_CUTOFF];
    if (best && !given[K_PRIOR])
        u.prior_heur = true;
    if (best && !given[K_CUTOFF] && !u.rollout_heur && !u.rollout_mast && !u.rollout_nst) {
        mb->opt.cutoff_depth = MCTS_BOT_BEST_CUTOFF;
        u.cutoff = true;
    }
    if (best && !given[K_FPU])
        mb->opt.fpu = MCTS_BOT_BEST_FPU;
    return u;
}

/* The tree and parallel keys that exclude each other, and the budget: clock, time, iters. */
static int mcts_bot_budget_keys(mcts_bot_t *mb, int *given, char *err, size_t errlen)
{
    if (mb->opt.tree == MCTS_TREE_MULTI && mb->opt.parallel == MCTS_PARALLEL_ROOT) {
        snprintf(err, errlen, "keys 'tree=multi' and 'parallel=root' exclude each other");
        return -1;
    }
    if (mb->opt.tree == MCTS_TREE_MULTI && mb->opt.backup == MCTS_BACKUP_BRS) {
        snprintf(err, errlen, "keys 'tree=multi' and 'backup=brs' exclude each other");
        return -1;
    }
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
    return 0;
}

/* The keys that need another's value, and the playout keys that exclude each other. */
static int mcts_bot_needs_keys(mcts_bot_t *mb, const int *given, const mcts_bot_uses_t *u,
                               char *err, size_t errlen)
{
    /* A key that needs another's value changes nothing without it. */
    for (int t = 0; t < K_COUNT; t++) {
        const char *needs = mcts_key(t)->needs;
        if (!given[t] || !needs)
            continue;
        bool met = (!strcmp(needs, "rollout=heuristic") && u->rollout_heur) ||
                   (!strcmp(needs, "prior=heuristic") && u->prior_heur) ||
                   (!strcmp(needs, "rollout=mast") && u->rollout_mast) ||
                   (!strcmp(needs, "rollout=nst") && u->rollout_nst) ||
                   (!strcmp(needs, "net=FILE") && given[K_NET]);
        if (!met) {
            snprintf(err, errlen, "key '%s' needs %s", mcts_key(t)->name, needs);
            return -1;
        }
    }
    if (given[K_PW_A] && !(mb->opt.pw > 0.0)) {
        snprintf(err, errlen, "key 'pw_a' needs pw= above 0 (progressive widening on)");
        return -1;
    }
    /* The search plays the cutoff's moves at random, whatever the rollout policy. */
    if (given[K_CUTOFF] && u->rollout_heur) {
        snprintf(err, errlen,
                 "keys 'cutoff' and 'rollout=heuristic' exclude each other "
                 "(cutoff plays random moves before evaluate)");
        return -1;
    }
    if (given[K_GRAVE] && !given[K_RAVE])
        mb->opt.rave_k = MCTS_BOT_GRAVE_RAVE;
    if (given[K_GRAVE] && !(mb->opt.rave_k > 0.0)) {
        snprintf(err, errlen, "key 'grave' needs rave=K with K > 0");
        return -1;
    }
    /* RAVE records the playout's moves, which the heuristic rollout does not report. */
    if (mb->opt.rave_k > 0.0 && u->rollout_heur) {
        snprintf(err, errlen,
                 "keys 'rave' and 'rollout=heuristic' exclude each other "
                 "(heuristic rollouts do not report their moves)");
        return -1;
    }
    bool records = mb->opt.rave_k > 0.0 || u->rollout_mast || u->rollout_nst;
    if (records && mb->opt.backup == MCTS_BACKUP_BRS) {
        snprintf(err, errlen,
                 "key 'backup=brs' excludes 'rave', 'grave' and 'rollout=mast|nst' (its moves "
                 "outside the tree are not recorded)");
        return -1;
    }
    if (records && mb->opt.tree == MCTS_TREE_MULTI) {
        snprintf(err, errlen,
                 "key 'tree=multi' excludes 'rave', 'grave' and 'rollout=mast|nst' (they "
                 "record the path of one tree)");
        return -1;
    }
    return 0;
}

static int mcts_bot_keys(bot_t *b, mcts_bot_t *mb, const bot_spec_t *spec, char *err, size_t errlen)
{
    const heuristic_t *h = heuristic_for(b->api);
    /* given[k], chosen[k], weights: as in mcts_bot_read_keys. */
    int given[K_COUNT] = {0};
    long chosen[K_COUNT] = {0};
    int weights = 0;
    if (h)
        heur_params_default(h, &mb->w);
    if (mcts_bot_read_keys(b, mb, spec, h, given, chosen, &weights, err, errlen))
        return -1;
    mcts_bot_uses_t u = mcts_bot_uses(mb, h, given, chosen);
    if (mcts_bot_budget_keys(mb, given, err, errlen) ||
        mcts_bot_needs_keys(mb, given, &u, err, errlen))
        return -1;
    bool uses_heuristic = u.rollout_heur || u.prior_heur || u.cutoff;
    if ((given[K_PARAMS] || weights) && !uses_heuristic) {
        snprintf(err, errlen, "key '%s' needs rollout=heuristic, prior=heuristic or cutoff=",
                 spec->keys[(given[K_PARAMS] ? given[K_PARAMS] : weights) - 1]);
        return -1;
    }
    if (uses_heuristic && !h) {
        snprintf(err, errlen, "no heuristic for game '%s'", b->api->name);
        return -1;
    }
    if (mcts_bot_noise_keys(mb, given, u.prior_heur || given[K_NET], err, errlen))
        return -1;
    if (uses_heuristic)
        mb->h = h;
    if (u.rollout_heur) {
        mb->opt.rollout = rollout_heuristic;
        mb->opt.rollout_ctx = mb;
    }
    if (u.prior_heur) {
        mb->opt.prior = prior_heuristic;
        mb->opt.prior_ctx = mb;
    }
    if (u.cutoff) {
        mb->opt.evaluate = evaluate_heuristic;
        mb->opt.evaluate_ctx = mb;
    }
    return given[K_NET]
               ? mcts_bot_net_keys(b, mb, given, spec->values[given[K_NET] - 1], err, errlen)
               : 0;
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
    mb->net_temp = 1.0;
    if (mcts_bot_keys(b, mb, spec, err, errlen)) {
        mcts_bot_destroy(b);
        return -1;
    }
    mb->opt.seed = b->seed;
    mb->clock_left = (double)mb->clock_ms;
    mb->h_left = -1;
    char why[160];
    /* net=@evaluator: no prior until the evaluator is given (mcts_bot_set_evaluator makes
       the searcher that searches), so none to mix noise into before. */
    mcts_options_t first = mb->opt;
    if (mb->net_evaluator)
        first.root_noise = 0.0;
    mb->search = mcts_create(b->api, &first, why, sizeof why);
    if (!mb->search) {
        snprintf(err, errlen, "cannot make the searcher: %s (mem=%zu MiB)", why,
                 mb->opt.memory_bytes >> 20);
        mcts_bot_destroy(b);
        return -1;
    }
    b->threads = mb->opt.threads;
    return 0;
}

/* The next search's time in ms: the least of the own clock's allotment (clock=), the
   harness clock's and 90 % of the harness's move limit; 0: none of them (time= or iters=
   as given). */
static long mcts_bot_budget(const mcts_bot_t *mb)
{
    long ms = 0;
    if (mb->clock_ms) {
        double left = mb->clock_left > 1 ? mb->clock_left : 1;
        ms = mcts_clock_allot((long)left, mb->own_moves) + mb->clock_inc;
        ms = ms > (long)left ? (long)left : ms;
    }
    if (mb->h_left >= 0) {
        long h = mcts_clock_allot(mb->h_left, mb->own_moves) + mb->h_inc * 9 / 10;
        h = h > mb->h_left * 9 / 10 ? mb->h_left * 9 / 10 : h;
        h = h < 1 ? 1 : h;
        ms = ms && ms < h ? ms : h;
    }
    if (mb->h_move > 0) {
        long h = mb->h_move * 9 / 10 > 0 ? mb->h_move * 9 / 10 : 1;
        ms = ms && ms < h ? ms : h;
    }
    if (ms > 0 && !mb->clock_ms && mb->opt.time_ms > 0 && mb->opt.time_ms < ms)
        ms = mb->opt.time_ms; /* time= still bounds a move */
    return ms;
}

static void mcts_bot_clock(bot_t *b, long left_ms, long inc_ms, long move_ms)
{
    mcts_bot_t *mb = b->impl;
    mb->h_left = left_ms;
    mb->h_inc = inc_ms;
    mb->h_move = move_ms;
}

/* True (and b faulted) if b's net is for another player count than state's game. */
static bool mcts_bot_net_refuses(bot_t *b, int players)
{
    const mcts_bot_t *mb = b->impl;
    if (!mb->net || mcts_net_players(mb->net) == players)
        return false;
    bot_fault(b, "exit", "net=: the net is for %d players, not %d", mcts_net_players(mb->net),
              players);
    return true;
}

int mcts_bot_set_evaluator(bot_t *b, int players, mcts_net_fn fn, void *ctx, char *err,
                           size_t errlen)
{
    mcts_bot_t *mb = b->kind == &bot_kind_mcts ? b->impl : NULL;
    if (!mb || !mb->net_evaluator) {
        snprintf(err, errlen, "the bot is not an mcts bot with net=%s", MCTS_BOT_NET_EVALUATOR);
        return -1;
    }
    mcts_net_t *net = mcts_net_new_fn(b->api, players, fn, ctx, &mb->net_opt, err, errlen);
    if (!net)
        return -1;
    mcts_options_t o = mb->opt;
    o.prior = mcts_net_prior;
    o.prior_ctx = net;
    o.evaluate = mcts_net_evaluate;
    o.evaluate_ctx = net;
    char why[160];
    mcts_t *search = mcts_create(b->api, &o, why, sizeof why);
    if (!search) {
        mcts_net_free(net);
        snprintf(err, errlen, "cannot make the searcher: %s", why);
        return -1;
    }
    mcts_free(mb->search);
    mcts_net_free(mb->net);
    mb->search = search;
    mb->net = net;
    mb->opt = o;
    mcts_net_seed(net, b->seed);
    return 0;
}

static int mcts_bot_check_players(const bot_t *b, int players, char *err, size_t errlen)
{
    const mcts_bot_t *mb = b->impl;
    if (!mb->net || mcts_net_players(mb->net) == players)
        return 0;
    snprintf(err, errlen, "net=: the net is for %d players, not %d", mcts_net_players(mb->net),
             players);
    return -1;
}

static void mcts_bot_begin(bot_t *b, const void *initial, const game_options_t *opt, int seat)
{
    (void)opt;
    (void)seat;
    mcts_bot_net_refuses(b, b->api->player_count(initial));
}

/* temp_moves=: a root move of the search st drawn in proportion to its visits from b's
   random numbers (temperature 1); best if no move was visited (a single legal move). */
static move_t mcts_bot_temp_move(bot_t *b, const mcts_stats_t *st, move_t best)
{
    double total = 0.0, r;
    for (int i = 0; i < st->root_move_count; i++)
        total += (double)st->root_moves[i].visits;
    if (!(total > 0.0))
        return best;
    r = pcg32_double(&b->rng) * total; /* whole numbers below 2^53: exact */
    for (int i = 0; i < st->root_move_count; i++)
        if ((r -= (double)st->root_moves[i].visits) < 0.0)
            return st->root_moves[i].move;
    return best;
}

static move_t mcts_bot_choose(bot_t *b, const void *state)
{
    mcts_bot_t *mb = b->impl;
    if (mb->net_evaluator && !mb->net)
        bot_fault(b, "exit", "net=%s: no evaluator was given", MCTS_BOT_NET_EVALUATOR);
    if (b->fault[0] || mcts_bot_net_refuses(b, b->api->player_count(state))) {
        move_t moves[GAME_MAX_MOVES];
        b->api->gen_moves(state, moves);
        return moves[0]; /* not played: the bot forfeits */
    }
    mb->searched = true;
    long ms = mcts_bot_budget(mb);
    /* A move without a clock's budget searches by the bot's own time= (or none). */
    mcts_set_time(mb->search, ms > 0 ? ms : mb->opt.time_ms);
    move_t mv = mcts_search(mb->search, state, &mb->last);
    if (mb->clock_ms)
        mb->clock_left += (double)mb->clock_inc - mb->last.seconds * 1000.0;
    /* own_moves counts this game's choices of the bot (its seat's moves, extra turns
       included), from bot_reset. */
    if (mb->own_moves < mb->temp_moves)
        mv = mcts_bot_temp_move(b, &mb->last, mv);
    mb->own_moves++;
    mb->h_left = -1;
    mb->h_move = 0;
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

int mcts_bot_net_eval(const bot_t *b, const void *state, const move_t *moves, int n, double *priors,
                      double *values)
{
    if (b->kind != &bot_kind_mcts)
        return -1;
    const mcts_bot_t *mb = b->impl;
    if (!mb->net || mcts_net_players(mb->net) != b->api->player_count(state) ||
        b->api->is_terminal(state))
        return -1;
    mcts_net_eval_state(mb->net, state, moves, n, priors, values);
    return 0;
}

int mcts_bot_set_progress(bot_t *b, mcts_progress_fn fn, void *ctx, long every)
{
    if (b->kind != &bot_kind_mcts)
        return -1;
    mcts_bot_t *mb = b->impl;
    mcts_set_progress(mb->search, fn, ctx, every);
    mb->opt.progress = fn; /* for the searchers a reset makes */
    mb->opt.progress_ctx = ctx;
    mb->opt.progress_every = every < 1 ? 1 : every;
    return 0;
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
    int width = (int)strlen(label) > 5 ? (int)strlen(label) : 5;
    for (int i = 0; i < n; i++) {
        const mcts_bot_totals_t *t = accs[i];
        if (!t || t->searches == 0)
            continue;
        if (!header)
            fprintf(out,
                    "%-*s searches  iterations/search  ms/search  iterations/s  reused  "
                    "reused visits/search  most nodes\n",
                    width, label);
        header = true;
        double n_searches = (double)t->searches;
        fprintf(out, "%-*s %8ld  %17.1f  %9.2f  %12.0f  %6ld  %20.1f  %10ld\n", width, labels[i],
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
    mb->h_left = -1;
    mb->h_move = 0;
    if (mb->net)
        mcts_net_seed(mb->net, b->seed);
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
    .begin = mcts_bot_begin,
    .check_players = mcts_bot_check_players,
    .destroy = mcts_bot_destroy,
    .stats_add = mcts_bot_stats_add,
    .stats_print = mcts_bot_stats_print,
    .last_search = mcts_bot_last_stats,
    .clock = mcts_bot_clock,
};
