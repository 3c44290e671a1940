/*
 * Tower Up's city for people (part of the diagram of `skyline show` and of the human seat):
 * a map of the sites at their drawing positions with the streets that make them
 * neighbours, the areas, and each building's floors and roofs. A board whose drawing
 * positions are not a grid with streets only between touching cells gets a list instead.
 */
#include <stdio.h>
#include <string.h>

#include "core/textbuf.h"
#include "internal.h"

#define MAP_CELL    7  /* visible columns of a site: id (2), marks (2), blank, building (2) */
#define MAP_STRIDE  10 /* a site and the street gap after it */
#define MAP_MAX     16 /* grid columns and rows a map may have */
#define LINE_WIDTH  78 /* visible characters a wrapped line may fill */
#define STREET_H    1  /* street to the right */
#define STREET_V    2  /* street down */
#define STREET_DOWN 4  /* street down-right (\) */
#define STREET_UP   8  /* street from the cell below up-right (/) */

/* The terminal colour of a floor colour (K G W B). */
static int floor_sgr(int c)
{
    static const int sgr[TOWERUP_COLOUR_COUNT] = {TEXTBUF_GREY, TEXTBUF_WHITE, TEXTBUF_BRIGHT_WHITE,
                                                  TEXTBUF_YELLOW};
    return sgr[c];
}

/* A roof mark of seat p: P1's roof is a superscript 1 in UTF-8, "^1" in ASCII. */
static void put_roof(textbuf_t *t, int p)
{
    static const char *const sup[TOWERUP_MAX_PLAYERS] = {"¹", "²", "³", "⁴"};
    static const char *const caret[TOWERUP_MAX_PLAYERS] = {"^1", "^2", "^3", "^4"};
    textbuf_colour(t, TEXTBUF_BOLD);
    textbuf_colour(t, textbuf_player_colour(p));
    textbuf_sym(t, sup[p], caret[p]);
    textbuf_colour(t, TEXTBUF_RESET);
}

/* A site's id with p (park) and l (lake) into label; returns its length. */
static int site_label(const towerup_board_t *b, int site, char *label, size_t len)
{
    return snprintf(label, len, "%d%s%s", site, b->park >> site & 1 ? "p" : "",
                    b->lake >> site & 1 ? "l" : "");
}

/* One building: its floors bottom to top, each followed by its roof if it has one, or an
   empty mark. Returns the visible characters written. */
static int put_floors(textbuf_t *t, const towerup_state_t *s, int site)
{
    int h = towerup_height(s, site), n = 0;
    if (!h) {
        textbuf_colour(t, TEXTBUF_GREY);
        textbuf_sym(t, "·", ".");
        textbuf_colour(t, TEXTBUF_RESET);
        return 1;
    }
    int c = towerup_site_colour(s, site);
    for (int level = 1; level <= h; level++) {
        textbuf_colour(t, TEXTBUF_BOLD);
        textbuf_colour(t, floor_sgr(c));
        textbuf_printf(t, "%c", towerup_colour_letter[c]);
        textbuf_colour(t, TEXTBUF_RESET);
        n++;
        int owner = towerup_roof_owner(s, site, level);
        if (owner >= 0) {
            put_roof(t, owner);
            n += t->flags & GAME_TEXT_ASCII ? 2 : 1;
        }
    }
    return n;
}

/* Whether the board's drawing positions make a map: distinct cells of a small grid, and
   every street between two cells that touch (side or corner). */
static bool map_fits(const towerup_board_t *b, int *w, int *h)
{
    bool used[MAP_MAX][MAP_MAX] = {{false}};
    *w = *h = 0;
    for (int i = 0; i < b->site_count; i++) {
        int x = b->site_x[i], y = b->site_y[i];
        if (x < 0 || y < 0 || x >= MAP_MAX || y >= MAP_MAX || used[y][x] || i > 99)
            return false;
        used[y][x] = true;
        *w = x >= *w ? x + 1 : *w;
        *h = y >= *h ? y + 1 : *h;
    }
    for (int k = 0; k < b->street_count; k++) {
        int dx = b->site_x[b->street_a[k]] - b->site_x[b->street_b[k]];
        int dy = b->site_y[b->street_a[k]] - b->site_y[b->street_b[k]];
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1)
            return false;
    }
    return true;
}

/* Spaces owed before the next visible character (trailing ones are never written). */
static void flush_spaces(textbuf_t *t, int *pending)
{
    if (*pending > 0)
        textbuf_printf(t, "%*s", *pending, "");
    *pending = 0;
}

/* One map row: each site as "id marks building", streets to the right as dashes. */
static void put_row(textbuf_t *t, const towerup_state_t *s, int site_at[MAP_MAX][MAP_MAX],
                    unsigned street[MAP_MAX][MAP_MAX], int w, int y)
{
    const towerup_board_t *b = s->board;
    int pending = 2; /* the map's indent */
    for (int x = 0; x < w; x++) {
        int site = site_at[y][x];
        if (site < 0) {
            pending += MAP_STRIDE;
            continue;
        }
        flush_spaces(t, &pending);
        /* The id right-aligned in two columns, then the marks. */
        textbuf_colour(t, TEXTBUF_BOLD);
        textbuf_printf(t, "%2d", site);
        textbuf_colour(t, TEXTBUF_RESET);
        char marks[3];
        snprintf(marks, sizeof marks, "%s%s", b->park >> site & 1 ? "p" : "",
                 b->lake >> site & 1 ? "l" : "");
        textbuf_colour(t, TEXTBUF_DIM);
        textbuf_printf(t, "%-2s", marks);
        textbuf_colour(t, TEXTBUF_RESET);
        textbuf_printf(t, " ");
        int used = 5;
        int h = towerup_height(s, site);
        if (!h) {
            textbuf_colour(t, TEXTBUF_GREY);
            textbuf_sym(t, "·", ".");
            textbuf_colour(t, TEXTBUF_RESET);
            used++;
        } else {
            int c = towerup_site_colour(s, site);
            textbuf_colour(t, TEXTBUF_BOLD);
            textbuf_colour(t, floor_sgr(c));
            textbuf_printf(t, "%c%d", towerup_colour_letter[c], h);
            textbuf_colour(t, TEXTBUF_RESET);
            used += 2;
        }
        if (street[y][x] & STREET_H) {
            textbuf_printf(t, " ");
            textbuf_repeat(t, "─", "-", MAP_STRIDE - used - 1);
        } else {
            pending += MAP_STRIDE - used;
        }
    }
    textbuf_printf(t, "\n");
}

/* The line between map rows y and y+1: | under a site, \ / or X between columns. */
static void put_links(textbuf_t *t, int site_at[MAP_MAX][MAP_MAX],
                      unsigned street[MAP_MAX][MAP_MAX], int w, int y)
{
    int pending = 2;
    for (int x = 0; x < w; x++) {
        pending += 1;
        if (site_at[y][x] >= 0 && street[y][x] & STREET_V) {
            flush_spaces(t, &pending);
            textbuf_sym(t, "│", "|");
        } else {
            pending++;
        }
        pending += MAP_CELL - 1;
        unsigned down = street[y][x] & STREET_DOWN, up = street[y][x] & STREET_UP;
        if (down || up) {
            flush_spaces(t, &pending);
            if (down && up)
                textbuf_sym(t, "╳", "X");
            else if (down)
                textbuf_sym(t, "╲", "\\");
            else
                textbuf_sym(t, "╱", "/");
        } else {
            pending++;
        }
        pending += MAP_STRIDE - MAP_CELL - 2; /* after the mark at offset MAP_CELL + 1 */
    }
    textbuf_printf(t, "\n");
}

/* The sites of area a as ranges of ids, e.g. "0-3 8-11", into buf[len]. */
static void area_sites(const towerup_board_t *b, int a, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < b->site_count && n < len; i++) {
        if (b->site_area[i] != a || (i && b->site_area[i - 1] == a))
            continue;
        int j = i;
        while (j + 1 < b->site_count && b->site_area[j + 1] == a)
            j++;
        int k = j > i ? snprintf(buf + n, len - n, "%s%d-%d", n ? " " : "", i, j)
                      : snprintf(buf + n, len - n, "%s%d", n ? " " : "", i);
        n += k > 0 ? (size_t)k : 0;
    }
}

/* The areas with their sites, wrapped between areas. */
static void put_areas(textbuf_t *t, const towerup_board_t *b)
{
    textbuf_printf(t, "Areas:");
    int col = 6;
    for (int a = 0; a < TOWERUP_AREA_COUNT; a++) {
        char sites[256], entry[320];
        area_sites(b, a, sites, sizeof sites);
        int n = snprintf(entry, sizeof entry, " %s%s %s%s", b->area_name[a],
                         b->area_grey[a] ? " (grey)" : "", sites,
                         a + 1 < TOWERUP_AREA_COUNT ? ";" : "");
        if (col > 6 && col + n > LINE_WIDTH) {
            textbuf_printf(t, "\n     ");
            col = 5;
        }
        textbuf_printf(t, "%s", entry);
        col += n;
    }
    textbuf_printf(t, "\n");
}

/* The visible width of a building's floors and roofs (as put_floors writes them). */
static int floors_width(const textbuf_t *t, const towerup_state_t *s, int site)
{
    int h = towerup_height(s, site), n = h ? h : 1;
    for (int level = 1; level <= h; level++)
        if (towerup_roof_owner(s, site, level) >= 0)
            n += t->flags & GAME_TEXT_ASCII ? 2 : 1;
    return n;
}

/* Every building with its floors and roofs, wrapped. */
static void put_buildings(textbuf_t *t, const towerup_state_t *s)
{
    textbuf_printf(t, "Buildings (floors bottom to top, ");
    textbuf_sym(t, "¹", "^1");
    textbuf_printf(t, " a roof of P1):");
    int col = LINE_WIDTH + 1, count = 0;
    for (int site = 0; site < s->board->site_count; site++) {
        if (!towerup_height(s, site))
            continue;
        int n = 2 + (site > 9 ? 2 : 1) + 1 + floors_width(t, s, site);
        if (col + n > LINE_WIDTH) {
            textbuf_printf(t, "\n  ");
            col = 2;
            n -= 2;
            textbuf_printf(t, "%d ", site);
        } else {
            textbuf_printf(t, "  %d ", site);
        }
        put_floors(t, s, site);
        col += n;
        count++;
    }
    textbuf_printf(t, "%s\n", count ? "" : " none yet");
}

/* A board that is no map: the sites area by area, each with its building and neighbours. */
static void put_site_list(textbuf_t *t, const towerup_state_t *s)
{
    const towerup_board_t *b = s->board;
    textbuf_printf(t, "City (board %s): site, p park, l lake, its floors bottom to top (", b->name);
    textbuf_sym(t, "¹", "^1");
    textbuf_printf(t, " a roof of P1), its neighbours in brackets\n");
    for (int a = 0; a < TOWERUP_AREA_COUNT; a++) {
        textbuf_colour(t, TEXTBUF_BOLD);
        textbuf_printf(t, "  area %s%s", b->area_name[a], b->area_grey[a] ? " (grey)" : "");
        textbuf_colour(t, TEXTBUF_RESET);
        int col = LINE_WIDTH;
        for (int site = 0; site < b->site_count; site++) {
            if (b->site_area[site] != a)
                continue;
            if (col + 40 > LINE_WIDTH) {
                textbuf_printf(t, "\n   ");
                col = 3;
            }
            char label[8];
            col += 1 + site_label(b, site, label, sizeof label) + 1;
            textbuf_printf(t, " %s ", label);
            col += put_floors(t, s, site) + 2;
            textbuf_printf(t, " (");
            bool first = true;
            for (uint64_t n = b->nbr[site]; n; n &= n - 1) {
                int nb = __builtin_ctzll(n);
                textbuf_printf(t, first ? "%d" : " %d", nb);
                col += (first ? 1 : 2) + (nb > 9);
                first = false;
            }
            textbuf_printf(t, ")");
            col += 1;
        }
        textbuf_printf(t, "\n");
    }
}

void towerup_put_city(textbuf_t *t, const towerup_state_t *s)
{
    const towerup_board_t *b = s->board;
    int w, h;
    if (!map_fits(b, &w, &h)) {
        put_site_list(t, s);
        return;
    }
    int site_at[MAP_MAX][MAP_MAX];
    unsigned street[MAP_MAX][MAP_MAX] = {{0}};
    memset(site_at, -1, sizeof site_at);
    for (int i = 0; i < b->site_count; i++)
        site_at[b->site_y[i]][b->site_x[i]] = i;
    for (int k = 0; k < b->street_count; k++) {
        int a = b->street_a[k], c = b->street_b[k];
        if (b->site_y[a] > b->site_y[c] ||
            (b->site_y[a] == b->site_y[c] && b->site_x[a] > b->site_x[c])) {
            int tmp = a;
            a = c;
            c = tmp;
        }
        int x = b->site_x[a], y = b->site_y[a], dx = b->site_x[c] - x, dy = b->site_y[c] - y;
        if (dy == 0)
            street[y][x] |= STREET_H;
        else if (dx == 0)
            street[y][x] |= STREET_V;
        else if (dx == 1)
            street[y][x] |= STREET_DOWN;
        else
            street[y][x - 1] |= STREET_UP;
    }
    textbuf_printf(t, "City (board %s): a map of the sites; a street joins neighbours (", b->name);
    textbuf_sym(t, "─ │ ╲ ╱, ╳", "- | \\ /, X");
    textbuf_printf(t,
                   " two crossing)\n  each site: its number, p park, l lake, then its building's "
                   "colour and height (K2), ");
    textbuf_sym(t, "·", ".");
    textbuf_printf(t, " empty\n");
    for (int y = 0; y < h; y++) {
        put_row(t, s, site_at, street, w, y);
        if (y + 1 < h)
            put_links(t, site_at, street, w, y);
    }
    put_areas(t, b);
    put_buildings(t, s);
}
