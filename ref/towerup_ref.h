#pragma once
/* A slow, obvious Tower Up rules implementation (RULES.md Part 1, core/rules-notes.md),
   written independently of core/towerup/ and used by tests to check the fast engine (and
   timed by the bench beside it).
   Plain arrays and loops; takes are enumerated by brute force over every choice. */
#include "core/rng.h"

typedef struct tu_ref tu_ref_t;

/* A game as a record describes it (FORMATS.md §4). board_text: the contents of a .board
   file. objectives: 3 ids in the game's order. deck: 44 card codes, market slots 1,2,3
   then the draw pile top first. start_floors: count n (3..7, at most 5 with 4 players)
   letters "K","G","W","B" or "*", in placement order; the first three must be the bottom
   colours of market slots 1, 2, 3. reshuffles: reshuffle_count new draw piles (each a
   list of 1..88 codes, top first, with its length), used in order each time the draw pile
   must be refilled. Returns NULL on bad input. */
tu_ref_t *tu_ref_new(const char *board_text, int players, int first_player,
                     const char *const objectives[3], const char *const deck[44],
                     int start_floor_count, const char *const *start_floors, int reshuffle_count,
                     const char *const *const *reshuffles, const int *reshuffle_lengths);
void tu_ref_free(tu_ref_t *g);

/* Every legal move as canonical text (FORMATS.md §3), each once, into out[max][32].
   Returns the number of legal moves (0 iff the game is over); only the first max are
   written if there are more. */
int tu_ref_moves(const tu_ref_t *g, char (*out)[32], int max);

/* Plays a move given as canonical text: 0, or -1 if it is not legal (state unchanged). */
int tu_ref_play(tu_ref_t *g, const char *move);
int tu_ref_over(const tu_ref_t *g);
int tu_ref_to_move(const tu_ref_t *g);

/* Final (or current) scores in millions, ranks (1-based, ties share the smaller rank),
   supplies, cones (columns), markers (columns, [player][colour K,G,W,B]), turns played.
   Before the game is over a cone not yet set counts as column 0. Any pointer may be NULL. */
void tu_ref_result(const tu_ref_t *g, int *scores, int *ranks, int *supply, int *cones,
                   int (*markers)[4], int *turns);

/* ---- Extras for tests (not part of the comparison interface) ---- */

/* A deep copy (the reshuffle lists are copied too), or NULL if out of memory. */
tu_ref_t *tu_ref_copy(const tu_ref_t *g);

/* Once the given reshuffle lists are used up, each later reshuffle shuffles the actual
   discard pile with rng (kept by pointer, caller-owned; NULL turns this off). Without it,
   a reshuffle with no list left makes the discard pile the draw pile in the order the
   cards were discarded (first discarded on top). */
void tu_ref_set_next_reshuffle_random(tu_ref_t *g, pcg32_t *rng);

/* Reshuffles made so far (from lists or random), and the k-th new draw pile, top first,
   as card codes into out[max][8]; returns its length. So a random game can be written
   as a record. */
int tu_ref_reshuffles_made(const tu_ref_t *g);
int tu_ref_reshuffle_get(const tu_ref_t *g, int k, char (*out)[8], int max);

/* Chip values player p won, in the order won, into out (room for 10); returns the count. */
int tu_ref_chips(const tu_ref_t *g, int player, int *out);

/* Bookkeeping for invariants: reserve per colour, floors in buildings (sum of heights),
   roofs placed on the board by each player and roofs each player has left (arrays of
   players). Any pointer may be NULL. */
void tu_ref_counts(const tu_ref_t *g, int reserve[4], int *built_floors, int *roofs_placed,
                   int *roofs_left);

/* Market slot codes (slots 1, 2, 3) into out[3][8]; returns the draw-pile size. */
int tu_ref_market(const tu_ref_t *g, char (*out)[8]);

/* Test hook: overwrites a player's supply, the reserve, a player's markers and roofs left
   (NULL or -1: unchanged). It may break floor conservation; only hand-made positions use it. */
void tu_ref_debug_set(tu_ref_t *g, int player, const int supply[4], const int reserve[4],
                      const int markers[4], int roofs_left);

/* Test hook: sets a site's building (height 0 empties it; height < 0 leaves it) and, for
   player >= 0, adds one of that player's roofs there at the given level. No floor or
   objective bookkeeping. */
void tu_ref_debug_put(tu_ref_t *g, int site, int colour, int height, int player, int level);

/* Test hook: 1 if the player's roofs now meet objective id (any of the ten, in play or
   not), 0 if not, -1 for an unknown id. */
int tu_ref_debug_objective(const tu_ref_t *g, int player, const char *id);
