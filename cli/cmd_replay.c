/* skyline replay: re-plays every record of a file with the engine's rules. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli/cli.h"

/* Checks one record line: 0 if it replays, else -1 with err filled. */
static int replay_line(const char *line, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *rec = json_loads(line, 0, &jerr);
    if (!rec) {
        snprintf(err, errlen, "not JSON: %s (column %d)", jerr.text, jerr.column);
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
        snprintf(err, errlen, "unknown game '%s'", game);
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
    FILE *f = !strcmp(path, "-") ? stdin : fopen(path, "r");
    if (!f)
        cli_die("cannot open record file '%s'", path);
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
        char err[GAME_ERR_MAX * 2];
        if (replay_line(line, err, sizeof err)) {
            printf("line %ld: %s\n", lineno, err);
            bad++;
        } else {
            printf("ok\n");
        }
    }
    free(line);
    if (f != stdin)
        fclose(f);
    if (games == 0)
        cli_die("record file '%s' holds no game", path);
    fprintf(stderr, "%ld game%s, %ld failed\n", games, games == 1 ? "" : "s", bad);
    return bad ? 1 : 0;
}
