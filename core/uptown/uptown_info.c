/* Uptown hidden information: determinization, what a player observes, random playouts. */
#include <string.h>

#include "uptown.h"

void uptown_determinize(void *state, int observer, pcg32_t *rng)
{
    uptown_state_t *s = state;
    unsigned own = uptown_player_colours(s, observer);
    for (int c = 0; c < s->colours; c++) {
        int pos = s->pile_pos[c], rest = UPTOWN_TILE_COUNT - pos;
        if (s->retired >> c & 1)
            continue;
        if (own >> c & 1) {
            /* The observer knows its rack, not its pile order: the pile is rebuilt in tile
               order from the set it knows, then shuffled, so the result depends on nothing
               hidden. */
            int k = pos;
            for (uint32_t x = s->left[c] & ~s->rack[c]; x; x &= x - 1)
                s->pile[c][k++] = (uint8_t)__builtin_ctz(x);
            pcg32_shuffle_u8(rng, s->pile[c] + pos, rest);
            continue;
        }
        /* An opponent colour: redeal its unplayed tiles into a rack of the same size and a
           pile, keeping the pile a permutation of the 28 tiles (drawn tiles first). */
        uint8_t pool[UPTOWN_TILE_COUNT];
        int n = 0;
        for (uint32_t l = s->left[c]; l; l &= l - 1)
            pool[n++] = (uint8_t)__builtin_ctz(l);
        pcg32_shuffle_u8(rng, pool, n);
        int rack_size = n - rest;
        uint32_t rack = 0, new_rest = 0;
        for (int i = 0; i < rack_size; i++)
            rack |= 1u << pool[i];
        for (int i = rack_size; i < n; i++)
            new_rest |= 1u << pool[i];
        /* The drawn part of the pile (played tiles and the new rack) in tile order: nothing
           reads its order, and it must not carry the hidden one. */
        int k = 0;
        for (uint32_t x = UPTOWN_ALL_TILES & ~new_rest; x; x &= x - 1)
            s->pile[c][k++] = (uint8_t)__builtin_ctz(x);
        memcpy(s->pile[c] + pos, pool + rack_size, (size_t)rest);
        s->hash ^= uptown_rack_hash(c, s->rack[c]) ^ uptown_rack_hash(c, rack);
        s->rack[c] = rack;
    }
}

bool uptown_observation_equal(const uptown_state_t *a, const uptown_state_t *b, int observer)
{
    if (a->players != b->players || a->colours != b->colours || a->to_move != b->to_move ||
        a->first_player != b->first_player || a->retired != b->retired ||
        a->move_count != b->move_count || memcmp(a->cell, b->cell, sizeof a->cell) ||
        memcmp(a->captures, b->captures, sizeof a->captures) ||
        memcmp(a->turns, b->turns, sizeof a->turns))
        return false;
    unsigned own = uptown_player_colours(a, observer);
    for (int c = 0; c < a->colours; c++) {
        if (a->left[c] != b->left[c] || a->pile_pos[c] != b->pile_pos[c] ||
            bits_count64(a->rack[c]) != bits_count64(b->rack[c]))
            return false;
        bool visible = (own >> c & 1) || (a->retired >> c & 1);
        if (visible && a->rack[c] != b->rack[c])
            return false;
    }
    return true;
}

void uptown_playout(void *state, pcg32_t *rng)
{
    uptown_state_t *s = state;
    while (!uptown_is_terminal(s))
        uptown_play(s, uptown_random_move(s, rng));
}
