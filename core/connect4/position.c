/* Connect Four position notation (docs/NOTATION.md): `connect4 GRID TURN`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bits.h"
#include "core/connect4/connect4.h"
#include "core/input.h"

void c4_position_write(const void *state, int observer, char *buf, size_t len)
{
    (void)observer; /* nothing is hidden */
    const c4_state_t *s = state;
    char text[64], *t = text;
    t += sprintf(t, "connect4 ");
    for (int r = C4_ROWS - 1; r >= 0; r--) {
        for (int c = 0; c < C4_COLUMNS; c++) {
            uint64_t bit = 1ULL << (7 * c + r);
            *t++ = (s->stones[0] & bit) ? '0' : (s->stones[1] & bit) ? '1' : '.';
        }
        *t++ = r ? '/' : ' ';
    }
    sprintf(t, "%d", s->to_move);
    snprintf(buf, len, "%s", text);
}

/* An error naming the field at fault and quoting its text (NULL: no single text). */
#define FAIL(field, input, ...) return input_fail(err, errlen, field, input, __VA_ARGS__)

static int read_grid(c4_state_t *s, const char *g, char *err, size_t errlen)
{
    if (strlen(g) != (size_t)(C4_ROWS * (C4_COLUMNS + 1) - 1))
        FAIL("grid", g,
             "must be %d rows of %d cells ('.', '0' or '1'), top row first, joined "
             "by '/'",
             C4_ROWS, C4_COLUMNS);
    for (int r = C4_ROWS - 1, i = 0; r >= 0; r--, i++) {
        const char *row = g + i * (C4_COLUMNS + 1);
        if (r && row[C4_COLUMNS] != '/')
            FAIL("grid", g, "row %d is not %d cells followed by '/'", i + 1, C4_COLUMNS);
        for (int c = 0; c < C4_COLUMNS; c++) {
            uint64_t bit = 1ULL << (7 * c + r);
            if (row[c] == '0' || row[c] == '1')
                s->stones[row[c] - '0'] |= bit;
            else if (row[c] != '.')
                FAIL("grid", g, "'%c' in row %d is not '.', '0' or '1'", row[c], i + 1);
        }
    }
    s->mask = s->stones[0] | s->stones[1];
    for (int c = 0; c < C4_COLUMNS; c++) {
        uint64_t col = s->mask & c4_column_mask(c);
        if (col & (col + (1ULL << (7 * c))))
            FAIL("grid", g, "a stone floats above an empty cell in column %d", c + 1);
    }
    return 0;
}

/*
 * Whether the stones can have been dropped one at a time, players alternating from first,
 * each stone on its column's stack (row by row from the bottom). A depth-first search over
 * how many stones of each column are down, remembering the dead ends: at most 7^7 states.
 * Returns 1, 0, or -1 when out of memory.
 */
typedef struct drop_search {
    uint64_t stones[2];
    int height[C4_COLUMNS], down[C4_COLUMNS], stride[C4_COLUMNS];
    int total, first;
    uint8_t *dead; /* one bit per state */
} drop_search_t;

static bool drop_from(drop_search_t *d, int placed, int index)
{
    if (placed == d->total)
        return true;
    if (d->dead[index >> 3] >> (index & 7) & 1)
        return false;
    int p = (d->first + placed) & 1;
    for (int c = 0; c < C4_COLUMNS; c++) {
        if (d->down[c] == d->height[c] || !(d->stones[p] >> (7 * c + d->down[c]) & 1))
            continue;
        d->down[c]++;
        bool ok = drop_from(d, placed + 1, index + d->stride[c]);
        d->down[c]--;
        if (ok)
            return true;
    }
    d->dead[index >> 3] |= (uint8_t)(1u << (index & 7));
    return false;
}

static int drop_order_exists(uint64_t stones0, uint64_t stones1, int first)
{
    drop_search_t d = {.stones = {stones0, stones1}, .first = first};
    int states = 1;
    for (int c = 0; c < C4_COLUMNS; c++) {
        d.height[c] = bits_count64((stones0 | stones1) & c4_column_mask(c));
        d.stride[c] = states;
        states *= d.height[c] + 1;
        d.total += d.height[c];
    }
    d.dead = calloc((size_t)states / 8 + 1, 1);
    if (!d.dead)
        return -1;
    bool ok = drop_from(&d, 0, 0);
    free(d.dead);
    return ok;
}

/*
 * Whether the grid is reached by a game: the stones drop in an alternating order from
 * first, and once a player has four in a line, the last stone (the top of its column)
 * made every line of four there is (one stone can finish several lines; two lines apart
 * cannot both be last); before it nobody had four. 0, or -1 with err filled.
 */
static int check_history(const c4_state_t *s, int first, int winner, char *err, size_t errlen)
{
    int r;
    if (winner < 0) {
        r = drop_order_exists(s->stones[0], s->stones[1], first);
    } else {
        bool made = false;
        r = 0;
        for (int c = 0; c < C4_COLUMNS && r == 0; c++) {
            /* The column's stones stand on its bottom cell: the top one is below the
               next free cell. */
            uint64_t top = ((s->mask & c4_column_mask(c)) + (1ULL << (7 * c))) >> 1;
            if (!(s->stones[winner] & top) || c4_has_four(s->stones[winner] & ~top))
                continue;
            made = true;
            uint64_t before[2] = {s->stones[0], s->stones[1]};
            before[winner] &= ~top;
            r = drop_order_exists(before[0], before[1], first);
        }
        if (!made)
            FAIL("grid", NULL, "player %d has lines of four that no single last stone made",
                 winner);
    }
    if (r < 0)
        FAIL("position", NULL, "out of memory");
    if (!r)
        FAIL("grid", NULL,
             "no game reaches it (no order of drops alternates the players from "
             "player %d)",
             first);
    return 0;
}

int c4_position_read(void *state, const char *text, const game_options_t *opt, pcg32_t *rng,
                     int *view, char *err, size_t errlen)
{
    (void)opt, (void)rng; /* no options, nothing hidden */
    c4_state_t *s = state;
    char copy[GAME_POSITION_MAX], *f[4];
    snprintf(copy, sizeof copy, "%s", text);
    int n = game_position_split(copy, f, 4, err, errlen);
    if (n < 0)
        return -1;
    if (n != 3 || strcmp(f[0], "connect4"))
        FAIL("position", NULL, "connect4 takes 3 fields (connect4 GRID TURN), not %d", n);
    memset(s, 0, sizeof *s);
    if (read_grid(s, f[1], err, errlen) < 0)
        return -1;
    if (strlen(f[2]) != 1 || (f[2][0] != '0' && f[2][0] != '1'))
        FAIL("turn", f[2], "not the player to move, 0 or 1");
    int p = f[2][0] - '0';
    int n0 = bits_count64(s->stones[0]), n1 = bits_count64(s->stones[1]);
    if (n0 - n1 > 1 || n1 - n0 > 1)
        FAIL("grid", f[1], "player 0 has %d stones and player 1 %d (players alternate)", n0, n1);
    if (n0 != n1 && (n0 > n1) != (p == 1))
        FAIL("turn", f[2], "player %d has a stone more, so player %d is to move", n0 > n1 ? 0 : 1,
             n0 > n1 ? 1 : 0);
    bool w0 = c4_has_four(s->stones[0]), w1 = c4_has_four(s->stones[1]);
    if (w0 && w1)
        FAIL("grid", f[1], "both players have four in a line");
    if ((w0 && p == 0) || (w1 && p == 1))
        FAIL("turn", f[2], "player %d has four in a line, so moved last and is not to move", p);
    int first = n0 == n1 ? p : n0 > n1 ? 0 : 1;
    if (check_history(s, first, w0 ? 0 : w1 ? 1 : -1, err, errlen) < 0)
        return -1;
    s->to_move = (uint8_t)p;
    s->first_player = (uint8_t)first;
    s->winner = (int8_t)(w0 ? 0 : w1 ? 1 : -1);
    s->stone_count = (uint8_t)(n0 + n1);
    s->hash = c4_hash_full(s);
    *view = -1;
    return 0;
}
