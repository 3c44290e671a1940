/* Tower Up for people: the text diagram of `skyline show` and plain-language moves. */
#include <stdio.h>
#include <string.h>

#include "core/textbuf.h"
#include "internal.h"

static const char *const colour_names[TOWERUP_COLOUR_COUNT] = {"black", "grey", "white", "brown"};

static void put_cards(textbuf_t *t, const towerup_state_t *s, int observer)
{
    const towerup_card_t *cards = towerup_cards();
    textbuf_printf(t, "Market:");
    for (int slot = 0; slot < TOWERUP_MARKET; slot++)
        textbuf_printf(t, "  %d %-6s", slot + 1, cards[s->market[slot]].code);
    textbuf_printf(t, "  draw pile %d, discard pile %d\n", towerup_draw_count(s),
                   towerup_popcount(s->discard));
    if (observer < 0 && towerup_draw_count(s) > 0) {
        textbuf_printf(t, "Draw pile, top first (no player sees this):");
        for (int i = 0; i < towerup_draw_count(s); i++) {
            if (i % 12 == 0)
                textbuf_printf(t, "\n   ");
            textbuf_printf(t, " %s", cards[towerup_draw_card(s, i)].code);
        }
        textbuf_printf(t, "\n");
    }
    textbuf_printf(t, "Reserve:");
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        textbuf_printf(t, " %c %d", towerup_colour_letter[c], s->reserve[c]);
    textbuf_printf(t, "\nObjectives (chips left):");
    const uint8_t *values = towerup_chip_values(s->players);
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++) {
        textbuf_printf(t, "  %s (", towerup_objective_id[s->objectives[i]]);
        bool any = false;
        for (int k = s->chip_next[i]; values[k]; k++) {
            textbuf_printf(t, "%s%d", any ? " " : "", values[k]);
            any = true;
        }
        textbuf_printf(t, "%s)", any ? "" : "none");
    }
    textbuf_printf(t, "\n");
}

static void put_players(textbuf_t *t, const towerup_state_t *s)
{
    textbuf_printf(t, "     supply           markers          stars roofs cone chips"
                      " score  objectives met\n");
    for (int p = 0; p < s->players; p++) {
        bool moving = s->phase != TOWERUP_PHASE_OVER && s->to_move == p;
        textbuf_printf(t, "%s", moving ? "" : "  ");
        if (moving)
            textbuf_sym(t, "▶ ", "> ");
        textbuf_colour(t, TEXTBUF_BOLD);
        textbuf_colour(t, textbuf_player_colour(p));
        textbuf_printf(t, "P%d", p + 1);
        textbuf_colour(t, TEXTBUF_RESET);
        char field[32];
        snprintf(field, sizeof field, "K%d G%d W%d B%d", s->supply[p][0], s->supply[p][1],
                 s->supply[p][2], s->supply[p][3]);
        textbuf_printf(t, " %-16s", field);
        snprintf(field, sizeof field, "K%d G%d W%d B%d", s->markers[p][0], s->markers[p][1],
                 s->markers[p][2], s->markers[p][3]);
        textbuf_printf(t, " %-16s", field);
        if (s->cone[p] >= 0)
            snprintf(field, sizeof field, "%d", s->cone[p]);
        else
            snprintf(field, sizeof field, "(%d)", towerup_visible_roofs(s, p));
        int chips = 0;
        for (int i = 0; i < s->chip_count[p]; i++)
            chips += s->chips[p][i];
        textbuf_printf(t, " %5d %5d %4s %5d %5d ", towerup_star_level(s, p), s->roofs_left[p],
                       field, chips, towerup_score(s, p));
        bool any = false;
        for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
            if (s->met[p] >> i & 1) {
                textbuf_printf(t, " %s", towerup_objective_id[s->objectives[i]]);
                any = true;
            }
        textbuf_printf(t, "%s\n", any ? "" : " -");
    }
    textbuf_printf(t, "  (markers and cone in columns 0-15; a cone not yet set shows the visible "
                      "roofs)\n");
}

static void put_header(textbuf_t *t, const towerup_state_t *s, int observer)
{
    textbuf_printf(t, "Tower Up, %d players, %d turns played", s->players, s->turns);
    if (observer >= 0)
        textbuf_printf(t, ", as P%d sees it", observer + 1);
    textbuf_printf(t, "\n");
    if (s->phase == TOWERUP_PHASE_SETUP) {
        int c = s->setup_colour[s->setup_done];
        textbuf_printf(t, "Set-up: starting floor %d of %d, colour %s\n", s->setup_done + 1,
                       s->setup_count,
                       c == TOWERUP_WILD ? "of the placer's choice" : colour_names[c]);
    }
    if (s->end_trigger != TOWERUP_END_NONE)
        textbuf_printf(t, "End triggered by P%d (%s)%s\n", s->trigger_player + 1,
                       s->end_trigger == TOWERUP_END_SHORTAGE ? "shortage" : "last roof",
                       s->phase == TOWERUP_PHASE_OVER ? ""
                       : s->final_round               ? ": final round"
                                                      : "");
}

void towerup_diagram(const void *state, int observer, unsigned flags, char *buf, size_t len)
{
    const towerup_state_t *s = state;
    textbuf_t t;
    textbuf_init(&t, buf, len, flags);
    put_header(&t, s, observer);
    towerup_put_city(&t, s);
    put_cards(&t, s, observer);
    put_players(&t, s);
}

/* "gives back 1 G and 2 B" for the colours whose net change is negative. */
static void put_losses(textbuf_t *t, move_t m)
{
    int kinds = 0;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        kinds += towerup_move_net(m, c) < 0;
    int done = 0;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        int n = -towerup_move_net(m, c);
        if (n <= 0)
            continue;
        textbuf_printf(t, "%s%d %c",
                       done == 0           ? "gives back "
                       : done + 1 == kinds ? " and "
                                           : ", ",
                       n, towerup_colour_letter[c]);
        done++;
    }
}

/* A take's net change of the supply: "+K +W, gives back 1 B", "no floors net"; lead puts
   ": " (or ", " before "no floors net") in front, after the card's name. */
static void put_net(textbuf_t *t, move_t m, bool lead)
{
    bool gained = false, lost = false;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        for (int k = 0; k < towerup_move_net(m, c); k++) {
            textbuf_printf(t, "%s+%c", gained ? " " : lead ? ": " : "", towerup_colour_letter[c]);
            gained = true;
        }
        lost |= towerup_move_net(m, c) < 0;
    }
    if (lost) {
        textbuf_printf(t, "%s", gained ? ", " : lead ? ": " : "");
        put_losses(t, m);
    }
    if (!gained && !lost)
        textbuf_printf(t, "%sno floors net", lead ? ", " : "");
}

/* What the move brought about, from the states before and after it. */
static void put_consequences(textbuf_t *t, const towerup_state_t *s, const towerup_state_t *a,
                             int p)
{
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        int d = a->markers[p][c] - s->markers[p][c];
        if (d)
            textbuf_printf(t, "; %c marker +%d to %d", towerup_colour_letter[c], d,
                           a->markers[p][c]);
    }
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
        if ((a->met[p] & ~s->met[p]) >> i & 1)
            textbuf_printf(t, "; meets %s", towerup_objective_id[s->objectives[i]]);
    for (int i = s->chip_count[p]; i < a->chip_count[p]; i++)
        textbuf_printf(t, "; chip %d", a->chips[p][i]);
    if (s->end_trigger == TOWERUP_END_NONE && a->end_trigger != TOWERUP_END_NONE)
        textbuf_printf(t, "; %s: the end of the game is triggered",
                       a->end_trigger == TOWERUP_END_SHORTAGE ? "the reserve runs short"
                                                              : "last roof");
    if (a->phase == TOWERUP_PHASE_OVER)
        textbuf_printf(t, "; the game ends");
    else if (s->phase == TOWERUP_PHASE_PLAY &&
             towerup_star_level(a, p) > towerup_star_level(s, p) && a->to_move == p)
        textbuf_printf(t, "; earns an extra turn");
}

void towerup_move_describe(const void *state, move_t m, char *buf, size_t len)
{
    const towerup_state_t *s = state;
    textbuf_t t;
    textbuf_init(&t, buf, len, GAME_TEXT_ASCII);
    int p = s->to_move;
    int kind = towerup_move_kind(m);
    if (kind == TOWERUP_MOVE_PLACE) {
        textbuf_printf(&t, "places a starting %s floor on site %d",
                       colour_names[towerup_move_colour(m)], towerup_move_site(m));
        return;
    }
    towerup_state_t after = *s;
    towerup_undo_t u;
    towerup_make(&after, m, &u);
    if (kind == TOWERUP_MOVE_TAKE) {
        int slot = towerup_move_slot(m);
        textbuf_printf(&t, "takes market card %d (%s)", slot + 1,
                       towerup_cards()[s->market[slot]].code);
        put_net(&t, m, true);
    } else {
        int site = towerup_move_site(m), c = towerup_move_colour(m);
        int roof = towerup_move_roof(m);
        textbuf_printf(&t, "builds a %s floor on site %d", colour_names[c], site);
        uint64_t nbrs = s->board->nbr[site] & s->occupied;
        int count = towerup_popcount(nbrs), k = 0;
        textbuf_printf(&t, ", adds a floor to site%s", count > 1 ? "s" : "");
        for (uint64_t n = nbrs; n; n &= n - 1, k++)
            textbuf_printf(&t, "%s%d",
                           k == 0           ? " "
                           : k + 1 == count ? " and "
                                            : ", ",
                           __builtin_ctzll(n));
        textbuf_printf(&t, ", places a roof on site %d", roof);
        textbuf_printf(&t, " (level %d)", towerup_height(&after, roof));
    }
    put_consequences(&t, s, &after, p);
}

void towerup_move_group(const void *state, move_t m, char *group, char *way, size_t len)
{
    const towerup_state_t *s = state;
    int kind = towerup_move_kind(m);
    if (kind == TOWERUP_MOVE_TAKE)
        snprintf(group, len, "take card %d (%s)", towerup_move_slot(m) + 1,
                 towerup_cards()[s->market[towerup_move_slot(m)]].code);
    else
        snprintf(group, len, "%s on site %d", kind == TOWERUP_MOVE_PLACE ? "place" : "build",
                 towerup_move_site(m));
    textbuf_t t;
    textbuf_init(&t, way, len, GAME_TEXT_ASCII);
    if (kind == TOWERUP_MOVE_PLACE) {
        textbuf_printf(&t, "a %s floor", colour_names[towerup_move_colour(m)]);
        return;
    }
    towerup_state_t after = *s;
    towerup_undo_t u;
    towerup_make(&after, m, &u);
    if (kind == TOWERUP_MOVE_TAKE) {
        put_net(&t, m, false);
    } else {
        int roof = towerup_move_roof(m);
        textbuf_printf(&t, "a %s floor, the roof on site %d (level %d)",
                       colour_names[towerup_move_colour(m)], roof, towerup_height(&after, roof));
    }
    put_consequences(&t, s, &after, s->to_move);
}
