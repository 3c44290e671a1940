/* The bot side of the Skyline Bot Protocol for a built-in bot (sbp_engine.h). */
#include "bots/sbp_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "bots/heuristic.h"

/* Words of a message at most: go's moves and a few more. */
#define SBP_WORDS (GAME_MAX_MOVES + 8)
/* Longest game option "key=value" newgame may give, after decoding (a board file's path). */
#define SBP_OPTION_MAX 4352

struct sbp_engine {
    const char *spec;                             /* the bot's spec, or NULL: the default */
    uint64_t seed;                                /* seed of the session */
    long games;                                   /* newgame messages so far */
    const game_api_t *api;                        /* the game under way, or NULL */
    game_options_t opt;                           /* its public options */
    char option[GAME_OPTION_MAX][SBP_OPTION_MAX]; /* storage of opt.option */
    int seat;                                     /* this bot's seat */
    bot_t *bot;                                   /* the bot, made for api */
    char *position;                               /* the last position text, or NULL */
    sbp_engine_out_fn say, warn;                  /* answers and warnings */
    void *ctx;                                    /* their context */
    char *w[SBP_WORDS];                           /* the words of the current message */
};

const char *sbp_engine_default_spec(const game_api_t *api)
{
    return heuristic_for(api) ? "heuristic" : "mcts";
}

sbp_engine_t *sbp_engine_new(const char *spec, uint64_t seed, sbp_engine_out_fn say,
                             sbp_engine_out_fn warn, void *ctx)
{
    sbp_engine_t *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->spec = spec;
    e->seed = seed;
    e->say = say;
    e->warn = warn;
    e->ctx = ctx;
    return e;
}

void sbp_engine_free(sbp_engine_t *e)
{
    if (!e)
        return;
    free(e->position);
    bot_free(e->bot);
    free(e);
}

/* An answer or a warning from a format with one string argument (of any length: go's
   first word is answered whole). */
static void out(sbp_engine_out_fn fn, void *ctx, const char *fmt, const char *arg)
{
    size_t len = strlen(fmt) + strlen(arg) + 1;
    char *line = malloc(len);
    if (!line)
        abort();
    snprintf(line, len, fmt, arg);
    fn(ctx, line);
    free(line);
}

/* A hex digit's value, or -1. */
static int engine_hex(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                  : -1;
}

/* Decodes newgame's option token ("key=value", the value's bytes %XX-escaped as
   docs/PROTOCOL.md says) into out[len]: 0, or -1 with err. */
static int engine_option_decode(const char *token, char *out, size_t len, char *err, size_t errlen)
{
    size_t o = 0;
    for (const char *c = token; *c; c++) {
        int v = (unsigned char)*c;
        if (*c == '%') {
            int hi = engine_hex(c[1]), lo = hi < 0 ? -1 : engine_hex(c[2]);
            if (lo < 0 || (hi | lo) == 0) {
                snprintf(err, errlen, "bad %%-escape in option '%.60s'", token);
                return -1;
            }
            v = hi * 16 + lo;
            c += 2;
        }
        if (o + 1 >= len) {
            snprintf(err, errlen, "option '%.60s...' longer than %zu bytes", token, len - 1);
            return -1;
        }
        out[o++] = (char)v;
    }
    out[o] = 0;
    return 0;
}

static int engine_newgame(sbp_engine_t *e, char **w, int n, char *err, size_t errlen)
{
    e->api = n >= 2 ? game_find(w[1]) : NULL;
    if (!e->api) {
        out(e->warn, e->ctx, "newgame: unknown game '%s'", n >= 2 ? w[1] : "");
        return 1;
    }
    game_options_default(&e->opt);
    e->opt.players = n >= 3 ? atoi(w[2]) : 2;
    e->seat = n >= 4 ? atoi(w[3]) : 0;
    for (int i = 4; i < n; i++) {
        char why[GAME_ERR_MAX];
        if (!strncmp(w[i], "first_player=", 13)) {
            e->opt.first_player = atoi(w[i] + 13);
        } else if (strchr(w[i], '=') && e->opt.option_count < GAME_OPTION_MAX) {
            char *keep = e->option[e->opt.option_count];
            if (engine_option_decode(w[i], keep, sizeof e->option[0], why, sizeof why) ||
                game_options_add(&e->opt, keep, why, sizeof why))
                out(e->warn, e->ctx, "newgame: %s", why);
        }
    }
    if (e->bot && e->bot->api != e->api) {
        bot_free(e->bot);
        e->bot = NULL;
    }
    const char *spec = e->spec ? e->spec : sbp_engine_default_spec(e->api);
    if (!e->bot && !(e->bot = bot_new(e->api, spec, e->seed, err, errlen))) {
        e->api = NULL;
        return -1;
    }
    bot_reset(e->bot, e->seed + (uint64_t)e->games++);
    free(e->position);
    e->position = NULL;
    return 1;
}

/* True if go's list (w[2..n)) is exactly the legal moves of state, each once, in any
   order. */
static bool engine_same_moves(const game_api_t *api, const void *state, char **w, int n)
{
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    char *listed = calloc(GAME_MAX_MOVES, 1);
    int count = moves && listed ? api->gen_moves(state, moves) : -1;
    bool same = count == n - 2;
    for (int i = 2; i < n && same; i++) {
        move_t m;
        char err[GAME_ERR_MAX];
        same = !api->move_from_text(state, w[i], &m, err, sizeof err);
        int k = 0;
        while (same && k < count && moves[k] != m)
            k++;
        same = same && k < count && !listed[k];
        if (same)
            listed[k] = 1;
    }
    free(listed);
    free(moves);
    return same;
}

/* Answers go: 1, or -1 with err filled when the bot faults (its move is not its own: the
   session forfeits in turn, as its controller sees). */
static int engine_go(sbp_engine_t *e, char **w, int n, char *ferr, size_t ferrlen)
{
    if (n < 3) {
        e->say(e->ctx, "info error: go without moves");
        return 1;
    }
    const char *fallback = w[2];
    if (!e->api || !e->bot || !e->position) {
        e->say(e->ctx, "info error: no newgame and position before go: playing the first move");
        out(e->say, e->ctx, "move %s", fallback);
        return 1;
    }
    char err[GAME_ERR_MAX];
    const game_api_t *api = NULL;
    int view = -1;
    void *state = game_position_read(e->position, &e->opt, e->seed + 0x9e37u * (uint64_t)e->games,
                                     &api, &view, err, sizeof err);
    if (!state || api != e->api || (view != e->seat && view != -1) || api->is_terminal(state) ||
        api->to_move(state) != e->seat || !engine_same_moves(api, state, w, n)) {
        const char *why = !state                          ? err
                          : api != e->api                 ? "the position is of another game"
                          : view != e->seat && view != -1 ? "the position is not seen by this seat"
                          : api->is_terminal(state) || api->to_move(state) != e->seat
                              ? "the position is not this seat's turn"
                              : "go's moves are not the position's legal moves";
        out(e->warn, e->ctx, "%s; playing go's first move", why);
        out(e->say, e->ctx, "info error: %s", why);
        out(e->say, e->ctx, "move %s", fallback);
        free(state);
        return 1;
    }
    /* go's allowance (0: none) bounds the move: mcts keeps its search within 90 % of it. */
    char *end;
    long ms = strtol(w[1], &end, 10);
    if (*end || ms < 0)
        ms = 0;
    bot_clock(e->bot, -1, 0, ms);
    move_t m = bot_choose(e->bot, state);
    if (bot_faulted(e->bot, ferr, ferrlen)) {
        out(e->say, e->ctx, "info error: %s", ferr);
        free(state);
        return -1;
    }
    char text[GAME_MOVE_TEXT_MAX];
    api->move_to_text(state, m, text);
    out(e->say, e->ctx, "move %s", text);
    free(state);
    return 1;
}

int sbp_engine_line(sbp_engine_t *e, char *line, char *err, size_t errlen)
{
    if (!strncmp(line, "position ", 9)) {
        free(e->position);
        e->position = strdup(line + 9);
        size_t len = e->position ? strlen(e->position) : 0;
        if (len && e->position[len - 1] == '\r')
            e->position[len - 1] = 0;
        return 1;
    }
    char **w = e->w, *save = NULL;
    int n = 0;
    for (char *tok = strtok_r(line, " \r", &save); tok && n < SBP_WORDS;
         tok = strtok_r(NULL, " \r", &save))
        w[n++] = tok;
    if (!n)
        return 1;
    if (!strcmp(w[0], "sbp")) {
        out(e->say, e->ctx, "id name skyline %s",
            e->spec ? e->spec : "heuristic (mcts where a game has none)");
        e->say(e->ctx, "id author the Skyline project");
        e->say(e->ctx, "sbpok");
    } else if (!strcmp(w[0], "newgame")) {
        return engine_newgame(e, w, n, err, errlen);
    } else if (!strcmp(w[0], "go")) {
        return engine_go(e, w, n, err, errlen);
    } else if (!strcmp(w[0], "quit")) {
        return 0;
    }
    /* played, gameover and unknown messages: nothing to do (the position says all) */
    return 1;
}
