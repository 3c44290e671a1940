#pragma once
/*
 * Game records (FORMATS.md §4, docs/ADDING_A_GAME.md §5): the one writer of a record's envelope,
 * the one checker and replay loop, and the position at a ply. A game supplies only its own
 * keys and set-up through its record_hooks_t (game_api_t.record); everything else - the
 * keys "game", "format", "players", "seats", "seed", "first_player", "moves",
 * "legal_counts", "engine", forfeits, the comparison of "result" - is written and checked
 * here, in one wording:
 *   record: KEY must be ...              a key missing or of the wrong type or range
 *   move I (TEXT): WHY                   move index I of the record (from 0) is refused
 *   result: KEY are/is A in the record but B by the rules
 */
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

struct json_t;

/* Most moves a game plays before its record's start that the record lists first. */
#define RECORD_PREFIX_MAX 16

/* What a record's envelope says, checked (record_envelope). */
typedef struct record_envelope {
    int players;
    int first_player;
    uint64_t seed;
    const struct json_t *moves;  /* the list of move texts */
    const struct json_t *counts; /* legal_counts, or NULL */
    int move_count;
} record_envelope_t;

/*
 * A game's part of its records. Every entry but result and first_player is optional
 * (NULL): a game without chance events beyond its options (Connect Four) fills only those
 * two; its records start from new_game with the record's players, seed and first player.
 */
typedef struct record_hooks {
    /* ---- writing ---- */
    /* The first player of a game at its start. */
    int (*first_player)(const void *initial);
    /* The seed the record names (NULL: the options' seed, 0 without options). */
    uint64_t (*seed)(const void *initial);
    /* Keys between "format" and "players" (Tower Up's "board"). */
    void (*head_keys)(struct json_t *rec, const void *initial, const game_options_t *opt);
    /* Keys between "first_player" and "moves": the game's set-up (deck, piles...). */
    void (*setup_keys)(struct json_t *rec, const void *initial);
    /*
     * The state the record's moves start from into start, and the moves the game made
     * before initial that the record lists first (Tower Up's random set-up placements)
     * into prefix[RECORD_PREFIX_MAX], their count in *nprefix. 0, or -1 if initial cannot
     * be written as a record. NULL: the moves start at initial.
     */
    int (*write_start)(const void *initial, void *start, move_t *prefix, int *nprefix);
    /* After move m took before to after while writing: the chance events it brought about
       into the game's own keys of rec (Tower Up's reshuffles). */
    void (*write_move)(struct json_t *rec, const void *before, const void *after, move_t m);
    /* The "result" object of state (a new reference), or NULL for none; the writer asks
       only for a state that is over, unless result_always. */
    struct json_t *(*result)(const void *state);
    /* Write "result" whether or not the game is over (Uptown's standings so far). */
    bool result_always;

    /* ---- reading ---- */
    /*
     * The start of a record's game into state, from the checked envelope and the game's own
     * keys. 0, or -1 with err one line ("record: KEY ..."). NULL: new_game from the
     * envelope's players, seed and first player.
     */
    int (*read_start)(const struct json_t *rec, const record_envelope_t *env, void *state,
                      char *err, size_t errlen);
    /*
     * After move m took before to state in a replay: the chance events it brought about,
     * from the record into state. *used counts the game's own events consumed so far (0
     * at the start). 0, or -1 with err one line (the caller names the move).
     */
    int (*read_move)(const struct json_t *rec, const void *before, void *state, move_t m, int *used,
                     char *err, size_t errlen);
    /* After a whole replay: every event of the record used (used as read_move left it).
       0, or -1 with err one line. */
    int (*read_end)(const struct json_t *rec, const void *state, int used, char *err,
                    size_t errlen);
    /*
     * How many of rec's first moves are a set-up the engine drew at random (Tower Up's
     * setup=random placements, those its seed draws from start, the record's start): part
     * of a new game's initial position, not plies of its players. NULL: none.
     */
    int (*random_setup)(const struct json_t *rec, const void *start);
} record_hooks_t;

/*
 * The record (a new JSON object) of a game that started at initial (made by new_game with
 * opt, which may be NULL) and went through moves; legal_counts (one per move) may be NULL;
 * seats has a bot spec per player or is NULL (empty specs). NULL if a move is illegal or
 * initial cannot be written.
 */
struct json_t *record_new(const game_api_t *api, const void *initial, const game_options_t *opt,
                          const move_t *moves, int move_count, const int *legal_counts,
                          const char *const *seats);

/*
 * Extension point for keys with one entry per move (the search's figures, who moved):
 * adds key to rec with list (a JSON list, reference stolen), after "engine" as every key
 * FORMATS.md does not name. The entries are those of the moves the game's players made,
 * so they line up with the end of "moves" (Tower Up's random set-up placements, listed
 * first in "moves", have none). 0, or -1 (list not a list, or longer than "moves"; then
 * list is freed).
 */
int record_add_per_move(struct json_t *rec, const char *key, struct json_t *list);

/*
 * Checks the envelope of rec as a record of api's game into *env: 0, or -1 with err one
 * line naming the key at fault.
 */
int record_envelope(const game_api_t *api, const struct json_t *rec, record_envelope_t *env,
                    char *err, size_t errlen);

/*
 * The position of rec's game after its first ply moves (-1: all) into state (state_size
 * bytes). Returns the record's move count, or -1 with err filled: not a record of this
 * game, an illegal move, a ply beyond the game. The result is not compared.
 */
int record_position(const game_api_t *api, const struct json_t *rec, int ply, void *state,
                    char *err, size_t errlen);

/*
 * record_position that also calls each (unless NULL) with ctx before every move it plays:
 * the move's index, the position before it and the move. *random_setup (may be NULL) gets
 * the number of the record's first moves that are a random set-up (record_hooks_t).
 */
typedef void (*record_each_t)(void *ctx, int index, const void *before, move_t m);
int record_position_each(const game_api_t *api, const struct json_t *rec, int ply, void *state,
                         record_each_t each, void *ctx, int *random_setup, char *err,
                         size_t errlen);

/*
 * Re-plays a record with the engine's rules: 0 if every move is legal and the stored
 * result (and legal_counts, if present; a forfeit) match; else -1 and err names the first
 * key or move that fails, with the reason.
 */
int record_replay(const game_api_t *api, const struct json_t *rec, char *err, size_t errlen);

/*
 * The position of one record line (JSON text) after ply moves (-1: all), for callers
 * without JSON (api/, Python): a new state (free() it) of the game the record names
 * (*api), its move count in *moves (may be NULL). NULL with err one line.
 */
void *record_line_position(const char *line, int ply, const game_api_t **api, int *moves, char *err,
                           size_t errlen);

/*
 * What a record says of its game's outcome, read without the rules, for the readers that
 * do not replay (rate, tournament and generate resume): each field as the record has it,
 * or unset where the record lacks it or has it out of range; each reader says what it
 * needs.
 */
typedef struct record_outcome {
    const char *game;                    /* "game", or NULL */
    int players;                         /* "players" from 2 to GAME_MAX_PLAYERS, else 0 */
    int seat_count;                      /* entries of "seats" (-1: not a list) */
    const char *seats[GAME_MAX_PLAYERS]; /* the first players specs, NULL where not a string */
    bool has_seed;                       /* "seed" is an integer (negative ones included) */
    uint64_t seed;                       /* its value */
    bool has_ranks;                      /* result.ranks holds players integers 1..players */
    int ranks[GAME_MAX_PLAYERS];         /* then these */
    int forfeit_seat;                    /* forfeit.seat if in [0, players), else -1 */
    const char *forfeit_reason;          /* forfeit.reason, or NULL */
    /* The game's own scores (result under its score_key; a game not known: the first such
       key of any game the result holds): 0 none, 1 players numbers in scores, -1 there but
       not a list of players numbers. */
    int has_scores;
    double scores[GAME_MAX_PLAYERS];
} record_outcome_t;

void record_outcome(const struct json_t *rec, record_outcome_t *out);
