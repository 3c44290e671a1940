#pragma once
/* A slow, obvious Uptown rules implementation (RULES.md Part 2, core/rules-notes.md),
   written independently of core/uptown/ and used by tests to check the fast engine (and
   timed by the bench beside it).
   A 9x9 char board, plain loops and a flood fill. Moves are canonical text
   (FORMATS.md §3). */

/* More than the most moves a position can have (2 players: two racks of one `$` on 81
   cells and four tiles on 9 cells each, 2 * 117 = 234). */
#define UT_REF_MAX_MOVES 256

typedef struct ut_ref ut_ref_t;

/* A game as a record describes it (FORMATS.md §4): piles[c] lists colour c's 28 tiles as
   text ("7", "C", "s4", "$") in draw order, the first 5 being the starting rack; there
   are players colours, or 4 with 2 players (player p owns colours p and p+2). Returns
   NULL on bad input (players outside 2..5, first_player out of range, a pile that is not
   the 28 tiles each once, or no memory). */
ut_ref_t *ut_ref_new(int players, int first_player, const char *const piles[][28]);
void ut_ref_free(ut_ref_t *g);

/* Every legal move as canonical text (FORMATS.md §3), each once, any order, into
   out[max][32]; returns the count (0 iff the game is over). Only the first max moves are
   written if there are more (UT_REF_MAX_MOVES is always enough; max 0 just counts, and
   out may then be NULL). */
int ut_ref_moves(const ut_ref_t *g, char (*out)[32], int max);

/* Plays a move given as canonical text: 0, or -1 if it is not legal (state unchanged). */
int ut_ref_play(ut_ref_t *g, const char *move);
int ut_ref_over(const ut_ref_t *g);
int ut_ref_to_move(const ut_ref_t *g);

/* Groups per player (2p: both colours added), tiles captured per player, ranks
   (1-based, ties share the smaller rank), turns played. Each array holds one entry per
   player; any pointer may be NULL. */
void ut_ref_result(const ut_ref_t *g, int *groups, int *captures, int *ranks, int *turns);

/* Groups of one colour on a board given as 9 strings of 9 chars, '.' empty, '0'..'4' the
   colour of the tile there (for hand-drawn test boards). */
int ut_ref_count_groups(const char *const rows[9], char colour);

/* Additions for tests of the reference itself. */

/* An independent copy of a game (NULL if out of memory); free it with ut_ref_free. */
ut_ref_t *ut_ref_clone(const ut_ref_t *g);

/* The board as 9 NUL-terminated rows in ut_ref_count_groups's form. */
void ut_ref_board(const ut_ref_t *g, char rows[9][10]);

/* Recounts where every tile is: 0 if each colour's 28 tiles are each in exactly one place
   (pile, rack, board, captured, discarded; a retired rack is still its rack) and the
   counters agree, -1 otherwise. */
int ut_ref_check(const ut_ref_t *g);
