/*
 * The registry of games: one line per game, naming its game_api_t (core/game.h). Adding a
 * game is its folder under core/ (picked up by the build) and one line here
 * (docs/ADDING_A_GAME.md). The first game is the command line's default.
 *
 * A program may add games compiled outside core (the test-only games of tests/games/) by
 * defining game_extra_table and game_extra_count (tests/games/registry.c): they come after
 * the built-in ones. Elsewhere the two are weak and absent, and the registry is the list.
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

extern const game_api_t *const game_extra_table[] __attribute__((weak));
extern const int game_extra_count __attribute__((weak));

#define GAME_BUILT_IN (int)(sizeof game_table / sizeof game_table[0])

int game_count(void) { return GAME_BUILT_IN + (&game_extra_count ? game_extra_count : 0); }

const game_api_t *game_at(int i)
{
    if (i < 0 || i >= game_count())
        return NULL;
    return i < GAME_BUILT_IN ? game_table[i] : game_extra_table[i - GAME_BUILT_IN];
}
