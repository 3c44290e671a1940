/* The C API for games in progress (api/skyline_api.h): states with their move history. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"
#include "core/record.h"
#include "core/version.h"

struct sky_state {
    const game_api_t *api; /* the game */
    sky_options_t opt;     /* what it was made from */
    const char *no_record; /* why it has no game record (NULL: it has one) */
    void *initial;         /* the position its history starts from */
    void *state;           /* the current position */
    int count;             /* moves in the history */
    int cap;               /* room in moves[] and undo[] */
    move_t *moves;         /* the moves played */
    unsigned char *undo;   /* their undo records, api->undo_size bytes each */
    /* The public move log (sky_state_log): log_base plies from before the history start
       (a determinization keeps its source's), then one per move of moves[]. */
    int log_base, log_cap;
    sky_ply_t *log;
};

static void put_err(char *err, int errlen, const char *fmt, const char *arg)
{
    if (err && errlen > 0)
        snprintf(err, (size_t)errlen, fmt, arg);
}

char *sky_strdup(const char *text)
{
    size_t n = strlen(text) + 1;
    char *s = malloc(n);
    if (s)
        memcpy(s, text, n);
    return s;
}

void sky_free(char *s) { free(s); }

const char *sky_version(void) { return skyline_version(); }
int sky_game_count(void) { return game_count(); }
const char *sky_game_name(int i) { return game_at(i) ? game_at(i)->name : NULL; }
int sky_max_moves(void) { return GAME_MAX_MOVES; }
int sky_move_text_max(void) { return GAME_MOVE_TEXT_MAX; }

const game_api_t *sky_game(const char *name, char *err, int errlen)
{
    const game_api_t *api = name ? game_find(name) : NULL;
    if (!api) {
        char names[256];
        game_names(names, sizeof names, ", ");
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "unknown game '%s' (games: %s)", name ? name : "", names);
    }
    return api;
}

int sky_game_players(const char *game, int *min_players, int *max_players, char *err, int errlen)
{
    const game_api_t *api = sky_game(game, err, errlen);
    if (!api)
        return -1;
    *min_players = api->min_players;
    *max_players = api->max_players;
    return 0;
}

static int check_players(const game_api_t *api, int players, char *err, int errlen)
{
    if (players < api->min_players || players > api->max_players) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "%s is played by %d to %d players, not %d", api->name,
                     api->min_players, api->max_players, players);
        return -1;
    }
    return 0;
}

int sky_num_actions(const char *game, int players, char *err, int errlen)
{
    const game_api_t *api = sky_game(game, err, errlen);
    if (!api || check_players(api, players, err, errlen))
        return -1;
    if (!api->action_count) {
        put_err(err, errlen, "%s has no action space", api->name);
        return -1;
    }
    return api->action_count(players);
}

int sky_observation_size(const char *game, int players, char *err, int errlen)
{
    const game_api_t *api = sky_game(game, err, errlen);
    if (!api || check_players(api, players, err, errlen))
        return -1;
    if (!api->observation_size) {
        put_err(err, errlen, "%s has no observation tensor", api->name);
        return -1;
    }
    return api->observation_size(players);
}

void sky_options_own(sky_options_t *o)
{
    for (int i = 0; i < o->opt.option_count; i++)
        o->opt.option[i] = o->text[i];
}

int sky_options_parse(const game_api_t *api, int players, uint64_t seed, const char *options,
                      sky_options_t *o, char *err, int errlen)
{
    memset(o, 0, sizeof *o);
    game_options_default(&o->opt);
    o->opt.seed = seed;
    o->opt.players = players                ? players
                     : 3 < api->min_players ? api->min_players
                     : 3 > api->max_players ? api->max_players
                                            : 3;
    if (check_players(api, o->opt.players, err, errlen))
        return -1;
    const char *p = options ? options : "";
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char line[sizeof o->text[0]];
        if (n >= sizeof line) {
            put_err(err, errlen, "option too long: %.40s...", p);
            return -1;
        }
        memcpy(line, p, n);
        line[n] = '\0';
        p += n + (end ? 1 : 0);
        if (!n)
            continue;
        char *eq = strchr(line, '=');
        if (!eq) {
            put_err(err, errlen, "option '%s' is not key=value", line);
            return -1;
        }
        if (!strncmp(line, "first_player=", 13)) {
            const char *val = eq + 1;
            char *tail;
            long v = strtol(val, &tail, 10);
            if (!*val || *tail || v < 0 || v >= o->opt.players) {
                if (err && errlen > 0)
                    snprintf(err, (size_t)errlen, "first_player must be 0..%d, not '%s'",
                             o->opt.players - 1, val);
                return -1;
            }
            o->opt.first_player = (int)v;
            continue;
        }
        /* The game's own option: kept as text, checked by the game below. */
        char e[GAME_ERR_MAX];
        int slot = o->opt.option_count < GAME_OPTION_MAX ? o->opt.option_count : 0;
        const char *old = NULL;
        for (int i = 0; i < o->opt.option_count; i++)
            if (!strncmp(o->opt.option[i], line, (size_t)(eq - line) + 1))
                old = o->opt.option[i], slot = i;
        if (!old && o->opt.option_count >= GAME_OPTION_MAX) {
            if (err && errlen > 0)
                snprintf(err, (size_t)errlen, "more than %d game options", GAME_OPTION_MAX);
            return -1;
        }
        memcpy(o->text[slot], line, n + 1);
        if (game_options_add(&o->opt, o->text[slot], e, sizeof e)) {
            put_err(err, errlen, "%s", e);
            return -1;
        }
    }
    char e[GAME_ERR_MAX];
    if (game_options_check(api, &o->opt, e, sizeof e)) {
        put_err(err, errlen, "%s", e);
        return -1;
    }
    return 0;
}

static sky_state_t *state_alloc(const game_api_t *api)
{
    sky_state_t *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->api = api;
    st->initial = malloc(api->state_size);
    st->state = malloc(api->state_size);
    if (!st->initial || !st->state) {
        sky_state_free(st);
        return NULL;
    }
    return st;
}

sky_state_t *sky_state_new(const char *game, int players, uint64_t seed, const char *options,
                           char *err, int errlen)
{
    const game_api_t *api = sky_game(game, err, errlen);
    if (!api)
        return NULL;
    sky_options_t o;
    if (sky_options_parse(api, players, seed, options, &o, err, errlen))
        return NULL;
    sky_state_t *st = state_alloc(api);
    if (!st) {
        put_err(err, errlen, "out of memory%s", "");
        return NULL;
    }
    st->opt = o;
    sky_options_own(&st->opt);
    char e[GAME_ERR_MAX];
    if (api->new_game(st->state, &st->opt.opt, e, sizeof e)) {
        put_err(err, errlen, "%s", e);
        sky_state_free(st);
        return NULL;
    }
    api->copy(st->initial, st->state);
    return st;
}

sky_state_t *sky_state_adopt(const game_api_t *api, const void *state, const sky_options_t *o,
                             const char *no_record)
{
    sky_state_t *st = state_alloc(api);
    if (!st)
        return NULL;
    st->opt = *o;
    sky_options_own(&st->opt);
    st->opt.opt.players = api->player_count(state);
    st->no_record = no_record;
    api->copy(st->state, state);
    api->copy(st->initial, state);
    return st;
}

void sky_state_free(sky_state_t *st)
{
    if (!st)
        return;
    free(st->initial);
    free(st->state);
    free(st->moves);
    free(st->undo);
    free(st->log);
    free(st);
}

/* dst's log: src's whole log, the first base plies of it from before dst's history
   start. 0, or -1 out of memory. */
static int log_copy(sky_state_t *dst, const sky_state_t *src, int base)
{
    int n = src->log_base + src->count;
    dst->log_base = base;
    if (!n)
        return 0;
    dst->log = malloc((size_t)n * sizeof *dst->log);
    if (!dst->log)
        return -1;
    memcpy(dst->log, src->log, (size_t)n * sizeof *dst->log);
    dst->log_cap = n;
    return 0;
}

int sky_state_log(const sky_state_t *st, const sky_ply_t **log)
{
    *log = st->log;
    return st->log_base + st->count;
}

sky_state_t *sky_state_clone(const sky_state_t *src)
{
    sky_state_t *st = state_alloc(src->api);
    if (!st)
        return NULL;
    const game_api_t *api = src->api;
    st->opt = src->opt;
    sky_options_own(&st->opt);
    st->no_record = src->no_record;
    api->copy(st->initial, src->initial);
    api->copy(st->state, src->state);
    if (src->count) {
        st->moves = malloc((size_t)src->count * sizeof *st->moves);
        st->undo = malloc((size_t)src->count * api->undo_size);
        if (!st->moves || !st->undo) {
            sky_state_free(st);
            return NULL;
        }
        memcpy(st->moves, src->moves, (size_t)src->count * sizeof *st->moves);
        memcpy(st->undo, src->undo, (size_t)src->count * api->undo_size);
        st->count = st->cap = src->count;
    }
    if (log_copy(st, src, src->log_base)) {
        sky_state_free(st);
        return NULL;
    }
    return st;
}

const void *sky_state_raw(const sky_state_t *st) { return st->state; }
const game_api_t *sky_state_api(const sky_state_t *st) { return st->api; }
const char *sky_state_game(const sky_state_t *st) { return st->api->name; }
int sky_state_players(const sky_state_t *st) { return st->api->player_count(st->state); }
int sky_state_is_terminal(const sky_state_t *st) { return st->api->is_terminal(st->state); }
int sky_state_move_count(const sky_state_t *st) { return st->count; }
uint64_t sky_state_hash(const sky_state_t *st) { return st->api->hash(st->state); }

int sky_state_to_move(const sky_state_t *st)
{
    return st->api->is_terminal(st->state) ? -1 : st->api->to_move(st->state);
}

int sky_state_legal_moves(const sky_state_t *st, char *buf, int len)
{
    move_t moves[GAME_MAX_MOVES];
    int n = st->api->gen_moves(st->state, moves), used = 0;
    if (len > 0)
        buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        st->api->move_to_text(st->state, moves[i], text);
        int k = (int)strlen(text);
        if (used + k + 2 > len)
            return -1;
        memcpy(buf + used, text, (size_t)k);
        used += k;
        buf[used++] = i + 1 < n ? '\n' : '\0';
    }
    return n;
}

int sky_state_legal_actions(const sky_state_t *st, int32_t *out, int max)
{
    if (!st->api->move_action)
        return -1;
    move_t moves[GAME_MAX_MOVES];
    int n = st->api->gen_moves(st->state, moves);
    if (n > max)
        return -1;
    for (int i = 0; i < n; i++)
        out[i] = st->api->move_action(st->state, moves[i]);
    return n;
}

static int parse_move(const sky_state_t *st, const char *text, move_t *m, char *err, int errlen)
{
    if (st->api->is_terminal(st->state)) {
        put_err(err, errlen, "the game is over: no move '%s'", text);
        return -1;
    }
    char e[GAME_ERR_MAX];
    if (st->api->move_from_text(st->state, text, m, e, sizeof e)) {
        put_err(err, errlen, "%s", e);
        return -1;
    }
    return 0;
}

static int action_to_move(const sky_state_t *st, int action, move_t *m, char *err, int errlen)
{
    if (!st->api->move_action) {
        put_err(err, errlen, "%s has no action space", st->api->name);
        return -1;
    }
    if (game_action_move(st->api, st->state, action, m)) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "action %d is not legal here (%s has %d actions)", action,
                     st->api->name, st->api->action_count(st->api->player_count(st->state)));
        return -1;
    }
    return 0;
}

int sky_state_move_action(const sky_state_t *st, const char *text, char *err, int errlen)
{
    move_t m;
    if (!st->api->move_action) {
        put_err(err, errlen, "%s has no action space", st->api->name);
        return -1;
    }
    if (parse_move(st, text, &m, err, errlen))
        return -1;
    return st->api->move_action(st->state, m);
}

int sky_state_action_move(const sky_state_t *st, int action, char *buf, int len, char *err,
                          int errlen)
{
    move_t m;
    if (action_to_move(st, action, &m, err, errlen))
        return -1;
    char text[GAME_MOVE_TEXT_MAX];
    st->api->move_to_text(st->state, m, text);
    snprintf(buf, (size_t)len, "%s", text);
    return 0;
}

/* The public ply of move m played on before, into the log's next entry (that of moves[count]).
   0, or -1 out of memory. */
static int log_put(sky_state_t *st, const void *before, move_t m)
{
    const game_api_t *api = st->api;
    int plies = st->log_base + st->count;
    if (plies == st->log_cap) {
        int cap = st->log_cap ? 2 * st->log_cap : 64;
        sky_ply_t *log = realloc(st->log, (size_t)cap * sizeof *log);
        if (!log)
            return -1;
        st->log = log;
        st->log_cap = cap;
    }
    st->log[plies].mover = api->to_move(before);
    st->log[plies].action = api->move_action ? api->move_action(before, m) : -1;
    return 0;
}

static int play(sky_state_t *st, move_t m, char *err, int errlen)
{
    const game_api_t *api = st->api;
    if (st->count == st->cap) {
        int cap = st->cap ? 2 * st->cap : 64;
        move_t *moves = realloc(st->moves, (size_t)cap * sizeof *moves);
        if (moves)
            st->moves = moves;
        unsigned char *undo = moves ? realloc(st->undo, (size_t)cap * api->undo_size) : NULL;
        if (!undo) {
            put_err(err, errlen, "out of memory%s", "");
            return -1;
        }
        st->undo = undo;
        st->cap = cap;
    }
    if (log_put(st, st->state, m)) {
        put_err(err, errlen, "out of memory%s", "");
        return -1;
    }
    api->make(st->state, m, st->undo + (size_t)st->count * api->undo_size);
    st->moves[st->count++] = m;
    return 0;
}

int sky_state_apply(sky_state_t *st, const char *text, char *err, int errlen)
{
    move_t m;
    if (parse_move(st, text, &m, err, errlen))
        return -1;
    return play(st, m, err, errlen);
}

int sky_state_apply_action(sky_state_t *st, int action, char *err, int errlen)
{
    move_t m;
    if (action_to_move(st, action, &m, err, errlen))
        return -1;
    return play(st, m, err, errlen);
}

int sky_state_undo(sky_state_t *st, char *err, int errlen)
{
    if (!st->count) {
        put_err(err, errlen, "no move to undo%s", "");
        return -1;
    }
    st->count--;
    st->api->undo(st->state, st->moves[st->count],
                  st->undo + (size_t)st->count * st->api->undo_size);
    return 0;
}

int sky_state_result(const sky_state_t *st, double *out)
{
    if (!st->api->is_terminal(st->state))
        return -1;
    st->api->result(st->state, out);
    return st->api->player_count(st->state);
}

int sky_state_scores(const sky_state_t *st, double *out)
{
    if (!st->api->scores || !st->api->is_terminal(st->state))
        return -1;
    st->api->scores(st->state, out);
    return st->api->player_count(st->state);
}

static int check_player(const sky_state_t *st, int player, bool public_ok, char *err, int errlen)
{
    int n = st->api->player_count(st->state);
    if (player < (public_ok ? -1 : 0) || player >= n) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "player %d out of range 0..%d%s", player, n - 1,
                     public_ok ? " (or -1)" : "");
        return -1;
    }
    return 0;
}

int sky_state_observation(const sky_state_t *st, int player, char *buf, int len, char *err,
                          int errlen)
{
    if (check_player(st, player, true, err, errlen))
        return -1;
    char e[GAME_ERR_MAX];
    if (game_position_write(st->api, st->state, player, buf, (size_t)len, e, sizeof e)) {
        put_err(err, errlen, "%s", e);
        return -1;
    }
    return 0;
}

int sky_state_observation_tensor(const sky_state_t *st, int player, float *out, int max, char *err,
                                 int errlen)
{
    if (!st->api->observation) {
        put_err(err, errlen, "%s has no observation tensor", st->api->name);
        return -1;
    }
    if (check_player(st, player, false, err, errlen))
        return -1;
    int n = st->api->observation_size(st->api->player_count(st->state));
    if (n > max) {
        put_err(err, errlen, "observation buffer too small%s", "");
        return -1;
    }
    st->api->observation(st->state, player, out);
    return n;
}

sky_state_t *sky_state_determinize(const sky_state_t *src, int player, uint64_t seed, char *err,
                                   int errlen)
{
    if (check_player(src, player, false, err, errlen))
        return NULL;
    sky_state_t *st = state_alloc(src->api);
    if (!st) {
        put_err(err, errlen, "out of memory%s", "");
        return NULL;
    }
    st->opt = src->opt;
    sky_options_own(&st->opt);
    st->no_record = "a determinized state has no game record";
    if (log_copy(st, src, src->log_base + src->count)) {
        put_err(err, errlen, "out of memory%s", "");
        sky_state_free(st);
        return NULL;
    }
    src->api->copy(st->state, src->state);
    if (src->api->determinize) {
        pcg32_t rng;
        pcg32_seed(&rng, seed, 0x5eed);
        src->api->determinize(st->state, player, &rng);
    }
    src->api->copy(st->initial, st->state);
    return st;
}

/* A record's replay into a state's log: the plies of its players' moves, from before the
   state's history start (a random set-up's placements are the initial position). */
typedef struct record_log {
    sky_state_t *st;
    int random_setup; /* the record's first moves that are not plies (record_position_each) */
    int failed;       /* out of memory */
} record_log_t;

static void log_record_move(void *ctx, int index, const void *before, move_t m)
{
    record_log_t *l = ctx;
    if (index < l->random_setup || l->failed)
        return;
    if (log_put(l->st, before, m))
        l->failed = 1;
    else
        l->st->log_base++;
}

sky_state_t *sky_state_from_record(const char *record, int ply, char *err, int errlen)
{
    json_error_t je;
    json_t *rec = record ? json_loads(record, JSON_REJECT_DUPLICATES, &je) : NULL;
    if (!rec)
        for (char *c = je.text; *c; c++) /* it may quote the text: one line stays one */
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
    if (!json_is_object(rec)) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "not a game record: %s",
                     !record ? "no text"
                     : rec   ? "not a JSON object"
                             : je.text);
        json_decref(rec);
        return NULL;
    }
    const char *game = json_string_value(json_object_get(rec, "game"));
    const json_t *seed = json_object_get(rec, "seed");
    const game_api_t *api = sky_game(game ? game : "", err, errlen);
    sky_state_t *st = api ? state_alloc(api) : NULL;
    if (api && !st)
        put_err(err, errlen, "out of memory%s", "");
    char e[GAME_ERR_MAX];
    int rc = -1;
    if (st && ply < -1) {
        snprintf(e, sizeof e, "ply %d: a ply is a move count (0 or more), or -1 for all", ply);
        put_err(err, errlen, "%s", e);
    } else if (st) {
        st->no_record = "a state taken from a record has no game record of its own";
        record_log_t l = {st, 0, 0};
        rc = record_position_each(api, rec, ply, st->state, log_record_move, &l, &l.random_setup, e,
                                  sizeof e); /* core/record.h */
        if (rc < 0)
            put_err(err, errlen, "%s", e);
        else if (l.failed) {
            put_err(err, errlen, "out of memory%s", "");
            rc = -1;
        }
    }
    if (rc >= 0) {
        rc = sky_options_parse(api, api->player_count(st->state),
                               json_is_integer(seed) ? (uint64_t)json_integer_value(seed) : 0, NULL,
                               &st->opt, err, errlen);
        sky_options_own(&st->opt);
        api->copy(st->initial, st->state);
    }
    json_decref(rec);
    if (rc < 0) {
        sky_state_free(st);
        return NULL;
    }
    return st;
}

char *sky_state_show(const sky_state_t *st, int player, int ascii, char *err, int errlen)
{
    if (!st->api->diagram) {
        put_err(err, errlen, "%s has no diagram", st->api->name);
        return NULL;
    }
    if (check_player(st, player, true, err, errlen))
        return NULL;
    char *buf = malloc(GAME_DIAGRAM_MAX);
    if (!buf) {
        put_err(err, errlen, "out of memory%s", "");
        return NULL;
    }
    st->api->diagram(st->state, player, ascii ? GAME_TEXT_ASCII : 0, buf, GAME_DIAGRAM_MAX);
    return buf;
}

char *sky_state_record(const sky_state_t *st, char *err, int errlen)
{
    if (st->no_record) {
        put_err(err, errlen, "%s", st->no_record);
        return NULL;
    }
    json_t *rec = record_new(st->api, st->initial, &st->opt.opt, st->moves, st->count, NULL, NULL);
    char *text = rec ? json_dumps(rec, JSON_COMPACT) : NULL;
    json_decref(rec);
    if (!text)
        put_err(err, errlen, "cannot make the game record%s", "");
    return text;
}

int sky_state_playouts(const sky_state_t *st, uint64_t seed, int n, double *out, char *err,
                       int errlen)
{
    const game_api_t *api = st->api;
    int players = api->player_count(st->state);
    if (n < 1) {
        put_err(err, errlen, "playouts need n >= 1%s", "");
        return -1;
    }
    void *copy = malloc(api->state_size);
    if (!copy) {
        put_err(err, errlen, "out of memory%s", "");
        return -1;
    }
    pcg32_t rng;
    pcg32_seed(&rng, seed, 0x9a7);
    double sum[GAME_MAX_PLAYERS] = {0}, res[GAME_MAX_PLAYERS];
    for (int k = 0; k < n; k++) {
        api->copy(copy, st->state);
        api->playout(copy, &rng);
        api->result(copy, res);
        for (int p = 0; p < players; p++)
            sum[p] += res[p];
    }
    free(copy);
    for (int p = 0; p < players; p++)
        out[p] = sum[p] / n;
    return players;
}
