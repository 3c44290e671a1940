#pragma once
/*
 * The slow reference rules of ref/ behind one small interface, built from the game
 * record of a seeded game so the bench can time them beside the fast engines.
 */
#include "core/game.h"

typedef struct bench_ref bench_ref_t;

/*
 * A reference game at the start of the game that began at initial (made by new_game with
 * opt) and went through moves[0..count). NULL with err filled if it cannot be built.
 */
bench_ref_t *bench_ref_new(const game_api_t *api, const void *initial, const game_options_t *opt,
                           const move_t *moves, int count, char *err, size_t errlen);
void bench_ref_free(bench_ref_t *r);

/* Every legal move as text into out[max]; returns the count (0 iff the game is over). */
int bench_ref_moves(const bench_ref_t *r, char (*out)[GAME_MOVE_TEXT_MAX], int max);

/* Whether the game has reference rules (ref/reference.h) for the bench to time. */
bool bench_has_reference(const game_api_t *api);

/* Plays a move given as canonical text: 0, or -1 if the reference refuses it. */
int bench_ref_play(bench_ref_t *r, const char *text);
