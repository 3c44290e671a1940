#pragma once
/*
 * The bot side of the Skyline Bot Protocol (docs/PROTOCOL.md) for a built-in bot: one
 * session that takes the controller's lines one at a time and answers through a callback,
 * so that `skyline engine` runs it on standard input and output and the `engine` fuzz
 * target (fuzz/fuzz_engine.c) feeds it arbitrary lines without processes. The bot sees
 * only what its seat sees: each go rebuilds the state from the last position text with a
 * determinization of what it hides, and go's list must be that state's legal moves.
 */
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"

/* Receives one line of text (no '\n'): an answer to the controller, or a warning. */
typedef void (*sbp_engine_out_fn)(void *ctx, const char *line);

typedef struct sbp_engine sbp_engine_t;

/* A session of the bot spec (checked by the caller) with seed S (game i plays with S+i):
   answers go to say, warnings (a move list that does not match the position...) to warn,
   both with ctx. NULL if out of memory. */
/* The bot of a session without --bot in game api: heuristic where the game has one, else
   mcts. */
const char *sbp_engine_default_spec(const game_api_t *api);
sbp_engine_t *sbp_engine_new(const char *spec, uint64_t seed, sbp_engine_out_fn say,
                             sbp_engine_out_fn warn, void *ctx);
/*
 * One incoming line (without its '\n'; a '\r' at its end is dropped), modified in place.
 * Returns 1 to read on, 0 after `quit`, or -1 with err filled when the session cannot go
 * on (the bot cannot be made for a newgame's game, or it faults: an ext: bot's program
 * answered garbage or ended; go is then answered with an `info error` line only).
 */
int sbp_engine_line(sbp_engine_t *e, char *line, char *err, size_t errlen);
void sbp_engine_free(sbp_engine_t *e);
