/* skyline replay: re-plays every record of a file with the engine's rules. */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli/cli.h"
#include "core/input.h"

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
        rc = api->record_replay(rec, err, errlen);
    json_decref(rec);
    return rc;
}

int cmd_replay(int argc, char **argv)
{
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: skyline replay FILE\n"
                   "Re-plays every game record in FILE (JSON Lines) with the engine's rules and\n"
                   "prints one line per game: ok, or the line, the first illegal move with its\n"
                   "index and the reason. Exits 1 if any game fails.\n");
            return 0;
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
    FILE *f = !strcmp(path, "-") ? stdin : input_open(path, "r", "record file", err, sizeof err);
    if (!f)
        cli_die("%s", err);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0, games = 0, bad = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (len == 0)
            continue;
        games++;
        if (replay_line(line, (size_t)len, err, sizeof err)) {
            char shown[GAME_ERR_MAX * 2];
            printf("line %ld: %s\n", lineno, input_escape(err, shown, sizeof shown));
            bad++;
        } else {
            printf("ok\n");
        }
    }
    bool read_error = ferror(f);
    free(line);
    if (f != stdin)
        fclose(f);
    char shown[GAME_ERR_MAX];
    input_escape(path, shown, sizeof shown);
    if (read_error)
        cli_die("cannot read record file '%s'", shown);
    if (games == 0)
        cli_die("record file '%s' holds no game", shown);
    fprintf(stderr, "%ld game%s, %ld failed\n", games, games == 1 ? "" : "s", bad);
    return bad ? 1 : 0;
}
