/* Information-set MCTS: options, the iteration (select, expand, simulate, back up), threads. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "search/internal.h"

void mcts_options_default(mcts_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->iterations = 10000;
    opt->time_ms = 0;
    opt->threads = 1;
    opt->c = 0.7;
    opt->fpu = 10.0;
    /* No virtual loss by default: with results published every 64 iterations, two threads
       ran 6 % more iterations a second without it (search/PARALLEL.md). */
    opt->virtual_loss = 0;
    opt->sync = 0;
    /* Off by default: it chooses better per iteration but costs iterations, and at 20 ms
       it chose no better than without (search/PARALLEL.md). When on, only where a
       batch of another thread's passes is a large part of a node's visits. */
    opt->unobserved = false;
    opt->unobserved_below = 64;
    opt->parallel = MCTS_PARALLEL_TREE;
    opt->final = MCTS_FINAL_VISITS;
    opt->memory_bytes = (size_t)256 << 20;
    opt->reuse = true;
    opt->seed = 1;
    /* PUCT at 0.5 beat the progressive bias at 1 in both games (search/mcts.h). */
    opt->prior_weight = 0.5;
    opt->prior_form = MCTS_PRIOR_PUCT;
}

static bool options_valid(const mcts_options_t *opt)
{
    if (opt->iterations < 0 || opt->time_ms < 0)
        return false;
    if (opt->iterations == 0 && opt->time_ms == 0)
        return false;
    if (opt->threads < 1 || opt->threads > MCTS_MAX_THREADS)
        return false;
    if (!(opt->c >= 0.0) || opt->virtual_loss < 0 || opt->cutoff_depth < 0)
        return false;
    if (opt->sync < 0 || opt->sync > MCTS_SYNC_MAX)
        return false;
    if (opt->unobserved_below < 1)
        return false;
    if (opt->parallel != MCTS_PARALLEL_TREE && opt->parallel != MCTS_PARALLEL_ROOT)
        return false;
    if (opt->prior_form != MCTS_PRIOR_DECAY && opt->prior_form != MCTS_PRIOR_PUCT)
        return false;
    return opt->final == MCTS_FINAL_VISITS || opt->final == MCTS_FINAL_MEAN;
}

static void thread_free(mcts_thread_t *th)
{
    if (!th)
        return;
    free(th->state);
    free(th->undo);
    free(th->local);
    free(th->touched);
    free(th);
}

/*
 * Memory of its own cache lines (size rounded up to whole lines): what a thread writes all
 * the time (its scratch, state, undo record, touched list) must not share a line with what
 * another thread writes, as small mallocs from a used heap can.
 */
static void *lines_alloc(size_t size)
{
    size = (size ? size + MCTS_CACHE_LINE - 1 : MCTS_CACHE_LINE) / MCTS_CACHE_LINE *
           MCTS_CACHE_LINE;
    return aligned_alloc(MCTS_CACHE_LINE, size);
}

static mcts_thread_t *thread_new(const game_api_t *api, int index, size_t nodes, int sync)
{
    mcts_thread_t *th = lines_alloc(sizeof *th);
    if (!th)
        return NULL;
    memset(th, 0, sizeof *th);
    th->index = index;
    th->state = lines_alloc(api->state_size);
    th->undo = lines_alloc(api->undo_size);
    /* Zero pages cost nothing until the tree grows into them. */
    th->local = calloc(nodes, sizeof *th->local);
    /* An iteration passes at most MCTS_MAX_DEPTH + 1 nodes. */
    th->touched = lines_alloc((size_t)sync * (MCTS_MAX_DEPTH + 1) * sizeof *th->touched);
    if (!th->state || !th->undo || !th->local || !th->touched) {
        thread_free(th);
        return NULL;
    }
    return th;
}

mcts_t *mcts_new(const game_api_t *api, const mcts_options_t *opt)
{
    if (!api || !opt || !options_valid(opt))
        return NULL;
    mcts_t *m = lines_alloc(sizeof *m);
    if (!m)
        return NULL;
    memset(m, 0, sizeof *m);
    m->api = api;
    m->opt = *opt;
    m->sync = opt->sync > 0 ? opt->sync
              : opt->parallel == MCTS_PARALLEL_TREE && opt->threads > 1 ? MCTS_SYNC_DEFAULT
                                                                         : 1;
    /* With one thread nothing is unobserved: the counters would only cost time. */
    m->unobserved = opt->unobserved && opt->parallel == MCTS_PARALLEL_TREE && opt->threads > 1;
    m->unobserved_owned = opt->threads <= MCTS_UNOBSERVED_SLOTS;

    /* At most the cap, but never fewer nodes than a root per tree and a few children. */
    size_t cap = opt->memory_bytes / (sizeof(mcts_node_t) +
                                      MCTS_EDGES_PER_NODE * sizeof(mcts_edge_t) +
                                      (size_t)opt->threads * sizeof(mcts_local_t));
    size_t least = 2 * (size_t)opt->threads + 8;
    if (cap < least)
        cap = least;
    if (cap > ((size_t)1 << 31))
        cap = (size_t)1 << 31;
    m->capacity = (uint32_t)cap;
    size_t edge_cap = cap * MCTS_EDGES_PER_NODE;
    if (edge_cap > UINT32_MAX)
        edge_cap = UINT32_MAX;
    m->edge_capacity = (uint32_t)edge_cap;
    /* Untouched pages of a large malloc cost nothing until the tree grows into them. */
    m->nodes = lines_alloc(cap * sizeof(mcts_node_t));
    m->edges = lines_alloc(edge_cap * sizeof(mcts_edge_t));
    m->threads = calloc((size_t)opt->threads, sizeof *m->threads);
    m->root_stats = malloc(GAME_MAX_MOVES * sizeof *m->root_stats);
    if (!m->nodes || !m->edges || !m->threads || !m->root_stats) {
        mcts_free(m);
        return NULL;
    }
    for (int t = 0; t < opt->threads; t++) {
        m->threads[t] = thread_new(api, t, cap, m->sync);
        if (!m->threads[t]) {
            mcts_free(m);
            return NULL;
        }
    }
    mcts_tree_clear(m);
    return m;
}

void mcts_free(mcts_t *m)
{
    if (!m)
        return;
    if (m->threads)
        for (int t = 0; t < m->opt.threads; t++)
            thread_free(m->threads[t]);
    free(m->threads);
    free(m->nodes);
    free(m->edges);
    free(m->root_stats);
    free(m->pending);
    free(m);
}

void mcts_reset(mcts_t *m)
{
    mcts_tree_clear(m);
    m->pending_count = 0;
}

void mcts_advance(mcts_t *m, move_t mv)
{
    if (m->pending_count == m->pending_cap) {
        int cap = m->pending_cap ? 2 * m->pending_cap : 64;
        move_t *p = realloc(m->pending, (size_t)cap * sizeof *p);
        if (!p) {
            /* Without room to remember the move, the tree cannot be matched: drop it. */
            mcts_reset(m);
            return;
        }
        m->pending = p;
        m->pending_cap = cap;
    }
    m->pending[m->pending_count++] = mv;
}

/* ---- One iteration ---- */

static inline uint32_t move_slot(move_t mv)
{
    return (uint32_t)(mv * 0x9E3779B1u) >> (32 - 13);
}

/* Indexes th->moves[0..n) in the per-thread hash and clears child_of. */
static void moves_index(mcts_thread_t *th, int n)
{
    if (++th->stamp == 0) {
        memset(th->slot_stamp, 0, sizeof th->slot_stamp);
        th->stamp = 1;
    }
    for (int i = 0; i < n; i++) {
        uint32_t h = move_slot(th->moves[i]);
        while (th->slot_stamp[h] == th->stamp)
            h = (h + 1) & (MCTS_HASH_SIZE - 1);
        th->slot_stamp[h] = th->stamp;
        th->slot_move[h] = th->moves[i];
        th->slot_index[h] = (uint16_t)i;
        th->child_of[i] = 0;
    }
}

/* Index of mv in th->moves, or -1 if it is not legal here. */
static int moves_lookup(const mcts_thread_t *th, move_t mv)
{
    uint32_t h = move_slot(mv);
    while (th->slot_stamp[h] == th->stamp) {
        if (th->slot_move[h] == mv)
            return th->slot_index[h];
        h = (h + 1) & (MCTS_HASH_SIZE - 1);
    }
    return -1;
}

/* Progressive bias of a move with prior p, visited `visits` times out of `avail`. */
static inline double prior_bias(const mcts_t *m, double p, int32_t visits, double avail)
{
    if (!m->opt.prior)
        return 0.0;
    double b = m->opt.prior_weight * p / (visits + 1.0);
    return m->opt.prior_form == MCTS_PRIOR_PUCT ? b * sqrt(avail) : b;
}

/* Visits and result sum of node i as thread th sees them: shared plus its own pending. */
static inline int32_t seen_visits(const mcts_t *m, const mcts_local_t *e, uint32_t i)
{
    return atomic_load_explicit(&m->nodes[i].visits, memory_order_relaxed) + e->pend_visits;
}

static inline int64_t seen_sum(const mcts_t *m, const mcts_local_t *e, uint32_t i)
{
    return atomic_load_explicit(&m->nodes[i].value_sum, memory_order_relaxed) + e->pend_sum;
}

/*
 * UCB score of child c (arena index ci) whose move is legal now. share is this thread's
 * share of the parent's selects: its own availability count over share estimates the
 * count of all threads (exactly so with one thread); the estimate is never below the
 * child's visits, and it counts the current visit. Virtual losses are the other threads'
 * (this thread's own results are all counted, published or not). parent_unseen is the
 * other threads' unobserved passes of the parent (0 unless m->unobserved).
 */
static double child_score(const mcts_t *m, mcts_thread_t *th, uint32_t ci, double share,
                          int vl, int32_t parent_unseen)
{
    const mcts_node_t *c = &m->nodes[ci];
    const mcts_local_t *e = mcts_local(m, th, ci);
    int32_t visits = seen_visits(m, e, ci);
    int64_t sum = seen_sum(m, e, ci);
    double avail = 1.0 + (share > 0.0 ? e->avail / share : 0.0);
    if (avail < visits)
        avail = visits;
    avail += 1.0;
    double eff = (double)visits;
    if (vl)
        eff += (double)vl * (atomic_load_explicit(&c->vloss, memory_order_relaxed) -
                             ((e->held & MCTS_HELD_VLOSS) ? 1 : 0));
    double bias = prior_bias(m, c->prior, visits, avail);
    if (eff <= 0.0)
        return m->opt.fpu + bias;
    double mean = (double)sum / MCTS_VALUE_ONE / eff;
    double explore_visits = eff, explore_avail = avail;
    /* Above unobserved_below nothing new is counted (what is left goes at the publication). */
    if (m->unobserved && visits < m->opt.unobserved_below) {
        int32_t others = mcts_unobserved(c) - e->pend_unobs;
        explore_visits += others > 0 ? others : 0;
        explore_avail += parent_unseen;
    }
    double lg = explore_avail > 1.0 ? log(explore_avail) : 0.0;
    return mean + m->opt.c * sqrt(lg / explore_visits) + bias;
}

/*
 * The untried legal move to expand: best prior (first on ties), else uniformly random.
 * *prior gets its prior, *next the best prior of the moves left untried after it.
 */
static int pick_untried(const mcts_t *m, mcts_thread_t *th, int n, int untried, float *prior,
                        float *next)
{
    *prior = 0.0f;
    *next = 0.0f;
    if (m->opt.prior) {
        int best = -1;
        double best_p = 0.0, second_p = 0.0;
        m->opt.prior(m->api, th->state, th->moves, n, th->priors, m->opt.prior_ctx);
        for (int i = 0; i < n; i++) {
            if (th->child_of[i])
                continue;
            double p = th->priors[i];
            if (best < 0 || p > best_p) {
                if (best >= 0)
                    second_p = best_p;
                best = i;
                best_p = p;
            } else if (p > second_p) {
                second_p = p;
            }
        }
        *prior = (float)best_p;
        *next = (float)second_p;
        return best;
    }
    int r = (int)pcg32_bounded(&th->rng, (uint32_t)untried);
    for (int i = 0; i < n; i++)
        if (!th->child_of[i] && r-- == 0)
            return i;
    return -1;
}

/*
 * Adds the child for th->moves[i] under node. Returns the child, 0 if the node is being
 * expanded by another thread, another thread added that child since the caller walked the
 * children (visiting it now would count a visit without its availability), or the arena
 * is full.
 */
static uint32_t node_expand(mcts_t *m, mcts_thread_t *th, uint32_t node, move_t mv,
                            int player, float prior)
{
    mcts_node_t *n = &m->nodes[node];
    if (atomic_exchange_explicit(&n->busy, 1, memory_order_acquire) != 0)
        return 0;
    uint32_t c = 0;
    if (mcts_tree_find_child(m, node, mv) == 0)
        c = mcts_tree_add_child(m, th, node, mv, player, prior);
    atomic_store_explicit(&n->busy, 0, memory_order_release);
    return c;
}

/*
 * Counts a visit of node that chose an existing child: one more availability for every
 * child whose move is legal now, in this thread's own counts (see mcts_node_t); own is
 * this thread's entry for node.
 * Not done on a visit that expands a new child: counting there too (as ISMCTS defines
 * availability) measured worse, 2 players at 3000 iterations against the heuristic bot on
 * the same 100 deals: Tower Up 0.925 against 0.955, Uptown 0.815 against 0.840.
 */
static void count_available(mcts_t *m, mcts_thread_t *th, mcts_local_t *own, int n)
{
    own->selects++;
    own->pend_selects++;
    for (int i = 0; i < n; i++) {
        uint32_t c = th->child_of[i];
        if (!c)
            continue;
        mcts_local(m, th, c)->avail++;
#if MCTS_AVAIL_REFERENCE
        atomic_fetch_add_explicit(&m->nodes[c].avail_ref, 1, memory_order_relaxed);
#endif
    }
}

/*
 * At node, whose legal moves are th->moves[0..n): the child to descend into, or 0 to roll
 * out from here; *mv gets its move. *expanded is set when the child was just added (the
 * descent then stops).
 */
static uint32_t node_choose(mcts_t *m, mcts_thread_t *th, uint32_t node, int n, int player,
                            int vl, move_t *mv, bool *expanded)
{
    *expanded = false;
    moves_index(th, n);
    int matched = 0;
    const mcts_node_t *parent = &m->nodes[node];
    uint32_t count;
    const mcts_edge_t *kids = mcts_kids(m, node, &count);
    for (uint32_t j = 0; j < count; j++) {
        int i = moves_lookup(th, kids[j].move);
        if (i >= 0) {
            th->child_of[i] = kids[j].child;
            matched++;
        }
    }
    uint32_t best = 0;
    int best_i = -1;
    double best_score = -HUGE_VAL;
    int64_t tried_sum = 0;
    int64_t tried_visits = 0;
    mcts_local_t *own = mcts_local(m, th, node);
    double share = own->selects > 0
                       ? (double)own->selects /
                             (atomic_load_explicit(&parent->selects, memory_order_relaxed) +
                              own->pend_selects)
                       : 0.0;
    int32_t parent_unseen = 0;
    if (m->unobserved && seen_visits(m, own, node) < m->opt.unobserved_below) {
        int32_t others = mcts_unobserved(parent) - own->pend_unobs;
        parent_unseen = others > 0 ? others : 0;
    }
    for (int i = 0; i < n; i++) {
        uint32_t ci = th->child_of[i];
        if (!ci)
            continue;
        double s = child_score(m, th, ci, share, vl, parent_unseen);
        if (m->opt.fpu_relative) {
            const mcts_local_t *e = &th->local[ci]; /* current: child_score saw to it */
            tried_sum += seen_sum(m, e, ci);
            tried_visits += seen_visits(m, e, ci);
        }
        if (s > best_score) {
            best_score = s;
            best = ci;
            best_i = i;
        }
    }
    int untried = n - matched;
    /* An untried move's urgency: the fpu (relative: to the mover's mean so far), plus the
       bias of the best prior left untried at the node's last expansion. */
    double urgency = m->opt.fpu;
    if (m->opt.fpu_relative)
        urgency += tried_visits > 0 ? (double)tried_sum / MCTS_VALUE_ONE / (double)tried_visits
                                    : 0.5;
    if (best != 0 && m->opt.prior) {
        urgency += prior_bias(m, atomic_load_explicit(&parent->next_prior, memory_order_relaxed),
                              0, seen_visits(m, own, node) + 1);
    }
    if (untried > 0 && !atomic_load_explicit(&m->full, memory_order_relaxed) &&
        (best == 0 || urgency >= best_score)) {
        float prior, next;
        int i = pick_untried(m, th, n, untried, &prior, &next);
        uint32_t child = node_expand(m, th, node, th->moves[i], player, prior);
        if (child != 0) {
            atomic_store_explicit(&m->nodes[node].next_prior, next, memory_order_relaxed);
            *expanded = true;
            *mv = th->moves[i];
            return child;
        }
    }
    if (best == 0)
        return 0;
    count_available(m, th, own, n);
    *mv = th->moves[best_i];
    return best;
}

/* Finishes the iteration's state into th->values. */
static void simulate(mcts_t *m, mcts_thread_t *th)
{
    const game_api_t *api = m->api;
    void *s = th->state;
    if (!api->is_terminal(s)) {
        if (m->opt.evaluate) {
            for (int d = 0; d < m->opt.cutoff_depth; d++) {
                int n = api->gen_moves(s, th->moves);
                if (n == 0)
                    break;
                api->make(s, th->moves[pcg32_bounded(&th->rng, (uint32_t)n)], th->undo);
            }
            if (!api->is_terminal(s)) {
                m->opt.evaluate(api, s, th->values, m->opt.evaluate_ctx);
                return;
            }
        } else if (m->opt.rollout) {
            m->opt.rollout(api, s, &th->rng, m->opt.rollout_ctx);
        } else if (api->playout) {
            api->playout(s, &th->rng);
        } else {
            int n;
            while ((n = api->gen_moves(s, th->moves)) > 0)
                api->make(s, th->moves[pcg32_bounded(&th->rng, (uint32_t)n)], th->undo);
        }
    }
    api->result(s, th->values);
}

/* Adds delta to th's unobserved passes of node i. */
static inline void unobserved_add(mcts_t *m, const mcts_thread_t *th, uint32_t i, int delta)
{
    _Atomic uint16_t *slot = &m->nodes[i].unobserved[th->index % MCTS_UNOBSERVED_SLOTS];
    if (m->unobserved_owned)
        atomic_store_explicit(slot,
                              (uint16_t)(atomic_load_explicit(slot, memory_order_relaxed) + delta),
                              memory_order_relaxed);
    else
        atomic_fetch_add_explicit(slot, (uint16_t)delta, memory_order_relaxed);
}

/*
 * Thread th passes node i (and takes a virtual loss there when vl): the node joins th's
 * touched list once per publication, so the shared counters are written once per batch of
 * iterations, not on every pass. With unobserved passes counted, a pass of a node with
 * fewer than unobserved_below published visits is also written to the node's slot at once.
 */
static inline void node_hold(mcts_t *m, mcts_thread_t *th, uint32_t i, bool vl)
{
    mcts_local_t *e = mcts_local(m, th, i);
    if (m->unobserved &&
        atomic_load_explicit(&m->nodes[i].visits, memory_order_relaxed) < m->opt.unobserved_below) {
        unobserved_add(m, th, i, 1);
        e->pend_unobs++;
        th->unobserved_passes++;
    }
    if (!e->held) {
        e->held = MCTS_HELD;
        th->touched[th->touched_count++] = i;
        if (vl) {
            e->held |= MCTS_HELD_VLOSS;
            atomic_fetch_add_explicit(&m->nodes[i].vloss, 1, memory_order_relaxed);
        }
    }
}

/*
 * Adds th's pending counts to the shared nodes and drops its virtual losses: after this,
 * every other thread sees all of th's results. Each touched node is written once, however
 * many of the batch's iterations passed it - near the root, where every iteration passes
 * and the other threads read the same lines, that is what keeps the line from moving
 * between the cores on every iteration.
 */
static void publish(mcts_t *m, mcts_thread_t *th)
{
    for (int k = 0; k < th->touched_count; k++) {
        uint32_t i = th->touched[k];
        mcts_node_t *n = &m->nodes[i];
        mcts_local_t *e = &th->local[i];
        if (e->pend_sum)
            atomic_fetch_add_explicit(&n->value_sum, e->pend_sum, memory_order_relaxed);
        if (e->pend_visits)
            atomic_fetch_add_explicit(&n->visits, e->pend_visits, memory_order_relaxed);
        if (e->pend_unobs)
            unobserved_add(m, th, i, -(int)e->pend_unobs);
        if (e->pend_selects)
            atomic_fetch_add_explicit(&n->selects, e->pend_selects, memory_order_relaxed);
        if (e->held & MCTS_HELD_VLOSS)
            atomic_fetch_sub_explicit(&n->vloss, 1, memory_order_relaxed);
        e->pend_sum = 0;
        e->pend_visits = 0;
        e->pend_selects = 0;
        e->pend_unobs = 0;
        e->held = 0;
    }
    th->touched_count = 0;
    th->batch = 0;
}

static void run_iteration(mcts_t *m, mcts_thread_t *th, const void *root_state, uint32_t root,
                          int observer, int vl)
{
    const game_api_t *api = m->api;
    void *s = th->state;
    api->copy(s, root_state);
    /* The only view of the real state: resampled for the searcher before anything else
       (a game without a determinize has nothing hidden). */
    if (api->determinize)
        api->determinize(s, observer, &th->rng);
    th->path[0] = root;
    th->path_player[0] = -1;
    th->path_len = 1;
    uint32_t node = root;
    node_hold(m, th, root, false);
    while (th->path_len <= MCTS_MAX_DEPTH) {
        int n = api->gen_moves(s, th->moves);
        if (n == 0)
            break;
        int player = api->to_move(s);
        bool expanded;
        move_t mv;
        uint32_t child = node_choose(m, th, node, n, player, vl, &mv, &expanded);
        if (child == 0)
            break;
        node_hold(m, th, child, vl != 0);
        api->make(s, mv, th->undo);
        th->path[th->path_len] = child;
        th->path_player[th->path_len] = (int8_t)player;
        th->path_len++;
        node = child;
        if (expanded)
            break;
    }
    if (th->path_len - 1 > th->max_depth)
        th->max_depth = th->path_len - 1;

    simulate(m, th);

    /* Back up into th's pending counts (all path nodes are held, so current). */
    for (int i = 1; i < th->path_len; i++) {
        mcts_local_t *e = &th->local[th->path[i]];
        double v = th->values[th->path_player[i]];
        v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
        e->pend_sum += (int64_t)llround(v * MCTS_VALUE_ONE);
        e->pend_visits++;
    }
    th->local[root].pend_visits++;
    th->iterations++;
    if (++th->batch >= m->sync)
        publish(m, th);
}

/*
 * ThreadSanitizer cannot see libgomp's own synchronisation. The handshakes on `started`
 * and `finished` make everything this module shares visible to it, except one thing: the
 * block of shared-variable pointers that the compiler writes on the caller's stack just
 * before the region and that the region's outlined function reads before any of our
 * code runs. Races whose top frame is that outlined function are therefore suppressed;
 * worker() is kept out of line so that every other access has its own frame on top. The
 * OpenMP runtimes' own calls (uninstrumented, e.g. libomp's mutexes under clang) are too.
 */
#if defined(__SANITIZE_THREAD__)
#define MCTS_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MCTS_TSAN 1
#endif
#endif
#if defined(MCTS_TSAN)
const char *__tsan_default_suppressions(void);
const char *__tsan_default_suppressions(void)
{
    return "race_top:mcts_search._omp_fn\n"
           "race_top:mcts_bench_independent._omp_fn\n"
           "called_from_lib:libgomp.so\n"
           "called_from_lib:libomp.so\n";
}
#endif

#if defined(__GNUC__)
#define MCTS_NOINLINE __attribute__((noinline))
#else
#define MCTS_NOINLINE
#endif

/* One thread's share of the search: iterations until the budget is spent. */
static MCTS_NOINLINE void worker(mcts_t *m, mcts_thread_t *th, const void *root_state, int observer)
{
    bool root_mode = m->opt.parallel == MCTS_PARALLEL_ROOT;
    uint32_t root = m->roots[root_mode ? th->index : 0];
    int vl = (!root_mode && m->opt.threads > 1) ? m->opt.virtual_loss : 0;
    /* Iterations are handed out a few at a time, not one by one: every claim is a write
       to a line that all threads share. The total stays exact. */
    long budget = m->opt.iterations;
    long chunk = budget / (4L * m->opt.threads);
    chunk = chunk < 1 ? 1 : chunk > MCTS_CLAIM_CHUNK ? MCTS_CLAIM_CHUNK : chunk;
    long left = 0; /* iterations claimed and not yet run */
    while (!atomic_load_explicit(&m->stop, memory_order_relaxed)) {
        if (budget > 0 && left == 0) {
            long first = atomic_fetch_add_explicit(&m->claimed, chunk, memory_order_relaxed);
            if (first >= budget)
                break; /* the others run out on their own claims */
            left = first + chunk <= budget ? chunk : budget - first;
        }
        if (m->deadline > 0.0 && mcts_clock_now() >= m->deadline) {
            atomic_store_explicit(&m->stop, true, memory_order_relaxed);
            break;
        }
        run_iteration(m, th, root_state, root, observer, vl);
        left--;
    }
    publish(m, th);
}

/* ---- The search ---- */

static int stat_compare(const void *a, const void *b)
{
    const mcts_move_stat_t *x = a, *y = b;
    if (x->visits != y->visits)
        return x->visits > y->visits ? -1 : 1;
    return x->move < y->move ? -1 : x->move > y->move ? 1 : 0;
}

/* Root statistics of the n legal moves (in m->root_stats), summed over the trees. */
static void collect_root_stats(mcts_t *m, int n)
{
    for (int i = 0; i < n; i++) {
        mcts_move_stat_t *st = &m->root_stats[i];
        long visits = 0;
        int64_t sum = 0;
        for (int r = 0; r < m->root_count; r++) {
            if (m->roots[r] == 0)
                continue;
            uint32_t c = mcts_tree_find_child(m, m->roots[r], st->move);
            if (c == 0)
                continue;
            visits += atomic_load_explicit(&m->nodes[c].visits, memory_order_relaxed);
            sum += atomic_load_explicit(&m->nodes[c].value_sum, memory_order_relaxed);
        }
        st->visits = visits;
        st->mean = visits > 0 ? (double)sum / MCTS_VALUE_ONE / (double)visits : 0.0;
    }
}

/* The move to play from the root statistics (in legal-move order, so ties are stable). */
static move_t choose_final(const mcts_t *m, int n)
{
    const mcts_move_stat_t *st = m->root_stats;
    long most = 0;
    for (int i = 0; i < n; i++)
        if (st[i].visits > most)
            most = st[i].visits;
    if (most == 0)
        return st[0].move;
    /* Best mean among moves with at least a tenth of the most visits (or most visits). */
    long floor = m->opt.final == MCTS_FINAL_MEAN ? (most + 9) / 10 : most;
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (st[i].visits < floor)
            continue;
        if (best < 0 || st[i].mean > st[best].mean)
            best = i;
    }
    return st[best].move;
}

/*
 * Keeps the tree if it matches the state, whose n legal moves are in th0->moves, else
 * empties it. Returns true if it was kept. A kept root whose children include a move that
 * is not legal now (the caller did not report every move played) is dropped.
 */
static bool tree_prepare(mcts_t *m, int observer, int players, int n)
{
    mcts_thread_t *th0 = m->threads[0];
    uint64_t key = (uint64_t)n;
    for (int i = 0; i < n; i++)
        key += rng_mix64(th0->moves[i]);
    bool kept = false;
    if (m->opt.reuse && m->opt.parallel == MCTS_PARALLEL_TREE && m->root_count == 1 &&
        m->observer == observer && m->players == players &&
        (m->pending_count > 0 || key == m->root_moves_key))
        kept = mcts_tree_descend(m, m->pending, m->pending_count);
    m->root_moves_key = key;
    if (kept) {
        moves_index(th0, n);
        uint32_t count;
        const mcts_edge_t *kids = mcts_kids(m, m->roots[0], &count);
        for (uint32_t j = 0; j < count && kept; j++)
            kept = moves_lookup(th0, kids[j].move) >= 0;
    }
    if (!kept)
        mcts_tree_clear(m);
    m->pending_count = 0;
    return kept;
}

move_t mcts_search(mcts_t *m, const void *state, mcts_stats_t *stats)
{
    const game_api_t *api = m->api;
    double start = mcts_clock_now();
    mcts_thread_t *th0 = m->threads[0];
    int n = api->gen_moves(state, th0->moves);
    for (int i = 0; i < n; i++) {
        m->root_stats[i].move = th0->moves[i];
        m->root_stats[i].visits = 0;
        m->root_stats[i].mean = 0.0;
    }
    mcts_stats_t st;
    memset(&st, 0, sizeof st);
    st.root_moves = m->root_stats;
    st.root_move_count = n;
    move_t best = MCTS_NO_MOVE;

    if (n > 0) {
        int observer = api->to_move(state);
        int players = api->player_count(state);
        st.reused = tree_prepare(m, observer, players, n);
        m->observer = observer;
        m->players = players;
        m->root_count = m->opt.parallel == MCTS_PARALLEL_ROOT ? m->opt.threads : 1;
        for (int r = 0; r < m->root_count; r++)
            if (m->roots[r] == 0)
                m->roots[r] = mcts_tree_alloc(m, NULL, -1, 0.0f);
        if (st.reused)
            st.reused_visits = atomic_load_explicit(&m->nodes[m->roots[0]].visits,
                                                    memory_order_relaxed);
        if (n > 1) {
            atomic_store_explicit(&m->claimed, 0, memory_order_relaxed);
            atomic_store_explicit(&m->stop, false, memory_order_relaxed);
            atomic_store_explicit(&m->full, false, memory_order_relaxed);
            m->deadline = m->opt.time_ms > 0 ? start + (double)m->opt.time_ms / 1000.0 : 0.0;
            uint64_t base = rng_mix64(m->opt.seed ^ rng_mix64(m->searches));
            m->searches++;
            for (int t = 0; t < m->opt.threads; t++) {
                mcts_thread_t *th = m->threads[t];
                pcg32_seed(&th->rng, base, (uint64_t)t);
                th->iterations = 0;
                th->max_depth = 0;
                th->unobserved_passes = 0;
            }
            if (m->opt.threads == 1) {
                worker(m, th0, state, observer);
            } else {
                atomic_store_explicit(&m->finished, 0, memory_order_relaxed);
                atomic_fetch_add_explicit(&m->started, 1, memory_order_release);
#pragma omp parallel num_threads(m->opt.threads)
                {
                    (void)atomic_load_explicit(&m->started, memory_order_acquire);
                    worker(m, m->threads[omp_get_thread_num()], state, observer);
                    atomic_fetch_add_explicit(&m->finished, 1, memory_order_release);
                }
                (void)atomic_load_explicit(&m->finished, memory_order_acquire);
            }
            for (int t = 0; t < m->opt.threads; t++) {
                st.iterations += m->threads[t]->iterations;
                st.unobserved_passes += m->threads[t]->unobserved_passes;
                if (m->threads[t]->max_depth > st.max_depth)
                    st.max_depth = m->threads[t]->max_depth;
            }
            st.memory_capped = atomic_load_explicit(&m->full, memory_order_relaxed);
        }
        collect_root_stats(m, n);
        best = n == 1 ? m->root_stats[0].move : choose_final(m, n);
        qsort(m->root_stats, (size_t)n, sizeof *m->root_stats, stat_compare);
    }
    st.nodes = (long)mcts_tree_nodes(m);
    st.seconds = mcts_clock_now() - start;
    if (stats)
        *stats = st;
    return best;
}

long mcts_bench_iterations(const game_api_t *api, const void *state, int threads,
                           mcts_parallel_t mode, long iterations, double *seconds)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.threads = threads;
    opt.parallel = mode;
    opt.iterations = iterations;
    opt.reuse = false;
    *seconds = 0.0;
    mcts_t *m = mcts_new(api, &opt);
    if (!m)
        return -1;
    mcts_stats_t st;
    move_t mv = mcts_search(m, state, &st);
    mcts_free(m);
    if (mv == MCTS_NO_MOVE)
        return -1;
    *seconds = st.seconds;
    return st.iterations;
}

long mcts_bench_independent(const game_api_t *api, const void *state, int threads,
                            long iterations, double *seconds)
{
    *seconds = 0.0;
    if (threads < 1 || threads > MCTS_MAX_THREADS)
        return -1;
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = iterations;
    opt.reuse = false;
    mcts_t *ms[MCTS_MAX_THREADS] = {0};
    long done[MCTS_MAX_THREADS] = {0};
    bool ok = true;
    for (int t = 0; t < threads && ok; t++) {
        opt.seed = 1 + (uint64_t)t;
        ms[t] = mcts_new(api, &opt);
        ok = ms[t] != NULL;
    }
    long total = -1;
    if (ok) {
        /* The same handshakes as mcts_search's, for ThreadSanitizer. */
        _Atomic int started = 0, finished = 0;
        atomic_store_explicit(&started, 1, memory_order_release);
        double start = mcts_clock_now();
#pragma omp parallel num_threads(threads)
        {
            (void)atomic_load_explicit(&started, memory_order_acquire);
            int t = omp_get_thread_num();
            mcts_stats_t st;
            done[t] = mcts_search(ms[t], state, &st) == MCTS_NO_MOVE ? -1 : st.iterations;
            atomic_fetch_add_explicit(&finished, 1, memory_order_release);
        }
        (void)atomic_load_explicit(&finished, memory_order_acquire);
        *seconds = mcts_clock_now() - start;
        total = 0;
        for (int t = 0; t < threads; t++)
            total = done[t] < 0 || total < 0 ? -1 : total + done[t];
    }
    for (int t = 0; t < threads; t++)
        mcts_free(ms[t]);
    return total;
}
