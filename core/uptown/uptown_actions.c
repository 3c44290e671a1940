/*
 * Uptown's integer actions and observation tensor (docs/PYTHON.md).
 *
 * Action of a move: (colour * 28 + tile) * 82 + (cell, or 81 for a discard); colours() is 4
 * with 2 players, else the player count, so there are colours * 28 * 82 ids. A capture is
 * not part of the id: it follows from the cell.
 *
 * Tensor, all values 0 or 1 unless said: per cell (81, A1 first as in the move text), the
 * colour of its tile (5) and the tile (28); then per colour (5) the tiles in the observer's
 * own racks (28; zero for the others' colours, which it cannot see) and the tiles not yet
 * played or discarded (28, public); then per player (5) captures / 24 and turns played / 24,
 * the player to move (5, one-hot) and the observer (5, one-hot).
 */
#include "uptown.h"

#define CELL_SLOTS    (UPTOWN_CELL_COUNT + 1)
#define CELL_FEATURES (UPTOWN_COLOUR_MAX + UPTOWN_TILE_COUNT)

static int colours_for(int players) { return players == 2 ? 4 : players; }

int uptown_action_count(int players)
{
    return colours_for(players) * UPTOWN_TILE_COUNT * CELL_SLOTS;
}

int uptown_move_action(const void *state, move_t m)
{
    (void)state;
    int slot = uptown_move_is_discard(m) ? UPTOWN_CELL_COUNT : uptown_move_cell(m);
    return (uptown_move_colour(m) * UPTOWN_TILE_COUNT + uptown_move_tile(m)) * CELL_SLOTS + slot;
}

int uptown_observation_size(int players)
{
    (void)players;
    return UPTOWN_CELL_COUNT * CELL_FEATURES + UPTOWN_COLOUR_MAX * 2 * UPTOWN_TILE_COUNT +
           GAME_MAX_PLAYERS * 4;
}

void uptown_observation(const void *state, int observer, float *out)
{
    const uptown_state_t *s = state;
    int n = uptown_observation_size(s->players);
    for (int i = 0; i < n; i++)
        out[i] = 0.0f;
    float *o = out;
    for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++, o += CELL_FEATURES) {
        if (s->cell[cell] == UPTOWN_EMPTY)
            continue;
        o[s->cell[cell] >> 5] = 1.0f;
        o[UPTOWN_COLOUR_MAX + (s->cell[cell] & 31)] = 1.0f;
    }
    unsigned own = observer >= 0 && observer < s->players ? uptown_player_colours(s, observer) : 0;
    for (int c = 0; c < UPTOWN_COLOUR_MAX; c++, o += 2 * UPTOWN_TILE_COUNT) {
        if (c >= s->colours)
            continue;
        for (int t = 0; t < UPTOWN_TILE_COUNT; t++) {
            if ((own >> c & 1) && (s->rack[c] >> t & 1))
                o[t] = 1.0f;
            if (s->left[c] >> t & 1)
                o[UPTOWN_TILE_COUNT + t] = 1.0f;
        }
    }
    for (int p = 0; p < s->players; p++) {
        o[p] = (float)s->captures[p] / UPTOWN_TURNS;
        o[GAME_MAX_PLAYERS + p] = (float)s->turns[p] / UPTOWN_TURNS;
    }
    o += 2 * GAME_MAX_PLAYERS;
    if (!uptown_is_terminal(s))
        o[s->to_move] = 1.0f;
    if (observer >= 0 && observer < s->players)
        o[GAME_MAX_PLAYERS + observer] = 1.0f;
}
