/* Tower Up's Zobrist keys computed from scratch (the incremental ones are make.c's). */
#include "internal.h"

uint64_t towerup_key_player(const towerup_state_t *s, int p)
{
    uint64_t d = 0;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        d |= (uint64_t)s->supply[p][c] << (4 * c) | (uint64_t)s->markers[p][c] << (16 + 4 * c);
    d |= (uint64_t)(s->cone[p] + 1) << 32 | (uint64_t)s->met[p] << 36 |
         (uint64_t)s->chip_count[p] << 39;
    for (int i = 0; i < s->chip_count[p]; i++)
        d |= (uint64_t)s->chips[p][i] << (41 + 3 * i);
    d |= (uint64_t)p << 52;
    return towerup_key(TOWERUP_KEY_PLAYER, d);
}

uint64_t towerup_key_misc(const towerup_state_t *s)
{
    uint64_t m = (uint64_t)s->to_move | (uint64_t)s->turns << 2 | (uint64_t)s->phase << 12 |
                 (uint64_t)s->end_trigger << 14 | (uint64_t)s->trigger_player << 16 |
                 (uint64_t)s->final_round << 18 | (uint64_t)s->final_left << 19 |
                 (uint64_t)s->setup_done << 23;
    return towerup_key(TOWERUP_KEY_MISC, m);
}

uint64_t towerup_key_scalars(const towerup_state_t *s)
{
    uint64_t k = towerup_key_misc(s);
    for (int p = 0; p < s->players; p++)
        k ^= towerup_key_player(s, p);
    return k;
}

uint64_t towerup_key_draw_pile(const towerup_state_t *s)
{
    uint64_t k = 0;
    for (int i = s->draw_pos; i < s->draw_end; i++)
        k ^= towerup_key_draw(s->draw_end - 1 - i, s->draw[i]);
    return k;
}

uint64_t towerup_hash_full(const void *state)
{
    const towerup_state_t *s = state;
    uint64_t k = towerup_key_scalars(s) ^ towerup_key_draw_pile(s) ^ towerup_key_rng(&s->rng);
    for (int i = 0; i < s->board->site_count; i++)
        k ^= towerup_key_site(s, i);
    for (int i = 0; i < TOWERUP_MARKET; i++)
        k ^= towerup_key_market(i, s->market[i]);
    for (uint64_t d = s->discard; d; d &= d - 1)
        k ^= towerup_key_discard(__builtin_ctzll(d));
    return k;
}
