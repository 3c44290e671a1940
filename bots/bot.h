#pragma once
/*
 * Bots: players made from a spec string (FORMATS.md §6), NAME[:key=value[,key=value...]].
 * A bot decides from what its player can see: it may call the game's determinize, never
 * read hidden parts of the state.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/game.h"

#define BOT_SPEC_MAX_KEYS 16
#define BOT_SPEC_TEXT_MAX 256

/* A parsed spec string. */
typedef struct bot_spec {
    char name[32];                                     /* bot name, e.g. "mcts" */
    int key_count;                                     /* number of key=value pairs */
    char keys[BOT_SPEC_MAX_KEYS][32];                  /* keys in the order given */
    char values[BOT_SPEC_MAX_KEYS][BOT_SPEC_TEXT_MAX]; /* their values, as text */
} bot_spec_t;

typedef struct bot bot_t;
struct mcts_stats;

/* Room for one kind's statistics accumulator (bot_kind_t.stats_add). */
#define BOT_STATS_MAX 128

/* One kind of bot: its name and its operations. */
typedef struct bot_kind {
    const char *name; /* name in specs */
    const char *help; /* one line: what it is and its keys */
    /* Reads the spec's keys into a new b->impl: 0, or -1 with err naming the bad key/value. */
    int (*init)(bot_t *b, const bot_spec_t *spec, char *err, size_t errlen);
    move_t (*choose)(bot_t *b, const void *state);
    void (*observe)(bot_t *b, const void *state, move_t m); /* may be NULL */
    void (*reset)(bot_t *b);                                /* may be NULL */
    void (*destroy)(bot_t *b);                              /* may be NULL */
    void (*print_keys)(FILE *out); /* may be NULL: prints the keys, one a line (--help) */
    /* A game starts: the bot sits at seat of initial, made from opt. May be NULL. */
    void (*begin)(bot_t *b, const void *initial, const game_options_t *opt, int seat);
    /* The game ended with result per seat (a forfeit's, if one ended it). May be NULL. */
    void (*end)(bot_t *b, const double *result);
    /*
     * Statistics hook, for a harness that sums what bots did without knowing their kind
     * (both NULL: the kind keeps none). stats_add adds what b did since it was made (its
     * searches, iterations, ...) to acc, the kind's accumulator of at most BOT_STATS_MAX
     * bytes, zeroed at first. stats_print prints n accumulators (NULL entries skipped) as
     * one table, rows labelled labels[i] under the column head label; nothing if none holds
     * anything to show.
     */
    void (*stats_add)(const bot_t *b, void *acc);
    void (*stats_print)(FILE *out, const char *label, const char *const *labels,
                        const void *const *accs, int n);
    /* May be NULL: the statistics of b's last search (root moves with their visits and
       means; search/mcts.h), or NULL if it has not searched since its last reset. */
    const struct mcts_stats *(*last_search)(const bot_t *b);
    /* May be NULL: the harness's time control before each of the bot's moves (bot_clock):
       left_ms on its clock (-1: no game clock), inc_ms added after the move, move_ms the
       limit of this move (0: none). A kind budgets its next search by it. */
    void (*clock)(bot_t *b, long left_ms, long inc_ms, long move_ms);
    /* May be NULL (any count): 0 if b can play games of `players` players, else -1 with
       err one line (an mcts bot's net for another count). */
    int (*check_players)(const bot_t *b, int players, char *err, size_t errlen);
} bot_kind_t;

/*
 * Statistics of bots summed over bots and games (bot_kind_t.stats_add) without knowing
 * their kind. Zero-initialised: empty.
 */
typedef struct bot_stats {
    const bot_kind_t *kind;                         /* whose accumulator data is; NULL: none */
    _Alignas(16) unsigned char data[BOT_STATS_MAX]; /* the kind's accumulator */
} bot_stats_t;

/* Buffer sizes of a bot's fault reason and detail. */
#define BOT_FAULT_MAX        16
#define BOT_FAULT_DETAIL_MAX 160

struct bot {
    const game_api_t *api;        /* the game played */
    const bot_kind_t *kind;       /* what kind of bot */
    char spec[BOT_SPEC_TEXT_MAX]; /* the spec string it was made from */
    uint64_t seed;                /* seed given at creation or the last reset */
    pcg32_t rng;                  /* the bot's own random numbers */
    int threads;                  /* threads it uses while choosing (for scheduling) */
    void *impl;                   /* kind-specific data */
    /* "" or why the bot forfeits the game under way (core/forfeit.h): exit, closed,
       illegal, garbage, timeout, quit. Set by its kind, cleared by bot_begin. */
    char fault[BOT_FAULT_MAX];
    char fault_detail[BOT_FAULT_DETAIL_MAX]; /* what happened, for the record */
    int undo_to; /* -1, or the move count a human seat takes the game back to */
};

/* Parses spec text: 0, or -1 with err saying what is malformed. */
int bot_spec_parse(const char *text, bot_spec_t *spec, char *err, size_t errlen);
/* Value parsers for kinds: 0, or -1 with err naming key and value. */
int bot_spec_int(const char *key, const char *value, long lo, long hi, long *out, char *err,
                 size_t errlen);
int bot_spec_double(const char *key, const char *value, double lo, double hi, double *out,
                    char *err, size_t errlen);

/* A new bot for api from spec, seeded with seed: NULL with err filled if spec is bad. */
bot_t *bot_new(const game_api_t *api, const char *spec, uint64_t seed, char *err, size_t errlen);
/* What bot_choose returns when state has no legal move. */
#define BOT_NO_MOVE ((move_t)0xffffffffu)

/* A legal move for the player to move in state (not terminal). A state without legal
   moves (the engines rule it out) faults the bot (bot_faulted says why: an engine bug)
   and returns BOT_NO_MOVE; the library never exits. */
move_t bot_choose(bot_t *b, const void *state);
/* Tells the bot that m is played in state (by any player), before it is made. */
void bot_observe(bot_t *b, const void *state, move_t m);
/* 0 if b can play games of `players` players, else -1 with err one line naming the bot
   (bot_kind_t.check_players): harnesses call it before their games, so that such a bot is
   refused at once instead of forfeiting every game. */
int bot_check_players(const bot_t *b, int players, char *err, size_t errlen);
/* Forgets the game so far and reseeds: ready for a new game. Clears any fault (after
   the kind's reset, which replaces a faulted ext: program with a fresh one). */
void bot_reset(bot_t *b, uint64_t seed);
/* A game starts (after bot_reset), the bot at seat: clears any fault, then tells the kind. */
void bot_begin(bot_t *b, const void *initial, const game_options_t *opt, int seat);
/* The game ended with result per seat. */
void bot_end(bot_t *b, const double *result);
/* Marks the bot as forfeiting the game under way, for reason (printf-style detail). */
void bot_fault(bot_t *b, const char *reason, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* True if the bot forfeits (its last choice is not its own: an ext: program exited or
   answered garbage), with "bot 'SPEC' forfeits: REASON (DETAIL)" in buf. Harnesses that
   ask for choices out of games (analyse, quality, the C API) must check it after
   bot_choose; bot_reset clears it. */
bool bot_faulted(const bot_t *b, char *buf, size_t len);
void bot_free(bot_t *b);

/* Adds what b did to *acc (nothing if b's kind keeps no statistics, or acc holds another
   kind's). */
void bot_stats_add(bot_stats_t *acc, const bot_t *b);
/* Prints n bots' statistics (stats[i] labelled labels[i], under the column head label):
   one table per kind that has some; nothing if none has. */
void bot_stats_print(FILE *out, const char *label, const char *const *labels,
                     const bot_stats_t *stats, int n);
/* Tells b the harness's time control before its move (bot_kind_t.clock); nothing if its
   kind takes none. */
void bot_clock(bot_t *b, long left_ms, long inc_ms, long move_ms);
/* Reads a time control "BASE" or "BASE+INC" in milliseconds (BASE 1 .. 10^9, INC 0 ..
   10^9): 0, or -1 with err naming key and value. */
int bot_tc_parse(const char *key, const char *text, long *base_ms, long *inc_ms, char *err,
                 size_t errlen);
/* The statistics of b's last search (bot_kind_t.last_search), or NULL if it has none. */
const struct mcts_stats *bot_last_search(const bot_t *b);

/* The registered kinds, NULL-terminated (for --help texts). */
extern const bot_kind_t *const bot_kinds[];
