/* The self-play loop's page (viewer/viewer.h, docs/ZERO.md): its log drawn as curves, the
   gate's decisions with their intervals, and Elo against the CPU time spent. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "viewer/viewer.h"

/* The columns drawn: one value per generation of the log (NAN: none yet). */
enum {
    Z_LOSS_P,
    Z_LOSS_V,
    Z_HELD_P,
    Z_HELD_V,
    Z_GEN0,
    Z_GEN0_LO,
    Z_GEN0_HI,
    Z_MCTS,
    Z_MCTS_LO,
    Z_MCTS_HI,
    Z_GATE,
    Z_GATE_LO,
    Z_GATE_HI,
    Z_GPH,
    Z_CPU_PLAY,  /* CPU seconds of self-play */
    Z_CPU_TRAIN, /* and of training */
    Z_COLUMNS
};

typedef struct zero_gen {
    double v[Z_COLUMNS];
    int decided; /* 0 none, 1 promoted, -1 rejected */
    char reason[160];
    long best;
} zero_gen_t;

typedef struct zero_data {
    zero_gen_t *gens; /* index: generation - 1 */
    long count;       /* generations with a line */
    char game[64];
    long players;
    const char *log_path; /* the log read, named on the page */
} zero_data_t;

static double num(const json_t *line, const char *key)
{
    const json_t *v = json_object_get(line, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A step's CPU seconds: cpu_seconds, or in a log without them its seconds. */
static double cpu_seconds(const json_t *line)
{
    double v = num(line, "cpu_seconds");
    return isnan(v) ? num(line, "seconds") : v;
}

/* One line of the zero log into d (viewer_read_log). */
static int zero_add(void *ctx, const json_t *line)
{
    zero_data_t *d = ctx;
    const char *step = json_string_value(json_object_get(line, "step"));
    const json_t *g = json_object_get(line, "gen");
    if (!step || !json_is_integer(g) || json_integer_value(g) < 0 ||
        json_integer_value(g) > 1000000)
        return -1;
    long gen = (long)json_integer_value(g);
    if (!strcmp(step, "start")) {
        const json_t *c = json_object_get(line, "config");
        const char *game = json_string_value(json_object_get(c, "game"));
        snprintf(d->game, sizeof d->game, "%s", game ? game : "?");
        d->players = (long)json_integer_value(json_object_get(c, "players"));
        return 0;
    }
    if (gen < 1)
        return 0;
    if (gen > d->count) {
        zero_gen_t *m = realloc(d->gens, sizeof *m * (size_t)gen);
        if (!m)
            return -1;
        d->gens = m;
        for (long i = d->count; i < gen; i++) {
            memset(&m[i], 0, sizeof m[i]);
            for (int k = 0; k < Z_COLUMNS; k++)
                m[i].v[k] = NAN;
        }
        d->count = gen;
    }
    zero_gen_t *z = &d->gens[gen - 1];
    if (!strcmp(step, "train")) {
        z->v[Z_CPU_TRAIN] = cpu_seconds(line);
        z->v[Z_LOSS_P] = num(line, "loss_policy");
        z->v[Z_LOSS_V] = num(line, "loss_value");
        z->v[Z_HELD_P] = num(line, "heldout_policy");
        z->v[Z_HELD_V] = num(line, "heldout_value");
    } else if (!strcmp(step, "selfplay")) {
        z->v[Z_GPH] = num(line, "games_per_hour");
        z->v[Z_CPU_PLAY] = cpu_seconds(line);
    } else if (!strcmp(step, "gate") || !strcmp(step, "eval")) {
        const char *against = json_string_value(json_object_get(line, "against"));
        int at = !strcmp(step, "gate")                 ? Z_GATE
                 : against && !strcmp(against, "gen0") ? Z_GEN0
                                                       : Z_MCTS;
        z->v[at] = num(line, "elo");
        z->v[at + 1] = num(line, "elo_lo");
        z->v[at + 2] = num(line, "elo_hi");
    } else if (!strcmp(step, "decision")) {
        z->decided = json_is_true(json_object_get(line, "promoted")) ? 1 : -1;
        const char *r = json_string_value(json_object_get(line, "reason"));
        snprintf(z->reason, sizeof z->reason, "%s", r ? r : "");
        z->best = (long)json_integer_value(json_object_get(line, "best"));
    }
    return 0;
}

/* A chart of the columns cols (names) over the generations that have the first one. */
static void zero_chart(FILE *out, const zero_data_t *d, const int *cols, const char *const *names,
                       int series, const char *ylabel)
{
    double *ys[8];
    long n = 0;
    for (int k = 0; k < series; k++)
        ys[k] = malloc(sizeof(double) * (size_t)(d->count + 1));
    for (long i = 0; i < d->count; i++) {
        if (isnan(d->gens[i].v[cols[0]]))
            continue;
        for (int k = 0; k < series; k++) {
            double v = d->gens[i].v[cols[k]];
            ys[k][n] = isnan(v) ? d->gens[i].v[cols[0]] : v;
        }
        n++;
    }
    if (n == 0)
        fputs("<p class=\"note\">Nothing yet.</p>\n", out);
    else
        viewer_chart_lines(out, (const double *const *)ys, names, series, n, NAN, NAN, "generation",
                           ylabel);
    for (int k = 0; k < series; k++)
        free(ys[k]);
}

static void cell(FILE *out, double v, double lo, double hi)
{
    if (isnan(v))
        fputs("<td>-</td>", out);
    else if (isnan(lo))
        fprintf(out, "<td>%.0f</td>", v);
    else
        fprintf(out, "<td>%+.0f [%+.0f, %+.0f]</td>", v, lo, hi);
}

/* The CPU hours spent when each generation ended (self-play and training, summed). */
static void cpu_hours(const zero_data_t *d, double *xs)
{
    double sum = 0;
    for (long i = 0; i < d->count; i++) {
        for (int k = Z_CPU_PLAY; k <= Z_CPU_TRAIN; k++)
            sum += isnan(d->gens[i].v[k]) ? 0 : d->gens[i].v[k];
        xs[i] = sum / 3600;
    }
}

/* Points of column at (and its interval) per generation, with tooltips "gen G[, X CPU h]:
   ELO [LO, HI]" and the decision; rejected generations hollow when gate. */
static void zero_points(const zero_data_t *d, int at, const double *hours, double *y, double *lo,
                        double *hi, bool *hollow, char **titles, bool gate)
{
    for (long i = 0; i < d->count; i++) {
        const zero_gen_t *z = &d->gens[i];
        y[i] = z->v[at];
        lo[i] = z->v[at + 1];
        hi[i] = z->v[at + 2];
        hollow[i] = gate && z->decided < 0;
        char when[64] = "";
        if (hours)
            snprintf(when, sizeof when, ", %.3g CPU h", hours[i]);
        titles[i] = malloc(256);
        if (titles[i])
            snprintf(titles[i], 256, "gen %ld%s: %+.0f [%+.0f, %+.0f]%s%s", i + 1, when, y[i],
                     lo[i], hi[i],
                     !gate            ? ""
                     : z->decided > 0 ? " promoted: "
                                      : " rejected: ",
                     gate ? z->reason : "");
    }
}

/* Draws the points, or says there are none yet. */
static void zero_points_chart(FILE *out, const double *xs, const viewer_points_t *series, int count,
                              long n, const char *xlabel)
{
    long found = 0;
    for (int s = 0; s < count; s++)
        for (long i = 0; i < n; i++)
            found += !isnan(series[s].y[i]);
    if (found)
        viewer_chart_points(out, xs, series, count, n, xlabel, "elo");
    else
        fputs("<p class=\"note\">Nothing yet.</p>\n", out);
}

/* The gate of each generation (the candidate against the best net, its interval; hollow:
   rejected) and Elo against the CPU time spent. */
static void zero_point_charts(FILE *out, const zero_data_t *d)
{
    long n = d->count;
    double *buf = calloc((size_t)(n + 1) * 8, sizeof *buf);
    bool *hollow = calloc((size_t)(n + 1) * 2, sizeof *hollow);
    char **titles = calloc((size_t)(n + 1) * 2, sizeof *titles);
    if (!buf || !hollow || !titles) {
        fputs("<p class=\"note\">out of memory</p>\n", out);
        goto done;
    }
    double *gens = buf, *hours = buf + n + 1, *v = buf + 2 * (n + 1);
    for (long i = 0; i < n; i++)
        gens[i] = (double)(i + 1);
    cpu_hours(d, hours);
    fputs("<h2>Gate decisions</h2>\n<p class=\"note\">Each candidate against the best net "
          "(at 0), with its 95% interval: filled, promoted by the SPRT; hollow, rejected.</p>\n",
          out);
    viewer_points_t gate = {"gate",          v,      v + n + 1,
                            v + 2 * (n + 1), hollow, (const char *const *)titles};
    zero_points(d, Z_GATE, NULL, v, v + n + 1, v + 2 * (n + 1), hollow, titles, true);
    zero_points_chart(out, gens, &gate, 1, n, "generation");
    for (long i = 0; i < n; i++)
        free(titles[i]);
    fputs("<h2>Elo against training time</h2>\n<p class=\"note\">The best net after each "
          "generation against generation 0 and against mcts, with their 95% intervals, by the "
          "CPU hours of self-play and training spent so far.</p>\n",
          out);
    double *w = v + 3 * (n + 1);
    viewer_points_t elo[2] = {
        {"vs generation 0", v, v + n + 1, v + 2 * (n + 1), NULL, (const char *const *)titles},
        {"vs mcts", w, w + n + 1, w + 2 * (n + 1), NULL, (const char *const *)titles + n + 1}};
    zero_points(d, Z_GEN0, hours, v, v + n + 1, v + 2 * (n + 1), hollow, titles, false);
    zero_points(d, Z_MCTS, hours, w, w + n + 1, w + 2 * (n + 1), hollow + n + 1, titles + n + 1,
                false);
    zero_points_chart(out, hours, elo, 2, n, "CPU hours (self-play and training)");
    for (long i = 0; i < 2 * (n + 1); i++)
        free(titles[i]);
done:
    free(buf);
    free(hollow);
    free(titles);
}

/* The page of d (a zero_data_t) into out: 0, or -1 if a write failed (viewer_page_write). */
static int write_page(FILE *out, void *ctx)
{
    const zero_data_t *d = ctx;
    const char *log_path = d->log_path;
    viewer_page_open(out, "Skyline self-play");
    fprintf(out, "<h1>Skyline self-play: %s, %ld players</h1>\n<p class=\"meta\">", d->game,
            d->players);
    fprintf(out, "%ld generations; from ", d->count);
    viewer_html_escape(out, log_path);
    fputs("</p>\n<h2>Losses</h2>\n<p class=\"note\">The trainer's last epoch per "
          "generation: on the training positions and on the held-out games.</p>\n",
          out);
    const int loss[4] = {Z_LOSS_P, Z_LOSS_V, Z_HELD_P, Z_HELD_V};
    const char *loss_n[4] = {"policy", "value", "held-out policy", "held-out value"};
    zero_chart(out, d, loss, loss_n, 4, "loss");
    fputs("<h2>Elo against generation 0</h2>\n<p class=\"note\">The best net after each "
          "generation, with its 95% interval (skyline rate).</p>\n",
          out);
    const int g0[3] = {Z_GEN0, Z_GEN0_LO, Z_GEN0_HI};
    const char *elo_n[3] = {"elo", "95% low", "95% high"};
    zero_chart(out, d, g0, elo_n, 3, "elo");
    fputs("<h2>Elo against mcts</h2>\n<p class=\"note\">The best net against plain mcts at "
          "the same iterations.</p>\n",
          out);
    const int mc[3] = {Z_MCTS, Z_MCTS_LO, Z_MCTS_HI};
    zero_chart(out, d, mc, elo_n, 3, "elo");
    zero_point_charts(out, d);
    fputs("<h2>Self-play speed</h2>\n", out);
    const int gph[1] = {Z_GPH};
    const char *gph_n[1] = {"games per hour"};
    zero_chart(out, d, gph, gph_n, 1, "games per hour");
    fputs("<h2>Generations</h2>\n<table><tr><th>gen</th><th class=\"l\">decision</th>"
          "<th class=\"l\">reason</th><th>best</th><th>gate elo</th><th>elo vs gen 0</th>"
          "<th>elo vs mcts</th><th>games/hour</th><th>CPU hours</th></tr>\n",
          out);
    double *hours = malloc(sizeof *hours * (size_t)(d->count + 1));
    if (hours)
        cpu_hours(d, hours);
    for (long i = 0; i < d->count; i++) {
        const zero_gen_t *z = &d->gens[i];
        fprintf(out, "<tr><td>%ld</td><td class=\"l\">%s</td><td class=\"l\">", i + 1,
                z->decided > 0   ? "<b>promoted</b>"
                : z->decided < 0 ? "rejected"
                                 : "-");
        viewer_html_escape(out, z->reason);
        fprintf(out, "</td><td>%ld</td>", z->best);
        cell(out, z->v[Z_GATE], z->v[Z_GATE_LO], z->v[Z_GATE_HI]);
        cell(out, z->v[Z_GEN0], z->v[Z_GEN0_LO], z->v[Z_GEN0_HI]);
        cell(out, z->v[Z_MCTS], z->v[Z_MCTS_LO], z->v[Z_MCTS_HI]);
        cell(out, z->v[Z_GPH], NAN, NAN);
        fprintf(out, "<td>%.3g</td></tr>\n", hours ? hours[i] : NAN);
    }
    free(hours);
    fputs("</table>\n", out);
    return viewer_page_close(out, false);
}

int viewer_write_zero(const char *path, const char *log_path, char *err, size_t errlen)
{
    zero_data_t d;
    memset(&d, 0, sizeof d);
    snprintf(d.game, sizeof d.game, "?");
    int rc = -1;
    if (viewer_page_check(path, err, errlen))
        return -1;
    d.log_path = log_path;
    if (viewer_read_log(log_path, "zero log", zero_add, &d, err, errlen) == 0 &&
        viewer_page_write(path, write_page, &d, err, errlen) == 0)
        rc = 0;
    free(d.gens);
    return rc;
}
