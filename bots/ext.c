/*
 * ext: a bot in another program, spoken to by the Skyline Bot Protocol (docs/PROTOCOL.md).
 * One process per bot instance, kept from game to game and replaced after a forfeit.
 */
#include <stdarg.h>
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

/* Text that grows as it is appended to (messages of any length). */
typedef struct ext_text {
    char *s;    /* the text, terminated; NULL before the first append */
    size_t len; /* its length */
    size_t cap; /* bytes allocated */
    bool oom;   /* an append failed: the text is cut */
} ext_text_t;

typedef struct ext_bot {
    char cmd[BOT_SPEC_TEXT_MAX]; /* the program */
    long time_ms;                /* allowance sent with go; 0: no limit, no timeout */
    bool time_given;             /* time= was given (it bounds the harness's allowance) */
    long clock_ms;               /* the harness's allowance for the next go (bot_clock), or -1 */
    long allow;                  /* the allowance of the go under way */
    proc_t proc;                 /* the running program (pid 0: none) */
    bool in_game;                /* newgame was sent for the game under way */
    int seat;                    /* its seat in that game */
    int players;                 /* the player count of that game */
    bool reused;                 /* the process was told gameover of an earlier game */
    bool answered;               /* it answered a go of the game under way */
    ext_text_t log;              /* newgame and played lines of the game under way */
} ext_bot_t;

/* Appends len bytes of text. */
static void ext_text_addn(ext_text_t *t, const char *text, size_t len)
{
    if (t->oom)
        return;
    if (t->len + len + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->len + len + 1)
            cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->oom = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
    memcpy(t->s + t->len, text, len);
    t->len += len;
    t->s[t->len] = 0;
}

/* Appends formatted text. */
__attribute__((format(printf, 2, 3))) static void ext_text_addf(ext_text_t *t, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->oom = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        ext_text_addn(t, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        t->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    ext_text_addn(t, big, (size_t)n);
    free(big);
}

static void ext_text_clear(ext_text_t *t)
{
    t->len = 0;
    t->oom = false;
    if (t->s)
        t->s[0] = 0;
}

/*
 * Appends a game option "key=value" as one token (docs/PROTOCOL.md, "Option values"): the
 * key as it is, the value with every byte that is not printable ASCII, a space or '%'
 * written %XX (two upper-case hex digits), so a board path with spaces stays one token.
 */
static void ext_text_add_option(ext_text_t *t, const char *option)
{
    static const char hex[] = "0123456789ABCDEF";
    const char *eq = strchr(option, '=');
    size_t key = eq ? (size_t)(eq - option) + 1 : 0;
    ext_text_addn(t, " ", 1);
    ext_text_addn(t, option, key);
    for (const unsigned char *c = (const unsigned char *)option + key; *c; c++) {
        if (*c > ' ' && *c < 0x7f && *c != '%') {
            ext_text_addn(t, (const char *)c, 1);
        } else {
            char esc[3] = {'%', hex[*c >> 4], hex[*c & 15]};
            ext_text_addn(t, esc, 3);
        }
    }
}

static int ext_init(bot_t *b, const bot_spec_t *spec, char *err, size_t errlen)
{
    ext_bot_t *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    e->time_ms = EXT_TIME_DEFAULT;
    e->clock_ms = -1;
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
            e->time_given = true;
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
    } else if (rc == PROC_NUL) {
        bot_fault(b, "garbage", "a line with a NUL byte");
    } else {
        char detail[BOT_FAULT_DETAIL_MAX];
        const char *why = proc_why_closed(&e->proc, detail, sizeof detail);
        bot_fault(b, why, "%s", detail);
    }
}

static bool ext_replace(bot_t *b);

/* True if the process may have left after the last game's gameover (a fault of no game,
   docs/PROTOCOL.md): it played a game to its end and has not answered in this one. */
static bool ext_may_replace(const ext_bot_t *e) { return e->in_game && e->reused && !e->answered; }

/* Sends a message; true if sent. A failure faults the bot, unless the process is gone and
   may be replaced: then a fresh one is told the game so far (logged: msg is part of it). */
static bool ext_send(bot_t *b, const char *msg, bool logged)
{
    ext_bot_t *e = b->impl;
    if (b->fault[0])
        return false;
    int rc = proc_write(&e->proc, msg, proc_now() + EXT_HANDSHAKE);
    if (rc == PROC_OK)
        return true;
    if (rc == PROC_EOF && ext_may_replace(e))
        return ext_replace(b) && (logged || ext_send(b, msg, false));
    ext_fault_io(b, rc, "it does not read its input");
    return false;
}

/* Starts the program and reads its answer to sbp 1, unless it runs already. */
static bool ext_ensure_started(bot_t *b)
{
    ext_bot_t *e = b->impl;
    if (e->proc.pid > 0)
        return true;
    char err[GAME_ERR_MAX];
    e->reused = false;
    if (proc_start(&e->proc, e->cmd, err, sizeof err)) {
        bot_fault(b, "exit", "%s", err);
        return false;
    }
    if (!ext_send(b, "sbp 1\n", false))
        return false;
    double deadline = proc_now() + EXT_HANDSHAKE;
    for (;;) {
        const char *line;
        int rc = proc_read_line(&e->proc, deadline, &line);
        if (rc == PROC_NUL) /* not sbpok, whatever precedes the NUL */
            continue;
        if (rc != PROC_OK) {
            ext_fault_io(b, rc, "no sbpok within 10 s of sbp 1");
            return false;
        }
        if (!strcmp(line, "sbpok"))
            return true;
        /* id lines, and anything else before sbpok, are not the harness's concern */
    }
}

/* A fresh process in place of one that is gone, told the game so far: true, or false with
   the fault. */
static bool ext_replace(bot_t *b)
{
    ext_bot_t *e = b->impl;
    proc_stop(&e->proc, false);
    if (!ext_ensure_started(b))
        return false;
    return ext_send(b, e->log.s, false);
}

/* Sends newgame for seat, with the public options given. */
static void ext_newgame(bot_t *b, const void *state, const game_options_t *opt, int seat)
{
    ext_bot_t *e = b->impl;
    e->seat = seat;
    e->players = b->api->player_count(state);
    e->answered = false;
    ext_text_t *t = &e->log;
    ext_text_clear(t);
    ext_text_addf(t, "newgame %s %d %d", b->api->name, e->players, seat);
    /* The game's own options as given (e.g. board=duo), and the first player if set. */
    for (int i = 0; opt && i < opt->option_count; i++)
        ext_text_add_option(t, opt->option[i]);
    if (opt && opt->first_player >= 0)
        ext_text_addf(t, " first_player=%d", opt->first_player);
    ext_text_addn(t, "\n", 1);
    if (t->oom) {
        bot_fault(b, "exit", "out of memory");
        e->in_game = false;
        return;
    }
    e->in_game = true;
    e->in_game = ext_send(b, t->s, true);
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
    ext_text_addn(&e->log, msg, strlen(msg));
    ext_send(b, msg, true);
}

/* Reads the answer to go: the index of the move in texts[0..count), or -1 with a fault,
   or with *rc (PROC_EOF, ...) and no fault when the program is gone or silent. */
static int ext_read_move(bot_t *b, char texts[][GAME_MOVE_TEXT_MAX], int count, int *rc)
{
    ext_bot_t *e = b->impl;
    double deadline = e->allow ? proc_now() + (double)e->allow / 1000.0 + EXT_GRACE : -1;
    for (;;) {
        const char *line;
        *rc = proc_read_line(&e->proc, deadline, &line);
        if (*rc != PROC_OK)
            return -1;
        if (!strncmp(line, "info", 4) && (line[4] == ' ' || !line[4]))
            continue;
        if (strncmp(line, "move ", 5)) {
            bot_fault(b, "garbage", "answered '%.80s' to go", line);
            return -1;
        }
        for (int i = 0; i < count; i++)
            if (!strcmp(line + 5, texts[i]))
                return i;
        bot_fault(b, "illegal", "answered '%.80s', not a listed move", line);
        return -1;
    }
}

/* The position and go messages for state into *t: false if out of memory. */
static bool ext_go_text(bot_t *b, const void *state, const move_t *moves, int count,
                        char texts[][GAME_MOVE_TEXT_MAX], ext_text_t *t)
{
    ext_bot_t *e = b->impl;
    /* The position as this seat sees it (docs/NOTATION.md), when the game has a notation. */
    if (b->api->position_write) {
        static _Thread_local char pos[GAME_POSITION_MAX];
        b->api->position_write(state, b->api->to_move(state), pos, sizeof pos);
        ext_text_addf(t, "position %s\n", pos);
    }
    ext_text_addf(t, "go %ld", e->allow);
    for (int i = 0; i < count; i++) {
        b->api->move_to_text(state, moves[i], texts[i]);
        ext_text_addf(t, " %s", texts[i]);
    }
    ext_text_addn(t, "\n", 1);
    return !t->oom;
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
    static _Thread_local char texts[GAME_MAX_MOVES][GAME_MOVE_TEXT_MAX];
    /* Under the harness's clock: its allowance, or time= if given and less. */
    e->allow = e->time_ms;
    if (e->clock_ms >= 0)
        e->allow =
            e->time_given && e->time_ms && e->time_ms < e->clock_ms ? e->time_ms : e->clock_ms;
    e->clock_ms = -1;
    ext_text_t msg = {0};
    if (!ext_go_text(b, state, moves, count, texts, &msg)) {
        free(msg.s);
        bot_fault(b, "exit", "out of memory");
        return moves[0];
    }
    int pick = -1, rc = PROC_OK;
    while (pick < 0 && ext_send(b, msg.s, false)) {
        pick = ext_read_move(b, texts, count, &rc);
        /* Gone before its first answer in this game: maybe after the last one's gameover. */
        if (pick >= 0 || b->fault[0] || !(rc == PROC_EOF && ext_may_replace(e) && ext_replace(b)))
            break;
    }
    free(msg.s);
    if (pick >= 0) {
        e->answered = true;
        return moves[pick];
    }
    if (!b->fault[0]) {
        char waiting[64];
        snprintf(waiting, sizeof waiting, "no move within %ld ms of go", e->allow + 1000);
        ext_fault_io(b, rc, waiting);
    }
    return moves[0];
}

/* The harness's time control: the next go's allowance is what this move may take. */
static void ext_clock(bot_t *b, long left_ms, long inc_ms, long move_ms)
{
    ext_bot_t *e = b->impl;
    (void)inc_ms;
    long allow = left_ms >= 0 ? left_ms : -1;
    if (move_ms > 0 && (allow < 0 || move_ms < allow))
        allow = move_ms;
    e->clock_ms = allow < 0 ? -1 : allow < 1 ? 1 : allow;
}

static void ext_end(bot_t *b, const double *result)
{
    ext_bot_t *e = b->impl;
    if (b->fault[0]) {
        /* A fresh program for the next game; one that timed out is not waited for. */
        proc_stop(&e->proc, strcmp(b->fault, "timeout") != 0);
    } else if (e->in_game && e->proc.pid > 0) {
        ext_text_t msg = {0};
        ext_text_addf(&msg, "gameover");
        for (int s = 0; s < e->players; s++)
            ext_text_addf(&msg, " %g", result[s]);
        ext_text_addn(&msg, "\n", 1);
        /* A program gone after the game is a fault of no game: a fresh one next time. */
        if (!msg.oom && proc_write(&e->proc, msg.s, proc_now() + EXT_HANDSHAKE) == PROC_OK)
            e->reused = true;
        else
            proc_stop(&e->proc, false);
        free(msg.s);
    }
    e->in_game = false;
}

/* A reset (bot_reset, before any choice out of a game): a faulted program is replaced by a
   fresh one, and the next choice sends its own newgame. */
static void ext_reset(bot_t *b)
{
    ext_bot_t *e = b->impl;
    if (b->fault[0])
        proc_stop(&e->proc, strcmp(b->fault, "timeout") != 0);
    e->in_game = false;
}

static void ext_destroy(bot_t *b)
{
    ext_bot_t *e = b->impl;
    proc_stop(&e->proc, true);
    free(e->log.s);
    free(e);
}

const bot_kind_t bot_kind_ext = {
    .name = "ext",
    .help = "ext:cmd=PATH[,name=LABEL][,time=MS]: a program speaking the Skyline Bot Protocol",
    .init = ext_init,
    .choose = ext_choose,
    .observe = ext_observe,
    .reset = ext_reset,
    .begin = ext_begin,
    .end = ext_end,
    .destroy = ext_destroy,
    .clock = ext_clock,
};
