#pragma once
/*
 * Statistics of multi-player tournaments: per-bot summaries, a pairwise table, ratings
 * from a Bradley-Terry model over the pairwise outcomes inside each game (maximum
 * likelihood by Newton's method, MM iterations beyond 64 bots; error bars and likelihood
 * of superiority by a seeded bootstrap over games),
 * and the SPRT on A-versus-B outcomes. Bots are small integer ids; specs live elsewhere.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/game.h"

struct json_t;

/* The anchor rule of every printed rating: the mean rating of the bots is 0. */
#define RATING_ANCHOR_MEAN (-1)
/* Bootstrap resamples and seed of every printed table (tournament summary and rate). */
#define RATING_BOOTSTRAP_DEFAULT 200
#define RATING_BOOTSTRAP_SEED    1
/* Room for a bot label ("A" to "Z", "AA" ...) with its terminator. */
#define RATING_LABEL_MAX 8

/* One finished game as the statistics see it. */
typedef struct rating_game {
    int players;                      /* player count */
    int bots[GAME_MAX_PLAYERS];       /* bot id per seat */
    int ranks[GAME_MAX_PLAYERS];      /* 1-based rank per seat, ties share the smaller rank */
    double scores[GAME_MAX_PLAYERS];  /* game-specific score per seat (if has_scores) */
    bool has_scores;                  /* scores were in the record */
    bool forfeit;                     /* the game ended by a forfeit (core/forfeit.h) */
    int forfeit_seat;                 /* the seat that forfeited, if forfeit */
    int listed[GAME_MAX_PLAYERS];     /* per seat, 1 + its bot's place in the tournament's
                                        --bot list ("tournament":{"bots"}), 0: not known */
    bool keyed;                       /* a tournament game: config and index are its key */
    uint64_t config;                  /* its tournament's configuration hash */
    long index;                       /* its game index in that tournament */
    bool clocked;                     /* played under a time control (record's "clock") */
    bool time_loss;                   /* the forfeit was a loss on time (reason timeout) */
    double used_ms[GAME_MAX_PLAYERS]; /* if clocked: the time each seat's moves took */
} rating_game_t;

/* A's outcome against B inside one game: 1 if A ranked better, 1/2 tied, 0 worse. */
static inline double rating_pair_outcome(int rank_a, int rank_b)
{
    return rank_a < rank_b ? 1.0 : rank_a == rank_b ? 0.5 : 0.0;
}

/* Per-bot summary. */
typedef struct rating_bot {
    long games;         /* games the bot played (a bot in two seats counts each seat) */
    double result;      /* mean game result (RULES.md 1.10); NAN without games */
    double result_ci95; /* half-width of its 95% interval; NAN when there is none */
    double mean_rank;   /* mean 1-based rank; NAN without games */
    double mean_score;  /* mean game-specific score over seats with a score */
    long scored;        /* seats that had a score */
    long forfeits;      /* games it forfeited (an external bot's fault, a human's quit) */
    long clocked;       /* seats under a time control */
    double clock_s;     /* seconds its moves took in those */
    long time_losses;   /* games it lost on time */
    double elo;         /* Bradley-Terry rating on the Elo scale, anchored (see anchor) */
    double elo_ci95;    /* half-width of the 95% bootstrap interval of elo (0: anchor bot) */
    double los_next;    /* P(this bot is stronger than the next one in rating order) */
} rating_bot_t;

/* Everything rate prints. Arrays are indexed by bot id; pair arrays by a*bot_count+b. */
typedef struct rating_table {
    int bot_count;      /* bots */
    long game_count;    /* games */
    int anchor;         /* bot id whose rating is fixed at 0, or RATING_ANCHOR_MEAN */
    rating_bot_t *bots; /* per-bot summaries */
    double *pair_score; /* A's mean outcome against B in games where both sat */
    long *pair_count;   /* number of A-versus-B outcomes */
    int *order;         /* bot ids sorted by rating, best first */
    int *group;         /* per bot: its group (bots that scored against each other, directly
                           or through others), numbered down the table; -1: no games */
    int group_count;    /* groups: more than one means the games leave some gap unbounded */
} rating_table_t;

/*
 * Groups the bots of t (bots reaching each other through "scored at least a tie against")
 * and drops what the games do not bound: an interval of a rating whose gap to the anchor
 * crosses groups, and the LOS of neighbours in different groups. Called by
 * rating_table_compute; 0, or -1 if out of memory.
 */
int rating_table_groups(rating_table_t *t);

/* The gap between group k and group k + 1 of a table. */
typedef struct rating_separation {
    long comparisons;   /* in-game comparisons between the two groups' bots */
    bool upper_won;     /* group k won them all (else group k + 1 did) */
    double score_bound; /* one-sided 95% lower bound of the winners' mean score: 0.05^(1/n) */
    double elo_bound;   /* the same on the Elo scale */
} rating_separation_t;

/* Fills s for the gap below group k: 0, or -1 if there is no group k + 1. */
int rating_separation(const rating_table_t *t, int k, rating_separation_t *s);
/* Prints the separation note (nothing when the table has one group); labels by bot id. */
void rating_separation_print(FILE *out, const rating_table_t *t, const char *const *labels);

/*
 * The 95% interval half-width of a mean result from n results, their sum and sum of
 * squares (1.96 standard errors); NAN where the normal interval says nothing: fewer than
 * two results, or all of them equal (zero variance: n lost games do not make a loss
 * certain; the rule of three bounds the mean by 3/n instead).
 */
double rating_mean_ci95(long n, double sum, double sum2);

/* A bot's short label from its id: 0 "A" ... 25 "Z", 26 "AA" ... (buf: RATING_LABEL_MAX). */
void rating_label(int id, char *buf);

/*
 * The one labelling rule of every table (tournament summary, rate, report): a bot that a
 * tournament record places (rating_game_t.listed) is labelled by its place in the --bot
 * list (place 0 "A", 1 "B" ...); bots that no record places (older tournament files, play
 * records) follow, in bot id order (order of first appearance). Two bots claiming one place
 * (files of two tournaments) take the next free labels. Fills labels[id] and, if order is
 * not NULL, order[k] = the bot with the k-th label (so order[0] is the SPRT's A). Returns 0,
 * or -1 if out of memory.
 */
int rating_labels(const rating_game_t *games, long game_count, int bot_count,
                  char (*labels)[RATING_LABEL_MAX], int *order);

/*
 * Fits Bradley-Terry strengths on the Elo scale to the pairwise outcomes inside the games
 * (weights: per game multiplicity, NULL for 1 each). Every bot gets a weak prior (one
 * virtual draw against a 0-rated player) so that the fit exists for any data. elo[] holds
 * a start value on entry (zeros are fine) and the fit on return, with bot anchor at 0, or
 * with mean 0 for RATING_ANCHOR_MEAN.
 */
void rating_fit_bt(const rating_game_t *games, long game_count, const int *weights, int bot_count,
                   int anchor, double *elo);

/*
 * Computes the whole table; bootstrap resamples (0: no error bars) with a fixed seed.
 * Returns 0, or -1 if out of memory. Free with rating_table_free.
 */
int rating_table_compute(const rating_game_t *games, long game_count, int bot_count, int anchor,
                         int bootstrap, uint64_t seed, rating_table_t *t);
void rating_table_free(rating_table_t *t);

/*
 * Prints the standings (bots by rating: rank, label, Elo with its interval, LOS, seats,
 * mean result with its interval, mean rank, mean score if any record had one, and the full
 * spec), preceded by a line naming the model, the anchor and the bootstrap; with pairwise,
 * the pairwise table by labels follows. The tournament summary and rate share it, so one
 * file gives one table. specs and labels are indexed by bot id.
 */
void rating_table_print(FILE *out, const rating_table_t *t, const char *const *specs,
                        const char *const *labels, int bootstrap, bool pairwise);

/*
 * Game pairs of two-player tournaments: partner[g] is the other game of game g's block
 * (the same tournament, indices 2k and 2k + 1, the same two bots with the seats swapped),
 * or -1. 0, or -1 if out of memory.
 */
int rating_pair_partners(const rating_game_t *games, long game_count, long *partner);
/* Bot a's points (0, 1/2, 1, 3/2 or 2) over the two games of a pair. */
double rating_pair_points(const rating_game_t *first, const rating_game_t *second, int a);

/* The pentanomial model of A against B over complete game pairs (arena/TOURNAMENT.md). */
typedef struct rating_ptnml {
    long counts[5]; /* pairs in which A scored 0, 1/2, 1, 3/2, 2 points */
    long pairs;     /* complete pairs */
    long unpaired;  /* A-versus-B games without their pair (not counted) */
    double score;   /* A's mean score per game over the pairs; NAN without pairs */
    double se;      /* its standard error, from the variance of the pairs' scores */
    double elo;     /* the logistic Elo of score (infinite at 0 and 1) */
    double elo_lo;  /* the Elo of score - 1.96 se */
    double elo_hi;  /* the Elo of score + 1.96 se */
} rating_ptnml_t;

/* Fills p from the five counts. */
void rating_ptnml_from_counts(const long *counts, long unpaired, rating_ptnml_t *p);
/* Fills p for bots a and b of the games: 0, or -1 if out of memory. */
int rating_ptnml_games(const rating_game_t *games, long game_count, int a, int b,
                       rating_ptnml_t *p);
/* Prints the pentanomial table of every two bots with complete pairs (nothing if none),
   pairs in label order (by_label[k]: the bot with the k-th label; NULL: id order). */
void rating_ptnml_print(FILE *out, const rating_game_t *games, long game_count, int bot_count,
                        const char *const *labels, const int *by_label);

/* SPRT configuration and state (logistic Elo model, generalised SPRT on W/D/L counts). */
typedef struct rating_sprt {
    double elo0;      /* H0: the Elo difference A - B is elo0 */
    double elo1;      /* H1: it is elo1 (> elo0) */
    double alpha;     /* false-positive rate (accepting H1 under H0) */
    double beta;      /* false-negative rate (accepting H0 under H1) */
    double lower;     /* log(beta / (1 - alpha)): accept H0 at or below */
    double upper;     /* log((1 - beta) / alpha): accept H1 at or above */
    double wins;      /* A's wins against B (weighted outcomes) */
    double draws;     /* draws */
    double losses;    /* A's losses */
    double llr;       /* log-likelihood ratio of the outcomes so far */
    int verdict;      /* 0: continue, 1: H1 accepted, -1: H0 accepted */
    bool pentanomial; /* fed game pairs (rating_sprt_add_pair): the LLR is over pairs */
    double ptnml[5];  /* pairs in which A scored 0, 1/2, 1, 3/2, 2 points */
} rating_sprt_t;

/* Parses "elo0,elo1,alpha,beta" and resets: 0, or -1 with err saying what is wrong. */
int rating_sprt_parse(const char *text, rating_sprt_t *s, char *err, size_t errlen);
/* Resets counts and verdict for the given bounds. */
void rating_sprt_init(rating_sprt_t *s, double elo0, double elo1, double alpha, double beta);
/*
 * Log-likelihood ratio of W/D/L counts for H1 against H0 (0 without outcomes): under each
 * hypothesis, the maximum-likelihood trinomial with that expected score.
 */
double rating_sprt_llr(double wins, double draws, double losses, double elo0, double elo1);
/*
 * Adds one A-versus-B outcome (1, 1/2 or 0) and updates llr and verdict; once a verdict is
 * reached it is kept (later outcomes are counted but do not change it). Returns verdict.
 */
int rating_sprt_add(rating_sprt_t *s, double outcome);
/*
 * Log-likelihood ratio of pentanomial pair counts (pairs with 0, 1/2, 1, 3/2, 2 points) for
 * H1 against H0: under each, the maximum-likelihood pentanomial whose expected score per
 * game (points / 2) is that hypothesis's.
 */
double rating_sprt_llr_ptnml(const double *counts, double elo0, double elo1);
/*
 * Adds one game pair (A's points 0 to 2, its two games' outcomes first and second) and
 * updates llr and verdict from the pair counts; the games also count in wins, draws and
 * losses. An SPRT is fed either pairs or single outcomes, never both. Returns verdict.
 */
int rating_sprt_add_pair(rating_sprt_t *s, double first, double second);
/* The verdict as text: "continue", "H1 accepted" or "H0 accepted". */
const char *rating_sprt_verdict_text(int verdict);

/*
 * Reads one game record (FORMATS.md §4) into g, with bot ids from the seat specs through
 * lookup (which returns the id of a spec, adding it if new, or -1 when full). Returns 0, or
 * -1 with err saying what is malformed.
 */
int rating_game_from_record(const struct json_t *rec, int (*lookup)(void *ctx, const char *spec),
                            void *ctx, rating_game_t *g, char *err, size_t errlen);

/* A tournament game's identity in the record files, to find games given twice. */
typedef struct rating_key {
    uint64_t config; /* the tournament's configuration hash */
    long index;      /* the game index in it */
    int file;        /* which file holds it (the caller's numbering) */
    long line;       /* its line there */
} rating_key_t;

/*
 * Sorts n keys by configuration and index and looks for one game given twice (rate and the
 * resume of tournament and generate refuse such files): 1 with *first and *second the two
 * (first read first), or 0.
 */
int rating_keys_twice(rating_key_t *keys, long n, const rating_key_t **first,
                      const rating_key_t **second);
/* Appends the key (index, line) to *keys (*n of them, room for *cap, grown as needed):
   0, or -1 if out of memory. */
int rating_keys_add(rating_key_t **keys, long *n, long *cap, long index, long line);
