/*
 * SPSA: converges near the optimum of a noisy quadratic; a run interrupted and resumed
 * from its checkpoint ends exactly where an uninterrupted run ends; bad tuning spec files
 * are refused naming the wrong line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena/spsa.h"
#include "core/rng.h"
#include "tests/test.h"

static const double optimum[3] = {2.0, -1.0, 0.5};

/* Context of the synthetic objective: its noise generator. */
typedef struct quad_ctx {
    pcg32_t rng; /* noise */
} quad_ctx_t;

/* f(x) = -sum (x_i - opt_i)^2 + noise; the evaluation returns f(plus) - f(minus). */
static double quad_eval(const double *plus, const double *minus, int count, long k, void *ctx)
{
    quad_ctx_t *q = ctx;
    pcg32_t rng;
    /* Noise depends on k only, so a resumed run sees the same noise. */
    pcg32_seed(&rng, q->rng.state, (uint64_t)k);
    double fp = 0, fm = 0;
    for (int i = 0; i < count; i++) {
        fp -= (plus[i] - optimum[i]) * (plus[i] - optimum[i]);
        fm -= (minus[i] - optimum[i]) * (minus[i] - optimum[i]);
    }
    double noise = (pcg32_double(&rng) - 0.5) * 0.4;
    return 0.1 * (fp - fm) + noise;
}

static void quad_params(spsa_param_t *p)
{
    memset(p, 0, sizeof *p * 3);
    static const char *names[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; i++) {
        snprintf(p[i].name, sizeof p[i].name, "%s", names[i]);
        p[i].value = 0;
        p[i].lo = -5;
        p[i].hi = 5;
        p[i].c = 0.5;
    }
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

int main(void)
{
    spsa_param_t params[SPSA_MAX_PARAMS];
    quad_params(params);
    spsa_config_t cfg;
    spsa_config_default(&cfg, 2000, 42);
    quad_ctx_t q;
    pcg32_seed(&q.rng, 7, 7);

    /* Convergence. */
    static spsa_t s;
    spsa_init(&s, &cfg, params, 3);
    while (s.k < cfg.iterations)
        spsa_step(&s, quad_eval, &q);
    for (int i = 0; i < 3; i++)
        CHECK_MSG(fabs(s.p[i].value - optimum[i]) < 0.2, "parameter %d at %.3f, optimum %.3f", i,
                  s.p[i].value, optimum[i]);

    /* Checkpoint and resume: 300 iterations straight, or 120 + save + load + 180. */
    char dir[] = "/tmp/skyline-spsa-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char ckpt[256], err[256];
    snprintf(ckpt, sizeof ckpt, "%s/run.ckpt", dir);
    static spsa_t straight, part, resumed;
    spsa_config_t short_cfg;
    spsa_config_default(&short_cfg, 300, 9);
    spsa_init(&straight, &short_cfg, params, 3);
    while (straight.k < 300)
        spsa_step(&straight, quad_eval, &q);
    spsa_init(&part, &short_cfg, params, 3);
    while (part.k < 120)
        spsa_step(&part, quad_eval, &q);
    CHECK(spsa_save(&part, "tag1", ckpt, err, sizeof err) == 0);
    CHECK(spsa_load(&resumed, "tag1", ckpt, err, sizeof err) == 0);
    CHECK_EQ_INT(resumed.k, 120);
    while (resumed.k < 300)
        spsa_step(&resumed, quad_eval, &q);
    for (int i = 0; i < 3; i++)
        CHECK_MSG(resumed.p[i].value == straight.p[i].value, "resumed %.17g straight %.17g",
                  resumed.p[i].value, straight.p[i].value);
    CHECK(resumed.diff_sum == straight.diff_sum);
    /* A different configuration is refused; a missing checkpoint says so. */
    CHECK(spsa_load(&resumed, "tag2", ckpt, err, sizeof err) == -1);
    CHECK(strstr(err, "different configuration") != NULL);
    char missing[300];
    snprintf(missing, sizeof missing, "%s/none.ckpt", dir);
    CHECK(spsa_load(&resumed, "tag1", missing, err, sizeof err) == 1);

    /* Spec files. */
    char spec[256];
    snprintf(spec, sizeof spec, "%s/spec.txt", dir);
    int count = 0;
    write_file(spec, "# comment\nw_a 1.0 0 2 0.1\n\nw_b -1 -3 3 0.5 # trailing\n");
    CHECK(spsa_spec_load(spec, params, &count, err, sizeof err) == 0);
    CHECK_EQ_INT(count, 2);
    CHECK(!strcmp(params[1].name, "w_b") && params[1].value == -1 && params[1].c == 0.5);
    static const struct {
        const char *text; /* file contents */
        const char *want; /* expected part of the error */
    } bad[] = {
        {"w_a 1 0 2\n", ":1: expected"},
        {"w_a 1 0 2 0.1\nw_b x 0 2 0.1\n", ":2: 'x' is not a number"},
        {"w_a 1 2 0 0.1\n", ":1: lo is above hi"},
        {"w_a 5 0 2 0.1\n", ":1: start is outside"},
        {"w_a 1 0 2 0\n", ":1: c must be positive"},
        {"w_a 1 0 2 0.1\n#\nw_a 1 0 2 0.1\n", ":3: parameter given twice"},
        {"w_a 1 0 2 0.1 7\n", ":1: expected"},
        {"# nothing\n", "no parameter"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(spec, bad[i].text);
        int rc = spsa_spec_load(spec, params, &count, err, sizeof err);
        CHECK_MSG(rc == -1 && strstr(err, bad[i].want), "case %zu: rc %d err '%s'", i, rc, err);
    }
    snprintf(spec, sizeof spec, "%s/absent.txt", dir);
    CHECK(spsa_spec_load(spec, params, &count, err, sizeof err) == -1);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return test_finish("test_spsa");
}
