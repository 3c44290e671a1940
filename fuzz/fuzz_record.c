/*
 * Target "record": a record file as `skyline replay` reads it, one JSON record a line,
 * each re-played by its game's rules. A Tower Up record's "board" may name a file; the
 * harness replaces any name that is not a built-in board by "standard", so that fuzzing
 * never opens files of the machine (board files have their own target).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/record.h"
#include "core/towerup/towerup.h"
#include "fuzz/fuzz.h"

static void replay_line(const char *line)
{
    char err[GAME_ERR_MAX * 2];
    json_error_t jerr;
    json_t *rec = json_loads(line, 0, &jerr);
    if (!rec)
        return;
    const char *game = json_string_value(json_object_get(rec, "game"));
    const game_api_t *api = game ? game_find(game) : NULL;
    if (json_is_object(rec) && api) {
        const char *board = json_string_value(json_object_get(rec, "board"));
        if (board && !towerup_board_builtin(board))
            json_object_set_new(rec, "board", json_string("standard"));
        err[0] = 0;
        if (record_replay(api, rec, err, sizeof err) < 0)
            fuzz_check_error(err, sizeof err, "record: replay");
    }
    json_decref(rec);
}

int fuzz_record(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    for (char *p = text, *next; *p; p = next) {
        char *nl = strchr(p, '\n');
        next = nl ? nl + 1 : p + strlen(p);
        if (nl)
            *nl = 0;
        replay_line(p);
    }
    free(text);
    return 0;
}
