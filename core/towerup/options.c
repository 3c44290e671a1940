/*
 * Tower Up's own options (game_options_t.option, core/game.h): the board, the starting
 * floors, the set-up and the objectives, as key=value texts checked and read here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "internal.h"

const game_option_spec_t towerup_option_specs[TOWERUP_OPTION_COUNT] = {
    {"board", "NAME|FILE",
     "board: standard, duo or a board file\n(default duo for 2 players, standard otherwise)"},
    {"start_floors", "N", "starting floors, 3 (rules) to 7 (variant)"},
    {"setup", "placed|random", "set-up: placed by the last player (default) or random"},
    {"objectives", "start|random|A,B,C", "objectives (default start)"},
};

/* value as a whole decimal int in [lo, hi], or -1. */
static int option_int(const char *value, int lo, int hi)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    return errno || end == value || *end || v < lo || v > hi ? -1 : (int)v;
}

/* The field of an objectives error. */
#define OBJECTIVES "towerup option objectives"

int towerup_objectives_parse(const char *text, uint8_t *out, char *err, size_t errlen)
{
    const char *p = text;
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char id[32];
        if ((i < 2) != (e != NULL) || len >= sizeof id) {
            char names[128];
            towerup_objective_names(names, sizeof names);
            return input_fail(err, errlen, OBJECTIVES, text,
                              "not 'start', 'random' or three different ids of %s", names);
        }
        memcpy(id, p, len);
        id[len] = 0;
        int o = towerup_objective_find(id);
        char shown[INPUT_EXCERPT_MAX];
        if (o < 0) {
            char names[128];
            towerup_objective_names(names, sizeof names);
            return input_fail(err, errlen, OBJECTIVES, text, "unknown objective '%s' (the ids: %s)",
                              input_escape(id, shown, sizeof shown), names);
        }
        for (int j = 0; j < i; j++)
            if (out[j] == o) {
                return input_fail(err, errlen, OBJECTIVES, text, "objective '%s' is named twice",
                                  input_escape(id, shown, sizeof shown));
            }
        out[i] = (uint8_t)o;
        p = e ? e + 1 : p + len;
    }
    return 0;
}

int towerup_objectives_check(const char *text, char *err, size_t errlen)
{
    uint8_t out[TOWERUP_GAME_OBJECTIVES];
    if (!strcmp(text, "start") || !strcmp(text, "random"))
        return 0;
    return towerup_objectives_parse(text, out, err, errlen);
}

int towerup_option_check(const char *key, const char *value, char *err, size_t errlen)
{
    if (!strcmp(key, "board")) {
        if (!value[0]) {
            return input_fail(err, errlen, "towerup option board", value,
                              "needs standard, duo or a board file");
        }
    } else if (!strcmp(key, "start_floors")) {
        if (option_int(value, 3, TOWERUP_MAX_START_FLOORS) < 0) {
            return input_fail(err, errlen, "towerup option start_floors", value,
                              "needs an integer from 3 to %d", TOWERUP_MAX_START_FLOORS);
        }
    } else if (!strcmp(key, "setup")) {
        if (strcmp(value, "placed") && strcmp(value, "random")) {
            return input_fail(err, errlen, "towerup option setup", value, "needs placed or random");
        }
    } else if (!strcmp(key, "objectives")) {
        if (towerup_objectives_check(value, err, errlen) < 0)
            return -1;
    } else {
        return input_fail(err, errlen, "towerup option", key, "no such option");
    }
    return 0;
}

int towerup_options_read(const game_options_t *opt, towerup_options_t *out, char *err,
                         size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->start_floors = 3;
    /* The option part of the game's table: checked as callers of the table check it. */
    const game_api_t options = {.name = "towerup",
                                .options = towerup_option_specs,
                                .option_count = TOWERUP_OPTION_COUNT,
                                .option_check = towerup_option_check};
    if (game_options_check(&options, opt, err, errlen) < 0)
        return -1;
    out->board = game_options_get(opt, "board");
    out->objectives = game_options_get(opt, "objectives");
    const char *floors = game_options_get(opt, "start_floors");
    if (floors)
        out->start_floors = option_int(floors, 3, TOWERUP_MAX_START_FLOORS);
    const char *setup = game_options_get(opt, "setup");
    out->setup_random = setup && !strcmp(setup, "random");
    return 0;
}
