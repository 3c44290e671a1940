/*
 * Tower Up's integer actions and observation tensor (docs/PYTHON.md).
 *
 * Actions, 21475 ids for every player count and board (sites 0..63):
 *   [0, 256)        place a starting floor: site * 4 + colour
 *   [256, 19939)    take: 256 + slot * 6561 + sum over colours c of (net[c] + 4) * 9^c,
 *                   net[c] in -4..4 the move's net supply change (a supply holds at most
 *                   10 floors when a turn begins and a card gives at most 4)
 *   [19939, 21475)  build: 19939 + (site * 4 + colour) * 6 + r, r = 0 for the roof on the
 *                   new building, else 1 + the rank of the roof's site among the site's
 *                   neighbours (at most 5) in increasing site order
 *
 * Tensor, 1114 floats (0 or 1 unless said; players and colours K G W B in their fixed
 * order, not turned to the observer):
 *   per site (64 x 13): colour (4), height / 8, topped by player p's roof (4), holds a roof
 *     of player p (4);
 *   per player (4 x 14): supply per colour / 10, marker column per colour / 15, roofs left
 *     / 10, (cone column + 1) / 8, objectives met (3, in game order), chips / 3;
 *   market (3 slots x 44 cards), discard pile (44 cards) (cards by code: of alike cards,
 *   the first copies in the deck table, as a record or a position names them), reserve per
 *   colour / 30,
 *   objectives in play (3 x 10 ids), phase (3), player to move (4), observer (4),
 *   turns / 400, final round, end trigger (none, last roof, shortage).
 * The order of the draw pile, the only hidden part, is not in it.
 */
#include <string.h>

#include "internal.h"

#define PLACE_BASE    0
#define TAKE_BASE     (TOWERUP_MAX_SITES * TOWERUP_COLOUR_COUNT)
#define TAKE_PER_SLOT 6561 /* 9^4 */
#define BUILD_BASE    (TAKE_BASE + TOWERUP_MARKET * TAKE_PER_SLOT)
#define ROOF_CHOICES  (1 + TOWERUP_MAX_DEGREE)
#define ACTION_COUNT  (BUILD_BASE + TOWERUP_MAX_SITES * TOWERUP_COLOUR_COUNT * ROOF_CHOICES)

#define SITE_FEATURES   13
#define PLAYER_FEATURES 14
#define OBS_SIZE                                                                                   \
    (TOWERUP_MAX_SITES * SITE_FEATURES + TOWERUP_MAX_PLAYERS * PLAYER_FEATURES +                   \
     TOWERUP_MARKET * TOWERUP_CARD_COUNT + TOWERUP_CARD_COUNT + TOWERUP_COLOUR_COUNT +             \
     TOWERUP_GAME_OBJECTIVES * TOWERUP_OBJECTIVE_COUNT + 3 + TOWERUP_MAX_PLAYERS * 2 + 1 + 1 + 3)

int towerup_action_count(int players)
{
    (void)players;
    return ACTION_COUNT;
}

int towerup_move_action(const void *state, move_t m)
{
    const towerup_state_t *s = state;
    switch (towerup_move_kind(m)) {
    case TOWERUP_MOVE_PLACE:
        return PLACE_BASE + towerup_move_site(m) * TOWERUP_COLOUR_COUNT + towerup_move_colour(m);
    case TOWERUP_MOVE_TAKE: {
        int id = 0, scale = 1;
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++, scale *= 9) {
            int net = towerup_move_net(m, c);
            if (net < -4 || net > 4)
                return -1;
            id += (net + 4) * scale;
        }
        return TAKE_BASE + towerup_move_slot(m) * TAKE_PER_SLOT + id;
    }
    case TOWERUP_MOVE_BUILD: {
        int site = towerup_move_site(m), roof = towerup_move_roof(m), r = 0;
        if (roof != site) {
            uint64_t nbr = s->board->nbr[site];
            if (!(nbr >> roof & 1))
                return -1;
            r = 1 + towerup_popcount(nbr & ((1ULL << roof) - 1));
        }
        return BUILD_BASE + (site * TOWERUP_COLOUR_COUNT + towerup_move_colour(m)) * ROOF_CHOICES +
               r;
    }
    default: return -1;
    }
}

int towerup_observation_size(int players)
{
    (void)players;
    return OBS_SIZE;
}

/* The cards of set by code: each card as the first copy of its code in the deck table
   not yet taken (which of two alike cards a game holds is no information; records and
   positions name cards by code). */
static uint64_t cards_by_code(uint64_t set)
{
    const towerup_card_t *cards = towerup_cards();
    uint64_t out = 0;
    for (uint64_t t = set; t; t &= t - 1) {
        int k = __builtin_ctzll(t);
        for (int j = 0; j < TOWERUP_CARD_COUNT; j++)
            if (!(out >> j & 1) && !strcmp(cards[j].code, cards[k].code)) {
                out |= 1ULL << j;
                break;
            }
    }
    return out;
}

void towerup_observation(const void *state, int observer, float *out)
{
    const towerup_state_t *s = state;
    for (int i = 0; i < OBS_SIZE; i++)
        out[i] = 0.0f;
    float *o = out;
    for (int site = 0; site < TOWERUP_MAX_SITES; site++, o += SITE_FEATURES) {
        if (site >= s->board->site_count || !s->site[site])
            continue;
        o[s->site[site] >> 4 & 3] = 1.0f;
        o[4] = (float)(s->site[site] & 15) / 8.0f;
        for (int p = 0; p < s->players; p++) {
            o[5 + p] = (s->visible[p] >> site & 1) ? 1.0f : 0.0f;
            o[9 + p] = (s->present[p] >> site & 1) ? 1.0f : 0.0f;
        }
    }
    for (int p = 0; p < TOWERUP_MAX_PLAYERS; p++, o += PLAYER_FEATURES) {
        if (p >= s->players)
            continue;
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
            o[c] = (float)s->supply[p][c] / 10.0f;
            o[4 + c] = (float)s->markers[p][c] / 15.0f;
        }
        o[8] = (float)s->roofs_left[p] / TOWERUP_ROOFS;
        o[9] = (float)(s->cone[p] + 1) / 8.0f;
        for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
            o[10 + i] = (s->met[p] >> i & 1) ? 1.0f : 0.0f;
        o[13] = (float)s->chip_count[p] / 3.0f;
    }
    for (int slot = 0; slot < TOWERUP_MARKET; slot++, o += TOWERUP_CARD_COUNT)
        if (s->market[slot] < TOWERUP_CARD_COUNT)
            o[__builtin_ctzll(cards_by_code(1ULL << s->market[slot]))] = 1.0f;
    uint64_t discard = cards_by_code(s->discard);
    for (int k = 0; k < TOWERUP_CARD_COUNT; k++)
        o[k] = (discard >> k & 1) ? 1.0f : 0.0f;
    o += TOWERUP_CARD_COUNT;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        o[c] = (float)s->reserve[c] / TOWERUP_FLOORS_PER_COLOUR;
    o += TOWERUP_COLOUR_COUNT;
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++, o += TOWERUP_OBJECTIVE_COUNT)
        if (s->objectives[i] < TOWERUP_OBJECTIVE_COUNT)
            o[s->objectives[i]] = 1.0f;
    if (s->phase < 3)
        o[s->phase] = 1.0f;
    o += 3;
    if (s->phase != TOWERUP_PHASE_OVER)
        o[s->to_move] = 1.0f;
    if (observer >= 0 && observer < s->players)
        o[TOWERUP_MAX_PLAYERS + observer] = 1.0f;
    o += 2 * TOWERUP_MAX_PLAYERS;
    o[0] = (float)s->turns / TOWERUP_MAX_TURNS;
    o[1] = s->final_round ? 1.0f : 0.0f;
    if (s->end_trigger < 3)
        o[2 + s->end_trigger] = 1.0f;
}
