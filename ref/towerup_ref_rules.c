/* The Tower Up reference (towerup_ref.c): objectives, cones and move generation. */
#include <stdio.h>
#include <string.h>

#include "ref/towerup_ref_internal.h"

/* ---------------------------------------------------------------- objectives */

static int star_count(int column)
{
    int s = 0;
    for (int i = 0; i < 5; i++)
        if (STAR_COLUMNS[i] <= column)
            s++;
    return s;
}

int tr_player_stars(const tu_ref_t *g, int p)
{
    int m = g->markers[p][0];
    for (int c = 1; c < 4; c++)
        if (g->markers[p][c] < m)
            m = g->markers[p][c];
    return star_count(m);
}

void tr_marker_advance(tu_ref_t *g, int p, int colour, int steps)
{
    g->markers[p][colour] += steps;
    if (g->markers[p][colour] > 15)
        g->markers[p][colour] = 15;
}

/* Size of the connected part of the present sites that contains start (flood fill). */
static int present_component(const tu_ref_t *g, const int *present, int start, int *seen)
{
    int stack[TR_MAX_SITES], top = 0, size = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
        int s = stack[--top];
        size++;
        for (int t = 0; t < g->site_count; t++)
            if (g->adjacent[s][t] && present[t] && !seen[t]) {
                seen[t] = 1;
                stack[top++] = t;
            }
    }
    return size;
}

/* Two streets with four different present ends, each crossing an area border, the two
   borders being different pairs of areas. */
static int borders_met(const tu_ref_t *g, const int *present)
{
    int ea[256], eb[256], count = 0;
    for (int a = 0; a < g->site_count; a++)
        for (int b = a + 1; b < g->site_count; b++)
            if (g->adjacent[a][b] && present[a] && present[b] &&
                g->site_area[a] != g->site_area[b] && count < 256) {
                ea[count] = a;
                eb[count] = b;
                count++;
            }
    for (int i = 0; i < count; i++)
        for (int j = i + 1; j < count; j++) {
            if (ea[i] == ea[j] || ea[i] == eb[j] || eb[i] == ea[j] || eb[i] == eb[j])
                continue;
            int ai = g->site_area[ea[i]], bi = g->site_area[eb[i]];
            int aj = g->site_area[ea[j]], bj = g->site_area[eb[j]];
            int same = (ai == aj && bi == bj) || (ai == bj && bi == aj);
            if (!same)
                return 1;
        }
    return 0;
}

int tr_objective_met(const tu_ref_t *g, int p, int id)
{
    int present[TR_MAX_SITES] = {0}, mine[TR_MAX_SITES] = {0}, levels[5] = {0};
    for (int i = 0; i < g->roof_count; i++)
        if (g->roofs[i].owner == p) {
            present[g->roofs[i].site] = 1;
            mine[g->roofs[i].site]++;
            if (g->roofs[i].level <= 4)
                levels[g->roofs[i].level] = 1;
        }
    int colours[4] = {0}, areas[5] = {0}, parks = 0, lakes = 0, browns = 0, doubles = 0;
    for (int s = 0; s < g->site_count; s++) {
        if (!present[s])
            continue;
        colours[g->colour[s]] = 1;
        areas[g->site_area[s]]++;
        parks += g->site_park[s];
        lakes += g->site_lake[s];
        browns += g->colour[s] == 3;
        doubles += mine[s] >= 2;
    }
    switch (id) {
    case OBJ_COLORS: return colours[0] && colours[1] && colours[2] && colours[3];
    case OBJ_PARK: return parks >= 4;
    case OBJ_AREAS: return areas[0] && areas[1] && areas[2] && areas[3] && areas[4];
    case OBJ_LAKE: return lakes >= 4;
    case OBJ_CONNECTED: {
        int seen[TR_MAX_SITES] = {0};
        for (int s = 0; s < g->site_count; s++)
            if (present[s] && !seen[s] && present_component(g, present, s, seen) >= 5)
                return 1;
        return 0;
    }
    case OBJ_BROWN: return browns >= 4;
    case OBJ_GREY: {
        int grey[2], n = 0;
        for (int a = 0; a < 5 && n < 2; a++)
            if (g->area_grey[a])
                grey[n++] = areas[a];
        if (n < 2)
            return 0;
        return (grey[0] >= 3 && grey[1] >= 2) || (grey[0] >= 2 && grey[1] >= 3);
    }
    case OBJ_BORDERS: return borders_met(g, present);
    case OBJ_DOUBLES: return doubles >= 2;
    case OBJ_HEIGHTS: return levels[1] && levels[2] && levels[3] && levels[4];
    }
    return 0;
}

/* After a roof placement: the placing player's unmet objectives, in the game's order. */
void tr_objectives_check(tu_ref_t *g, int p)
{
    static const int chips[5][4] = {{0}, {0}, {7, 3}, {7, 5, 3}, {7, 5, 3, 3}};
    for (int k = 0; k < 3; k++) {
        if (g->met[p][k] || !tr_objective_met(g, p, g->objectives[k]))
            continue;
        g->met[p][k] = 1;
        if (g->chips_taken[k] < g->players)
            g->chips[p][g->chip_count[p]++] = chips[g->players][g->chips_taken[k]++];
    }
}

static int visible_roofs(const tu_ref_t *g, int p)
{
    int v = 0;
    for (int i = 0; i < g->roof_count; i++)
        if (g->roofs[i].owner == p && g->roofs[i].level == g->height[g->roofs[i].site])
            v++;
    return v;
}

void tr_cone_set(tu_ref_t *g, int p)
{
    if (g->cone_set[p])
        return;
    int v = visible_roofs(g, p);
    g->cone[p] = v > 7 ? 7 : v;
    g->cone_set[p] = 1;
}

/* ---------------------------------------------------------------- move generation */

static void list_add(tr_list_t *list, const tr_move_t *m)
{
    if (list->count < TR_MOVES_MAX)
        list->moves[list->count++] = *m;
}

/* A take outcome: the same slot and net change is one move, listed once. With the 44 cards
   of RULES.md 1.4 every way to one net change agrees on the shortage (no card mixes wild
   and colour floor icons); a made-up card that did would keep the first way found. */
static void take_add(tr_list_t *list, int slot, const int start[4], const int end[4], int shortage)
{
    tr_move_t m;
    memset(&m, 0, sizeof m);
    m.kind = 'T';
    m.slot = slot;
    m.shortage = shortage;
    for (int c = 0; c < 4; c++)
        m.net[c] = end[c] - start[c];
    for (int i = 0; i < list->count; i++) {
        const tr_move_t *o = &list->moves[i];
        if (o->kind == 'T' && o->slot == slot && memcmp(o->net, m.net, sizeof m.net) == 0)
            return;
    }
    list_add(list, &m);
}

/* After the icons: every way to return floors down to 10. */
static void take_returns(tr_list_t *list, int slot, const int start[4], const int supply[4],
                         int shortage)
{
    int total = supply[0] + supply[1] + supply[2] + supply[3];
    int excess = total - 10;
    if (excess <= 0) {
        take_add(list, slot, start, supply, shortage);
        return;
    }
    int back[4];
    for (back[0] = 0; back[0] <= supply[0]; back[0]++)
        for (back[1] = 0; back[1] <= supply[1]; back[1]++)
            for (back[2] = 0; back[2] <= supply[2]; back[2]++) {
                back[3] = excess - back[0] - back[1] - back[2];
                if (back[3] < 0 || back[3] > supply[3])
                    continue;
                int end[4];
                for (int c = 0; c < 4; c++)
                    end[c] = supply[c] - back[c];
                take_add(list, slot, start, end, shortage);
            }
}

/* Icon i of the card onwards, every choice tried; reserve and supply are restored. */
static void take_icons(tr_list_t *list, const tr_card_t *card, int slot, int i, int reserve[4],
                       int supply[4], const int start[4], int shortage)
{
    if (i == card->floor_count) {
        take_returns(list, slot, start, supply, shortage);
        return;
    }
    int icon = card->floors[i];
    if (icon != TR_WILD && reserve[icon] > 0) {
        reserve[icon]--;
        supply[icon]++;
        take_icons(list, card, slot, i + 1, reserve, supply, start, shortage);
        reserve[icon]++;
        supply[icon]--;
        return;
    }
    /* a wild, or a colour the reserve lacks (a substitution: the shortage) */
    int missing = icon != TR_WILD;
    int any = 0;
    for (int c = 0; c < 4; c++) {
        if (reserve[c] == 0)
            continue;
        any = 1;
        reserve[c]--;
        supply[c]++;
        take_icons(list, card, slot, i + 1, reserve, supply, start, shortage || missing);
        reserve[c]++;
        supply[c]--;
    }
    if (!any)
        take_icons(list, card, slot, i + 1, reserve, supply, start, shortage || missing);
}

static void gen_setup(const tu_ref_t *g, tr_list_t *list)
{
    int want = g->start_colour[g->placed];
    for (int s = 0; s < g->site_count; s++) {
        if (g->height[s] > 0)
            continue;
        for (int c = 0; c < 4; c++) {
            if (want != TR_WILD && c != want)
                continue;
            if (g->reserve[c] == 0)
                continue;
            int clash = 0;
            for (int t = 0; t < g->site_count; t++)
                if (g->adjacent[s][t] && g->height[t] > 0 && g->colour[t] == c)
                    clash = 1;
            if (clash)
                continue;
            tr_move_t m;
            memset(&m, 0, sizeof m);
            m.kind = 'P';
            m.site = s;
            m.colour = c;
            list_add(list, &m);
        }
    }
}

static void gen_builds(const tu_ref_t *g, int p, tr_list_t *list)
{
    if (g->roofs_left[p] == 0)
        return;
    for (int s = 0; s < g->site_count; s++) {
        if (g->height[s] > 0)
            continue;
        int need[4] = {0}, neighbours = 0;
        for (int t = 0; t < g->site_count; t++)
            if (g->adjacent[s][t] && g->height[t] > 0) {
                need[g->colour[t]]++;
                neighbours++;
            }
        if (neighbours == 0)
            continue;
        for (int c = 0; c < 4; c++) {
            if (need[c] > 0)
                continue;
            int ok = 1;
            for (int d = 0; d < 4; d++)
                if (g->supply[p][d] < need[d] + (d == c))
                    ok = 0;
            if (!ok)
                continue;
            tr_move_t m;
            memset(&m, 0, sizeof m);
            m.kind = 'B';
            m.site = s;
            m.colour = c;
            m.roof_site = s;
            list_add(list, &m);
            for (int t = 0; t < g->site_count; t++)
                if (g->adjacent[s][t] && g->height[t] > 0) {
                    m.roof_site = t;
                    list_add(list, &m);
                }
        }
    }
}

void tr_gen_all(const tu_ref_t *g, tr_list_t *list)
{
    list->count = 0;
    if (g->over)
        return;
    if (g->placed < g->start_count) {
        gen_setup(g, list);
        return;
    }
    int p = g->to_move;
    for (int slot = 0; slot < 3; slot++) {
        int reserve[4], supply[4];
        memcpy(reserve, g->reserve, sizeof reserve);
        memcpy(supply, g->supply[p], sizeof supply);
        take_icons(list, &g->market[slot], slot, 0, reserve, supply, g->supply[p], 0);
    }
    gen_builds(g, p, list);
}

void tr_move_format(const tr_move_t *m, char *out)
{
    if (m->kind == 'P') {
        sprintf(out, "P%d%c", m->site, COLOUR_LETTERS[m->colour]);
    } else if (m->kind == 'B') {
        sprintf(out, "B%d%c^%d", m->site, COLOUR_LETTERS[m->colour], m->roof_site);
    } else {
        int n = sprintf(out, "T%d", m->slot + 1);
        for (int sign = 1; sign >= -1; sign -= 2) {
            int first = 1;
            for (int c = 0; c < 4; c++)
                for (int k = 0; k < m->net[c] * sign; k++) {
                    if (first)
                        out[n++] = sign > 0 ? '+' : '-';
                    first = 0;
                    out[n++] = COLOUR_LETTERS[c];
                }
        }
        out[n] = '\0';
    }
}
