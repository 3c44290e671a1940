/* The tuning page (viewer/viewer.h): a tune log drawn as weight paths and results. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "viewer/viewer.h"

#define TUNE_MAX_WEIGHTS 64

/* The log's columns: per weight and per result, one value per iteration. */
typedef struct tune_data {
    int weight_count;                     /* weights */
    char *names[TUNE_MAX_WEIGHTS];        /* their names, in the log's order */
    double *values[TUNE_MAX_WEIGHTS + 3]; /* per weight, then result_plus, result_minus,
                                               mean_diff: one value per iteration */
    long count;                           /* iterations */
    long cap;                             /* room */
    long games;                           /* games of the last iteration */
    const char *log_path;                 /* the log read, named on the page */
} tune_data_t;

/* One line of the tune log into d (viewer_read_log). */
static int tune_add(void *ctx, const json_t *line)
{
    tune_data_t *d = ctx;
    const json_t *theta = json_object_get(line, "theta");
    if (!json_is_object(theta) || !json_is_integer(json_object_get(line, "iteration")))
        return -1;
    if (d->count == 0) {
        const char *name;
        const json_t *v;
        json_object_foreach((json_t *)theta, name, v)
        {
            if (d->weight_count == TUNE_MAX_WEIGHTS)
                return -1;
            d->names[d->weight_count++] = strdup(name);
        }
    }
    if (d->count == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 64;
        for (int k = 0; k < d->weight_count + 3; k++)
            if (!(d->values[k] = realloc(d->values[k], sizeof(double) * (size_t)d->cap)))
                return -1;
    }
    for (int k = 0; k < d->weight_count; k++)
        d->values[k][d->count] = json_number_value(json_object_get(theta, d->names[k]));
    static const char *const keys[3] = {"result_plus", "result_minus", "mean_diff"};
    for (int k = 0; k < 3; k++)
        d->values[d->weight_count + k][d->count] =
            json_number_value(json_object_get(line, keys[k]));
    d->games = (long)json_integer_value(json_object_get(line, "games"));
    d->count++;
    return 0;
}

/* The page of d (a tune_data_t) into out: 0, or -1 if a write failed (viewer_page_write). */
static int write_page(FILE *out, void *ctx)
{
    const tune_data_t *d = ctx;
    const char *log_path = d->log_path;
    viewer_page_open(out, "Skyline tuning");
    fputs("<h1>Skyline tuning</h1>\n<p class=\"meta\">", out);
    fprintf(out, "%ld iterations of %d weights, %ld games each; from ", d->count, d->weight_count,
            d->games);
    viewer_html_escape(out, log_path);
    fputs("</p>\n<h2>Results per iteration</h2>\n<p class=\"note\">The mean result of the "
          "plus and the minus side of each iteration against the reference, and the running "
          "mean of their difference.</p>\n",
          out);
    char iterations[48];
    snprintf(iterations, sizeof iterations, "iteration (%ld)", d->count);
    const double *ys[2] = {d->values[d->weight_count], d->values[d->weight_count + 1]};
    const char *names[2] = {"result plus", "result minus"};
    viewer_chart_lines(out, ys, names, 2, d->count, NAN, NAN, iterations, "mean result");
    const double *md[1] = {d->values[d->weight_count + 2]};
    const char *mdn[1] = {"mean diff"};
    viewer_chart_lines(out, md, mdn, 1, d->count, NAN, NAN, iterations, "mean diff");
    fputs("<h2>Weights</h2>\n<table><tr><th class=\"l\">weight</th><th>first</th><th>last</th>"
          "</tr>\n",
          out);
    for (int k = 0; k < d->weight_count; k++) {
        fputs("<tr><td class=\"l\"><a href=\"#w", out);
        fprintf(out, "%d\">", k);
        viewer_html_escape(out, d->names[k]);
        fprintf(out, "</a></td><td>%.4g</td><td>%.4g</td></tr>\n", d->values[k][0],
                d->values[k][d->count - 1]);
    }
    fputs("</table>\n", out);
    for (int k = 0; k < d->weight_count; k++) {
        fprintf(out, "<h2 id=\"w%d\">", k);
        viewer_html_escape(out, d->names[k]);
        fputs("</h2>\n", out);
        const double *w[1] = {d->values[k]};
        const char *wn[1] = {d->names[k]};
        viewer_chart_lines(out, w, wn, 1, d->count, NAN, NAN, iterations, "value");
    }
    return viewer_page_close(out, false);
}

int viewer_write_tune(const char *path, const char *log_path, char *err, size_t errlen)
{
    tune_data_t d;
    memset(&d, 0, sizeof d);
    int rc = -1;
    if (viewer_page_check(path, err, errlen))
        return -1;
    d.log_path = log_path;
    if (viewer_read_log(log_path, "tune log", tune_add, &d, err, errlen))
        goto done;
    if (d.count == 0) {
        snprintf(err, errlen, "the tune log '%s' holds no iteration", log_path);
        goto done;
    }
    if (viewer_page_write(path, write_page, &d, err, errlen))
        goto done;
    rc = 0;
done:
    for (int k = 0; k < d.weight_count; k++)
        free(d.names[k]);
    for (int k = 0; k < d.weight_count + 3; k++)
        free(d.values[k]);
    return rc;
}
