/* Connect Four position notation (docs/NOTATION.md): `connect4 GRID TURN`. */
#include <stdio.h>
#include <string.h>

#include "core/bits.h"
#include "core/connect4/connect4.h"

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

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        snprintf(err, errlen, __VA_ARGS__);                                                        \
        return -1;                                                                                 \
    } while (0)

static int read_grid(c4_state_t *s, const char *g, char *err, size_t errlen)
{
    if (strlen(g) != (size_t)(C4_ROWS * (C4_COLUMNS + 1) - 1))
        FAIL("grid: must be %d rows of %d cells ('.', '0' or '1'), top row first, joined "
             "by '/'",
             C4_ROWS, C4_COLUMNS);
    for (int r = C4_ROWS - 1, i = 0; r >= 0; r--, i++) {
        const char *row = g + i * (C4_COLUMNS + 1);
        if (r && row[C4_COLUMNS] != '/')
            FAIL("grid: row %d is not %d cells followed by '/'", i + 1, C4_COLUMNS);
        for (int c = 0; c < C4_COLUMNS; c++) {
            uint64_t bit = 1ULL << (7 * c + r);
            if (row[c] == '0' || row[c] == '1')
                s->stones[row[c] - '0'] |= bit;
            else if (row[c] != '.')
                FAIL("grid: '%c' in row %d is not '.', '0' or '1'", row[c], i + 1);
        }
    }
    s->mask = s->stones[0] | s->stones[1];
    for (int c = 0; c < C4_COLUMNS; c++) {
        uint64_t col = s->mask & c4_column_mask(c);
        if (col & (col + (1ULL << (7 * c))))
            FAIL("grid: a stone floats above an empty cell in column %d", c + 1);
    }
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
        FAIL("position: connect4 takes 3 fields (connect4 GRID TURN), not %d", n);
    memset(s, 0, sizeof *s);
    if (read_grid(s, f[1], err, errlen) < 0)
        return -1;
    if (strlen(f[2]) != 1 || (f[2][0] != '0' && f[2][0] != '1'))
        FAIL("turn: '%s' is not the player to move, 0 or 1", f[2]);
    int p = f[2][0] - '0';
    int n0 = bits_count64(s->stones[0]), n1 = bits_count64(s->stones[1]);
    if (n0 - n1 > 1 || n1 - n0 > 1)
        FAIL("grid: player 0 has %d stones and player 1 %d (players alternate)", n0, n1);
    if (n0 != n1 && (n0 > n1) != (p == 1))
        FAIL("turn: player %d has a stone more, so player %d is to move", n0 > n1 ? 0 : 1,
             n0 > n1 ? 1 : 0);
    bool w0 = c4_has_four(s->stones[0]), w1 = c4_has_four(s->stones[1]);
    if (w0 && w1)
        FAIL("grid: both players have four in a line");
    if ((w0 && p == 0) || (w1 && p == 1))
        FAIL("turn: player %d has four in a line, so moved last and is not to move", p);
    s->to_move = (uint8_t)p;
    s->first_player = (uint8_t)(n0 == n1 ? p : n0 > n1 ? 0 : 1);
    s->winner = (int8_t)(w0 ? 0 : w1 ? 1 : -1);
    s->stone_count = (uint8_t)(n0 + n1);
    s->hash = c4_hash_full(s);
    *view = -1;
    return 0;
}
