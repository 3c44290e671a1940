#pragma once
/*
 * Connect Four solved exactly (solve.c): the game-theoretic value of a position for the
 * player to move (1 a win, 0 a draw, -1 a loss, with perfect play by both) and the moves
 * that keep it. Used by `skyline solve` (game_api_t.solve) and its accuracy measure.
 */
#include <stdint.h>

#include "core/connect4/connect4.h"

/* A solver: its transposition table of 2^log2_entries bounds (16 bytes each), kept
   between calls (positions of one game share most of their subtrees). One thread. */
typedef struct c4_solver c4_solver_t;
/* NULL if out of memory or log2_entries is not in 10..30. */
c4_solver_t *c4_solver_new(int log2_entries);
void c4_solver_free(c4_solver_t *sv);
/* Nodes searched since the solver was made. */
uint64_t c4_solver_nodes(const c4_solver_t *sv);
/*
 * The value of s for the player to move into *value and, if keep is not NULL, the moves
 * (columns 0-6, ascending) whose positions keep that value into keep[7], their count into
 * *nkeep. 0, or -1 if the game is over.
 */
int c4_solve(c4_solver_t *sv, const c4_state_t *s, int *value, move_t *keep, int *nkeep);

/* The game table's entries (game_api_t.solver_new, solver_free, solve): a table of 2^24
   entries (256 MiB, taken as it is used). */
void *c4_api_solver_new(void);
void c4_api_solver_free(void *solver);
int c4_api_solve(void *solver, const void *state, int *value, move_t *keep, int *nkeep,
                 uint64_t *nodes);
