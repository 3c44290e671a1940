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
#include "core/lines.h"
#include "core/record.h"
#include "core/rng.h"

/* Most plies of one game the loader keeps at once (a longer game is refused). */
#define FIT_MAX_PLIES 100000
/* Records read at once, then replayed in parallel. */
#define FIT_BATCH 256

int fit_data_init(fit_data_t *d, const game_api_t *api, int players)
{
    memset(d, 0, sizeof *d);
    d->api = api;
    d->players = players;
    d->stride = (api->state_size + 15) / 16 * 16;
    d->table_cap = 1024;
    d->threads = 1;
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

/* Adds one position with its key (merged with an equal one). 0 or -1. */
static int data_add_keyed(fit_data_t *d, const void *state, uint64_t key, const double *result)
{
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

int fit_data_add(fit_data_t *d, const void *state, const double *result)
{
    return data_add_keyed(d, state, fit_data_key(d->api, state), result);
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

/* The start of rec's game into state (core/record.h). 0, or -1 with err filled. */
static int record_start(const game_api_t *api, const json_t *rec, void *state, char *err,
                        size_t errlen)
{
    return record_position(api, rec, 0, state, err, errlen) < 0 ? -1 : 0;
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

/* One game's positions, collected (in parallel) before they are added (in file order). */
typedef struct fit_game {
    const char *line;             /* the record's text (not owned), or NULL: rec given */
    size_t len;                   /* its length */
    unsigned char *states;        /* kept positions, stride bytes apart */
    uint64_t *keys;               /* their keys */
    long count;                   /* kept positions */
    long cap;                     /* room in states and keys */
    double res[GAME_MAX_PLAYERS]; /* the game's result per player */
    int status;                   /* 0 collected, 1 skipped (forfeit), -1 error in err */
    bool rebuilt;                 /* rebuilt ply by ply */
    char err[GAME_ERR_MAX];       /* what is wrong */
} fit_game_t;

/* Room for one more kept position in g: 0, or -1. */
static int game_room(const fit_data_t *d, fit_game_t *g)
{
    if (g->count < g->cap)
        return 0;
    long cap = g->cap ? g->cap * 2 : 128;
    unsigned char *states = realloc(g->states, (size_t)cap * d->stride);
    if (!states)
        return -1;
    g->states = states;
    uint64_t *keys = realloc(g->keys, (size_t)cap * sizeof *keys);
    if (!keys)
        return -1;
    g->keys = keys;
    g->cap = cap;
    return 0;
}

/*
 * Replays the moves of rec from state, keeping plies 0, every, ... before the end in g;
 * state ends at the game's end. 0, or -1 with g->err.
 */
static int record_walk(const fit_data_t *d, const json_t *rec, void *state, int every,
                       fit_game_t *g)
{
    const game_api_t *api = d->api;
    const json_t *moves = json_object_get(rec, "moves");
    size_t n = json_array_size(moves);
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    g->count = 0;
    if (n > FIT_MAX_PLIES) {
        snprintf(g->err, sizeof g->err, "%zu moves: more than the %d a fit reads of one game", n,
                 FIT_MAX_PLIES);
        return -1;
    }
    for (size_t i = 0; i <= n; i++) {
        bool over = api->is_terminal(state);
        if (i % (size_t)every == 0 && !over) {
            if (game_room(d, g)) {
                snprintf(g->err, sizeof g->err, "out of memory");
                return -1;
            }
            api->copy(g->states + (size_t)g->count++ * d->stride, state);
        }
        if (i == n)
            break;
        const char *text = json_string_value(json_array_get(moves, i));
        char why[GAME_ERR_MAX], shown[INPUT_EXCERPT_MAX];
        move_t m;
        if (!text) {
            snprintf(g->err, sizeof g->err, "move %zu is not a string", i);
            return -1;
        }
        if (over) {
            snprintf(g->err, sizeof g->err, "move %zu (%s): the game is already over", i,
                     input_escape(text, shown, sizeof shown));
            return -1;
        }
        if (api->move_from_text(state, text, &m, why, sizeof why)) {
            snprintf(g->err, sizeof g->err, "move %zu (%s): %.400s", i,
                     input_escape(text, shown, sizeof shown), why);
            return -1;
        }
        api->make(state, m, undo);
    }
    return 0;
}

/* The slow, exact way: every kept ply of rec rebuilt with record_position, the game's
   end into state. 0, or -1 with g->err (an illegal move, a game that does not end). */
static int record_rebuild(const fit_data_t *d, const json_t *rec, void *state, int every,
                          fit_game_t *g)
{
    const game_api_t *api = d->api;
    int n = record_position(api, rec, -1, state, g->err, sizeof g->err);
    if (n < 0)
        return -1;
    if (!api->is_terminal(state)) {
        snprintf(g->err, sizeof g->err, "the game is not over after its moves");
        return -1;
    }
    g->count = 0;
    g->rebuilt = true;
    for (int ply = 0; ply < n; ply += every) {
        if (game_room(d, g)) {
            snprintf(g->err, sizeof g->err, "out of memory");
            return -1;
        }
        if (record_position(api, rec, ply, g->states + (size_t)g->count++ * d->stride, g->err,
                            sizeof g->err) < 0)
            return -1;
    }
    return 0;
}

/*
 * Collects the positions of record rec into g (g->status says how it went). The positions
 * are replayed with make from the record's start (fast), which is exact when the game's
 * chance events after the start follow from that state. Where they do not (a Tower Up
 * reshuffle: record_position, core/record.h, sets the drawn pile from the record), the replay ends
 * elsewhere than the record's own, or meets a move it finds illegal; then every kept ply
 * is rebuilt from the record with record_position.
 */
static void game_collect(const fit_data_t *d, const json_t *rec, int every, fit_game_t *g)
{
    const game_api_t *api = d->api;
    g->status = -1;
    if (record_check(d, rec, g->err, sizeof g->err))
        return;
    if (forfeit_record_has(rec)) {
        g->status = 1;
        return;
    }
    unsigned char *state = calloc(2, d->stride);
    if (!state) {
        snprintf(g->err, sizeof g->err, "out of memory");
        return;
    }
    unsigned char *check = state + d->stride;
    if (record_start(api, rec, state, g->err, sizeof g->err))
        goto done;
    bool exact = record_walk(d, rec, state, every, g) == 0;
    char why[GAME_ERR_MAX];
    exact = exact && api->is_terminal(state) &&
            record_position(api, rec, -1, check, why, sizeof why) >= 0 &&
            api->hash_full(check) == api->hash_full(state);
    if (!exact && record_rebuild(d, rec, state, every, g))
        goto done;
    api->result(state, g->res);
    for (long k = 0; k < g->count; k++)
        g->keys[k] = fit_data_key(api, g->states + (size_t)k * d->stride);
    g->status = 0;
done:
    free(state);
}

/* Adds a collected game to d: 0, or -1 with err filled (the game's error or memory). */
static int game_add(fit_data_t *d, const fit_game_t *g, char *err, size_t errlen)
{
    if (g->status < 0) {
        snprintf(err, errlen, "%s", g->err);
        return -1;
    }
    if (g->status == 1) {
        d->skipped++;
        return 0;
    }
    for (long k = 0; k < g->count; k++)
        if (data_add_keyed(d, g->states + (size_t)k * d->stride, g->keys[k], g->res)) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    d->games++;
    d->rebuilt += g->rebuilt;
    return 0;
}

static void game_free(fit_game_t *g)
{
    free(g->states);
    free(g->keys);
    memset(g, 0, sizeof *g);
}

int fit_data_add_record(fit_data_t *d, const json_t *rec, int every, char *err, size_t errlen)
{
    fit_game_t g;
    memset(&g, 0, sizeof g);
    game_collect(d, rec, every, &g);
    int rc = game_add(d, &g, err, errlen);
    game_free(&g);
    return rc;
}

/* Parses and collects game g from its line (run by the workers). */
static void game_from_line(const fit_data_t *d, int every, fit_game_t *g)
{
    json_error_t jerr;
    json_t *rec = json_loadb(g->line, g->len, 0, &jerr);
    if (!rec || !json_is_object(rec)) {
        g->status = -1;
        snprintf(g->err, sizeof g->err, "not a JSON record (%s)",
                 rec ? "not an object" : jerr.text);
    } else {
        game_collect(d, rec, every, g);
    }
    json_decref(rec);
}

/* Collects games[n] (from lines lineno[n]) in parallel, then adds them in file order: 0,
   or -1 with err "FILE:LINE: what" for the first that fails. */
static int games_flush(fit_data_t *d, fit_game_t *games, long *lineno, int n, int every,
                       const char *name, char *err, size_t errlen)
{
    int threads = d->threads > 0 ? d->threads : 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int i = 0; i < n; i++)
        game_from_line(d, every, &games[i]);
    int rc = 0;
    char what[GAME_ERR_MAX];
    for (int i = 0; i < n; i++) {
        if (rc == 0 && game_add(d, &games[i], what, sizeof what)) {
            snprintf(err, errlen, "%s:%ld: %s", name, lineno[i], what);
            rc = -1;
        }
        game_free(&games[i]);
    }
    return rc;
}

int fit_data_add_file(fit_data_t *d, const char *path, int every, char *err, size_t errlen)
{
    FILE *f = lines_open(path, "record file", 0, err, errlen);
    if (!f)
        return -1;
    char name[128];
    input_escape(path, name, sizeof name);
    char *lines[FIT_BATCH] = {0};
    size_t caps[FIT_BATCH] = {0};
    long lineno[FIT_BATCH];
    fit_game_t *games = calloc(FIT_BATCH, sizeof *games);
    if (!games) {
        fclose(f);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    lines_reader_t r;
    lines_init(&r, f);
    int n = 0, rc = 0, got = 0;
    while (rc == 0 && (got = lines_next(&r)) > 0) {
        if (strspn(r.text, " \t\r") == r.len)
            continue;
        /* A last line cut short by a running or killed writer is dropped, as rate does. */
        if (r.cut) {
            json_t *probe = json_loadb(r.text, r.len, 0, NULL);
            json_decref(probe);
            if (!probe) {
                fprintf(stderr, "skyline: %s:%ld: ignoring a cut-off last record\n", name,
                        r.lineno);
                break;
            }
        }
        /* The batch keeps the line's buffer; the reader takes the batch slot's old one. */
        char *text = r.text;
        size_t cap = r.cap;
        r.text = lines[n];
        r.cap = caps[n];
        lines[n] = text;
        caps[n] = cap;
        games[n].line = text;
        games[n].len = r.len;
        lineno[n] = r.lineno;
        if (++n == FIT_BATCH) {
            rc = games_flush(d, games, lineno, n, every, name, err, errlen);
            n = 0;
        }
    }
    if (rc == 0 && n)
        rc = games_flush(d, games, lineno, n, every, name, err, errlen);
    if (rc == 0 && got < 0) {
        lines_error(&r, path, err, errlen);
        rc = -1;
    }
    lines_free(&r);
    for (int i = 0; i < FIT_BATCH; i++)
        free(lines[i]);
    free(games);
    fclose(f);
    return rc;
}
