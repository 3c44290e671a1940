/* The C API's states read from position texts (api/skyline_api.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"

static void put_err(char *err, int errlen, const char *fmt, const char *arg)
{
    if (err && errlen > 0)
        snprintf(err, (size_t)errlen, fmt, arg);
}

sky_state_t *sky_state_from_position(const char *text, const char *options, uint64_t seed,
                                     int *view, char *err, int errlen)
{
    char e[GAME_ERR_MAX * 2];
    /* The game's name is read before the text is checked (the options are the game's):
       no control character may reach a message. */
    for (size_t i = 0; text[i]; i++)
        if (text[i] < 0x20 || text[i] > 0x7e) {
            if (err && errlen > 0)
                snprintf(err, (size_t)errlen,
                         "position: character %zu is not printable ASCII (one line, fields "
                         "separated by single spaces)",
                         i + 1);
            return NULL;
        }
    const game_api_t *api = game_position_game(text, e, sizeof e);
    if (!api) {
        put_err(err, errlen, "%s", e);
        return NULL;
    }
    /* The options name what a text only names (a board file); the count is the text's. */
    sky_options_t o;
    if (sky_options_parse(api, 0, seed, options, &o, err, errlen))
        return NULL;
    int v = -1;
    void *s =
        game_position_read(text, o.opt.option_count ? &o.opt : NULL, seed, &api, &v, e, sizeof e);
    if (!s) {
        put_err(err, errlen, "%s", e);
        return NULL;
    }
    sky_state_t *st =
        sky_state_adopt(api, s, &o, "a state read from a position text has no game record");
    free(s);
    if (!st)
        put_err(err, errlen, "out of memory%s", "");
    else if (view)
        *view = v;
    return st;
}
