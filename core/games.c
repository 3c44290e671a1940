/*
 * The registry of games: one line per game, naming its game_api_t (core/game.h). Adding a
 * game is its folder under core/ (picked up by the build) and one line here
 * (docs/ADDING_A_GAME.md). The first game is the command line's default.
 */
#include "core/game.h"

#define GAME_LIST(X)                                                                               \
    X(towerup_api)                                                                                 \
    X(uptown_api)                                                                                  \
    X(connect4_api)

#define GAME_DECLARE(api) extern const game_api_t api;
#define GAME_POINTER(api) &api,

GAME_LIST(GAME_DECLARE)

static const game_api_t *const game_table[] = {GAME_LIST(GAME_POINTER)};

int game_count(void) { return (int)(sizeof game_table / sizeof game_table[0]); }

const game_api_t *game_at(int i) { return i >= 0 && i < game_count() ? game_table[i] : NULL; }
