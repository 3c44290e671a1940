#pragma once
/*
 * Root noise (option root_noise, search/noise.c): Dirichlet noise mixed into the priors of
 * the root's moves, as in AlphaZero's self-play, so that a seeded self-play game explores
 * moves the prior ranks low. At the start of every search, eta is drawn from
 * Dirichlet(alpha) over the legal moves of the searched state, from a stream of its own
 * seeded by the search's seed (the threads' streams are untouched), so a seeded search
 * stays reproducible. In the descent, at the root of the tree the move is chosen from (a
 * thread's own root in root mode, the observer's tree with tree multi), a move's prior is
 * (1 - root_noise) prior + root_noise eta, both where the next untried move is picked and
 * where a child is scored. Nodes keep the prior without noise: a kept tree's root children
 * get the noise of the search that uses them, never twice. The descent sees the noise
 * through the root_prior hook (search/hooks.h), which mcts_noise_hooks registers. Private to
 * search/.
 */
#include <stdbool.h>

#include "search/internal.h"

/* The concentration of the noise when root_noise_alpha is 0: this over the legal moves. */
#define MCTS_NOISE_ALPHA_TOTAL 10.0

/* Why the root-noise options cannot make a searcher (one line), or NULL if they can. */
const char *mcts_noise_problem(const mcts_options_t *opt);
/* Allocates m->noise when the options ask for noise: 0, or -1 when memory is short. */
int mcts_noise_alloc(mcts_t *m);
/* Draws the search's noise over the n legal moves of the searched state, from seed. */
void mcts_noise_draw(mcts_t *m, const move_t *moves, int n, uint64_t seed);
