/* Small SVG charts for the report (viewer/viewer.h): histograms, lines with bounds, points
   with intervals. */
#include <math.h>
#include <stdlib.h>

#include "core/svg.h"
#include "viewer/viewer.h"

#define CHART_W 640 /* px */
#define CHART_H 200 /* px of the plot area */
#define PAD_L   50  /* left margin: y labels */
#define PAD_B   36  /* bottom margin: x labels */

/* A "nice" step near range / target: 1, 2 or 5 times a power of ten, at least min_step. */
static double nice_step(double range, int target, double min_step)
{
    double raw = range / target, p = pow(10, floor(log10(raw > 0 ? raw : 1)));
    double step = raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
    return step < min_step ? min_step : step;
}

static void chart_open(FILE *out, int w, int h)
{
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n"
            "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
            w, h, w, h, w, h);
}

/* Series k's name under the chart, in its colour. */
static void chart_legend(FILE *out, int k, const char *colour, const char *name)
{
    fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"%s\" font-weight=\"bold\">", PAD_L + k * 160,
            CHART_H + PAD_B + 20, colour);
    viewer_html_escape(out, name);
    fputs("</text>\n", out);
}

/* The axes' labels, then the end of the picture. */
static void chart_close(FILE *out, const char *xlabel, const char *ylabel)
{
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", PAD_L + CHART_W / 2,
            10 + CHART_H + 30);
    viewer_html_escape(out, xlabel);
    fprintf(out,
            "</text>\n<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" "
            "text-anchor=\"middle\">",
            10 + CHART_H / 2, 10 + CHART_H / 2);
    viewer_html_escape(out, ylabel);
    fputs("</text>\n</svg>\n", out);
}

void viewer_chart_histogram(FILE *out, const double *values, long n, const char *xlabel,
                            const char *colour)
{
    if (n <= 0) {
        fputs("<p class=\"note\">no values</p>\n", out);
        return;
    }
    double lo = values[0], hi = values[0];
    for (long i = 1; i < n; i++) {
        lo = values[i] < lo ? values[i] : lo;
        hi = values[i] > hi ? values[i] : hi;
    }
    double width = nice_step(hi - lo + 1, 24, 1);
    double start = floor(lo / width) * width;
    int bins = (int)floor((hi - start) / width) + 1;
    long *count = calloc((size_t)bins, sizeof *count), most = 1;
    if (!count)
        return;
    for (long i = 0; i < n; i++) {
        int b = (int)floor((values[i] - start) / width);
        count[b < bins ? b : bins - 1]++;
    }
    for (int b = 0; b < bins; b++)
        most = count[b] > most ? count[b] : most;
    chart_open(out, CHART_W + PAD_L + 10, CHART_H + PAD_B + 10);
    double bw = (double)CHART_W / bins;
    for (int b = 0; b < bins; b++) {
        double h = (double)CHART_H * count[b] / most;
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                "<title>%g to %g: %ld</title></rect>\n",
                PAD_L + b * bw + 1, 10 + CHART_H - h, bw - 2 > 1 ? bw - 2 : 1, h, colour,
                start + b * width, start + (b + 1) * width - (width == 1 ? 1 : 0), count[b]);
    }
    int label_every = bins > 12 ? (bins + 11) / 12 : 1;
    for (int b = 0; b < bins; b += label_every)
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
                PAD_L + b * bw + bw / 2, 10 + CHART_H + 14, start + b * width);
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", PAD_L + CHART_W / 2,
            10 + CHART_H + 30);
    viewer_html_escape(out, xlabel);
    fprintf(out,
            "</text>\n<text x=\"%d\" y=\"16\" text-anchor=\"end\">%ld</text>\n"
            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n"
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n</svg>\n",
            PAD_L - 4, most, PAD_L - 4, 10 + CHART_H, PAD_L, 10 + CHART_H, PAD_L + CHART_W,
            10 + CHART_H);
    free(count);
}

void viewer_chart_lines(FILE *out, const double *const *ys, const char *const *names, int series,
                        long n, double lower, double upper, const char *xlabel, const char *ylabel)
{
    bool bounded = lower <= upper;
    double lo = bounded ? lower : INFINITY, hi = bounded ? upper : -INFINITY;
    for (int k = 0; k < series; k++)
        for (long i = 0; i < n; i++) {
            lo = ys[k][i] < lo ? ys[k][i] : lo;
            hi = ys[k][i] > hi ? ys[k][i] : hi;
        }
    if (!isfinite(lo))
        lo = hi = 0;
    double pad = (hi - lo) * 0.08 + 1e-6 * (fabs(hi) + 1);
    lo -= pad;
    hi += pad;
#define CY(v) (10 + CHART_H * (hi - (v)) / (hi - lo))
#define CX(i) (PAD_L + (double)CHART_W * (i) / (n > 1 ? n - 1 : 1))
    chart_open(out, CHART_W + PAD_L + 10, CHART_H + PAD_B + 10 + (series > 1 ? 16 : 0));
    if (bounded) {
        const double bounds[2] = {lower, upper};
        for (int k = 0; k < 2; k++)
            fprintf(out,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
                    "stroke-dasharray=\"5 3\"/>\n",
                    PAD_L, CY(bounds[k]), PAD_L + CHART_W, CY(bounds[k]),
                    k ? "#009e73" : "#d55e00");
    }
    /* y labels: the extremes of the plot and, bounded, the bounds. */
    const double marks[4] = {lo + pad, hi - pad, lower, upper};
    for (int k = 0; k < (bounded ? 4 : 2); k++)
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", PAD_L - 4,
                CY(marks[k]) + 4, marks[k]);
    for (int k = 0; k < series; k++) {
        fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
                svg_player_colour(k + 1));
        for (long i = 0; i < n; i++)
            fprintf(out, "%s%.1f,%.1f", i ? " " : "", CX(i), CY(ys[k][i]));
        fputs("\"/>\n", out);
        if (series > 1) {
            chart_legend(out, k, svg_player_colour(k + 1), names[k]);
        }
    }
    chart_close(out, xlabel, ylabel);
#undef CY
#undef CX
}

/* The range of the finite values of v[0..n) (and of lo, hi when given) into *a, *b. */
static void points_range(const double *v, const double *lo, const double *hi, long n, double *a,
                         double *b)
{
    for (long i = 0; i < n; i++) {
        const double cand[3] = {v[i], lo ? lo[i] : NAN, hi ? hi[i] : NAN};
        for (int k = 0; k < 3; k++)
            if (isfinite(cand[k]) && isfinite(v[i])) {
                *a = cand[k] < *a ? cand[k] : *a;
                *b = cand[k] > *b ? cand[k] : *b;
            }
    }
}

void viewer_chart_points(FILE *out, const double *xs, const viewer_points_t *series, int count,
                         long n, const char *xlabel, const char *ylabel)
{
    double x0 = INFINITY, x1 = -INFINITY, lo = 0, hi = 0; /* y: 0 always shown */
    for (int s = 0; s < count; s++) {
        for (long i = 0; i < n; i++)
            if (isfinite(series[s].y[i]) && isfinite(xs[i])) {
                x0 = xs[i] < x0 ? xs[i] : x0;
                x1 = xs[i] > x1 ? xs[i] : x1;
            }
        points_range(series[s].y, series[s].lo, series[s].hi, n, &lo, &hi);
    }
    if (!isfinite(x0))
        x0 = x1 = 0;
    double pad = (hi - lo) * 0.08 + 1e-6 * (fabs(hi) + 1), xpad = (x1 - x0) * 0.04 + 1e-9;
    lo -= pad;
    hi += pad;
    x0 -= xpad;
    x1 += xpad;
#define CY(v) (10 + CHART_H * (hi - (v)) / (hi - lo))
#define CX(x) (PAD_L + (double)CHART_W * ((x)-x0) / (x1 - x0))
    chart_open(out, CHART_W + PAD_L + 10, CHART_H + PAD_B + 10 + (count > 1 ? 16 : 0));
    fprintf(out,
            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#888\" "
            "stroke-dasharray=\"5 3\"/>\n",
            PAD_L, CY(0.0), PAD_L + CHART_W, CY(0.0));
    const double ymarks[3] = {lo + pad, hi - pad, 0};
    for (int k = 0; k < 3; k++)
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", PAD_L - 4,
                CY(ymarks[k]) + 4, ymarks[k]);
    const double xmarks[2] = {x0 + xpad, x1 - xpad};
    for (int k = 0; k < (xmarks[0] == xmarks[1] ? 1 : 2); k++)
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.3g</text>\n",
                CX(xmarks[k]), 10 + CHART_H + 14, xmarks[k]);
    for (int s = 0; s < count; s++) {
        const viewer_points_t *p = &series[s];
        const char *colour = svg_player_colour(s + 1);
        for (long i = 0; i < n; i++) {
            if (!isfinite(p->y[i]) || !isfinite(xs[i]))
                continue;
            double x = CX(xs[i]) + (count > 1 ? (s - (count - 1) / 2.0) * 4 : 0);
            if (p->lo && p->hi && isfinite(p->lo[i]) && isfinite(p->hi[i]))
                fprintf(out,
                        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                        "stroke-width=\"1.5\"/>\n",
                        x, CY(p->lo[i]), x, CY(p->hi[i]), colour);
            bool hollow = p->hollow && p->hollow[i];
            fprintf(out,
                    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" stroke=\"%s\" "
                    "stroke-width=\"1.5\"><title>",
                    x, CY(p->y[i]), hollow ? "#ffffff" : colour, colour);
            viewer_html_escape(out, p->titles ? p->titles[i] : "");
            fputs("</title></circle>\n", out);
        }
        if (count > 1) {
            chart_legend(out, s, colour, p->name);
        }
    }
    chart_close(out, xlabel, ylabel);
#undef CY
#undef CX
}
