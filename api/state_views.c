/* The C API's views of a state beyond its notation (api/skyline_api.h): the SVG picture
   and the chance outcomes of a move. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"
#include "viewer/picture.h"

static void put_err(char *err, int errlen, const char *fmt, const char *arg)
{
    if (err && errlen > 0)
        snprintf(err, (size_t)errlen, fmt, arg);
}

char *sky_state_svg(const sky_state_t *st, int player, char *err, int errlen)
{
    const game_api_t *api = sky_state_api(st);
    const void *s = sky_state_raw(st);
    game_svg_fn svg = game_svg_for(api);
    if (!svg) {
        put_err(err, errlen, "%s has no SVG picture", api->name);
        return NULL;
    }
    int n = api->player_count(s);
    if (player < -1 || player >= n) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "player %d out of range 0..%d (or -1)", player, n - 1);
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        put_err(err, errlen, "out of memory%s", "");
        return NULL;
    }
    int rc = svg(s, player, f);
    if (fclose(f) || rc) {
        free(buf);
        put_err(err, errlen, "cannot make the SVG picture%s", "");
        return NULL;
    }
    return buf;
}

/* Most outcomes of one chance event (Tower Up: 44 cards; Uptown: 28 tiles). */
#define CHANCE_MAX 64

char *sky_state_chance_outcomes(const sky_state_t *st, const char *move, char *err, int errlen)
{
    const game_api_t *api = sky_state_api(st);
    const void *s = sky_state_raw(st);
    move_t m = 0;
    bool given = move && *move;
    char e[GAME_ERR_MAX];
    if (given) {
        if (api->is_terminal(s)) {
            put_err(err, errlen, "the game is over: no move '%s'", move);
            return NULL;
        }
        if (api->move_from_text(s, move, &m, e, sizeof e)) {
            put_err(err, errlen, "%s", e);
            return NULL;
        }
    }
    char text[CHANCE_MAX][GAME_MOVE_TEXT_MAX];
    double prob[CHANCE_MAX];
    int n = 0;
    if (api->chance_outcomes &&
        (n = api->chance_outcomes(s, given ? &m : NULL, text, prob, CHANCE_MAX, e, sizeof e)) < 0) {
        put_err(err, errlen, "%s", e);
        return NULL;
    }
    json_t *list = json_array();
    for (int i = 0; list && i < n; i++)
        json_array_append_new(list, json_pack("[s,f]", text[i], prob[i]));
    char *out = list ? json_dumps(list, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
    json_decref(list);
    if (!out)
        put_err(err, errlen, "out of memory%s", "");
    return out;
}
