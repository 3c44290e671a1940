#pragma once
/* The net and its kernels, shared by the files of nn/ only. */
#include "nn/net.h"

/* Output columns are padded with zero weights to a multiple of this many floats. */
#define NN_PAD 16

/* Flags of a layer: add the output's old value (residual) before the relu; skip zero inputs
   in one-row tiles (for sparse observations). */
#define NN_LAYER_RESIDUAL  1
#define NN_LAYER_SKIP_ZERO 2

/* Y[B][ncols] = relu(bias + X[B][in] Wt[in][ncols] (+ Y)), X rows ldx apart, Y rows ldy. */
typedef void (*nn_layer_fn)(const float *X, int ldx, int B, int in, const float *Wt, int ncols,
                            const float *bias, float *Y, int ldy, int flags);
/* The sum of a[i] * b[i], i < n, in the kernel's fixed order. */
typedef float (*nn_dot_fn)(const float *a, const float *b, int n);
/* iters rounds of 12 independent vector FMAs. */
typedef float (*nn_peak_fn)(long iters);

typedef struct nn_kernels {
    const char *name; /* "avx512", "avx2", "generic" */
    int width;        /* floats a vector */
    nn_layer_fn layer;
    nn_dot_fn dot;
    nn_peak_fn peak;
} nn_kernels_t;

/* The kernels for this processor (or SKYLINE_NN_ISA), chosen once. */
const nn_kernels_t *nn_kernels(void);

/* Tensors of a net, in the canonical order of docs/NETS.md. */
#define NN_MAX_TENSORS (6 + 4 * NN_MAX_DEPTH)
typedef struct nn_tensor_spec {
    char name[32];
    int rows, cols; /* shape [rows, cols]; cols 0 for a vector [rows] */
} nn_tensor_spec_t;
/* The tensors of a net of these sizes into spec[NN_MAX_TENSORS]; returns their count. */
int nn_tensor_specs(int O, int H, int D, int A, int P, nn_tensor_spec_t *spec);

struct nn_net {
    nn_info_t info;
    char *text[4];                       /* owned strings of info: game, data, command, engine */
    int O, H, Hp, D, A, P;               /* sizes; Hp is H padded to NN_PAD */
    float *raw;                          /* every tensor in canonical order, as in the file */
    size_t raw_count;                    /* floats of raw */
    const float *tensor[NN_MAX_TENSORS]; /* each tensor's start in raw */
    float *packed;                       /* transposed, padded hidden layers (below) */
    const float *stem_t;                 /* [O][Hp] */
    const float *stem_b;                 /* [Hp] */
    const float *fc_t[2 * NN_MAX_DEPTH]; /* block k: fc1 at 2k, fc2 at 2k+1, [H][Hp] */
    const float *fc_b[2 * NN_MAX_DEPTH]; /* [Hp] */
    const float *policy_w, *policy_b, *value_w, *value_b; /* into raw */
};

/* A net of these sizes with its strings, raw buffer (uninitialised) and tensor pointers;
   nothing packed yet. NULL if no memory. */
nn_net_t *nn_net_alloc(const game_api_t *api, int players, int H, int D, const char *data,
                       const char *command, const char *engine);
/* Builds net->packed and the pointers from net->raw (sizes set): 0, or -1 if no memory. */
int nn_net_pack(nn_net_t *net);
