/*
 * Uptown as an SVG picture (viewer/picture.c lists it): the 9x9 grid with its 3x3 boxes, every tile
 * in its colour with its name, and beside the grid one panel per player: groups,
 * captured tiles, rack size, and the rack's tiles when the observer may see them.
 */
#include <stdio.h>

#include "core/svg.h"
#include "uptown.h"

#define CELL    58  /* px per cell */
#define GRID_X  36  /* x of the grid's left edge */
#define GRID_Y  64  /* y of the grid's top edge */
#define PANEL_X 580 /* x of the player panels */

static int popcount32(uint32_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* A tile of colour c named by tile at (x, y), side size. */
static void draw_tile(FILE *out, double x, double y, double size, int c, int tile)
{
    fprintf(out,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%.1f\" "
            "fill=\"%s\" stroke=\"#222\" stroke-width=\"1\"/>\n",
            x, y, size, size, size / 8, svg_player_colour(c));
    svg_text(out, x + size / 2, y + size * 0.66, (int)(size * 0.45), "middle", "#ffffff", 1,
             uptown_tile_name(tile));
}

static void draw_grid(FILE *out, const uptown_state_t *s)
{
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f6f1e4\"/>\n", GRID_X,
            GRID_Y, 9 * CELL, 9 * CELL);
    for (int i = 0; i <= 9; i++) {
        double w = i % 3 ? 1 : 3;
        fprintf(out,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\" "
                "stroke-width=\"%.0f\"/>\n",
                GRID_X + i * CELL, GRID_Y, GRID_X + i * CELL, GRID_Y + 9 * CELL, w);
        fprintf(out,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\" "
                "stroke-width=\"%.0f\"/>\n",
                GRID_X, GRID_Y + i * CELL, GRID_X + 9 * CELL, GRID_Y + i * CELL, w);
    }
    for (int i = 0; i < 9; i++) {
        char label[2] = {(char)('1' + i), 0};
        svg_text(out, GRID_X + i * CELL + CELL / 2.0, GRID_Y - 8, 15, "middle", "#444", 1, label);
        label[0] = (char)('A' + i);
        svg_text(out, GRID_X - 16, GRID_Y + i * CELL + CELL / 2.0 + 5, 15, "middle", "#444", 1,
                 label);
    }
    for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++) {
        int c = uptown_cell_colour(s, cell);
        if (c >= 0)
            draw_tile(out, GRID_X + (cell % 9) * CELL + 4, GRID_Y + (cell / 9) * CELL + 4, CELL - 8,
                      c, uptown_cell_tile(s, cell));
    }
}

static void draw_player(FILE *out, const uptown_state_t *s, int p, int observer, double y)
{
    bool over = uptown_is_terminal(s), moving = !over && s->to_move == p;
    if (moving)
        fprintf(out,
                "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"92\" rx=\"6\" "
                "fill=\"#fff4cc\"/>\n",
                PANEL_X - 6, y - 4, SVG_WIDTH - PANEL_X);
    char t[80];
    snprintf(t, sizeof t, "P%d%s", p + 1, moving ? " \u25C0 to move" : "");
    svg_text(out, PANEL_X, y + 16, 16, "start", "#222", 1, t);
    snprintf(t, sizeof t, "groups %d \u00B7 captured %d", uptown_player_groups(s, p),
             s->captures[p]);
    svg_text(out, PANEL_X, y + 36, 13, "start", "#222", 0, t);
    unsigned colours = uptown_player_colours(s, p);
    double x = PANEL_X;
    for (int c = 0; c < s->colours; c++) {
        if (!(colours >> c & 1))
            continue;
        bool visible = observer < 0 || observer == p;
        int n = popcount32(s->rack[c]);
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", x,
                y + 44, svg_player_colour(c));
        snprintf(t, sizeof t, "rack %d%s", n, s->retired >> c & 1 ? " (retired)" : "");
        svg_text(out, x + 16, y + 55, 12, "start", "#222", 0, t);
        if (visible) {
            int k = 0;
            for (int tile = 0; tile < UPTOWN_TILE_COUNT; tile++)
                if (s->rack[c] >> tile & 1)
                    draw_tile(out, x + k++ * 21, y + 62, 19, c, tile);
        }
        x += 108;
    }
}

int uptown_svg(const void *state, int observer, FILE *out)
{
    const uptown_state_t *s = state;
    int height = GRID_Y + 9 * CELL + 24;
    int panels = 40 + s->players * 100;
    if (panels + 20 > height)
        height = panels + 20;
    char title[96];
    if (uptown_is_terminal(s))
        snprintf(title, sizeof title, "Uptown \u00B7 %d players \u00B7 game over after %d moves",
                 s->players, s->move_count);
    else
        snprintf(title, sizeof title, "Uptown \u00B7 %d players \u00B7 move %d \u00B7 P%d to move",
                 s->players, s->move_count + 1, s->to_move + 1);
    svg_open(out, height, title);
    svg_text(out, 20, 28, 18, "start", "#222", 1, title);
    draw_grid(out, s);
    for (int p = 0; p < s->players; p++)
        draw_player(out, s, p, observer, 56 + p * 100);
    return svg_close(out);
}
