/*
 * The fast descent: the iteration of worker.c for the searches where none of its generality
 * can matter, taken for a whole search when mcts_fast_ok says so. In a game of perfect
 * information without chance, a node is always the same position, so every child of a
 * node is legal whenever the node is reached: the descent scores the node's edges as they
 * are (no legal moves matched to children through the move hash), a child's availability
 * is the parent's selects since the child was added (mcts_node_t.birth), and with one
 * thread the counts go straight into the nodes (nothing pending, nothing held).
 *
 * It chooses exactly what worker.c chooses: the same arithmetic in the same order as
 * best_child_plain, ties to the first legal move (mcts_node_t.index), the same draws of
 * the thread's stream in the same order (the untried move: pcg32_bounded(untried), then
 * the r-th untried legal move; the playout), so a seeded search gives the same root
 * statistics either way (tests/test_search_fast.c compares them).
 */
#include <math.h>

#include "search/backup.h"
#include "search/internal.h"
#include "search/policy.h"

bool mcts_fast_ok(const mcts_t *m, uint32_t root)
{
#if MCTS_AVAIL_REFERENCE
    /* That build checks the availability counted child by child, which this one skips. */
    (void)m;
    (void)root;
    return false;
#else
    const mcts_hooks_t *h = &m->hooks;
    bool no_hooks = !h->iteration_start && !h->descent_step && !h->choice_made &&
                    !h->prepare_select && !h->root_prior && !h->child_view && !h->tree_move &&
                    !h->playout && !h->backup;
    uint32_t count;
    (void)mcts_kids(m, root, &count);
    /* A kept tree (count > 0) was grown with the thread's own counts, which this descent
       does not read: the general one takes it. */
    return !m->fast_off && no_hooks && count == 0 &&
           (m->api->flags & (GAME_PERFECT_INFO | GAME_CHANCE)) == GAME_PERFECT_INFO &&
           m->opt.threads == 1 && !m->iterate && m->policy.id == MCTS_POLICY_UCB &&
           !m->policy.prior && !m->policy.fpu_relative && !m->unobserved && m->opt.pw <= 0.0 &&
           !m->amaf && !m->noise;
#endif
}

#if MCTS_AVAIL_REFERENCE
/* Never taken in that build (mcts_fast_ok), whose nodes have no room for the mean. */
void mcts_fast_iteration(mcts_t *m, mcts_thread_t *th, const void *root_state, uint32_t root,
                         int observer)
{
    (void)m;
    (void)th;
    (void)root_state;
    (void)root;
    (void)observer;
}

void mcts_fast_finish(mcts_t *m, mcts_thread_t *th, uint32_t root)
{
    (void)m;
    (void)th;
    (void)root;
}
#else
/*
 * Adds a child for an untried move of node (th->state is its position, n its legal
 * moves, count its children, psel its selects): the move drawn as pick_untried draws it.
 * Returns the child (its move into *mv), or 0 when the arena is full.
 */
static uint32_t fast_expand(mcts_t *m, mcts_thread_t *th, uint32_t node, int n, uint32_t count,
                            int32_t psel, move_t *mv)
{
    const game_api_t *api = m->api;
    int r = (int)pcg32_bounded(&th->rng, (uint32_t)(n - (int)count));
    api->gen_moves(th->state, th->moves);
    uint32_t *tried = th->child_of;
    for (int i = 0; i < n; i++)
        tried[i] = 0;
    uint32_t k;
    const mcts_edge_t *kids = mcts_kids(m, node, &k);
    for (uint32_t j = 0; j < k; j++)
        tried[m->nodes[kids[j].child].index] = 1;
    int i = 0;
    for (; i < n; i++)
        if (!tried[i] && r-- == 0)
            break;
    uint32_t c = mcts_tree_add_child(m, th, node, th->moves[i], api->to_move(th->state), 0.0f);
    if (c != 0) {
        m->nodes[c].birth = psel;
        m->nodes[c].index = (uint16_t)i;
        *mv = th->moves[i];
    }
    return c;
}

/* Children scored at once before the best of them is picked (fast_best). */
#define FAST_CHUNK 16

/*
 * The best child of node by plain UCB1 (worker.c: best_child_plain with a share of 1 and
 * each child's availability its parent's selects psel since it was added); *mv its move,
 * *best_score its score. 0 when node has no children. The scores of a chunk of children
 * are computed first, with no branch on them, so that their divisions and square roots
 * overlap; then the best is picked from them in the children's order with the same
 * comparison as best_child_plain.
 */
static inline uint32_t fast_best(const mcts_t *m, uint32_t node, int32_t psel, move_t *mv,
                                 double *best_score)
{
    const double c = m->policy.c, fpu = m->policy.fpu;
    const mcts_node_t *nodes = m->nodes;
    uint32_t count;
    const mcts_edge_t *kids = mcts_kids(m, node, &count);
    int best_i = -1, best_j = -1;
    double bs = *best_score;
    /* The children's lines first, so that their misses overlap (at 100,000 iterations the
       tree is larger than the L2 cache). */
    for (uint32_t j = 0; j < count; j++)
        __builtin_prefetch(&nodes[kids[j].child]);
    double score[FAST_CHUNK];
    for (uint32_t base = 0; base < count; base += FAST_CHUNK) {
        uint32_t end = count - base < FAST_CHUNK ? count : base + FAST_CHUNK;
        for (uint32_t j = base; j < end; j++) {
            const mcts_node_t *cn = &nodes[kids[j].child];
            int32_t visits = atomic_load_explicit(&cn->visits, memory_order_relaxed);
            double s = fpu;
            if (visits > 0) {
                /* best_child_plain's availability in whole numbers (it is one): at least
                   2, so its logarithm is the table's (mcts_log) below MCTS_LOG_TABLE. */
                int64_t avail = 1 + (int64_t)psel - cn->birth;
                if (avail < visits)
                    avail = visits;
                avail += 1;
                double lg = avail < MCTS_LOG_TABLE ? mcts_log_table[avail] : log((double)avail);
                s = cn->mean + c * sqrt(lg / (double)visits);
            }
            score[j - base] = s;
        }
        for (uint32_t j = base; j < end; j++) {
            double s = score[j - base];
            int i = nodes[kids[j].child].index;
            /* Selects, not branches: which child wins is what a branch cannot predict. */
            bool better = (s > bs) | ((s == bs) & (i < best_i));
            bs = better ? s : bs;
            best_i = better ? i : best_i;
            best_j = better ? (int)j : best_j;
        }
    }
    *best_score = bs;
    if (best_j < 0)
        return 0;
    *mv = kids[best_j].move;
    return kids[best_j].child;
}

/* llround(v * MCTS_VALUE_ONE) for v in [0, 1], without the call: x - trunc(x) is exact
   for 0 <= x < 2^52, so the half is compared exactly and rounds away from zero. */
static inline int64_t round_half(double v)
{
    double x = v * MCTS_VALUE_ONE;
    int64_t t = (int64_t)x;
    return x - (double)t >= 0.5 ? t + 1 : t;
}

/* Adds one to an atomic counter that only this thread writes. */
#define FAST_ADD(field, delta)                                                                     \
    atomic_store_explicit(&(field),                                                                \
                          atomic_load_explicit(&(field), memory_order_relaxed) + (delta),          \
                          memory_order_relaxed)

void mcts_fast_iteration(mcts_t *m, mcts_thread_t *th, const void *root_state, uint32_t root,
                         int observer)
{
    const game_api_t *api = m->api;
    void *s = th->state;
    api->copy(s, root_state);
    if (api->determinize && !m->opt.cheat)
        api->determinize(s, observer, &th->rng);
    mcts_node_t *nodes = m->nodes;
    uint32_t *path = th->path;
    int len = 1;
    path[0] = root;
    uint32_t node = root;
    while (len <= MCTS_MAX_DEPTH) {
        mcts_node_t *p = &nodes[node];
        int n = p->legal;
        if (n == MCTS_LEGAL_UNKNOWN) {
            n = api->gen_moves(s, th->moves);
            p->legal = (uint16_t)n;
        }
        if (n == 0)
            break;
        int32_t psel = atomic_load_explicit(&p->selects, memory_order_relaxed);
        uint32_t count;
        (void)mcts_kids(m, node, &count);
        move_t mv = 0;
        double best_score = -HUGE_VAL;
        uint32_t best = fast_best(m, node, psel, &mv, &best_score);
        /* An untried move's urgency is the fpu (plain UCB: no prior, not relative). */
        if ((int)count < n && !atomic_load_explicit(&m->full, memory_order_relaxed) &&
            (best == 0 || m->policy.fpu >= best_score)) {
            move_t emv;
            uint32_t child = fast_expand(m, th, node, n, count, psel, &emv);
            if (child != 0) {
                api->make(s, emv, th->undo);
                path[len++] = child;
                break;
            }
        }
        if (best == 0)
            break;
        FAST_ADD(p->selects, 1);
        api->make(s, mv, th->undo);
        path[len++] = best;
        node = best;
    }
    th->path_len = len;
    if (len - 1 > th->max_depth)
        th->max_depth = len - 1;

    mcts_simulate(m, th);

    for (int k = 1; k < len; k++) {
        mcts_node_t *x = &nodes[path[k]];
        double v = mcts_backup_value(m->opt.backup, th->values, x->player, observer);
        v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
        int64_t sum = atomic_load_explicit(&x->value_sum, memory_order_relaxed) + round_half(v);
        int32_t visits = atomic_load_explicit(&x->visits, memory_order_relaxed) + 1;
        atomic_store_explicit(&x->value_sum, sum, memory_order_relaxed);
        atomic_store_explicit(&x->visits, visits, memory_order_relaxed);
        /* The mean as best_child_plain computes it: value / eff. */
        x->mean = ((double)sum / MCTS_VALUE_ONE) / (double)visits;
    }
    FAST_ADD(nodes[root].visits, 1);
    for (int p = 0; p < m->players; p++)
        th->root_sum[p] += th->values[p];
    th->iterations++;
}

void mcts_fast_finish(mcts_t *m, mcts_thread_t *th, uint32_t root)
{
    /* Depth first, the path and each level's next child in th->path and th->kid_index
       (the tree is at most MCTS_MAX_DEPTH deep below the root). */
    const mcts_node_t *nodes = m->nodes;
    mcts_local(m, th, root)->selects =
        atomic_load_explicit(&nodes[root].selects, memory_order_relaxed);
    int depth = 0;
    th->path[0] = root;
    th->kid_index[0] = 0;
    while (depth >= 0) {
        uint32_t n = th->path[depth], count;
        const mcts_edge_t *kids = mcts_kids(m, n, &count);
        int j = th->kid_index[depth]++;
        if (j >= (int)count) {
            depth--;
            continue;
        }
        uint32_t c = kids[j].child;
        int32_t psel = atomic_load_explicit(&nodes[n].selects, memory_order_relaxed);
        *mcts_local(m, th, c) = (mcts_local_t){
            .gen = m->generation,
            .avail = psel - nodes[c].birth,
            .selects = atomic_load_explicit(&nodes[c].selects, memory_order_relaxed)};
        uint32_t grand;
        (void)mcts_kids(m, c, &grand);
        if (grand > 0 && depth < MCTS_MAX_DEPTH) {
            th->path[++depth] = c;
            th->kid_index[depth] = 0;
        }
    }
}
#endif
