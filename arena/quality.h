#pragma once
/*
 * Search quality per move, measured without playing games: positions are taken from games
 * between copies of one bot; a reference search (an mcts bot with a large budget) scores
 * every legal move of each position; each bot under test then chooses a move there several
 * times with different seeds, and its regret is the reference's mean result of its best
 * move minus that of the chosen one (a move the reference never visited counts as its
 * worst visited move). A sample is one choice of every bot with the same seed, so bots are
 * compared pair by pair on the same positions: the differences of two budgets of one bot
 * are resolved with hundreds of positions, where games would need thousands.
 */
#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"

#define QUALITY_MAX_BOTS 16

typedef struct quality_config {
    const game_api_t *api;
    game_options_t opt; /* game options; opt.seed: seed of the first game */
    const char *ref;    /* reference bot spec (must be mcts) */
    const char *from;   /* bot spec that plays the games positions are taken from */
    const char *specs[QUALITY_MAX_BOTS]; /* bots under test */
    int bot_count;
    int games;            /* games to take positions from */
    int every;            /* a position every this many plies (with 2+ legal moves) */
    int repeats;          /* samples (seeds) per position */
    const char *out_path; /* JSON Lines of results, appended to and resumed; NULL: none */
    int progress;         /* 0: quiet, else positions between progress lines on stderr */
} quality_config_t;

typedef struct quality_report {
    int positions; /* positions measured */
    int repeats;   /* choices per position and bot */
    long samples;  /* positions * repeats */
    long resumed;  /* positions read back from out_path */
    int bot_count;
    double *regret;                       /* [samples][bot_count] regret of each choice */
    double agree[QUALITY_MAX_BOTS];       /* share of choices equal to the reference's move */
    double mean_regret[QUALITY_MAX_BOTS]; /* mean regret */
    double diff[QUALITY_MAX_BOTS];        /* mean regret minus the first bot's (paired) */
    double diff_ci95[QUALITY_MAX_BOTS];   /* half width of its 95 % interval */
    double iterations[QUALITY_MAX_BOTS];  /* mean search iterations per choice (mcts) */
    double seconds[QUALITY_MAX_BOTS];     /* mean seconds per choice */
} quality_report_t;

/* Runs (or resumes) the measurement: 0, or -1 with err filled (bad spec, file mismatch). */
int quality_run(const quality_config_t *cfg, quality_report_t *rep, char *err, size_t errlen);

/*
 * Quality speedup of bots 0, 1, 2 = P, S, D, where S and D are one searcher at budgets T
 * and 2T and P is the one measured (say two threads at T): 2 ** ((r_S - r_P) / (r_S - r_D))
 * from the mean regrets r, the budget factor at which S would choose as well as P. *lo and
 * *hi get a 95 % bootstrap interval over positions (resamples where doubling gains nothing
 * count as unbounded: INFINITY). Returns the estimate (INFINITY if r_S <= r_D).
 */
double quality_speedup(const quality_report_t *rep, double *lo, double *hi);

void quality_report_free(quality_report_t *rep);
