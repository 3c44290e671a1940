/*
 * The matrix kernels of the forward pass, written once over a vector type and included
 * by nn/kernels.c once per instruction set (portable C, AVX2 with FMA, AVX-512). The
 * includer defines:
 *   KSUFFIX(x)  the name with the instruction set's suffix
 *   KATTR       the function attribute selecting the instruction set (may be empty)
 *   KVEC, KW    the vector type and its floats
 *   KLOAD(p), KSTORE(p, v), KSET1(x), KFMA(a, b, c) (a * b + c), KADD(a, b), KRELU(v)
 *   KSUM(v)     the sum of the lanes of v, in a fixed order
 *   KR4C, KR1C  vectors per column block for tiles of 4 rows and of 1 row
 * Every output element is the same sum in the same order (bias first, then the inputs in
 * order) whatever the tile, so batch sizes never change a result. With NN_LAYER_SKIP_ZERO a
 * tile skips the inputs that are zero in each of its rows: x * w + acc is acc for x = 0 and finite w (a zero's sign
 * aside, which the relu clears), so the result stays the same.
 */
#include "nn/internal.h"

/* Y[R rows][C vectors from col] = bias + X Wt (+ Y as residual), relu. */
static KATTR inline __attribute__((always_inline)) void
KSUFFIX(tile)(const float *X, int ldx, int in, const float *Wt, int ldw, const float *bias,
              float *Y, int ldy, int col, int R, int C, int flags)
{
    KVEC acc[4][8];
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            acc[r][c] = KLOAD(bias + col + c * KW);
    const float *w = Wt + col;
    for (int i = 0; i < in; i++, w += ldw) {
        /* A zero input adds nothing (the weights are finite): skipped where every row has it. */
        if ((flags & NN_LAYER_SKIP_ZERO) && X[i] == 0.0f &&
            (R == 1 || (X[ldx + i] == 0.0f && X[2 * (size_t)ldx + i] == 0.0f &&
                        X[3 * (size_t)ldx + i] == 0.0f)))
            continue;
        for (int r = 0; r < R; r++) {
            KVEC x = KSET1(X[(size_t)r * ldx + i]);
            for (int c = 0; c < C; c++)
                acc[r][c] = KFMA(x, KLOAD(w + c * KW), acc[r][c]);
        }
    }
    for (int r = 0; r < R; r++) {
        float *y = Y + (size_t)r * ldy + col;
        for (int c = 0; c < C; c++) {
            KVEC v = acc[r][c];
            if (flags & NN_LAYER_RESIDUAL)
                v = KADD(KLOAD(y + c * KW), v);
            KSTORE(y + c * KW, KRELU(v));
        }
    }
}

static KATTR void KSUFFIX(rows4)(const float *X, int ldx, int in, const float *Wt, int ncols,
                                 const float *bias, float *Y, int ldy, int flags)
{
    int col = 0;
    for (; col + KR4C * KW <= ncols; col += KR4C * KW)
        KSUFFIX(tile)(X, ldx, in, Wt, ncols, bias, Y, ldy, col, 4, KR4C, flags);
    for (; col < ncols; col += KW)
        KSUFFIX(tile)(X, ldx, in, Wt, ncols, bias, Y, ldy, col, 4, 1, flags);
}

static KATTR void KSUFFIX(rows1)(const float *X, int in, const float *Wt, int ncols,
                                 const float *bias, float *Y, int flags)
{
    int col = 0;
    for (; col + KR1C * KW <= ncols; col += KR1C * KW)
        KSUFFIX(tile)(X, 0, in, Wt, ncols, bias, Y, 0, col, 1, KR1C, flags);
    for (; col < ncols; col += KW)
        KSUFFIX(tile)(X, 0, in, Wt, ncols, bias, Y, 0, col, 1, 1, flags);
}

/* The layer of nn/internal.h (nn_layer_fn). */
static KATTR void KSUFFIX(layer)(const float *X, int ldx, int B, int in, const float *Wt, int ncols,
                                 const float *bias, float *Y, int ldy, int flags)
{
    int b = 0;
    for (; b + 4 <= B; b += 4)
        KSUFFIX(rows4)
    (X + (size_t)b * ldx, ldx, in, Wt, ncols, bias, Y + (size_t)b * ldy, ldy, flags);
    for (; b < B; b++)
        KSUFFIX(rows1)(X + (size_t)b * ldx, in, Wt, ncols, bias, Y + (size_t)b * ldy, flags);
}

/* The dot product of nn/internal.h (nn_dot_fn): two vector sums, then the tail. */
static KATTR float KSUFFIX(dot)(const float *a, const float *b, int n)
{
    KVEC s0 = KSET1(0.0f), s1 = KSET1(0.0f);
    int i = 0;
    for (; i + 2 * KW <= n; i += 2 * KW) {
        s0 = KFMA(KLOAD(a + i), KLOAD(b + i), s0);
        s1 = KFMA(KLOAD(a + i + KW), KLOAD(b + i + KW), s1);
    }
    float s = KSUM(KADD(s0, s1));
    for (; i < n; i++)
        s += a[i] * b[i];
    return s;
}

/* The peak loop of nn/internal.h (nn_peak_fn): 12 independent FMA chains, iters rounds;
   returns a value depending on every chain (so none is optimised away). */
static KATTR float KSUFFIX(peak)(long iters)
{
    KVEC a[12];
    for (int k = 0; k < 12; k++)
        a[k] = KSET1(1.0f + 1e-3f * (float)k);
    KVEC m = KSET1(0.999999f), c = KSET1(1e-7f);
    for (long it = 0; it < iters; it++)
        for (int k = 0; k < 12; k++)
            a[k] = KFMA(a[k], m, c);
    KVEC s = a[0];
    for (int k = 1; k < 12; k++)
        s = KADD(s, a[k]);
    return KSUM(s);
}
