/* The bench's entry points into the search (search/mcts_bench.h). */
#include "search/mcts_bench.h"

#include <omp.h>

#include "search/internal.h"

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

long mcts_bench_independent(const game_api_t *api, const void *state, int threads, long iterations,
                            double *seconds)
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
