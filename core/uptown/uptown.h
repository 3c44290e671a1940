#pragma once
/*
 * Uptown (RULES.md Part 2): the fast engine behind uptown_api.
 *
 * Cells are numbered row * 9 + column (row A = 0, column 1 = 0) and sets of cells are
 * 128-bit masks. Tiles of one colour are small ints: `1`-`9` = 0..8 (a column), `A`-`I` =
 * 9..17 (a row), `s1`-`s9` = 18..26 (a box), `$` = 27 (anywhere); a set of tiles of one
 * colour (a rack, the tiles not yet played) is a 28-bit mask. With 3 to 5 players player p
 * owns colour p; with 2 players player p owns colours p and p + 2.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/bits.h"
#include "core/game.h"

#define UPTOWN_CELL_COUNT     81   /* cells of the 9x9 board */
#define UPTOWN_TILE_COUNT     28   /* tiles of one colour */
#define UPTOWN_COLOUR_MAX     5    /* most colours in a game (5 players, one colour each) */
#define UPTOWN_RACK_SIZE      5    /* tiles in a full rack */
#define UPTOWN_TURNS          24   /* turns per player with 3 to 5 players, plays per colour */
#define UPTOWN_EMPTY          0xFF /* cell[] value of an empty cell */
#define UPTOWN_TILE_DOLLAR    27   /* the `$` tile */
#define UPTOWN_ALL_TILES      0x0FFFFFFFu /* the 28 tiles of a colour as a mask */
#define UPTOWN_BOARD_TEXT_MAX 91          /* buffer size of uptown_board_to_text */

/* A move: bits 0-6 cell, 7-11 tile, 12-14 colour, 15 capture, 16 discard (cell 0). */
#define UPTOWN_MOVE_CAPTURE (1u << 15)
#define UPTOWN_MOVE_DISCARD (1u << 16)

typedef struct uptown_state {
    u128_t colour_bb[UPTOWN_COLOUR_MAX]; /* cells holding a tile of each colour */
    u128_t occupied;                     /* cells holding any tile */
    uint64_t hash;                       /* incremental Zobrist key (see uptown_hash_full) */
    uint32_t rack[UPTOWN_COLOUR_MAX];    /* tiles in each colour's rack (mask) */
    uint32_t left[UPTOWN_COLOUR_MAX];    /* tiles of each colour not yet played or
                                            discarded: rack plus pile, a public set */
    uint8_t cell[UPTOWN_CELL_COUNT];     /* colour << 5 | tile on each cell, or UPTOWN_EMPTY */
    uint8_t pile[UPTOWN_COLOUR_MAX][UPTOWN_TILE_COUNT]; /* each colour's 28 tiles in draw
                                            order: first 5 = starting rack */
    uint8_t pile_pos[UPTOWN_COLOUR_MAX]; /* index in pile[] of the next tile to draw */
    uint8_t captures[GAME_MAX_PLAYERS];  /* tiles captured by each player */
    uint8_t turns[GAME_MAX_PLAYERS];     /* turns played by each player */
    uint8_t players;                     /* number of players, 2..5 */
    uint8_t colours;                     /* number of colours: 4 with 2 players, else players */
    uint8_t to_move;                     /* player to move */
    uint8_t first_player;                /* player who moved first */
    uint8_t retired;                     /* colours retired (2 players), bit per colour */
    uint8_t move_count;                  /* moves played so far */
    uint8_t pad_[14];                    /* explicit padding, always zero */
} uptown_state_t;
/* No implicit padding: make/undo restore every byte, so states compare with memcmp. */
_Static_assert(offsetof(uptown_state_t, pad_) + 14 == sizeof(uptown_state_t),
               "uptown_state_t has implicit padding");

/* What make() saves so that undo() restores the exact bytes. */
typedef struct uptown_undo {
    uint64_t hash;    /* key before the move */
    uint8_t captured; /* cell[] value of the captured tile, or UPTOWN_EMPTY */
    uint8_t drew;     /* 1 if a tile was drawn */
    uint8_t retired;  /* retired mask before the move */
    uint8_t to_move;  /* player to move before the move */
} uptown_undo_t;

/* ---- set-up and rules ---- */
/* The functions the game table (core/game.h) points at take the state (and the undo
   record) as void pointers, the interface's signature: no wrapper between them. */

/* New game from options (players 2..5, seed, first_player). 0, or -1 with err filled. */
int uptown_new_game(void *state, const game_options_t *opt, char *err, size_t errlen);
/* New game from given piles (piles[c] = colour c's 28 distinct tiles in draw order). */
int uptown_new_from_piles(uptown_state_t *s, int players, int first_player,
                          const uint8_t piles[][UPTOWN_TILE_COUNT], char *err, size_t errlen);
/* All legal moves into moves[GAME_MAX_MOVES]; 0 iff terminal. */
int uptown_gen_moves(const void *state, move_t *moves);
/* A uniformly random legal move of a non-terminal position: the same move as
   moves[pcg32_bounded(rng, n)] after n = uptown_gen_moves(s, moves), found faster. */
move_t uptown_random_move(const uptown_state_t *s, pcg32_t *rng);
/* Number of legal moves (as uptown_gen_moves returns). */
int uptown_count_moves(const uptown_state_t *s);
void uptown_make(void *state, move_t m, void *undo);
void uptown_undo(void *state, move_t m, const void *undo);
/* Plays a legal move with no undo record. */
void uptown_play(uptown_state_t *s, move_t m);
bool uptown_is_terminal(const void *state);
/* Whether removing the tile on cell (of any colour) keeps the rest of its group connected. */
bool uptown_can_remove(const uptown_state_t *s, int cell);
/* Number of orthogonally connected groups in a set of cells. */
int uptown_group_count(u128_t cells);
/* Groups of one player (2 players: both colours added). */
int uptown_player_groups(const uptown_state_t *s, int player);
/* Ranks (1-based, ties share the best) from groups then captures. */
void uptown_ranks(const uptown_state_t *s, int *groups, int *captures, int *ranks);
void uptown_result(const void *state, double *res);
/* The key from scratch. It covers the board (colour and tile kind per cell), the racks,
   captures, retired colours, move count and player to move; not the pile order. */
uint64_t uptown_hash_full(const void *state);
/* The part of the key that a colour's rack contributes. */
uint64_t uptown_rack_hash(int colour, uint32_t rack);
/* Recomputes colour_bb, occupied, left and hash from cell[], rack[] and pile[]/pile_pos. */
void uptown_recompute(uptown_state_t *s);
/* Checks every derived field and invariant: 0, or -1 with err filled. */
int uptown_check(const void *state, char *err, size_t errlen);
/* Colours player owns (bit per colour), retired ones included. */
unsigned uptown_player_colours(const uptown_state_t *s, int player);

/* ---- notation ---- */

/* Canonical name of a tile ("7", "C", "s4", "$"). */
const char *uptown_tile_name(int tile);
/* Tile from its exact canonical name, or -1. */
int uptown_tile_parse(const char *text);
/* Cell name ("C7") into buf[3]. */
void uptown_cell_name(int cell, char *buf);
/* Cell from exactly two characters "A1".."I9" at text, or -1. */
int uptown_cell_parse(const char *text);
/* The board as 9 lines of 9 characters ('.' empty, '0'..'4' a colour) into
   buf[UPTOWN_BOARD_TEXT_MAX]. */
void uptown_board_to_text(const uptown_state_t *s, char *buf);
void uptown_move_to_text(const void *state, move_t m, char *buf);
/* The diagram of `skyline show` (game_api_t.diagram) into buf[len] (uptown_diagram.c). */
void uptown_diagram(const void *state, int observer, unsigned flags, char *buf, size_t len);
/* A legal move in plain words (game_api_t.move_describe) into buf[len]. */
void uptown_move_describe(const void *state, move_t m, char *buf, size_t len);
int uptown_move_from_text(const void *state, const char *text, move_t *m, char *err, size_t errlen);

/* Position notation (uptown_position.c, docs/NOTATION.md), as in game_api_t. */
void uptown_position_write(const void *state, int observer, char *buf, size_t len);
int uptown_position_read(void *state, const char *text, const game_options_t *opt, pcg32_t *rng,
                         int *view, char *err, size_t errlen);

/* ---- hidden information ---- */

/* Resamples what observer cannot see: each opponent colour not retired gets a new rack of
   the same size and a new pile order from its unplayed tiles; the observer's own piles are
   reshuffled. Piles stay permutations of the 28 tiles (drawn tiles first). */
void uptown_determinize(void *state, int observer, pcg32_t *rng);
/* Whether player observer sees the same thing in both states. */
bool uptown_observation_equal(const uptown_state_t *a, const uptown_state_t *b, int observer);
/* Plays uniformly random legal moves (uptown_random_move) to the end of the game. */
void uptown_playout(void *state, pcg32_t *rng);

/* ---- records (FORMATS.md §4) ---- */

/* The heuristic (heuristic.c; bots/heuristic.c lists it). */
extern const struct heuristic heuristic_uptown;
/* The game table (uptown_api.c). */
extern const game_api_t uptown_api;
/* The position as an SVG picture (uptown_svg.c, viewer/picture.c). */
int uptown_svg(const void *state, int observer, FILE *out);

/* Its part of game records (uptown_record.c, core/record.h): the piles and the result. */
extern const struct record_hooks uptown_record_hooks;

/* ---- hot helpers ---- */

#define UPTOWN_BIT(i) ((u128_t)1 << (i))
#define UPTOWN_COL0                                                                                \
    (UPTOWN_BIT(0) | UPTOWN_BIT(9) | UPTOWN_BIT(18) | UPTOWN_BIT(27) | UPTOWN_BIT(36) |            \
     UPTOWN_BIT(45) | UPTOWN_BIT(54) | UPTOWN_BIT(63) | UPTOWN_BIT(72))
static const u128_t UPTOWN_BOARD = (((u128_t)1 << 81) - 1);
static const u128_t UPTOWN_NOT_COL0 = (((u128_t)1 << 81) - 1) & ~UPTOWN_COL0;
static const u128_t UPTOWN_NOT_COL8 = (((u128_t)1 << 81) - 1) & ~(UPTOWN_COL0 << 8);

/* Cells a tile may go on (indexed by tile). */
extern u128_t uptown_tile_cells[UPTOWN_TILE_COUNT];

static inline move_t uptown_move_place(int colour, int tile, int cell, bool capture)
{
    return (move_t)cell | (move_t)tile << 7 | (move_t)colour << 12 |
           (capture ? UPTOWN_MOVE_CAPTURE : 0);
}
static inline move_t uptown_move_discard(int colour, int tile)
{
    return (move_t)tile << 7 | (move_t)colour << 12 | UPTOWN_MOVE_DISCARD;
}
static inline int uptown_move_cell(move_t m) { return (int)(m & 127); }
static inline int uptown_move_tile(move_t m) { return (int)(m >> 7 & 31); }
static inline int uptown_move_colour(move_t m) { return (int)(m >> 12 & 7); }
static inline bool uptown_move_is_capture(move_t m) { return (m & UPTOWN_MOVE_CAPTURE) != 0; }
static inline bool uptown_move_is_discard(move_t m) { return (m & UPTOWN_MOVE_DISCARD) != 0; }

/* Colour on a cell, or -1 if empty. */
static inline int uptown_cell_colour(const uptown_state_t *s, int cell)
{
    return s->cell[cell] == UPTOWN_EMPTY ? -1 : s->cell[cell] >> 5;
}
/* Tile on a cell, or -1 if empty. */
static inline int uptown_cell_tile(const uptown_state_t *s, int cell)
{
    return s->cell[cell] == UPTOWN_EMPTY ? -1 : s->cell[cell] & 31;
}
/* Player owning a colour. */
static inline int uptown_colour_owner(const uptown_state_t *s, int colour)
{
    return s->players == 2 ? colour & 1 : colour;
}
/* The cells orthogonally next to the cells of x. */
static inline u128_t uptown_spread(u128_t x)
{
    return (x | x << 9 | x >> 9 | ((x << 1) & UPTOWN_NOT_COL0) | ((x >> 1) & UPTOWN_NOT_COL8)) &
           UPTOWN_BOARD;
}
/* The cells of within orthogonally connected to seed (seed must lie within). */
static inline u128_t uptown_flood(u128_t seed, u128_t within)
{
    u128_t cur = seed, prev = 0;
    while (cur != prev) {
        prev = cur;
        cur = uptown_spread(cur) & within;
    }
    return cur;
}

/* Integer actions and observation tensor (uptown_actions.c, docs/PYTHON.md). */
int uptown_action_count(int players);
int uptown_move_action(const void *state, move_t m);
int uptown_observation_size(int players);
void uptown_observation(const void *state, int observer, float *out);

/* The tile a move's colour draws (uptown_chance.c, game_api_t.chance_outcomes). */
int uptown_chance_outcomes(const void *state, const move_t *m, char (*text)[GAME_MOVE_TEXT_MAX],
                           double *prob, int max, char *err, size_t errlen);
