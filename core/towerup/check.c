/* Tower Up's derived fields: recomputed from the rest of a state, and checked against it.
   A file of its own, so that make.c's debug check and state.c's new games use it without
   the two using each other. */
#include <stdio.h>
#include <string.h>

#include "core/input.h"
#include "internal.h"

void towerup_fix_derived(towerup_state_t *s)
{
    const towerup_board_t *b = s->board;
    int on_board[TOWERUP_COLOUR_COUNT] = {0};
    s->occupied = 0;
    s->frontier = 0;
    memset(s->nbr_colours, 0, sizeof s->nbr_colours);
    memset(s->colour_mask, 0, sizeof s->colour_mask);
    memset(s->present, 0, sizeof s->present);
    memset(s->visible, 0, sizeof s->visible);
    memset(s->level_mask, 0, sizeof s->level_mask);
    int placed[TOWERUP_MAX_PLAYERS] = {0};
    for (int i = 0; i < b->site_count; i++) {
        if (!s->site[i])
            continue;
        int h = towerup_height(s, i), c = towerup_site_colour(s, i);
        s->occupied |= 1ULL << i;
        s->frontier |= b->nbr[i];
        for (uint64_t n = b->nbr[i]; n; n &= n - 1)
            s->nbr_colours[__builtin_ctzll(n)] += (uint16_t)(1u << (4 * c));
        s->colour_mask[c] |= 1ULL << i;
        on_board[c] += h;
        for (int l = 1; l <= h; l++) {
            int o = towerup_roof_owner(s, i, l);
            if (o < 0)
                continue;
            placed[o]++;
            s->present[o] |= 1ULL << i;
            s->level_mask[o] |= (uint8_t)(1u << l);
            if (l == h)
                s->visible[o] |= 1ULL << i;
        }
    }
    s->frontier &= ~s->occupied;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        int held = on_board[c];
        for (int p = 0; p < s->players; p++)
            held += s->supply[p][c];
        s->reserve[c] = (uint8_t)(TOWERUP_FLOORS_PER_COLOUR - held);
    }
    for (int p = 0; p < s->players; p++)
        s->roofs_left[p] = (uint8_t)(TOWERUP_ROOFS - placed[p]);
    uint64_t all = (1ULL << TOWERUP_CARD_COUNT) - 1, used = 0;
    for (int i = 0; i < TOWERUP_MARKET; i++)
        used |= 1ULL << s->market[i];
    for (int i = s->draw_pos; i < s->draw_end; i++)
        used |= 1ULL << s->draw[i];
    s->discard = all & ~used;
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++) {
        int n = 0;
        for (int p = 0; p < s->players; p++)
            n += (s->met[p] >> i) & 1;
        s->chip_next[i] = (uint8_t)n;
    }
    s->key = towerup_hash_full(s);
}

#define CHECK_FIELD(f)                                                                             \
    do {                                                                                           \
        if (memcmp(&s->f, &t.f, sizeof s->f)) {                                                    \
            input_fail(err, errlen, "state", NULL, "derived field %s is inconsistent", #f);        \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

int towerup_check(const void *state, char *err, size_t errlen)
{
    const towerup_state_t *s = state;
    if (s->players < 2 || s->players > TOWERUP_MAX_PLAYERS || s->to_move >= s->players) {
        input_fail(err, errlen, "state", NULL, "bad player count or player to move");
        return -1;
    }
    if (s->draw_pos > s->draw_end || s->draw_end > TOWERUP_CARD_COUNT) {
        input_fail(err, errlen, "state", NULL, "bad draw pile bounds");
        return -1;
    }
    int seen[TOWERUP_CARD_COUNT] = {0};
    for (int i = 0; i < TOWERUP_MARKET; i++)
        seen[s->market[i] % TOWERUP_CARD_COUNT]++;
    for (int i = s->draw_pos; i < s->draw_end; i++)
        seen[s->draw[i] % TOWERUP_CARD_COUNT]++;
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++)
        if (seen[i] > 1) {
            input_fail(err, errlen, "state", NULL, "card %d is in the market or draw pile twice",
                       i);
            return -1;
        }
    for (int i = 0; i < s->board->site_count; i++) {
        int h = towerup_height(s, i);
        if (s->site[i] && (h < 1 || h > 1 + TOWERUP_MAX_DEGREE || (s->site[i] >> 6))) {
            input_fail(err, errlen, "state", NULL, "site %d has a bad height or colour", i);
            return -1;
        }
        if ((s->roofs[i] >> (3 * h)) != 0) {
            input_fail(err, errlen, "state", NULL, "site %d has a roof above its top floor", i);
            return -1;
        }
    }
    for (int p = 0; p < s->players; p++) {
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
            if (s->markers[p][c] >= TOWERUP_COLUMN_COUNT ||
                (s->phase != TOWERUP_PHASE_SETUP && s->supply[p][c] > TOWERUP_SUPPLY_MAX)) {
                input_fail(err, errlen, "state", NULL, "player %d has a bad marker or supply", p);
                return -1;
            }
        if (towerup_supply_total(s, p) > TOWERUP_SUPPLY_MAX || s->cone[p] > TOWERUP_CONE_MAX ||
            s->chip_count[p] != __builtin_popcount(s->met[p])) {
            input_fail(err, errlen, "state", NULL, "player %d has a bad supply, cone or chip count",
                       p);
            return -1;
        }
    }
    towerup_state_t t = *s;
    towerup_fix_derived(&t);
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        if (t.reserve[c] > TOWERUP_FLOORS_PER_COLOUR) {
            input_fail(err, errlen, "state", NULL, "more than 30 floors of colour %c",
                       towerup_colour_letter[c]);
            return -1;
        }
    CHECK_FIELD(occupied);
    CHECK_FIELD(frontier);
    CHECK_FIELD(nbr_colours);
    CHECK_FIELD(colour_mask);
    CHECK_FIELD(present);
    CHECK_FIELD(visible);
    CHECK_FIELD(level_mask);
    CHECK_FIELD(reserve);
    CHECK_FIELD(roofs_left);
    CHECK_FIELD(discard);
    CHECK_FIELD(chip_next);
    if (s->key != t.key) {
        input_fail(err, errlen, "state", NULL,
                   "incremental key differs from the key computed from scratch");
        return -1;
    }
    return 0;
}
