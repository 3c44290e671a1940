#pragma once
/*
 * A game's heuristic evaluation: named, tunable weights, move scores and position values.
 * A game that has one keeps it in its folder, naming the game in its api entry, and
 * bots/heuristic.c lists it (one line); the heuristic, greedy and mcts bots and the tuner
 * find it there through heuristic_for (bots/heuristic.h). A
 * heuristic sees only what the player to move can see (it never reads hidden parts of the
 * state), and may use its game's internals.
 */
#include <stddef.h>

#include "core/game.h"

#define HEUR_MAX_PARAMS 32
/* The largest magnitude of a weight, in parameter files and bot spec keys alike. */
#define HEUR_VALUE_MAX 1e12

/* One named weight: its default and the range and SPSA step the tuner uses. */
typedef struct heur_param_def {
    const char *name; /* name in parameter files and bot specs */
    double value;     /* built-in default */
    double lo, hi;    /* bounds for tuning */
    double step;      /* SPSA perturbation c for this parameter */
    const char *help; /* one line: what it weighs */
} heur_param_def_t;

/* A weight vector for one game's heuristic. */
typedef struct heur_params {
    int count;                     /* equals the game's param_count */
    double value[HEUR_MAX_PARAMS]; /* weights, in the game's definition order */
} heur_params_t;

typedef struct heuristic {
    const game_api_t *api;          /* the game */
    int param_count;                /* number of weights */
    const heur_param_def_t *params; /* their definitions */
    /*
     * Desirability of each legal move for the player to move, higher is better, on a
     * scale where 1.0 is roughly "one good move's worth" (used for argmax, for
     * epsilon-greedy rollouts and, through a softmax, as the MCTS prior).
     */
    void (*score_moves)(const void *state, const move_t *moves, int count, const heur_params_t *w,
                        double *scores);
    /* Value of a position for every player, each in [0, 1] (an estimate of the game result). */
    void (*evaluate)(const void *state, const heur_params_t *w, double *values);
} heuristic_t;
