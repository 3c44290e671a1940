/*
 * Tower Up's own options (game_options_t.option, core/game.h): the board, the starting
 * floors, the set-up and the objectives, as key=value texts checked and read here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int towerup_option_check(const char *key, const char *value, char *err, size_t errlen)
{
    if (!strcmp(key, "board")) {
        if (!value[0]) {
            tu_errf(err, errlen, "towerup option board needs standard, duo or a board file");
            return -1;
        }
    } else if (!strcmp(key, "start_floors")) {
        if (option_int(value, 3, TOWERUP_MAX_START_FLOORS) < 0) {
            tu_errf(err, errlen,
                    "towerup option start_floors needs an integer from 3 to %d, "
                    "not '%s'",
                    TOWERUP_MAX_START_FLOORS, value);
            return -1;
        }
    } else if (!strcmp(key, "setup")) {
        if (strcmp(value, "placed") && strcmp(value, "random")) {
            tu_errf(err, errlen, "towerup option setup needs placed or random, not '%s'", value);
            return -1;
        }
    } else if (!strcmp(key, "objectives")) {
        char why[GAME_ERR_MAX];
        if (tu_objectives_check(value, why, sizeof why) < 0) {
            tu_errf(err, errlen, "towerup option objectives: %s", why);
            return -1;
        }
    } else {
        tu_errf(err, errlen, "towerup has no option %s", key);
        return -1;
    }
    return 0;
}

int towerup_options_read(const game_options_t *opt, towerup_options_t *out, char *err,
                         size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->start_floors = 3;
    if (game_options_check(&towerup_api, opt, err, errlen) < 0)
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
