#pragma once
/*
 * `skyline bench`: fixed positions of each game and player count, measured one thread at a
 * time with fixed seeds, and a signature (node counts plus the decisions of fixed
 * searches) that changes only when move generation or search behaviour changes.
 *
 * Perft depths follow from leaf counts alone (the deepest whose leaves, estimated from the
 * growth of the last two depths, stay within the case's budget), so the runs keep their
 * length when the rules change and the signature still depends on nothing but the rules.
 *
 * Per case: perft with bulk counting and with full make/undo from the start and from a
 * mid-game position (reached by seeded random moves), random full games per second,
 * copy-make against make/undo, the fast move generator against the slow reference of
 * ref/ over the positions of one seeded game, MCTS iterations per second with
 * one thread and with every core, and the same for the guided search of the
 * strength-speedup (heuristic prior and cut-off evaluation, from the bots) at T ms a move,
 * where what counts is the iterations of every core at T against those of one thread at
 * 2T. Count-only mode runs just what the signature needs (bulk perft and fixed-iteration
 * single-thread searches) and no timing.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/game.h"

/* Most benchmark cases: each game's bench entry gives its own (bench/bench_games.c:
   Tower Up 2p (duo), 3p and 4p (standard), Uptown 2p to 5p, ...). */
#define BENCH_MAX_CASES 32
/* The guided search timed by the bench: the bot of the README's strength-speedup, without
   tree reuse (every search starts afresh), at BENCH_GUIDED_MS ms a search. */
#define BENCH_GUIDED_SPEC "mcts:prior=heuristic,cutoff=8,fpu=0.3,reuse=0"
#define BENCH_GUIDED_MS   20
/* The guided search of the signature (bench/bench_signature.c): the same bot, one thread,
   a fixed iteration budget. */
#define BENCH_SIGNATURE_GUIDED_SPEC "mcts:prior=heuristic,cutoff=8,fpu=0.3,reuse=0,threads=1"
/* Times the one-thread MCTS search of each case is run (the same seed, so the same work);
   its figure is the median, with the fastest and slowest beside it (3 with --quick). */
#define BENCH_MCTS_ROUNDS       5
#define BENCH_MCTS_ROUNDS_QUICK 3
/* Positions along the seeded game searched by the guided search (half with --quick). */
#define BENCH_GUIDED_POSITIONS 8
/* The mid position is the first, from the case's mid_plies on, with this many moves. */
#define BENCH_MID_MIN_MOVES 30

/* One bench case of a game's bench entry: a player count, a seed and how much work each
   figure gets. */
typedef struct bench_case_spec {
    const char *label;         /* short name, e.g. "towerup-4p" */
    int players;               /* player count */
    const char *option;        /* one of the game's options, "key=value" (e.g. Tower Up's
                                   "board=duo"), or NULL */
    uint64_t seed;             /* seed of the game and of every random choice */
    int mid_plies;             /* random moves played from the start before the mid position
                                   is looked for (the first with BENCH_MID_MIN_MOVES moves) */
    int max_depth;             /* deepest perft */
    uint64_t perft_leaves;     /* leaf budget of each perft (a sixteenth with --quick) */
    long playouts;             /* random full games timed (a quarter with --quick) */
    long mcts_iterations;      /* iterations of each timed search (a quarter with --quick) */
    long signature_iterations; /* iterations of the signature's single-thread search */
} bench_case_spec_t;

/* What a game's speed goal measures. */
typedef enum bench_figure {
    BENCH_FIGURE_GAMES, /* random full games per second of the goal's case */
    BENCH_FIGURE_BULK,  /* bulk perft, millions of leaves per second (NULL case: every case
                           of the game together) */
    BENCH_FIGURE_MCTS,  /* single-thread MCTS iterations per second of the goal's case */
} bench_figure_t;

/* One speed goal of a game (bench/BENCH.md; printed by --verbose, in --json). */
typedef struct bench_goal_spec {
    const char *name;      /* as printed, e.g. "towerup-4p random games/s" */
    const char *label;     /* the case it reads, or NULL (BENCH_FIGURE_BULK: every case) */
    bench_figure_t figure; /* what it measures */
    double target;         /* the goal */
    bool versus;           /* a figure against another engine's (listed after the whole-run
                              goals), not one of the engine's own targets */
} bench_goal_spec_t;

/* A game's bench entry (bench/bench_games.c), keyed by its name. */
typedef struct bench_game {
    const char *game;               /* the game's name (game_api_t.name) */
    const bench_case_spec_t *cases; /* its cases */
    int case_count;
    const bench_goal_spec_t *goals; /* its speed goals */
    int goal_count;
} bench_game_t;

/* The bench entry of a game, or NULL if it has none. */
const bench_game_t *bench_game_for(const game_api_t *api);

/* One benchmark case: a case of a game's bench entry and the game. */
typedef struct bench_case {
    bench_case_spec_t spec; /* its player count, seed and work */
    const game_api_t *api;  /* the game */
} bench_case_t;

/* How to run the bench. */
typedef struct bench_config {
    bool quick;            /* smaller depths and fewer repetitions (its own signature) */
    bool count_only;       /* node counts only: no timing, no playouts, no reference */
    int threads;           /* threads of the parallel MCTS figure (every core by default) */
    bool verbose;          /* the table with every column and the goals (default: fits 100
                              columns) */
    bool nets_only;        /* the network figures alone (no signature) */
    const char *save_nets; /* a folder the random nets of the network figures are written
                              to (GAME-Np.net), or NULL */
    const char *net_file;  /* a net file whose figures replace the random nets' (its game
                              and player count's case alone), or NULL */
} bench_config_t;

/* The network figures (bench/bench_nn.c): a "resmlp" net of this size with random weights
   per case, one thread, evaluated on BENCH_NN_POSITIONS positions of seeded random games
   one at a time and BENCH_NN_BATCH at a time. */
#define BENCH_NN_WIDTH     128
#define BENCH_NN_DEPTH     2
#define BENCH_NN_BATCH     64
#define BENCH_NN_POSITIONS 64

/* The network figures of one case. */
typedef struct bench_nn_result {
    const bench_case_t *bcase; /* the case */
    int observation_size;      /* floats of an observation */
    double mean_moves;         /* legal moves (logits) per position */
    double flops1;             /* float operations done per evaluation alone, on average
                                  (nn_eval_flops: the observation's zeros are skipped) */
    double flops_batch;        /* the same per evaluation in the batch of BENCH_NN_BATCH */
    long evals1;               /* evaluations one at a time */
    double seconds1;           /* their time */
    long evals_batch;          /* evaluations BENCH_NN_BATCH at a time */
    double seconds_batch;      /* their time */
} bench_nn_result_t;

/* Everything measured for one case. Seconds are 0 in count-only mode. */
typedef struct bench_result {
    const bench_case_t *bcase; /* the case */
    int start_moves;           /* legal moves at the start */
    int mid_plies;             /* random moves played to the mid position */
    int mid_moves;             /* legal moves at the mid position */
    int start_depth;           /* perft depth used from the start */
    int mid_depth;             /* perft depth used from the mid position */
    uint64_t start_nodes;      /* perft leaves from the start */
    uint64_t mid_nodes;        /* perft leaves from the mid position */
    double bulk_seconds;       /* both perft runs with bulk counting */
    double full_seconds;       /* both perft runs with every leaf made and undone */
    bool full_mismatch;        /* a timed perft (bulk or full) counted other leaves */
    long playouts;             /* random full games played */
    double playout_seconds;    /* their time */
    int line_plies;            /* moves of the seeded game whose positions are measured */
    long child_moves;          /* moves tried by copy-make and make/undo per pass */
    int cm_passes;             /* passes over the game for copy-make and make/undo */
    double copy_make_seconds;  /* memcpy then make of every child move, all passes */
    double make_undo_seconds;  /* make then undo of every child move, all passes */
    int gen_fast_rounds;       /* passes of the fast generator over the positions */
    int gen_ref_rounds;        /* calls of the reference generator per position */
    double gen_fast_seconds;   /* fast generator over the positions, all rounds */
    double gen_ref_seconds;    /* reference generator over the positions, all rounds */
    long gen_fast_moves;       /* moves listed by the fast generator in one round */
    long gen_ref_moves;        /* moves listed by the reference in one round */
    bool ref_missing;          /* the reference game could not be built */
    long mcts_iterations;      /* iterations of each timed search */
    double mcts1_seconds;      /* single-thread search time: the median of mcts1_rounds */
    int mcts1_rounds;          /* single-thread searches timed (the same work each) */
    double mcts1_min_seconds;  /* the fastest of them */
    double mcts1_max_seconds;  /* the slowest of them */
    double mcts1_cpu_seconds;  /* the median of their processor times (this thread's) */
    int mcts_threads;          /* threads of the parallel search */
    double mcts_n_seconds;     /* parallel search time (tree parallelism) */
    double mcts_root_seconds;  /* parallel search time with root parallelism */
    double mcts_indep_seconds; /* wall time of mcts_threads independent one-thread searches
                                   of mcts_iterations each, run at the same time */
    double mcts_n_cpu;         /* processor seconds of the parallel search over its wall time:
                                   below the thread count when other work took the cores */
    long signature_nodes;      /* tree nodes of the fixed-iteration single-thread searches
                                   (default and guided) */
    uint32_t signature_key;    /* their decisions folded: the move each chose, every root
                                   move's visits (bench/bench_signature.c) */
    /* The guided search of the strength-speedup (BENCH_GUIDED_SPEC), T = BENCH_GUIDED_MS
       a search from positions along the seeded game: one thread at T, mcts_threads at T,
       one at 2T. */
    int guided_positions;     /* positions searched */
    long guided1_iterations;  /* iterations summed over the positions, one thread at T */
    double guided1_seconds;   /* their search time */
    long guided_n_iterations; /* the same with mcts_threads threads at T */
    double guided_n_seconds;
    long guided_double_iterations; /* the same with one thread at 2T */
    double guided_double_seconds;
} bench_result_t;

/* A whole run. */
typedef struct bench_report {
    bool quick;                            /* --quick was used */
    bool count_only;                       /* node counts only */
    bool verbose;                          /* the wide table and the goals */
    int cores;                             /* processors of this machine */
    int case_count;                        /* cases run */
    bench_result_t cases[BENCH_MAX_CASES]; /* their figures */
    uint64_t perft_nodes;                  /* perft leaves of every case */
    uint64_t mcts_nodes;                   /* signature search nodes of every case */
    uint64_t search_key;                   /* signature_key of every case, summed */
    uint64_t signature;                    /* perft_nodes + mcts_nodes + search_key */
    double seconds;                        /* wall time of the whole run */
    double load_start;                     /* 1-minute load average before (-1: unknown) */
    double load_end;                       /* the same after the run */
    bool nets_only;                        /* only the network figures were run */
    int nn_count;                          /* cases with network figures (0: none run) */
    bench_nn_result_t nn[BENCH_MAX_CASES]; /* their figures */
    const char *nn_isa;                    /* the kernel that ran them (nn_isa()) */
    double nn_peak_flops;                  /* one core's float operations/s, FMA loop */
    int nn_width, nn_depth;                /* the size of the nets timed */
    const char *nn_weights;                /* "random weights", or the net file timed */
} bench_report_t;

/* The fixed cases of every game of the registry, in registry order; *count gets their
   number (at most BENCH_MAX_CASES). */
const bench_case_t *bench_cases(int *count);

/* Runs one case: 0, or -1 with err filled (a game or search could not be made). */
int bench_run_case(const bench_case_t *c, const bench_config_t *cfg, bench_result_t *r, char *err,
                   size_t errlen);

/*
 * Runs every case whose game is `game` (NULL: all) and fills the totals and signature.
 * rows, if not NULL, gets the table header and then each case's row as it finishes.
 * 0, or -1 with err filled.
 */
int bench_run(const char *game, const bench_config_t *cfg, bench_report_t *rep, FILE *rows,
              char *err, size_t errlen);

/*
 * The signature's searches of one case from state (its mid position), `iterations` each:
 * fills r->signature_nodes and r->signature_key. 0, or -1 with err filled.
 */
int bench_signature_searches(const game_api_t *api, const void *state, long iterations,
                             bench_result_t *r, char *err, size_t errlen);

struct nn_net;
/* The network figures of case c into r: of net, or (net NULL) of a random net of
   BENCH_NN_WIDTH and BENCH_NN_DEPTH, saved in save_dir if not NULL. 0, or -1 with err
   filled. */
int bench_nn_case(const bench_case_t *c, bool quick, const char *save_dir, const struct nn_net *net,
                  bench_nn_result_t *r, char *err, size_t errlen);
/* The network figures as text (after the table), and as a JSON object (a json_t *). */
void bench_nn_print(FILE *out, const bench_report_t *rep);
struct json_t *bench_nn_json(const bench_report_t *rep);

/* The signature of a run in count-only mode: what tests compare (0 with err on failure). */
uint64_t bench_signature(bool quick, char *err, size_t errlen);

/* The human-readable table: header, one row per case, then totals and signature. */
void bench_print_header(FILE *out, const bench_report_t *rep);
void bench_print_row(FILE *out, const bench_report_t *rep, const bench_result_t *r);
void bench_print_footer(FILE *out, const bench_report_t *rep);
/* The same as one JSON object on one line. */
void bench_print_json(FILE *out, const bench_report_t *rep);

/* Fixed work for `skyline bench --anchor` (bench/bench_anchor.c), from each case's seeded
   start: `random:GAMES` random full games, or `search:ITERATIONS:SEARCHES` searches by a
   fresh one-thread bot each (no tree reuse). */
typedef struct bench_anchor {
    bool random;   /* random games (else searches) */
    long count;    /* games, or iterations of each search */
    long searches; /* searches (1 for random games) */
} bench_anchor_t;

int bench_anchor_parse(const char *text, bench_anchor_t *w, char *err, size_t errlen);
/* Runs w on every case of `game` (NULL: all), searches by bot spec: one line per case on
   out, the rate in this thread's processor time. 0, or -1 with err filled. */
int bench_anchor_run(FILE *out, const char *game, const bench_anchor_t *w, const char *spec,
                     uint64_t seed, char *err, size_t errlen);

/* Seconds from a monotonic clock. */
double bench_now(void);
/* Processor seconds used by this process (every thread). */
double bench_cpu_now(void);
/* Processor seconds used by the calling thread. */
double bench_thread_cpu_now(void);
/* The 1-minute load average of the machine, or -1 where it cannot be read. */
double bench_load_average(void);
