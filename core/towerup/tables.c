/* Tower Up data tables: personal board, cards, chips, objectives (RULES.md 1.1-1.4). */
#include <stdio.h>
#include <string.h>

#include "towerup.h"

const int towerup_column_value[TOWERUP_COLUMN_COUNT] = {0,  1,  2,  3,  4,  5,  6,  8,
                                                        10, 12, 14, 16, 18, 20, 22, 25};
/* Star columns 2, 4, 7, 10, 13: how many of them are <= each column. */
const uint8_t towerup_star_count[TOWERUP_COLUMN_COUNT] = {0, 0, 1, 1, 2, 2, 2, 3,
                                                          3, 3, 4, 4, 4, 5, 5, 5};
const char towerup_colour_letter[5] = {'K', 'G', 'W', 'B', '*'};
const char *const towerup_objective_id[TOWERUP_OBJECTIVE_COUNT] = {
    "colors", "park", "areas",   "lake",    "connected",
    "brown",  "grey", "borders", "doubles", "heights"};

/* The 44 cards of RULES.md 1.4: code, icons, vehicle, bottom, icons per colour, wilds
   (test_towerup_setup checks each entry against towerup_card_parse of its code). */
static const towerup_card_t card_table[TOWERUP_CARD_COUNT] = {
    {"KKGG", 4, {0, 0, 1, 1}, -1, 0, 0, {2, 2, 0, 0}, 0},
    {"GGKK", 4, {1, 1, 0, 0}, -1, 0, 1, {2, 2, 0, 0}, 0},
    {"KKWW", 4, {0, 0, 2, 2}, -1, 0, 0, {2, 0, 2, 0}, 0},
    {"WWKK", 4, {2, 2, 0, 0}, -1, 0, 2, {2, 0, 2, 0}, 0},
    {"KKBB", 4, {0, 0, 3, 3}, -1, 0, 0, {2, 0, 0, 2}, 0},
    {"BBKK", 4, {3, 3, 0, 0}, -1, 0, 3, {2, 0, 0, 2}, 0},
    {"GGWW", 4, {1, 1, 2, 2}, -1, 0, 1, {0, 2, 2, 0}, 0},
    {"WWGG", 4, {2, 2, 1, 1}, -1, 0, 2, {0, 2, 2, 0}, 0},
    {"GGBB", 4, {1, 1, 3, 3}, -1, 0, 1, {0, 2, 0, 2}, 0},
    {"BBGG", 4, {3, 3, 1, 1}, -1, 0, 3, {0, 2, 0, 2}, 0},
    {"WWBB", 4, {2, 2, 3, 3}, -1, 0, 2, {0, 0, 2, 2}, 0},
    {"BBWW", 4, {3, 3, 2, 2}, -1, 0, 3, {0, 0, 2, 2}, 0},
    {"KGW", 3, {0, 1, 2, 0}, -1, 0, 0, {1, 1, 1, 0}, 0},
    {"GWK", 3, {1, 2, 0, 0}, -1, 0, 1, {1, 1, 1, 0}, 0},
    {"WKG", 3, {2, 0, 1, 0}, -1, 0, 2, {1, 1, 1, 0}, 0},
    {"KGB", 3, {0, 1, 3, 0}, -1, 0, 0, {1, 1, 0, 1}, 0},
    {"GBK", 3, {1, 3, 0, 0}, -1, 0, 1, {1, 1, 0, 1}, 0},
    {"BKG", 3, {3, 0, 1, 0}, -1, 0, 3, {1, 1, 0, 1}, 0},
    {"KWB", 3, {0, 2, 3, 0}, -1, 0, 0, {1, 0, 1, 1}, 0},
    {"WBK", 3, {2, 3, 0, 0}, -1, 0, 2, {1, 0, 1, 1}, 0},
    {"BKW", 3, {3, 0, 2, 0}, -1, 0, 3, {1, 0, 1, 1}, 0},
    {"GWB", 3, {1, 2, 3, 0}, -1, 0, 1, {0, 1, 1, 1}, 0},
    {"WBG", 3, {2, 3, 1, 0}, -1, 0, 2, {0, 1, 1, 1}, 0},
    {"BGW", 3, {3, 1, 2, 0}, -1, 0, 3, {0, 1, 1, 1}, 0},
    {"**", 2, {4, 4, 0, 0}, -1, 0, 4, {0, 0, 0, 0}, 2},
    {"**", 2, {4, 4, 0, 0}, -1, 0, 4, {0, 0, 0, 0}, 2},
    {"**", 2, {4, 4, 0, 0}, -1, 0, 4, {0, 0, 0, 0}, 2},
    {"**", 2, {4, 4, 0, 0}, -1, 0, 4, {0, 0, 0, 0}, 2},
    {"*:K2", 1, {4, 0, 0, 0}, 0, 2, 4, {0, 0, 0, 0}, 1},
    {"*:G2", 1, {4, 0, 0, 0}, 1, 2, 4, {0, 0, 0, 0}, 1},
    {"*:W2", 1, {4, 0, 0, 0}, 2, 2, 4, {0, 0, 0, 0}, 1},
    {"*:B2", 1, {4, 0, 0, 0}, 3, 2, 4, {0, 0, 0, 0}, 1},
    {"GW:K1", 2, {1, 2, 0, 0}, 0, 1, 1, {0, 1, 1, 0}, 0},
    {"GB:K1", 2, {1, 3, 0, 0}, 0, 1, 1, {0, 1, 0, 1}, 0},
    {"WB:K1", 2, {2, 3, 0, 0}, 0, 1, 2, {0, 0, 1, 1}, 0},
    {"KW:G1", 2, {0, 2, 0, 0}, 1, 1, 0, {1, 0, 1, 0}, 0},
    {"KB:G1", 2, {0, 3, 0, 0}, 1, 1, 0, {1, 0, 0, 1}, 0},
    {"WB:G1", 2, {2, 3, 0, 0}, 1, 1, 2, {0, 0, 1, 1}, 0},
    {"KG:W1", 2, {0, 1, 0, 0}, 2, 1, 0, {1, 1, 0, 0}, 0},
    {"KB:W1", 2, {0, 3, 0, 0}, 2, 1, 0, {1, 0, 0, 1}, 0},
    {"GB:W1", 2, {1, 3, 0, 0}, 2, 1, 1, {0, 1, 0, 1}, 0},
    {"KG:B1", 2, {0, 1, 0, 0}, 3, 1, 0, {1, 1, 0, 0}, 0},
    {"KW:B1", 2, {0, 2, 0, 0}, 3, 1, 0, {1, 0, 1, 0}, 0},
    {"GW:B1", 2, {1, 2, 0, 0}, 3, 1, 1, {0, 1, 1, 0}, 0},
};

int towerup_colour_from_letter(char c, bool allow_wild)
{
    for (int i = 0; i < 4; i++)
        if (towerup_colour_letter[i] == c)
            return i;
    if (allow_wild && c == '*')
        return TOWERUP_WILD;
    return -1;
}

int towerup_card_parse(const char *code, towerup_card_t *k)
{
    memset(k, 0, sizeof *k);
    if (strlen(code) >= sizeof k->code)
        return -1;
    strcpy(k->code, code);
    k->vehicle = -1;
    const char *p = code;
    for (; *p && *p != ':'; p++) {
        int c = towerup_colour_from_letter(*p, true);
        if (c < 0 || k->icon_count == 4)
            return -1;
        k->icons[k->icon_count++] = (uint8_t)c;
        if (c == TOWERUP_WILD)
            k->wild_icons++;
        else
            k->colour_icons[c]++;
    }
    if (*p == ':') {
        k->vehicle = (int8_t)towerup_colour_from_letter(p[1], false);
        if (k->vehicle < 0 || (p[2] != '1' && p[2] != '2') || p[3])
            return -1;
        k->steps = (uint8_t)(p[2] - '0');
    }
    if (!k->icon_count)
        return -1;
    k->bottom = k->icons[0];
    return 0;
}

const towerup_card_t *towerup_cards(void) { return card_table; }

const uint8_t *towerup_chip_values(int players)
{
    static const uint8_t four[] = {7, 5, 3, 3, 0}, three[] = {7, 5, 3, 0}, two[] = {7, 3, 0};
    return players >= 4 ? four : players == 3 ? three : two;
}

void towerup_objective_names(char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < TOWERUP_OBJECTIVE_COUNT && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", towerup_objective_id[i]);
}

int towerup_objective_find(const char *id)
{
    for (int i = 0; i < TOWERUP_OBJECTIVE_COUNT; i++)
        if (!strcmp(id, towerup_objective_id[i]))
            return i;
    return -1;
}
