/* Uptown's chance outcomes (game_api_t.chance_outcomes): the tile drawn after a move. */
#include <stdio.h>

#include "core/input.h"
#include "core/uptown/uptown.h"

int uptown_chance_outcomes(const void *state, const move_t *m, char (*text)[GAME_MOVE_TEXT_MAX],
                           double *prob, int max, char *err, size_t errlen)
{
    const uptown_state_t *s = state;
    if (uptown_is_terminal(s))
        return 0;
    int c;
    if (m) {
        c = uptown_move_colour(*m);
    } else {
        /* The colour that draws next is the one the mover plays: one unless it owns two. */
        unsigned own = uptown_player_colours(s, s->to_move) & ~(unsigned)s->retired;
        if (__builtin_popcount(own) != 1) {
            return input_fail(err, errlen, "move", NULL,
                              "player %d plays one of two colours: the tile drawn next "
                              "depends on the move (give the move)",
                              s->to_move);
        }
        c = __builtin_ctz(own);
    }
    /* A colour with tiles left in its pile draws one after each move: uniformly one of the
       pile's tiles as its owner sees them (everything of the colour not played, discarded
       or in the rack; the pile's order is hidden). */
    uint32_t pile = s->left[c] & ~s->rack[c];
    if (s->pile_pos[c] >= UPTOWN_TILE_COUNT || !pile)
        return 0;
    int n = __builtin_popcount(pile);
    if (n > max) {
        return input_fail(err, errlen, "max", NULL, "more than %d chance outcomes", max);
    }
    for (int k = 0; pile; pile &= pile - 1, k++) {
        snprintf(text[k], GAME_MOVE_TEXT_MAX, "%s", uptown_tile_name(__builtin_ctz(pile)));
        prob[k] = 1.0 / n;
    }
    return n;
}
