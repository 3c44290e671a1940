/* Game records (FORMATS.md §4): the envelope written and checked once for every game. */
#include "core/record.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/forfeit.h"
#include "core/input.h"
#include "core/version.h"

/* Fills err and returns -1. */
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- writing ---- */

/* Where a record is written from: the start state, the moves to write, the state now. */
typedef struct writer {
    const game_api_t *api;
    unsigned char *start, *cur, *before; /* state_size bytes each */
    move_t *legal;                       /* GAME_MAX_MOVES */
    move_t prefix[RECORD_PREFIX_MAX];
    int nprefix;
} writer_t;

static int writer_open(writer_t *w, const game_api_t *api, const void *initial)
{
    memset(w, 0, sizeof *w);
    w->api = api;
    w->start = malloc(3 * api->state_size);
    w->legal = malloc(GAME_MAX_MOVES * sizeof *w->legal);
    if (!w->start || !w->legal)
        return -1;
    w->cur = w->start + api->state_size;
    w->before = w->cur + api->state_size;
    const record_hooks_t *h = api->record;
    if (h->write_start)
        return h->write_start(initial, w->start, w->prefix, &w->nprefix);
    api->copy(w->start, initial);
    return 0;
}

static void writer_close(writer_t *w)
{
    free(w->start);
    free(w->legal);
}

/* The moves (the game's prefix first) as texts into list, their legal counts into lc (if
   not NULL), chance events through the game's write_move; the end position in w->cur.
   0, or -1 if a move is illegal. */
static int write_moves(writer_t *w, json_t *rec, json_t *list, json_t *lc, const move_t *moves,
                       int move_count, const int *legal_counts)
{
    const game_api_t *api = w->api;
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    char text[GAME_MOVE_TEXT_MAX];
    api->copy(w->cur, w->start);
    for (int i = 0; i < w->nprefix + move_count; i++) {
        bool pre = i < w->nprefix;
        move_t m = pre ? w->prefix[i] : moves[i - w->nprefix];
        int n = api->gen_moves(w->cur, w->legal), j = 0;
        while (j < n && w->legal[j] != m)
            j++;
        if (j == n)
            return -1;
        if (lc)
            json_array_append_new(lc, json_integer(pre ? n : legal_counts[i - w->nprefix]));
        api->move_to_text(w->cur, m, text);
        json_array_append_new(list, json_string(text));
        if (api->record->write_move)
            api->copy(w->before, w->cur);
        api->make(w->cur, m, undo);
        if (api->record->write_move)
            api->record->write_move(rec, w->before, w->cur, m);
    }
    return 0;
}

json_t *record_new(const game_api_t *api, const void *initial, const game_options_t *opt,
                   const move_t *moves, int move_count, const int *legal_counts,
                   const char *const *seats)
{
    const record_hooks_t *h = api->record;
    writer_t w;
    if (writer_open(&w, api, initial) < 0) {
        writer_close(&w);
        return NULL;
    }
    int players = api->player_count(initial);
    json_t *rec = json_object(), *seat_list = json_array();
    json_object_set_new(rec, "game", json_string(api->name));
    json_object_set_new(rec, "format", json_integer(1));
    if (h->head_keys)
        h->head_keys(rec, initial, opt);
    json_object_set_new(rec, "players", json_integer(players));
    /* Without seats (tests, benchmarks) every seat is written as an empty spec. */
    for (int p = 0; p < players; p++)
        json_array_append_new(seat_list, json_string(seats && seats[p] ? seats[p] : ""));
    json_object_set_new(rec, "seats", seat_list);
    uint64_t seed = h->seed ? h->seed(initial) : opt ? opt->seed : 0;
    json_object_set_new(rec, "seed", json_integer((json_int_t)seed));
    json_object_set_new(rec, "first_player", json_integer(h->first_player(initial)));
    if (h->setup_keys)
        h->setup_keys(rec, initial);
    json_t *list = json_array(), *lc = legal_counts ? json_array() : NULL;
    int rc = write_moves(&w, rec, list, lc, moves, move_count, legal_counts);
    json_object_set_new(rec, "moves", list);
    if (lc)
        json_object_set_new(rec, "legal_counts", lc);
    if (rc == 0 && (h->result_always || api->is_terminal(w.cur))) {
        json_t *result = h->result(w.cur);
        if (result)
            json_object_set_new(rec, "result", result);
    }
    /* A key after FORMATS.md's (readers ignore unknown keys): the engine that wrote it. */
    json_object_set_new(rec, "engine", json_string(skyline_engine()));
    writer_close(&w);
    if (rc < 0) {
        json_decref(rec);
        return NULL;
    }
    return rec;
}

int record_add_per_move(json_t *rec, const char *key, json_t *list)
{
    if (!json_is_array(list) ||
        json_array_size(list) > json_array_size(json_object_get(rec, "moves"))) {
        json_decref(list);
        return -1;
    }
    return json_object_set_new(rec, key, list);
}

/* ---- reading ---- */

/* Integer key of rec in [lo, hi] into *v: 0, or -1 (err: "record: KEY must be ..."). */
static int int_key(const json_t *rec, const char *key, json_int_t lo, json_int_t hi, json_int_t *v,
                   char *err, size_t errlen)
{
    const json_t *j = json_object_get(rec, key);
    if (!json_is_integer(j) || json_integer_value(j) < lo || json_integer_value(j) > hi) {
        /* The value found, quoted as JSON, if there is one. */
        char *text = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY | JSON_ENSURE_ASCII) : NULL;
        char shown[INPUT_EXCERPT_MAX], range[64];
        if (lo == hi)
            snprintf(range, sizeof range, "%lld", (long long)lo);
        else
            snprintf(range, sizeof range, "an integer from %lld to %lld", (long long)lo,
                     (long long)hi);
        fail(err, errlen, "record: %s must be %s%s%s", key, range, text ? ", not " : "",
             text ? input_escape(text, shown, sizeof shown) : "");
        free(text);
        return -1;
    }
    *v = json_integer_value(j);
    return 0;
}

/* The envelope's seats and seed. */
static int seats_seed(const json_t *rec, record_envelope_t *env, char *err, size_t errlen)
{
    const json_t *seats = json_object_get(rec, "seats");
    if (!json_is_array(seats) || (int)json_array_size(seats) != env->players)
        return fail(err, errlen, "record: seats must be a list of %d bot specs (one per player)",
                    env->players);
    for (size_t i = 0; i < json_array_size(seats); i++)
        if (!json_is_string(json_array_get(seats, i)))
            return fail(err, errlen, "record: seats entry %d is not a string", (int)i);
    const json_t *seed = json_object_get(rec, "seed");
    if (!json_is_integer(seed) || json_integer_value(seed) < 0)
        return fail(err, errlen, "record: seed must be a non-negative integer");
    env->seed = (uint64_t)json_integer_value(seed);
    return 0;
}

int record_envelope(const game_api_t *api, const json_t *rec, record_envelope_t *env, char *err,
                    size_t errlen)
{
    memset(env, 0, sizeof *env);
    if (!json_is_object(rec))
        return fail(err, errlen, "record: not a JSON object");
    const json_t *game = json_object_get(rec, "game");
    if (!json_is_string(game) || strcmp(json_string_value(game), api->name))
        return fail(err, errlen, "record: game must be \"%s\"", api->name);
    const json_t *format = json_object_get(rec, "format");
    if (!json_is_integer(format) || json_integer_value(format) != 1)
        return fail(err, errlen, "record: format must be 1 (the only record format)");
    json_int_t players, first;
    if (int_key(rec, "players", api->min_players, api->max_players, &players, err, errlen))
        return -1;
    env->players = (int)players;
    if (seats_seed(rec, env, err, errlen) ||
        int_key(rec, "first_player", 0, players - 1, &first, err, errlen))
        return -1;
    env->first_player = (int)first;
    env->moves = json_object_get(rec, "moves");
    if (!json_is_array(env->moves))
        return fail(err, errlen, "record: moves must be a list of move texts");
    env->move_count = (int)json_array_size(env->moves);
    env->counts = json_object_get(rec, "legal_counts");
    if (env->counts && !json_is_array(env->counts))
        return fail(err, errlen, "record: legal_counts must be a list of integers");
    if (env->counts && (int)json_array_size(env->counts) != env->move_count)
        return fail(err, errlen, "record: legal_counts has %d entries for %d moves",
                    (int)json_array_size(env->counts), env->move_count);
    return 0;
}

/* The start of the record's game into state. */
static int read_start(const game_api_t *api, const json_t *rec, const record_envelope_t *env,
                      void *state, char *err, size_t errlen)
{
    if (api->record->read_start)
        return api->record->read_start(rec, env, state, err, errlen);
    game_options_t opt;
    game_options_default(&opt);
    opt.players = env->players;
    opt.seed = env->seed;
    opt.first_player = env->first_player;
    return api->new_game(state, &opt, err, errlen);
}

/* A replay in progress: the record, its envelope, scratch for the loop. */
typedef struct replay {
    const game_api_t *api;
    const json_t *rec;
    record_envelope_t env;
    unsigned char *before; /* state_size bytes */
    move_t *legal;         /* GAME_MAX_MOVES */
    int used;              /* the game's own chance events consumed */
    record_each_t each;    /* called before each move (may be NULL) */
    void *ctx;
} replay_t;

/* Checks and plays move i of the record on state. */
static int replay_move(replay_t *r, int i, void *state, char *err, size_t errlen)
{
    const game_api_t *api = r->api;
    const json_t *jm = json_array_get(r->env.moves, (size_t)i);
    if (!json_is_string(jm))
        return fail(err, errlen, "move %d: not a string", i);
    char text[INPUT_EXCERPT_MAX], why[GAME_ERR_MAX];
    input_escape(json_string_value(jm), text, sizeof text);
    if (api->is_terminal(state)) {
        if (i == 0)
            return fail(err, errlen, "move 0 (%s): the game is over before any move", text);
        return fail(err, errlen, "move %d (%s): the game ended with move %d, the record goes on", i,
                    text, i - 1);
    }
    if (r->env.counts) {
        const json_t *jc = json_array_get(r->env.counts, (size_t)i);
        int n = api->gen_moves(state, r->legal);
        if (!json_is_integer(jc))
            return fail(err, errlen, "move %d (%s): legal_counts entry is not an integer", i, text);
        if (json_integer_value(jc) != n)
            return fail(err, errlen,
                        "move %d (%s): legal_counts says %lld legal moves, the rules give %d", i,
                        text, (long long)json_integer_value(jc), n);
    }
    move_t m;
    if (api->move_from_text(state, json_string_value(jm), &m, why, sizeof why))
        return fail(err, errlen, "move %d: %s", i, why); /* why quotes the text */
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    const record_hooks_t *h = api->record;
    if (h->read_move)
        api->copy(r->before, state);
    if (r->each)
        r->each(r->ctx, i, state, m);
    api->make(state, m, undo);
    if (h->read_move && h->read_move(r->rec, r->before, state, m, &r->used, why, sizeof why))
        return fail(err, errlen, "move %d (%s): %s", i, text, why);
    return 0;
}

/* The replay loop: rec's game after ply moves (-1: all) into state, *r as it ended. The
   move count, or -1 with err filled. */
static int replay_to(replay_t *r, const game_api_t *api, const json_t *rec, int ply, void *state,
                     char *err, size_t errlen)
{
    record_each_t each = r->each;
    void *ctx = r->ctx;
    memset(r, 0, sizeof *r);
    r->api = api;
    r->rec = rec;
    r->each = each;
    r->ctx = ctx;
    if (record_envelope(api, rec, &r->env, err, errlen) ||
        read_start(api, rec, &r->env, state, err, errlen))
        return -1;
    int count = r->env.move_count;
    if (ply > count)
        return fail(err, errlen, "ply %d is beyond the game's %d moves", ply, count);
    r->before = malloc(api->state_size);
    r->legal = malloc(GAME_MAX_MOVES * sizeof *r->legal);
    int rc = r->before && r->legal ? 0 : fail(err, errlen, "out of memory");
    for (int i = 0; rc == 0 && i < (ply < 0 ? count : ply); i++)
        rc = replay_move(r, i, state, err, errlen);
    if (rc == 0 && ply < 0 && api->record->read_end)
        rc = api->record->read_end(rec, state, r->used, err, errlen);
    free(r->before);
    free(r->legal);
    return rc < 0 ? -1 : count;
}

int record_position(const game_api_t *api, const json_t *rec, int ply, void *state, char *err,
                    size_t errlen)
{
    return record_position_each(api, rec, ply, state, NULL, NULL, NULL, err, errlen);
}

/* The random set-up's length, checked by the game on the record's start. */
typedef struct setup_count {
    const game_api_t *api;
    const json_t *rec;
    int *out;
    record_each_t each;
    void *ctx;
} setup_count_t;

static void count_then_each(void *ctx, int index, const void *before, move_t m)
{
    setup_count_t *c = ctx;
    if (index == 0 && c->out && c->api->record->random_setup)
        *c->out = c->api->record->random_setup(c->rec, before);
    if (c->each)
        c->each(c->ctx, index, before, m);
}

int record_position_each(const game_api_t *api, const json_t *rec, int ply, void *state,
                         record_each_t each, void *ctx, int *random_setup, char *err, size_t errlen)
{
    if (random_setup)
        *random_setup = 0;
    setup_count_t c = {api, rec, random_setup, each, ctx};
    replay_t r = {.each = count_then_each, .ctx = &c};
    return replay_to(&r, api, rec, ply, state, err, errlen);
}

/* The record's result against the one the rules give state. */
static int compare_result(const game_api_t *api, const json_t *want, const void *state, char *err,
                          size_t errlen)
{
    if (!json_is_object(want))
        return fail(err, errlen,
                    "record: result must be an object (the record of a finished game)");
    json_t *got = api->record->result(state);
    const char *key;
    json_t *value;
    int rc = 0;
    json_object_foreach(got, key, value)
    {
        const json_t *w = json_object_get(want, key);
        if (!w) {
            rc = fail(err, errlen, "record: result has no \"%s\"", key);
            break;
        }
        if (json_equal(w, value))
            continue;
        char *a = json_dumps(w, JSON_COMPACT | JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
        char *b = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
        char shown[INPUT_EXCERPT_MAX];
        rc = fail(err, errlen, "result: %s %s %s in the record but %s by the rules", key,
                  json_is_array(value) ? "are" : "is",
                  input_escape(a ? a : "?", shown, sizeof shown), b ? b : "?");
        free(a);
        free(b);
        break;
    }
    json_decref(got);
    return rc;
}

int record_replay(const game_api_t *api, const json_t *rec, char *err, size_t errlen)
{
    void *state = malloc(api->state_size);
    if (!state)
        return fail(err, errlen, "out of memory");
    replay_t r = {0};
    int count = replay_to(&r, api, rec, -1, state, err, errlen), rc = -1;
    bool over = count >= 0 && api->is_terminal(state);
    if (count < 0)
        rc = -1;
    else if (forfeit_record_has(rec))
        rc = forfeit_record_check(rec, r.env.players, count, over, err, errlen);
    else if (!over && count == 0)
        rc = fail(err, errlen, "record: no moves, but a game needs some");
    else if (!over)
        rc = fail(err, errlen, "record: the moves end with move %d, before the game is over",
                  count - 1);
    else
        rc = compare_result(api, json_object_get(rec, "result"), state, err, errlen);
    free(state);
    return rc;
}

void *record_line_position(const char *line, int ply, const game_api_t **api, int *moves, char *err,
                           size_t errlen)
{
    json_error_t jerr;
    json_t *rec = json_loads(line, 0, &jerr);
    if (!rec) {
        fail(err, errlen, "record: not JSON (%s)", jerr.text);
        return NULL;
    }
    const char *name = json_string_value(json_object_get(rec, "game"));
    const game_api_t *g = name ? game_find(name) : NULL;
    char shown[INPUT_EXCERPT_MAX], names[256];
    if (!g) {
        if (name)
            fail(err, errlen, "record: game '%s' is not one of %s",
                 input_escape(name, shown, sizeof shown), game_names(names, sizeof names, ", "));
        else
            fail(err, errlen, "record: game must be one of %s",
                 game_names(names, sizeof names, ", "));
        json_decref(rec);
        return NULL;
    }
    void *state = malloc(g->state_size);
    int n = state ? record_position(g, rec, ply, state, err, errlen)
                  : fail(err, errlen, "out of memory");
    json_decref(rec);
    if (n < 0) {
        free(state);
        return NULL;
    }
    *api = g;
    if (moves)
        *moves = n;
    return state;
}
