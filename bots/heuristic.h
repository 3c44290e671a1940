#pragma once
/*
 * Per-game heuristics with named, tunable weights. One table per game; the heuristic,
 * greedy and mcts bots and the tuner use only this interface. A heuristic sees only what
 * the player to move can see (it never reads hidden parts of the state).
 */
#include <stddef.h>

#include "core/game.h"
#include "core/heuristic.h"

/* The heuristic of a game (the registry in bots/heuristic.c), or NULL. */
const heuristic_t *heuristic_for(const game_api_t *api);
/* The built-in defaults. */
void heur_params_default(const heuristic_t *h, heur_params_t *w);
/* Index of a named weight, or -1. */
int heur_param_find(const heuristic_t *h, const char *name);
/* The weight names for messages, space-separated, into buf[len] (cut if it is too small). */
void heur_param_names(const heuristic_t *h, char *buf, size_t len);
/*
 * Reads a parameter file (FORMATS.md §7: `name value` lines, # comments) over w: 0, or -1
 * with err "FILE:LINE: what is wrong" (unknown name, bad number, missing value).
 */
int heur_params_load(const heuristic_t *h, const char *path, heur_params_t *w, char *err,
                     size_t errlen);
/* Text of the first line of every parameter file that heur_params_save writes. */
#define HEUR_PARAMS_HEADER_MARK "skyline parameter file"
/* Writes every weight as a parameter file: 0, or -1 if the file cannot be written. */
int heur_params_save(const heuristic_t *h, const heur_params_t *w, const char *path);
