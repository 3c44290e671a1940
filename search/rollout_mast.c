/*
 * Playouts the search plays and records itself (search/amaf.h), with the MAST and NST
 * move policies:
 *  - MAST (Finnsson & Bjornsson, "Simulation-based approach to general game playing", AAAI
 *    2008): the mean result of every (player, move), learnt from every move of every
 *    iteration, the tree part included (as TAG's MAST "Both"); a playout move is drawn
 *    with probability proportional to exp(mean / mast_temp), an unseen move counting 0.5.
 *  - NST (Tak, Winands & Bjornsson, "N-grams and the last-good-reply policy applied in
 *    general game playing", IEEE TCIAIG 2012): the mean result of every n-gram of moves
 *    (the move, with the one or two moves played before it, whoever made them) for the
 *    player who made its last move; a move's score is the average of the means of its
 *    n-grams, the 1-gram always (0.5 unseen), the 2- and 3-grams when seen at least nst_min
 *    times; a playout move is the best score (ties at random), or with probability nst_eps
 *    a uniformly random move.
 */
#include <stddef.h>
#include <math.h>

#include "search/amaf.h"
#include "search/keys.h"

/* The entry of key in table t (mask + 1 entries), added if add and absent; NULL if absent
   (or no room within MCTS_TALLY_PROBES slots). */
static mcts_tally_t *tally_find(mcts_tally_t *t, uint32_t mask, uint32_t stamp, uint64_t key,
                                bool add)
{
    uint32_t h = (uint32_t)rng_mix64(key) & mask;
    for (int probe = 0; probe < MCTS_TALLY_PROBES; probe++, h = (h + 1) & mask) {
        mcts_tally_t *e = &t[h];
        if (e->stamp != stamp) {
            if (!add)
                return NULL;
            *e = (mcts_tally_t){.key = key, .stamp = stamp};
            return e;
        }
        if (e->key == key)
            return e;
    }
    return NULL;
}

static inline uint64_t mast_key(int player, move_t mv) { return (uint64_t)(player + 1) << 32 | mv; }

/* The NST key of the n-gram ending with mv (before[0] the move just before it). */
static inline uint64_t nst_key(int player, move_t mv, const move_t *before, int n)
{
    uint64_t k = rng_mix64(mast_key(player, mv) ^ (uint64_t)n << 40);
    for (int j = 0; j < n - 1; j++)
        k = rng_mix64(k ^ before[j]);
    return k | 1; /* never 0 */
}

double mcts_mast_mean(const mcts_trace_t *tr, int player, move_t mv, int32_t *count)
{
    const mcts_tally_t *e = tally_find((mcts_tally_t *)tr->mast, MCTS_MAST_SIZE - 1, tr->stamp,
                                       mast_key(player, mv), false);
    *count = e ? e->count : 0;
    return e && e->count > 0 ? e->sum / e->count : 0.5;
}

double mcts_nst_score(const mcts_trace_t *tr, int player, move_t mv, const move_t *before,
                      int known, int min_count)
{
    double sum = 0.0;
    int terms = 0;
    for (int n = 1; n <= MCTS_NST_MAX_N && n <= known + 1; n++) {
        const mcts_tally_t *e = tally_find((mcts_tally_t *)tr->nst, MCTS_NST_SIZE - 1, tr->stamp,
                                           nst_key(player, mv, before, n), false);
        int32_t count = e ? e->count : 0;
        if (n == 1) {
            sum += count > 0 ? e->sum / count : 0.5;
            terms++;
        } else if (count >= min_count) {
            sum += e->sum / count;
            terms++;
        }
    }
    return sum / terms;
}

/* MAST: a move drawn from the softmax of the means. */
static int pick_mast(mcts_t *m, mcts_thread_t *th, int n, int player)
{
    const mcts_trace_t *tr = th->trace;
    double *w = th->priors;
    double top = -HUGE_VAL, total = 0.0;
    for (int i = 0; i < n; i++) {
        int32_t count;
        w[i] = mcts_mast_mean(tr, player, th->moves[i], &count) / m->opt.mast_temp;
        top = w[i] > top ? w[i] : top;
    }
    for (int i = 0; i < n; i++)
        total += w[i] = exp(w[i] - top);
    double r = pcg32_double(&th->rng) * total;
    for (int i = 0; i < n - 1; i++) {
        r -= w[i];
        if (r < 0.0)
            return i;
    }
    return n - 1;
}

/* NST: epsilon-greedy on the n-gram scores. */
static int pick_nst(mcts_t *m, mcts_thread_t *th, int n, int player)
{
    if (pcg32_double(&th->rng) < m->opt.nst_eps)
        return (int)pcg32_bounded(&th->rng, (uint32_t)n);
    const mcts_trace_t *tr = th->trace;
    int known = tr->played < MCTS_NST_MAX_N - 1 ? tr->played : MCTS_NST_MAX_N - 1;
    int best = 0, ties = 0;
    double best_score = -HUGE_VAL;
    for (int i = 0; i < n; i++) {
        double s = mcts_nst_score(tr, player, th->moves[i], tr->prev, known, m->opt.nst_min);
        if (s > best_score) {
            best_score = s;
            best = i;
            ties = 1;
        } else if (s == best_score && pcg32_bounded(&th->rng, (uint32_t)++ties) == 0) {
            best = i;
        }
    }
    return best;
}

int mcts_playout_pick(mcts_t *m, mcts_thread_t *th, int n, int player)
{
    if (n == 1)
        return 0;
    switch (m->opt.playout) {
    case MCTS_PLAYOUT_MAST: return pick_mast(m, th, n, player);
    case MCTS_PLAYOUT_NST: return pick_nst(m, th, n, player);
    case MCTS_PLAYOUT_HOOK:
    default: return (int)pcg32_bounded(&th->rng, (uint32_t)n);
    }
}

void mcts_trace_simulate(mcts_t *m, mcts_thread_t *th)
{
    const game_api_t *api = m->api;
    void *s = th->state;
    mcts_trace_t *tr = th->trace;
    bool cut = m->opt.evaluate != NULL;
    for (int d = 0; !cut || d < m->opt.cutoff_depth; d++) {
        int n = api->gen_moves(s, th->moves);
        if (n == 0)
            break;
        int player = api->to_move(s);
        move_t mv = th->moves[mcts_playout_pick(m, th, n, player)];
        mcts_trace_push(tr, mv, player);
        api->make(s, mv, th->undo);
    }
    if (cut && !api->is_terminal(s))
        m->opt.evaluate(api, s, th->values, m->opt.evaluate_ctx);
    else
        api->result(s, th->values);
}

void mcts_playout_learn(const mcts_t *m, mcts_thread_t *th, const double *value_of)
{
    mcts_trace_t *tr = th->trace;
    for (int k = 0; k < tr->len; k++) {
        int p = tr->who[k];
        double v = value_of[p];
        mcts_tally_t *e;
        if (m->opt.playout == MCTS_PLAYOUT_MAST) {
            e = tally_find(tr->mast, MCTS_MAST_SIZE - 1, tr->stamp, mast_key(p, tr->move[k]), true);
            if (e) {
                e->count++;
                e->sum += v;
            }
            continue;
        }
        move_t before[MCTS_NST_MAX_N - 1];
        for (int j = 0; j < MCTS_NST_MAX_N - 1 && j < k; j++)
            before[j] = tr->move[k - 1 - j];
        for (int n = 1; n <= MCTS_NST_MAX_N && n <= k + 1; n++) {
            e = tally_find(tr->nst, MCTS_NST_SIZE - 1, tr->stamp,
                           nst_key(p, tr->move[k], before, n), true);
            if (e) {
                e->count++;
                e->sum += v;
            }
        }
    }
}

void mcts_mast_hooks(const mcts_options_t *opt, mcts_hooks_t *h)
{
    if (mcts_records(opt))
        h->playout = mcts_trace_simulate;
}

/* The keys of MAST and NST (search/keys.h). */
const mcts_key_def_t mcts_mast_keys[] = {
    {"mast_temp", MCTS_KEY_DOUBLE, 1e-6, 1e6, NULL, "X", "rollout=mast", "0.1",
     "MAST: temperature of the softmax over the moves' mean results (in [0, 1]; an unseen "
     "move counts 0.5)",
     NULL, MCTS_STORE_DOUBLE, offsetof(mcts_options_t, mast_temp)},
    {"nst_eps", MCTS_KEY_DOUBLE, 0, 1, NULL, "X", "rollout=nst", "0.1",
     "NST: share of uniformly random moves", NULL, MCTS_STORE_DOUBLE,
     offsetof(mcts_options_t, nst_eps)},
    {"nst_min", MCTS_KEY_INT, 1, 1000000000, NULL, "N", "rollout=nst", "7",
     "NST: n-grams of 2 or 3 moves count in a move's score once seen N times", NULL, MCTS_STORE_INT,
     offsetof(mcts_options_t, nst_min)},
    {0},
};
