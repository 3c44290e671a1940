#pragma once
/*
 * The C API of libskyline.so for bindings (python/, docs/PYTHON.md): opaque handles, plain
 * integers, doubles and character buffers, nothing of jansson. Functions that can fail
 * return -1 (or NULL) and write a one-line message into err[errlen]. Strings returned as
 * char * are malloc'd: release them with sky_free. Games are named as on the command line.
 */
#include <stdint.h>

/* A game in progress with its history of moves (undo, records). */
typedef struct sky_state sky_state_t;
/* A bot made from a spec (FORMATS.md §6). */
typedef struct sky_bot sky_bot_t;

/* The engine version, e.g. "0.9.0". */
const char *sky_version(void);
/* Games of the registry, and the name of game i (NULL out of range). */
int sky_game_count(void);
const char *sky_game_name(int i);
/* Fewest and most players of a game: 0, or -1 with err filled (unknown game). */
int sky_game_players(const char *game, int *min_players, int *max_players, char *err, int errlen);
/* Size of a game's action space and of its observation tensor for a player count, or -1
   with err filled (unknown game, player count, none defined). */
int sky_num_actions(const char *game, int players, char *err, int errlen);
int sky_observation_size(const char *game, int players, char *err, int errlen);
/* Buffer sizes callers use. */
int sky_max_moves(void);     /* most legal moves of a position */
int sky_move_text_max(void); /* a move text with its terminator */

/*
 * A new game. players 0: 3, or the nearest count the game allows. options: lines
 * "key=value" (first_player, board, start_floors, setup = placed|random, objectives), as
 * the command line's game options; may be NULL. NULL with err filled if anything is wrong.
 */
sky_state_t *sky_state_new(const char *game, int players, uint64_t seed, const char *options,
                           char *err, int errlen);
void sky_state_free(sky_state_t *st);
/*
 * The state of a position text (docs/NOTATION.md), of the game its first word names; what
 * the text does not say (hidden parts) drawn from seed; *view (if not NULL) gets the
 * text's observer (-1: public). options as sky_state_new's (board=FILE for a board the
 * text only names). Its history starts there; it has no game record. NULL with err filled.
 */
sky_state_t *sky_state_from_position(const char *text, const char *options, uint64_t seed,
                                     int *view, char *err, int errlen);
/* An independent copy, history included. */
sky_state_t *sky_state_clone(const sky_state_t *st);
const char *sky_state_game(const sky_state_t *st);
int sky_state_players(const sky_state_t *st);
/* The player to move (-1 once the game is over). */
int sky_state_to_move(const sky_state_t *st);
int sky_state_is_terminal(const sky_state_t *st);
/* Moves played since the start (or since the determinization the state came from). */
int sky_state_move_count(const sky_state_t *st);
uint64_t sky_state_hash(const sky_state_t *st);

/* Legal moves as texts, one per line, into buf[len]: the count, or -1 if len is short. */
int sky_state_legal_moves(const sky_state_t *st, char *buf, int len);
/* Legal action ids into out[max] (max >= sky_max_moves() is always enough): the count, or
   -1 if the game has no action space. */
int sky_state_legal_actions(const sky_state_t *st, int32_t *out, int max);
/* The action id of a legal move text, or -1 with err filled. */
int sky_state_move_action(const sky_state_t *st, const char *text, char *err, int errlen);
/* The move text of a legal action id into buf[len]: 0, or -1 with err filled. */
int sky_state_action_move(const sky_state_t *st, int action, char *buf, int len, char *err,
                          int errlen);
/* Plays a move given as text, or as an action id: 0, or -1 with err filled. */
int sky_state_apply(sky_state_t *st, const char *text, char *err, int errlen);
int sky_state_apply_action(sky_state_t *st, int action, char *err, int errlen);
/* Takes back the last move: 0, or -1 with err filled (nothing to take back). */
int sky_state_undo(sky_state_t *st, char *err, int errlen);
/* Game result per player (RULES.md 1.10) into out[players]: players, or -1 if not over. */
int sky_state_result(const sky_state_t *st, double *out);
/* The game's own scores into out[players]: players, or -1 (no scores / not over). */
int sky_state_scores(const sky_state_t *st, double *out);
/* Position notation (docs/NOTATION.md) as player sees it (-1: public) into buf[len]. */
int sky_state_observation(const sky_state_t *st, int player, char *buf, int len, char *err,
                          int errlen);
/* The observation tensor of player into out[max]: its size, or -1 with err filled. */
int sky_state_observation_tensor(const sky_state_t *st, int player, float *out, int max, char *err,
                                 int errlen);
/*
 * Information-state tensor (docs/PYTHON.md): player's observation tensor, then the public
 * history of the last `history` plies (0..SKY_HISTORY_MAX; SKY_HISTORY_DEFAULT is the
 * bindings' default), newest first, each slot a present flag, the mover's seat one-hot (the
 * game's most players) and the move's action id in binary (least significant bit first,
 * ceil(log2(action count)) bits), then the plies known / SKY_HISTORY_MAX (at most 1). The
 * size for a game, player count and history, or -1 with err filled.
 */
#define SKY_HISTORY_DEFAULT 16
#define SKY_HISTORY_MAX     1024
int sky_information_state_size(const char *game, int players, int history, char *err, int errlen);
/* The information-state tensor of player into out[max]: its size, or -1 with err filled.
   A determinization keeps the plies of the state it came from; a state read from a
   position text or a record starts with none. */
int sky_state_information_state(const sky_state_t *st, int player, int history, float *out, int max,
                                char *err, int errlen);
/* A copy whose hidden parts (as player sees them) are redrawn from seed; its history
   starts there (its information-state tensor keeps the plies before). NULL with err
   filled. */
sky_state_t *sky_state_determinize(const sky_state_t *st, int player, uint64_t seed, char *err,
                                   int errlen);
/* The position of a game record (one JSON object, FORMATS.md §4) after its first ply moves
   (-1: all), replayed with the engine's rules; its history starts there. NULL with err
   filled: not a record, an unknown game, an illegal move, a ply beyond the game. */
sky_state_t *sky_state_from_record(const char *record, int ply, char *err, int errlen);
/* The text diagram as player sees it (-1: everything); ascii: no UTF-8 symbols. */
char *sky_state_show(const sky_state_t *st, int player, int ascii, char *err, int errlen);
/* The position as a standalone SVG picture as player sees it (-1: everything); NULL with
   err filled (a game without pictures, a player out of range). */
char *sky_state_svg(const sky_state_t *st, int player, char *err, int errlen);
/*
 * The chance event that legal move `move` brings about (NULL or "": the next one as the
 * position stands), as the player to move sees it: JSON [[outcome, probability], ...]
 * ("[]" if none: a move or game without one). NULL with err filled (an illegal move; no
 * move where the outcomes depend on it).
 */
char *sky_state_chance_outcomes(const sky_state_t *st, const char *move, char *err, int errlen);
/* The game record (FORMATS.md §4) as one line of JSON. */
char *sky_state_record(const sky_state_t *st, char *err, int errlen);
/* Mean result per player of n random playouts from the state (unchanged) into
   out[players]: players, or -1 with err filled. */
int sky_state_playouts(const sky_state_t *st, uint64_t seed, int n, double *out, char *err,
                       int errlen);

/* A bot for game from spec; seed fixes its choices. NULL with err filled. */
sky_bot_t *sky_bot_new(const char *game, const char *spec, uint64_t seed, char *err, int errlen);
void sky_bot_free(sky_bot_t *b);
/* The bot's move for the player to move, as text into buf[len]: 0, or -1 with err filled
   (also when the bot faults: an ext: program that exits or answers garbage; the next
   choice starts a fresh program). */
int sky_bot_choose(sky_bot_t *b, const sky_state_t *st, char *buf, int len, char *err, int errlen);
/* The last search as JSON {"iterations", "value", "moves": [{"move", "visits", "mean"}]},
   or "null" if the bot has not searched. */
char *sky_bot_info(const sky_bot_t *b);
/*
 * An evaluator for a bot made with the spec key net=@evaluator (docs/NETS.md), in place of
 * a net file: from the mover's observation obs[obs_size] and the action ids actions[n] of
 * its legal moves, it writes n logits and `players` values (value j: the expected result of
 * seat (mover + j) mod players), and returns 0, or -1 on failure (the search goes on with a
 * uniform prior and even values; the caller reports it). Called from the search's threads.
 */
typedef int (*sky_evaluator_fn)(void *ctx, const float *obs, int obs_size, const int *actions,
                                int n, float *logits, float *values, int players);
/* Gives bot b the evaluator fn (ctx passed to it, living as long as b) for games of
   `players` players: 0, or -1 with err filled (not an mcts bot with net=@evaluator, no
   observation or action space). */
int sky_bot_set_evaluator(sky_bot_t *b, int players, sky_evaluator_fn fn, void *ctx, char *err,
                          int errlen);

/*
 * Games between bots run by the C harness, games in parallel on `threads` threads (0: all
 * cores): game i of `games` uses seed seed+i, as `skyline play`. specs: one per line, one
 * for every seat or one per seat. record: NULL, or a file the records are appended to in
 * game order. Returns JSON {"games": [{"seed", "result", "ranks", "scores", "moves"}]}.
 */
char *sky_play(const char *game, int players, uint64_t seed, const char *options, const char *specs,
               long games, const char *record, int threads, char *err, int errlen);
/*
 * A tournament (arena/TOURNAMENT.md) into its record file out (resumed if present): JSON
 * of the standings {"games", "played", "bots": [{"spec", "games", "result", "result_ci95",
 * "mean_rank", "elo", "elo_ci95"}]}, best first. format: "roundrobin" or "gauntlet".
 */
char *sky_tournament(const char *game, int players, uint64_t seed, const char *options,
                     const char *specs, long games, const char *format, const char *out,
                     int workers, char *err, int errlen);

/* Releases a string returned by this API. */
void sky_free(char *s);
