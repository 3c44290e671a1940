/* skyline replay: re-plays every record of a file with the engine's rules. */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli/cli.h"
#include "core/input.h"
#include "core/lines.h"
#include "core/record.h"
#include "core/replace.h"
#include "viewer/viewer.h"

/* The records kept for --html. */
typedef struct replay_pick {
    long index;    /* --index: the game to keep (from 0), or -1 for all */
    json_t **recs; /* the kept records */
    long *numbers; /* their indexes in the file */
    int count;     /* kept so far */
    int cap;       /* room in recs and numbers */
} replay_pick_t;

static void pick_add(replay_pick_t *k, const char *line, long game)
{
    if (k->index >= 0 && k->index != game)
        return;
    json_t *rec = json_loads(line, 0, NULL);
    if (!rec)
        return; /* already reported by the replay */
    if (k->count == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 16;
        k->recs = realloc(k->recs, sizeof *k->recs * (size_t)k->cap);
        k->numbers = realloc(k->numbers, sizeof *k->numbers * (size_t)k->cap);
        if (!k->recs || !k->numbers)
            cli_die("out of memory");
    }
    k->recs[k->count] = rec;
    k->numbers[k->count++] = game;
}

/* The viewer page being written: the picked games, its title and the replay's error. */
typedef struct {
    const replay_pick_t *k;
    char title[512];
    char err[GAME_ERR_MAX * 2]; /* the replay's error, "" if it wrote the page */
} replay_page_t;

static int write_page(FILE *f, void *ctx)
{
    replay_page_t *p = ctx;
    return viewer_write_replay(f, p->title, p->k->recs, p->k->numbers, p->k->count, p->err,
                               sizeof p->err);
}

/* Writes the viewer to path whole or not at all (core/replace.h). */
static void write_viewer(const char *path, const char *source, replay_pick_t *k)
{
    replay_page_t p = {.k = k};
    snprintf(p.title, sizeof p.title, "Skyline replay: %s", source);
    if (file_replace(path, write_page, &p)) {
        if (p.err[0])
            cli_die("replay --html: %s", p.err);
        cli_die("cannot write '%s'", path);
    }
    for (int i = 0; i < k->count; i++)
        json_decref(k->recs[i]);
    free(k->recs);
    free(k->numbers);
}

/* Checks one record line of len bytes: 0 if it replays, else -1 with err filled. */
static int replay_line(const char *line, size_t len, char *err, size_t errlen)
{
    size_t text_len = strlen(line);
    if (text_len != len) {
        snprintf(err, errlen, "a NUL byte at column %zu (a record is one JSON object)",
                 text_len + 1);
        return -1;
    }
    if (strspn(line, " \t\v\f") == len) {
        snprintf(err, errlen, "a line of only whitespace (a record is one JSON object)");
        return -1;
    }
    json_error_t jerr;
    json_t *rec = json_loads(line, 0, &jerr);
    char shown[INPUT_EXCERPT_MAX];
    if (!rec) {
        snprintf(err, errlen, "not JSON: %s (column %d)",
                 input_escape(jerr.text, shown, sizeof shown), jerr.column);
        return -1;
    }
    int rc = -1;
    const char *game = json_string_value(json_object_get(rec, "game"));
    const game_api_t *api = game ? game_find(game) : NULL;
    if (!json_is_object(rec))
        snprintf(err, errlen, "a record must be a JSON object");
    else if (!game)
        snprintf(err, errlen, "record has no \"game\" string");
    else if (!api)
        snprintf(err, errlen, "game: unknown game '%s' (%s)",
                 input_escape(game, shown, sizeof shown), cli_game_names());
    else
        rc = record_replay(api, rec, err, errlen);
    json_decref(rec);
    return rc;
}

int cmd_replay(int argc, char **argv)
{
    const char *path = NULL, *html = NULL;
    replay_pick_t pick = {.index = -1};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: skyline replay FILE [--html OUT.html [--index I|all]]\n"
                   "Re-plays every game record in FILE (JSON Lines) with the engine's rules and\n"
                   "prints one line per game: ok, or the line, the first illegal move with its\n"
                   "index and the reason. Exits 1 if any game fails.\n"
                   "  --html OUT.html   also write a self-contained page that replays the games\n"
                   "                    (pictures, move list, scores, search figures)\n"
                   "  --index I|all     the game of the page, counting from 0 (default: all)\n");
            return 0;
        }
        if (!strcmp(argv[i], "--html")) {
            html = cli_value(argc, argv, &i);
            continue;
        }
        if (!strcmp(argv[i], "--index")) {
            const char *v = cli_value(argc, argv, &i);
            pick.index = strcmp(v, "all") ? cli_int("--index", v, 0, 1000000000L) : -1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1])
            cli_die("replay: unknown option '%s'", argv[i]);
        if (path)
            cli_die("replay takes one file, not '%s' too", argv[i]);
        path = argv[i];
    }
    if (!path)
        cli_die("replay needs a record file (skyline replay FILE)");
    char err[GAME_ERR_MAX * 2];
    FILE *f = !strcmp(path, "-") ? stdin : lines_open(path, "record file", 0, err, sizeof err);
    if (!f)
        cli_die("%s", err);
    lines_reader_t r;
    lines_init(&r, f);
    r.keep_nul = true; /* a NUL byte fails its game with its column, as any bad byte */
    long lineno = 0, games = 0, bad = 0;
    int got;
    while ((got = lines_next(&r)) > 0) {
        lineno = r.lineno;
        char *line = r.text;
        size_t len = r.len;
        if (len == 0)
            continue;
        if (html)
            pick_add(&pick, line, games);
        games++;
        if (replay_line(line, (size_t)len, err, sizeof err)) {
            char shown[GAME_ERR_MAX * 2];
            printf("line %ld: %s\n", lineno, input_escape(err, shown, sizeof shown));
            bad++;
        } else {
            printf("ok\n");
        }
    }
    if (got < 0)
        lines_error(&r, !strcmp(path, "-") ? "standard input" : path, err, sizeof err);
    lines_free(&r);
    if (f != stdin)
        fclose(f);
    if (got < 0)
        cli_die("%s", err);
    char shown[GAME_ERR_MAX];
    input_escape(path, shown, sizeof shown);
    if (games == 0)
        cli_die("record file '%s' holds no game", shown);
    if (html && pick.count == 0)
        cli_die("%s holds %ld game%s: there is no game --index %ld", shown, games,
                games == 1 ? "" : "s", pick.index);
    fprintf(stderr, "%ld game%s, %ld failed\n", games, games == 1 ? "" : "s", bad);
    if (html && bad)
        cli_die("replay --html: no page written, since a game does not replay");
    if (html) {
        write_viewer(html, path, &pick);
        fprintf(stderr, "viewer: %s (%d game%s)\n", html, pick.count, pick.count == 1 ? "" : "s");
    }
    return bad ? 1 : 0;
}
