/*
 * Tower Up as an SVG picture (viewer/picture.c lists it): the city drawn from the board file's site
 * coordinates (areas, streets, parks, lakes, each tower's floors and roofs), then the
 * market, the piles, the objectives and one row per player. Everything drawn is public;
 * the draw pile's order is never shown, so every observer gets the same picture.
 */
#include <stdio.h>

#include "core/svg.h"
#include "core/textbuf.h"
#include "towerup.h"

#define CELL       80 /* px between neighbouring site coordinates */
#define SITE       68 /* side of a site's square */
#define TOP        44 /* y of the board's top edge */
#define PLAYER_ROW 30 /* px per player row */

static const char *const floor_fill[5] = {"#262626", "#9a9a9a", "#fbfbf5", "#8b5a2b", "#e0c0ff"};
static const char *const area_fill[TOWERUP_AREA_COUNT] = {"#dbe8f6", "#f7e4c8", "#e0f0d8",
                                                          "#f5dbe7", "#e7e0f5"};
static const char *const grey_fill[2] = {"#d4d4d4", "#c2c2c2"};

/* A floor of colour c (or wild) as a small square with its letter's colour. */
static void draw_floor_icon(FILE *out, double x, double y, double size, int c)
{
    fprintf(out,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
            "stroke=\"#444\" stroke-width=\"0.8\"/>\n",
            x, y, size, size, floor_fill[c]);
}

static const char *area_colour(const towerup_board_t *b, int area)
{
    if (b->area_grey[area])
        return grey_fill[area == b->grey[0] ? 0 : 1];
    return area_fill[area];
}

/* A tower of height h and colour c centred at (cx, bottom) with its roofs. */
static void draw_tower(FILE *out, const towerup_state_t *s, int site, double cx, double bottom)
{
    int h = towerup_height(s, site), c = towerup_site_colour(s, site);
    double fh = h <= 5 ? 8 : 40.0 / h, w = 26;
    for (int l = 1; l <= h; l++) {
        double y = bottom - l * fh;
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                "stroke=\"#444\" stroke-width=\"0.8\"/>\n",
                cx - w / 2, y, w, fh, floor_fill[c]);
        int owner = towerup_roof_owner(s, site, l);
        if (owner < 0)
            continue;
        if (l == h) /* the visible roof: a gable on top */
            fprintf(out,
                    "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\" "
                    "stroke=\"#222\" stroke-width=\"1\"/>\n",
                    cx - w / 2 - 3, y, cx + w / 2 + 3, y, cx, y - 13, svg_player_colour(owner));
        else /* a covered roof: a tag beside its floor */
            fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"%.1f\" fill=\"%s\"/>\n",
                    cx + w / 2 + 1, y, fh, svg_player_colour(owner));
    }
    char num[8];
    snprintf(num, sizeof num, "%d", h);
    svg_text(out, cx + w / 2 + 14, bottom - 2, 12, "middle", "#222", 1, num);
}

static void draw_board(FILE *out, const towerup_state_t *s, double left)
{
    const towerup_board_t *b = s->board;
    for (int i = 0; i < b->street_count; i++) {
        int a = b->street_a[i], z = b->street_b[i];
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#a8a8a8\" "
                "stroke-width=\"6\"%s/>\n",
                left + b->site_x[a] * CELL + CELL / 2.0, TOP + b->site_y[a] * CELL + CELL / 2.0,
                left + b->site_x[z] * CELL + CELL / 2.0, TOP + b->site_y[z] * CELL + CELL / 2.0,
                b->street_border[i] ? " stroke-dasharray=\"6 4\"" : "");
    }
    for (int i = 0; i < b->site_count; i++) {
        double x = left + b->site_x[i] * CELL + (CELL - SITE) / 2.0;
        double y = TOP + b->site_y[i] * CELL + (CELL - SITE) / 2.0;
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" rx=\"7\" fill=\"%s\" "
                "stroke=\"#666\" stroke-width=\"1\"/>\n",
                x, y, SITE, SITE, area_colour(b, b->site_area[i]));
        if (b->park >> i & 1)
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"#3f9b3f\"/>\n", x + 10,
                    y + 10);
        if (b->lake >> i & 1)
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"#3b8fd9\"/>\n",
                    x + SITE - 10, y + 10);
        char id[12]; /* any int */
        snprintf(id, sizeof id, "%d", i);
        svg_text(out, x + 4, y + SITE - 5, 11, "start", "#555", 0, id);
        if (s->site[i])
            draw_tower(out, s, i, x + SITE / 2.0, y + SITE - 6);
    }
}

/* The area legend, the market, the piles and the objectives, from y on; returns the next y. */
static double draw_common(FILE *out, const towerup_state_t *s, double y)
{
    const towerup_board_t *b = s->board;
    double x = 20;
    for (int a = 0; a < TOWERUP_AREA_COUNT; a++) {
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\" "
                "stroke=\"#666\"/>\n",
                x, y - 11, area_colour(b, a));
        svg_text(out, x + 18, y, 13, "start", "#222", 0, b->area_name[a]);
        x += 120;
    }
    svg_text(out, 660, y, 12, "start", "#3f9b3f", 1, "\u25CF park");
    svg_text(out, 720, y, 12, "start", "#3b8fd9", 1, "\u25CF lake");
    y += 30;
    svg_text(out, 20, y + 12, 14, "start", "#222", 1, "Market");
    const towerup_card_t *cards = towerup_cards();
    for (int slot = 0; slot < TOWERUP_MARKET; slot++) {
        const towerup_card_t *c = &cards[towerup_market_card(s, slot)];
        double cx = 90 + slot * 130;
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"120\" height=\"26\" rx=\"4\" "
                "fill=\"#f8f8f8\" stroke=\"#888\"/>\n",
                cx, y - 4);
        char label[16];
        snprintf(label, sizeof label, "%d", slot + 1);
        svg_text(out, cx + 8, y + 14, 12, "start", "#555", 1, label);
        for (int k = 0; k < c->icon_count; k++)
            draw_floor_icon(out, cx + 22 + k * 16, y + 2, 13, c->icons[k]);
        if (c->vehicle >= 0) {
            snprintf(label, sizeof label, "\u2192%c%d", towerup_colour_letter[c->vehicle],
                     c->steps);
            svg_text(out, cx + 112, y + 14, 12, "end", "#222", 0, label);
        }
    }
    char line[160];
    snprintf(line, sizeof line, "draw pile %d \u00B7 discard %d", towerup_draw_count(s),
             towerup_popcount(s->discard));
    svg_text(out, 780, y + 14, 13, "end", "#222", 0, line);
    y += 34;
    textbuf_t tb;
    textbuf_init(&tb, line, sizeof line, 0);
    textbuf_printf(&tb, "Objectives:");
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
        textbuf_printf(&tb, " %s", towerup_objective_id[s->objectives[i]]);
    textbuf_printf(&tb, " \u00B7 reserve K%d G%d W%d B%d", towerup_reserve(s, 0),
                   towerup_reserve(s, 1), towerup_reserve(s, 2), towerup_reserve(s, 3));
    svg_text(out, 20, y + 10, 13, "start", "#222", 0, line);
    return y + 34;
}

static void draw_players(FILE *out, const towerup_state_t *s, double y)
{
    static const char *const heads[] = {"player",          "score", "supply K G W B", "roofs",
                                        "markers K G W B", "cone",  "chips"};
    static const double xs[] = {20, 120, 180, 360, 420, 600, 660};
    for (int i = 0; i < 7; i++)
        svg_text(out, xs[i], y, 12, "start", "#555", 1, heads[i]);
    y += 8;
    for (int p = 0; p < s->players; p++, y += PLAYER_ROW) {
        bool moving = !towerup_is_over(s) && s->to_move == p;
        if (moving)
            fprintf(out,
                    "<rect x=\"12\" y=\"%.1f\" width=\"776\" height=\"%d\" fill=\"#fff4cc\"/>\n", y,
                    PLAYER_ROW - 2);
        fprintf(out, "<circle cx=\"30\" cy=\"%.1f\" r=\"8\" fill=\"%s\"/>\n", y + 14,
                svg_player_colour(p));
        char t[64];
        snprintf(t, sizeof t, "P%d%s", p + 1, moving ? " \u25C0" : "");
        svg_text(out, 44, y + 19, 14, "start", "#222", 1, t);
        snprintf(t, sizeof t, "%d", towerup_score(s, p));
        svg_text(out, 120, y + 19, 14, "start", "#222", 1, t);
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
            draw_floor_icon(out, 180 + c * 44, y + 7, 14, c);
            snprintf(t, sizeof t, "%d", towerup_supply(s, p, c));
            svg_text(out, 198 + c * 44, y + 19, 13, "start", "#222", 0, t);
            snprintf(t, sizeof t, "%d", towerup_marker(s, p, c));
            draw_floor_icon(out, 420 + c * 44, y + 7, 14, c);
            svg_text(out, 438 + c * 44, y + 19, 13, "start", "#222", 0, t);
        }
        snprintf(t, sizeof t, "%d", towerup_roofs_left(s, p));
        svg_text(out, 360, y + 19, 13, "start", "#222", 0, t);
        if (s->cone[p] >= 0)
            snprintf(t, sizeof t, "%d", s->cone[p]);
        else
            snprintf(t, sizeof t, "-");
        svg_text(out, 600, y + 19, 13, "start", "#222", 0, t);
        textbuf_t tb;
        textbuf_init(&tb, t, sizeof t, 0);
        textbuf_printf(&tb, "%s", s->chip_count[p] ? "" : "-");
        for (int i = 0; i < s->chip_count[p]; i++)
            textbuf_printf(&tb, "%s%d", i ? " " : "", s->chips[p][i]);
        svg_text(out, 660, y + 19, 13, "start", "#222", 0, t);
    }
}

int towerup_svg(const void *state, int observer, FILE *out)
{
    (void)observer; /* nothing drawn is hidden from anyone */
    const towerup_state_t *s = state;
    const towerup_board_t *b = s->board;
    int cols = 0, rows = 0;
    for (int i = 0; i < b->site_count; i++) {
        cols = b->site_x[i] + 1 > cols ? b->site_x[i] + 1 : cols;
        rows = b->site_y[i] + 1 > rows ? b->site_y[i] + 1 : rows;
    }
    /* Board files may use any coordinates: scale the city to fit 760 px. */
    double scale = cols * CELL > 760 ? 760.0 / (cols * CELL) : 1.0;
    double board_h = rows * CELL * scale;
    int height = (int)(TOP + board_h + 20 + 30 + 34 + 34 + 16 + s->players * PLAYER_ROW + 16);
    char title[128];
    if (towerup_is_over(s))
        snprintf(title, sizeof title, "Tower Up \u00B7 %s \u00B7 game over after %d turns", b->name,
                 s->turns);
    else if (s->phase == TOWERUP_PHASE_SETUP)
        snprintf(title, sizeof title, "Tower Up \u00B7 %s \u00B7 set-up: %d starting floors left",
                 b->name, s->setup_count - s->setup_done);
    else
        snprintf(title, sizeof title, "Tower Up \u00B7 %s \u00B7 turn %d \u00B7 P%d to move",
                 b->name, s->turns + 1, s->to_move + 1);
    svg_open(out, height, title);
    svg_text(out, 20, 28, 18, "start", "#222", 1, title);
    double left = (SVG_WIDTH - cols * CELL * scale) / 2;
    fprintf(out, "<g transform=\"translate(%.1f %d) scale(%.4f) translate(0 %d)\">\n", left, TOP,
            scale, -TOP);
    draw_board(out, s, 0);
    fprintf(out, "</g>\n");
    double y = draw_common(out, s, TOP + board_h + 20);
    draw_players(out, s, y);
    return svg_close(out);
}
