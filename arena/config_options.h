#pragma once
/*
 * The game options in the configuration that identifies a run of the harness: the
 * tournament's configuration hash, tune's tag, the quality file's header. Those held four
 * option values at fixed places before games had option lists of their own: the "board"
 * and "objectives" options (NULL when not given), "start_floors" (3 when not given) and
 * whether "setup" is "random", with those defaults for every game. They keep their places,
 * read from the option list by key, so that files written before still resume; any other
 * option of a game follows them as its "key=value" text.
 */
#include "core/game.h"

typedef struct config_options {
    const char *board;                  /* "board" option, or NULL */
    const char *objectives;             /* "objectives" option, or NULL */
    int start_floors;                   /* "start_floors" option as a number, else 3 */
    int setup_random;                   /* 1 if the "setup" option is "random", else 0 */
    int extra_count;                    /* entries of extra */
    const char *extra[GAME_OPTION_MAX]; /* every other option, "key=value", in order given */
} config_options_t;

/* The options of opt in that layout. */
void config_options_read(const game_options_t *opt, config_options_t *out);
