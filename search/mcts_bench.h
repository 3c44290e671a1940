#pragma once
/* Entry points of the search for `skyline bench` and the search tests only: not part of
   the searcher's interface (search/mcts.h). */
#include "search/mcts.h"

/*
 * For `skyline bench`: runs one search of exactly `iterations` iterations (default options
 * otherwise, seed 1, reuse off) from state with `threads` threads in the given parallel
 * mode and returns the iterations done; *seconds gets the wall time, so
 * iterations / *seconds is the speed. Returns -1 if the searcher cannot be made or the
 * state is terminal.
 */
long mcts_bench_iterations(const game_api_t *api, const void *state, int threads,
                           mcts_parallel_t mode, long iterations, double *seconds);

/*
 * For `skyline bench`: what the machine gives for this work with `threads` cores and no
 * sharing at all. Runs `threads` independent one-thread searches of `iterations` each
 * (default options, seeds 1, 2, ...), at the same time, one per thread, and returns the
 * iterations of all of them (-1 as mcts_bench_iterations); *seconds gets the wall time.
 * A shared-tree speed-up divided by this one is the share of the machine's parallel
 * throughput that the shared tree keeps.
 */
long mcts_bench_independent(const game_api_t *api, const void *state, int threads, long iterations,
                            double *seconds);
