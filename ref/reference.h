#pragma once
/*
 * The slow reference rules of ref/ behind one small interface, keyed by the game's name
 * (ref/references.c: one line per game that has them). The rules (core/) know nothing of
 * them; the bench times the engines' move generators against them.
 */
#include <stddef.h>

#include "core/game.h"

struct json_t;

/*
 * The slow reference rules of a game, driven by move text: made from the game record of a
 * game (FORMATS.md §4), at that game's start.
 */
typedef struct game_reference {
    const char *game; /* the game's name (game_api_t.name) */
    /* A reference game at the start of rec's game; NULL with err filled if it cannot be. */
    void *(*new_game)(const struct json_t *rec, char *err, size_t errlen);
    void (*free)(void *ref);
    /* Every legal move as text into out[max]; returns the count (0 iff the game is over). */
    int (*moves)(const void *ref, char (*out)[GAME_MOVE_TEXT_MAX], int max);
    /* Plays a move given as canonical text: 0, or -1 if the reference refuses it. */
    int (*play)(void *ref, const char *text);
} game_reference_t;

/* The reference rules of a game, or NULL if it has none. */
const game_reference_t *game_reference_for(const game_api_t *api);
