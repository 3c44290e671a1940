/* Connect Four for people: the text diagram of `skyline show` and plain-language moves. */
#include <stdio.h>

#include "connect4.h"
#include "core/textbuf.h"

/* The player whose stone is on (column c, row r), or -1. */
static int stone_at(const c4_state_t *s, int c, int r)
{
    uint64_t bit = 1ULL << (7 * c + r);
    return s->stones[0] & bit ? 0 : s->stones[1] & bit ? 1 : -1;
}

/* A stone of player p (● and ○, or X and O), or an empty cell. */
static void put_stone(textbuf_t *t, int p)
{
    if (p < 0) {
        textbuf_colour(t, TEXTBUF_GREY);
        textbuf_sym(t, "·", ".");
    } else {
        textbuf_colour(t, TEXTBUF_BOLD);
        textbuf_colour(t, textbuf_player_colour(p));
        textbuf_sym(t, p == 0 ? "●" : "○", p == 0 ? "X" : "O");
    }
    textbuf_colour(t, TEXTBUF_RESET);
}

void c4_diagram(const void *state, int observer, unsigned flags, char *buf, size_t len)
{
    const c4_state_t *s = state;
    (void)observer; /* nothing is hidden */
    textbuf_t t;
    textbuf_init(&t, buf, len, flags);
    textbuf_printf(&t, "Connect Four, %d stones dropped, P%d moved first\n", s->stone_count,
                   s->first_player + 1);
    for (int r = C4_ROWS - 1; r >= 0; r--) {
        textbuf_sym(&t, "  │", "  |");
        for (int c = 0; c < C4_COLUMNS; c++) {
            textbuf_printf(&t, " ");
            put_stone(&t, stone_at(s, c, r));
        }
        textbuf_sym(&t, " │\n", " |\n");
    }
    textbuf_sym(&t, "  └", "  +");
    textbuf_repeat(&t, "─", "-", 2 * C4_COLUMNS + 1);
    textbuf_sym(&t, "┘\n", "+\n");
    textbuf_printf(&t, "   ");
    for (int c = 0; c < C4_COLUMNS; c++)
        textbuf_printf(&t, " %d", c + 1);
    textbuf_printf(&t, "\n  ");
    for (int p = 0; p < 2; p++) {
        textbuf_printf(&t, "%s", p ? ", " : "");
        put_stone(&t, p);
        textbuf_printf(&t, " P%d", p + 1);
    }
    textbuf_printf(&t, "\n");
    if (s->winner >= 0)
        textbuf_printf(&t, "P%d has four in a line.\n", s->winner + 1);
    else if (s->stone_count == C4_CELLS)
        textbuf_printf(&t, "The board is full: a draw.\n");
}

void c4_move_describe(const void *state, move_t m, char *buf, size_t len)
{
    const c4_state_t *s = state;
    int c = (int)m, r = 0;
    while (r < C4_ROWS && stone_at(s, c, r) >= 0)
        r++;
    c4_state_t after = *s;
    c4_undo_t u;
    c4_make(&after, m, &u);
    snprintf(buf, len, "drops a stone in column %d (row %d from the bottom)%s", c + 1, r + 1,
             after.winner >= 0               ? "; four in a line: wins"
             : after.stone_count == C4_CELLS ? "; the board is full: a draw"
                                             : "");
}
