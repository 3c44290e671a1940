#pragma once
/*
 * Connect Four (7 columns, 6 rows, two players, four in a line wins) on bitboards: the
 * engine behind connect4_api (core/game.h). Cell (column c, row r), row 0 at the bottom,
 * is bit 7c + r: each column takes 7 bits, the 7th always empty, so that shifting a
 * board by 1 (vertical), 7 (horizontal), 6 or 8 (diagonals) never carries a line from one
 * column into the next. A column's next free cell is (mask + bottom bit) & column mask.
 * Records and move notation: core/connect4/README.md.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/game.h"

#define C4_COLUMNS 7
#define C4_ROWS    6
#define C4_CELLS   (C4_COLUMNS * C4_ROWS)
/* The bottom cell of every column. */
#define C4_BOTTOM 0x0000040810204081ULL
/* Every cell of the board (the 6 low bits of each column). */
#define C4_BOARD (C4_BOTTOM * 0x3FULL)

/* A position. Plain bytes: a copy is a memcpy; make/undo restore it exactly. */
typedef struct c4_state {
    uint64_t stones[2];   /* each player's stones */
    uint64_t mask;        /* every stone: stones[0] | stones[1] */
    uint64_t hash;        /* Zobrist key of stones and player to move */
    uint8_t to_move;      /* the player to move, 0 or 1 */
    uint8_t first_player; /* the player who moved first */
    int8_t winner;        /* the player with four in a line, or -1 */
    uint8_t stone_count;  /* stones on the board (plies played) */
    uint8_t pad[4];       /* always zero, so that states compare with memcmp */
} c4_state_t;

/* What undo needs beyond the move: the cell the stone went to. */
typedef struct c4_undo {
    uint64_t cell; /* the stone's bit */
} c4_undo_t;

/* The empty board, player first_player (0 or 1) to move. */
void c4_init(c4_state_t *s, int first_player);
/* Bitboard of column c's cells. */
static inline uint64_t c4_column_mask(int c) { return 0x3FULL << (7 * c); }
/* True if column c has room for a stone. */
static inline bool c4_column_open(const c4_state_t *s, int c)
{
    return !(s->mask & (0x20ULL << (7 * c)));
}
/* True if stones hold four in a line. */
static inline bool c4_has_four(uint64_t p)
{
    uint64_t m = p & (p >> 7); /* horizontal */
    if (m & (m >> 14))
        return true;
    m = p & (p >> 6); /* diagonal, down to the right */
    if (m & (m >> 12))
        return true;
    m = p & (p >> 8); /* diagonal, up to the right */
    if (m & (m >> 16))
        return true;
    m = p & (p >> 1); /* vertical */
    return (m & (m >> 2)) != 0;
}
/* The functions the game table (core/game.h) points at take the state (and the undo
   record) as void pointers, the interface's signature: no wrapper between them. */
static inline bool c4_is_over(const void *state)
{
    const c4_state_t *s = state;
    return s->winner >= 0 || s->stone_count == C4_CELLS;
}
/* The legal moves (column numbers 0-6, ascending) into moves; 0 once the game is over. */
int c4_gen_moves(const void *state, move_t *moves);
/* Drops a stone of the player to move into column m (legal). */
void c4_make(void *state, move_t m, void *undo);
void c4_undo(void *state, move_t m, const void *undo);
/* Plays uniformly random legal moves to the end. */
void c4_playout(void *state, pcg32_t *rng);
/* The key from scratch. */
uint64_t c4_hash_full(const void *state);
/* Checks every derived field: 0, or -1 with err filled. */
int c4_check(const void *state, char *err, size_t errlen);
/* 1-based ranks: the winner 1, the loser 2; a draw 1 and 1. */
void c4_ranks(const void *state, int *ranks);
/* The diagram of `skyline show` (game_api_t.diagram) into buf[len] (diagram.c). */
void c4_diagram(const void *state, int observer, unsigned flags, char *buf, size_t len);
/* A legal move in plain words (game_api_t.move_describe) into buf[len]. */
void c4_move_describe(const void *state, move_t m, char *buf, size_t len);

/* Its part of game records (record.c, core/record.h): ranks and turns as the result. */
extern const struct record_hooks c4_record_hooks;
/* Parses a move text ("1"-"7"): 0 if legal, else -1 with err filled. */
int c4_move_from_text(const void *state, const char *text, move_t *m, char *err, size_t errlen);
/* Position notation (position.c, docs/NOTATION.md), as in game_api_t. */
void c4_position_write(const void *state, int observer, char *buf, size_t len);
int c4_position_read(void *state, const char *text, const game_options_t *opt, pcg32_t *rng,
                     int *view, char *err, size_t errlen);
/* The game table (connect4.c). */
extern const game_api_t connect4_api;

/* Integer actions and observation tensor (actions.c, docs/PYTHON.md). */
int c4_action_count(int players);
int c4_move_action(const void *state, move_t m);
int c4_observation_size(int players);
void c4_observation(const void *state, int observer, float *out);
/* The position as an SVG picture (svg.c; viewer/picture.c lists it). */
int c4_svg(const void *state, int observer, FILE *out);
