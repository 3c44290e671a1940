/*
 * The registry of the test-only games (tests/games/NAME/): one line per game. The tests
 * that run every game (CMakeLists.txt: SKYLINE_GAME_TESTS) link this table, and core's
 * registry (core/games.c) puts these games after the built-in ones; the program and the
 * libraries never see them.
 */
#include "tests/games/registry.h"

#define TEST_GAME_LIST(X) X(pig_api)

#define TEST_GAME_DECLARE(api) extern const game_api_t api;
#define TEST_GAME_POINTER(api) &api,

TEST_GAME_LIST(TEST_GAME_DECLARE)

const game_api_t *const game_extra_table[] = {TEST_GAME_LIST(TEST_GAME_POINTER)};
const int game_extra_count = (int)(sizeof game_extra_table / sizeof game_extra_table[0]);

bool test_game_only(const game_api_t *api)
{
    for (int i = 0; i < game_extra_count; i++)
        if (game_extra_table[i] == api)
            return true;
    return false;
}
