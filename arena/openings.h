#pragma once
/*
 * Opening suites for tournaments (arena/TOURNAMENT.md, "Openings"): a text file, one
 * opening a line, `seed=S MOVE MOVE ...`: the deal of game seed S (everything chance
 * fixes: Tower Up's deck, Uptown's piles, the first seat unless --first-player says) and
 * the moves played from its start, as records write them. Blank lines and lines starting
 * with '#' are skipped.
 */
#include <stdint.h>

#include "core/game.h"

/* Most moves of one opening. */
#define OPENINGS_MAX_PLIES 1000
/* Most openings in a file. */
#define OPENINGS_MAX 1000000L

typedef struct openings {
    long count;      /* openings */
    uint64_t *seeds; /* per opening: the seed of its deal */
    int *plies;      /* its move count */
    move_t **moves;  /* its moves */
    uint64_t hash;   /* over the seeds and move texts (what the games depend on) */
} openings_t;

/*
 * Reads the suite at path for api with opt (seed replaced by each opening's): every move
 * must be legal from the opening's start and leave the game not over. 0, or -1 with err
 * one line naming the file, line and what is wrong (o is then empty).
 */
int openings_load(const char *path, const game_api_t *api, const game_options_t *opt, openings_t *o,
                  char *err, size_t errlen);
void openings_free(openings_t *o);
