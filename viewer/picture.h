#pragma once
/*
 * The games' SVG pictures (core/svg.h: 800 px wide, no external file or font), keyed by the
 * game: viewer/picture.c lists each game that has one (one line per game). The rules
 * (core/game.h) know nothing of pictures or files.
 */
#include <stdio.h>

#include "core/game.h"

/* Writes the position as a standalone SVG picture to out, as player observer sees it (-1:
   everything): 0, or -1 if a write failed. */
typedef int (*game_svg_fn)(const void *state, int observer, FILE *out);

/* The picture writer of a game, or NULL if it has none. */
game_svg_fn game_svg_for(const game_api_t *api);
