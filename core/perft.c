/* Perft: counts move sequences, the standard check of move generation and make/undo. */
#include <assert.h>

#include "game.h"

static uint64_t perft_rec(const game_api_t *api, void *state, int depth, int bulk)
{
    move_t moves[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    int n = api->gen_moves(state, moves);
    if (depth == 1 && bulk)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        api->make(state, moves[i], undo);
        total += depth == 1 ? 1 : perft_rec(api, state, depth - 1, bulk);
        api->undo(state, moves[i], undo);
    }
    return total;
}

uint64_t game_perft(const game_api_t *api, void *state, int depth)
{
    assert(api->undo_size <= GAME_UNDO_MAX);
    return depth <= 0 ? 1 : perft_rec(api, state, depth, 1);
}

uint64_t game_perft_full(const game_api_t *api, void *state, int depth)
{
    assert(api->undo_size <= GAME_UNDO_MAX);
    return depth <= 0 ? 1 : perft_rec(api, state, depth, 0);
}
