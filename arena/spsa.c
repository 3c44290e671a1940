#include "spsa.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lines.h"
#include "core/replace.h"
#include "core/rng.h"

void spsa_config_default(spsa_config_t *cfg, long iterations, uint64_t seed)
{
    cfg->iterations = iterations;
    cfg->seed = seed;
    cfg->alpha = 0.602;
    cfg->gamma = 0.101;
    cfg->A = SPSA_DEFAULT_A;
    cfg->a = 2.0 * pow(cfg->A + 1.0, cfg->alpha);
}

void spsa_init(spsa_t *s, const spsa_config_t *cfg, const spsa_param_t *params, int count)
{
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->count = count;
    memcpy(s->p, params, sizeof *params * (size_t)count);
}

static double spsa_clamp(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The +-1 perturbation of iteration k: a function of the seed and k only. */
static void spsa_delta(const spsa_t *s, long k, int *delta)
{
    pcg32_t rng;
    pcg32_seed(&rng, rng_mix64(s->cfg.seed), (uint64_t)k);
    for (int i = 0; i < s->count; i++)
        delta[i] = (pcg32_next(&rng) & 1) ? 1 : -1;
}

static double spsa_ck(const spsa_t *s, int i)
{
    return s->p[i].c / pow((double)s->k + 1.0, s->cfg.gamma);
}

void spsa_points(const spsa_t *s, double *plus, double *minus)
{
    int delta[SPSA_MAX_PARAMS];
    spsa_delta(s, s->k, delta);
    for (int i = 0; i < s->count; i++) {
        double ck = spsa_ck(s, i);
        plus[i] = spsa_clamp(s->p[i].value + ck * delta[i], s->p[i].lo, s->p[i].hi);
        minus[i] = spsa_clamp(s->p[i].value - ck * delta[i], s->p[i].lo, s->p[i].hi);
    }
}

double spsa_step(spsa_t *s, spsa_eval_fn eval, void *ctx)
{
    double plus[SPSA_MAX_PARAMS], minus[SPSA_MAX_PARAMS];
    int delta[SPSA_MAX_PARAMS];
    spsa_points(s, plus, minus);
    spsa_delta(s, s->k, delta);
    double diff = eval(plus, minus, s->count, s->k, ctx);
    double ak = s->cfg.a / pow(s->cfg.A + (double)s->k + 1.0, s->cfg.alpha);
    for (int i = 0; i < s->count; i++) {
        double ck = spsa_ck(s, i);
        /* Gradient estimate; the c_i^2 factor makes a dimensionless across parameters. */
        double grad = diff / (2.0 * ck * delta[i]);
        double v = s->p[i].value + ak * s->p[i].c * s->p[i].c * grad;
        s->p[i].value = spsa_clamp(v, s->p[i].lo, s->p[i].hi);
    }
    s->k++;
    s->diff_sum += diff;
    s->last_diff = diff;
    return diff;
}

static int spsa_number(const char *tok, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(tok, &end);
    if (errno || end == tok || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int spsa_spec_load(const char *path, spsa_param_t *params, int *count, char *err, size_t errlen)
{
    FILE *f = lines_open(path, "tuning spec file", LINES_FILE_MAX, err, errlen);
    if (!f)
        return -1;
    lines_reader_t lr;
    lines_init(&lr, f);
    int lineno = 0, n = 0, rc = 0, got;
    while ((got = lines_next(&lr)) > 0) {
        char *line = lr.text;
        lineno = (int)lr.lineno;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *tok[6];
        int t = 0;
        for (char *p = strtok(line, " \t\r\n"); p; p = strtok(NULL, " \t\r\n"))
            if (t < 6)
                tok[t++] = p;
            else
                t = 7;
        if (t == 0)
            continue;
        double v[4];
        if (t != 5) {
            snprintf(err, errlen, "%s:%d: expected 'name start lo hi c'", path, lineno);
            rc = -1;
            break;
        }
        int bad = -1;
        for (int i = 0; i < 4 && bad < 0; i++)
            if (spsa_number(tok[i + 1], &v[i]))
                bad = i + 1;
        if (bad >= 0) {
            snprintf(err, errlen, "%s:%d: '%s' is not a number", path, lineno, tok[bad]);
            rc = -1;
            break;
        }
        const char *why = NULL;
        if (strlen(tok[0]) >= sizeof params[0].name)
            why = "name too long";
        else if (v[1] > v[2])
            why = "lo is above hi";
        else if (v[0] < v[1] || v[0] > v[2])
            why = "start is outside [lo, hi]";
        else if (!(v[3] > 0))
            why = "c must be positive";
        else if (n == SPSA_MAX_PARAMS)
            why = "too many parameters";
        for (int i = 0; i < n && !why; i++)
            if (!strcmp(params[i].name, tok[0]))
                why = "parameter given twice";
        if (why) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
            rc = -1;
            break;
        }
        memset(&params[n], 0, sizeof params[n]);
        snprintf(params[n].name, sizeof params[n].name, "%s", tok[0]);
        params[n].value = v[0];
        params[n].lo = v[1];
        params[n].hi = v[2];
        params[n].c = v[3];
        n++;
    }
    if (got < 0 && rc == 0) {
        lines_error(&lr, path, err, errlen);
        rc = -1;
    }
    lines_free(&lr);
    fclose(f);
    if (rc == 0 && n == 0) {
        snprintf(err, errlen, "%s: no parameter to tune", path);
        rc = -1;
    }
    *count = n;
    return rc;
}

int spsa_save(const spsa_t *s, const char *tag, const char *path, char *err, size_t errlen)
{
    json_t *params = json_array();
    for (int i = 0; i < s->count; i++)
        json_array_append_new(params, json_pack("{s:s,s:f,s:f,s:f,s:f}", "name", s->p[i].name,
                                                "value", s->p[i].value, "lo", s->p[i].lo, "hi",
                                                s->p[i].hi, "c", s->p[i].c));
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)s->cfg.seed);
    json_t *root =
        json_pack("{s:s,s:s,s:I,s:I,s:f,s:f,s:f,s:f,s:s,s:f,s:f,s:o}", "spsa", "skyline", "tag",
                  tag, "k", (json_int_t)s->k, "iterations", (json_int_t)s->cfg.iterations, "a",
                  s->cfg.a, "A", s->cfg.A, "alpha", s->cfg.alpha, "gamma", s->cfg.gamma, "seed",
                  seed, "diff_sum", s->diff_sum, "last_diff", s->last_diff, "params", params);
    int rc = file_replace_json(path, root, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
    json_decref(root);
    if (rc) {
        snprintf(err, errlen, "%s: cannot write the checkpoint", path);
        return -1;
    }
    return 0;
}

int spsa_load(spsa_t *s, const char *tag, const char *path, char *err, size_t errlen)
{
    /* No checkpoint: a new run. One that cannot be read is an error, never a new start. */
    size_t len;
    char *text = lines_read_file(path, "checkpoint", &len, err, errlen);
    if (!text)
        return errno == ENOENT ? 1 : -1;
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    free(text);
    if (!root) {
        snprintf(err, errlen, "%s: not a checkpoint (%s)", path, jerr.text);
        return -1;
    }
    int rc = -1;
    const char *ftag = json_string_value(json_object_get(root, "tag"));
    json_t *params = json_object_get(root, "params");
    const char *seed = json_string_value(json_object_get(root, "seed"));
    if (!ftag || !json_is_array(params) || !seed || json_array_size(params) > SPSA_MAX_PARAMS) {
        snprintf(err, errlen, "%s: not a checkpoint of skyline tune", path);
    } else if (strcmp(ftag, tag)) {
        snprintf(err, errlen,
                 "%s: checkpoint of a different configuration (%s); remove it or change --out",
                 path, ftag);
    } else {
        memset(s, 0, sizeof *s);
        s->k = (long)json_integer_value(json_object_get(root, "k"));
        s->cfg.iterations = (long)json_integer_value(json_object_get(root, "iterations"));
        s->cfg.a = json_number_value(json_object_get(root, "a"));
        s->cfg.A = json_number_value(json_object_get(root, "A"));
        s->cfg.alpha = json_number_value(json_object_get(root, "alpha"));
        s->cfg.gamma = json_number_value(json_object_get(root, "gamma"));
        s->cfg.seed = strtoull(seed, NULL, 10);
        s->diff_sum = json_number_value(json_object_get(root, "diff_sum"));
        s->last_diff = json_number_value(json_object_get(root, "last_diff"));
        s->count = (int)json_array_size(params);
        for (int i = 0; i < s->count; i++) {
            json_t *p = json_array_get(params, (size_t)i);
            const char *name = json_string_value(json_object_get(p, "name"));
            snprintf(s->p[i].name, sizeof s->p[i].name, "%s", name ? name : "?");
            s->p[i].value = json_number_value(json_object_get(p, "value"));
            s->p[i].lo = json_number_value(json_object_get(p, "lo"));
            s->p[i].hi = json_number_value(json_object_get(p, "hi"));
            s->p[i].c = json_number_value(json_object_get(p, "c"));
        }
        rc = 0;
    }
    json_decref(root);
    return rc;
}
