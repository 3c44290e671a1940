/* The registry of the games' SVG pictures (viewer/picture.h): one line per game, its name
   and its picture writer (in the game's folder). */
#include "viewer/picture.h"

#include <string.h>

#define PICTURE_LIST(X)                                                                            \
    X(towerup, towerup_svg)                                                                        \
    X(uptown, uptown_svg)                                                                          \
    X(connect4, c4_svg)

#define PICTURE_DECLARE(game, fn) int fn(const void *state, int observer, FILE *out);
#define PICTURE_ENTRY(game, fn)   {#game, fn},

PICTURE_LIST(PICTURE_DECLARE)

static const struct {
    const char *game;
    game_svg_fn svg;
} picture_table[] = {PICTURE_LIST(PICTURE_ENTRY)};

game_svg_fn game_svg_for(const game_api_t *api)
{
    for (size_t i = 0; api && i < sizeof picture_table / sizeof picture_table[0]; i++)
        if (!strcmp(picture_table[i].game, api->name))
            return picture_table[i].svg;
    return NULL;
}
