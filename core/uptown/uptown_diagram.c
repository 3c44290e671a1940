/* Uptown for people: the text diagram of `skyline show` and plain-language moves. */
#include <stdio.h>
#include <string.h>

#include "core/textbuf.h"
#include "uptown.h"

/* Tiles of a mask as their names, separated by blanks, in tile order. */
static void put_tiles(textbuf_t *t, uint32_t mask)
{
    bool first = true;
    for (int i = 0; i < UPTOWN_TILE_COUNT; i++)
        if (mask >> i & 1) {
            textbuf_printf(t, "%s%s", first ? "" : " ", uptown_tile_name(i));
            first = false;
        }
}

static int tile_count(uint32_t mask)
{
    int n = 0;
    for (; mask; mask &= mask - 1)
        n++;
    return n;
}

/* One 4-character cell: colour number (from 1), ':' and tile name, or an empty mark. */
static void put_cell(textbuf_t *t, const uptown_state_t *s, int cell)
{
    int c = uptown_cell_colour(s, cell);
    if (c < 0) {
        textbuf_colour(t, TEXTBUF_GREY);
        textbuf_sym(t, " ·  ", " .  ");
        textbuf_colour(t, TEXTBUF_RESET);
        return;
    }
    textbuf_colour(t, TEXTBUF_BOLD);
    textbuf_colour(t, textbuf_player_colour(uptown_colour_owner(s, c)));
    textbuf_printf(t, "%d:%-2s", c + 1, uptown_tile_name(uptown_cell_tile(s, cell)));
    textbuf_colour(t, TEXTBUF_RESET);
}

/* A horizontal rule of the grid: left, middle and right corner symbols. */
static void put_rule(textbuf_t *t, const char *l, const char *m, const char *r)
{
    textbuf_printf(t, "  ");
    for (int box = 0; box < 3; box++) {
        textbuf_sym(t, box == 0 ? l : m, "+");
        textbuf_repeat(t, "─", "-", 16);
    }
    textbuf_sym(t, r, "+");
    textbuf_printf(t, "\n");
}

static void put_grid(textbuf_t *t, const uptown_state_t *s)
{
    textbuf_printf(t, "   ");
    for (int col = 0; col < 9; col++)
        textbuf_printf(t, "%s %d%s", col % 3 == 0 ? "  " : "", col + 1, col < 8 ? "   " : "\n");
    for (int row = 0; row < 9; row++) {
        if (row % 3 == 0)
            put_rule(t, row ? "├" : "┌", row ? "┼" : "┬", row ? "┤" : "┐");
        textbuf_printf(t, "%c ", 'A' + row);
        for (int col = 0; col < 9; col++) {
            if (col % 3 == 0)
                textbuf_sym(t, "│ ", "| ");
            put_cell(t, s, row * 9 + col);
            textbuf_printf(t, " ");
        }
        textbuf_sym(t, "│", "|");
        textbuf_printf(t, "\n");
    }
    put_rule(t, "└", "┴", "┘");
    textbuf_printf(t, "  boxes s1-s9 row by row; a cell shows colour:tile\n");
}

/* A colour's rack and pile as observer sees them. */
static void put_colour(textbuf_t *t, const uptown_state_t *s, int c, int observer)
{
    int owner = uptown_colour_owner(s, c);
    int pile = UPTOWN_TILE_COUNT - s->pile_pos[c];
    uint32_t rack = s->rack[c];
    textbuf_printf(t, "    colour %d  ", c + 1);
    if (s->retired >> c & 1) {
        textbuf_printf(t, "retired, rack face up: ");
        put_tiles(t, rack);
        textbuf_printf(t, "\n");
        return;
    }
    if (observer < 0 || observer == owner) {
        textbuf_printf(t, "rack ");
        put_tiles(t, rack);
    } else {
        textbuf_printf(t, "rack %d tiles (hidden)", tile_count(rack));
    }
    textbuf_printf(t, "   pile %d", pile);
    if (observer < 0 && pile > 0) {
        textbuf_printf(t, ", next first:");
        for (int i = s->pile_pos[c]; i < UPTOWN_TILE_COUNT; i++)
            textbuf_printf(t, " %s", uptown_tile_name(s->pile[c][i]));
    }
    textbuf_printf(t, "\n");
}

void uptown_diagram(const void *state, int observer, unsigned flags, char *buf, size_t len)
{
    const uptown_state_t *s = state;
    textbuf_t t;
    textbuf_init(&t, buf, len, flags);
    textbuf_printf(&t, "Uptown, %d players, %d moves played", s->players, s->move_count);
    if (observer >= 0)
        textbuf_printf(&t, ", as P%d sees it", observer + 1);
    textbuf_printf(&t, "\n");
    put_grid(&t, s);
    for (int p = 0; p < s->players; p++) {
        int on_board = 0;
        unsigned own = uptown_player_colours(s, p);
        for (int c = 0; c < s->colours; c++)
            if (own >> c & 1)
                for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++)
                    on_board += uptown_cell_colour(s, cell) == c;
        textbuf_colour(&t, TEXTBUF_BOLD);
        textbuf_colour(&t, textbuf_player_colour(p));
        textbuf_printf(&t, "P%d", p + 1);
        textbuf_colour(&t, TEXTBUF_RESET);
        textbuf_printf(&t, "  groups %d  captured %d  tiles on the board %d  turns %d",
                       uptown_player_groups(s, p), s->captures[p], on_board, s->turns[p]);
        if (s->players > 2)
            textbuf_printf(&t, "/%d", UPTOWN_TURNS);
        textbuf_printf(&t, "\n");
        for (int c = 0; c < s->colours; c++)
            if (own >> c & 1)
                put_colour(&t, s, c, observer);
    }
}

void uptown_move_describe(const void *state, move_t m, char *buf, size_t len)
{
    const uptown_state_t *s = state;
    textbuf_t t;
    textbuf_init(&t, buf, len, GAME_TEXT_ASCII);
    int c = uptown_move_colour(m), tile = uptown_move_tile(m);
    int p = uptown_colour_owner(s, c);
    char colour[16] = "";
    if (s->players == 2)
        snprintf(colour, sizeof colour, "colour %d's ", c + 1);
    if (uptown_move_is_discard(m)) {
        textbuf_printf(&t, "discards %s%s (no legal placement)", colour, uptown_tile_name(tile));
        return;
    }
    int cell = uptown_move_cell(m);
    char name[3];
    uptown_cell_name(cell, name);
    textbuf_printf(&t, "plays %s%s on %s", colour, uptown_tile_name(tile), name);
    if (uptown_move_is_capture(m)) {
        int cc = uptown_cell_colour(s, cell);
        textbuf_printf(&t, ", capturing P%d's %s", uptown_colour_owner(s, cc) + 1,
                       uptown_tile_name(uptown_cell_tile(s, cell)));
        if (s->players == 2)
            textbuf_printf(&t, " (colour %d)", cc + 1);
    }
    uptown_state_t after = *s;
    uptown_play(&after, m);
    int before_groups = uptown_player_groups(s, p), after_groups = uptown_player_groups(&after, p);
    if (after_groups != before_groups)
        textbuf_printf(&t, "; groups %d -> %d", before_groups, after_groups);
    else
        textbuf_printf(&t, "; groups stay %d", after_groups);
    if (s->players == 2 && (after.retired & ~s->retired))
        textbuf_printf(&t, "; colour %d's pile is empty: its rack is retired", c + 1);
}
