#pragma once
/*
 * Networks for the search (docs/NETS.md): the network file (the safetensors layout with
 * Skyline's metadata), and the forward pass of the "resmlp" architecture in float32.
 *
 * A net is read-only once loaded or made: any number of threads may evaluate it at the
 * same time, each with its own workspace (nn_workspace_new, allocated once). Evaluation
 * allocates nothing. The matrix kernels are chosen at run time from what the processor
 * offers (AVX-512, AVX2 with FMA, or portable C; SKYLINE_NN_ISA=generic|avx2|avx512 forces
 * one); results are bit-identical between batch sizes and threads, for one kernel. Zeros
 * of the observation are skipped (the reader refuses weights that are not finite, so the
 * results stay the same).
 */
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"

/* The format this engine writes and reads (metadata "format_version"). */
#define NN_FORMAT_VERSION 1
/* Bounds the reader enforces: file bytes, JSON header bytes, width, depth. */
#define NN_MAX_FILE_BYTES   (1024LL * 1024 * 1024)
#define NN_MAX_HEADER_BYTES (16 * 1024 * 1024)
#define NN_MAX_WIDTH        4096
#define NN_MAX_DEPTH        64
/* Most positions of one nn_eval_batch call a workspace can be made for. */
#define NN_MAX_BATCH 4096

typedef struct nn_net nn_net_t;
typedef struct nn_workspace nn_workspace_t;

/* What a net is: its metadata (docs/NETS.md). Strings belong to the net. */
typedef struct nn_info {
    const char *game;             /* the game's name, e.g. "connect4" */
    const game_api_t *api;        /* that game */
    int players;                  /* player count */
    int observation_size;         /* O: floats of the mover's observation */
    int action_count;             /* A: the game's action ids for that player count */
    int width;                    /* H */
    int depth;                    /* D: residual blocks */
    const char *training_data;    /* free text */
    const char *training_command; /* free text */
    const char *engine;           /* engine version that wrote it */
} nn_info_t;

/*
 * Reads a network file. api/players, if given (api not NULL, players > 0), are what the
 * caller needs: a net for another game or player count is refused. NULL with err one line
 * "PATH: FIELD: reason" if the file is not a valid net for this engine's games.
 */
nn_net_t *nn_net_load(const char *path, const game_api_t *api, int players, char *err,
                      size_t errlen);
/* The same from bytes in memory (name stands for the path in errors). */
nn_net_t *nn_net_from_bytes(const uint8_t *data, size_t size, const char *name,
                            const game_api_t *api, int players, char *err, size_t errlen);
/*
 * A net of the given sizes with weights drawn from seed as PyTorch's nn.Linear draws them
 * (uniform in +-1/sqrt(inputs)); training_data/command may be NULL. NULL with err filled
 * for sizes out of range or a game without observation or action space.
 */
nn_net_t *nn_net_random(const game_api_t *api, int players, int width, int depth, uint64_t seed,
                        const char *training_data, const char *training_command, char *err,
                        size_t errlen);
/* Writes net to path in the network format: 0, or -1 with err filled. */
int nn_net_save(const nn_net_t *net, const char *path, char *err, size_t errlen);
void nn_net_free(nn_net_t *net);
const nn_info_t *nn_net_info(const nn_net_t *net);

/* A workspace for up to max_batch positions per call (1..NN_MAX_BATCH): NULL if no memory. */
nn_workspace_t *nn_workspace_new(const nn_net_t *net, int max_batch);
void nn_workspace_free(nn_workspace_t *ws);

/*
 * One position: obs is the mover's observation (observation_size floats), action_ids its
 * n_actions legal moves' action ids (each in [0, action_count)). logits_out gets one
 * logit per id, in order; value_out gets players values: value_out[j] is the expected
 * game result of player (mover + j) mod players. 0, or -1 if an id or n_actions is out of
 * range (nothing written).
 */
int nn_eval(const nn_net_t *net, nn_workspace_t *ws, const float *obs, const int *action_ids,
            int n_actions, float *logits_out, float *value_out);
/*
 * batch positions at once (at most the workspace's max_batch): obs holds them one after
 * the other, n_actions[b] the count of position b, action_ids and logits_out every
 * position's ids/logits one after the other, value_out players values a position. The
 * outputs are bit-identical to nn_eval's. 0, or -1 as for nn_eval.
 */
int nn_eval_batch(const nn_net_t *net, nn_workspace_t *ws, int batch, const float *obs,
                  const int *n_actions, const int *action_ids, float *logits_out, float *value_out);
/* Softmax of n logits into prior (the PUCT prior over the legal moves). */
void nn_softmax(const float *logits, int n, float *prior);

/* Float operations (an FMA is 2) nn_eval_batch does for these positions (it skips the zeros
   of each observation); obs NULL: every operation, skipping nothing. */
double nn_eval_flops(const nn_net_t *net, int batch, const float *obs, const int *n_actions);
/* The kernel in use: "avx512", "avx2" or "generic". */
const char *nn_isa(void);
/* Float operations per second of one core, from a loop of independent FMAs of the kernel's
   widest vectors run for about `seconds`. */
double nn_peak_flops(double seconds);
