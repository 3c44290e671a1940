/*
 * Tower Up position notation (docs/NOTATION.md): `towerup BOARD PLAYERS VIEW OBJECTIVES
 * TURN FIRST PHASE TURNS END CITY MARKET PILE DISCARD PLAYER...`.
 */
#include <stdio.h>
#include <string.h>

#include "core/input.h"
#include "internal.h"

enum { FIELD_PLAYERS = 14 }; /* index of the first PLAYER field */

/* The first card index with the same code as card i (identical cards are one code). */
static int code_first(int i)
{
    const towerup_card_t *k = towerup_cards();
    for (int j = 0; j < i; j++)
        if (!strcmp(k[j].code, k[i].code))
            return j;
    return i;
}

static char *write_list(char *t, const uint8_t *v, int n)
{
    for (int i = 0; i < n; i++)
        t += sprintf(t, "%s%d", i ? "," : "", v[i]);
    return t;
}

void towerup_position_write(const void *state, int observer, char *buf, size_t len)
{
    const towerup_state_t *s = state;
    const towerup_card_t *cards = towerup_cards();
    char text[GAME_POSITION_MAX], *t = text;
    t += sprintf(t, "towerup %s %d ", s->board->name, s->players);
    t += observer < 0 ? sprintf(t, "- ") : sprintf(t, "%d ", observer);
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
        t += sprintf(t, "%s%c", towerup_objective_id[s->objectives[i]],
                     i + 1 < TOWERUP_GAME_OBJECTIVES ? ',' : ' ');
    t += sprintf(t, "%d %d ", s->to_move, s->first_player);
    if (s->phase == TOWERUP_PHASE_SETUP) {
        t += sprintf(t, "setup:");
        for (int i = s->setup_done; i < s->setup_count; i++)
            *t++ = towerup_colour_letter[s->setup_colour[i]];
        *t++ = ' ';
    } else {
        t += sprintf(t, "%s ", s->phase == TOWERUP_PHASE_PLAY ? "play" : "over");
    }
    t += sprintf(t, "%d ", s->turns);
    if (!s->end_trigger)
        t += sprintf(t, "- ");
    else
        t += sprintf(t, "%s:%d", s->end_trigger == TOWERUP_END_LAST_ROOF ? "roof" : "shortage",
                     s->trigger_player);
    if (s->end_trigger)
        t += s->final_round ? sprintf(t, "/%d ", s->final_left) : sprintf(t, " ");
    for (int i = 0; i < s->board->site_count; i++) {
        int h = towerup_height(s, i);
        if (!h)
            *t++ = '.';
        else
            *t++ = towerup_colour_letter[towerup_site_colour(s, i)];
        for (int l = 1; l <= h; l++) {
            int o = towerup_roof_owner(s, i, l);
            *t++ = o < 0 ? '-' : (char)('0' + o);
        }
    }
    for (int i = 0; i < TOWERUP_MARKET; i++)
        t += sprintf(t, "%c%s", i ? ',' : ' ', cards[s->market[i]].code);
    t += sprintf(t, " %d ", towerup_draw_count(s));
    /* The discard pile by code, in the order of the codes' first cards. */
    int listed = 0;
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++) {
        if (code_first(i) != i)
            continue;
        for (int j = i; j < TOWERUP_CARD_COUNT; j++)
            if ((s->discard >> j & 1) && code_first(j) == i)
                t += sprintf(t, "%s%s", listed++ ? "," : "", cards[j].code);
    }
    if (!listed)
        *t++ = '-';
    for (int p = 0; p < s->players; p++) {
        *t++ = ' ';
        t = write_list(t, s->supply[p], TOWERUP_COLOUR_COUNT);
        *t++ = '/';
        t = write_list(t, s->markers[p], TOWERUP_COLOUR_COUNT);
        t += s->cone[p] < 0 ? sprintf(t, "/-/") : sprintf(t, "/%d/", s->cone[p]);
        for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
            if (s->met[p] >> i & 1)
                *t++ = (char)('1' + i);
        if (!s->met[p])
            *t++ = '-';
        *t++ = '/';
        if (!s->chip_count[p])
            *t++ = '-';
        t = write_list(t, s->chips[p], s->chip_count[p]);
    }
    *t = '\0';
    snprintf(buf, len, "%s", text);
}

/* An error naming the field at fault and quoting its text (NULL: no single text). */
#define FAIL(field, input, ...) return input_fail(err, errlen, field, input, __VA_ARGS__)

/* A whole number in [lo, hi] from text up to end (NULL: the end of text), or -1. */
static int read_int(const char *text, const char *end, int lo, int hi)
{
    if (!end)
        end = text + strlen(text);
    if (end == text || end - text > 4 || (*text == '0' && end - text > 1))
        return -1; /* canonical: no leading zeros */
    int v = 0;
    for (const char *p = text; p < end; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
    }
    return v >= lo && v <= hi ? v : -1;
}

/* count numbers in [lo, hi] joined by ',' from text up to end into v. */
static int read_list(const char *text, const char *end, int count, int lo, int hi, uint8_t *v)
{
    const char *p = text;
    for (int i = 0; i < count; i++) {
        const char *e = memchr(p, ',', (size_t)(end - p));
        if ((e != NULL) != (i + 1 < count))
            return -1;
        int x = read_int(p, e ? e : end, lo, hi);
        if (x < 0)
            return -1;
        v[i] = (uint8_t)x;
        p = e ? e + 1 : end;
    }
    return 0;
}

/* A card code naming a card not yet used (taken from *used): its index, or -1. */
static int take_card(const char *code, size_t n, uint64_t *used)
{
    const towerup_card_t *k = towerup_cards();
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++)
        if (!(*used >> i & 1) && strlen(k[i].code) == n && !strncmp(k[i].code, code, n)) {
            *used |= 1ULL << i;
            return i;
        }
    return -1;
}

static int read_city(towerup_state_t *s, const char *text, char *err, size_t errlen)
{
    const char *p = text;
    int roofs[TOWERUP_MAX_PLAYERS] = {0};
    for (int i = 0; i < s->board->site_count; i++) {
        if (!*p)
            FAIL("city", text, "%d sites given, the board has %d", i, s->board->site_count);
        if (*p == '.') {
            p++;
            continue;
        }
        int c = towerup_colour_from_letter(*p++, false), h = 0;
        if (c < 0)
            FAIL("city", text, "site %d is not '.' or a colour K G W B followed by its floors", i);
        for (; *p == '-' || (*p >= '0' && *p < '0' + s->players); p++, h++) {
            if (h == 1 + TOWERUP_MAX_DEGREE)
                FAIL("city", text, "site %d has more than %d floors", i, 1 + TOWERUP_MAX_DEGREE);
            if (*p != '-') {
                s->roofs[i] |= (uint32_t)(*p - '0' + 1) << (3 * h);
                if (++roofs[*p - '0'] > TOWERUP_ROOFS)
                    FAIL("city", text, "player %d has more than %d roofs", *p - '0', TOWERUP_ROOFS);
            }
        }
        if (!h)
            FAIL("city", text, "site %d has no floors ('-', or the roof owner 0-%d, per floor)", i,
                 s->players - 1);
        s->site[i] = (uint8_t)(h | c << 4);
    }
    if (*p)
        FAIL("city", text, "more sites than the board's %d, or a bad character",
             s->board->site_count);
    /* A building grows one floor for each neighbour founded after it (RULES.md 1.6), so it
       has at least height - 1 neighbouring buildings; a taller one could outgrow any site. */
    uint64_t built = 0;
    for (int i = 0; i < s->board->site_count; i++)
        if (s->site[i])
            built |= (uint64_t)1 << i;
    for (int i = 0; i < s->board->site_count; i++) {
        int h = s->site[i] & 15, n = __builtin_popcountll(s->board->nbr[i] & built);
        if (s->site[i] && h - 1 > n)
            FAIL("city", text, "site %d has %d floors but only %d neighbouring buildings", i, h, n);
    }
    return 0;
}

static int read_cards(towerup_state_t *s, char **f, uint64_t *used, char *err, size_t errlen)
{
    const char *p = f[11];
    for (int i = 0; i < TOWERUP_MARKET; i++) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        int k = (e != NULL) == (i + 1 < TOWERUP_MARKET) ? take_card(p, n, used) : -1;
        if (k < 0)
            FAIL("market", f[11], "give three card codes joined by ',' (cards of the deck)");
        s->market[i] = (uint8_t)k;
        p = e ? e + 1 : p + n;
    }
    int discards = 0, last = 0;
    if (strcmp(f[13], "-")) {
        for (p = f[13];; discards++) {
            const char *e = strchr(p, ',');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            int k = take_card(p, n, used);
            if (k < 0)
                FAIL("discard", f[13], "'%.*s' is not a card code left in the deck",
                     (int)(n < 8 ? n : 8), p);
            /* One way to write a pile: the codes in the deck table's order. */
            if (code_first(k) < last)
                FAIL("discard", f[13],
                     "'%.*s' is out of order (the codes go in the deck table's order)",
                     (int)(n < 8 ? n : 8), p);
            last = code_first(k);
            if (!e)
                break;
            p = e + 1;
        }
        discards++;
    }
    int pile = read_int(f[12], NULL, 0, TOWERUP_CARD_COUNT);
    if (pile != TOWERUP_CARD_COUNT - TOWERUP_MARKET - discards)
        FAIL("pile", f[12], "the draw pile holds the %d cards in neither market nor discard",
             TOWERUP_CARD_COUNT - TOWERUP_MARKET - discards);
    return 0;
}

/* PLAYER field SUPPLY/MARKERS/CONE/MET/CHIPS of player p. */
static int read_player(towerup_state_t *s, int p, const char *text, char *err, size_t errlen)
{
    const char *part[6], *p0 = text;
    char field[24];
    snprintf(field, sizeof field, "player %d", p);
    int n = 0;
    for (part[n++] = p0; (p0 = strchr(p0, '/')) != NULL && n < 6; part[n++] = ++p0)
        ;
    if (n != 5)
        FAIL(field, text, "must be SUPPLY/MARKERS/CONE/MET/CHIPS");
    if (read_list(part[0], part[1] - 1, TOWERUP_COLOUR_COUNT, 0, TOWERUP_SUPPLY_MAX, s->supply[p]) <
        0)
        FAIL(field, text, "the supply is 4 floor counts (K,G,W,B) of 0-10");
    if (towerup_supply_total(s, p) > TOWERUP_SUPPLY_MAX)
        FAIL(field, text, "the supply holds more than %d floors", TOWERUP_SUPPLY_MAX);
    if (read_list(part[1], part[2] - 1, TOWERUP_COLOUR_COUNT, 0, TOWERUP_COLUMN_COUNT - 1,
                  s->markers[p]) < 0)
        FAIL(field, text, "the markers are 4 columns (K,G,W,B) of 0-15");
    s->cone[p] = -1;
    if (part[3] - 1 - part[2] != 1 || part[2][0] != '-') {
        int v = read_int(part[2], part[3] - 1, 0, TOWERUP_CONE_MAX);
        if (v < 0)
            FAIL(field, text, "the cone is '-' or a column 0-%d", TOWERUP_CONE_MAX);
        s->cone[p] = (int8_t)v;
    }
    if (part[4] - 1 == part[3])
        FAIL(field, text, "objectives met are '-' or slots 1-3 in order");
    if (part[4] - 1 - part[3] != 1 || part[3][0] != '-')
        for (const char *q = part[3]; q < part[4] - 1; q++) {
            int i = *q - '1';
            if (i < 0 || i >= TOWERUP_GAME_OBJECTIVES || (s->met[p] >> i & 1) || (s->met[p] >> i))
                FAIL(field, text, "objectives met are '-' or slots 1-3 in order");
            s->met[p] |= (uint8_t)(1u << i);
        }
    int chips = __builtin_popcount(s->met[p]);
    const char *end = part[4] + strlen(part[4]);
    if (chips ? read_list(part[4], end, chips, 3, 7, s->chips[p]) < 0 : strcmp(part[4], "-"))
        FAIL(field, text, "the chips are one value per objective met, in the order won");
    for (int i = 0; i < chips; i++)
        if (s->chips[p][i] != 3 && s->chips[p][i] != 5 && s->chips[p][i] != 7)
            FAIL(field, text, "chip %d is not 7, 5 or 3", s->chips[p][i]);
    s->chip_count[p] = (uint8_t)chips;
    return 0;
}

/* PHASE, TURNS and END, with what they imply for each other. */
static int read_turn(towerup_state_t *s, char **f, char *err, size_t errlen)
{
    int to_move = read_int(f[5], NULL, 0, s->players - 1);
    int first = read_int(f[6], NULL, 0, s->players - 1);
    if (to_move < 0 || first < 0)
        FAIL(to_move < 0 ? "turn" : "first", to_move < 0 ? f[5] : f[6], "not a player 0-%d",
             s->players - 1);
    s->to_move = (uint8_t)to_move;
    s->first_player = (uint8_t)first;
    int turns = read_int(f[8], NULL, 0, TOWERUP_MAX_TURNS);
    if (turns < 0)
        FAIL("turns", f[8], "not a turn count 0-%d", TOWERUP_MAX_TURNS);
    s->turns = (uint16_t)turns;
    if (!strncmp(f[7], "setup:", 6)) {
        int n = (int)strlen(f[7] + 6), done = towerup_popcount(s->occupied);
        if (n < 1 || done + n > (s->players == 4 ? 5 : TOWERUP_MAX_START_FLOORS))
            FAIL("phase", f[7], "setup: lists the 1 to %d starting floors still to place",
                 (s->players == 4 ? 5 : TOWERUP_MAX_START_FLOORS) - done);
        for (int i = 0; i < n; i++) {
            int c = towerup_colour_from_letter(f[7][6 + i], true);
            if (c < 0)
                FAIL("phase", f[7], "starting floor '%c' is not K G W B or *", f[7][6 + i]);
            s->setup_colour[done + i] = (uint8_t)c;
        }
        s->setup_done = (uint8_t)done;
        s->setup_count = (uint8_t)(done + n);
        if (to_move != (first + s->players - 1) % s->players)
            FAIL("turn", f[5], "the last player before the first places the starting floors");
        if (turns)
            FAIL("turns", f[8], "no turn is played during the set-up");
        if (strcmp(f[9], "-"))
            FAIL("end", f[9], "no end is triggered during the set-up");
        /* Any set of fewer floors than the board takes is reached from an empty board, so
           the rest of the set-up never runs out of sites. */
        char why[GAME_ERR_MAX];
        if (towerup_setup_fits(s->board, s->setup_count, why, sizeof why) < 0)
            FAIL("phase", f[7], "%s", why);
        s->phase = TOWERUP_PHASE_SETUP;
    } else if (!strcmp(f[7], "play") || !strcmp(f[7], "over")) {
        s->phase = f[7][0] == 'p' ? TOWERUP_PHASE_PLAY : TOWERUP_PHASE_OVER;
        s->setup_done = s->setup_count = 3;
        if (s->phase == TOWERUP_PHASE_PLAY && turns == TOWERUP_MAX_TURNS)
            FAIL("turns", f[8], "the game ends after turn %d", TOWERUP_MAX_TURNS);
    } else {
        FAIL("phase", f[7], "not setup:COLOURS, play or over");
    }
    if (strcmp(f[9], "-")) {
        const char *colon = strchr(f[9], ':'), *slash = strchr(f[9], '/');
        size_t kind = colon ? (size_t)(colon - f[9]) : 0;
        int who = colon ? read_int(colon + 1, slash, 0, s->players - 1) : -1;
        int left = slash ? read_int(slash + 1, NULL, 0, s->players) : 0;
        if (who < 0 || left < 0 ||
            !((kind == 4 && !strncmp(f[9], "roof", 4)) ||
              (kind == 8 && !strncmp(f[9], "shortage", 8))))
            FAIL("end", f[9], "not '-', roof:P, shortage:P, roof:P/N or shortage:P/N");
        s->end_trigger = f[9][0] == 'r' ? TOWERUP_END_LAST_ROOF : TOWERUP_END_SHORTAGE;
        s->trigger_player = (uint8_t)who;
        s->final_round = slash != NULL;
        s->final_left = (uint8_t)left;
        if (s->phase == TOWERUP_PHASE_PLAY && !slash && to_move != who)
            FAIL("end", f[9], "player %d's trigger turn goes on, so player %d is to move", who,
                 who);
        if (s->phase == TOWERUP_PHASE_PLAY && slash && !left)
            FAIL("end", f[9], "no final turn left, so the game is over");
    }
    return 0;
}

/*
 * The first three starting floors are the bottoms of market slots 1-3 in order (RULES.md
 * 1.5; a wild bottom is any colour), and the market does not change before turn 1: those
 * still to place must be those bottoms, and those placed must hold them. 0, or -1.
 */
static int check_start_colours(const towerup_state_t *s, char *err, size_t errlen)
{
    const towerup_card_t *cards = towerup_cards();
    int done = s->phase == TOWERUP_PHASE_SETUP ? s->setup_done : TOWERUP_MARKET;
    int count = s->phase == TOWERUP_PHASE_SETUP ? s->setup_count : TOWERUP_MARKET;
    for (int i = done; i < count && i < TOWERUP_MARKET; i++)
        if (s->setup_colour[i] != cards[s->market[i]].bottom)
            FAIL("phase", NULL, "starting floor %d is '%c', but market slot %d's bottom is '%c'",
                 i + 1, towerup_colour_letter[s->setup_colour[i]], i + 1,
                 towerup_colour_letter[cards[s->market[i]].bottom]);
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        int need = 0;
        for (int i = 0; i < done && i < TOWERUP_MARKET; i++)
            need += cards[s->market[i]].bottom == c;
        if (towerup_popcount(s->colour_mask[c]) < need)
            FAIL("city", NULL, "%d starting floors of %c, but market slots 1-%d show %d %c bottoms",
                 towerup_popcount(s->colour_mask[c]), towerup_colour_letter[c],
                 done < TOWERUP_MARKET ? done : TOWERUP_MARKET, need, towerup_colour_letter[c]);
    }
    return 0;
}

/*
 * Before the first turn (the set-up, or play at turn 0) nothing but starting floors has
 * happened: no roof, every supply one floor of each colour, every marker in column 0, no
 * cone, nothing met, no card taken. 0, or -1 with err filled.
 */
static int check_unplayed(const towerup_state_t *s, const char *discard, char *err, size_t errlen)
{
    if (s->phase != TOWERUP_PHASE_SETUP && s->turns)
        return 0;
    const char *when = s->phase == TOWERUP_PHASE_SETUP ? "during the set-up" : "before turn 1";
    for (int p = 0; p < s->players; p++)
        if (s->present[p])
            FAIL("phase", NULL, "no roof is placed %s", when);
    for (int i = 0; i < s->board->site_count; i++)
        if (s->site[i] &&
            (towerup_height(s, i) > 1 || (s->board->nbr[i] & s->colour_mask[s->site[i] >> 4])))
            FAIL("city", NULL, "starting floors stand one floor high, never next to their colour");
    int placed = towerup_popcount(s->occupied), most = s->players == 4 ? 5 : 7;
    if (s->phase != TOWERUP_PHASE_SETUP && (placed < 3 || placed > most))
        FAIL("city", NULL, "%d buildings before turn 1, but 3 to %d starting floors", placed, most);
    for (int p = 0; p < s->players; p++) {
        char field[16];
        snprintf(field, sizeof field, "player %d", p);
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
            if (s->supply[p][c] != 1)
                FAIL(field, NULL, "the supply is one floor of each colour (1,1,1,1) %s", when);
            if (s->markers[p][c])
                FAIL(field, NULL, "the markers stand in column 0 %s", when);
        }
        if (s->cone[p] >= 0)
            FAIL(field, NULL, "no cone is set %s", when);
        if (s->met[p])
            FAIL(field, NULL, "no objective is met %s", when);
    }
    if (strcmp(discard, "-"))
        FAIL("discard", discard, "no card is taken %s, so the pile is '-'", when);
    return check_start_colours(s, err, errlen);
}

/*
 * The end (RULES.md 1.9) against the cones and roofs: a roof trigger is a player's tenth
 * roof and a tenth roof triggers an end; a cone is set exactly when its player's final
 * turn is over (all of them once the game is over); the final round goes in turn order
 * from the trigger player; the game is over only when the round is done or after the last
 * turn; a cone stands at most at the roofs placed and at least at the roofs still seen.
 */
static int check_end(const towerup_state_t *s, char *err, size_t errlen)
{
    int n = s->players, who = s->trigger_player;
    bool roof = s->end_trigger == TOWERUP_END_LAST_ROOF, due[TOWERUP_MAX_PLAYERS] = {false};
    for (int p = 0; p < n; p++)
        if (!s->roofs_left[p] && !s->end_trigger)
            FAIL("end", NULL, "player %d has placed all %d roofs, so the end is triggered", p,
                 TOWERUP_ROOFS);
    if (roof && s->roofs_left[who])
        FAIL("end", NULL, "roof:%d, but player %d has %d roofs left", who, who, s->roofs_left[who]);
    if (s->final_round) {
        int turns = roof ? n - 1 : n, done = turns - s->final_left;
        if (done < 0)
            FAIL("end", NULL, "%d final turns left, but the final round has %d", s->final_left,
                 turns);
        for (int k = roof ? 0 : 1; k <= done; k++)
            due[(who + k) % n] = true;
        int next = (who + done + 1) % n;
        if (s->phase == TOWERUP_PHASE_PLAY && s->to_move != next)
            FAIL("turn", NULL, "player %d plays the next final turn, not player %d", next,
                 s->to_move);
    }
    if (s->phase == TOWERUP_PHASE_OVER) {
        if (s->turns < TOWERUP_MAX_TURNS && !(s->final_round && !s->final_left))
            FAIL("phase", NULL,
                 "over only once the final round is done (end roof:P/0 or "
                 "shortage:P/0) or after turn %d",
                 TOWERUP_MAX_TURNS);
        for (int p = 0; p < n; p++)
            due[p] = true;
    }
    for (int p = 0; p < n; p++) {
        char field[16];
        snprintf(field, sizeof field, "player %d", p);
        if ((s->cone[p] >= 0) != due[p])
            FAIL(field, NULL,
                 due[p] ? "the final turn is over, so the cone is set"
                        : "a cone is set only when the player's final turn is over");
        int seen = towerup_visible_roofs(s, p), placed = TOWERUP_ROOFS - s->roofs_left[p];
        if (due[p] && (s->cone[p] > placed || s->cone[p] < (seen < 7 ? seen : 7)))
            FAIL(field, NULL, "the cone stands in column %d, but %d roofs are placed and %d seen",
                 s->cone[p], placed, seen);
    }
    return 0;
}

/*
 * Objectives met against the city: a player's roofs meet exactly the objectives listed
 * (they are settled after every roof and roofs stay), and the chips are those the
 * objectives give, the k players meeting one taking its k highest chips. 0, or -1.
 */
static int check_objectives(const towerup_state_t *s, char *err, size_t errlen)
{
    const uint8_t *values = towerup_chip_values(s->players);
    int want[8] = {0}, got[8] = {0};
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++) {
        int k = 0;
        for (int p = 0; p < s->players; p++) {
            bool listed = s->met[p] >> i & 1, met = towerup_objective_met(s, p, s->objectives[i]);
            char field[16];
            snprintf(field, sizeof field, "player %d", p);
            if (listed != met)
                FAIL(field, NULL,
                     listed ? "objective %d (%s) is listed as met, but the roofs do not meet it"
                            : "the roofs meet objective %d (%s), but it is not listed as met",
                     i + 1, towerup_objective_id[s->objectives[i]]);
            k += met;
        }
        for (int j = 0; j < k && values[j]; j++)
            want[values[j] & 7]++;
    }
    for (int p = 0; p < s->players; p++)
        for (int j = 0; j < s->chip_count[p]; j++)
            got[s->chips[p][j] & 7]++;
    for (int v = 7; v >= 3; v -= 2)
        if (want[v] != got[v])
            FAIL("chips", NULL, "%d chips of %d are held, but the objectives met give %d", got[v],
                 v, want[v]);
    return 0;
}

int towerup_position_read(void *state, const char *text, const game_options_t *opt, pcg32_t *rng,
                          int *view, char *err, size_t errlen)
{
    towerup_state_t *s = state;
    char copy[GAME_POSITION_MAX], *f[FIELD_PLAYERS + TOWERUP_MAX_PLAYERS + 1];
    snprintf(copy, sizeof copy, "%s", text);
    int n = game_position_split(copy, f, FIELD_PLAYERS + TOWERUP_MAX_PLAYERS + 1, err, errlen);
    if (n < 0)
        return -1;
    memset(s, 0, sizeof *s);
    int players = n > 2 ? read_int(f[2], NULL, 2, TOWERUP_MAX_PLAYERS) : -1;
    if (players < 0)
        FAIL("players", n > 2 ? f[2] : NULL, "Tower Up is for 2 to %d players",
             TOWERUP_MAX_PLAYERS);
    s->players = (uint8_t)players;
    if (n != FIELD_PLAYERS + players)
        FAIL("position", NULL,
             "towerup with %d players takes %d fields (see docs/NOTATION.md), not %d", players,
             FIELD_PLAYERS + players, n);
    /* The board: a built-in one by name, or the file given alongside with that name. */
    const towerup_board_t *b = towerup_board_builtin(f[1]);
    const char *board_option = game_options_get(opt, "board");
    if (board_option) {
        char why[GAME_ERR_MAX];
        b = towerup_board_get(board_option, why, sizeof why);
        if (!b)
            FAIL("board", board_option, "%s", why);
        if (strcmp(b->name, f[1]))
            FAIL("board", f[1], "not the board given ('%s')", b->name);
    }
    if (!b)
        FAIL("board", f[1], "not a built-in board (give its file alongside)");
    s->board = b;
    int v = strcmp(f[3], "-") ? read_int(f[3], NULL, 0, players - 1) : -1;
    if (v < 0 && strcmp(f[3], "-"))
        FAIL("view", f[3], "not '-' or a player 0-%d", players - 1);
    char objectives[64];
    snprintf(objectives, sizeof objectives, "%s", f[4]);
    char *o = objectives;
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++) {
        char *e = strchr(o, ',');
        if ((e != NULL) != (i + 1 < TOWERUP_GAME_OBJECTIVES))
            FAIL("objectives", f[4], "three objective ids joined by ','");
        if (e)
            *e = '\0';
        int id = towerup_objective_find(o);
        for (int j = 0; j < i && id >= 0; j++)
            id = s->objectives[j] == id ? -1 : id;
        if (id < 0)
            FAIL("objectives", f[4], "'%s' is not an objective id or is named twice", o);
        s->objectives[i] = (uint8_t)id;
        o = e ? e + 1 : o;
    }
    uint64_t used = 0;
    if (read_city(s, f[10], err, errlen) < 0 || read_cards(s, f, &used, err, errlen) < 0)
        return -1;
    for (int p = 0; p < players; p++)
        if (read_player(s, p, f[FIELD_PLAYERS + p], err, errlen) < 0)
            return -1;
    for (int p = players; p < TOWERUP_MAX_PLAYERS; p++)
        s->cone[p] = -1;
    towerup_fix_derived(s);
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        if (s->reserve[c] > TOWERUP_FLOORS_PER_COLOUR)
            FAIL("city", f[10], "the city and supplies hold more than %d %c floors",
                 TOWERUP_FLOORS_PER_COLOUR, towerup_colour_letter[c]);
    if (read_turn(s, f, err, errlen) < 0 || check_unplayed(s, f[13], err, errlen) < 0 ||
        check_end(s, err, errlen) < 0 || check_objectives(s, err, errlen) < 0)
        return -1;
    /* Hidden: the draw pile's order and the reshuffle stream. */
    int k = 0;
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++)
        if (!(used >> i & 1))
            s->draw[k++] = (uint8_t)i;
    pcg32_shuffle_u8(rng, s->draw, k);
    s->draw_pos = 0;
    s->draw_end = (uint8_t)k;
    uint64_t hi = pcg32_next(rng), lo = pcg32_next(rng);
    s->seed = hi << 32 | lo;
    pcg32_seed(&s->rng, s->seed, pcg32_next(rng));
    towerup_fix_derived(s);
    *view = v;
    return 0;
}
