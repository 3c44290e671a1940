#pragma once
/* What the files of the C API share (api/skyline_api.h). */
#include <stdbool.h>

#include "api/skyline_api.h"
#include "core/game.h"

/* The game options of an API call: the options text parsed, with the texts it names. */
typedef struct sky_options {
    game_options_t opt;              /* the options; opt.option[i] points to text[i] */
    char text[GAME_OPTION_MAX][300]; /* the game's own options, "key=value" each */
} sky_options_t;

/* Points o->opt's options at o's own texts again (after o was copied from another). */
void sky_options_own(sky_options_t *o);
/* Fills o for game api from players (0: the default), seed and options text: 0, or -1
   with err filled. */
int sky_options_parse(const game_api_t *api, int players, uint64_t seed, const char *options,
                      sky_options_t *o, char *err, int errlen);
/* The game called name, or NULL with err filled. */
const game_api_t *sky_game(const char *name, char *err, int errlen);
/* A ply of the public move log: who moved, and the move's action id (-1: the game has no
   action space). */
typedef struct sky_ply {
    int mover;
    int action;
} sky_ply_t;
/* The public move log of st into *log: its plies, oldest first (the moves since the
   history start, after those of the state a determinization came from). */
int sky_state_log(const sky_state_t *st, const sky_ply_t **log);
/* The state of a sky_state_t (for the bot and harness files). */
const void *sky_state_raw(const sky_state_t *st);
const game_api_t *sky_state_api(const sky_state_t *st);
/* A malloc'd copy of text (NULL if out of memory). */
char *sky_strdup(const char *text);
/*
 * A new sky_state_t at a copy of state (its history starts there) with options o; no_record
 * (a static text) says why it has no game record, or NULL. NULL if out of memory.
 */
sky_state_t *sky_state_adopt(const game_api_t *api, const void *state, const sky_options_t *o,
                             const char *no_record);
