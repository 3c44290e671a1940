#pragma once
/*
 * The network evaluator of the mcts bot (key net=FILE; docs/NETS.md): the search's prior
 * and evaluate hooks (search/mcts.h) over a net of nn/. One evaluation of the mover's
 * observation gives both a node's value (its leaf evaluation) and the prior over its legal
 * moves (when the node is expanded later), kept in a small cache per search thread: keyed
 * by the mover, the observation and the legal moves, it returns exactly what evaluating
 * again would, so it changes the speed, never the search. Each search thread has its own
 * workspace and scratch (mcts_thread_index), made once: evaluating allocates nothing.
 */
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "search/mcts.h"

typedef struct mcts_net mcts_net_t;

/* How the net's values are used at a leaf. */
typedef struct mcts_net_options {
    int threads;       /* search threads (one scratch each) */
    double prior_temp; /* the prior is softmax(logit / prior_temp) over the legal moves */
    double value_mix;  /* leaf value: (1 - value_mix) net + value_mix mix result, in [0, 1] */
    int mix_cutoff;    /* with mix_evaluate: random moves played before it */
    mcts_evaluate_fn mix_evaluate; /* the mix result: this after mix_cutoff random moves;
                                      NULL: a random playout to the end of the game */
    void *mix_ctx;                 /* passed to mix_evaluate */
} mcts_net_options_t;

/*
 * An evaluator in place of a net (a Python function through api/, docs/NETS.md): from the
 * mover's observation obs[obs_size] and the action ids of its n legal moves, it writes a
 * logit per id into logits[n] and players values into values (value j: the expected result
 * of seat (mover + j) mod players). 0, or -1 on failure (the search then takes a uniform
 * prior and even values, and the caller reports the failure after the search).
 */
typedef int (*mcts_net_fn)(void *ctx, const float *obs, int obs_size, const int *actions, int n,
                           float *logits, float *values, int players);

/* Loads the net at path for api's game: NULL with err one line if the file is not a net
   for this game (nn_net_load's errors) or memory is short. */
mcts_net_t *mcts_net_new(const game_api_t *api, const char *path, const mcts_net_options_t *opt,
                         char *err, size_t errlen);
/* The same over an evaluator for games of `players` players: NULL with err if api has no
   observation or action space for that count, or memory is short. */
mcts_net_t *mcts_net_new_fn(const game_api_t *api, int players, mcts_net_fn fn, void *ctx,
                            const mcts_net_options_t *opt, char *err, size_t errlen);
void mcts_net_free(mcts_net_t *n);
/* The player count the net is for. */
int mcts_net_players(const mcts_net_t *n);
/* Forward passes run so far, all threads (not while a search runs). */
long mcts_net_evals(const mcts_net_t *n);
/* Reseeds the playouts of value_mix (thread t gets a stream of its own). */
void mcts_net_seed(mcts_net_t *n, uint64_t seed);

/* The hooks (ctx: the mcts_net_t), called by the search's threads. */
void mcts_net_prior(const game_api_t *api, const void *state, const move_t *moves, int n,
                    double *priors, void *ctx);
void mcts_net_evaluate(const game_api_t *api, const void *state, double *values, void *ctx);

/* The net alone at state (not terminal), outside a search: priors[i] of moves[i] (the n
   legal moves) and values per seat (values[p] is seat p's). */
void mcts_net_eval_state(mcts_net_t *n, const void *state, const move_t *moves, int count,
                         double *priors, double *values);
