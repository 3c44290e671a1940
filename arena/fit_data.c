/*
 * Positions for the fit (arena/fit.h): read from game records into memory, merged by
 * what the player to move sees, labelled with the results of their games.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/fit.h"
#include "core/forfeit.h"
#include "core/input.h"
#include "core/rng.h"

/* Most plies of one game the loader keeps at once (a longer game is refused). */
#define FIT_MAX_PLIES 100000

int fit_data_init(fit_data_t *d, const game_api_t *api, int players)
{
    memset(d, 0, sizeof *d);
    d->api = api;
    d->players = players;
    d->stride = (api->state_size + 15) / 16 * 16;
    d->table_cap = 1024;
    d->table = calloc((size_t)d->table_cap, sizeof *d->table);
    return d->table ? 0 : -1;
}

void fit_data_free(fit_data_t *d)
{
    free(d->states);
    free(d->result);
    free(d->games_of);
    free(d->key);
    free(d->table);
    memset(d, 0, sizeof *d);
}

uint64_t fit_data_key(const game_api_t *api, const void *state)
{
    if (!api->position_write)
        return api->hash(state);
    char text[GAME_POSITION_MAX];
    api->position_write(state, api->to_move(state), text, sizeof text);
    uint64_t h = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return h;
}

/* Doubles the room for positions. 0 or -1. */
static int data_grow(fit_data_t *d)
{
    long cap = d->cap ? d->cap * 2 : 4096;
    unsigned char *states = realloc(d->states, (size_t)cap * d->stride);
    if (!states)
        return -1;
    d->states = states;
    double *result = realloc(d->result, (size_t)cap * (size_t)d->players * sizeof *result);
    if (!result)
        return -1;
    d->result = result;
    uint32_t *games_of = realloc(d->games_of, (size_t)cap * sizeof *games_of);
    if (!games_of)
        return -1;
    d->games_of = games_of;
    uint64_t *key = realloc(d->key, (size_t)cap * sizeof *key);
    if (!key)
        return -1;
    d->key = key;
    d->cap = cap;
    return 0;
}

/* The table slot of key: where it is, or the empty slot where it goes. */
static long table_slot(const fit_data_t *d, uint64_t key)
{
    long mask = d->table_cap - 1;
    long s = (long)(rng_mix64(key) & (uint64_t)mask);
    while (d->table[s] && d->key[d->table[s] - 1] != key)
        s = (s + 1) & mask;
    return s;
}

/* Doubles the table when it is half full. 0 or -1. */
static int table_grow(fit_data_t *d)
{
    if (2 * (d->count + 1) <= d->table_cap)
        return 0;
    long *old = d->table, old_cap = d->table_cap;
    d->table_cap *= 2;
    d->table = calloc((size_t)d->table_cap, sizeof *d->table);
    if (!d->table) {
        d->table = old;
        d->table_cap = old_cap;
        return -1;
    }
    for (long s = 0; s < old_cap; s++)
        if (old[s])
            d->table[table_slot(d, d->key[old[s] - 1])] = old[s];
    free(old);
    return 0;
}

int fit_data_add(fit_data_t *d, const void *state, const double *result)
{
    uint64_t key = fit_data_key(d->api, state);
    d->seen++;
    long s = table_slot(d, key);
    if (d->table[s]) {
        long i = d->table[s] - 1;
        for (int q = 0; q < d->players; q++)
            d->result[i * d->players + q] += result[q];
        d->games_of[i]++;
        return 0;
    }
    if ((d->count == d->cap && data_grow(d)) || table_grow(d))
        return -1;
    long i = d->count++;
    unsigned char *dst = d->states + (size_t)i * d->stride;
    memset(dst, 0, d->stride);
    d->api->copy(dst, state);
    for (int q = 0; q < d->players; q++)
        d->result[i * d->players + q] = result[q];
    d->games_of[i] = 1;
    d->key[i] = key;
    d->table[table_slot(d, key)] = i + 1;
    return 0;
}

double fit_data_label(const fit_data_t *d, long i, int q)
{
    return d->result[i * d->players + q] / d->games_of[i];
}

uint64_t fit_data_hash(const fit_data_t *d)
{
    uint64_t h = rng_mix64((uint64_t)d->count ^ ((uint64_t)d->players << 40));
    for (long i = 0; i < d->count; i++) {
        h = rng_mix64(h ^ d->key[i]);
        for (int q = 0; q < d->players; q++) {
            double x = fit_data_label(d, i, q);
            uint64_t bits;
            memcpy(&bits, &x, sizeof bits);
            h = rng_mix64(h ^ bits);
        }
    }
    return h;
}

/* The start of rec's game into state: the game's record_position at ply 0, or new_game
   from the record's players, seed and first player. 0, or -1 with err filled. */
static int record_start(const game_api_t *api, const json_t *rec, void *state, char *err,
                        size_t errlen)
{
    if (api->record_position)
        return api->record_position(rec, 0, state, err, errlen) < 0 ? -1 : 0;
    game_options_t opt;
    game_options_default(&opt);
    opt.players = (int)json_integer_value(json_object_get(rec, "players"));
    opt.seed = (uint64_t)json_integer_value(json_object_get(rec, "seed"));
    const json_t *first = json_object_get(rec, "first_player");
    if (json_is_integer(first))
        opt.first_player = (int)json_integer_value(first);
    return api->new_game(state, &opt, err, errlen);
}

/* The game of a record, checked against the data's: 0, or -1 with err filled. */
static int record_check(const fit_data_t *d, const json_t *rec, char *err, size_t errlen)
{
    const char *game = json_string_value(json_object_get(rec, "game"));
    char shown[INPUT_EXCERPT_MAX];
    if (!game) {
        snprintf(err, errlen, "not a game record (no \"game\")");
        return -1;
    }
    if (strcmp(game, d->api->name)) {
        snprintf(err, errlen, "a record of %s, not of %s", input_escape(game, shown, sizeof shown),
                 d->api->name);
        return -1;
    }
    const json_t *players = json_object_get(rec, "players");
    if (!json_is_integer(players) || json_integer_value(players) != d->players) {
        snprintf(err, errlen, "a record of %lld players, not %d",
                 json_is_integer(players) ? (long long)json_integer_value(players) : -1LL,
                 d->players);
        return -1;
    }
    if (!json_is_array(json_object_get(rec, "moves"))) {
        snprintf(err, errlen, "the record has no list of moves");
        return -1;
    }
    return 0;
}

/*
 * Replays the moves of rec from state, keeping plies 0, every, ... before the end in
 * buf (grown as needed, *nkeep of them); state ends at the game's end. 0, or -1 + err.
 */
static int record_walk(const fit_data_t *d, const json_t *rec, void *state, int every,
                       unsigned char **buf, long *bufcap, long *nkeep, char *err, size_t errlen)
{
    const game_api_t *api = d->api;
    const json_t *moves = json_object_get(rec, "moves");
    size_t n = json_array_size(moves);
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    *nkeep = 0;
    if (n > FIT_MAX_PLIES) {
        snprintf(err, errlen, "%zu moves: more than the %d a fit reads of one game", n,
                 FIT_MAX_PLIES);
        return -1;
    }
    for (size_t i = 0; i <= n; i++) {
        bool over = api->is_terminal(state);
        if (i % (size_t)every == 0 && !over) {
            if (*nkeep == *bufcap) {
                long cap = *bufcap ? *bufcap * 2 : 256;
                unsigned char *nb = realloc(*buf, (size_t)cap * d->stride);
                if (!nb) {
                    snprintf(err, errlen, "out of memory");
                    return -1;
                }
                *buf = nb;
                *bufcap = cap;
            }
            api->copy(*buf + (size_t)(*nkeep)++ * d->stride, state);
        }
        if (i == n)
            break;
        const char *text = json_string_value(json_array_get(moves, i));
        char why[GAME_ERR_MAX], shown[INPUT_EXCERPT_MAX];
        move_t m;
        if (!text) {
            snprintf(err, errlen, "move %zu is not a string", i);
            return -1;
        }
        if (over) {
            snprintf(err, errlen, "move %zu (%s): the game is already over", i,
                     input_escape(text, shown, sizeof shown));
            return -1;
        }
        if (api->move_from_text(state, text, &m, why, sizeof why)) {
            snprintf(err, errlen, "move %zu (%s): %s", i, input_escape(text, shown, sizeof shown),
                     why);
            return -1;
        }
        api->make(state, m, undo);
    }
    return 0;
}

/*
 * The positions of a record are replayed with make from its start, which is exact when
 * the game's chance events after the start follow from the state (every game skyline
 * plays). A record whose later chance events differ (a Tower Up reshuffle written by
 * another program) is seen at the end, where the state differs from the record's own
 * replay; then each kept ply is rebuilt with record_position.
 */
int fit_data_add_record(fit_data_t *d, const json_t *rec, int every, char *err, size_t errlen)
{
    const game_api_t *api = d->api;
    if (record_check(d, rec, err, errlen))
        return -1;
    if (forfeit_record_has(rec)) {
        d->skipped++;
        return 0;
    }
    int rc = -1;
    unsigned char *state = calloc(2, d->stride), *buf = NULL;
    long bufcap = 0, nkeep = 0;
    if (!state) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    unsigned char *check = state + d->stride;
    if (record_start(api, rec, state, err, errlen) ||
        record_walk(d, rec, state, every, &buf, &bufcap, &nkeep, err, errlen))
        goto done;
    if (!api->is_terminal(state)) {
        snprintf(err, errlen, "the game is not over after its moves");
        goto done;
    }
    if (api->record_position) {
        if (api->record_position(rec, -1, check, err, errlen) < 0)
            goto done;
        if (api->hash_full(check) != api->hash_full(state)) {
            /* The slow, exact way: every kept ply from the record itself. */
            d->rebuilt++;
            long k = 0;
            for (long ply = 0; k < nkeep; ply += every, k++)
                if (api->record_position(rec, (int)ply, buf + (size_t)k * d->stride, err, errlen) <
                    0)
                    goto done;
        }
    }
    double res[GAME_MAX_PLAYERS];
    api->result(state, res);
    for (long k = 0; k < nkeep; k++)
        if (fit_data_add(d, buf + (size_t)k * d->stride, res)) {
            snprintf(err, errlen, "out of memory");
            goto done;
        }
    d->games++;
    rc = 0;
done:
    free(state);
    free(buf);
    return rc;
}

int fit_data_add_file(fit_data_t *d, const char *path, int every, char *err, size_t errlen)
{
    FILE *f = input_open(path, "r", "record file", err, errlen);
    if (!f)
        return -1;
    char name[128], what[GAME_ERR_MAX];
    input_escape(path, name, sizeof name);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (strspn(line, " \t\r\n") == (size_t)len)
            continue;
        json_error_t jerr;
        json_t *rec = json_loadb(line, (size_t)len, 0, &jerr);
        if (!rec || !json_is_object(rec)) {
            snprintf(err, errlen, "%s:%ld: not a JSON record (%s)", name, lineno,
                     rec ? "not an object" : jerr.text);
            rc = -1;
        } else if (fit_data_add_record(d, rec, every, what, sizeof what)) {
            snprintf(err, errlen, "%s:%ld: %s", name, lineno, what);
            rc = -1;
        }
        json_decref(rec);
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "%s: cannot read the record file", name);
        rc = -1;
    }
    free(line);
    fclose(f);
    return rc;
}
