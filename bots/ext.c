/*
 * ext: a bot in another program, spoken to by the Skyline Bot Protocol (docs/PROTOCOL.md).
 * One process per bot instance, kept from game to game and replaced after a forfeit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bots/kinds.h"
#include "bots/proc.h"

/* Default per-move allowance sent with go, in milliseconds. */
#define EXT_TIME_DEFAULT 10000L
/* Grace after the allowance before a missing answer forfeits, in seconds. */
#define EXT_GRACE 1.0
/* Time a bot has to answer sbp 1, and to take in a message, in seconds. */
#define EXT_HANDSHAKE 10.0

typedef struct ext_bot {
    char cmd[BOT_SPEC_TEXT_MAX]; /* the program */
    long time_ms;                /* allowance sent with go; 0: no limit, no timeout */
    proc_t proc;                 /* the running program (pid 0: none) */
    bool in_game;                /* newgame was sent for the game under way */
    int seat;                    /* its seat in that game */
    int players;                 /* the player count of that game */
} ext_bot_t;

static int ext_init(bot_t *b, const bot_spec_t *spec, char *err, size_t errlen)
{
    ext_bot_t *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    e->time_ms = EXT_TIME_DEFAULT;
    e->proc.in_fd = e->proc.out_fd = e->proc.slot = -1;
    for (int k = 0; k < spec->key_count; k++) {
        const char *key = spec->keys[k], *v = spec->values[k];
        if (!strcmp(key, "cmd")) {
            snprintf(e->cmd, sizeof e->cmd, "%s", v);
        } else if (!strcmp(key, "name")) {
            /* A label for tables: part of the spec, nothing to read. */
        } else if (!strcmp(key, "time")) {
            if (bot_spec_int(key, v, 0, 86400000L, &e->time_ms, err, errlen))
                goto fail;
        } else {
            snprintf(err, errlen, "unknown key '%s' (ext keys: cmd, name, time)", key);
            goto fail;
        }
    }
    struct stat st;
    if (!e->cmd[0]) {
        snprintf(err, errlen, "ext needs cmd=PATH, the bot's program");
        goto fail;
    }
    if (stat(e->cmd, &st) || !S_ISREG(st.st_mode) || access(e->cmd, X_OK)) {
        snprintf(err, errlen, "cmd '%s' is not an executable file", e->cmd);
        goto fail;
    }
    b->impl = e;
    return 0;
fail:
    free(e);
    return -1;
}

/* A fault from a failed read or write: the program ended, closed a pipe or was slow. */
static void ext_fault_io(bot_t *b, int rc, const char *waiting)
{
    ext_bot_t *e = b->impl;
    if (rc == PROC_TIMEOUT) {
        bot_fault(b, "timeout", "%s", waiting);
    } else if (rc == PROC_TOO_LONG) {
        bot_fault(b, "garbage", "a line over %d bytes", PROC_LINE_MAX);
    } else {
        char detail[BOT_FAULT_DETAIL_MAX];
        const char *why = proc_why_closed(&e->proc, detail, sizeof detail);
        bot_fault(b, why, "%s", detail);
    }
}

/* Sends a message; a failure faults the bot. */
static bool ext_send(bot_t *b, const char *msg)
{
    ext_bot_t *e = b->impl;
    if (b->fault[0])
        return false;
    int rc = proc_write(&e->proc, msg, proc_now() + EXT_HANDSHAKE);
    if (rc != PROC_OK)
        ext_fault_io(b, rc, "it does not read its input");
    return rc == PROC_OK;
}

/* Starts the program and reads its answer to sbp 1, unless it runs already. */
static bool ext_ensure_started(bot_t *b)
{
    ext_bot_t *e = b->impl;
    if (e->proc.pid > 0)
        return true;
    char err[GAME_ERR_MAX];
    if (proc_start(&e->proc, e->cmd, err, sizeof err)) {
        bot_fault(b, "exit", "%s", err);
        return false;
    }
    if (!ext_send(b, "sbp 1\n"))
        return false;
    double deadline = proc_now() + EXT_HANDSHAKE;
    for (;;) {
        const char *line;
        int rc = proc_read_line(&e->proc, deadline, &line);
        if (rc != PROC_OK) {
            ext_fault_io(b, rc, "no sbpok within 10 s of sbp 1");
            return false;
        }
        if (!strcmp(line, "sbpok"))
            return true;
        /* id lines, and anything else before sbpok, are not the harness's concern */
    }
}

/* Sends newgame for seat, with the public options given. */
static void ext_newgame(bot_t *b, const void *state, const game_options_t *opt, int seat)
{
    ext_bot_t *e = b->impl;
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "newgame %s %d %d", b->api->name, b->api->player_count(state),
                     seat);
    /* The game's own options as given (e.g. board=duo), and the first player if set. */
    for (int i = 0; opt && i < opt->option_count; i++)
        n += snprintf(msg + n, sizeof msg - (size_t)n, " %s", opt->option[i]);
    if (opt && opt->first_player >= 0)
        n += snprintf(msg + n, sizeof msg - (size_t)n, " first_player=%d", opt->first_player);
    /* Values with spaces (a board file path) cannot travel in one token: cut there. */
    for (char *c = msg; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = '_';
    if (n >= (int)sizeof msg - 1)
        n = (int)sizeof msg - 2;
    msg[n] = '\n';
    msg[n + 1] = 0;
    e->seat = seat;
    e->players = b->api->player_count(state);
    e->in_game = ext_send(b, msg);
}

static void ext_begin(bot_t *b, const void *initial, const game_options_t *opt, int seat)
{
    if (ext_ensure_started(b))
        ext_newgame(b, initial, opt, seat);
}

static void ext_observe(bot_t *b, const void *state, move_t m)
{
    ext_bot_t *e = b->impl;
    if (!e->in_game || e->proc.pid <= 0)
        return;
    char text[GAME_MOVE_TEXT_MAX], msg[GAME_MOVE_TEXT_MAX + 32];
    b->api->move_to_text(state, m, text);
    snprintf(msg, sizeof msg, "played %d %s\n", b->api->to_move(state), text);
    ext_send(b, msg);
}

static move_t ext_choose(bot_t *b, const void *state)
{
    ext_bot_t *e = b->impl;
    move_t moves[GAME_MAX_MOVES];
    int count = b->api->gen_moves(state, moves);
    /* Asked outside a game (skyline quality): a game of its own for this position. */
    if (!e->in_game && ext_ensure_started(b))
        ext_newgame(b, state, NULL, b->api->to_move(state));
    if (b->fault[0])
        return moves[0];
    /* The position as this seat sees it (docs/NOTATION.md), when the game has a notation. */
    if (b->api->position_write) {
        static _Thread_local char pos[GAME_POSITION_MAX + 16];
        memcpy(pos, "position ", 9);
        b->api->position_write(state, b->api->to_move(state), pos + 9, GAME_POSITION_MAX);
        strcat(pos, "\n");
        if (!ext_send(b, pos))
            return moves[0];
    }
    static _Thread_local char texts[GAME_MAX_MOVES][GAME_MOVE_TEXT_MAX];
    size_t len = 32;
    for (int i = 0; i < count; i++) {
        b->api->move_to_text(state, moves[i], texts[i]);
        len += strlen(texts[i]) + 1;
    }
    char *msg = malloc(len);
    if (!msg) {
        bot_fault(b, "exit", "out of memory");
        return moves[0];
    }
    size_t n = (size_t)snprintf(msg, len, "go %ld", e->time_ms);
    for (int i = 0; i < count; i++)
        n += (size_t)snprintf(msg + n, len - n, " %s", texts[i]);
    snprintf(msg + n, len - n, "\n");
    bool sent = ext_send(b, msg);
    free(msg);
    if (!sent)
        return moves[0];
    double deadline = e->time_ms ? proc_now() + (double)e->time_ms / 1000.0 + EXT_GRACE : -1;
    for (;;) {
        const char *line;
        int rc = proc_read_line(&e->proc, deadline, &line);
        if (rc != PROC_OK) {
            char waiting[64];
            snprintf(waiting, sizeof waiting, "no move within %ld ms of go", e->time_ms + 1000);
            ext_fault_io(b, rc, waiting);
            return moves[0];
        }
        if (!strncmp(line, "info", 4) && (line[4] == ' ' || !line[4]))
            continue;
        if (strncmp(line, "move ", 5)) {
            bot_fault(b, "garbage", "answered '%.80s' to go", line);
            return moves[0];
        }
        for (int i = 0; i < count; i++)
            if (!strcmp(line + 5, texts[i]))
                return moves[i];
        bot_fault(b, "illegal", "answered '%.80s', not a listed move", line);
        return moves[0];
    }
}

static void ext_end(bot_t *b, const double *result)
{
    ext_bot_t *e = b->impl;
    if (b->fault[0]) {
        /* A fresh program for the next game; one that timed out is not waited for. */
        proc_stop(&e->proc, strcmp(b->fault, "timeout") != 0);
    } else if (e->in_game && e->proc.pid > 0) {
        char msg[32 + 16 * GAME_MAX_PLAYERS];
        int n = snprintf(msg, sizeof msg, "gameover");
        for (int s = 0; s < e->players; s++)
            n += snprintf(msg + n, sizeof msg - (size_t)n, " %g", result[s]);
        snprintf(msg + n, sizeof msg - (size_t)n, "\n");
        ext_send(b, msg);
        /* A program gone after the game is a fault of no game: a fresh one next time. */
        if (b->fault[0])
            proc_stop(&e->proc, false);
    }
    e->in_game = false;
}

static void ext_destroy(bot_t *b)
{
    ext_bot_t *e = b->impl;
    proc_stop(&e->proc, true);
    free(e);
}

const bot_kind_t bot_kind_ext = {
    .name = "ext",
    .help = "ext:cmd=PATH[,name=LABEL][,time=MS]: a program speaking the Skyline Bot Protocol",
    .init = ext_init,
    .choose = ext_choose,
    .observe = ext_observe,
    .begin = ext_begin,
    .end = ext_end,
    .destroy = ext_destroy,
};
