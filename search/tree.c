/* The node arena: allocation by atomic add, child lookup, and subtree reuse by compaction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search/amaf.h"
#include "search/internal.h"

double mcts_clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * A fresh node from the arena, or 0 once it is full (then `full` is set). Safe to call from
 * several threads. With th, the node comes from th's block of MCTS_ALLOC_BLOCK nodes, so
 * threads do not write the shared counter for every node nor each other's lines; without,
 * it is taken alone. The node is not visible to others until the caller links it with a
 * release store.
 */
uint32_t mcts_tree_alloc(mcts_t *m, mcts_thread_t *th, int player, float prior)
{
    if (atomic_load_explicit(&m->full, memory_order_relaxed))
        return 0;
    uint64_t i;
    if (th && th->block_next < th->block_end) {
        i = th->block_next++;
    } else {
        uint64_t take = th ? MCTS_ALLOC_BLOCK : 1;
        i = atomic_fetch_add_explicit(&m->used, take, memory_order_relaxed);
        if (i >= m->capacity) {
            atomic_store_explicit(&m->full, true, memory_order_relaxed);
            return 0;
        }
        if (th) {
            th->block_next = i + 1;
            th->block_end = i + take < m->capacity ? i + take : m->capacity;
        }
    }
    mcts_node_t *n = &m->nodes[i];
    atomic_store_explicit(&n->value_sum, 0, memory_order_relaxed);
    atomic_store_explicit(&n->visits, 0, memory_order_relaxed);
    atomic_store_explicit(&n->vloss, 0, memory_order_relaxed);
    for (int k = 0; k < MCTS_UNOBSERVED_SLOTS; k++)
        atomic_store_explicit(&n->unobserved[k], 0, memory_order_relaxed);
    atomic_store_explicit(&n->selects, 0, memory_order_relaxed);
    n->birth = 0;
    n->legal = MCTS_LEGAL_UNKNOWN;
    n->index = 0;
    atomic_store_explicit(&n->kids, 0, memory_order_relaxed);
    atomic_store_explicit(&n->busy, 0, memory_order_relaxed);
#if MCTS_AVAIL_REFERENCE
    atomic_store_explicit(&n->avail_ref, 1, memory_order_relaxed);
#else
    n->mean = 0.0;
#endif
    n->prior = prior;
    atomic_store_explicit(&n->next_prior, 0.0f, memory_order_relaxed);
    n->player = (int8_t)player;
    if (m->amaf)
        mcts_amaf_clear(m, (uint32_t)i);
    return (uint32_t)i;
}

/*
 * k consecutive edge slots from th's edge block (a new block when it lacks room); false,
 * with `full` set, when the edge arena is full.
 */
static bool edges_alloc(mcts_t *m, mcts_thread_t *th, uint32_t k, uint64_t *off)
{
    if (th->eblock_end - th->eblock_next >= k) {
        *off = th->eblock_next;
        th->eblock_next += k;
        return true;
    }
    uint64_t take = k > MCTS_EDGE_BLOCK ? k : MCTS_EDGE_BLOCK;
    uint64_t i = atomic_fetch_add_explicit(&m->edges_used, take, memory_order_relaxed);
    if (i + k > m->edge_capacity) {
        atomic_store_explicit(&m->full, true, memory_order_relaxed);
        return false;
    }
    *off = i;
    th->eblock_next = i + k;
    th->eblock_end = i + take < m->edge_capacity ? i + take : m->edge_capacity;
    return true;
}

/*
 * Adds a child for mv under node, which the caller holds (`busy`): room in the node's
 * child array first (a copy twice as long when it is full), then the node, then the
 * edge, published with one release store. Returns the child, or 0 when an arena is full
 * (then nothing is linked, so no node is left outside the tree).
 */
uint32_t mcts_tree_add_child(mcts_t *m, mcts_thread_t *th, uint32_t node, move_t mv, int player,
                             float prior)
{
    if (atomic_load_explicit(&m->full, memory_order_relaxed))
        return 0;
    mcts_node_t *n = &m->nodes[node];
    uint64_t k = atomic_load_explicit(&n->kids, memory_order_relaxed);
    uint64_t off = k >> 32;
    uint32_t count = (uint32_t)k, cap = mcts_edges_cap(count);
    if (count == cap) {
        uint64_t grown;
        if (!edges_alloc(m, th, cap ? 2 * cap : 2, &grown))
            return 0;
        for (uint32_t j = 0; j < count; j++)
            m->edges[grown + j] = m->edges[off + j];
        off = grown;
    }
    uint32_t c = mcts_tree_alloc(m, th, player, prior);
    if (c == 0)
        return 0;
    m->edges[off + count] = (mcts_edge_t){mv, c};
    atomic_store_explicit(&n->kids, off << 32 | (count + 1), memory_order_release);
    return c;
}

/* Forgets the threads' blocks (single-threaded). */
static void tree_drop_blocks(mcts_t *m)
{
    for (int t = 0; m->threads && t < m->opt.threads; t++) {
        mcts_thread_t *th = m->threads[t];
        if (th)
            th->block_next = th->block_end = th->eblock_next = th->eblock_end = 0;
    }
}

/* Nodes allocated (in use), not counting the unused rest of the threads' blocks. */
uint64_t mcts_tree_nodes(const mcts_t *m)
{
    uint64_t used = atomic_load_explicit(&m->used, memory_order_relaxed);
    uint64_t n = (used < m->capacity ? used : m->capacity) - 1;
    for (int t = 0; m->threads && t < m->opt.threads; t++)
        if (m->threads[t])
            n -= m->threads[t]->block_end - m->threads[t]->block_next;
    return n;
}

/*
 * Writes th's counts up to node i (and a chunk beyond) before they are first read. A fresh
 * page of the array that is read first is mapped to the kernel's zero page, and the first
 * write then replaces that mapping and flushes the TLB of every core that runs the
 * process: with two threads that was an interrupt to the other core for every new page
 * of counts (perf: 1 % of the samples in Tower Up 2p, under do_wp_page). Written first,
 * a page is simply allocated.
 */
void mcts_local_extend(const mcts_t *m, mcts_thread_t *th, uint32_t i)
{
    uint64_t end = ((uint64_t)i / MCTS_LOCAL_CHUNK + 1) * MCTS_LOCAL_CHUNK;
    if (end > m->capacity)
        end = m->capacity;
    memset(&th->local[th->local_ready], 0, (size_t)(end - th->local_ready) * sizeof *th->local);
    th->local_ready = (uint32_t)end;
}

int64_t mcts_node_avail_exact(const mcts_t *m, uint32_t i)
{
    int64_t a = 1;
    for (int t = 0; t < m->opt.threads; t++) {
        const mcts_local_t *e = &m->threads[t]->local[i];
        if (e->gen == m->generation)
            a += e->avail;
    }
    return a;
}

/* Empties the arena (single-threaded). */
void mcts_tree_clear(mcts_t *m)
{
    tree_drop_blocks(m);
    m->generation++;
    m->fast = false;
    atomic_store_explicit(&m->used, 1, memory_order_relaxed);
    atomic_store_explicit(&m->edges_used, 0, memory_order_relaxed);
    atomic_store_explicit(&m->full, false, memory_order_relaxed);
    for (int i = 0; i < MCTS_MAX_THREADS; i++)
        m->roots[i] = 0;
    m->root_count = 0;
    m->observer = -1;
}

/* The child of node reached by mv, or 0. */
uint32_t mcts_tree_find_child(const mcts_t *m, uint32_t node, move_t mv)
{
    uint32_t count;
    const mcts_edge_t *e = mcts_kids(m, node, &count);
    for (uint32_t j = 0; j < count; j++)
        if (e[j].move == mv)
            return e[j].child;
    return 0;
}

/*
 * Copies node src to dst (dst <= src), renumbering its children through map into a new
 * child array at fresh[*fresh_used] (exactly as long as the growth rule makes it); the
 * threads' counts for src, of generation `old`, go to dst under the current generation.
 */
static void tree_move_node(mcts_t *m, const uint32_t *map, uint32_t src, uint32_t dst, uint32_t old,
                           mcts_edge_t *fresh, uint64_t *fresh_used)
{
    for (int t = 0; t < m->opt.threads; t++) {
        mcts_local_t e = m->threads[t]->local[src];
        bool live = e.gen == old;
        /* Nothing is pending between searches: every thread published before it ended. */
        m->threads[t]->local[dst] = (mcts_local_t){
            .gen = m->generation, .avail = live ? e.avail : 0, .selects = live ? e.selects : 0};
    }
    mcts_node_t *s = &m->nodes[src];
    int64_t sum = atomic_load_explicit(&s->value_sum, memory_order_relaxed);
    int32_t visits = atomic_load_explicit(&s->visits, memory_order_relaxed);
    int32_t selects = atomic_load_explicit(&s->selects, memory_order_relaxed);
    int32_t birth = s->birth;
    uint16_t legal = s->legal, index = s->index;
    uint32_t count;
    const mcts_edge_t *e = mcts_kids(m, src, &count);
    uint64_t off = *fresh_used;
    for (uint32_t j = 0; j < count; j++)
        fresh[off + j] = (mcts_edge_t){e[j].move, map[e[j].child]};
    *fresh_used += mcts_edges_cap(count);
    float prior = s->prior;
    float next_prior = atomic_load_explicit(&s->next_prior, memory_order_relaxed);
    int8_t player = s->player;

    mcts_node_t *d = &m->nodes[dst];
    atomic_store_explicit(&d->value_sum, sum, memory_order_relaxed);
    atomic_store_explicit(&d->visits, visits, memory_order_relaxed);
    atomic_store_explicit(&d->vloss, 0, memory_order_relaxed);
    for (int k = 0; k < MCTS_UNOBSERVED_SLOTS; k++)
        atomic_store_explicit(&d->unobserved[k], 0, memory_order_relaxed);
    atomic_store_explicit(&d->selects, selects, memory_order_relaxed);
    d->birth = birth;
    d->legal = legal;
    d->index = index;
#if MCTS_AVAIL_REFERENCE
    atomic_store_explicit(&d->avail_ref, atomic_load_explicit(&s->avail_ref, memory_order_relaxed),
                          memory_order_relaxed);
#else
    d->mean = s->mean;
#endif
    atomic_store_explicit(&d->kids, count ? off << 32 | count : 0, memory_order_relaxed);
    atomic_store_explicit(&d->busy, 0, memory_order_relaxed);
    d->prior = prior;
    atomic_store_explicit(&d->next_prior, next_prior, memory_order_relaxed);
    d->player = player;
    if (m->amaf)
        mcts_amaf_move(m, src, dst);
}

/*
 * Moves the subtree under root to the front of the arena, keeping the relative order of
 * nodes: each node goes to an index no greater than its own, so copying in increasing
 * order never overwrites a node not yet copied. The child arrays are rebuilt, packed, at
 * the front of the edge arena. Returns false if memory is short.
 */
static bool tree_compact(mcts_t *m, uint32_t root)
{
    uint64_t used = atomic_load_explicit(&m->used, memory_order_relaxed);
    if (used > m->capacity)
        used = m->capacity;
    uint32_t *map = calloc((size_t)used, sizeof *map);
    uint32_t *stack = malloc((size_t)used * sizeof *stack);
    if (!map || !stack) {
        free(map);
        free(stack);
        return false;
    }
    /* Mark the subtree (map 1 = member) and size its child arrays, then number the
       members in arena order. */
    uint64_t slots = 0;
    int top = 0;
    stack[top++] = root;
    map[root] = 1;
    while (top > 0) {
        uint32_t n = stack[--top], count;
        const mcts_edge_t *e = mcts_kids(m, n, &count);
        slots += mcts_edges_cap(count);
        for (uint32_t j = 0; j < count; j++) {
            map[e[j].child] = 1;
            stack[top++] = e[j].child;
        }
    }
    mcts_edge_t *fresh = malloc((size_t)(slots ? slots : 1) * sizeof *fresh);
    if (!fresh) {
        free(map);
        free(stack);
        return false;
    }
    uint32_t next = 1;
    for (uint64_t i = 1; i < used; i++)
        if (map[i])
            map[i] = next++;
    uint32_t old = m->generation++;
    uint64_t fresh_used = 0;
    for (uint64_t i = 1; i < used; i++)
        if (map[i])
            tree_move_node(m, map, (uint32_t)i, map[i], old, fresh, &fresh_used);
    memcpy(m->edges, fresh, (size_t)fresh_used * sizeof *fresh);
    m->roots[0] = map[root];
    m->nodes[map[root]].player = -1;
    tree_drop_blocks(m);
    atomic_store_explicit(&m->used, next, memory_order_relaxed);
    atomic_store_explicit(&m->edges_used, fresh_used, memory_order_relaxed);
    atomic_store_explicit(&m->full, false, memory_order_relaxed);
    free(fresh);
    free(map);
    free(stack);
    return true;
}

/*
 * Makes the node reached from the root by moves the new root, keeping its subtree. Returns
 * false (tree left unchanged) if that node is not in the tree.
 */
bool mcts_tree_descend(mcts_t *m, const move_t *moves, int count)
{
    if (m->root_count != 1 || m->roots[0] == 0)
        return false;
    uint32_t n = m->roots[0];
    for (int i = 0; i < count; i++) {
        n = mcts_tree_find_child(m, n, moves[i]);
        if (n == 0)
            return false;
    }
    if (count == 0)
        return true;
    return tree_compact(m, n);
}

static int check_fail(char *err, size_t errlen, const char *what, uint32_t node)
{
    if (err && errlen)
        snprintf(err, errlen, "node %u: %s", (unsigned)node, what);
    return -1;
}

/* Checks one node against its children; *count gets the children. */
static int check_node(const mcts_t *m, uint32_t n, uint32_t *count, char *err, size_t errlen)
{
    const mcts_node_t *x = &m->nodes[n];
    int64_t visits = atomic_load_explicit(&x->visits, memory_order_relaxed);
    int64_t sum = atomic_load_explicit(&x->value_sum, memory_order_relaxed);
    if (atomic_load_explicit(&x->vloss, memory_order_relaxed) != 0)
        return check_fail(err, errlen, "virtual loss left after the search", n);
    if (mcts_unobserved(x) != 0)
        return check_fail(err, errlen, "unobserved passes left after the search", n);
    if (atomic_load_explicit(&x->busy, memory_order_relaxed) != 0)
        return check_fail(err, errlen, "still marked busy", n);
    if (visits < 0 || sum < 0 || sum > visits * MCTS_VALUE_ONE)
        return check_fail(err, errlen, "result sum outside [0, visits]", n);
    if (m->amaf && !mcts_amaf_sane(m, n))
        return check_fail(err, errlen, "AMAF sum outside [0, AMAF visits]", n);
    int64_t child_visits = 0;
    uint64_t k = atomic_load_explicit(&x->kids, memory_order_relaxed);
    *count = (uint32_t)k;
    uint64_t edges_used = atomic_load_explicit(&m->edges_used, memory_order_relaxed);
    if (*count &&
        ((k >> 32) + mcts_edges_cap(*count) > m->edge_capacity || (k >> 32) + *count > edges_used))
        return check_fail(err, errlen, "child array outside the edge arena", n);
    const mcts_edge_t *e = &m->edges[k >> 32];
    for (uint32_t j = 0; j < *count; j++) {
        uint32_t c = e[j].child;
        if (c == 0 || c >= m->capacity)
            return check_fail(err, errlen, "child index outside the arena", n);
        for (uint32_t i = j + 1; i < *count; i++)
            if (e[i].move == e[j].move)
                return check_fail(err, errlen, "two children with one move", n);
        int32_t cv = atomic_load_explicit(&m->nodes[c].visits, memory_order_relaxed);
        /* After a fast search the thread's counts are not written yet (worker_fast.c). */
        int64_t avail = m->fast
                            ? 1 + (int64_t)atomic_load_explicit(&x->selects, memory_order_relaxed) -
                                  m->nodes[c].birth
                            : mcts_node_avail_exact(m, c);
        if (avail < cv)
            return check_fail(err, errlen, "fewer availabilities than visits", c);
#if MCTS_AVAIL_REFERENCE
        if (mcts_node_avail_exact(m, c) !=
            atomic_load_explicit(&m->nodes[c].avail_ref, memory_order_relaxed))
            return check_fail(err, errlen, "availability differs from the obvious count", c);
#endif
        child_visits += cv;
    }
    if (child_visits > visits)
        return check_fail(err, errlen, "children visited more than their parent", n);
    return 0;
}

int mcts_check(const mcts_t *m, char *err, size_t errlen)
{
    uint64_t used = atomic_load_explicit(&m->used, memory_order_relaxed);
    if (used > m->capacity)
        used = m->capacity;
    if (used == 0)
        return check_fail(err, errlen, "arena counter at 0", 0);
    uint32_t *stack = malloc((size_t)used * sizeof *stack);
    if (!stack)
        return check_fail(err, errlen, "out of memory for the check", 0);
    uint64_t reached = 0;
    int rc = 0;
    for (int r = 0; r < m->root_count && rc == 0; r++) {
        if (m->roots[r] == 0 || m->roots[r] >= used) {
            rc = check_fail(err, errlen, "root missing or outside the arena", m->roots[r]);
            break;
        }
        uint64_t top = 0;
        stack[top++] = m->roots[r];
        while (top > 0 && rc == 0) {
            uint32_t n = stack[--top], count;
            if (++reached >= used) {
                rc = check_fail(err, errlen, "more nodes reached than allocated", n);
                break;
            }
            rc = check_node(m, n, &count, err, errlen);
            const mcts_edge_t *e = mcts_kids(m, n, &count);
            for (uint32_t j = 0; j < count && rc == 0; j++) {
                if (m->opt.tree == MCTS_TREE_MULTI && m->nodes[e[j].child].player != r)
                    rc = check_fail(err, errlen, "another player's move in a player's tree",
                                    e[j].child);
                else if (top >= used)
                    rc = check_fail(err, errlen, "a cycle in the tree", n);
                else
                    stack[top++] = e[j].child;
            }
        }
    }
    if (rc == 0 && m->root_count > 0 && reached != mcts_tree_nodes(m))
        rc = check_fail(err, errlen, "allocated nodes not in any tree", 0);
    free(stack);
    return rc;
}
