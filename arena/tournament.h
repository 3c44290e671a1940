#pragma once
/*
 * Fair multi-player tournaments between bots, resumable from their record file.
 *
 * Games come in blocks of one game per seat rotation: a block plays one deal (one game
 * seed, so the same piles and the same first seat) once for every rotation of its line-up
 * over the seats, so that seat order and luck cancel. Line-ups cycle through every
 * combination of bots (round robin) or of the others with bot 0 (gauntlet), in an order
 * drawn from the seed, so every pair meets equally often per cycle. Game i's seed and
 * seating depend only on the tournament seed, i and the bot list.
 */
#include <stdbool.h>
#include <stdint.h>

#include "arena/match.h"
#include "arena/openings.h"
#include "arena/rating.h"
#include "bots/bot.h"
#include "core/game.h"

#define TOURNAMENT_MAX_BOTS  32
#define TOURNAMENT_MAX_GAMES 10000000L
/* Length of the configuration hash text, terminator excluded. */
#define TOURNAMENT_HASH_LEN 16

typedef enum tournament_format {
    TOURNAMENT_ROUNDROBIN, /* every combination of bots */
    TOURNAMENT_GAUNTLET,   /* bot 0 in every game, the others in every combination */
} tournament_format_t;

/* Who plays a tournament's games, and how they are seated. */
typedef struct tournament_schedule {
    int bot_count;              /* bots in the tournament */
    int players;                /* seats per game: also the games per block */
    tournament_format_t format; /* how line-ups are formed */
    uint64_t seed;              /* the tournament seed S */
    long lineup_count;          /* line-ups per cycle */
    int *lineups;               /* lineup_count * players bot ids */
} tournament_schedule_t;

/* Builds the line-ups: 0, or -1 with err filled (too many, or out of memory). */
int tournament_schedule_init(tournament_schedule_t *s, int bot_count, int players,
                             tournament_format_t format, uint64_t seed, char *err, size_t errlen);
void tournament_schedule_free(tournament_schedule_t *s);
/* Game index's seed (shared by its block) and bot id per seat. */
void tournament_schedule_game(const tournament_schedule_t *s, long index, uint64_t *game_seed,
                              int *seat_bots);

/*
 * Games played elsewhere (the MPI run, mpi/): fills game index's record line (malloc'ed,
 * ending in '\n'), ranks and forfeit seat (-1: none) for worker slot; 0, or -1 with err.
 */
typedef struct tournament_remote {
    int (*play)(void *ctx, int slot, long index, char **line, int *ranks, int *forfeit, char *err,
                size_t errlen); /* plays one game on another process */
    void *ctx;                  /* its state */
} tournament_remote_t;

/* Everything a tournament is run from. */
typedef struct tournament_config {
    const game_api_t *api;                  /* the game */
    game_options_t opt;                     /* game options; opt.seed is the tournament seed */
    int bot_count;                          /* bots */
    const char *specs[TOURNAMENT_MAX_BOTS]; /* their specs, in --bot order */
    long games;                             /* K: games of the whole tournament */
    tournament_format_t format;             /* round robin or gauntlet */
    int shard_index;                        /* this shard plays blocks b with b % N == I */
    int shard_count;                        /* N (1: no sharding) */
    int workers;                            /* parallel games (0: from cores and bot threads) */
    bool sprt;                              /* run an SPRT between bots 0 and 1 */
    bool sprt_per_game;                     /* one SPRT outcome per game, not per seat pair */
    rating_sprt_t sprt_config;              /* its bounds (from rating_sprt_parse) */
    const char *out_path;                   /* record file, appended to and resumed from */
    int progress;                           /* 0 none, 1 plain lines, 2 refreshed in place */
    double progress_interval;               /* seconds between plain progress lines */
    const tournament_remote_t *remote;      /* NULL, or who plays the games (workers slots) */
    bool record_search;                     /* records hold each search's figures */
    match_clock_t clock;                    /* time control (all zero: none) */
    const openings_t *openings;             /* start positions (NULL: none): block b plays
                                               opening b mod count, its deal and moves */
} tournament_config_t;

/* What a run leaves for the summary. */
typedef struct tournament_report {
    long shard_games;     /* games of [0, K) in this shard */
    long resumed;         /* of those, already in the file */
    long played;          /* played by this run */
    long workers;         /* workers used */
    double seconds;       /* wall time of this run */
    rating_table_t table; /* standings over the shard's finished games, as rate's */
    rating_game_t *games; /* those games, in index order */
    long game_count;      /* their number */
    rating_sprt_t sprt;   /* SPRT state over contiguous finished games, in index order */
    long sprt_games;      /* games that fed the SPRT */
    long sprt_stop_index; /* game index at which the verdict came, or -1 */
    char hash[TOURNAMENT_HASH_LEN + 1]; /* configuration hash written in the records */
    /* Per bot, its kind's statistics (bot_stats_add: searches, ...) over the games this
       run played (not the resumed ones); empty for kinds that keep none. */
    bot_stats_t stats[TOURNAMENT_MAX_BOTS];
} tournament_report_t;

/* The configuration hash (game, options, seed, format, bot list, time control and openings
   if any: not K, shard or workers). */
void tournament_config_hash(const tournament_config_t *cfg, char *out);
/* Default worker count: max(1, cores / most threads of any bot). */
int tournament_default_workers(int max_bot_threads);

/* A process's bot instances for tournament_game_play, made on first use (NULL: not yet). */
typedef bot_t *tournament_bots_t[GAME_MAX_PLAYERS][TOURNAMENT_MAX_BOTS];

/*
 * Plays game index of the tournament (sched and hash from cfg) with bots and makes its
 * record line (malloc'ed, ending in '\n'), ranks and forfeit seat: 0, or -1 with err.
 */
int tournament_game_play(const tournament_config_t *cfg, const tournament_schedule_t *sched,
                         const char *hash, tournament_bots_t bots, long index, char **line,
                         int *ranks, int *forfeit, char *err, size_t errlen);

/*
 * Runs (or resumes) the tournament: 0, or -1 with err filled (a one-line message: bad
 * file, other configuration, write error). Free the report with tournament_report_free.
 */
int tournament_run(const tournament_config_t *cfg, tournament_report_t *rep, char *err,
                   size_t errlen);
void tournament_report_free(tournament_report_t *rep);
