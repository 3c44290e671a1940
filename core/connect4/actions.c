/*
 * Connect Four's integer actions and observation tensor (docs/PYTHON.md): action c is a
 * stone dropped into column c (0-6); the tensor is two planes of 42 cells (the observer's
 * stones, then the other player's; cell = column * 6 + row, row 0 at the bottom) and one
 * last value, 1 when the observer is to move.
 */
#include "connect4.h"

int c4_action_count(int players)
{
    (void)players;
    return C4_COLUMNS;
}

int c4_move_action(const void *state, move_t m)
{
    (void)state;
    return (int)m;
}

int c4_observation_size(int players)
{
    (void)players;
    return 2 * C4_CELLS + 1;
}

void c4_observation(const void *state, int observer, float *out)
{
    const c4_state_t *s = state;
    int me = observer == 1, other = !me;
    for (int c = 0; c < C4_COLUMNS; c++)
        for (int r = 0; r < C4_ROWS; r++) {
            uint64_t bit = 1ULL << (c * (C4_ROWS + 1) + r);
            out[c * C4_ROWS + r] = (s->stones[me] & bit) ? 1.0f : 0.0f;
            out[C4_CELLS + c * C4_ROWS + r] = (s->stones[other] & bit) ? 1.0f : 0.0f;
        }
    out[2 * C4_CELLS] = s->to_move == me && s->winner < 0 ? 1.0f : 0.0f;
}
