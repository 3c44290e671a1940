/*
 * Target "engine": the controller's lines as `skyline engine` reads them (the bot side of
 * the protocol, docs/PROTOCOL.md), read from a file by the same line reader and fed to the
 * same session (bots/sbp_engine.c), once with the bot `random` and once with `heuristic`
 * (which has no Connect Four: a newgame of it ends the session, as the program exits 2).
 * Promises: `sbp` is answered by exactly `id name`, `id author` and `sbpok`; a `go` with at
 * least one move by optional `info` lines and then exactly one `move` that go listed; a
 * `go` without moves by `info` only; every other message by nothing; every answer and
 * warning is one line; a session that cannot go on says why in one line. A `board=` that
 * is not a built-in board becomes `board=standard` (fuzzing opens no files of the machine).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bots/sbp_engine.h"
#include "core/lines.h"
#include "core/towerup/towerup.h"
#include "fuzz/fuzz.h"

/* What the session answered to the current message. */
typedef struct heard {
    int lines;  /* answers */
    int moves;  /* `move` answers */
    int infos;  /* `info` answers */
    char *last; /* the last answer (malloc'd), or NULL */
} heard_t;

static void one_line(const char *line, const char *what)
{
    if (strchr(line, '\n'))
        fuzz_fail(what, line);
}

static void on_say(void *ctx, const char *line)
{
    heard_t *h = ctx;
    one_line(line, "engine: an answer of more than one line");
    if (h->moves)
        fuzz_fail("engine: an answer after the move", line);
    h->lines++;
    h->moves += !strncmp(line, "move ", 5);
    h->infos += !strncmp(line, "info ", 5);
    free(h->last);
    h->last = strdup(line);
    if (!h->last)
        abort();
}

static void on_warn(void *ctx, const char *line)
{
    (void)ctx;
    one_line(line, "engine: a warning of more than one line");
}

/* A newgame's board= that is not a built-in board becomes board=standard, in place (the
   line only gets shorter or keeps its length: "board=standard" is 14 characters). */
static void builtin_boards(char *line)
{
    if (strncmp(line, "newgame ", 8))
        return;
    char *p = line;
    while ((p = strstr(p, "board=")) != NULL) {
        bool word = p == line || p[-1] == ' ';
        char *v = p + 6, *end = v + strcspn(v, " \r");
        char save = *end;
        *end = 0;
        bool builtin = towerup_board_builtin(v) != NULL;
        *end = save;
        if (word && !builtin) {
            const char *std = "standard";
            if ((size_t)(end - v) >= strlen(std)) {
                memcpy(v, std, strlen(std));
                memmove(v + strlen(std), end, strlen(end) + 1);
            } else {
                memmove(p, end, strlen(end) + 1); /* too short to hold it: dropped */
                continue;
            }
        }
        p = v;
    }
}

/* The words of line (as the session splits them); returns how many, at most max. */
static int words(char *line, char **w, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \r", &save); t && n < max; t = strtok_r(NULL, " \r", &save))
        w[n++] = t;
    return n;
}

/* What a message must be answered with, given what was heard. */
static void check_answers(const char *line, const heard_t *h)
{
    char *copy = strdup(line), **w = malloc((GAME_MAX_MOVES + 8) * sizeof *w);
    if (!copy || !w)
        abort();
    int n = strncmp(line, "position ", 9) ? words(copy, w, GAME_MAX_MOVES + 8) : 0;
    if (n && !strcmp(w[0], "sbp")) {
        if (h->lines != 3 || strcmp(h->last, "sbpok"))
            fuzz_fail("engine: sbp is not answered by id lines and sbpok", line);
    } else if (n && !strcmp(w[0], "go")) {
        if (n >= 3 && (h->moves != 1 || h->lines != h->infos + 1))
            fuzz_fail("engine: go is not answered by info lines and one move", line);
        if (n < 3 && (h->moves || h->lines != h->infos))
            fuzz_fail("engine: go without moves is answered by more than info", line);
        bool listed = false;
        for (int i = 2; i < n && h->moves && !listed; i++)
            listed = !strcmp(h->last + 5, w[i]);
        if (h->moves && !listed)
            fuzz_fail("engine: the move answered is not one go listed", h->last);
    } else if (h->lines) {
        fuzz_fail("engine: a message that needs no answer got one", line);
    }
    free(w);
    free(copy);
}

static void session(const char *path, const char *spec, uint64_t seed)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    heard_t h = {0};
    sbp_engine_t *e = sbp_engine_new(spec, seed, on_say, on_warn, &h);
    if (!e)
        abort();
    lines_reader_t r;
    lines_init(&r, f);
    char err[GAME_ERR_MAX];
    int go_on = 1;
    while (go_on > 0 && lines_next(&r) > 0) {
        builtin_boards(r.text);
        char *line = strdup(r.text);
        if (!line)
            abort();
        free(h.last);
        h = (heard_t){0};
        err[0] = 0;
        go_on = sbp_engine_line(e, r.text, err, sizeof err);
        if (go_on < 0) {
            fuzz_check_error(err, sizeof err, "engine: a session that cannot go on");
            one_line(err, "engine: an error of more than one line");
        }
        check_answers(line, &h);
        free(line);
    }
    free(h.last);
    lines_free(&r);
    sbp_engine_free(e);
    fclose(f);
}

int fuzz_engine(const uint8_t *data, size_t size)
{
    char path[64];
    uint64_t seed = fuzz_hash(data, size);
    static const char *const specs[] = {"random", "heuristic"};
    for (int i = 0; i < 2; i++) {
        int fd = fuzz_memfile(data, size, path, sizeof path);
        if (fd < 0)
            return 0;
        session(path, specs[i], seed);
        close(fd);
    }
    return 0;
}
