/* The forward pass of "resmlp" (docs/NETS.md) over the kernels of nn/kernels.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nn/internal.h"

struct nn_workspace {
    int max_batch;
    int Hp;
    float *h; /* [max_batch][Hp] */
    float *r; /* [max_batch][Hp] */
};

nn_workspace_t *nn_workspace_new(const nn_net_t *net, int max_batch)
{
    if (max_batch < 1 || max_batch > NN_MAX_BATCH)
        return NULL;
    nn_workspace_t *ws = calloc(1, sizeof *ws);
    if (!ws)
        return NULL;
    ws->max_batch = max_batch;
    ws->Hp = net->Hp;
    size_t bytes = (size_t)max_batch * net->Hp * sizeof(float);
    ws->h = aligned_alloc(64, bytes);
    ws->r = aligned_alloc(64, bytes);
    if (!ws->h || !ws->r) {
        nn_workspace_free(ws);
        return NULL;
    }
    return ws;
}

void nn_workspace_free(nn_workspace_t *ws)
{
    if (!ws)
        return;
    free(ws->h);
    free(ws->r);
    free(ws);
}

/* Seconds from a monotonic clock. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

/* Asks the cache for policy row a (its 64-byte lines). */
static inline void prefetch_row(const nn_net_t *net, int a)
{
    const char *p = (const char *)(net->policy_w + (size_t)a * net->H);
    for (int off = 0; off < net->H * (int)sizeof(float); off += 64)
        __builtin_prefetch(p + off);
}

int nn_eval_batch(const nn_net_t *net, nn_workspace_t *ws, int batch, const float *obs,
                  const int *n_actions, const int *action_ids, float *logits_out, float *value_out)
{
    if (batch < 1 || batch > ws->max_batch || ws->Hp != net->Hp)
        return -1;
    int total = 0;
    for (int b = 0; b < batch; b++) {
        if (n_actions[b] < 0 || n_actions[b] > net->A)
            return -1;
        for (int k = 0; k < n_actions[b]; k++)
            if (action_ids[total + k] < 0 || action_ids[total + k] >= net->A)
                return -1;
        total += n_actions[b];
    }
    const nn_kernels_t *kern = nn_kernels();
    int H = net->H, Hp = net->Hp, O = net->O, P = net->P;
    /* The stem one position at a time: each skips its own observation's zeros (rows of 4
       would do an input unless all four are zero, which costs more on one-hot features). */
    for (int b = 0; b < batch; b++)
        kern->layer(obs + (size_t)b * O, O, 1, O, net->stem_t, Hp, net->stem_b,
                    ws->h + (size_t)b * Hp, Hp, NN_LAYER_SKIP_ZERO);
    for (int k = 0; k < net->D; k++) {
        kern->layer(ws->h, Hp, batch, H, net->fc_t[2 * k], Hp, net->fc_b[2 * k], ws->r, Hp, 0);
        kern->layer(ws->r, Hp, batch, H, net->fc_t[2 * k + 1], Hp, net->fc_b[2 * k + 1], ws->h, Hp,
                    NN_LAYER_RESIDUAL);
    }
    int at = 0;
    for (int b = 0; b < batch; b++) {
        const float *h = ws->h + (size_t)b * Hp;
        /* The policy rows are gathered from a large matrix: fetched a few moves ahead. */
        for (int k = 0; k < 4 && k < n_actions[b]; k++)
            prefetch_row(net, action_ids[at + k]);
        for (int k = 0; k < n_actions[b]; k++, at++) {
            int a = action_ids[at];
            if (k + 4 < n_actions[b])
                prefetch_row(net, action_ids[at + 4]);
            logits_out[at] = kern->dot(net->policy_w + (size_t)a * H, h, H) + net->policy_b[a];
        }
        for (int j = 0; j < P; j++)
            value_out[b * P + j] =
                sigmoid(kern->dot(net->value_w + (size_t)j * H, h, H) + net->value_b[j]);
    }
    return 0;
}

int nn_eval(const nn_net_t *net, nn_workspace_t *ws, const float *obs, const int *action_ids,
            int n_actions, float *logits_out, float *value_out)
{
    return nn_eval_batch(net, ws, 1, obs, &n_actions, action_ids, logits_out, value_out);
}

void nn_softmax(const float *logits, int n, float *prior)
{
    if (n <= 0)
        return;
    float m = logits[0];
    for (int i = 1; i < n; i++)
        m = logits[i] > m ? logits[i] : m;
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += (prior[i] = expf(logits[i] - m));
    for (int i = 0; i < n; i++)
        prior[i] = (float)(prior[i] / sum);
}

double nn_eval_flops(const nn_net_t *net, int batch, const float *obs, const int *n_actions)
{
    double H = net->H, inputs = 0, heads = 0;
    for (int b = 0; b < batch; b++) {
        for (int i = 0; i < net->O; i++)
            inputs += !obs || obs[(size_t)b * net->O + i] != 0.0f;
        heads += n_actions[b] + net->P;
    }
    return 2.0 * (inputs * H + batch * net->D * 2.0 * H * H + heads * H);
}

/* Where the peak loop's result goes, so that the loop is not optimised away. */
static volatile float peak_sink;

double nn_peak_flops(double seconds)
{
    const nn_kernels_t *kern = nn_kernels();
    long iters = 1L << 16;
    for (;;) {
        double t0 = now();
        peak_sink = kern->peak(iters);
        double dt = now() - t0;
        if (dt >= seconds || iters > (1L << 40))
            return 2.0 * 12.0 * kern->width * (double)iters / dt;
        iters *= dt > seconds / 16 ? 2 : 8;
    }
}
