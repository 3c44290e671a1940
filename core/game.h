#pragma once
/*
 * The game interface: one table of coarse function pointers per game, used by search,
 * bots, the command line, tests and benchmarks. Inside a game, hot code calls its own
 * functions directly; the indirection is paid once per coarse call.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"

#define GAME_MAX_PLAYERS 5
/* Upper bound on the legal moves of any position of any game: the size of move buffers. */
#define GAME_MAX_MOVES 4096
/* Buffer size for a move's canonical text, terminator included. */
#define GAME_MOVE_TEXT_MAX 32
/* Buffer size for error messages: room for a list of the valid values. */
#define GAME_ERR_MAX 512
/* Largest undo record of any game, in bytes (each game's undo_size is at most this). */
#define GAME_UNDO_MAX 512

/*
 * A move, encoded by the game. Its meaning never depends on hidden information: the same
 * value in two determinizations of one information set is the same visible action, so
 * search trees can be keyed by it.
 */
typedef uint32_t move_t;

struct json_t;

/* Most options of one game a game_options_t holds (game_options_t.option). */
#define GAME_OPTION_MAX 8

/*
 * What a new game is made from: what every game has (players, seed, first player), and
 * the game's own options as key=value texts that the game parses and checks (its
 * game_api_t.options entry lists the keys; docs/ADDING_A_GAME.md).
 */
typedef struct game_options {
    int players;      /* number of players */
    uint64_t seed;    /* fixes every chance event of the game */
    int first_player; /* -1: drawn from the seed */
    int option_count; /* entries of option[] in use */
    /* The game's own options, "key=value" each, a key at most once, in the order given
       (e.g. Tower Up's "board=duo"); the texts belong to the caller and must outlive the
       options. Set them with game_options_add. */
    const char *option[GAME_OPTION_MAX];
} game_options_t;

/* One of a game's own options (game_api_t.options): for help texts and checks. */
typedef struct game_option_spec {
    const char *key;   /* e.g. "start_floors"; the command line spells it --start-floors */
    const char *value; /* what a value looks like, e.g. "N" or "placed|random" */
    const char *help;  /* one line of help (a '\n' starts a continuation line) */
} game_option_spec_t;

/*
 * Capability flags (game_api_t.flags): what kind of game it is. Tests and tools read these
 * (through game_caps) instead of naming a game.
 */
/* Every player sees the whole position (no player knows what another does not): without
   GAME_CHANCE, determinize changes nothing. */
#define GAME_PERFECT_INFO 1u
/* Chance events during play (draws, dice) beyond the options' set-up; the seed fixes them,
   but no player knows them in advance, so determinize resamples them. */
#define GAME_CHANCE 2u
/* Capabilities that follow from optional entries being there (game_caps adds them). */
#define GAME_CAP_NOTATION 0x100u /* position_write and position_read (docs/NOTATION.md) */
#define GAME_CAP_ACTIONS  0x200u /* action_count, move_action, observation (docs/PYTHON.md) */
#define GAME_CAP_SOLVER   0x400u /* solver_new, solver_free, solve (`skyline solve`) */
#define GAME_CAP_DIAGRAM  0x800u /* diagram and move_describe (`skyline show`) */

typedef struct game_api {
    const char *name;  /* e.g. "towerup", as on the command line and in records */
    unsigned flags;    /* GAME_PERFECT_INFO, GAME_CHANCE: what kind of game it is */
    int min_players;   /* fewest players the game allows */
    int max_players;   /* most players the game allows */
    size_t state_size; /* bytes of a state: a copy is a memcpy of this many bytes */
    size_t undo_size;  /* bytes of the caller-owned undo record of make/undo */

    /*
     * Initial position (set-up moves, if any, still to play). 0, or -1 with err filled
     * (also for an option the game does not know or a value it refuses).
     */
    int (*new_game)(void *state, const game_options_t *opt, char *err, size_t errlen);
    void (*copy)(void *dst, const void *src);
    /* All legal moves, each once, into moves[GAME_MAX_MOVES]; returns the count (0 iff terminal). */
    int (*gen_moves)(const void *state, move_t *moves);
    void (*make)(void *state, move_t m, void *undo);
    /* Restores the exact bytes the state had before make(state, m, undo). */
    void (*undo)(void *state, move_t m, const void *undo);
    bool (*is_terminal)(const void *state);
    int (*to_move)(const void *state);
    int (*player_count)(const void *state);
    /* Game result per player (RULES.md 1.10), in [0, 1]; meaningful once terminal. */
    void (*result)(const void *state, double *res);
    uint64_t (*hash)(const void *state);      /* incremental Zobrist key */
    uint64_t (*hash_full)(const void *state); /* the same key computed from scratch */
    /* Canonical text (FORMATS.md §3) of a legal move into buf[GAME_MOVE_TEXT_MAX]. */
    void (*move_to_text)(const void *state, move_t m, char *buf);
    /* Parses canonical text: 0 if it names a legal move, else -1 with err filled, one line
       that quotes the text (core/input.h: "move 'TEXT': WHAT"). */
    int (*move_from_text)(const void *state, const char *text, move_t *m, char *err, size_t errlen);
    /* Resamples everything that player observer cannot see; changes nothing it can. */
    void (*determinize)(void *state, int observer, pcg32_t *rng);
    /* Plays uniformly random legal moves until the game is over. */
    void (*playout)(void *state, pcg32_t *rng);
    /* Recomputes every derived field: 0 if consistent, else -1 with err filled. */
    int (*check)(const void *state, char *err, size_t errlen);

    /* The game's part of its records (core/record.h: its own keys and set-up); the
       envelope, checks and replay are core/record.c's. */
    const struct record_hooks *record;
    /*
     * 1-based ranks of a finished game, the game's tie-break applied (ties left share the
     * smaller rank). NULL: ranks follow from result (greater result, better rank).
     */
    void (*ranks)(const void *state, int *ranks);

    /* ---- Optional parts: NULL (0) when the game has none; callers check. ---- */
    /* The game's own options (game_options_t.option): option_count keys with their help. */
    const game_option_spec_t *options;
    int option_count; /* number of options */
    /*
     * Checks the value of option key (one of options): 0, or -1 with err one line naming
     * the valid values. NULL: every value is left to new_game.
     */
    int (*option_check)(const char *key, const char *value, char *err, size_t errlen);
    /* The game's own score per player of a finished game (Tower Up points, Uptown groups). */
    void (*scores)(const void *state, double *scores);
    /* The key of a record's "result" that holds those scores ("scores", "groups"). */
    const char *score_key;
    /* A compact text of the board into buf[len] (at least GAME_TEXT_MAX). */
    void (*board_text)(const void *state, char *buf, size_t len);
    /*
     * The position as a text diagram for `skyline show` into buf[len] (at least
     * GAME_DIAGRAM_MAX), lines ending in '\n'. observer -1 shows everything; a player
     * shows only what that player sees (other players' racks, the order of draw piles
     * hidden). flags: GAME_TEXT_* (plain ASCII instead of UTF-8, ANSI colour).
     */
    void (*diagram)(const void *state, int observer, unsigned flags, char *buf, size_t len);
    /*
     * A short plain-language description of legal move m of state (before it is made)
     * into buf[len] (at least GAME_DESCRIBE_MAX), e.g. "takes market card 3 (KGW): +K +G
     * +W, gives back 1 B". It may mention what the move brings about (an extra turn).
     */
    void (*move_describe)(const void *state, move_t m, char *buf, size_t len);
    /*
     * Position notation (docs/NOTATION.md): the position as player observer sees it (-1:
     * only what every player sees) as one line, the game's name first, into buf[len]
     * (GAME_POSITION_MAX is always enough).
     */
    void (*position_write)(const void *state, int observer, char *buf, size_t len);
    /*
     * A state that matches a position text, everything the text does not say drawn from
     * rng (a legal determinization for the text's observer, which goes to *view, -1 for
     * the public view). opt may be NULL; its options give what a text only names (Tower
     * Up's board option: the file of a board that is not built in). 0, or -1 with err one
     * line naming the field at fault.
     */
    int (*position_read)(void *state, const char *text, const game_options_t *opt, pcg32_t *rng,
                         int *view, char *err, size_t errlen);
    /*
     * Integer actions (docs/PYTHON.md): a fixed action space of action_count(players) ids
     * per player count, for policy heads and action masks. move_action gives the id of
     * legal move m of state, in [0, action_count); like a move, an id never depends on
     * hidden information, and two legal moves of one position never share one.
     * game_action_move turns an id back into the move.
     */
    int (*action_count)(int players);
    int (*move_action)(const void *state, move_t m);
    /*
     * Observation tensor (docs/PYTHON.md): observation_size(players) floats that describe
     * the position as player observer sees it into out; what observer cannot see never
     * changes them.
     */
    int (*observation_size)(int players);
    void (*observation)(const void *state, int observer, float *out);
    /*
     * Legal move m of state as a two-step choice for people (the human seat of `skyline
     * play`): into group, what it chooses first, a short label that the moves of that
     * first step share (Tower Up: "take card 2 (KW:G1)", "build on site 12"); into way,
     * the words that tell it apart from them in the second step. Both buffers hold len
     * bytes (at least GAME_DESCRIBE_MAX). NULL: one numbered list of every move.
     */
    void (*move_group)(const void *state, move_t m, char *group, char *way, size_t len);
    /*
     * Chance outcomes (docs/PYTHON.md): the distinct outcomes of the chance event that legal
     * move *m of state brings about, as the player to move sees it (Tower Up: the card that
     * refills the market), each a short text into text[i] with its probability into
     * prob[i], at most max. m NULL: the game's next chance event as the position stands,
     * whatever move brings it about. The count (0: the move, or the position, draws
     * nothing), or -1 with err filled (m NULL where the outcomes depend on the move). NULL:
     * the game has no chance events after its deal.
     */
    int (*chance_outcomes)(const void *state, const move_t *m, char (*text)[GAME_MOVE_TEXT_MAX],
                           double *prob, int max, char *err, size_t errlen);

    /*
     * Exact solution (optional: NULL where the game has none; `skyline solve`). A solver
     * from solver_new (NULL if out of memory) keeps what it learns between calls (one
     * thread); solve puts the value of state for the player to move (1 a win, 0 a draw,
     * -1 a loss, with perfect play) in *value and the legal moves that keep it in
     * keep[GAME_MAX_MOVES], their count in *nkeep; *nodes grows by the nodes searched.
     * 0, or -1 if the game is over.
     */
    void *(*solver_new)(void);
    void (*solver_free)(void *solver);
    int (*solve)(void *solver, const void *state, int *value, move_t *keep, int *nkeep,
                 uint64_t *nodes);
} game_api_t;

/* Buffer size for a board_text text. */
#define GAME_TEXT_MAX 4096
/* Buffer size for a diagram (game_api_t.diagram). */
#define GAME_DIAGRAM_MAX 32768
/* Buffer size for a move description (game_api_t.move_describe). */
#define GAME_DESCRIBE_MAX 256
/* Diagram flags: plain ASCII (else UTF-8 symbols and box drawing); ANSI colour escapes. */
#define GAME_TEXT_ASCII  1u
#define GAME_TEXT_COLOUR 2u
/* Buffer size for a position text (docs/NOTATION.md), terminator included. */
#define GAME_POSITION_MAX 2048

/*
 * The registry of games (core/games.c: one line per game). Games are numbered from 0 in
 * registry order; the first is the default game of the command line.
 */
int game_count(void);
/* Game i of the registry, 0 <= i < game_count(). */
const game_api_t *game_at(int i);
/* The game called name, or NULL. */
const game_api_t *game_find(const char *name);
/* The game names joined by sep, e.g. "towerup, uptown, connect4", into buf[len]. */
const char *game_names(char *buf, size_t len, const char *sep);

/*
 * Position notation for callers (core/position.c, docs/NOTATION.md). The game of a
 * position text, from its first word: NULL with err filled if none or it has no notation.
 */
const game_api_t *game_position_game(const char *text, char *err, size_t errlen);
/* The text of state as observer sees it (-1: public) into buf[len]: 0, or -1 with err
   filled if the game has no notation. */
int game_position_write(const game_api_t *api, const void *state, int observer, char *buf,
                        size_t len, char *err, size_t errlen);
/*
 * A new state (free() it) matching text, of the game its first word names (*api), hidden
 * parts drawn from seed; *view gets the text's observer (-1: public). opt may be NULL (see
 * position_read). NULL with err one line naming the field at fault.
 */
void *game_position_read(const char *text, const game_options_t *opt, uint64_t seed,
                         const game_api_t **api, int *view, char *err, size_t errlen);
/* Whether text fixes everything player sees (its reads with different seeds all look the
   same to player): false if the text leaves some of it to chance, or is not valid. */
bool game_position_shows_all(const char *text, const game_options_t *opt, int player);
/* Splits a position text in place at single spaces into fields[max]: the field count, or
   -1 with err filled for an empty field (two spaces, a space at an end) or too many. */
int game_position_split(char *text, char **fields, int max, char *err, size_t errlen);

/* The legal move of state whose action id (api->move_action) is action into *m: 0, or -1
   if no legal move has that id or the game has no action space. */
int game_action_move(const game_api_t *api, const void *state, int action, move_t *m);

/* The game's capabilities: its flags and the GAME_CAP_* of the optional entries it has. */
unsigned game_caps(const game_api_t *api);

/* determinize of a game where nothing is hidden (GAME_PERFECT_INFO without GAME_CHANCE):
   changes nothing. */
void game_determinize_none(void *state, int observer, pcg32_t *rng);

/* 1-based ranks of a finished game through api->ranks, or from its result. */
void game_ranks(const game_api_t *api, const void *state, int *ranks);

/* Options with every field at its default (players 0: the caller must set them). */
void game_options_default(game_options_t *opt);
/*
 * Adds a game option "key=value" (text is kept, not copied), replacing an earlier value of
 * the same key: 0, or -1 with err filled if text has no key or no '=', or the list is full.
 * The game is not asked: game_options_check does that.
 */
int game_options_add(game_options_t *opt, const char *text, char *err, size_t errlen);
/* The value of option key, or NULL if it is not set. */
const char *game_options_get(const game_options_t *opt, const char *key);
/*
 * Checks every option of opt against the game: a key it has (api->options) and a value it
 * takes (api->option_check). 0, or -1 with err one line naming the valid keys or values.
 */
int game_options_check(const game_api_t *api, const game_options_t *opt, char *err, size_t errlen);
/* The keys of the game's options joined by ", " into buf[len] ("" if it has none). */
const char *game_option_keys(const game_api_t *api, char *buf, size_t len);

/*
 * Game result vector from 1-based ranks (ties share the smaller rank):
 * (players beaten + 1/2 players tied) / (players - 1).
 */
void game_result_from_ranks(int players, const int *ranks, double *res);

/* 1-based ranks from keys compared lexicographically: better is greater primary, then
   greater secondary. Equal on both keys share the smaller rank. */
void game_ranks_from_keys(int players, const int *primary, const int *secondary, int *ranks);

/* Leaf count of the move tree to depth (bulk counting: the last ply is counted, not made).
   A position not over but without moves stops the count: game_perft_checked reports it. */
uint64_t game_perft(const game_api_t *api, void *state, int depth);
/* The same count with every leaf made and undone (measures make/undo). */
uint64_t game_perft_full(const game_api_t *api, void *state, int depth);
/* Either count (full: every leaf made), into *count: 0, or -1 with err naming the moves
   to a position met that is not over but has no legal move (counting stops there). */
int game_perft_checked(const game_api_t *api, void *state, int depth, bool full, uint64_t *count,
                       char *err, size_t errlen);
