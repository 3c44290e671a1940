/* Tower Up data tables: personal board, cards, chips, objectives (RULES.md 1.1-1.4). */
#include <pthread.h>
#include <string.h>

#include "towerup.h"

const int towerup_column_value[TOWERUP_COLUMN_COUNT] = {0,  1,  2,  3,  4,  5,  6,  8,
                                                        10, 12, 14, 16, 18, 20, 22, 25};
/* Star columns 2, 4, 7, 10, 13: how many of them are <= each column. */
const uint8_t towerup_star_count[TOWERUP_COLUMN_COUNT] = {0, 0, 1, 1, 2, 2, 2, 3,
                                                          3, 3, 4, 4, 4, 5, 5, 5};
const char towerup_colour_letter[5] = {'K', 'G', 'W', 'B', '*'};
const char *const towerup_objective_id[TOWERUP_OBJECTIVE_COUNT] = {
    "colors", "park", "areas", "lake", "connected",
    "brown",  "grey", "borders", "doubles", "heights"};

static const char *const card_codes[TOWERUP_CARD_COUNT] = {
    "KKGG", "GGKK", "KKWW", "WWKK", "KKBB", "BBKK", "GGWW", "WWGG", "GGBB", "BBGG",
    "WWBB", "BBWW", "KGW",  "GWK",  "WKG",  "KGB",  "GBK",  "BKG",  "KWB",  "WBK",
    "BKW",  "GWB",  "WBG",  "BGW",  "**",   "**",   "**",   "**",   "*:K2", "*:G2",
    "*:W2", "*:B2", "GW:K1", "GB:K1", "WB:K1", "KW:G1", "KB:G1", "WB:G1", "KG:W1",
    "KB:W1", "GB:W1", "KG:B1", "KW:B1", "GW:B1"};

static towerup_card_t card_table[TOWERUP_CARD_COUNT];
static pthread_once_t card_once = PTHREAD_ONCE_INIT;

int towerup_colour_from_letter(char c, bool allow_wild)
{
    for (int i = 0; i < 4; i++)
        if (towerup_colour_letter[i] == c)
            return i;
    if (allow_wild && c == '*')
        return TOWERUP_WILD;
    return -1;
}

static void cards_init(void)
{
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++) {
        towerup_card_t *k = &card_table[i];
        const char *p = card_codes[i];
        memset(k, 0, sizeof *k);
        strcpy(k->code, p);
        k->vehicle = -1;
        for (; *p && *p != ':'; p++) {
            int c = towerup_colour_from_letter(*p, true);
            k->icons[k->icon_count++] = (uint8_t)c;
            if (c == TOWERUP_WILD)
                k->wild_icons++;
            else
                k->colour_icons[c]++;
        }
        if (*p == ':') {
            k->vehicle = (int8_t)towerup_colour_from_letter(p[1], false);
            k->steps = (uint8_t)(p[2] - '0');
        }
        k->bottom = k->icons[0];
    }
}

const towerup_card_t *towerup_cards(void)
{
    pthread_once(&card_once, cards_init);
    return card_table;
}

const uint8_t *towerup_chip_values(int players)
{
    static const uint8_t four[] = {7, 5, 3, 3, 0}, three[] = {7, 5, 3, 0}, two[] = {7, 3, 0};
    return players >= 4 ? four : players == 3 ? three : two;
}

int towerup_objective_find(const char *id)
{
    for (int i = 0; i < TOWERUP_OBJECTIVE_COUNT; i++)
        if (!strcmp(id, towerup_objective_id[i]))
            return i;
    return -1;
}
