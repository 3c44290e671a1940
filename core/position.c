/* Position notation for callers: the game of a text, writing and reading (docs/NOTATION.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

const game_api_t *game_position_game(const char *text, char *err, size_t errlen)
{
    size_t n = strcspn(text, " ");
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        if (strlen(api->name) == n && !strncmp(text, api->name, n)) {
            if (!api->position_write || !api->position_read) {
                snprintf(err, errlen, "game %s has no position notation", api->name);
                return NULL;
            }
            return api;
        }
    }
    char names[256];
    snprintf(err, errlen, "position: the first word '%.*s' is not a game (%s)",
             (int)(n < 32 ? n : 32), text, game_names(names, sizeof names, ", "));
    return NULL;
}

int game_position_write(const game_api_t *api, const void *state, int observer, char *buf,
                        size_t len, char *err, size_t errlen)
{
    if (!api->position_write) {
        snprintf(err, errlen, "game %s has no position notation", api->name);
        return -1;
    }
    api->position_write(state, observer, buf, len);
    return 0;
}

void *game_position_read(const char *text, const game_options_t *opt, uint64_t seed,
                         const game_api_t **api_out, int *view, char *err, size_t errlen)
{
    size_t len = strlen(text);
    if (len >= GAME_POSITION_MAX) {
        snprintf(err, errlen, "position: longer than %d characters", GAME_POSITION_MAX - 1);
        return NULL;
    }
    for (size_t i = 0; i < len; i++)
        if (text[i] < 0x20 || text[i] > 0x7e) {
            snprintf(err, errlen,
                     "position: character %zu is not printable ASCII (one line, "
                     "fields separated by single spaces)",
                     i + 1);
            return NULL;
        }
    const game_api_t *api = game_position_game(text, err, errlen);
    if (!api)
        return NULL;
    void *state = calloc(1, api->state_size);
    if (!state) {
        snprintf(err, errlen, "position: out of memory");
        return NULL;
    }
    pcg32_t rng;
    pcg32_seed(&rng, seed, 0x504f534954ULL);
    int v = -1;
    char why[GAME_ERR_MAX];
    if (api->position_read(state, text, opt, &rng, &v, err, errlen) < 0) {
        free(state);
        return NULL;
    }
    if (api->check(state, why, sizeof why) < 0) {
        /* A reader that lets an inconsistent state through is a bug; say so, never play. */
        snprintf(err, errlen, "position: inconsistent (%s)", why);
        free(state);
        return NULL;
    }
    if (api_out)
        *api_out = api;
    if (view)
        *view = v;
    return state;
}

int game_position_split(char *text, char **fields, int max, char *err, size_t errlen)
{
    int n = 0;
    for (char *p = text;;) {
        char *e = strchr(p, ' ');
        if (e)
            *e = '\0';
        if (!*p) {
            snprintf(err, errlen,
                     "position: field %d is empty (fields are separated by single "
                     "spaces)",
                     n + 1);
            return -1;
        }
        if (n == max) {
            snprintf(err, errlen, "position: more than %d fields", max);
            return -1;
        }
        fields[n++] = p;
        if (!e)
            return n;
        p = e + 1;
    }
}

bool game_position_shows_all(const char *text, const game_options_t *opt, int player)
{
    char first[GAME_POSITION_MAX], other[GAME_POSITION_MAX], err[GAME_ERR_MAX];
    bool same = true;
    for (uint64_t seed = 1; seed <= 4 && same; seed++) {
        const game_api_t *api;
        void *s = game_position_read(text, opt, seed, &api, NULL, err, sizeof err);
        if (!s)
            return false;
        if (player >= api->player_count(s)) {
            free(s);
            return false;
        }
        api->position_write(s, player, seed == 1 ? first : other, GAME_POSITION_MAX);
        same = seed == 1 || !strcmp(first, other);
        free(s);
    }
    return same;
}
