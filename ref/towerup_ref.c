/* A slow, obvious Tower Up reference (RULES.md Part 1, core/rules-notes.md), for tests and
   the bench. Everything is a plain array and a loop; takes are found by trying every
   choice. This file: parsing, card piles, playing and the public calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/towerup_ref_internal.h"

/* ---------------------------------------------------------------- parsing */

static int colour_from_letter(char c)
{
    for (int i = 0; i < 4; i++)
        if (COLOUR_LETTERS[i] == c)
            return i;
    return c == '*' ? TR_WILD : -1;
}

static int card_parse(const char *code, tr_card_t *card)
{
    memset(card, 0, sizeof *card);
    card->vehicle = -1;
    if (!code || strlen(code) >= sizeof card->code)
        return -1;
    strcpy(card->code, code);
    const char *s = code;
    while (*s && *s != ':') {
        int c = colour_from_letter(*s);
        if (c < 0 || card->floor_count == 4)
            return -1;
        card->floors[card->floor_count++] = c;
        s++;
    }
    if (card->floor_count == 0)
        return -1;
    if (*s == ':') {
        int v = colour_from_letter(s[1]);
        if (v < 0 || v == TR_WILD || (s[2] != '1' && s[2] != '2') || s[3] != '\0')
            return -1;
        card->vehicle = v;
        card->steps = s[2] - '0';
    }
    return 0;
}

/* Splits a line into blank-separated tokens (in place); returns the count. */
static int line_split(char *line, char **tok, int max)
{
    int count = 0;
    char *s = line;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (*s == '\0' || count == max)
            return count;
        tok[count++] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r')
            s++;
        if (*s)
            *s++ = '\0';
    }
}

static int token_is(char **tok, int count, int from, const char *word)
{
    for (int i = from; i < count; i++)
        if (strcmp(tok[i], word) == 0)
            return 1;
    return 0;
}

/* Reads the board records; 0 on success. The file is assumed well-formed, so only what
   would break this code is checked. */
static int board_parse(tu_ref_t *g, const char *text)
{
    int areas = 0;
    g->site_count = 0;
    while (*text) {
        char line[512];
        size_t n = strcspn(text, "\n");
        if (n >= sizeof line)
            return -1;
        memcpy(line, text, n);
        line[n] = '\0';
        text += n + (text[n] == '\n');
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *tok[8];
        int count = line_split(line, tok, 8);
        if (count == 0 || strcmp(tok[0], "board") == 0)
            continue;
        if (strcmp(tok[0], "area") == 0 && count >= 3) {
            int id = atoi(tok[1]);
            if (id < 0 || id > 4)
                return -1;
            g->area_grey[id] = token_is(tok, count, 3, "grey");
            areas++;
        } else if (strcmp(tok[0], "site") == 0 && count >= 5) {
            int id = atoi(tok[1]), area = atoi(tok[4]);
            if (id != g->site_count || id >= TR_MAX_SITES || area < 0 || area > 4)
                return -1;
            g->site_area[id] = area;
            g->site_park[id] = token_is(tok, count, 5, "park");
            g->site_lake[id] = token_is(tok, count, 5, "lake");
            g->site_count++;
        } else if (strcmp(tok[0], "street") == 0 && count >= 3) {
            int a = atoi(tok[1]), b = atoi(tok[2]);
            if (a < 0 || b < 0 || a >= TR_MAX_SITES || b >= TR_MAX_SITES || a == b)
                return -1;
            g->adjacent[a][b] = g->adjacent[b][a] = 1;
        } else {
            return -1;
        }
    }
    for (int a = 0; a < TR_MAX_SITES; a++)
        for (int b = 0; b < TR_MAX_SITES; b++)
            if (g->adjacent[a][b] && (a >= g->site_count || b >= g->site_count))
                return -1;
    return areas == 5 && g->site_count > 0 ? 0 : -1;
}

/* ---------------------------------------------------------------- card piles */

static int pool_push(tr_pool_t *pool, const tr_card_t *card)
{
    if (pool->count == pool->cap) {
        int cap = pool->cap ? pool->cap * 2 : 256;
        tr_card_t *grown = realloc(pool->cards, sizeof *grown * (size_t)cap);
        if (!grown)
            return -1;
        pool->cards = grown;
        pool->cap = cap;
    }
    pool->cards[pool->count++] = *card;
    return 0;
}

static int pool_clone(tr_pool_t *to, const tr_pool_t *from)
{
    to->cards = NULL;
    to->count = to->cap = 0;
    for (int i = 0; i < from->count; i++)
        if (pool_push(to, &from->cards[i]) != 0)
            return -1;
    return 0;
}

/* The draw pile is empty and a card must be drawn: the discard pile becomes the next
   given list, or a shuffle of itself, or itself in discard order. */
static void piles_reshuffle(tu_ref_t *g)
{
    if (g->lists_used < g->list_count) {
        int k = g->lists_used++;
        g->draw_count = g->list_len[k];
        for (int i = 0; i < g->draw_count; i++)
            g->draw[i] = g->list_pool.cards[g->list_start[k] + i];
    } else {
        int order[TR_PILE_MAX];
        for (int i = 0; i < g->discard_count; i++)
            order[i] = i;
        if (g->rng) {
            for (int i = g->discard_count - 1; i > 0; i--) {
                int j = (int)pcg32_bounded(g->rng, (uint32_t)(i + 1));
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        g->draw_count = g->discard_count;
        for (int i = 0; i < g->discard_count; i++)
            g->draw[i] = g->discard[order[i]];
    }
    g->discard_count = 0;
    if (g->made_count < TR_LISTS_MAX) {
        g->made_start[g->made_count] = g->made_pool.count;
        g->made_len[g->made_count] = g->draw_count;
        for (int i = 0; i < g->draw_count; i++)
            if (pool_push(&g->made_pool, &g->draw[i]) != 0)
                g->made_len[g->made_count] = i;
        g->made_count++;
    }
}

/* The card in the slot goes to the discard pile and the slot is refilled in place. */
static void market_take(tu_ref_t *g, int slot)
{
    if (g->discard_count < TR_PILE_MAX)
        g->discard[g->discard_count++] = g->market[slot];
    if (g->draw_count == 0)
        piles_reshuffle(g);
    if (g->draw_count == 0)
        return; /* cannot happen with lists of length >= 1: the discard holds this card */
    g->market[slot] = g->draw[0];
    memmove(&g->draw[0], &g->draw[1], sizeof g->draw[0] * (size_t)(g->draw_count - 1));
    g->draw_count--;
}

/* ---------------------------------------------------------------- playing */

static void game_end(tu_ref_t *g)
{
    g->over = 1;
    for (int p = 0; p < g->players; p++)
        tr_cone_set(g, p);
}

static void end_trigger(tu_ref_t *g, int mode)
{
    if (g->end_mode != END_NONE)
        return; /* the first trigger fixes how the game ends */
    g->end_mode = mode;
    g->trigger_pending = 1;
}

/* After one action of player p: safeguard, extra turn, end of the player's turn. */
static void action_finish(tu_ref_t *g, int p, int stars_before)
{
    int extra = tr_player_stars(g, p) > stars_before;
    if (g->turns >= TR_TURN_LIMIT) {
        game_end(g);
        return;
    }
    if (extra)
        return; /* the same player moves again */
    if (g->trigger_pending) {
        g->trigger_pending = 0;
        g->final_count = 0;
        g->final_pos = 0;
        for (int k = 1; k < g->players; k++)
            g->final_queue[g->final_count++] = (p + k) % g->players;
        if (g->end_mode == END_SHORTAGE)
            g->final_queue[g->final_count++] = p;
        else
            tr_cone_set(g, p);
    } else if (g->end_mode != END_NONE) {
        tr_cone_set(g, p); /* the end of p's final turn */
        g->final_pos++;
    } else {
        g->to_move = (p + 1) % g->players;
        return;
    }
    if (g->final_pos >= g->final_count)
        game_end(g);
    else
        g->to_move = g->final_queue[g->final_pos];
}

static void move_apply(tu_ref_t *g, const tr_move_t *m)
{
    int p = g->to_move;
    if (m->kind == 'P') {
        g->reserve[m->colour]--;
        g->height[m->site] = 1;
        g->colour[m->site] = m->colour;
        g->placed++;
        if (g->placed == g->start_count)
            g->to_move = g->first_player;
        return;
    }
    int stars_before = tr_player_stars(g, p);
    if (m->kind == 'T') {
        const tr_card_t *card = &g->market[m->slot];
        for (int c = 0; c < 4; c++) {
            g->supply[p][c] += m->net[c];
            g->reserve[c] -= m->net[c];
        }
        if (card->vehicle >= 0)
            tr_marker_advance(g, p, card->vehicle, card->steps);
        if (m->shortage)
            end_trigger(g, END_SHORTAGE);
        market_take(g, m->slot);
    } else {
        g->supply[p][m->colour]--;
        g->height[m->site] = 1;
        g->colour[m->site] = m->colour;
        for (int t = 0; t < g->site_count; t++)
            if (g->adjacent[m->site][t] && g->height[t] > 0 && t != m->site) {
                g->supply[p][g->colour[t]]--;
                g->height[t]++;
            }
        int level = g->height[m->roof_site];
        tr_roof_t *roof = &g->roofs[g->roof_count++];
        roof->owner = p;
        roof->site = m->roof_site;
        roof->level = level;
        g->roofs_left[p]--;
        tr_marker_advance(g, p, g->colour[m->roof_site], level);
        tr_objectives_check(g, p);
        if (g->roofs_left[p] == 0)
            end_trigger(g, END_LAST_ROOF);
    }
    g->turns++;
    action_finish(g, p, stars_before);
}

/* ---------------------------------------------------------------- public */

tu_ref_t *tu_ref_new(const char *board_text, int players, int first_player,
                     const char *const objectives[3], const char *const deck[44],
                     int start_floor_count, const char *const *start_floors, int reshuffle_count,
                     const char *const *const *reshuffles, const int *reshuffle_lengths)
{
    if (!board_text || !objectives || !deck || players < 2 || players > TR_MAX_PLAYERS ||
        first_player < 0 || first_player >= players || start_floor_count < 3 ||
        start_floor_count > (players == 4 ? 5 : 7) || !start_floors || reshuffle_count < 0 ||
        reshuffle_count > TR_LISTS_MAX ||
        (reshuffle_count > 0 && (!reshuffles || !reshuffle_lengths)))
        return NULL;
    tu_ref_t *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->players = players;
    g->first_player = first_player;
    if (board_parse(g, board_text) != 0)
        goto bad;
    for (int k = 0; k < 3; k++) {
        g->objectives[k] = -1;
        for (int id = 0; id < 10; id++)
            if (objectives[k] && strcmp(objectives[k], OBJECTIVE_NAMES[id]) == 0)
                g->objectives[k] = id;
        if (g->objectives[k] < 0)
            goto bad;
        for (int j = 0; j < k; j++)
            if (g->objectives[j] == g->objectives[k])
                goto bad;
    }
    for (int i = 0; i < 44; i++) {
        tr_card_t card;
        if (card_parse(deck[i], &card) != 0)
            goto bad;
        if (i < 3)
            g->market[i] = card;
        else
            g->draw[g->draw_count++] = card;
    }
    g->start_count = start_floor_count;
    for (int k = 0; k < start_floor_count; k++) {
        const char *f = start_floors[k];
        int c = f && f[0] && !f[1] ? colour_from_letter(f[0]) : -1;
        if (c < 0 || (k < 3 && c != g->market[k].floors[0]))
            goto bad;
        g->start_colour[k] = c;
    }
    for (int k = 0; k < reshuffle_count; k++) {
        int len = reshuffle_lengths[k];
        if (len < 1 || len > TR_LIST_MAX || !reshuffles[k])
            goto bad;
        g->list_start[k] = g->list_pool.count;
        g->list_len[k] = len;
        for (int i = 0; i < len; i++) {
            tr_card_t card;
            if (card_parse(reshuffles[k][i], &card) != 0 || pool_push(&g->list_pool, &card))
                goto bad;
        }
    }
    g->list_count = reshuffle_count;
    for (int c = 0; c < 4; c++)
        g->reserve[c] = 30 - players;
    for (int p = 0; p < players; p++) {
        for (int c = 0; c < 4; c++)
            g->supply[p][c] = 1;
        g->roofs_left[p] = TR_ROOFS;
    }
    g->to_move = (first_player + players - 1) % players; /* the set-up placer */
    return g;
bad:
    tu_ref_free(g);
    return NULL;
}

void tu_ref_free(tu_ref_t *g)
{
    if (!g)
        return;
    free(g->list_pool.cards);
    free(g->made_pool.cards);
    free(g);
}

tu_ref_t *tu_ref_copy(const tu_ref_t *g)
{
    tu_ref_t *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *g;
    memset(&c->list_pool, 0, sizeof c->list_pool); /* not g's: freed with c */
    memset(&c->made_pool, 0, sizeof c->made_pool);
    if (pool_clone(&c->list_pool, &g->list_pool) != 0 ||
        pool_clone(&c->made_pool, &g->made_pool) != 0) {
        tu_ref_free(c);
        return NULL;
    }
    return c;
}

int tu_ref_moves(const tu_ref_t *g, char (*out)[32], int max)
{
    tr_list_t list = {malloc(sizeof(tr_move_t) * TR_MOVES_MAX), 0};
    if (!list.moves)
        return 0;
    tr_gen_all(g, &list);
    for (int i = 0; i < list.count && i < max; i++)
        tr_move_format(&list.moves[i], out[i]);
    free(list.moves);
    return list.count;
}

int tu_ref_play(tu_ref_t *g, const char *move)
{
    tr_list_t list = {malloc(sizeof(tr_move_t) * TR_MOVES_MAX), 0};
    if (!list.moves || !move) {
        free(list.moves);
        return -1;
    }
    tr_gen_all(g, &list);
    int found = -1;
    for (int i = 0; i < list.count && found < 0; i++) {
        char text[32];
        tr_move_format(&list.moves[i], text);
        if (strcmp(text, move) == 0)
            found = i;
    }
    if (found >= 0)
        move_apply(g, &list.moves[found]);
    free(list.moves);
    return found >= 0 ? 0 : -1;
}

int tu_ref_over(const tu_ref_t *g) { return g->over; }

int tu_ref_to_move(const tu_ref_t *g) { return g->to_move; }

void tu_ref_result(const tu_ref_t *g, int *scores, int *ranks, int *supply, int *cones,
                   int (*markers)[4], int *turns)
{
    int score[TR_MAX_PLAYERS], held[TR_MAX_PLAYERS];
    for (int p = 0; p < g->players; p++) {
        int cone = g->cone_set[p] ? g->cone[p] : 0;
        score[p] = COLUMN_VALUE[cone];
        for (int c = 0; c < 4; c++)
            score[p] += COLUMN_VALUE[g->markers[p][c]];
        for (int k = 0; k < g->chip_count[p]; k++)
            score[p] += g->chips[p][k];
        held[p] = g->supply[p][0] + g->supply[p][1] + g->supply[p][2] + g->supply[p][3];
        if (scores)
            scores[p] = score[p];
        if (supply)
            supply[p] = held[p];
        if (cones)
            cones[p] = cone;
        if (markers)
            memcpy(markers[p], g->markers[p], sizeof markers[p]);
    }
    for (int p = 0; p < g->players && ranks; p++) {
        ranks[p] = 1;
        for (int q = 0; q < g->players; q++)
            if (score[q] > score[p] || (score[q] == score[p] && held[q] > held[p]))
                ranks[p]++;
    }
    if (turns)
        *turns = g->turns;
}

void tu_ref_set_next_reshuffle_random(tu_ref_t *g, pcg32_t *rng) { g->rng = rng; }

int tu_ref_reshuffles_made(const tu_ref_t *g) { return g->made_count; }

int tu_ref_reshuffle_get(const tu_ref_t *g, int k, char (*out)[8], int max)
{
    if (k < 0 || k >= g->made_count)
        return 0;
    for (int i = 0; i < g->made_len[k] && i < max; i++)
        strcpy(out[i], g->made_pool.cards[g->made_start[k] + i].code);
    return g->made_len[k];
}

int tu_ref_chips(const tu_ref_t *g, int player, int *out)
{
    for (int k = 0; k < g->chip_count[player]; k++)
        out[k] = g->chips[player][k];
    return g->chip_count[player];
}

void tu_ref_counts(const tu_ref_t *g, int reserve[4], int *built_floors, int *roofs_placed,
                   int *roofs_left)
{
    if (reserve)
        memcpy(reserve, g->reserve, sizeof g->reserve);
    if (built_floors) {
        *built_floors = 0;
        for (int s = 0; s < g->site_count; s++)
            *built_floors += g->height[s];
    }
    for (int p = 0; p < g->players; p++) {
        if (roofs_placed) {
            roofs_placed[p] = 0;
            for (int i = 0; i < g->roof_count; i++)
                roofs_placed[p] += g->roofs[i].owner == p;
        }
        if (roofs_left)
            roofs_left[p] = g->roofs_left[p];
    }
}

int tu_ref_market(const tu_ref_t *g, char (*out)[8])
{
    for (int i = 0; i < 3; i++)
        strcpy(out[i], g->market[i].code);
    return g->draw_count;
}

void tu_ref_debug_set(tu_ref_t *g, int player, const int supply[4], const int reserve[4],
                      const int markers[4], int roofs_left)
{
    if (supply)
        memcpy(g->supply[player], supply, sizeof g->supply[player]);
    if (reserve)
        memcpy(g->reserve, reserve, sizeof g->reserve);
    if (markers)
        memcpy(g->markers[player], markers, sizeof g->markers[player]);
    if (roofs_left >= 0)
        g->roofs_left[player] = roofs_left;
}

void tu_ref_debug_put(tu_ref_t *g, int site, int colour, int height, int player, int level)
{
    if (height >= 0) {
        g->height[site] = height;
        g->colour[site] = colour;
    }
    if (player >= 0 && g->roof_count < TR_MAX_PLAYERS * TR_ROOFS && g->roofs_left[player]) {
        tr_roof_t *roof = &g->roofs[g->roof_count++];
        roof->owner = player;
        roof->site = site;
        roof->level = level;
        g->roofs_left[player]--;
    }
}

int tu_ref_debug_objective(const tu_ref_t *g, int player, const char *id)
{
    for (int k = 0; k < 10; k++)
        if (strcmp(id, OBJECTIVE_NAMES[k]) == 0)
            return tr_objective_met(g, player, k);
    return -1;
}
