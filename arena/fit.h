#pragma once
/*
 * Fitting a game heuristic's evaluation to game results (Texel tuning for several
 * players, docs/FIT.md). Positions are read once from game records into memory (the
 * states themselves, api->state_size bytes each, merged by what the player to move sees),
 * each labelled with the results of its game; the fit then moves the weights of evaluate
 * so that a link of the evaluations predicts those results:
 *
 *     p_q = sigmoid(K * logit(v_q)),   v = evaluate(state, w), one value per player,
 *
 * K fitted first at the start weights (as in Texel tuning) or given, then the weights by
 * Adam on minibatches, gradients by central finite differences of the loss over the
 * weights (evaluate is a black box), bounded by the weights' lo and hi, with an L2 pull
 * towards the start values. Sums run over fixed chunks of positions in parallel and are
 * added in chunk order, so a fit gives the same bits with any thread count and a resumed
 * fit the same as an uninterrupted one.
 */
#include <stddef.h>
#include <stdint.h>

#include "core/heuristic.h"

/* ---- positions (arena/fit_data.c) ---- */

/* Positions in memory, each with the summed results of the games it was seen in. */
typedef struct fit_data {
    const game_api_t *api; /* the game */
    int players;           /* player count of every position */
    size_t stride;         /* bytes per stored state (state_size rounded up to 16) */
    long count;            /* positions stored */
    long cap;              /* positions there is room for */
    unsigned char *states; /* count states, stride bytes apart */
    double *result;        /* count * players: summed result of each player */
    uint32_t *games_of;    /* games merged into each position (label = result / games_of) */
    uint64_t *key;         /* each position's key: hash of the position its mover sees */
    long *table;           /* open addressing over keys: position index + 1, 0 empty */
    long table_cap;        /* slots of table (a power of two) */
    long games;            /* records whose positions were added */
    long skipped;          /* records skipped (forfeits: no result to learn from) */
    long seen;             /* positions read, duplicates included */
    long rebuilt;          /* records rebuilt ply by ply (their replay differed) */
    int threads;           /* threads replaying records (1; the data do not depend on it) */
} fit_data_t;

/* Empty data of game api with players players. 0, or -1 (out of memory). */
int fit_data_init(fit_data_t *d, const game_api_t *api, int players);
void fit_data_free(fit_data_t *d);
/* The key of a position: FNV-1a of its notation as the player to move sees it
   (api->position_write), or api->hash for a game without notation. */
uint64_t fit_data_key(const game_api_t *api, const void *state);
/* Adds one position labelled with result[players] (merged with an equal key). 0 or -1. */
int fit_data_add(fit_data_t *d, const void *state, const double *result);
/*
 * Adds the positions of one game record (FORMATS.md §4): plies 0, every, 2*every, ...
 * before the end, labelled with the game's final result. A forfeited game is skipped.
 * 0, or -1 with err filled: another game or player count, an illegal move, a game that
 * does not end.
 */
int fit_data_add_record(fit_data_t *d, const struct json_t *rec, int every, char *err,
                        size_t errlen);
/* Adds every record of a JSON Lines file: 0, or -1 with err "FILE:LINE: what". */
int fit_data_add_file(fit_data_t *d, const char *path, int every, char *err, size_t errlen);
/* Hash of every stored position's key and label, for checkpoint tags. */
uint64_t fit_data_hash(const fit_data_t *d);
/* The label of position i for player q: its mean result. */
double fit_data_label(const fit_data_t *d, long i, int q);

/* ---- the fit (arena/fit.c) ---- */

/* Loss of a prediction p against a result r, averaged over the players. */
typedef enum fit_loss {
    FIT_LOSS_MSE, /* (p - r)^2 */
    FIT_LOSS_CE   /* -(r log p + (1 - r) log(1 - p)) */
} fit_loss_t;

/* What a fit does. */
typedef struct fit_config {
    const heuristic_t *heur;    /* the game's heuristic */
    heur_params_t start;        /* start weights (every weight; unfitted ones keep theirs) */
    int count;                  /* fitted weights */
    int index[HEUR_MAX_PARAMS]; /* heuristic index of each fitted weight */
    double lo[HEUR_MAX_PARAMS]; /* lower bound of each fitted weight */
    double hi[HEUR_MAX_PARAMS]; /* upper bound of each fitted weight */
    double holdout;             /* share of positions held out, [0, 1) */
    double l2;                  /* L2 strength on (w - start) / (hi - lo) */
    double lr;                  /* Adam step as a share of each weight's range */
    double fd_step;             /* finite-difference step as a share of the range */
    long batch;                 /* positions per step; 0: every training position */
    int epochs;                 /* passes over the training positions */
    uint64_t seed;              /* fixes the split and the order of every epoch */
    fit_loss_t loss;            /* loss per position */
    double k;                   /* link scale K; <= 0: fitted at the start weights */
    int threads;                /* OpenMP threads (results do not depend on it) */
} fit_config_t;

/* The state of a fit: everything a checkpoint holds. */
typedef struct fit_run {
    int epoch;                 /* epochs done */
    long step;                 /* Adam steps done */
    double k;                  /* link scale */
    double u[HEUR_MAX_PARAMS]; /* fitted weights, (w - lo) / (hi - lo) */
    double m[HEUR_MAX_PARAMS]; /* Adam first moments */
    double v[HEUR_MAX_PARAMS]; /* Adam second moments */
    double start_train;        /* training loss of the start weights */
    double start_held;         /* held-out loss of the start weights */
    double train_loss;         /* training loss after the last epoch */
    double held_loss;          /* held-out loss after the last epoch */
    long *train;               /* training positions (indices into the data) */
    long train_count;          /* their number */
    long *held;                /* held-out positions */
    long held_count;           /* their number */
} fit_run_t;

/* Defaults: holdout 0.1, l2 1e-4, lr 0.01, fd_step 1e-3, batch 16384, 20 epochs, MSE,
   seed 1, one thread; start at heur's defaults (heur may be NULL: set it later). */
void fit_config_default(fit_config_t *cfg, const heuristic_t *heur);
/*
 * Starts a fit: the split, K (fitted or cfg->k) and the start losses. 0, or -1 with err
 * filled (no positions to fit, out of memory).
 */
int fit_start(fit_run_t *run, const fit_data_t *d, const fit_config_t *cfg, char *err,
              size_t errlen);
/* One epoch of Adam steps, then both losses. */
void fit_epoch(fit_run_t *run, const fit_data_t *d, const fit_config_t *cfg);
/* The run's weights as a full weight vector. */
void fit_weights(const fit_run_t *run, const fit_config_t *cfg, heur_params_t *w);
/* Mean loss (penalty excluded) of positions idx[n] with weights w and scale k. */
double fit_loss(const fit_data_t *d, const fit_config_t *cfg, const heur_params_t *w, double k,
                const long *idx, long n);
/*
 * Which weights change evaluate on the data: active[i] for each heuristic weight i, from
 * up to 256 positions spread over the data. Returns how many do.
 */
int fit_active_weights(const fit_data_t *d, const heuristic_t *heur, const heur_params_t *w,
                       int *active);
void fit_run_free(fit_run_t *run);
/*
 * Checkpoints: the run's state and a tag of its inputs (data and configuration) as JSON,
 * written to a temporary file then renamed.
 */
int fit_save(const fit_run_t *run, const fit_config_t *cfg, const char *tag, const char *path,
             char *err, size_t errlen);
/* 0 loaded, 1 no checkpoint at path, -1 error (err filled; another tag is an error). The
   split is not stored: fit_start makes it again. */
int fit_load(fit_run_t *run, const fit_config_t *cfg, const char *tag, const char *path, char *err,
             size_t errlen);
