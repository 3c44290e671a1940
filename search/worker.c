/*
 * The search's workers: one iteration (select, expand, simulate, back up) and a thread's
 * loop of iterations, with the per-thread counts and their publication (search/internal.h).
 * Children are scored by the selection policy (search/policy.h); the search's variants take
 * part only through the extension points of m->hooks (search/hooks.h).
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "search/backup.h"
#include "search/internal.h"
#include "search/policy.h"

/* Inlined wherever called (the descent's scoring, specialised by its constant arguments). */
#if defined(__GNUC__)
#define MCTS_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define MCTS_ALWAYS_INLINE inline
#endif

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
 * Score of child ci (whose move is legal now) by the policy, from what thread th sees of
 * it. share is th's share of the parent's selects: its own availability count over share
 * estimates the count of all threads (exactly so with one thread); the estimate is never
 * below the child's visits, and it counts the current visit. Virtual losses are the other
 * threads' (th's own results are all counted, published or not), and only when vl. The
 * unobserved passes (only with m->unobserved, and below unobserved_below visits: above,
 * nothing new is counted) are the other threads'; parent_unseen is the parent's. blend:
 * the root_prior hook's blend of the priors at this node, NULL where it has none.
 */
static MCTS_ALWAYS_INLINE double child_score(const mcts_t *m, mcts_thread_t *th, uint32_t ci,
                                             double share, int vl, int32_t parent_unseen, int i,
                                             const mcts_prior_blend_t *blend)
{
    const mcts_node_t *c = &m->nodes[ci];
    const mcts_local_t *e = mcts_local(m, th, ci);
    mcts_child_view_t v;
    v.visits = seen_visits(m, e, ci);
    v.value = (double)seen_sum(m, e, ci) / MCTS_VALUE_ONE;
    double avail = 1.0 + (share > 0.0 ? e->avail / share : 0.0);
    if (avail < v.visits)
        avail = v.visits;
    v.avail = avail + 1.0;
    v.vloss = vl ? atomic_load_explicit(&c->vloss, memory_order_relaxed) -
                       ((e->held & MCTS_HELD_VLOSS) ? 1 : 0)
                 : 0;
    v.unseen = 0;
    v.parent_unseen = 0;
    if (m->unobserved && v.visits < m->opt.unobserved_below) {
        int32_t others = mcts_unobserved(c) - e->pend_unobs;
        v.unseen = others > 0 ? others : 0;
        v.parent_unseen = parent_unseen;
    }
    v.prior = blend ? (float)mcts_prior_blended(blend, c->prior, i) : c->prior;
    v.amaf_visits = 0;
    v.amaf_value = 0.0;
    if (m->hooks.child_view)
        m->hooks.child_view(m, th, ci, i, &v);
    return mcts_policy_score(&m->policy, &v);
}

/*
 * Whether the children are scored by plain UCB1 (best_child_plain): the UCB policy with no
 * prior, no relative first-play urgency, no AMAF statistics, and nothing of other threads
 * to count (no virtual loss, no unobserved passes). The most common search, Connect Four's
 * plain UCT among them, then takes a loop that reads nothing it does not use.
 */
static inline bool plain_ucb(const mcts_t *m, int vl)
{
    return m->policy.id == MCTS_POLICY_UCB && !m->policy.prior && !m->policy.fpu_relative &&
           !m->hooks.child_view && !m->unobserved && vl == 0;
}

/*
 * The best child by plain UCB1 (plain_ucb): the same arithmetic, in the same order, as
 * child_score and mcts_ucb_score give in that case, so the same child wins (the bench
 * signature checks it), with the searcher's constants read once and no division by a
 * share of 1. *best_i and *best_score get its move's index and its score.
 */
static uint32_t best_child_plain(const mcts_t *m, mcts_thread_t *th, int matched, double share,
                                 int *best_i, double *best_score)
{
    const double c = m->policy.c, fpu = m->policy.fpu;
    const mcts_node_t *nodes = m->nodes;
    uint32_t best = 0;
    for (int k = 0; k < matched; k++) {
        int i = th->kid_index[k];
        uint32_t ci = th->child_of[i];
        const mcts_local_t *e = mcts_local(m, th, ci);
        int32_t visits =
            atomic_load_explicit(&nodes[ci].visits, memory_order_relaxed) + e->pend_visits;
        double s = fpu;
        if (visits > 0) {
            double value =
                (double)(atomic_load_explicit(&nodes[ci].value_sum, memory_order_relaxed) +
                         e->pend_sum) /
                MCTS_VALUE_ONE;
            double avail = 1.0 + (share == 1.0  ? (double)e->avail
                                  : share > 0.0 ? e->avail / share
                                                : 0.0);
            if (avail < visits)
                avail = visits;
            avail += 1.0;
            double eff = (double)visits;
            s = value / eff + c * sqrt(mcts_log(avail) / eff);
        }
        if (s > *best_score || (s == *best_score && i < *best_i)) {
            *best_score = s;
            best = ci;
            *best_i = i;
        }
    }
    return best;
}

/*
 * The best child by the policy (when not plain UCB): *best_i and *best_score as in
 * best_child_plain; tried[0] and tried[1] the mover's results and visits summed over the
 * tried children (only with fpu_relative). blend: as in child_score. Inlined into
 * node_choose twice, once with blend NULL, so that the loop where the priors are not
 * blended tests nothing for it.
 */
static MCTS_ALWAYS_INLINE uint32_t best_child_scored(const mcts_t *m, mcts_thread_t *th,
                                                     int matched, double share, int vl,
                                                     int32_t parent_unseen,
                                                     const mcts_prior_blend_t *blend, int *best_i,
                                                     double *best_score, int64_t *tried)
{
    uint32_t best = 0;
    /* The children legal now, in the order they were added; ties go to the first legal
       move, as in a walk over the legal moves. */
    for (int k = 0; k < matched; k++) {
        int i = th->kid_index[k];
        uint32_t ci = th->child_of[i];
        double s = child_score(m, th, ci, share, vl, parent_unseen, i, blend);
        if (m->policy.fpu_relative) {
            const mcts_local_t *e = &th->local[ci]; /* current: child_score saw to it */
            tried[0] += seen_sum(m, e, ci);
            tried[1] += seen_visits(m, e, ci);
        }
        if (s > *best_score || (s == *best_score && i < *best_i)) {
            *best_score = s;
            best = ci;
            *best_i = i;
        }
    }
    return best;
}

/*
 * The untried legal move to expand: best prior (first on ties), else uniformly random.
 * *prior gets its prior, *next the best prior of the moves left untried after it. Where
 * the root_prior hook blends the priors (blend not NULL), the blend is compared and goes
 * into *next, not into *prior, which the child keeps. An idea's own edges (th->choice)
 * have no prior.
 */
static int pick_untried(const mcts_t *m, mcts_thread_t *th, int n, int untried, float *prior,
                        float *next, const mcts_prior_blend_t *blend)
{
    *prior = 0.0f;
    *next = 0.0f;
    if (m->opt.prior && !th->choice) {
        int best = -1;
        double best_p = 0.0, second_p = 0.0;
        m->opt.prior(m->api, th->state, th->moves, n, th->priors, m->opt.prior_ctx);
        for (int i = 0; i < n; i++) {
            if (th->child_of[i])
                continue;
            double p = blend ? mcts_prior_blended(blend, th->priors[i], i) : th->priors[i];
            if (best < 0 || p > best_p) {
                if (best >= 0)
                    second_p = best_p;
                best = i;
                best_p = p;
            } else if (p > second_p) {
                second_p = p;
            }
        }
        *prior = (float)(blend && best >= 0 ? th->priors[best] : best_p);
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
 * children (visiting it now would count a visit without its availability), the node has
 * `cap` children or more (progressive widening: others were added since the walk), or the
 * arena is full.
 */
static uint32_t node_expand(mcts_t *m, mcts_thread_t *th, uint32_t node, move_t mv, int player,
                            float prior, uint32_t cap)
{
    mcts_node_t *n = &m->nodes[node];
    if (atomic_exchange_explicit(&n->busy, 1, memory_order_acquire) != 0)
        return 0;
    uint32_t c = 0, count;
    (void)mcts_kids(m, node, &count);
    if (count < cap && mcts_tree_find_child(m, node, mv) == 0)
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
static void count_available(mcts_t *m, mcts_thread_t *th, mcts_local_t *own, int matched)
{
    own->selects++;
    own->pend_selects++;
    for (int k = 0; k < matched; k++) {
        uint32_t c = th->child_of[th->kid_index[k]];
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
static uint32_t node_choose(mcts_t *m, mcts_thread_t *th, uint32_t node, int n, int player, int vl,
                            move_t *mv, bool *expanded)
{
    *expanded = false;
    mcts_moves_index(th, n);
    int matched = 0;
    const mcts_node_t *parent = &m->nodes[node];
    uint32_t count;
    const mcts_edge_t *kids = mcts_kids(m, node, &count);
    for (uint32_t j = 0; j < count; j++) {
        int i = mcts_moves_lookup(th, kids[j].move);
        if (i >= 0) {
            th->child_of[i] = kids[j].child;
            th->kid_index[matched++] = i;
        }
    }
    uint32_t best = 0;
    int best_i = -1;
    double best_score = -HUGE_VAL;
    mcts_local_t *own = mcts_local(m, th, node);
    double share =
        own->selects > 0
            ? (double)own->selects /
                  (atomic_load_explicit(&parent->selects, memory_order_relaxed) + own->pend_selects)
            : 0.0;
    int32_t parent_unseen = 0;
    if (m->unobserved && seen_visits(m, own, node) < m->opt.unobserved_below) {
        int32_t others = mcts_unobserved(parent) - own->pend_unobs;
        parent_unseen = others > 0 ? others : 0;
    }
    if (m->hooks.prepare_select)
        m->hooks.prepare_select(m, th, node, n, player);
    /* Blended priors (root noise) need a prior, so never plain UCB. */
    bool plain = plain_ucb(m, vl);
    mcts_prior_blend_t blend_at;
    const mcts_prior_blend_t *blend = NULL;
    if (!plain && m->hooks.root_prior && m->hooks.root_prior(m, th, node, n, &blend_at))
        blend = &blend_at;
    int64_t tried[2] = {0, 0};
    if (plain)
        best = best_child_plain(m, th, matched, share, &best_i, &best_score);
    else if (blend)
        best = best_child_scored(m, th, matched, share, vl, parent_unseen, blend, &best_i,
                                 &best_score, tried);
    else
        best = best_child_scored(m, th, matched, share, vl, parent_unseen, NULL, &best_i,
                                 &best_score, tried);
    int64_t tried_sum = tried[0], tried_visits = tried[1];
    int untried = n - matched;
    /* An untried move's urgency. The figures of the node that the policy may use are read
       only when it does (relaxed atomic loads are not optimised away when unused). */
    double tried_value = m->policy.fpu_relative ? (double)tried_sum / MCTS_VALUE_ONE : 0.0;
    float next_prior = 0.0f;
    int32_t parent_visits = 0;
    if (best != 0 && m->policy.prior) {
        next_prior = atomic_load_explicit(&parent->next_prior, memory_order_relaxed);
        parent_visits = seen_visits(m, own, node) + 1;
    }
    double urgency = mcts_policy_urgency(&m->policy, tried_value, tried_visits, next_prior,
                                         best != 0, parent_visits);
    bool own_choice = th->choice; /* an idea's own edges: every one tried first */
    if (own_choice)
        urgency = HUGE_VAL;
    /* Progressive widening: the children legal now stay within the limit, also against
       the other threads (node_expand refuses once the node has more children than seen). */
    uint32_t cap = UINT32_MAX;
    if (m->opt.pw > 0.0 && untried > 0 && !own_choice) {
        int64_t limit = mcts_pw_limit(&m->opt, seen_visits(m, own, node) + 1);
        cap = matched < limit ? count + (uint32_t)(limit - matched) : 0;
    }
    if (untried > 0 && cap > count && !atomic_load_explicit(&m->full, memory_order_relaxed) &&
        (best == 0 || urgency >= best_score)) {
        float prior, next;
        int i = pick_untried(m, th, n, untried, &prior, &next, blend);
        uint32_t child = node_expand(m, th, node, th->moves[i], player, prior, cap);
        if (child != 0) {
            atomic_store_explicit(&m->nodes[node].next_prior, next, memory_order_relaxed);
            *expanded = true;
            *mv = th->moves[i];
            return child;
        }
    }
    if (best == 0)
        return 0;
    count_available(m, th, own, matched);
    *mv = th->moves[best_i];
    return best;
}

/* Finishes the iteration's state into th->values. */
static void simulate(mcts_t *m, mcts_thread_t *th)
{
    const game_api_t *api = m->api;
    void *s = th->state;
    if (m->hooks.playout) { /* a variant's own playout */
        m->hooks.playout(m, th);
        return;
    }
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

void mcts_simulate(mcts_t *m, mcts_thread_t *th) { simulate(m, th); }

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

/* Thread th's counts e after their publication: nothing pending, nothing held. */
static inline void local_published(mcts_local_t *e)
{
    e->pend_sum = 0;
    e->pend_visits = 0;
    e->pend_selects = 0;
    e->pend_unobs = 0;
    e->held = 0;
}

/*
 * publish for a searcher with one thread, the only writer of its nodes: plain adds instead
 * of locked ones (with a publication after every iteration, the locked adds of the path's
 * counters were 9 % of a Connect Four search's time). Nothing else differs.
 */
static void publish_alone(mcts_t *m, mcts_thread_t *th)
{
    for (int k = 0; k < th->touched_count; k++) {
        uint32_t i = th->touched[k];
        mcts_node_t *n = &m->nodes[i];
        mcts_local_t *e = &th->local[i];
        atomic_store_explicit(
            &n->value_sum, atomic_load_explicit(&n->value_sum, memory_order_relaxed) + e->pend_sum,
            memory_order_relaxed);
        atomic_store_explicit(
            &n->visits, atomic_load_explicit(&n->visits, memory_order_relaxed) + e->pend_visits,
            memory_order_relaxed);
        atomic_store_explicit(
            &n->selects, atomic_load_explicit(&n->selects, memory_order_relaxed) + e->pend_selects,
            memory_order_relaxed);
        local_published(e);
    }
    th->touched_count = 0;
    th->batch = 0;
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
    if (m->opt.threads == 1) {
        publish_alone(m, th);
        return;
    }
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
        local_published(e);
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
    if (api->determinize && !m->opt.cheat)
        api->determinize(s, observer, &th->rng);
    th->path[0] = root;
    th->path_player[0] = -1;
    th->path_len = 1;
    if (m->hooks.iteration_start)
        m->hooks.iteration_start(m, th);
    uint32_t node = root;
    node_hold(m, th, root, false);
    /* The hooks of the descent's loop, read once (the calls in the loop could change m as
       far as the compiler knows). */
    const mcts_hooks_t hooks = m->hooks;
    mcts_descent_t descent = {{0, 0}};
    while (th->path_len <= MCTS_MAX_DEPTH) {
        int n = api->gen_moves(s, th->moves);
        if (n == 0)
            break;
        int player = api->to_move(s);
        /* A variant may change the descent's course (best-reply search: search/brs.h). */
        mcts_step_t step = hooks.descent_step
                               ? hooks.descent_step(m, th, &descent, observer, player, &n)
                               : MCTS_STEP_TREE;
        if (step == MCTS_STEP_SKIP)
            continue;
        if (step == MCTS_STEP_END)
            break;
        th->choice = step == MCTS_STEP_CHOICE;
        bool expanded;
        move_t mv;
        uint32_t child = node_choose(m, th, node, n, player, vl, &mv, &expanded);
        th->choice = false;
        if (child == 0)
            break;
        node_hold(m, th, child, vl != 0);
        if (step == MCTS_STEP_CHOICE) {
            hooks.choice_made(&descent, mv);
        } else {
            api->make(s, mv, th->undo);
            if (hooks.tree_move)
                hooks.tree_move(m, th, mv, player);
        }
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
    if (m->hooks.backup)
        m->hooks.backup(m, th, observer);

    /* Back up into th's pending counts (all path nodes are held, so current). */
    for (int i = 1; i < th->path_len; i++) {
        mcts_local_t *e = &th->local[th->path[i]];
        double v = mcts_backup_value(m->opt.backup, th->values, th->path_player[i], observer);
        v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
        e->pend_sum += (int64_t)llround(v * MCTS_VALUE_ONE);
        e->pend_visits++;
    }
    th->local[root].pend_visits++;
    for (int p = 0; p < m->players; p++)
        th->root_sum[p] += th->values[p];
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
    return "race_top:mcts_workers_run._omp_fn\n"
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

/* The calling thread's number in the search it works for (mcts_thread_index). */
static _Thread_local int worker_index;

int mcts_thread_index(void) { return worker_index; }

/* The steps of an iteration, for an iteration of another shape (mcts_t.iterate). */
static const mcts_steps_t worker_steps = {
    .on_select = node_choose, .on_pass = node_hold, .on_playout = simulate};

/* One thread's share of the search: iterations until the budget is spent. */
static MCTS_NOINLINE void worker(mcts_t *m, mcts_thread_t *th, const void *root_state, int observer)
{
    worker_index = th->index;
    bool root_mode = m->opt.parallel == MCTS_PARALLEL_ROOT;
    uint32_t root = m->roots[root_mode ? th->index : 0];
    int vl = (!root_mode && m->opt.threads > 1) ? m->opt.virtual_loss : 0;
    /* Iterations are handed out a few at a time, not one by one: every claim is a write
       to a line that all threads share. The total stays exact. */
    long budget = m->opt.iterations;
    long chunk = budget / (4L * m->opt.threads);
    chunk = chunk < 1 ? 1 : chunk > MCTS_CLAIM_CHUNK ? MCTS_CLAIM_CHUNK : chunk;
    long left = 0; /* iterations claimed and not yet run */
    /* The first thread tells the progress hook, if any, every progress_every iterations. */
    long report = th->index == 0 && m->opt.progress ? m->opt.progress_every : 0, since = 0;
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
        if (m->iterate) {
            m->iterate(m, th, root_state, observer, vl, &worker_steps);
            if (++th->batch >= m->sync)
                publish(m, th);
        } else if (m->fast) {
            mcts_fast_iteration(m, th, root_state, root, observer);
        } else {
            run_iteration(m, th, root_state, root, observer, vl);
        }
        left--;
        if (report > 0 && ++since >= report) {
            since = 0;
            if (!mcts_progress_report(m)) {
                atomic_store_explicit(&m->stop, true, memory_order_relaxed);
                break;
            }
        }
    }
    publish(m, th);
}

void mcts_workers_run(mcts_t *m, const void *state, int observer)
{
    m->fast = false;
    if (m->opt.threads == 1) {
        /* Decided once, before the first iteration (worker_fast.c says when); it stays
           set until the tree is kept or dropped (search/mcts.c: tree_prepare). */
        m->fast = mcts_fast_ok(m, m->roots[0]);
        worker(m, m->threads[0], state, observer);
        return;
    }
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
