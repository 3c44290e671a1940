#pragma once
/* The test-only games (tests/games/registry.c), in core's registry of the tests that link
   them (after the built-in games). */
#include <stdbool.h>

#include "core/game.h"

extern const game_api_t *const game_extra_table[];
extern const int game_extra_count;

/* Whether api is a test-only game (the program does not know it). */
bool test_game_only(const game_api_t *api);
