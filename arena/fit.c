/*
 * The fit of a heuristic's evaluation to game results (arena/fit.h, docs/FIT.md): the
 * link, the loss, K, the finite-difference gradient, Adam, checkpoints.
 */
#include "arena/fit.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lines.h"
#include "core/replace.h"
#include "core/rng.h"

/* Positions per chunk: chunk sums are added in chunk order, whatever the threads. */
#define FIT_CHUNK 128
/* Evaluations are kept inside (FIT_EPS, 1 - FIT_EPS) before the logit. */
#define FIT_EPS 1e-6
/* Adam's decay rates and denominator guard. */
#define ADAM_B1  0.9
#define ADAM_B2  0.999
#define ADAM_EPS 1e-8
/* Positions the active-weight probe looks at. */
#define FIT_PROBES 256

void fit_config_default(fit_config_t *cfg, const heuristic_t *heur)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->heur = heur;
    cfg->start.count = heur ? heur->param_count : 0;
    for (int x = 0; x < cfg->start.count; x++)
        cfg->start.value[x] = heur->params[x].value;
    cfg->holdout = 0.1;
    cfg->l2 = 1e-4;
    cfg->lr = 0.01;
    cfg->fd_step = 1e-3;
    cfg->batch = 16384;
    cfg->epochs = 20;
    cfg->seed = 1;
    cfg->loss = FIT_LOSS_MSE;
    cfg->threads = 1;
}

static double fit_logit(double v)
{
    v = v < FIT_EPS ? FIT_EPS : v > 1 - FIT_EPS ? 1 - FIT_EPS : v;
    return log(v / (1 - v));
}

/* Loss of position i given the logits z[players] of its evaluations and the scale k. */
static double position_loss(const fit_data_t *d, fit_loss_t loss, long i, const double *z, double k)
{
    double sum = 0;
    for (int q = 0; q < d->players; q++) {
        double p = 1 / (1 + exp(-k * z[q])), r = fit_data_label(d, i, q);
        if (loss == FIT_LOSS_MSE) {
            sum += (p - r) * (p - r);
        } else {
            p = p < 1e-12 ? 1e-12 : p > 1 - 1e-12 ? 1 - 1e-12 : p;
            sum -= r * log(p) + (1 - r) * log(1 - p);
        }
    }
    return sum / d->players;
}

/* The logits of evaluate(state i, w) into z[players]. */
static void position_logits(const fit_data_t *d, const heuristic_t *h, long i,
                            const heur_params_t *w, double *z)
{
    double v[GAME_MAX_PLAYERS];
    h->evaluate(d->states + (size_t)i * d->stride, w, v);
    for (int q = 0; q < d->players; q++)
        z[q] = fit_logit(v[q]);
}

/* What a parallel pass computes per position. */
typedef enum job_kind {
    JOB_LOSS,   /* the loss at w */
    JOB_LOGITS, /* the logits at w into the job's logits (no sum) */
    JOB_KLOSS,  /* the loss at scale k from the stored logits */
    JOB_GRAD    /* the gradient over the fitted weights (normalized), by central differences */
} job_kind_t;

/* One parallel pass over positions idx[n]. */
typedef struct fit_job {
    const fit_data_t *d;     /* the positions */
    const fit_config_t *cfg; /* the fit */
    job_kind_t kind;         /* what to compute */
    heur_params_t w;         /* weights */
    const double *u;         /* normalized fitted weights (JOB_GRAD) */
    double k;                /* link scale */
    const long *idx;         /* positions */
    long n;                  /* their number */
    double *logits;          /* n * players logits (JOB_LOGITS writes, JOB_KLOSS reads) */
    int width;               /* sums per chunk: 1 (loss) or count (gradient) */
} fit_job_t;

/* Sums of one chunk [from, to) of the job into out[width]. */
static void job_chunk(const fit_job_t *j, long from, long to, double *out)
{
    const fit_data_t *d = j->d;
    const fit_config_t *cfg = j->cfg;
    heur_params_t w = j->w;
    double z[GAME_MAX_PLAYERS];
    for (int c = 0; c < j->width; c++)
        out[c] = 0;
    for (long t = from; t < to; t++) {
        long i = j->idx[t];
        if (j->kind == JOB_LOSS) {
            position_logits(d, cfg->heur, i, &w, z);
            out[0] += position_loss(d, cfg->loss, i, z, j->k);
        } else if (j->kind == JOB_LOGITS) {
            position_logits(d, cfg->heur, i, &w, j->logits + t * d->players);
        } else if (j->kind == JOB_KLOSS) {
            out[0] += position_loss(d, cfg->loss, i, j->logits + t * d->players, j->k);
        } else {
            for (int c = 0; c < cfg->count; c++) {
                int x = cfg->index[c];
                double range = cfg->hi[c] - cfg->lo[c], saved = w.value[x];
                double up = j->u[c] + cfg->fd_step, down = j->u[c] - cfg->fd_step;
                up = up > 1 ? 1 : up;
                down = down < 0 ? 0 : down;
                w.value[x] = cfg->lo[c] + up * range;
                position_logits(d, cfg->heur, i, &w, z);
                double lp = position_loss(d, cfg->loss, i, z, j->k);
                w.value[x] = cfg->lo[c] + down * range;
                position_logits(d, cfg->heur, i, &w, z);
                double lm = position_loss(d, cfg->loss, i, z, j->k);
                w.value[x] = saved;
                out[c] += (lp - lm) / (up - down);
            }
        }
    }
}

/*
 * Runs the job over its positions in chunks of FIT_CHUNK in parallel and adds the chunk
 * sums in chunk order into out[width] (the same bits with any thread count).
 */
static int job_run(const fit_job_t *j, double *out)
{
    long chunks = (j->n + FIT_CHUNK - 1) / FIT_CHUNK;
    double *part = malloc((size_t)(chunks ? chunks : 1) * (size_t)j->width * sizeof *part);
    if (!part)
        return -1;
    int threads = j->cfg->threads > 0 ? j->cfg->threads : 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (long c = 0; c < chunks; c++) {
        long to = (c + 1) * FIT_CHUNK < j->n ? (c + 1) * FIT_CHUNK : j->n;
        job_chunk(j, c * FIT_CHUNK, to, part + c * j->width);
    }
    for (int x = 0; x < j->width; x++)
        out[x] = 0;
    for (long c = 0; c < chunks; c++)
        for (int x = 0; x < j->width; x++)
            out[x] += part[c * j->width + x];
    free(part);
    return 0;
}

double fit_loss(const fit_data_t *d, const fit_config_t *cfg, const heur_params_t *w, double k,
                const long *idx, long n)
{
    if (n <= 0)
        return 0;
    fit_job_t j = {
        .d = d, .cfg = cfg, .kind = JOB_LOSS, .w = *w, .k = k, .idx = idx, .n = n, .width = 1};
    double sum;
    if (job_run(&j, &sum))
        return NAN;
    return sum / (double)n;
}

void fit_weights(const fit_run_t *run, const fit_config_t *cfg, heur_params_t *w)
{
    *w = cfg->start;
    for (int c = 0; c < cfg->count; c++)
        w->value[cfg->index[c]] = cfg->lo[c] + run->u[c] * (cfg->hi[c] - cfg->lo[c]);
}

/* The normalized start value of fitted weight c. */
static double start_u(const fit_config_t *cfg, int c)
{
    double range = cfg->hi[c] - cfg->lo[c];
    double u = range > 0 ? (cfg->start.value[cfg->index[c]] - cfg->lo[c]) / range : 0;
    return u < 0 ? 0 : u > 1 ? 1 : u;
}

/* Held out or not: from the position's key and the seed, whatever the order read. */
static bool position_held(const fit_data_t *d, long i, const fit_config_t *cfg)
{
    uint64_t h = rng_mix64(d->key[i] ^ rng_mix64(cfg->seed + 0x9e3779b97f4a7c15ULL));
    return (double)(h >> 11) * 0x1.0p-53 < cfg->holdout;
}

/* K minimising the training loss at the start weights: golden section on log K. */
static double fit_scale(const fit_run_t *run, const fit_data_t *d, const fit_config_t *cfg,
                        int *failed)
{
    fit_job_t j = {.d = d,
                   .cfg = cfg,
                   .kind = JOB_LOGITS,
                   .w = cfg->start,
                   .idx = run->train,
                   .n = run->train_count,
                   .width = 1};
    j.logits = malloc((size_t)j.n * (size_t)d->players * sizeof *j.logits);
    double sink;
    if (!j.logits || job_run(&j, &sink)) {
        free(j.logits);
        *failed = 1;
        return 1;
    }
    j.kind = JOB_KLOSS;
    const double g = (sqrt(5.0) - 1) / 2;
    double a = log(0.02), b = log(50.0);
    double x1 = b - g * (b - a), x2 = a + g * (b - a), f1, f2;
    j.k = exp(x1);
    job_run(&j, &f1);
    j.k = exp(x2);
    job_run(&j, &f2);
    for (int it = 0; it < 48; it++) {
        if (f1 <= f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            j.k = exp(x1);
            job_run(&j, &f1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            j.k = exp(x2);
            job_run(&j, &f2);
        }
    }
    free(j.logits);
    return exp((a + b) / 2);
}

int fit_start(fit_run_t *run, const fit_data_t *d, const fit_config_t *cfg, char *err,
              size_t errlen)
{
    memset(run, 0, sizeof *run);
    run->train = malloc((size_t)(d->count ? d->count : 1) * sizeof *run->train);
    run->held = malloc((size_t)(d->count ? d->count : 1) * sizeof *run->held);
    if (!run->train || !run->held) {
        fit_run_free(run);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (long i = 0; i < d->count; i++) {
        if (position_held(d, i, cfg))
            run->held[run->held_count++] = i;
        else
            run->train[run->train_count++] = i;
    }
    if (run->train_count == 0) {
        fit_run_free(run);
        snprintf(err, errlen, "no positions to fit (%ld read, %ld held out)", d->count, d->count);
        return -1;
    }
    int failed = 0;
    run->k = cfg->k > 0 ? cfg->k : fit_scale(run, d, cfg, &failed);
    if (failed) {
        fit_run_free(run);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int c = 0; c < cfg->count; c++)
        run->u[c] = start_u(cfg, c);
    run->start_train = fit_loss(d, cfg, &cfg->start, run->k, run->train, run->train_count);
    run->start_held = fit_loss(d, cfg, &cfg->start, run->k, run->held, run->held_count);
    run->train_loss = run->start_train;
    run->held_loss = run->start_held;
    return 0;
}

/* One Adam step from the gradient over positions idx[n] (plus the L2 pull). */
static void fit_step(fit_run_t *run, const fit_data_t *d, const fit_config_t *cfg, const long *idx,
                     long n)
{
    fit_job_t j = {.d = d,
                   .cfg = cfg,
                   .kind = JOB_GRAD,
                   .u = run->u,
                   .k = run->k,
                   .idx = idx,
                   .n = n,
                   .width = cfg->count};
    fit_weights(run, cfg, &j.w);
    double g[HEUR_MAX_PARAMS];
    if (cfg->count == 0 || job_run(&j, g))
        return;
    run->step++;
    double c1 = 1 - pow(ADAM_B1, (double)run->step), c2 = 1 - pow(ADAM_B2, (double)run->step);
    for (int c = 0; c < cfg->count; c++) {
        double grad = g[c] / (double)n + 2 * cfg->l2 * (run->u[c] - start_u(cfg, c));
        run->m[c] = ADAM_B1 * run->m[c] + (1 - ADAM_B1) * grad;
        run->v[c] = ADAM_B2 * run->v[c] + (1 - ADAM_B2) * grad * grad;
        double u = run->u[c] - cfg->lr * (run->m[c] / c1) / (sqrt(run->v[c] / c2) + ADAM_EPS);
        run->u[c] = u < 0 ? 0 : u > 1 ? 1 : u;
    }
}

void fit_epoch(fit_run_t *run, const fit_data_t *d, const fit_config_t *cfg)
{
    long n = run->train_count;
    long batch = cfg->batch > 0 && cfg->batch < n ? cfg->batch : n;
    long *order = malloc((size_t)n * sizeof *order);
    if (order) {
        /* The order of epoch e depends on the seed and e only: a resumed fit goes on
           exactly. */
        memcpy(order, run->train, (size_t)n * sizeof *order);
        pcg32_t rng;
        pcg32_seed(&rng, rng_mix64(cfg->seed ^ 0x5eedf17ULL), (uint64_t)run->epoch);
        for (long i = n - 1; batch < n && i > 0; i--) {
            long r = (long)pcg32_bounded(&rng, (uint32_t)(i + 1));
            long t = order[i];
            order[i] = order[r];
            order[r] = t;
        }
        for (long from = 0; from < n; from += batch)
            fit_step(run, d, cfg, order + from, from + batch < n ? batch : n - from);
        free(order);
    }
    run->epoch++;
    heur_params_t w;
    fit_weights(run, cfg, &w);
    run->train_loss = fit_loss(d, cfg, &w, run->k, run->train, run->train_count);
    run->held_loss = fit_loss(d, cfg, &w, run->k, run->held, run->held_count);
}

int fit_active_weights(const fit_data_t *d, const heuristic_t *heur, const heur_params_t *w,
                       int *active)
{
    int probes = d->count < FIT_PROBES ? (int)d->count : FIT_PROBES, found = 0;
    for (int x = 0; x < heur->param_count; x++) {
        const heur_param_def_t *p = &heur->params[x];
        double delta = 0.25 * (p->hi - p->lo);
        heur_params_t alt = *w;
        alt.value[x] = w->value[x] + delta <= p->hi ? w->value[x] + delta : w->value[x] - delta;
        active[x] = 0;
        for (int t = 0; t < probes && delta > 0 && !active[x]; t++) {
            const void *s = d->states + (size_t)((long)t * d->count / probes) * d->stride;
            double a[GAME_MAX_PLAYERS], b[GAME_MAX_PLAYERS];
            heur->evaluate(s, w, a);
            heur->evaluate(s, &alt, b);
            for (int q = 0; q < d->players; q++)
                if (fabs(a[q] - b[q]) > 1e-12)
                    active[x] = 1;
        }
        found += active[x];
    }
    return found;
}

void fit_run_free(fit_run_t *run)
{
    free(run->train);
    free(run->held);
    run->train = run->held = NULL;
    run->train_count = run->held_count = 0;
}

static json_t *doubles_json(const double *x, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_real(x[i]));
    return a;
}

int fit_save(const fit_run_t *run, const fit_config_t *cfg, const char *tag, const char *path,
             char *err, size_t errlen)
{
    json_t *j =
        json_pack("{s:s,s:i,s:I,s:f,s:o,s:o,s:o,s:f,s:f,s:f,s:f}", "tag", tag, "epoch", run->epoch,
                  "step", (json_int_t)run->step, "k", run->k, "u", doubles_json(run->u, cfg->count),
                  "m", doubles_json(run->m, cfg->count), "v", doubles_json(run->v, cfg->count),
                  "start_train", run->start_train, "start_held", run->start_held, "train_loss",
                  run->train_loss, "held_loss", run->held_loss);
    int rc =
        file_replace_json(path, j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(j);
    if (rc) {
        snprintf(err, errlen, "cannot write the checkpoint '%s'", path);
        return -1;
    }
    return 0;
}

/* Reads n doubles of array name of j into x: 0, or -1. */
static int doubles_read(const json_t *j, const char *name, double *x, int n)
{
    const json_t *a = json_object_get(j, name);
    if (!json_is_array(a) || json_array_size(a) != (size_t)n)
        return -1;
    for (int i = 0; i < n; i++) {
        const json_t *v = json_array_get(a, (size_t)i);
        if (!json_is_number(v))
            return -1;
        x[i] = json_number_value(v);
    }
    return 0;
}

int fit_load(fit_run_t *run, const fit_config_t *cfg, const char *tag, const char *path, char *err,
             size_t errlen)
{
    /* No checkpoint: a new fit. One that cannot be read is an error, never a new start. */
    size_t len;
    char *text = lines_read_file(path, "checkpoint", &len, err, errlen);
    if (!text)
        return errno == ENOENT ? 1 : -1;
    json_error_t jerr;
    json_t *j = json_loadb(text, len, 0, &jerr);
    free(text);
    const char *have = json_string_value(json_object_get(j, "tag"));
    const char *num[] = {"k", "start_train", "start_held", "train_loss", "held_loss"};
    double *dst[] = {&run->k, &run->start_train, &run->start_held, &run->train_loss,
                     &run->held_loss};
    int bad = !have || !json_is_integer(json_object_get(j, "epoch")) ||
              !json_is_integer(json_object_get(j, "step"));
    for (int i = 0; i < 5 && !bad; i++) {
        const json_t *v = json_object_get(j, num[i]);
        bad = !json_is_number(v);
        if (!bad)
            *dst[i] = json_number_value(v);
    }
    if (bad || doubles_read(j, "u", run->u, cfg->count) ||
        doubles_read(j, "m", run->m, cfg->count) || doubles_read(j, "v", run->v, cfg->count)) {
        json_decref(j);
        snprintf(err, errlen, "%s is not a checkpoint of skyline fit", path);
        return -1;
    }
    if (strcmp(have, tag)) {
        json_decref(j);
        snprintf(err, errlen,
                 "%s is the checkpoint of a fit with different records or options (give the "
                 "same ones, or another --checkpoint)",
                 path);
        return -1;
    }
    run->epoch = (int)json_integer_value(json_object_get(j, "epoch"));
    run->step = (long)json_integer_value(json_object_get(j, "step"));
    json_decref(j);
    return 0;
}
