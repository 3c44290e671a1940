/* Tower Up's chance outcomes (game_api_t.chance_outcomes): the card that refills the market. */
#include <stdio.h>
#include <string.h>

#include "core/input.h"
#include "core/towerup/towerup.h"

int towerup_chance_outcomes(const void *state, const move_t *m, char (*text)[GAME_MOVE_TEXT_MAX],
                            double *prob, int max, char *err, size_t errlen)
{
    const towerup_state_t *s = state;
    if (s->phase == TOWERUP_PHASE_OVER || (m && towerup_move_kind(*m) != TOWERUP_MOVE_TAKE))
        return 0;
    /* The cards the refill draws from: the draw pile (its order hidden from every player,
       its cards known), or once it is empty the discard pile with the card taken,
       reshuffled (make.c). */
    uint64_t pile = 0;
    for (int i = s->draw_pos; i < s->draw_end; i++)
        pile |= 1ULL << s->draw[i];
    if (!pile) {
        if (!m) {
            return input_fail(err, errlen, "move", NULL,
                              "the draw pile is empty: the next card comes from the discard pile "
                              "with the card taken, so it depends on the move (give the move)");
        }
        pile = s->discard | 1ULL << s->market[towerup_move_slot(*m)];
    }
    const towerup_card_t *cards = towerup_cards();
    int n = __builtin_popcountll(pile), count = 0, of[TOWERUP_CARD_COUNT];
    for (; pile; pile &= pile - 1) {
        const char *code = cards[__builtin_ctzll(pile)].code;
        int k = 0;
        while (k < count && strcmp(text[k], code))
            k++;
        if (k == count) {
            if (count == max) {
                return input_fail(err, errlen, "max", NULL, "more than %d chance outcomes", max);
            }
            snprintf(text[count], GAME_MOVE_TEXT_MAX, "%s", code);
            of[count++] = 0;
        }
        of[k]++;
    }
    for (int k = 0; k < count; k++)
        prob[k] = (double)of[k] / n;
    return count;
}
