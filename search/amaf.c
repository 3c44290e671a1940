/* RAVE and GRAVE's AMAF statistics and the variants' memory (search/amaf.h). */
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/amaf.h"
#include "search/keys.h"
#include "search/backup.h"

bool mcts_variants_valid(const mcts_options_t *opt)
{
    if (opt->playout != MCTS_PLAYOUT_HOOK && opt->playout != MCTS_PLAYOUT_MAST &&
        opt->playout != MCTS_PLAYOUT_NST)
        return false;
    if (!(opt->mast_temp > 0.0) || !(opt->nst_eps >= 0.0 && opt->nst_eps <= 1.0) ||
        opt->nst_min < 1)
        return false;
    if (!(opt->rave_k >= 0.0) || isinf(opt->rave_k) || opt->grave_ref < 0)
        return false;
    if (opt->grave_ref > 0 && opt->rave_k == 0.0)
        return false;
    /* The moves of a rollout hook are not seen: nothing to record. Best-reply search
       plays moves outside the tree and adds choice edges to the path, and the multiple
       trees' iteration (search/multi.c) walks several trees: the record would not follow
       the path. */
    return !(mcts_records(opt) &&
             (opt->rollout || opt->backup == MCTS_BACKUP_BRS || opt->tree != MCTS_TREE_SINGLE));
}

size_t mcts_amaf_bytes(const mcts_options_t *opt)
{
    return opt->rave_k > 0.0 ? sizeof(mcts_amaf_t) : 0;
}

int mcts_variants_alloc(mcts_t *m)
{
    const mcts_options_t *opt = &m->opt;
    if (!mcts_records(opt))
        return 0;
    for (int t = 0; t < opt->threads; t++) {
        /* Zero pages cost nothing until a table grows into them. */
        m->threads[t]->trace = calloc(1, sizeof(mcts_trace_t));
        if (!m->threads[t]->trace)
            return -1;
    }
    if (opt->rave_k > 0.0) {
        m->amaf = calloc(m->capacity, sizeof *m->amaf);
        if (!m->amaf)
            return -1;
    }
    return 0;
}

void mcts_trace_new_search(mcts_trace_t *tr)
{
    if (++tr->stamp == 0) {
        for (int i = 0; i < MCTS_MAST_SIZE; i++)
            tr->mast[i].stamp = 0;
        for (int i = 0; i < MCTS_NST_SIZE; i++)
            tr->nst[i].stamp = 0;
        tr->stamp = 1;
    }
}

void mcts_amaf_clear(mcts_t *m, uint32_t i)
{
    atomic_store_explicit(&m->amaf[i].sum, 0, memory_order_relaxed);
    atomic_store_explicit(&m->amaf[i].visits, 0, memory_order_relaxed);
}

void mcts_amaf_move(mcts_t *m, uint32_t src, uint32_t dst)
{
    int64_t sum = atomic_load_explicit(&m->amaf[src].sum, memory_order_relaxed);
    int32_t visits = atomic_load_explicit(&m->amaf[src].visits, memory_order_relaxed);
    atomic_store_explicit(&m->amaf[dst].sum, sum, memory_order_relaxed);
    atomic_store_explicit(&m->amaf[dst].visits, visits, memory_order_relaxed);
}

bool mcts_amaf_sane(const mcts_t *m, uint32_t i)
{
    int64_t visits = atomic_load_explicit(&m->amaf[i].visits, memory_order_relaxed);
    int64_t sum = atomic_load_explicit(&m->amaf[i].sum, memory_order_relaxed);
    return visits >= 0 && sum >= 0 && sum <= visits * MCTS_VALUE_ONE;
}

/* The key of (player, mv) in the trace's set and the MAST table (never 0). */
static inline uint64_t player_move_key(int player, move_t mv)
{
    return (uint64_t)(player + 1) << 32 | mv;
}

static inline uint32_t set_slot(uint64_t key)
{
    return (uint32_t)(rng_mix64(key) & (MCTS_TRACE_SET - 1));
}

/* Adds key to the trace's set. */
static void set_add(mcts_trace_t *tr, uint64_t key)
{
    uint32_t h = set_slot(key);
    while (tr->set_stamp[h] == tr->set_stamp_now) {
        if (tr->set_key[h] == key)
            return;
        h = (h + 1) & (MCTS_TRACE_SET - 1);
    }
    tr->set_stamp[h] = tr->set_stamp_now;
    tr->set_key[h] = key;
}

static bool set_has(const mcts_trace_t *tr, uint64_t key)
{
    uint32_t h = set_slot(key);
    while (tr->set_stamp[h] == tr->set_stamp_now) {
        if (tr->set_key[h] == key)
            return true;
        h = (h + 1) & (MCTS_TRACE_SET - 1);
    }
    return false;
}

/* The AMAF updates: from the deepest node of the path up, the set holds the (player, move)
   of the recorded moves from that node's move on; each child found in it is counted. */
static void amaf_update(mcts_t *m, mcts_thread_t *th, const int64_t *fixed)
{
    mcts_trace_t *tr = th->trace;
    if (++tr->set_stamp_now == 0) {
        memset(tr->set_stamp, 0, sizeof tr->set_stamp);
        tr->set_stamp_now = 1;
    }
    int k = tr->len;
    for (int i = th->path_len - 1; i >= 0; i--) {
        while (k > i) {
            k--;
            set_add(tr, player_move_key(tr->who[k], tr->move[k]));
        }
        uint32_t count;
        const mcts_edge_t *kids = mcts_kids(m, th->path[i], &count);
        for (uint32_t j = 0; j < count; j++) {
            uint32_t c = kids[j].child;
            int mover = m->nodes[c].player;
            if (!set_has(tr, player_move_key(mover, kids[j].move)))
                continue;
            atomic_fetch_add_explicit(&m->amaf[c].visits, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&m->amaf[c].sum, fixed[mover], memory_order_relaxed);
        }
    }
}

void mcts_trace_learn(mcts_t *m, mcts_thread_t *th, int observer)
{
    double value_of[GAME_MAX_PLAYERS];
    int64_t fixed[GAME_MAX_PLAYERS];
    for (int p = 0; p < GAME_MAX_PLAYERS; p++) {
        double v = mcts_backup_value(m->opt.backup, th->values, p, observer);
        v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
        value_of[p] = v;
        fixed[p] = (int64_t)llround(v * MCTS_VALUE_ONE);
    }
    if (m->amaf)
        amaf_update(m, th, fixed);
    if (m->opt.playout != MCTS_PLAYOUT_HOOK)
        mcts_playout_learn(m, th, value_of);
}

/* Visits of node i as thread th sees them (published plus its own pending). */
static int32_t node_visits(const mcts_t *m, const mcts_thread_t *th, uint32_t i)
{
    const mcts_local_t *e = &th->local[i]; /* on the path: held, so current */
    return atomic_load_explicit(&m->nodes[i].visits, memory_order_relaxed) + e->pend_visits;
}

void mcts_grave_prepare(const mcts_t *m, mcts_thread_t *th, uint32_t node, int n, int player)
{
    mcts_trace_t *tr = th->trace;
    /* The reference: the deepest node of the path with `player` to move and at least
       grave_ref visits, else the shallowest with `player` to move. */
    int last = th->path_len - 1;
    uint32_t ref = node;
    if (node_visits(m, th, node) < m->opt.grave_ref) {
        for (int k = last - 1; k >= 0; k--) {
            if (th->path_player[k + 1] != player)
                continue;
            ref = th->path[k];
            if (node_visits(m, th, ref) >= m->opt.grave_ref)
                break;
        }
    }
    for (int i = 0; i < n; i++)
        tr->src[i] = th->child_of[i];
    if (ref == node)
        return;
    /* The ref's children by move, over the node's own where both exist (the legal moves
       of this state are indexed in th's move hash). */
    uint32_t count;
    const mcts_edge_t *kids = mcts_kids(m, ref, &count);
    for (uint32_t j = 0; j < count; j++) {
        int i = mcts_moves_lookup(th, kids[j].move);
        if (i >= 0 && th->child_of[i])
            tr->src[i] = kids[j].child;
    }
}

/* The child_view hook (RAVE): the AMAF statistics that score child ci, the child of legal
   move i. */
static void amaf_view(const mcts_t *m, const mcts_thread_t *th, uint32_t ci, int i,
                      mcts_child_view_t *v)
{
    uint32_t src = m->opt.grave_ref > 0 ? th->trace->src[i] : ci;
    const mcts_amaf_t *a = &m->amaf[src];
    v->amaf_visits = atomic_load_explicit(&a->visits, memory_order_relaxed);
    v->amaf_value = (double)atomic_load_explicit(&a->sum, memory_order_relaxed) / MCTS_VALUE_ONE;
}

/* The iteration_start and tree_move hooks: the iteration's record. */
static void record_start(const mcts_t *m, mcts_thread_t *th)
{
    (void)m;
    mcts_trace_start(th->trace);
}

static void record_move(const mcts_t *m, mcts_thread_t *th, move_t mv, int player)
{
    (void)m;
    mcts_trace_push(th->trace, mv, player);
}

void mcts_amaf_hooks(const mcts_options_t *opt, mcts_hooks_t *h)
{
    if (mcts_records(opt)) {
        h->iteration_start = record_start;
        h->tree_move = record_move;
        h->backup = mcts_trace_learn;
    }
    if (opt->rave_k > 0.0)
        h->child_view = amaf_view;
    if (opt->grave_ref > 0)
        h->prepare_select = mcts_grave_prepare;
}

/* The keys of RAVE and GRAVE (search/keys.h). */
const mcts_key_def_t mcts_amaf_keys[] = {
    {"rave", MCTS_KEY_DOUBLE, 0, 1e9, NULL, "K", NULL, "0",
     "RAVE: a child's mean is blended with its AMAF mean by beta = sqrt(K / (3 visits + K)); "
     "0: off; excludes `rollout=heuristic`",
     "see \"RAVE and GRAVE\" below", MCTS_STORE_DOUBLE, offsetof(mcts_options_t, rave_k)},
    {"grave", MCTS_KEY_INT, 0, 1000000000, NULL, "REF", NULL, "0",
     "GRAVE: the AMAF statistics of a move are the closest path node's with the same player "
     "to move and at least REF visits (0: the node's own); turns RAVE on (`rave=300` unless "
     "`rave` is given; `rave=0` is refused)",
     NULL, MCTS_STORE_INT, offsetof(mcts_options_t, grave_ref)},
    {0},
};
