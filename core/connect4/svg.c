/*
 * Connect Four as an SVG picture (viewer/picture.c lists it): the blue frame with its 7 x 6 holes,
 * P1's stones red and P2's yellow, the column numbers of the move notation, who moved
 * first, and whose turn it is or how the game ended.
 */
#include <stdio.h>

#include "connect4.h"
#include "core/svg.h"

#define HOLE    84 /* px per hole */
#define FRAME_Y 60 /* y of the frame's top */

/* The stones: red for P1's (player 0), yellow for P2's. */
static const char *const STONE[2] = {"#d62728", "#f2c400"};

int c4_svg(const void *state, int observer, FILE *out)
{
    (void)observer; /* a game of perfect information */
    const c4_state_t *s = state;
    int left = (SVG_WIDTH - C4_COLUMNS * HOLE) / 2;
    int height = FRAME_Y + C4_ROWS * HOLE + 70;
    char title[96];
    if (s->winner >= 0)
        snprintf(title, sizeof title, "Connect Four \u00B7 P%d wins after %d moves", s->winner + 1,
                 s->stone_count);
    else if (c4_is_over(s))
        snprintf(title, sizeof title, "Connect Four \u00B7 draw after %d moves", s->stone_count);
    else
        snprintf(title, sizeof title, "Connect Four \u00B7 move %d \u00B7 P%d to move",
                 s->stone_count + 1, s->to_move + 1);
    svg_open(out, height, title);
    svg_text(out, 20, 30, 18, "start", "#222", 1, title);
    fprintf(out,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"12\" fill=\"#1f4fb4\"/>\n",
            left - 8, FRAME_Y, C4_COLUMNS * HOLE + 16, C4_ROWS * HOLE + 8);
    for (int c = 0; c < C4_COLUMNS; c++) {
        for (int r = 0; r < C4_ROWS; r++) {
            uint64_t bit = 1ULL << (7 * c + r);
            const char *fill = s->stones[0] & bit   ? STONE[0]
                               : s->stones[1] & bit ? STONE[1]
                                                    : "#ffffff";
            fprintf(out,
                    "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\" stroke=\"#123\" "
                    "stroke-width=\"1\"/>\n",
                    left + c * HOLE + HOLE / 2, FRAME_Y + 4 + (C4_ROWS - 1 - r) * HOLE + HOLE / 2,
                    HOLE / 2 - 7, fill);
        }
        char label[4];
        snprintf(label, sizeof label, "%d", c + 1);
        svg_text(out, left + c * HOLE + HOLE / 2.0, FRAME_Y + C4_ROWS * HOLE + 34, 18, "middle",
                 "#222", 1, label);
    }
    for (int p = 0; p < 2; p++) {
        int x = 20 + p * 140, y = height - 12;
        fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"9\" fill=\"%s\"/>\n", x + 9, y - 5, STONE[p]);
        char t[32];
        snprintf(t, sizeof t, "P%d%s", p + 1, p == s->first_player ? " (first)" : "");
        svg_text(out, x + 24, y, 15, "start", "#222", 1, t);
    }
    return svg_close(out);
}
