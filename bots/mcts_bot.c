/*
 * mcts: the information-set MCTS of search/mcts.h (it determinizes every iteration for the
 * player to move, so hidden parts of the state are never read). Its keys are those of
 * bots/mcts_keys.h: the search's from the tables of the search ideas (search/keys.h), and
 * its own (name, type, range, default, help), which also print `skyline play --help` and
 * BOTS.md's key list; any weight name of the game's heuristic is a key too. The bot reads
 * them as the rows say: values where the rows store them, the defaults the rows give, the
 * rules between keys (keys that would change nothing, such as eps= without heuristic
 * rollouts, are refused) and the fills (the budget without iters= and time=, the best
 * preset, net='s settings) of search/keys.c and bots/mcts_keys.c; the code here sets the
 * hooks the keys turn on.
 *
 * Presets (key preset=): `best`, the default, is the strongest setting known for the game:
 * for a game with a heuristic the fills of mcts_bot_best_fills (docs/RESULTS.md, "Search
 * defaults"), for a game without one plain UCT; `plain` is plain UCT (random playouts, no
 * prior, the search's defaults) everywhere. Keys given override the preset's values.
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

/* Game clock: own moves expected in a game, the fewest expected left, and the reserve in
   moves that the allotment divides by on top (Tower Up 2p: about 20 searched moves a bot
   a game, Uptown about 15). */
#define MCTS_CLOCK_EXPECTED_MOVES 30
#define MCTS_CLOCK_MIN_LEFT       8
#define MCTS_CLOCK_MARGIN         2
/* Scores closer than this count as equal in heuristic rollouts. */
#define MCTS_BOT_TIE_EPS 1e-12

typedef struct mcts_bot {
    mcts_options_t opt;         /* search options (seed replaced at every reset) */
    mcts_t *search;             /* the searcher, remade at every reset */
    const heuristic_t *h;       /* the game's heuristic, NULL if no hook uses it */
    heur_params_t w;            /* its weights */
    mcts_bot_values_t vals;     /* the values of the bot's own keys (eps=, sample=, ...) */
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
        if (n > 1 && pcg32_double(rng) < mb->vals.eps) {
            pick = (int)pcg32_bounded(rng, (uint32_t)n);
        } else if (n > 1) {
            /* With sample=K, only K moves drawn at random (the first K after a partial
               shuffle) are scored: much cheaper where there are many legal moves. */
            if (mb->vals.sample > 0 && n > mb->vals.sample) {
                for (int i = 0; i < mb->vals.sample; i++) {
                    int j = i + (int)pcg32_bounded(rng, (uint32_t)(n - i));
                    move_t t = moves[i];
                    moves[i] = moves[j];
                    moves[j] = t;
                }
                n = mb->vals.sample;
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

/* The spec's keys as the bot reads them: every key of the bot (mcts_bot_keys_all), whether
   it was given and whether it was given or filled in, and the value of those stored
   nowhere (rollout=, prior=, preset=, ...); the others' values are in mb. */
typedef struct key_reader {
    mcts_bot_t *mb;
    const mcts_key_def_t *keys[MCTS_BOT_KEYS_MAX];
    int count;
    int given[MCTS_BOT_KEYS_MAX];    /* index + 1 in the spec, 0: not given */
    bool set[MCTS_BOT_KEYS_MAX];     /* given or filled in */
    double value[MCTS_BOT_KEYS_MAX]; /* a key stored nowhere: its value */
} key_reader_t;

/* The index of key d in r, or -1 (d NULL: no key). */
static int reader_index(const key_reader_t *r, const mcts_key_def_t *d)
{
    for (int k = 0; k < r->count; k++)
        if (r->keys[k] == d)
            return k;
    return -1;
}

static const mcts_key_def_t *reader_get(void *ctx, const char *name, size_t len, bool *given,
                                        double *value)
{
    const key_reader_t *r = ctx;
    const mcts_key_def_t *d = mcts_bot_key(name, len);
    int k = d ? reader_index(r, d) : -1;
    if (k < 0)
        return NULL;
    *given = r->given[k] != 0;
    *value = d->store == MCTS_STORE_NONE ? r->value[k]
             : mcts_bot_key_own(d)       ? mcts_key_value_at(d, &r->mb->vals)
                                         : mcts_key_value(d, &r->mb->opt);
    return d;
}

static bool holds(key_reader_t *r, const char *cond) { return mcts_key_holds(cond, reader_get, r); }

/* Whether the key named name was given or filled in. */
static bool is_set(const key_reader_t *r, const char *name)
{
    int k = reader_index(r, mcts_bot_key(name, strlen(name)));
    return k >= 0 && r->set[k];
}

/* The index + 1 in the spec of the key named name, 0 if it was not given. */
static int given_at(const key_reader_t *r, const char *name)
{
    int k = reader_index(r, mcts_bot_key(name, strlen(name)));
    return k >= 0 ? r->given[k] : 0;
}

/* Stores value (read for key k) where its row says, and keeps it for the conditions. */
static void reader_put(key_reader_t *r, int k, long iv, double dv)
{
    mcts_bot_key_store(r->keys[k], &r->mb->opt, &r->mb->vals, iv, dv);
    r->value[k] = r->keys[k]->type == MCTS_KEY_DOUBLE ? dv : (double)iv;
    r->set[k] = true;
}

/* Applies the fills (search/keys.h) whose condition holds. */
static void reader_fill(key_reader_t *r, const mcts_key_fill_t *fills)
{
    for (const mcts_key_fill_t *f = fills; f->set; f++) {
        if ((f->when && !holds(r, f->when)) || (f->unless && holds(r, f->unless)))
            continue;
        size_t len = strcspn(f->set, "=");
        int k = reader_index(r, mcts_bot_key(f->set, len));
        long iv;
        double dv;
        if (k >= 0 && mcts_key_parse(r->keys[k], f->set + len + 1, &iv, &dv) == 0)
            reader_put(r, k, iv, dv);
    }
}

/* The first rule broken: -1 with err its error, else 0. */
static int reader_check(key_reader_t *r, const mcts_key_rule_t *rules, char *err, size_t errlen)
{
    for (const mcts_key_rule_t *u = rules; u->error; u++)
        if (holds(r, u->when) &&
            ((u->needs && !holds(r, u->needs)) || (u->excludes && holds(r, u->excludes)))) {
            snprintf(err, errlen, "%s", u->error);
            return -1;
        }
    return 0;
}

/* Every key that needs another's value (its row's `needs`): a key given without it would
   change nothing, so it is refused; one not given takes its row's default once it holds
   (cpuct= with net=). */
static int reader_needs(key_reader_t *r, char *err, size_t errlen)
{
    for (int k = 0; k < r->count; k++) {
        const mcts_key_def_t *d = r->keys[k];
        if (d->needs && r->given[k] && !holds(r, d->needs)) {
            snprintf(err, errlen, "key '%s' needs %s", d->name, d->needs);
            return -1;
        }
    }
    return 0;
}

static void reader_needs_defaults(key_reader_t *r)
{
    for (int k = 0; k < r->count; k++) {
        const mcts_key_def_t *d = r->keys[k];
        long iv;
        double dv;
        if (d->needs && !r->given[k] && holds(r, d->needs) && mcts_key_default(d, &iv, &dv) == 0)
            reader_put(r, k, iv, dv);
    }
}

/* The reader of mb's keys, each at its default: the bot's own kept ones stored in mb, the
   values of those stored nowhere kept. */
static void reader_init(key_reader_t *r, mcts_bot_t *mb)
{
    memset(r, 0, sizeof *r);
    r->mb = mb;
    r->count = mcts_bot_keys_all(r->keys);
    for (int k = 0; k < r->count; k++) {
        long iv = 0;
        double dv = 0.0;
        bool has = mcts_key_default(r->keys[k], &iv, &dv) == 0;
        if (has && mcts_bot_key_own(r->keys[k]))
            mcts_bot_key_store(r->keys[k], &mb->opt, &mb->vals, iv, dv);
        r->value[k] = r->keys[k]->type == MCTS_KEY_DOUBLE ? dv : (double)iv;
    }
}

/*
 * net=FILE (docs/NETS.md): the net gives the prior and the leaves' values, PUCT selection.
 * All other keys read and checked. 0, or -1 with err one line.
 */
static int mcts_bot_net_keys(bot_t *b, key_reader_t *r, const char *path, char *err, size_t errlen)
{
    mcts_bot_t *mb = r->mb;
    mcts_options_t *o = &mb->opt;
    bool cutoff = holds(r, "cutoff");
    mcts_net_options_t no = {.threads = o->threads,
                             .prior_temp = mb->vals.prior_temp,
                             .value_mix = mb->vals.value_mix,
                             .mix_cutoff = cutoff ? o->cutoff_depth : 0,
                             .mix_evaluate = cutoff ? evaluate_heuristic : NULL,
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
    reader_fill(r, mcts_bot_net_fills);
    return 0;
}

/*
 * Reads the spec's keys into mb: params= first, so that weights given as keys override it in
 * any key order. *weights: index + 1 of the first weight given by name.
 */
static int mcts_bot_read_keys(bot_t *b, key_reader_t *r, const bot_spec_t *spec,
                              const heuristic_t *h, int *weights, char *err, size_t errlen)
{
    mcts_bot_t *mb = r->mb;
    for (int k = 0; k < spec->key_count; k++)
        if (!strcmp(spec->keys[k], "params")) {
            if (!h) {
                snprintf(err, errlen, "params=: no heuristic for game '%s'", b->api->name);
                return -1;
            }
            if (heur_params_load(h, spec->values[k], &mb->w, err, errlen))
                return -1;
        }
    for (int k = 0; k < spec->key_count; k++) {
        const char *key = spec->keys[k], *value = spec->values[k];
        const mcts_key_def_t *d = mcts_bot_key(key, strlen(key));
        int t = d ? reader_index(r, d) : -1, i;
        long iv = 0;
        double dv = 0.0;
        if (t >= 0 && !strcmp(key, "clock")) { /* BASE or BASE+INC */
            if (bot_tc_parse("key 'clock'", value, &mb->clock_ms, &mb->clock_inc, err, errlen))
                return -1;
        } else if (t >= 0 && d->type != MCTS_KEY_FILE) {
            if (mcts_key_read(d, value, &iv, &dv, err, errlen))
                return -1;
            reader_put(r, t, iv, dv);
        } else if (t < 0 && h && (i = heur_param_find(h, key)) >= 0) {
            if (bot_spec_double(key, value, -HEUR_VALUE_MAX, HEUR_VALUE_MAX, &mb->w.value[i], err,
                                errlen))
                return -1;
            if (!*weights)
                *weights = k + 1;
        } else if (t < 0) {
            mcts_key_unknown(key, err, errlen);
            return -1;
        }
        if (t >= 0) {
            r->given[t] = k + 1;
            r->set[t] = true;
        }
    }
    return 0;
}

/* The checks between keys and the values filled in: the best preset's (in a game with a
   heuristic, unless preset=plain or net=), the search's, the rules, the budget. */
static int mcts_bot_settle_keys(key_reader_t *r, const heuristic_t *h, char *err, size_t errlen)
{
    mcts_bot_t *mb = r->mb;
    mb->opt.playout = holds(r, "rollout=mast")  ? MCTS_PLAYOUT_MAST
                      : holds(r, "rollout=nst") ? MCTS_PLAYOUT_NST
                                                : MCTS_PLAYOUT_HOOK;
    if (h && !holds(r, "preset=plain|net"))
        reader_fill(r, mcts_bot_best_fills);
    reader_fill(r, mcts_key_fills);
    if (reader_needs(r, err, errlen) || reader_check(r, mcts_key_rules, err, errlen) ||
        reader_check(r, mcts_bot_rules, err, errlen))
        return -1;
    /* The budget: the keys given, else the bot's (the library's is not the bot's). */
    if (!holds(r, "iters"))
        mb->opt.iterations = 0;
    if (holds(r, "clock")) /* the time of each move is set before its search */
        mb->opt.time_ms = mcts_clock_allot(mb->clock_ms, 0);
    reader_fill(r, mcts_bot_budget_fills);
    return 0;
}

static int mcts_bot_keys(bot_t *b, mcts_bot_t *mb, const bot_spec_t *spec, char *err, size_t errlen)
{
    const heuristic_t *h = heuristic_for(b->api);
    key_reader_t r;
    reader_init(&r, mb);
    int weights = 0;
    if (h)
        heur_params_default(h, &mb->w);
    if (mcts_bot_read_keys(b, &r, spec, h, &weights, err, errlen) ||
        mcts_bot_settle_keys(&r, h, err, errlen))
        return -1;
    bool rollout_heur = holds(&r, "rollout=heuristic"), prior_heur = holds(&r, "prior=heuristic");
    bool cutoff = is_set(&r, "cutoff");
    bool uses_heuristic = rollout_heur || prior_heur || cutoff;
    int params = given_at(&r, "params");
    if ((params || weights) && !uses_heuristic) {
        snprintf(err, errlen, "key '%s' needs rollout=heuristic, prior=heuristic or cutoff=",
                 spec->keys[(params ? params : weights) - 1]);
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
    int net = given_at(&r, "net");
    if (net && mcts_bot_net_keys(b, &r, spec->values[net - 1], err, errlen))
        return -1;
    reader_needs_defaults(&r);
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
    if (mb->own_moves < mb->vals.temp_moves)
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
