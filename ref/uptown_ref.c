/* The slow, obvious Uptown reference: see uptown_ref.h. Written from RULES.md Part 2 and
   core/rules-notes.md only; every question is answered by looking at the whole board. */
#include "ref/uptown_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UT_SIZE       9                               /* rows and columns of the board */
#define UT_TILE_COUNT 28                              /* tiles per colour */
#define UT_RACK_SIZE  5                               /* tiles in a full rack */
#define UT_TURNS_EACH 24                              /* turns per player with 3-5 players */
#define UT_COLOUR_MAX 5                               /* most colours in a game */
#define UT_OUT_MAX    (UT_COLOUR_MAX * UT_TILE_COUNT) /* most tiles that can leave play */
#define UT_EMPTY      '.'                             /* an empty cell */

/* Tile indices: 0..8 the numbers 1-9 (a column), 9..17 the letters A-I (a row),
   18..26 the symbols s1-s9 (a box), 27 the `$` (anywhere). */
#define UT_TILE_LETTER 9
#define UT_TILE_SYMBOL 18
#define UT_TILE_DOLLAR 27

/* One tile that has left play (captured or discarded). */
typedef struct ut_ref_out {
    int colour; /* colour of the tile */
    int tile;   /* tile index */
    int player; /* capturer (captures), or the player who discarded it */
} ut_ref_out_t;

/* One legal move, before it is written as text. */
typedef struct ut_ref_move {
    int colour;  /* colour of the tile played or discarded */
    int tile;    /* tile index */
    int row;     /* target row 0..8 (placements) */
    int col;     /* target column 0..8 (placements) */
    int capture; /* 1 if the target cell holds another player's tile */
    int discard; /* 1 for a discard when stuck */
} ut_ref_move_t;

struct ut_ref {
    int players;                            /* 2..5 */
    int colours;                            /* players, or 4 with 2 players */
    int to_move;                            /* player whose turn it is */
    int turns;                              /* moves played so far */
    char board[UT_SIZE][UT_SIZE];           /* UT_EMPTY or '0' + colour */
    int board_tile[UT_SIZE][UT_SIZE];       /* tile index on the cell, -1 if empty */
    int pile[UT_COLOUR_MAX][UT_TILE_COUNT]; /* each colour's tiles in draw order */
    int pile_next[UT_COLOUR_MAX];           /* index in pile of the next draw */
    int rack[UT_COLOUR_MAX][UT_RACK_SIZE];  /* tile indices in each rack */
    int rack_size[UT_COLOUR_MAX];           /* tiles in each rack */
    int retired[UT_COLOUR_MAX];             /* 2 players: the colour is retired */
    int captures[UT_COLOUR_MAX];            /* tiles captured, per player */
    ut_ref_out_t captured[UT_OUT_MAX];      /* captured tiles, in order */
    int captured_count;                     /* entries in captured */
    ut_ref_out_t discarded[UT_OUT_MAX];     /* discarded tiles, in order */
    int discarded_count;                    /* entries in discarded */
};

/* Parses "1".."9", "A".."I", "s1".."s9" or "$" into a tile index, -1 if none. */
static int tile_parse(const char *s)
{
    if (!s)
        return -1;
    if (s[0] >= '1' && s[0] <= '9' && s[1] == 0)
        return s[0] - '1';
    if (s[0] >= 'A' && s[0] <= 'I' && s[1] == 0)
        return UT_TILE_LETTER + (s[0] - 'A');
    if (s[0] == 's' && s[1] >= '1' && s[1] <= '9' && s[2] == 0)
        return UT_TILE_SYMBOL + (s[1] - '1');
    if (s[0] == '$' && s[1] == 0)
        return UT_TILE_DOLLAR;
    return -1;
}

/* Writes a tile's text (at most 2 chars and a NUL) into buf. */
static void tile_text(int tile, char *buf)
{
    if (tile < UT_TILE_LETTER) {
        buf[0] = (char)('1' + tile);
        buf[1] = 0;
    } else if (tile < UT_TILE_SYMBOL) {
        buf[0] = (char)('A' + tile - UT_TILE_LETTER);
        buf[1] = 0;
    } else if (tile < UT_TILE_DOLLAR) {
        buf[0] = 's';
        buf[1] = (char)('1' + tile - UT_TILE_SYMBOL);
        buf[2] = 0;
    } else {
        buf[0] = '$';
        buf[1] = 0;
    }
}

/* Whether the tile may go on the cell: its column, its row, its box, or anywhere. */
static int tile_allows(int tile, int row, int col)
{
    if (tile < UT_TILE_LETTER)
        return col == tile;
    if (tile < UT_TILE_SYMBOL)
        return row == tile - UT_TILE_LETTER;
    if (tile < UT_TILE_DOLLAR)
        return (row / 3) * 3 + col / 3 == tile - UT_TILE_SYMBOL;
    return 1;
}

/* Whether the player owns the colour (2 players: colours p and p+2). */
static int player_owns(const ut_ref_t *g, int player, int colour)
{
    if (g->players == 2)
        return colour == player || colour == player + 2;
    return colour == player;
}

/* Groups of one colour: flood fill from every unvisited cell of that colour. */
static int board_count_groups(const char board[UT_SIZE][UT_SIZE], char colour)
{
    int seen[UT_SIZE][UT_SIZE];
    int stack[UT_SIZE * UT_SIZE];
    int groups = 0;
    memset(seen, 0, sizeof seen);
    for (int r = 0; r < UT_SIZE; r++) {
        for (int c = 0; c < UT_SIZE; c++) {
            if (board[r][c] != colour || seen[r][c])
                continue;
            groups++;
            int top = 0;
            stack[top++] = r * UT_SIZE + c;
            seen[r][c] = 1;
            while (top > 0) {
                int cell = stack[--top];
                int cr = cell / UT_SIZE, cc = cell % UT_SIZE;
                static const int dr[4] = {-1, 1, 0, 0};
                static const int dc[4] = {0, 0, -1, 1};
                for (int d = 0; d < 4; d++) {
                    int nr = cr + dr[d], nc = cc + dc[d];
                    if (nr < 0 || nr >= UT_SIZE || nc < 0 || nc >= UT_SIZE)
                        continue;
                    if (board[nr][nc] != colour || seen[nr][nc])
                        continue;
                    seen[nr][nc] = 1;
                    stack[top++] = nr * UT_SIZE + nc;
                }
            }
        }
    }
    return groups;
}

/* Whether removing the tile on (row, col) leaves the rest of its group in one piece:
   the colour's group count must not rise (it drops by one for a singleton). */
static int capture_keeps_group(const ut_ref_t *g, int row, int col)
{
    char copy[UT_SIZE][UT_SIZE];
    char colour = g->board[row][col];
    memcpy(copy, g->board, sizeof copy);
    int before = board_count_groups(copy, colour);
    copy[row][col] = UT_EMPTY;
    int after = board_count_groups(copy, colour);
    return after <= before;
}

/* Whether the player may put a tile on the cell: empty, or a capturable tile. */
static int cell_open_to(const ut_ref_t *g, int player, int row, int col, int *capture)
{
    char here = g->board[row][col];
    *capture = 0;
    if (here == UT_EMPTY)
        return 1;
    if (player_owns(g, player, here - '0'))
        return 0;
    if (!capture_keeps_group(g, row, col))
        return 0;
    *capture = 1;
    return 1;
}

/* Whether a colour's rack may be played from now. */
static int colour_active(const ut_ref_t *g, int colour)
{
    return !g->retired[colour] && g->rack_size[colour] > 0;
}

/* Every legal move of the player to move, into list; returns the count. */
static int moves_list(const ut_ref_t *g, ut_ref_move_t *list)
{
    int n = 0;
    int p = g->to_move;
    int open[UT_SIZE][UT_SIZE];    /* the player may put a tile on the cell */
    int capture[UT_SIZE][UT_SIZE]; /* doing so captures */
    if (ut_ref_over(g))
        return 0;
    /* Which cells the player may use does not depend on the tile: decide once per cell. */
    for (int r = 0; r < UT_SIZE; r++)
        for (int c = 0; c < UT_SIZE; c++)
            open[r][c] = cell_open_to(g, p, r, c, &capture[r][c]);
    for (int colour = 0; colour < g->colours; colour++) {
        if (!player_owns(g, p, colour) || !colour_active(g, colour))
            continue;
        for (int i = 0; i < g->rack_size[colour]; i++) {
            int tile = g->rack[colour][i];
            for (int r = 0; r < UT_SIZE; r++) {
                for (int c = 0; c < UT_SIZE; c++) {
                    if (!tile_allows(tile, r, c) || !open[r][c])
                        continue;
                    ut_ref_move_t m = {colour, tile, r, c, capture[r][c], 0};
                    list[n++] = m;
                }
            }
        }
    }
    if (n > 0)
        return n;
    /* Stuck: any rack tile of the player's active colours may be discarded. */
    for (int colour = 0; colour < g->colours; colour++) {
        if (!player_owns(g, p, colour) || !colour_active(g, colour))
            continue;
        for (int i = 0; i < g->rack_size[colour]; i++) {
            ut_ref_move_t m = {colour, g->rack[colour][i], 0, 0, 0, 1};
            list[n++] = m;
        }
    }
    return n;
}

/* Canonical text of a move (FORMATS.md §3). */
static void move_text(const ut_ref_t *g, const ut_ref_move_t *m, char out[32])
{
    char tile[3];
    char prefix[4] = "";
    tile_text(m->tile, tile);
    if (g->players == 2)
        snprintf(prefix, sizeof prefix, "%d:", m->colour == g->to_move ? 0 : 1);
    if (m->discard)
        snprintf(out, 32, "%s-%s", prefix, tile);
    else
        snprintf(out, 32, "%s%s@%c%c%s", prefix, tile, 'A' + m->row, '1' + m->col,
                 m->capture ? "x" : "");
}

/* Removes a tile from a colour's rack, keeping the others in order. */
static void rack_remove(ut_ref_t *g, int colour, int tile)
{
    int k = 0;
    for (int i = 0; i < g->rack_size[colour]; i++)
        if (g->rack[colour][i] != tile)
            g->rack[colour][k++] = g->rack[colour][i];
    g->rack_size[colour] = k;
}

/* Applies a legal move: place (capturing) or discard, draw, pass the turn. */
static void move_apply(ut_ref_t *g, const ut_ref_move_t *m)
{
    int p = g->to_move;
    rack_remove(g, m->colour, m->tile);
    if (m->discard) {
        ut_ref_out_t o = {m->colour, m->tile, p};
        g->discarded[g->discarded_count++] = o;
    } else {
        if (m->capture) {
            ut_ref_out_t o = {g->board[m->row][m->col] - '0', g->board_tile[m->row][m->col], p};
            g->captured[g->captured_count++] = o;
            g->captures[p]++;
        }
        g->board[m->row][m->col] = (char)('0' + m->colour);
        g->board_tile[m->row][m->col] = m->tile;
    }
    /* Draw one of the same colour; with 2 players an empty pile retires the rack. */
    if (g->pile_next[m->colour] < UT_TILE_COUNT) {
        g->rack[m->colour][g->rack_size[m->colour]++] =
            g->pile[m->colour][g->pile_next[m->colour]++];
    } else if (g->players == 2) {
        g->retired[m->colour] = 1;
    }
    g->turns++;
    g->to_move = (g->to_move + 1) % g->players;
}

ut_ref_t *ut_ref_new(int players, int first_player, const char *const piles[][28])
{
    if (players < 2 || players > 5 || first_player < 0 || first_player >= players || !piles)
        return NULL;
    ut_ref_t *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->players = players;
    g->colours = players == 2 ? 4 : players;
    g->to_move = first_player;
    memset(g->board, UT_EMPTY, sizeof g->board);
    for (int r = 0; r < UT_SIZE; r++)
        for (int c = 0; c < UT_SIZE; c++)
            g->board_tile[r][c] = -1;
    for (int colour = 0; colour < g->colours; colour++) {
        int seen[UT_TILE_COUNT] = {0};
        for (int i = 0; i < UT_TILE_COUNT; i++) {
            int tile = tile_parse(piles[colour][i]);
            if (tile < 0 || seen[tile]) {
                free(g);
                return NULL;
            }
            seen[tile] = 1;
            g->pile[colour][i] = tile;
        }
        for (int i = 0; i < UT_RACK_SIZE; i++)
            g->rack[colour][i] = g->pile[colour][i];
        g->rack_size[colour] = UT_RACK_SIZE;
        g->pile_next[colour] = UT_RACK_SIZE;
    }
    return g;
}

ut_ref_t *ut_ref_clone(const ut_ref_t *g)
{
    ut_ref_t *copy = malloc(sizeof *copy);
    if (copy)
        *copy = *g;
    return copy;
}

void ut_ref_free(ut_ref_t *g) { free(g); }

int ut_ref_moves(const ut_ref_t *g, char (*out)[32], int max)
{
    ut_ref_move_t list[UT_REF_MAX_MOVES];
    int n = moves_list(g, list);
    for (int i = 0; i < n && i < max; i++)
        move_text(g, &list[i], out[i]);
    return n;
}

int ut_ref_play(ut_ref_t *g, const char *move)
{
    ut_ref_move_t list[UT_REF_MAX_MOVES];
    int n = moves_list(g, list);
    if (!move)
        return -1;
    for (int i = 0; i < n; i++) {
        char text[32];
        move_text(g, &list[i], text);
        if (strcmp(text, move) == 0) {
            move_apply(g, &list[i]);
            return 0;
        }
    }
    return -1;
}

int ut_ref_over(const ut_ref_t *g)
{
    if (g->players == 2) {
        for (int colour = 0; colour < g->colours; colour++)
            if (!g->retired[colour])
                return 0;
        return 1;
    }
    return g->turns >= UT_TURNS_EACH * g->players;
}

int ut_ref_to_move(const ut_ref_t *g) { return g->to_move; }

void ut_ref_result(const ut_ref_t *g, int *groups, int *captures, int *ranks, int *turns)
{
    int grp[UT_COLOUR_MAX] = {0};
    for (int colour = 0; colour < g->colours; colour++)
        grp[colour % g->players] += board_count_groups(g->board, (char)('0' + colour));
    for (int p = 0; p < g->players; p++) {
        if (groups)
            groups[p] = grp[p];
        if (captures)
            captures[p] = g->captures[p];
        if (ranks) {
            /* Rank 1 + players with fewer groups, or as many groups and fewer captures. */
            int rank = 1;
            for (int q = 0; q < g->players; q++)
                if (grp[q] < grp[p] || (grp[q] == grp[p] && g->captures[q] < g->captures[p]))
                    rank++;
            ranks[p] = rank;
        }
    }
    if (turns)
        *turns = g->turns;
}

int ut_ref_count_groups(const char *const rows[9], char colour)
{
    char board[UT_SIZE][UT_SIZE];
    for (int r = 0; r < UT_SIZE; r++)
        for (int c = 0; c < UT_SIZE; c++)
            board[r][c] = rows[r][c];
    return board_count_groups(board, colour);
}

void ut_ref_board(const ut_ref_t *g, char rows[9][10])
{
    for (int r = 0; r < UT_SIZE; r++) {
        memcpy(rows[r], g->board[r], UT_SIZE);
        rows[r][UT_SIZE] = 0;
    }
}

/* Adds a tile to a colour's tally; -1 if the tile or colour is out of range. */
static int tally_add(int seen[UT_COLOUR_MAX][UT_TILE_COUNT], int colours, int colour, int tile)
{
    if (colour < 0 || colour >= colours || tile < 0 || tile >= UT_TILE_COUNT)
        return -1;
    seen[colour][tile]++;
    return 0;
}

int ut_ref_check(const ut_ref_t *g)
{
    int seen[UT_COLOUR_MAX][UT_TILE_COUNT];
    int bad = 0;
    memset(seen, 0, sizeof seen);
    for (int colour = 0; colour < g->colours; colour++) {
        for (int i = g->pile_next[colour]; i < UT_TILE_COUNT; i++)
            bad |= tally_add(seen, g->colours, colour, g->pile[colour][i]);
        if (g->rack_size[colour] < 0 || g->rack_size[colour] > UT_RACK_SIZE)
            return -1;
        for (int i = 0; i < g->rack_size[colour]; i++)
            bad |= tally_add(seen, g->colours, colour, g->rack[colour][i]);
    }
    for (int r = 0; r < UT_SIZE; r++) {
        for (int c = 0; c < UT_SIZE; c++) {
            if (g->board[r][c] == UT_EMPTY) {
                bad |= g->board_tile[r][c] != -1 ? -1 : 0;
                continue;
            }
            bad |= tally_add(seen, g->colours, g->board[r][c] - '0', g->board_tile[r][c]);
        }
    }
    int by_player[UT_COLOUR_MAX] = {0};
    for (int i = 0; i < g->captured_count; i++) {
        const ut_ref_out_t *o = &g->captured[i];
        bad |= tally_add(seen, g->colours, o->colour, o->tile);
        if (o->player < 0 || o->player >= g->players || player_owns(g, o->player, o->colour))
            return -1;
        by_player[o->player]++;
    }
    for (int i = 0; i < g->discarded_count; i++)
        bad |= tally_add(seen, g->colours, g->discarded[i].colour, g->discarded[i].tile);
    if (bad)
        return -1;
    for (int colour = 0; colour < g->colours; colour++)
        for (int t = 0; t < UT_TILE_COUNT; t++)
            if (seen[colour][t] != 1)
                return -1;
    for (int p = 0; p < g->players; p++)
        if (by_player[p] != g->captures[p])
            return -1;
    /* Every turn put one tile on the board or discarded one. */
    int used = 0;
    for (int colour = 0; colour < g->colours; colour++)
        used += UT_TILE_COUNT - (UT_TILE_COUNT - g->pile_next[colour]) - g->rack_size[colour];
    if (used != g->turns)
        return -1;
    return 0;
}
