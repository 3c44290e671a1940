/*
 * pimc: Perfect Information Monte Carlo (Long et al., "Understanding the Success of Perfect
 * Information Monte Carlo Sampling in Game Tree Search", AAAI 2010), the determinized
 * baseline that information-set MCTS is compared against (Cowling et al., IEEE TCIAIG
 * 2012). For a move it samples `dets` determinizations of the state for the player to move
 * (api->determinize with the bot's rng: hidden parts are read only through it), searches
 * each as a perfect-information game with an inner mcts bot (cheat=1, so the search takes
 * the determinized state as it is; reuse=0, as each search has another state) and plays
 * the move the searches vote for (bots/pimc.h).
 *
 * Budgets are per move: iters= and time= are totals split evenly over the determinizations
 * (rounded down), so `pimc:iters=2000` and `mcts:iters=2000` spend the same iterations. Every
 * other mcts key (bots/mcts_keys.c) but cheat, reuse and clock is passed to the inner
 * search, whose default is mcts's `preset=best`.
 */
#include "bots/pimc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/heuristic.h"
#include "bots/kinds.h"
#include "bots/mcts_bot.h"
#include "bots/mcts_keys.h"

#define PIMC_DEFAULT_DETS  10
#define PIMC_MAX_DETS      10000
#define PIMC_DEFAULT_ITERS 1000
/* Visit shares closer than this count as equal in the vote. */
#define PIMC_SHARE_EPS 1e-9

typedef struct pimc_bot {
    bot_t *inner;                         /* the mcts bot that searches each determinization */
    int dets;                             /* determinizations per move */
    pimc_vote_rule_t rule;                /* how they vote */
    void *scratch;                        /* the determinization being searched */
    pimc_tally_t tally;                   /* the votes of the current move */
    mcts_move_stat_t agg[GAME_MAX_MOVES]; /* root statistics summed over determinizations */
    mcts_stats_t last;                    /* statistics of the last move's searches, summed */
    bool searched;                        /* last is set (a search ran since the last reset) */
} pimc_bot_t;

/* ---- The vote ---- */

void pimc_tally_init(pimc_tally_t *t, const move_t *moves, int n)
{
    t->n = n;
    t->dets = 0;
    for (int i = 0; i < n; i++) {
        t->moves[i] = moves[i];
        t->share[i] = 0.0;
        t->votes[i] = 0;
        t->visits[i] = 0;
        t->value_sum[i] = 0.0;
    }
}

/* The index of mv among the tally's moves, or -1. */
static int tally_find(const pimc_tally_t *t, move_t mv)
{
    for (int i = 0; i < t->n; i++)
        if (t->moves[i] == mv)
            return i;
    return -1;
}

void pimc_tally_add(pimc_tally_t *t, const mcts_move_stat_t *root, int count, move_t chosen)
{
    long total = 0;
    for (int j = 0; j < count; j++)
        total += root[j].visits;
    for (int j = 0; j < count && total > 0; j++) {
        int i = tally_find(t, root[j].move);
        if (i < 0)
            continue;
        t->share[i] += (double)root[j].visits / (double)total;
        t->visits[i] += root[j].visits;
        t->value_sum[i] += (double)root[j].visits * root[j].mean;
    }
    int c = tally_find(t, chosen);
    if (c >= 0) {
        t->votes[c]++;
        if (total == 0)
            t->share[c] += 1.0;
    }
    t->dets++;
}

/* Compares moves i and j of t under rule: > 0 if i is better, < 0 if j is, 0 if tied. */
static int tally_compare(const pimc_tally_t *t, int i, int j, pimc_vote_rule_t rule)
{
    double ds = t->share[i] - t->share[j];
    int dv = t->votes[i] - t->votes[j];
    int share_cmp = ds > PIMC_SHARE_EPS ? 1 : ds < -PIMC_SHARE_EPS ? -1 : 0;
    int vote_cmp = dv > 0 ? 1 : dv < 0 ? -1 : 0;
    if (rule == PIMC_VOTE_PLURALITY)
        return vote_cmp ? vote_cmp : share_cmp;
    return share_cmp ? share_cmp : vote_cmp;
}

move_t pimc_tally_winner(const pimc_tally_t *t, pimc_vote_rule_t rule)
{
    int best = 0;
    for (int i = 1; i < t->n; i++)
        if (tally_compare(t, i, best, rule) > 0)
            best = i; /* strictly better only: ties keep the earlier move */
    return t->n > 0 ? t->moves[best] : MCTS_NO_MOVE;
}

/* ---- Keys ---- */

/* Keys of mcts that pimc sets itself or does not support, with why. */
static const char *const refused_keys[][2] = {
    {"cheat", "pimc searches each determinization as it is (cheat=1 inside)"},
    {"reuse", "each determinization is searched afresh (reuse=0 inside)"},
    {"clock", "pimc takes time= per move, not a game clock"},
};

/* Adds key=value to the inner spec: 0, or -1 with err if it is full. */
static int inner_add(bot_spec_t *in, const char *key, const char *value, char *err, size_t errlen)
{
    if (in->key_count == BOT_SPEC_MAX_KEYS) {
        snprintf(err, errlen, "too many keys for the inner mcts search (at most %d with pimc's)",
                 BOT_SPEC_MAX_KEYS);
        return -1;
    }
    snprintf(in->keys[in->key_count], sizeof in->keys[0], "%s", key);
    snprintf(in->values[in->key_count], sizeof in->values[0], "%s", value);
    in->key_count++;
    return 0;
}

/* Reads pimc's own keys into pb and the rest into the inner mcts spec: 0, or -1 with err. */
static int pimc_keys(bot_t *b, pimc_bot_t *pb, const bot_spec_t *spec, bot_spec_t *in, char *err,
                     size_t errlen)
{
    const heuristic_t *h = heuristic_for(b->api);
    long iters = 0, time_ms = 0, dets = PIMC_DEFAULT_DETS;
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "mcts");
    pb->rule = PIMC_VOTE_VISITS;
    for (int k = 0; k < spec->key_count; k++) {
        const char *key = spec->keys[k], *value = spec->values[k];
        if (!strcmp(key, "dets")) {
            if (bot_spec_int(key, value, 1, PIMC_MAX_DETS, &dets, err, errlen))
                return -1;
            continue;
        }
        if (!strcmp(key, "vote")) {
            if (!strcmp(value, "visits") || !strcmp(value, "plurality")) {
                pb->rule = value[0] == 'v' ? PIMC_VOTE_VISITS : PIMC_VOTE_PLURALITY;
                continue;
            }
            snprintf(err, errlen, "bad value '%s' for key 'vote' (one of visits, plurality)",
                     value);
            return -1;
        }
        const mcts_key_def_t *d = mcts_bot_key(key, strlen(key));
        bool budget = d && (!strcmp(key, "iters") || !strcmp(key, "time"));
        if (budget) {
            long v = 0;
            double unused = 0.0;
            if (mcts_key_read(d, value, &v, &unused, err, errlen))
                return -1;
            *(key[0] == 'i' ? &iters : &time_ms) = v;
            continue;
        }
        for (size_t r = 0; r < sizeof refused_keys / sizeof refused_keys[0]; r++)
            if (!strcmp(key, refused_keys[r][0])) {
                snprintf(err, errlen, "key '%s' is not a pimc key: %s", key, refused_keys[r][1]);
                return -1;
            }
        if (!d && !(h && heur_param_find(h, key) >= 0)) {
            snprintf(err, errlen,
                     "unknown key '%s' (pimc takes dets, vote, iters, time and the mcts keys "
                     "but cheat, reuse and clock)",
                     key);
            return -1;
        }
        if (inner_add(in, key, value, err, errlen))
            return -1;
    }
    pb->dets = (int)dets;
    if (!iters && !time_ms)
        iters = PIMC_DEFAULT_ITERS;
    char text[32];
    if (iters) {
        if (iters < dets) {
            snprintf(err, errlen,
                     "iters=%ld is below dets=%ld (each determinization needs an "
                     "iteration)",
                     iters, dets);
            return -1;
        }
        snprintf(text, sizeof text, "%ld", iters / dets);
        if (inner_add(in, "iters", text, err, errlen))
            return -1;
    }
    if (time_ms) {
        if (time_ms < dets) {
            snprintf(err, errlen,
                     "time=%ld is below dets=%ld (each determinization needs a "
                     "millisecond)",
                     time_ms, dets);
            return -1;
        }
        snprintf(text, sizeof text, "%ld", time_ms / dets);
        if (inner_add(in, "time", text, err, errlen))
            return -1;
    }
    if (inner_add(in, "cheat", "1", err, errlen) || inner_add(in, "reuse", "0", err, errlen))
        return -1;
    return 0;
}

/* ---- The bot ---- */

static void pimc_destroy(bot_t *b)
{
    pimc_bot_t *pb = b->impl;
    if (!pb)
        return;
    bot_free(pb->inner);
    free(pb->scratch);
    free(pb);
    b->impl = NULL;
}

/* The inner mcts bot from its spec, seeded with b's seed: 0, or -1 with err (its key's). */
static int inner_new(bot_t *b, pimc_bot_t *pb, const bot_spec_t *in, char *err, size_t errlen)
{
    bot_t *ib = calloc(1, sizeof *ib);
    if (!ib) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    ib->api = b->api;
    ib->kind = &bot_kind_mcts;
    snprintf(ib->spec, sizeof ib->spec, "%s", b->spec);
    ib->threads = 1;
    ib->undo_to = -1;
    ib->seed = b->seed;
    pcg32_seed(&ib->rng, b->seed, 0);
    if (bot_kind_mcts.init(ib, in, err, errlen)) {
        free(ib);
        return -1;
    }
    pb->inner = ib;
    return 0;
}

static int pimc_init(bot_t *b, const bot_spec_t *spec, char *err, size_t errlen)
{
    pimc_bot_t *pb = calloc(1, sizeof *pb);
    if (!pb) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    b->impl = pb;
    bot_spec_t in;
    pb->scratch = malloc(b->api->state_size);
    if (!pb->scratch) {
        snprintf(err, errlen, "out of memory");
        pimc_destroy(b);
        return -1;
    }
    if (pimc_keys(b, pb, spec, &in, err, errlen) || inner_new(b, pb, &in, err, errlen)) {
        pimc_destroy(b);
        return -1;
    }
    b->threads = pb->inner->threads;
    return 0;
}

static int agg_compare(const void *a, const void *b)
{
    const mcts_move_stat_t *x = a, *y = b;
    if (x->visits != y->visits)
        return x->visits > y->visits ? -1 : 1;
    return x->move < y->move ? -1 : x->move > y->move ? 1 : 0;
}

/* The summed root statistics of the tally into pb->last (most visits first). */
static void pimc_summarise(pimc_bot_t *pb)
{
    const pimc_tally_t *t = &pb->tally;
    for (int i = 0; i < t->n; i++) {
        pb->agg[i].move = t->moves[i];
        pb->agg[i].visits = t->visits[i];
        pb->agg[i].mean = t->visits[i] > 0 ? t->value_sum[i] / (double)t->visits[i] : 0.0;
    }
    qsort(pb->agg, (size_t)t->n, sizeof pb->agg[0], agg_compare);
    pb->last.root_moves = pb->agg;
    pb->last.root_move_count = t->n;
}

static move_t pimc_choose(bot_t *b, const void *state)
{
    pimc_bot_t *pb = b->impl;
    const game_api_t *api = b->api;
    move_t moves[GAME_MAX_MOVES];
    int n = api->gen_moves(state, moves);
    pimc_tally_init(&pb->tally, moves, n);
    memset(&pb->last, 0, sizeof pb->last);
    pb->searched = true;
    if (n == 1) { /* nothing to choose: no determinization, no search */
        pimc_tally_add(&pb->tally, NULL, 0, moves[0]);
        pimc_summarise(pb);
        return moves[0];
    }
    int me = api->to_move(state);
    for (int d = 0; d < pb->dets; d++) {
        api->copy(pb->scratch, state);
        if (api->determinize)
            api->determinize(pb->scratch, me, &b->rng);
        move_t mv = bot_choose(pb->inner, pb->scratch);
        const mcts_stats_t *st = bot_last_search(pb->inner);
        if (pb->inner->fault[0] || !st) { /* e.g. a net for another player count */
            bot_fault(b, pb->inner->fault[0] ? pb->inner->fault : "exit", "%s",
                      pb->inner->fault[0] ? pb->inner->fault_detail : "the search did not run");
            return moves[0]; /* not played: the bot forfeits */
        }
        pimc_tally_add(&pb->tally, st->root_moves, st->root_move_count, mv);
        pb->last.iterations += st->iterations;
        for (int p = 0; p < GAME_MAX_PLAYERS; p++) /* weighted by iterations, divided below */
            pb->last.root_value[p] += st->root_value[p] * (double)st->iterations;
        pb->last.seconds += st->seconds;
        pb->last.unobserved_passes += st->unobserved_passes;
        pb->last.memory_capped |= st->memory_capped;
        if (st->nodes > pb->last.nodes)
            pb->last.nodes = st->nodes;
        if (st->max_depth > pb->last.max_depth)
            pb->last.max_depth = st->max_depth;
    }
    for (int p = 0; p < GAME_MAX_PLAYERS && pb->last.iterations > 0; p++)
        pb->last.root_value[p] /= (double)pb->last.iterations;
    pimc_summarise(pb);
    return pimc_tally_winner(&pb->tally, pb->rule);
}

/* A new game: the inner search reseeded with the bot's new seed. */
static void pimc_reset(bot_t *b)
{
    pimc_bot_t *pb = b->impl;
    pb->searched = false;
    bot_reset(pb->inner, b->seed);
}

/* The inner mcts bot's limits (a net for one player count). */
static int pimc_check_players(const bot_t *b, int players, char *err, size_t errlen)
{
    const pimc_bot_t *pb = b->impl;
    return pb->inner->kind->check_players
               ? pb->inner->kind->check_players(pb->inner, players, err, errlen)
               : 0;
}

static const mcts_stats_t *pimc_last_search(const bot_t *b)
{
    const pimc_bot_t *pb = b->impl;
    return pb->searched ? &pb->last : NULL;
}

/* The inner searches' totals (a search per determinization), as the mcts kind sums them. */
static void pimc_stats_add(const bot_t *b, void *acc)
{
    const pimc_bot_t *pb = b->impl;
    bot_kind_mcts.stats_add(pb->inner, acc);
}

static void pimc_stats_print(FILE *out, const char *label, const char *const *labels,
                             const void *const *accs, int n)
{
    bot_kind_mcts.stats_print(out, label, labels, accs, n);
}

static void pimc_print_keys(FILE *out)
{
    fprintf(out,
            "  dets=N                    determinizations a move, each searched as a perfect-\n"
            "                            information game (from 1 to %d, default %d)\n"
            "  vote=visits|plurality     visits: sum each search's root visit shares per move;\n"
            "                            plurality: each search votes for its move (default\n"
            "                            visits; ties: the other rule, then legal-move order)\n"
            "  iters=N                   iterations a move in all, split evenly over the\n"
            "                            determinizations (rounded down; default %d)\n"
            "  time=MS                   milliseconds a move in all, split evenly likewise\n"
            "  (mcts keys)               every mcts key above but cheat, reuse and clock, for\n"
            "                            each search (default preset=best)\n",
            PIMC_MAX_DETS, PIMC_DEFAULT_DETS, PIMC_DEFAULT_ITERS);
}

const bot_kind_t bot_kind_pimc = {
    .name = "pimc",
    .help = "pimc: perfect-information MCTS on dets determinizations, voting; keys below",
    .print_keys = pimc_print_keys,
    .init = pimc_init,
    .choose = pimc_choose,
    .reset = pimc_reset,
    .destroy = pimc_destroy,
    .stats_add = pimc_stats_add,
    .stats_print = pimc_stats_print,
    .last_search = pimc_last_search,
    .check_players = pimc_check_players,
};
