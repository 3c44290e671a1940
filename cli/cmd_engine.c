/*
 * skyline engine: a built-in bot behind the Skyline Bot Protocol (docs/PROTOCOL.md), so that
 * other harnesses (and skyline's own ext: bots) can play it. The bot sees only what its
 * seat sees: each go rebuilds the state from the position text with a determinization of
 * what it hides, and the legal moves of that state are checked against go's list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "cli/cli.h"
#include "core/lines.h"

static const char engine_help[] =
    "usage: skyline engine --bot SPEC [--seed S]\n"
    "Speaks the Skyline Bot Protocol (docs/PROTOCOL.md) on standard input and output for\n"
    "a built-in bot: plays from each position text alone (hidden parts determinized).\n"
    "Warnings (a move list that does not match the position) go to standard error.\n"
    "  --bot SPEC              the bot (default heuristic)\n"
    "  --seed S                seed of its random choices (game i of the session: S+i)\n";

/* Longest game option "key=value" newgame may give, after decoding (a board file's path). */
#define ENGINE_OPTION_MAX 4352

/* One protocol session. */
typedef struct engine {
    const char *spec;                                /* the bot's spec */
    uint64_t seed;                                   /* seed of the session */
    long games;                                      /* newgame messages so far */
    const game_api_t *api;                           /* the game under way, or NULL */
    game_options_t opt;                              /* its public options */
    char option[GAME_OPTION_MAX][ENGINE_OPTION_MAX]; /* storage of opt.option */
    int seat;                                        /* this bot's seat */
    bot_t *bot;                                      /* the bot, made for api */
    char *position;                                  /* the last position text, or NULL */
} engine_t;

static void engine_say(const char *fmt, const char *arg)
{
    printf(fmt, arg);
    fflush(stdout);
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

static void engine_newgame(engine_t *e, char **w, int n)
{
    e->api = n >= 2 ? game_find(w[1]) : NULL;
    if (!e->api) {
        fprintf(stderr, "skyline engine: newgame: unknown game '%s'\n", n >= 2 ? w[1] : "");
        return;
    }
    game_options_default(&e->opt);
    e->opt.players = n >= 3 ? atoi(w[2]) : 2;
    e->seat = n >= 4 ? atoi(w[3]) : 0;
    for (int i = 4; i < n; i++) {
        char err[GAME_ERR_MAX];
        if (!strncmp(w[i], "first_player=", 13)) {
            e->opt.first_player = atoi(w[i] + 13);
        } else if (strchr(w[i], '=') && e->opt.option_count < GAME_OPTION_MAX) {
            char *keep = e->option[e->opt.option_count];
            if (engine_option_decode(w[i], keep, sizeof e->option[0], err, sizeof err) ||
                game_options_add(&e->opt, keep, err, sizeof err))
                fprintf(stderr, "skyline engine: newgame: %s\n", err);
        }
    }
    if (e->bot && e->bot->api != e->api) {
        bot_free(e->bot);
        e->bot = NULL;
    }
    char err[GAME_ERR_MAX];
    if (!e->bot && !(e->bot = bot_new(e->api, e->spec, e->seed, err, sizeof err))) {
        fprintf(stderr, "skyline engine: %s\n", err);
        exit(2);
    }
    bot_reset(e->bot, e->seed + (uint64_t)e->games++);
    free(e->position);
    e->position = NULL;
}

/* True if go's list (w[2..n)) is exactly the legal moves of state, in any order. */
static bool engine_same_moves(const game_api_t *api, const void *state, char **w, int n)
{
    move_t moves[GAME_MAX_MOVES];
    int count = api->gen_moves(state, moves);
    if (count != n - 2)
        return false;
    for (int i = 2; i < n; i++) {
        move_t m;
        char err[GAME_ERR_MAX];
        if (api->move_from_text(state, w[i], &m, err, sizeof err))
            return false;
    }
    return true;
}

static void engine_go(engine_t *e, char **w, int n)
{
    if (n < 3) {
        engine_say("info error: go without moves%s\n", "");
        return;
    }
    const char *fallback = w[2];
    if (!e->api || !e->bot || !e->position) {
        engine_say("info error: no newgame and position before go: playing the first move%s\n", "");
        engine_say("move %s\n", fallback);
        return;
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
        fprintf(stderr, "skyline engine: %s; playing go's first move\n", why);
        engine_say("info error: %s\n", why);
        engine_say("move %s\n", fallback);
        free(state);
        return;
    }
    move_t m = bot_choose(e->bot, state);
    char text[GAME_MOVE_TEXT_MAX];
    api->move_to_text(state, m, text);
    engine_say("move %s\n", text);
    free(state);
}

int cmd_engine(int argc, char **argv)
{
    engine_t e = {.spec = "heuristic"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(engine_help, stdout);
            return 0;
        } else if (!strcmp(a, "--bot")) {
            e.spec = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--seed")) {
            e.seed = cli_seed(a, cli_value(argc, argv, &i));
        } else {
            cli_die("engine: unknown option '%s' (see skyline engine --help)", a);
        }
    }
    /* The spec is checked now, against every game, so a bad one fails before the protocol. */
    char err[GAME_ERR_MAX];
    bool made = false;
    for (int g = 0; g < game_count() && !made; g++) {
        bot_t *probe = bot_new(game_at(g), e.spec, 0, err, sizeof err);
        made = probe != NULL;
        bot_free(probe);
    }
    if (!made)
        cli_die("%s", err);
    lines_reader_t r;
    lines_init(&r, stdin);
    while (lines_next(&r) > 0) {
        char *w[GAME_MAX_MOVES + 8];
        int n = 0;
        char *line = r.text;
        if (!strncmp(line, "position ", 9)) {
            free(e.position);
            e.position = strdup(line + 9);
            size_t len = strlen(e.position);
            if (len && e.position[len - 1] == '\r')
                e.position[len - 1] = 0;
            continue;
        }
        for (char *tok = strtok(line, " \r"); tok && n < GAME_MAX_MOVES + 8;
             tok = strtok(NULL, " \r"))
            w[n++] = tok;
        if (!n)
            continue;
        if (!strcmp(w[0], "sbp")) {
            engine_say("id name skyline %s\n", e.spec);
            engine_say("id author the Skyline project%s\nsbpok\n", "");
        } else if (!strcmp(w[0], "newgame")) {
            engine_newgame(&e, w, n);
        } else if (!strcmp(w[0], "go")) {
            engine_go(&e, w, n);
        } else if (!strcmp(w[0], "quit")) {
            break;
        }
        /* played, gameover and unknown messages: nothing to do (the position says all) */
    }
    lines_free(&r);
    free(e.position);
    bot_free(e.bot);
    return 0;
}
