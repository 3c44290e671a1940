/* Information-set MCTS: options, the searcher's memory and the search (search/mcts.h); the
   iterations run in search/worker.c, the selection formula is search/policy.h's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/amaf.h"
#include "search/internal.h"
#include "search/keys.h"
#include "search/noise.h"
#include "search/policy.h"

void mcts_options_default(mcts_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    /* Every key whose row gives its default as a value (search/keys.h). */
    mcts_key_defaults(opt);
    /* The rows that tell their default in words: the library's budget (the mcts bot fills
       in its own), first-play urgency without a preset, the first seed. */
    opt->iterations = 10000;
    opt->fpu = 10.0;
    opt->seed = 1;
}

/* Why opt cannot make a searcher (one line), or NULL if it can. */
static const char *options_problem(const mcts_options_t *opt)
{
    if (opt->iterations < 0 || opt->time_ms < 0)
        return "a negative iteration or time budget";
    if (opt->iterations == 0 && opt->time_ms == 0)
        return "no budget: neither iterations nor time_ms is set";
    if (opt->threads < 1 || opt->threads > MCTS_MAX_THREADS)
        return "threads out of range (1 to 256)";
    if (!(opt->c >= 0.0))
        return "a negative exploration constant c";
    if (opt->progress && opt->progress_every < 1)
        return "progress_every below 1 with a progress hook";
    if (opt->virtual_loss < 0 || opt->cutoff_depth < 0)
        return "a negative virtual loss or cutoff depth";
    if (opt->sync < 0 || opt->sync > MCTS_SYNC_MAX)
        return "sync out of range (0 to 64)";
    if (opt->unobserved_below < 1)
        return "unobserved_below under 1";
    if (opt->parallel != MCTS_PARALLEL_TREE && opt->parallel != MCTS_PARALLEL_ROOT)
        return "an unknown parallel mode";
    if (opt->prior_form != MCTS_PRIOR_DECAY && opt->prior_form != MCTS_PRIOR_PUCT)
        return "an unknown prior form";
    if (opt->backup != MCTS_BACKUP_MAXN && opt->backup != MCTS_BACKUP_PARANOID &&
        opt->backup != MCTS_BACKUP_BRS)
        return "an unknown backup rule";
    if (!(opt->pw >= 0.0 && opt->pw <= 1e9) || !(opt->pw_alpha >= 0.0 && opt->pw_alpha <= 1.0))
        return "progressive widening out of range (pw 0 to 1e9, pw_alpha 0 to 1)";
    /* Tree multi: one tree per player and per thread would split the iterations among too
       many trees, and best-reply search is a shape of the single tree. */
    if (opt->tree != MCTS_TREE_SINGLE && opt->tree != MCTS_TREE_MULTI)
        return "an unknown tree mode";
    if (opt->tree == MCTS_TREE_MULTI &&
        (opt->parallel != MCTS_PARALLEL_TREE || opt->backup == MCTS_BACKUP_BRS))
        return "tree multi with root parallelism or best-reply search";
    if (!mcts_variants_valid(opt))
        return "RAVE, GRAVE, MAST or NST options out of range, or with a rollout hook, "
               "best-reply search or tree multi";
    if (opt->final != MCTS_FINAL_VISITS && opt->final != MCTS_FINAL_MEAN)
        return "an unknown final move choice";
    return mcts_noise_problem(opt);
}

/* The search ideas that hook into the iteration (search/hooks.h): each fills the extension
   points that the options turn on. A new idea adds its registration here. */
static void (*const hook_ideas[])(const mcts_options_t *, mcts_hooks_t *) = {
    mcts_amaf_hooks, mcts_mast_hooks, mcts_noise_hooks, mcts_brs_hooks};

static void thread_free(mcts_thread_t *th)
{
    if (!th)
        return;
    free(th->state);
    free(th->undo);
    free(th->local);
    free(th->touched);
    free(th->trace);
    free(th);
}

/*
 * Memory of its own cache lines (size rounded up to whole lines): what a thread writes all
 * the time (its scratch, state, undo record, touched list) must not share a line with what
 * another thread writes, as small mallocs from a used heap can.
 */
static void *lines_alloc(size_t size)
{
    size =
        (size ? size + MCTS_CACHE_LINE - 1 : MCTS_CACHE_LINE) / MCTS_CACHE_LINE * MCTS_CACHE_LINE;
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
    return mcts_create(api, opt, NULL, 0);
}

/* Fills err (if given) with why, and returns NULL. */
static mcts_t *refuse(char *err, size_t errlen, const char *why)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", why);
    return NULL;
}

mcts_t *mcts_create(const game_api_t *api, const mcts_options_t *opt, char *err, size_t errlen)
{
    if (!api || !opt)
        return refuse(err, errlen, "no game or no options");
    const char *why = options_problem(opt);
    if (why)
        return refuse(err, errlen, why);
    mcts_t *m = lines_alloc(sizeof *m);
    if (!m)
        return refuse(err, errlen, "out of memory");
    mcts_log_init();
    memset(m, 0, sizeof *m);
    m->api = api;
    m->opt = *opt;
    mcts_policy_init(&m->policy, opt);
    for (size_t k = 0; k < sizeof hook_ideas / sizeof *hook_ideas; k++)
        hook_ideas[k](opt, &m->hooks);
    m->iterate = opt->tree == MCTS_TREE_MULTI ? mcts_multi_iteration : NULL;
    m->sync = opt->sync > 0                                             ? opt->sync
              : opt->parallel == MCTS_PARALLEL_TREE && opt->threads > 1 ? MCTS_SYNC_DEFAULT
                                                                        : 1;
    /* With one thread nothing is unobserved: the counters would only cost time. */
    m->unobserved = opt->unobserved && opt->parallel == MCTS_PARALLEL_TREE && opt->threads > 1;
    m->unobserved_owned = opt->threads <= MCTS_UNOBSERVED_SLOTS;

    /* At most the cap, but never fewer nodes than a root per tree and a few children. */
    size_t cap =
        opt->memory_bytes / (sizeof(mcts_node_t) + MCTS_EDGES_PER_NODE * sizeof(mcts_edge_t) +
                             (size_t)opt->threads * sizeof(mcts_local_t) + mcts_amaf_bytes(opt));
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
    bool ok = m->nodes && m->edges && m->threads && m->root_stats;
    for (int t = 0; ok && t < opt->threads; t++)
        ok = (m->threads[t] = thread_new(api, t, cap, m->sync)) != NULL;
    if (!ok || mcts_variants_alloc(m) || mcts_noise_alloc(m)) {
        mcts_free(m);
        return refuse(err, errlen, "out of memory for the tree (a smaller memory cap?)");
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
    free(m->amaf);
    free(m->noise);
    free(m->root_stats);
    free(m->live_stats);
    free(m->pending);
    free(m);
}

void mcts_reset(mcts_t *m)
{
    mcts_tree_clear(m);
    m->pending_count = 0;
}

void mcts_set_progress(mcts_t *m, mcts_progress_fn fn, void *ctx, long every)
{
    m->opt.progress = fn;
    m->opt.progress_ctx = ctx;
    m->opt.progress_every = every < 1 ? 1 : every;
}

void mcts_set_time(mcts_t *m, long time_ms)
{
    if (time_ms > 0 || (time_ms == 0 && m->opt.iterations > 0))
        m->opt.time_ms = time_ms;
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

/* ---- The search ---- */

static int stat_compare(const void *a, const void *b)
{
    const mcts_move_stat_t *x = a, *y = b;
    if (x->visits != y->visits)
        return x->visits > y->visits ? -1 : 1;
    return x->move < y->move ? -1 : x->move > y->move ? 1 : 0;
}

/* Root statistics of the n legal moves (in m->root_stats), summed over the trees (tree
   multi: the observer's tree only). */
static void collect_root_stats(mcts_t *m, int n)
{
    for (int i = 0; i < n; i++) {
        mcts_move_stat_t *st = &m->root_stats[i];
        long visits = 0;
        int64_t sum = 0;
        for (int r = 0; r < m->root_count; r++) {
            if (m->roots[r] == 0 || (m->opt.tree == MCTS_TREE_MULTI && r != m->observer))
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

bool mcts_progress_report(mcts_t *m)
{
    int n = m->search_moves;
    if (!m->live_stats && !(m->live_stats = malloc(GAME_MAX_MOVES * sizeof(*m->root_stats))))
        return true;
    /* root_stats is the first thread's until the search ends, which fills it again. */
    collect_root_stats(m, n);
    memcpy(m->live_stats, m->root_stats, (size_t)n * sizeof *m->root_stats);
    qsort(m->live_stats, (size_t)n, sizeof *m->live_stats, stat_compare);
    mcts_stats_t st;
    memset(&st, 0, sizeof st);
    for (int i = 0; i < n; i++)
        st.iterations += m->live_stats[i].visits;
    st.root_move_count = n;
    st.root_moves = m->live_stats;
    st.seconds = mcts_clock_now() - m->search_start;
    return m->opt.progress(&st, m->opt.progress_ctx);
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
    bool keep = m->opt.reuse && m->opt.parallel == MCTS_PARALLEL_TREE && m->root_count == 1 &&
                m->observer == observer && m->players == players &&
                (m->pending_count > 0 || key == m->root_moves_key);
    /* A tree grown by the fast descent gets the thread's own counts before it is kept. */
    if (m->fast && keep)
        mcts_fast_finish(m, th0, m->roots[0]);
    m->fast = false;
    if (keep)
        kept = mcts_tree_descend(m, m->pending, m->pending_count);
    m->root_moves_key = key;
    if (kept) {
        mcts_moves_index(th0, n);
        uint32_t count;
        const mcts_edge_t *kids = mcts_kids(m, m->roots[0], &count);
        for (uint32_t j = 0; j < count && kept; j++)
            kept = mcts_moves_lookup(th0, kids[j].move) >= 0;
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
        m->root_count = m->opt.parallel == MCTS_PARALLEL_ROOT ? m->opt.threads
                        : m->opt.tree == MCTS_TREE_MULTI      ? players
                                                              : 1;
        for (int r = 0; r < m->root_count; r++)
            if (m->roots[r] == 0)
                m->roots[r] = mcts_tree_alloc(m, NULL, -1, 0.0f);
        if (st.reused)
            st.reused_visits =
                atomic_load_explicit(&m->nodes[m->roots[0]].visits, memory_order_relaxed);
        if (n > 1) {
            atomic_store_explicit(&m->claimed, 0, memory_order_relaxed);
            atomic_store_explicit(&m->stop, false, memory_order_relaxed);
            atomic_store_explicit(&m->full, false, memory_order_relaxed);
            m->deadline = m->opt.time_ms > 0 ? start + (double)m->opt.time_ms / 1000.0 : 0.0;
            m->search_moves = n;
            m->search_start = start;
            uint64_t base = rng_mix64(m->opt.seed ^ rng_mix64(m->searches));
            m->searches++;
            for (int t = 0; t < m->opt.threads; t++) {
                mcts_thread_t *th = m->threads[t];
                pcg32_seed(&th->rng, base, (uint64_t)t);
                th->iterations = 0;
                memset(th->root_sum, 0, sizeof th->root_sum);
                th->max_depth = 0;
                th->unobserved_passes = 0;
                if (th->trace)
                    mcts_trace_new_search(th->trace);
            }
            mcts_noise_draw(m, th0->moves, n, base);
            mcts_workers_run(m, state, observer);
            double sum[GAME_MAX_PLAYERS] = {0};
            for (int t = 0; t < m->opt.threads; t++) {
                st.iterations += m->threads[t]->iterations;
                for (int p = 0; p < players; p++)
                    sum[p] += m->threads[t]->root_sum[p];
                st.unobserved_passes += m->threads[t]->unobserved_passes;
                if (m->threads[t]->max_depth > st.max_depth)
                    st.max_depth = m->threads[t]->max_depth;
            }
            for (int p = 0; p < players && st.iterations > 0; p++)
                st.root_value[p] = sum[p] / (double)st.iterations;
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
