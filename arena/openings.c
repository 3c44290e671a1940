/* Opening suites: reading and checking them (arena/openings.h). */
#include "openings.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"

static uint64_t open_fnv(uint64_t h, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL;
    }
    h ^= 0xffu;
    return h * 0x100000001b3ULL;
}

void openings_free(openings_t *o)
{
    for (long i = 0; i < o->count; i++)
        free(o->moves[i]);
    free(o->moves);
    free(o->seeds);
    free(o->plies);
    memset(o, 0, sizeof *o);
}

/* Reads one opening from line (split in place) into slot o->count; state: scratch. 0, or
   -1 with err (without the file and line). */
static int open_parse(char *line, const game_api_t *api, const game_options_t *opt, openings_t *o,
                      void *state, char *err, size_t errlen)
{
    char *save = NULL, *word = strtok_r(line, " \t", &save), *end;
    errno = 0;
    long long seed = word && !strncmp(word, "seed=", 5) ? strtoll(word + 5, &end, 10) : -1;
    if (!word || strncmp(word, "seed=", 5) || errno || end == word + 5 || *end || seed < 0) {
        snprintf(err, errlen, "expected seed=S (0 to %ld) first, then the moves", LONG_MAX);
        return -1;
    }
    game_options_t go = *opt;
    go.seed = (uint64_t)seed;
    if (api->new_game(state, &go, err, errlen))
        return -1;
    move_t *moves = malloc(sizeof *moves * OPENINGS_MAX_PLIES);
    if (!moves) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int n = 0;
    char why[GAME_ERR_MAX], shown[INPUT_EXCERPT_MAX];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    uint64_t h = open_fnv(0xcbf29ce484222325ULL, word);
    while ((word = strtok_r(NULL, " \t", &save))) {
        if (n == OPENINGS_MAX_PLIES) {
            snprintf(err, errlen, "more than %d moves", OPENINGS_MAX_PLIES);
            goto fail;
        }
        if (api->is_terminal(state)) {
            snprintf(err, errlen, "move %d '%s': the game is over before it", n + 1,
                     input_escape(word, shown, sizeof shown));
            goto fail;
        }
        if (api->move_from_text(state, word, &moves[n], why, sizeof why)) {
            snprintf(err, errlen, "move %d '%s': %.200s", n + 1,
                     input_escape(word, shown, sizeof shown), why);
            goto fail;
        }
        api->make(state, moves[n++], undo);
        h = open_fnv(h, word);
    }
    if (api->is_terminal(state)) {
        snprintf(err, errlen, "the game is over after its moves");
        goto fail;
    }
    o->seeds[o->count] = (uint64_t)seed;
    o->plies[o->count] = n;
    o->moves[o->count] = moves;
    o->hash = open_fnv(o->hash, "\n") ^ h;
    o->hash *= 0x100000001b3ULL;
    o->count++;
    return 0;
fail:
    free(moves);
    return -1;
}

int openings_load(const char *path, const game_api_t *api, const game_options_t *opt, openings_t *o,
                  char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->hash = 0xcbf29ce484222325ULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open openings file '%s': %s", path, strerror(errno));
        return -1;
    }
    void *state = malloc(api->state_size);
    char *line = NULL, why[GAME_ERR_MAX];
    size_t cap = 0, room = 0;
    long lineno = 0;
    int rc = -1;
    ssize_t len;
    while (state && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        size_t lead = strspn(line, " \t");
        if (!line[lead] || line[lead] == '#')
            continue;
        if (o->count == OPENINGS_MAX) {
            snprintf(err, errlen, "%s:%ld: more than %ld openings", path, lineno, OPENINGS_MAX);
            goto done;
        }
        if ((size_t)o->count == room) {
            room = room ? 2 * room : 64;
            uint64_t *s = realloc(o->seeds, room * sizeof *s);
            o->seeds = s ? s : o->seeds;
            int *p = realloc(o->plies, room * sizeof *p);
            o->plies = p ? p : o->plies;
            move_t **m = realloc(o->moves, room * sizeof *m);
            o->moves = m ? m : o->moves;
            if (!s || !p || !m) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
        }
        if (open_parse(line + lead, api, opt, o, state, why, sizeof why)) {
            snprintf(err, errlen, "%s:%ld: %.300s", path, lineno, why);
            goto done;
        }
    }
    if (!state)
        snprintf(err, errlen, "out of memory");
    else if (ferror(f))
        snprintf(err, errlen, "cannot read openings file '%s'", path);
    else if (!o->count)
        snprintf(err, errlen, "openings file '%s' holds no opening (seed=S MOVE ... lines)", path);
    else
        rc = 0;
done:
    if (rc)
        openings_free(o);
    free(line);
    free(state);
    fclose(f);
    return rc;
}
