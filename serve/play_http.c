/* The requests of the games of skyline serve (serve/play.h): set-up, views, moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/input.h"
#include "search/mcts.h"
#include "serve/play.h"
#include "viewer/picture.h"

/* Limits on what a bot spec from a request may ask for. */
#define SPEC_THREADS_MAX 16
#define SPEC_MEM_MAX     2048
#define SPEC_TIME_MAX    600000
#define SPEC_ITERS_MAX   10000000

int serve_spec_allowed(const char *spec, char *err, size_t errlen)
{
    bot_spec_t s;
    if (bot_spec_parse(spec, &s, err, errlen))
        return -1;
    if (!strcmp(s.name, "ext") && !serve_cfg.allow_ext) {
        snprintf(err, errlen,
                 "ext: bots run programs; start the server with --allow-ext to "
                 "allow them");
        return -1;
    }
    static const struct {
        const char *key;
        long max;
    } caps[] = {{"threads", SPEC_THREADS_MAX},
                {"mem", SPEC_MEM_MAX},
                {"time", SPEC_TIME_MAX},
                {"iters", SPEC_ITERS_MAX}};
    /* An ext: bot (allowed above) names its program by its path. */
    for (int k = 0; k < s.key_count && strcmp(s.name, "ext"); k++)
        if (strchr(s.values[k], '/')) {
            snprintf(err, errlen, "bot '%s': %s= may name only a file of the data folder (no '/')",
                     s.name, s.keys[k]);
            return -1;
        }
    for (int k = 0; k < s.key_count; k++)
        for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++)
            if (!strcmp(s.keys[k], caps[c].key) && atol(s.values[k]) > caps[c].max) {
                snprintf(err, errlen, "bot '%s': %s is at most %ld here", s.name, caps[c].key,
                         caps[c].max);
                return -1;
            }
    return 0;
}

/* A seat's secret from the system's random source (time as a last resort). */
static void make_token(char *out)
{
    unsigned char raw[SERVE_TOKEN_LEN / 2];
    FILE *f = fopen("/dev/urandom", "rb");
    size_t n = f ? fread(raw, 1, sizeof raw, f) : 0;
    if (f)
        fclose(f);
    if (n != sizeof raw) {
        pcg32_t rng;
        pcg32_seed(&rng, (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)out, 99);
        for (size_t i = 0; i < sizeof raw; i++)
            raw[i] = (unsigned char)pcg32_next(&rng);
    }
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
}

/* Reads the game options "K=V K=V" of text into g: 0, or -1 with err. */
static int read_options(serve_game_t *g, const char *text, char *err, size_t errlen)
{
    char buf[GAME_OPTION_MAX * 128];
    snprintf(buf, sizeof buf, "%s", text);
    int k = 0;
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (k == GAME_OPTION_MAX) {
            snprintf(err, errlen, "options: at most %d", GAME_OPTION_MAX);
            return -1;
        }
        if (strchr(w, '/')) {
            snprintf(err, errlen,
                     "options: %.60s may name only a file of the data folder (no "
                     "'/')",
                     w);
            return -1;
        }
        snprintf(g->option_text[k], sizeof g->option_text[k], "%s", w);
        if (game_options_add(&g->opt, g->option_text[k], err, errlen))
            return -1;
        k++;
    }
    return game_options_check(g->api, &g->opt, err, errlen);
}

/* The seats of a new game from the request: 0, or -1 with err. */
static int read_seats(serve_game_t *g, const serve_params_t *p, char *err, size_t errlen)
{
    int humans = 0;
    for (int s = 0; s < GAME_MAX_PLAYERS; s++) {
        char key[8];
        snprintf(key, sizeof key, "seat%d", s);
        const char *spec = serve_param(p, key);
        if (s >= g->players) {
            if (spec) {
                snprintf(err, errlen, "%s given, but the game has %d players (seat0 to seat%d)",
                         key, g->players, g->players - 1);
                return -1;
            }
            continue;
        }
        if (!spec)
            spec = s == 0 ? "human" : "mcts";
        if (strcmp(spec, "human") && serve_spec_allowed(spec, err, errlen))
            return -1;
        g->human[s] = !strcmp(spec, "human");
        humans += g->human[s];
        snprintf(g->spec[s], sizeof g->spec[s], "%s", spec);
        g->bots[s] = serve_seat_new(g, s, spec, err, errlen);
        if (!g->bots[s])
            return -1;
        if (g->human[s])
            make_token(g->token[s]);
    }
    if (g->allow_undo && humans != 1) {
        snprintf(err, errlen, "undo needs exactly one human seat (the game has %d)", humans);
        return -1;
    }
    return 0;
}

/* A new game from the request's parameters, its bots made: NULL with err. */
static serve_game_t *game_from_request(const serve_params_t *p, char *err, size_t errlen)
{
    static const char *const keys[] = {"game",  "players", "seat0", "seat1", "seat2",
                                       "seat3", "seat4",   "seed",  "first", "options",
                                       "undo",  "hint",    NULL};
    if (serve_params_only(p, keys, err, errlen))
        return NULL;
    const char *name = serve_param(p, "game");
    const game_api_t *api = game_find(name ? name : "connect4");
    if (!api) {
        char names[128], shown[INPUT_EXCERPT_MAX];
        snprintf(err, errlen, "game: unknown game '%s' (%s)",
                 input_escape(name, shown, sizeof shown), game_names(names, sizeof names, ", "));
        return NULL;
    }
    serve_game_t *g = calloc(1, sizeof *g);
    if (!g || !(g->state = malloc(api->state_size))) {
        free(g);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->api = api;
    pthread_cond_init(&g->changed, NULL);
    game_options_default(&g->opt);
    long players, seed, first, undo;
    if (serve_param_int(p, "players", api->min_players, api->max_players, api->min_players,
                        &players, err, errlen) ||
        serve_param_int(p, "seed", 0, 1L << 62, (long)(time(NULL) & 0xffffff), &seed, err,
                        errlen) ||
        serve_param_int(p, "first", -1, players - 1, -1, &first, err, errlen) ||
        serve_param_int(p, "undo", 0, 1, 0, &undo, err, errlen))
        goto fail;
    g->players = (int)players;
    g->opt.players = (int)players;
    g->opt.seed = (uint64_t)seed;
    g->opt.first_player = (int)first;
    g->allow_undo = undo;
    const char *hint = serve_param(p, "hint");
    if (hint && hint[0]) {
        if (serve_spec_allowed(hint, err, errlen))
            goto fail;
        bot_t *probe = bot_new(api, hint, 1, err, errlen);
        if (!probe)
            goto fail;
        bot_free(probe);
        snprintf(g->hint, sizeof g->hint, "%s", hint);
    }
    if (read_options(g, serve_param(p, "options") ? serve_param(p, "options") : "", err, errlen) ||
        api->new_game(g->state, &g->opt, err, errlen) || read_seats(g, p, err, errlen))
        goto fail;
    g->waiting = g->thinking = -1;
    return g;
fail:
    serve_game_free(g);
    return NULL;
}

void serve_play_new(const serve_params_t *p, serve_reply_t *r)
{
    char err[SERVE_ERR_MAX];
    serve_game_t *g = game_from_request(p, err, sizeof err);
    if (!g) {
        serve_reply_error(r, 400, err);
        return;
    }
    json_t *seats = json_array();
    for (int s = 0; s < g->players; s++)
        json_array_append_new(seats, json_pack("{s:i,s:s,s:s}", "seat", s, "spec", g->spec[s],
                                               "token", g->human[s] ? g->token[s] : ""));
    int status = 400;
    if (serve_game_add(g, err, sizeof err, &status)) {
        json_decref(seats);
        serve_game_free(g);
        serve_reply_error(r, status, err);
        return;
    }
    serve_reply_json(r, 200, json_pack("{s:I,s:o}", "game", (json_int_t)g->id, "seats", seats));
}

/*
 * The game a request names and the seat it speaks for, serve_lock held: with human seats,
 * seat and its token are required (a human sees only their own seat); need_seat also asks
 * for one in a game of bots. NULL (lock released) with r filled.
 */
static serve_game_t *game_access(const serve_params_t *p, const char *const *keys, bool need_seat,
                                 int *seat, serve_reply_t *r)
{
    char err[SERVE_ERR_MAX];
    long id, s;
    if (serve_params_only(p, keys, err, sizeof err) ||
        serve_param_int(p, "game", 1, 1L << 40, 0, &id, err, sizeof err) ||
        serve_param_int(p, "seat", 0, GAME_MAX_PLAYERS - 1, -1, &s, err, sizeof err)) {
        serve_reply_error(r, 400, err);
        return NULL;
    }
    if (!serve_param(p, "game")) {
        serve_reply_error(r, 400, "missing parameter game");
        return NULL;
    }
    pthread_mutex_lock(&serve_lock);
    serve_game_t *g = serve_game_find(id);
    int humans = 0;
    for (int k = 0; g && k < g->players; k++)
        humans += g->human[k];
    const char *token = serve_param(p, "token");
    const char *why = !g                                                ? "no such game"
                      : s >= (g ? g->players : 0)                       ? "no such seat"
                      : (humans || need_seat) && s < 0                  ? "missing parameter seat"
                      : s >= 0 && !g->human[s] && (humans || need_seat) ? "that seat is a bot"
                      : s >= 0 && g->human[s] && (!token || strcmp(token, g->token[s]))
                          ? "wrong or missing token for that seat"
                          : NULL;
    if (why) {
        pthread_mutex_unlock(&serve_lock);
        serve_reply_error(r, !g ? 404 : strstr(why, "token") ? 403 : 400, why);
        return NULL;
    }
    *seat = (int)s;
    return g;
}

/* The legal moves of a human's turn, each {t: text, g: first step, w: second step}. */
static json_t *legal_moves(const game_api_t *api, const void *state)
{
    move_t moves[GAME_MAX_MOVES];
    int n = api->gen_moves(state, moves);
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX], group[GAME_DESCRIBE_MAX] = "", way[GAME_DESCRIBE_MAX] = "";
        api->move_to_text(state, moves[i], text);
        if (api->move_group) {
            api->move_group(state, moves[i], group, way, sizeof group);
        } else {
            /* "TILE@SQUARE" (Uptown): the tile, then the square; else the move itself. */
            const char *at = strchr(text, '@');
            snprintf(group, sizeof group, "%.*s", at ? (int)(at - text) : (int)strlen(text), text);
            snprintf(way, sizeof way, "%s", at ? at + 1 : "");
        }
        json_array_append_new(list, json_pack("{s:s,s:s,s:s}", "t", text, "g", group, "w", way));
    }
    return list;
}

/* The picture of state as observer sees it, as a new string (NULL if out of memory). */
static char *picture(const game_api_t *api, const void *state, int observer)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    game_svg_fn svg_fn = game_svg_for(api);
    int rc = svg_fn ? svg_fn(state, observer, f) : 0;
    fclose(f);
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

void serve_play_view(const serve_params_t *p, serve_reply_t *r)
{
    static const char *const keys[] = {"game", "seat", "token", NULL};
    int seat;
    serve_game_t *g = game_access(p, keys, false, &seat, r);
    if (!g)
        return;
    const game_api_t *api = g->api;
    void *state = malloc(api->state_size);
    if (!state) {
        pthread_mutex_unlock(&serve_lock);
        serve_reply_error(r, 500, "out of memory");
        return;
    }
    api->copy(state, g->state);
    json_t *seats = json_array(), *moves = json_array();
    for (int s = 0; s < g->players; s++)
        json_array_append_new(seats,
                              json_pack("{s:s,s:b}", "spec", g->spec[s], "human", g->human[s]));
    for (int i = 0; i < g->n; i++)
        json_array_append_new(moves, json_pack("{s:s,s:i}", "t", g->texts[i], "p", g->movers[i]));
    bool my_turn = seat >= 0 && g->waiting == seat && !g->has_move;
    json_t *j = json_pack(
        "{s:I,s:s,s:i,s:i,s:o,s:o,s:b,s:i,s:i,s:i,s:s,s:s,s:b,s:b,s:I}", "game", (json_int_t)g->id,
        "name", api->name, "players", g->players, "seat", seat, "seats", seats, "moves", moves,
        "over", g->over, "to_move", g->over ? -1 : api->to_move(state), "waiting", g->waiting,
        "thinking", g->thinking, "outcome", g->outcome, "record", g->record, "undo", g->allow_undo,
        "hint", g->hint[0] != 0, "version", (json_int_t)g->version);
    pthread_mutex_unlock(&serve_lock);
    /* A human's page shows their seat's view; a game of bots shows everything. */
    char *svg = picture(api, state, seat);
    json_object_set_new(j, "svg", json_string(svg ? svg : ""));
    free(svg);
    if (api->position_write) {
        char pos[GAME_POSITION_MAX];
        api->position_write(state, seat, pos, sizeof pos);
        json_object_set_new(j, "position", json_string(pos));
    }
    if (my_turn && !api->is_terminal(state))
        json_object_set_new(j, "legal", legal_moves(api, state));
    free(state);
    serve_reply_json(r, 200, j);
}

static const char *const turn_keys[] = {"game", "seat", "token", "move", NULL};

void serve_play_move(const serve_params_t *p, serve_reply_t *r)
{
    int seat;
    serve_game_t *g = game_access(p, turn_keys, true, &seat, r);
    if (!g)
        return;
    char err[GAME_ERR_MAX];
    const char *text = serve_param(p, "move");
    move_t m;
    int status = 200;
    if (!text) {
        status = 400;
        snprintf(err, sizeof err, "missing parameter move");
    } else if (g->waiting != seat || g->has_move) {
        status = 409;
        snprintf(err, sizeof err, "it is not your turn");
    } else if (g->api->move_from_text(g->state, text, &m, err, sizeof err)) {
        status = 400;
    } else {
        g->move = m;
        g->has_move = true;
        serve_game_bump(g);
    }
    pthread_mutex_unlock(&serve_lock);
    if (status == 200)
        serve_reply_json(r, 200, json_pack("{s:b}", "ok", 1));
    else
        serve_reply_error(r, status, err);
}

void serve_play_undo(const serve_params_t *p, serve_reply_t *r)
{
    int seat;
    serve_game_t *g = game_access(p, turn_keys, true, &seat, r);
    if (!g)
        return;
    int to = -1;
    for (int i = g->n - 1; i >= 0 && to < 0; i--)
        if (g->movers[i] == seat)
            to = i;
    const char *why = !g->allow_undo                      ? "undo is off in this game"
                      : g->waiting != seat || g->has_move ? "it is not your turn"
                      : to < 0                            ? "nothing to undo yet"
                                                          : NULL;
    bool allowed = g->allow_undo;
    if (!why) {
        g->undo_to = to;
        serve_game_bump(g);
    }
    pthread_mutex_unlock(&serve_lock);
    if (why)
        serve_reply_error(r, allowed ? 409 : 403, why);
    else
        serve_reply_json(r, 200, json_pack("{s:b,s:i}", "ok", 1, "to", to));
}

void serve_play_quit(const serve_params_t *p, serve_reply_t *r)
{
    int seat;
    serve_game_t *g = game_access(p, turn_keys, false, &seat, r);
    if (!g)
        return;
    g->quit = true;
    serve_game_bump(g);
    pthread_mutex_unlock(&serve_lock);
    serve_reply_json(r, 200, json_pack("{s:b}", "ok", 1));
}

/* The candidates of b's last search as a JSON list, most visited first (at most top). */
json_t *serve_candidates_of(const mcts_stats_t *st, const game_api_t *api, const void *state,
                            int top)
{
    json_t *list = json_array();
    for (int i = 0; st && i < st->root_move_count && i < top; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        api->move_to_text(state, st->root_moves[i].move, text);
        json_array_append_new(list, json_pack("{s:s,s:I,s:f}", "move", text, "visits",
                                              (json_int_t)st->root_moves[i].visits, "mean",
                                              st->root_moves[i].mean));
    }
    return list;
}

json_t *serve_candidates(const bot_t *b, const game_api_t *api, const void *state, int top)
{
    return serve_candidates_of(bot_last_search(b), api, state, top);
}

void serve_play_hint(const serve_params_t *p, serve_reply_t *r)
{
    int seat;
    serve_game_t *g = game_access(p, turn_keys, true, &seat, r);
    if (!g)
        return;
    const char *why = !g->hint[0]                         ? "hints are off in this game"
                      : g->waiting != seat || g->has_move ? "it is not your turn"
                                                          : NULL;
    void *state = why ? NULL : malloc(g->api->state_size);
    if (state)
        g->api->copy(state, g->state);
    char spec[BOT_SPEC_TEXT_MAX];
    snprintf(spec, sizeof spec, "%s", g->hint);
    const game_api_t *api = g->api;
    uint64_t seed = g->opt.seed + (uint64_t)g->n;
    pthread_mutex_unlock(&serve_lock);
    if (why || !state) {
        serve_reply_error(r, why ? 409 : 500, why ? why : "out of memory");
        return;
    }
    if (!serve_search_take()) {
        free(state);
        char msg[96];
        snprintf(msg, sizeof msg, "too many searches under way (%d); try again soon",
                 serve_cfg.max_searches);
        serve_reply_error(r, 503, msg);
        return;
    }
    char err[GAME_ERR_MAX];
    bot_t *b = bot_new(api, spec, seed, err, sizeof err);
    if (!b) {
        serve_search_give();
        free(state);
        serve_reply_error(r, 500, err);
        return;
    }
    move_t m = bot_choose(b, state);
    char text[GAME_MOVE_TEXT_MAX], what[GAME_DESCRIBE_MAX] = "";
    api->move_to_text(state, m, text);
    if (api->move_describe)
        api->move_describe(state, m, what, sizeof what);
    json_t *j = json_pack("{s:s,s:s,s:s,s:o}", "bot", spec, "move", text, "describe", what,
                          "candidates", serve_candidates(b, api, state, 8));
    bot_free(b);
    serve_search_give();
    free(state);
    serve_reply_json(r, 200, j);
}

void serve_games_info(serve_reply_t *r)
{
    json_t *list = json_array(), *kinds = json_array();
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        json_t *opts = json_array();
        for (int k = 0; k < api->option_count; k++)
            json_array_append_new(opts,
                                  json_pack("{s:s,s:s,s:s}", "key", api->options[k].key, "value",
                                            api->options[k].value, "help", api->options[k].help));
        json_array_append_new(list, json_pack("{s:s,s:i,s:i,s:o}", "name", api->name, "min",
                                              api->min_players, "max", api->max_players, "options",
                                              opts));
    }
    for (int i = 0; bot_kinds[i]; i++)
        if (strcmp(bot_kinds[i]->name, "human") &&
            (strcmp(bot_kinds[i]->name, "ext") || serve_cfg.allow_ext))
            json_array_append_new(kinds, json_pack("{s:s,s:s}", "name", bot_kinds[i]->name, "help",
                                                   bot_kinds[i]->help));
    serve_reply_json(r, 200,
                     json_pack("{s:o,s:o,s:i,s:i}", "games", list, "bots", kinds, "max_games",
                               serve_cfg.max_games, "max_searches", serve_cfg.max_searches));
}
