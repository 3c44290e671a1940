#pragma once
/* One game between bots, start to end, with its record: shared by play, tournament, tune. */
#include <stdbool.h>

#include "bots/bot.h"

struct json_t;

/* What a finished game leaves. */
typedef struct match_result {
    int players;                        /* player count */
    double result[GAME_MAX_PLAYERS];    /* game result per seat (RULES.md 1.10) */
    int ranks[GAME_MAX_PLAYERS];        /* 1-based ranks per seat */
    int moves;                          /* moves played, set-up included */
    int forfeit_seat;                   /* -1, or the seat that forfeited the game */
    char forfeit_reason[BOT_FAULT_MAX]; /* its reason (core/forfeit.h), or "" */
    struct json_t *record;              /* the game record (FORMATS.md §4); caller decrefs */
    double used_ms[GAME_MAX_PLAYERS];   /* wall time each seat's bot spent choosing */
} match_result_t;

/* A time control the driver enforces on every bot (all zero: none). */
typedef struct match_clock {
    long base_ms; /* each seat's game clock (0: none) */
    long inc_ms;  /* added to it after each of the seat's moves */
    long move_ms; /* the most one move may take (0: no limit) */
} match_clock_t;

/* True if c sets a time control. */
static inline bool match_clock_on(const match_clock_t *c)
{
    return c && (c->base_ms > 0 || c->move_ms > 0);
}

/*
 * Plays a game of api with opt, seat s played by bots[s]; every bot is reset with a seed
 * derived from opt->seed and its seat, begins the game, observes every move and is told
 * the end. A bot that faults (bot_fault) forfeits: the game ends there, that seat ranked
 * last and the others first, and the record holds the forfeit (core/forfeit.h). A seat
 * that asks for an undo (bot_t.undo_to) takes the game back to that move count: every
 * bot begins again and observes the moves kept. With record_legal the record holds
 * legal_counts. Returns 0, or -1 with err filled (bad options).
 */
int match_play(const game_api_t *api, const game_options_t *opt, bot_t *const *bots,
               bool record_legal, match_result_t *out, char *err, size_t errlen);

/* Candidate moves a record keeps per searched move (match_play_search). */
#define MATCH_SEARCH_TOP 5

/*
 * match_play, and with record_search the record's "search" list holds, per move, what the
 * mover's search saw (null for a bot that did not search or a move without choice):
 * {"iters", "ms", "value_pm", "top": [{"move", "visits", "mean_pm"} ...]}: iterations,
 * wall time in ms, the value of the chosen move and the MATCH_SEARCH_TOP most visited root
 * moves with their visits and mean result, values in thousandths. Every record also gets
 * "movers": the player who made each move (extra turns make it not simply the next seat).
 */
int match_play_search(const game_api_t *api, const game_options_t *opt, bot_t *const *bots,
                      bool record_legal, bool record_search, match_result_t *out, char *err,
                      size_t errlen);

/* What a game may be played under beyond its options (zero-initialised: nothing). */
typedef struct match_setup {
    match_clock_t clock;   /* time control (all zero: none) */
    const move_t *opening; /* moves played first, from the start, asking no bot (NULL: none) */
    int opening_plies;     /* their number */
    bool bot_seed_given;   /* bots are seeded from bot_seed, not from the game seed */
    uint64_t bot_seed;     /* that seed */
    bool record_policy;    /* the record gets "policy": per move, the search's visits per
                              action id and its root value (match_policy_json) */
} match_setup_t;

/*
 * What bot b's last search saw at state (before its move) as a "policy" entry of a record
 * (FORMATS.md section 4, docs/NETS.md): {"iters": I, "ids": [...], "visits": [...],
 * "value_pm": [...]}: the action ids of the root moves with visits, ascending, their visits,
 * and the search's mean result per seat in thousandths. JSON null for a bot that did not
 * search, a move without choice, or a game without action ids.
 */
struct json_t *match_policy_json(const game_api_t *api, const bot_t *b, const void *state);

/*
 * match_play_search with setup (NULL: none). Opening moves are made first, each told to
 * every bot as if played (a move not legal there fails the call with err). Under the time
 * control clock, before each move the mover's bot is told its clock (bot_clock); the wall
 * time of its choice is taken from its clock and the increment added after. A move that
 * takes longer than move_ms, or than the time left on the clock, forfeits the game with
 * reason "timeout" (a loss on time). With a clock, the record gets "clock": {"base_ms",
 * "inc_ms", "move_ms", "used_ms": [per seat]} (arena/TOURNAMENT.md).
 */
int match_play_setup(const game_api_t *api, const game_options_t *opt, bot_t *const *bots,
                     bool record_legal, bool record_search, const match_setup_t *setup,
                     match_result_t *out, char *err, size_t errlen);
