#pragma once
/*
 * SPSA (simultaneous perturbation stochastic approximation), as fishtest tunes chess
 * engines, with per-parameter steps and bounds, a deterministic perturbation per
 * iteration (so a resumed run continues exactly) and checkpoints.
 */
#include <stddef.h>
#include <stdint.h>

#define SPSA_MAX_PARAMS 32
/*
 * Default stability constant A: 10% of a 400-iteration run. Fixed rather than 10% of the
 * budget so that the gains of iteration k do not depend on the budget: a finished run
 * extended to more iterations ends exactly as a run of that length from the start.
 */
#define SPSA_DEFAULT_A 40.0

/* One tuned parameter. */
typedef struct spsa_param {
    char name[32]; /* parameter name */
    double value;  /* current estimate theta */
    double lo, hi; /* bounds: theta and its perturbations stay inside */
    double c;      /* perturbation size at iteration 0 */
} spsa_param_t;

/* Gain sequences: a_k = a / (A + k + 1)^alpha, c_k = c / (k + 1)^gamma. */
typedef struct spsa_config {
    double a;        /* step scale; the update of parameter i is a_k * c_i^2 * gradient_i */
    double A;        /* stability constant (default SPSA_DEFAULT_A) */
    double alpha;    /* step decay exponent (0.602) */
    double gamma;    /* perturbation decay exponent (0.101) */
    long iterations; /* iterations to run (the gains do not depend on it) */
    uint64_t seed;   /* fixes every perturbation */
} spsa_config_t;

typedef struct spsa {
    spsa_config_t cfg;               /* gains and budget */
    int count;                       /* parameters */
    spsa_param_t p[SPSA_MAX_PARAMS]; /* parameters, theta in value */
    long k;                          /* iterations done */
    double diff_sum;                 /* sum of the observed differences f(+) - f(-) */
    double last_diff;                /* the last iteration's difference */
} spsa_t;

/*
 * Evaluates one iteration: plays theta+ (plus) against theta- (minus) on common random
 * numbers and returns the difference of their mean results, f(plus) - f(minus).
 */
typedef double (*spsa_eval_fn)(const double *plus, const double *minus, int count, long k,
                               void *ctx);

/* Defaults: a = 2 (A+1)^alpha, A = SPSA_DEFAULT_A, alpha 0.602, gamma 0.101. */
void spsa_config_default(spsa_config_t *cfg, long iterations, uint64_t seed);

/* Starts a run over count parameters (copied from params). */
void spsa_init(spsa_t *s, const spsa_config_t *cfg, const spsa_param_t *params, int count);

/* The perturbed points of iteration s->k: plus and minus, each count values. */
void spsa_points(const spsa_t *s, double *plus, double *minus);

/* One iteration: evaluates the points and updates theta; returns the difference. */
double spsa_step(spsa_t *s, spsa_eval_fn eval, void *ctx);

/*
 * Reads a tuning spec file: one `name start lo hi c` a line, # comments. 0, or -1 with
 * err "FILE:LINE: what is wrong" (too few or many fields, bad number, lo > hi, start
 * outside the bounds, c <= 0, a name twice, too many parameters).
 */
int spsa_spec_load(const char *path, spsa_param_t *params, int *count, char *err, size_t errlen);

/*
 * Checkpoints: the whole run (config, theta, k, sums) and a configuration tag that a
 * resume must match, as JSON, written to a temporary file then renamed (a crash leaves the
 * old checkpoint or the new one, never half of one).
 */
int spsa_save(const spsa_t *s, const char *tag, const char *path, char *err, size_t errlen);
/* 0 loaded, 1 no checkpoint at path, -1 error (err filled; a different tag is an error). */
int spsa_load(spsa_t *s, const char *tag, const char *path, char *err, size_t errlen);
