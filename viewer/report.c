/*
 * The tournament report (viewer/viewer.h): one page from record files, with the ratings of
 * arena/rating.h drawn as a chart with error bars, the pairwise matrix, results by seat,
 * distributions, the SPRT's progress and the games, each opening in its replay viewer.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "arena/rating.h"
#include "core/lines.h"
#include "core/svg.h"
#include "viewer/picture.h"
#include "viewer/viewer.h"

#define REPORT_MAX_BOTS 256

/* The games and bots read from the files. */
typedef struct report_data {
    json_t **recs;                /* the records, in list order */
    rating_game_t *games;         /* the same games as the statistics see them */
    long *numbers;                /* per game: its tournament index, or its place in the files */
    int *file;                    /* per game: its file (index in viewer_report_t.files) */
    long *ordinal;                /* per game: its record's place in that file, from 0 */
    long count;                   /* games */
    long cap;                     /* room */
    int bot_count;                /* bots, in order of first appearance */
    char *specs[REPORT_MAX_BOTS]; /* their specs */
    char labels[REPORT_MAX_BOTS][RATING_LABEL_MAX]; /* their labels A, B, ... */
    int by_label[REPORT_MAX_BOTS];                  /* the bots in label order */
    const game_api_t *api;                          /* the game */
    const viewer_report_t *report;                  /* what the page is asked for */
    const char *dir_name; /* the folder of the game viewers, as linked; NULL: none */
} report_data_t;

static int report_lookup(void *ctx, const char *spec)
{
    report_data_t *d = ctx;
    for (int i = 0; i < d->bot_count; i++)
        if (!strcmp(d->specs[i], spec))
            return i;
    if (d->bot_count == REPORT_MAX_BOTS || !(d->specs[d->bot_count] = strdup(spec)))
        return -1;
    return d->bot_count++;
}

static int read_file(report_data_t *d, const char *path, int file, int players, char *err,
                     size_t errlen)
{
    long ordinal = 0;
    FILE *f = lines_open(path, "record file", 0, err, errlen);
    if (!f)
        return -1;
    lines_reader_t r;
    lines_init(&r, f);
    long lineno = 0;
    int rc = 0, got = 0;
    while (rc == 0 && (got = lines_next(&r)) > 0) {
        lineno = r.lineno;
        if (r.len == 0)
            continue;
        json_t *rec = json_loads(r.text, 0, NULL);
        if (!rec && r.cut)
            break; /* a last line cut short by a running writer */
        const char *game = json_string_value(json_object_get(rec, "game"));
        const game_api_t *api = game ? game_find(game) : NULL;
        const json_t *pj = json_object_get(rec, "players");
        if (api && players && json_is_integer(pj) && json_integer_value(pj) != players) {
            /* another player count (rate --players N): not in the report */
        } else if (!api) {
            snprintf(err, errlen, "%s:%ld: not a record of a known game", path, lineno);
            rc = -1;
        } else if (d->api && d->api != api) {
            snprintf(err, errlen, "%s:%ld: a %s record among %s records", path, lineno, game,
                     d->api->name);
            rc = -1;
        } else if (d->count == d->cap &&
                   (d->cap = d->cap ? 2 * d->cap : 256,
                    !(d->recs = realloc(d->recs, sizeof *d->recs * (size_t)d->cap)) ||
                        !(d->games = realloc(d->games, sizeof *d->games * (size_t)d->cap)) ||
                        !(d->numbers = realloc(d->numbers, sizeof *d->numbers * (size_t)d->cap)) ||
                        !(d->file = realloc(d->file, sizeof *d->file * (size_t)d->cap)) ||
                        !(d->ordinal = realloc(d->ordinal, sizeof *d->ordinal * (size_t)d->cap)))) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
        } else {
            char why[GAME_ERR_MAX];
            d->api = api;
            if (rating_game_from_record(rec, report_lookup, d, &d->games[d->count], why,
                                        sizeof why)) {
                snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
                rc = -1;
            } else {
                const json_t *index = json_object_get(json_object_get(rec, "tournament"), "index");
                d->numbers[d->count] =
                    json_is_integer(index) ? (long)json_integer_value(index) : d->count;
                d->file[d->count] = file;
                d->ordinal[d->count] = ordinal;
                d->recs[d->count++] = json_incref(rec);
            }
        }
        json_decref(rec);
        ordinal++;
    }
    if (rc == 0 && got < 0) {
        lines_error(&r, path, err, errlen);
        rc = -1;
    }
    lines_free(&r);
    fclose(f);
    return rc;
}

/* Sorts the games by tournament index (a tournament appends in completion order). */
static void sort_games(report_data_t *d)
{
    for (long i = 1; i < d->count; i++)
        for (long j = i; j > 0 && d->numbers[j - 1] > d->numbers[j]; j--) {
            long n = d->numbers[j];
            d->numbers[j] = d->numbers[j - 1];
            d->numbers[j - 1] = n;
            rating_game_t g = d->games[j];
            d->games[j] = d->games[j - 1];
            d->games[j - 1] = g;
            json_t *r = d->recs[j];
            d->recs[j] = d->recs[j - 1];
            d->recs[j - 1] = r;
            int fi = d->file[j];
            d->file[j] = d->file[j - 1];
            d->file[j - 1] = fi;
            long o = d->ordinal[j];
            d->ordinal[j] = d->ordinal[j - 1];
            d->ordinal[j - 1] = o;
        }
}

/* "#rrggbb" for a result in [0, 1]: red at 0, white at 1/2, green at 1. */
static void result_colour(double v, char *buf)
{
    static const int red[3] = {230, 120, 120}, green[3] = {120, 210, 120};
    double t = fmin(1, fabs(v - 0.5) * 2);
    const int *end = v < 0.5 ? red : green;
    int c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (int)lround(255 + t * (end[k] - 255));
    snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* The note on gaps the games do not bound (rate's, word for word), when there are any. */
static void write_separation(FILE *out, const report_data_t *d, const rating_table_t *t)
{
    char *text = NULL;
    size_t len = 0;
    const char *labels[REPORT_MAX_BOTS];
    for (int i = 0; i < d->bot_count; i++)
        labels[i] = d->labels[i];
    FILE *mem = t->group_count > 1 ? open_memstream(&text, &len) : NULL;
    if (!mem)
        return;
    rating_separation_print(mem, t, labels);
    if (fclose(mem) == 0 && text) {
        fputs("<pre class=\"note\">", out);
        viewer_html_escape(out, text);
        fputs("</pre>\n", out);
    }
    free(text);
}

static void write_ratings(FILE *out, const report_data_t *d, const rating_table_t *t, int bootstrap)
{
    int nb = t->bot_count;
    fprintf(out,
            "<h2>Ratings</h2>\n<p class=\"note\">Bradley-Terry over the pairwise outcomes "
            "inside each game, on the Elo scale, the mean of the bots at 0; bars: 95%% "
            "intervals from %d bootstrap resamples of the games (as skyline rate).</p>\n",
            bootstrap);
    double lo = 0, hi = 0;
    for (int i = 0; i < nb; i++) {
        double ci = bootstrap && isfinite(t->bots[i].elo_ci95) ? t->bots[i].elo_ci95 : 0;
        lo = fmin(lo, t->bots[i].elo - ci);
        hi = fmax(hi, t->bots[i].elo + ci);
    }
    double pad = (hi - lo) * 0.05 + 10;
    lo -= pad;
    hi += pad;
    int row = 28, w = 700, left = 60, h = nb * row + 40;
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
            w + left + 20, h, w + left + 20, h, w + left + 20, h);
#define RX(v) (left + w * ((v)-lo) / (hi - lo))
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"5\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\" "
            "stroke-dasharray=\"4 3\"/>\n",
            RX(0), RX(0), h - 25);
    for (int k = 0; k < nb; k++) {
        int i = t->order[k];
        const rating_bot_t *b = &t->bots[i];
        double y = 20 + k * row, ci = bootstrap && isfinite(b->elo_ci95) ? b->elo_ci95 : 0;
        fprintf(out,
                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-weight=\"bold\">%s</text>\n",
                left - 10, y + 4, d->labels[i]);
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
                "stroke-width=\"2\"/>\n<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\">"
                "<title>%+.0f +- %.0f</title></circle>\n",
                RX(b->elo - ci), y, RX(b->elo + ci), y, RX(b->elo), y, svg_player_colour(k % 5),
                b->elo, ci);
    }
    double step = pow(10, floor(log10(hi - lo)));
    if ((hi - lo) / step < 4)
        step /= 2;
    for (double v = ceil(lo / step) * step; v <= hi; v += step)
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%+.0f</text>\n", RX(v),
                h - 8, v);
#undef RX
    fputs("</svg>\n<table><tr><th>#</th><th class=\"l\">bot</th><th>elo</th><th>+-</th>"
          "<th>LOS</th><th>seats</th><th>result</th><th>+-</th><th>mean rank</th>"
          "<th>mean score</th><th class=\"l\">spec</th></tr>\n",
          out);
    for (int k = 0; k < nb; k++) {
        int i = t->order[k];
        const rating_bot_t *b = &t->bots[i];
        fprintf(out, "<tr><td>%d</td><td class=\"l\"><b>%s</b></td><td>%+.0f</td>", k + 1,
                d->labels[i], fabs(b->elo) < 0.5 ? 0.0 : b->elo);
        if (bootstrap && isfinite(b->elo_ci95))
            fprintf(out, "<td>%.0f</td>", b->elo_ci95);
        else
            fputs("<td>-</td>", out);
        if (isfinite(b->los_next))
            fprintf(out, "<td>%.1f%%</td>", 100 * b->los_next);
        else
            fputs("<td>-</td>", out);
        fprintf(out, "<td>%ld</td><td>%.3f</td>", b->games, b->result);
        if (isfinite(b->result_ci95))
            fprintf(out, "<td>%.3f</td>", b->result_ci95);
        else
            fputs("<td>-</td>", out);
        fprintf(out, "<td>%.2f</td>", b->mean_rank);
        if (b->scored > 0 && isfinite(b->mean_score))
            fprintf(out, "<td>%.2f</td>", b->mean_score);
        else
            fputs("<td>-</td>", out);
        fputs("<td class=\"l\"><code>", out);
        viewer_html_escape(out, d->specs[i]);
        fputs("</code></td></tr>\n", out);
    }
    fputs("</table>\n", out);
    write_separation(out, d, t);
}

static void write_pairwise(FILE *out, const report_data_t *d, const rating_table_t *t)
{
    int nb = t->bot_count;
    fputs("<h2>Pairwise results</h2>\n<p class=\"note\">The row bot's mean outcome against the "
          "column bot in games where both sat (1 ranked better, 1/2 tied), and the number of "
          "such pairs.</p>\n<table><tr><th></th>",
          out);
    for (int y = 0; y < nb; y++)
        fprintf(out, "<th>%s</th>", d->labels[t->order[y]]);
    fputs("</tr>\n", out);
    for (int x = 0; x < nb; x++) {
        fprintf(out, "<tr><th>%s</th>", d->labels[t->order[x]]);
        for (int y = 0; y < nb; y++) {
            int a = t->order[x], b = t->order[y];
            long n = t->pair_count[a * nb + b];
            if (a == b || !n) {
                fputs("<td>-</td>", out);
                continue;
            }
            char colour[8];
            result_colour(t->pair_score[a * nb + b], colour);
            fprintf(out, "<td style=\"background:%s\">%.3f<br><span class=\"note\">%ld</span></td>",
                    colour, t->pair_score[a * nb + b], n);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

/* The pentanomial table of two-player game pairs (rate's, word for word), if any. */
static void write_game_pairs(FILE *out, const report_data_t *d)
{
    char *text = NULL;
    size_t len = 0;
    const char *labels[REPORT_MAX_BOTS];
    for (int i = 0; i < d->bot_count; i++)
        labels[i] = d->labels[i];
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return;
    rating_ptnml_print(mem, d->games, d->count, d->bot_count, labels, d->by_label);
    if (fclose(mem) == 0 && text && len > 1) {
        fputs("<h2>Game pairs</h2>\n<pre class=\"note\">", out);
        viewer_html_escape(out, text + 1); /* without the leading blank line */
        fputs("</pre>\n", out);
    }
    free(text);
}

static void write_seats(FILE *out, const report_data_t *d, const rating_table_t *t)
{
    int maxp = 0;
    for (long g = 0; g < d->count; g++)
        maxp = d->games[g].players > maxp ? d->games[g].players : maxp;
    int nb = d->bot_count, cols = maxp;
    double *sum = calloc((size_t)(nb + 1) * (size_t)cols, sizeof *sum);
    long *n = calloc((size_t)(nb + 1) * (size_t)cols, sizeof *n);
    if (!sum || !n) {
        free(sum);
        free(n);
        return;
    }
    for (long g = 0; g < d->count; g++) {
        const rating_game_t *gm = &d->games[g];
        double res[GAME_MAX_PLAYERS];
        game_result_from_ranks(gm->players, gm->ranks, res);
        for (int s = 0; s < gm->players; s++) {
            sum[gm->bots[s] * cols + s] += res[s];
            n[gm->bots[s] * cols + s]++;
            sum[nb * cols + s] += res[s];
            n[nb * cols + s]++;
        }
    }
    fputs("<h2>Results by seat</h2>\n<p class=\"note\">Mean game result (1 first, 0 last) of "
          "each bot in each seat (P1 is the first seat and moves first unless the game draws "
          "the first player), "
          "and the number of games.</p>\n<table><tr><th class=\"l\">bot</th>",
          out);
    for (int s = 0; s < cols; s++)
        fprintf(out, "<th>P%d</th>", s + 1);
    fputs("</tr>\n", out);
    for (int k = 0; k <= nb; k++) {
        int i = k < nb ? t->order[k] : nb;
        fprintf(out, "<tr><td class=\"l\"><b>%s</b></td>", i < nb ? d->labels[i] : "all");
        for (int s = 0; s < cols; s++) {
            long c = n[i * cols + s];
            if (!c) {
                fputs("<td>-</td>", out);
                continue;
            }
            char colour[8];
            result_colour(sum[i * cols + s] / c, colour);
            fprintf(out, "<td style=\"background:%s\">%.3f <span class=\"note\">(%ld)</span></td>",
                    colour, sum[i * cols + s] / c, c);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
    free(sum);
    free(n);
}

static void write_distributions(FILE *out, const report_data_t *d)
{
    double *v = malloc(sizeof *v * (size_t)(d->count * GAME_MAX_PLAYERS + 1));
    if (!v)
        return;
    for (long g = 0; g < d->count; g++)
        v[g] = (double)json_array_size(json_object_get(d->recs[g], "moves"));
    fputs("<h2>Game lengths</h2>\n", out);
    viewer_chart_histogram(out, v, d->count, "moves per game (set-up included)", "#0072b2");
    long n = 0;
    for (long g = 0; g < d->count; g++)
        if (d->games[g].has_scores)
            for (int s = 0; s < d->games[g].players; s++)
                v[n++] = d->games[g].scores[s];
    if (n) {
        const char *key = d->api->score_key ? d->api->score_key : "score";
        fprintf(out, "<h2>Scores</h2>\n<p class=\"note\">Every seat's final %s.</p>\n", key);
        viewer_chart_histogram(out, v, n, key, "#e69f00");
    }
    free(v);
}

static void write_sprt(FILE *out, const report_data_t *d, const viewer_report_t *r)
{
    int a = r->sprt_a ? -1 : d->by_label[0], b = r->sprt_b ? -1 : 1;
    if (!r->sprt_b && d->bot_count > 1)
        b = d->by_label[1];
    for (int i = 0; i < d->bot_count; i++) {
        a = r->sprt_a && !strcmp(d->specs[i], r->sprt_a) ? i : a;
        b = r->sprt_b && !strcmp(d->specs[i], r->sprt_b) ? i : b;
    }
    fputs("<h2>SPRT</h2>\n", out);
    if (a < 0 || b < 0 || a >= d->bot_count || b >= d->bot_count) {
        fputs("<p class=\"note\">The SPRT's bots are not in these games.</p>\n", out);
        return;
    }
    rating_sprt_t s = *r->sprt;
    rating_sprt_init(&s, s.elo0, s.elo1, s.alpha, s.beta);
    double *llr = malloc(sizeof *llr * (size_t)(d->count + 1));
    long *partner = malloc(sizeof *partner * (size_t)(d->count + 1));
    long n = 0, stop = -1, unpaired = 0;
    bool pairs = false; /* two-player tournament games: the pentanomial model over pairs */
    if (partner && rating_pair_partners(d->games, d->count, partner) == 0)
        for (long g = 0; g < d->count; g++)
            pairs =
                pairs || (partner[g] >= 0 && d->games[g].bots[0] + d->games[g].bots[1] == a + b &&
                          (d->games[g].bots[0] == a || d->games[g].bots[1] == a));
    for (long g = 0; llr && partner && g < d->count && !s.verdict; g++) {
        const rating_game_t *gm = &d->games[g];
        if (pairs) {
            bool ab = gm->players == 2 && ((gm->bots[0] == a && gm->bots[1] == b) ||
                                           (gm->bots[0] == b && gm->bots[1] == a));
            if (ab && partner[g] < 0)
                unpaired++;
            if (!ab || partner[g] > g) /* fed with the pair's second game */
                continue;
            const rating_game_t *first = &d->games[partner[g]];
            int sa = first->bots[0] == a ? 0 : 1, sb = gm->bots[0] == a ? 0 : 1;
            rating_sprt_add_pair(&s, rating_pair_outcome(first->ranks[sa], first->ranks[1 - sa]),
                                 rating_pair_outcome(gm->ranks[sb], gm->ranks[1 - sb]));
            llr[n++] = s.llr;
            if (s.verdict)
                stop = d->numbers[g];
            continue;
        }
        double sum = 0;
        int seat_pairs = 0;
        for (int x = 0; x < gm->players; x++)
            for (int y = 0; y < gm->players; y++)
                if (gm->bots[x] == a && gm->bots[y] == b) {
                    double o = rating_pair_outcome(gm->ranks[x], gm->ranks[y]);
                    if (!r->sprt_per_game)
                        rating_sprt_add(&s, o);
                    sum += o;
                    seat_pairs++;
                }
        if (seat_pairs && r->sprt_per_game)
            rating_sprt_add(&s, sum > 0.5 * seat_pairs ? 1.0 : sum < 0.5 * seat_pairs ? 0.0 : 0.5);
        if (seat_pairs)
            llr[n++] = s.llr;
        if (s.verdict)
            stop = d->numbers[g];
    }
    free(partner);
    fprintf(out, "<p>%s (<code>", d->labels[a]);
    viewer_html_escape(out, d->specs[a]);
    fprintf(out, "</code>) against %s (<code>", d->labels[b]);
    viewer_html_escape(out, d->specs[b]);
    long games = pairs ? 2 * n : n;
    fprintf(out,
            "</code>): H0 elo %g, H1 elo %g, alpha %g, beta %g; %ld games fed it; W/D/L "
            "%.1f/%.1f/%.1f",
            s.elo0, s.elo1, s.alpha, s.beta, games, s.wins, s.draws, s.losses);
    if (pairs)
        fprintf(out, "; %ld pairs with 0, 1/2, 1, 3/2, 2 points for A: %.0f/%.0f/%.0f/%.0f/%.0f", n,
                s.ptnml[0], s.ptnml[1], s.ptnml[2], s.ptnml[3], s.ptnml[4]);
    fprintf(out, "; LLR %.3f in [%.3f, %.3f]: <b>%s</b>", s.llr, s.lower, s.upper,
            rating_sprt_verdict_text(s.verdict));
    if (stop >= 0)
        fprintf(out, " at game %ld", stop);
    fputs(".</p>\n", out);
    fprintf(out, "<p class=\"note\">Model: %s.",
            pairs              ? "pentanomial, one outcome per game pair (the same deal, the seats "
                                 "swapped; arena/TOURNAMENT.md)"
            : r->sprt_per_game ? "trinomial, one outcome per game"
                               : "trinomial, one outcome per pair of their seats in a game");
    if (unpaired)
        fprintf(out, " %ld games without their pair fed nothing.", unpaired);
    fputs("</p>\n", out);
    if (llr) {
        /* The line starts at 0, before the first game. */
        memmove(llr + 1, llr, sizeof *llr * (size_t)n);
        llr[0] = 0;
        const double *ys[1] = {llr};
        const char *names[1] = {"LLR"};
        char xlabel[64];
        snprintf(xlabel, sizeof xlabel,
                 pairs ? "game pairs that fed it (%ld)" : "games that fed it (%ld)", n);
        viewer_chart_lines(out, ys, names, 1, n + 1, s.lower, s.upper, xlabel, "LLR");
    }
    free(llr);
}

static void write_games(FILE *out, const report_data_t *d, const viewer_report_t *r,
                        const char *dir_name)
{
    fputs("<h2>Games</h2>\n<table><tr><th>game</th><th class=\"l\">seats (rank", out);
    if (d->api->score_key)
        fprintf(out, ", %s", d->api->score_key);
    fputs(")</th><th>moves</th><th class=\"l\">replay</th></tr>\n", out);
    for (long g = 0; g < d->count; g++) {
        const rating_game_t *gm = &d->games[g];
        fprintf(out, "<tr><td>%ld</td><td class=\"l\">", d->numbers[g]);
        for (int s = 0; s < gm->players; s++) {
            fprintf(out, "%s<b>%s</b> %d", s ? " &middot; " : "", d->labels[gm->bots[s]],
                    gm->ranks[s]);
            if (gm->has_scores)
                fprintf(out, ", %g", gm->scores[s]);
        }
        fprintf(out, "</td><td>%zu</td><td class=\"l\">",
                json_array_size(json_object_get(d->recs[g], "moves")));
        if (dir_name && g < r->viewers) {
            fputs("<a href=\"", out);
            viewer_html_escape(out, dir_name);
            fprintf(out, "/game-%ld.html\">view</a>", d->numbers[g]);
        } else if (dir_name) {
            fputs("<code>skyline replay ", out);
            viewer_html_escape(out, r->files[d->file[g]]);
            fprintf(out, " --index %ld --html game-%ld.html</code>", d->ordinal[g], d->numbers[g]);
        } else {
            fputs("-", out);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

/* The viewers' folder of a page: its name without .html, then "-games". */
static void report_dir(const char *path, char *dir, size_t len)
{
    size_t n = strlen(path);
    if (n > 5 && !strcmp(path + n - 5, ".html"))
        n -= 5;
    snprintf(dir, len, "%.*s-games", (int)n, path);
}

int viewer_report_check(const char *path, char *err, size_t errlen)
{
    if (viewer_page_check(path, err, errlen))
        return -1;
    char dir[4096], file[4400];
    report_dir(path, dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d)
        return 0; /* missing, or not a folder: making it says why */
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        long number;
        int end = 0;
        if (sscanf(e->d_name, "game-%ld.html%n", &number, &end) == 1 && !e->d_name[end] &&
            end > 0) {
            snprintf(file, sizeof file, "%s/%s", dir, e->d_name);
            rc = viewer_page_check(file, err, errlen);
        }
    }
    closedir(d);
    return rc;
}

/* Writes each game's viewer into dir; 0, or -1 with err. */
static int write_viewers(const report_data_t *d, long viewers, const char *dir, char *err,
                         size_t errlen)
{
    if (viewers <= 0)
        return 0;
    if (mkdir(dir, 0777) && errno != EEXIST) {
        snprintf(err, errlen, "cannot make the folder '%s'", dir);
        return -1;
    }
    for (long g = 0; g < d->count && g < viewers; g++) {
        char path[4200], title[128];
        snprintf(path, sizeof path, "%s/game-%ld.html", dir, d->numbers[g]);
        snprintf(title, sizeof title, "Game %ld", d->numbers[g]);
        if (viewer_page_check(path, err, errlen))
            return -1;
        FILE *f = fopen(path, "w");
        if (!f) {
            snprintf(err, errlen, "cannot write '%s'", path);
            return -1;
        }
        int rc = viewer_write_replay(f, title, &d->recs[g], &d->numbers[g], 1, err, errlen);
        if (fclose(f) && !rc) {
            snprintf(err, errlen, "cannot write '%s'", path);
            rc = -1;
        }
        if (rc)
            return -1;
    }
    return 0;
}

/* The report page of d into out: 0, or -1 if a write failed (viewer_page_write). */
static int write_page(FILE *out, void *ctx)
{
    const report_data_t *d = ctx;
    const viewer_report_t *r = d->report;
    const char *dir_name = d->dir_name;
    rating_table_t t;
    if (rating_table_compute(d->games, d->count, d->bot_count, RATING_ANCHOR_MEAN, r->bootstrap,
                             RATING_BOOTSTRAP_SEED, &t))
        return -1;
    viewer_page_open(out, r->title);
    fputs("<h1>", out);
    viewer_html_escape(out, r->title);
    fprintf(out, "</h1>\n<p class=\"meta\">%ld games of %s, %d bots; from", d->count, d->api->name,
            d->bot_count);
    for (int i = 0; i < r->file_count; i++) {
        fputs(" ", out);
        viewer_html_escape(out, r->files[i]);
    }
    fputs("</p>\n", out);
    write_ratings(out, d, &t, r->bootstrap);
    write_pairwise(out, d, &t);
    write_game_pairs(out, d);
    write_seats(out, d, &t);
    write_distributions(out, d);
    if (r->sprt)
        write_sprt(out, d, r);
    write_games(out, d, r, dir_name);
    rating_table_free(&t);
    return viewer_page_close(out, false);
}

int viewer_write_report(const char *path, const viewer_report_t *r, char *err, size_t errlen)
{
    report_data_t d;
    memset(&d, 0, sizeof d);
    int rc = -1;
    if (viewer_report_check(path, err, errlen))
        return -1;
    for (int i = 0; i < r->file_count; i++)
        if (read_file(&d, r->files[i], i, r->players, err, errlen))
            goto done;
    if (d.count == 0) {
        snprintf(err, errlen, "the record files hold no game");
        goto done;
    }
    if (rating_labels(d.games, d.count, d.bot_count, d.labels, d.by_label)) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    sort_games(&d);
    char dir[4096];
    report_dir(path, dir, sizeof dir);
    const char *slash = strrchr(dir, '/');
    bool pictures = game_svg_for(d.api) != NULL;
    if (pictures && write_viewers(&d, r->viewers, dir, err, errlen))
        goto done;
    d.report = r;
    d.dir_name = pictures ? (slash ? slash + 1 : dir) : NULL;
    if (viewer_page_write(path, write_page, &d, err, errlen))
        goto done;
    rc = 0;
done:
    for (long g = 0; g < d.count; g++)
        json_decref(d.recs[g]);
    for (int b = 0; b < d.bot_count; b++)
        free(d.specs[b]);
    free(d.recs);
    free(d.games);
    free(d.numbers);
    free(d.file);
    free(d.ordinal);
    return rc;
}
