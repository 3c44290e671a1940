/* The standings and pairwise tables of a rating table, as text (arena/rating.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena/rating.h"

/* Under a time control: each bot's time used and losses on time. */
static void rating_clock_print(FILE *out, const rating_table_t *t, const char *const *labels)
{
    long clocked = 0;
    for (int i = 0; i < t->bot_count; i++)
        clocked += t->bots[i].clocked;
    if (!clocked)
        return;
    fprintf(out, "Time control (seats under one):");
    const char *sep = "";
    for (int k = 0; k < t->bot_count; k++) {
        const rating_bot_t *b = &t->bots[t->order[k]];
        if (b->clocked)
            fprintf(out, "%s %s %.3f s used, %ld lost on time", sep, labels[t->order[k]],
                    b->clock_s, b->time_losses);
        sep = b->clocked ? ";" : sep;
    }
    fprintf(out, "\n");
}

void rating_table_print(FILE *out, const rating_table_t *t, const char *const *specs,
                        const char *const *labels, int bootstrap, bool pairwise)
{
    int nb = t->bot_count, lw = 3;
    bool scores = false, no_ci = false;
    for (int i = 0; i < nb; i++) {
        if ((int)strlen(labels[i]) > lw)
            lw = (int)strlen(labels[i]);
        scores = scores || t->bots[i].scored > 0;
    }
    fprintf(out, "Elo: Bradley-Terry over the pairwise outcomes inside each game.\n");
    if (t->anchor >= 0)
        fprintf(out, "Anchor: %s is 0.\n", labels[t->anchor]);
    else
        fprintf(out, "Anchor: the mean of the %d bots is 0.\n", nb);
    if (bootstrap > 0)
        fprintf(out,
                "+- is a 95%% interval from %d bootstrap resamples of the games; LOS: over "
                "the next bot.\n",
                bootstrap);
    else
        fprintf(out, "no bootstrap: no +- or LOS.\n");
    fprintf(out,
            "\n  #  %-*s    elo    +-     LOS   seats  result (95%% CI)  mean rank  %s"
            "spec\n",
            lw, "bot", scores ? "mean score  " : "");
    for (int k = 0; k < nb; k++) {
        int i = t->order[k];
        const rating_bot_t *b = &t->bots[i];
        char ci[16] = "-", los[16] = "-", result[40] = "-", rank[16] = "-";
        if (bootstrap > 0 && i != t->anchor && isfinite(b->elo_ci95))
            snprintf(ci, sizeof ci, "%.0f", b->elo_ci95);
        if (isfinite(b->los_next))
            snprintf(los, sizeof los, "%.1f%%", 100 * b->los_next);
        if (isfinite(b->result_ci95))
            snprintf(result, sizeof result, "%.3f +- %.3f", b->result, b->result_ci95);
        else if (isfinite(b->result))
            snprintf(result, sizeof result, "%.3f", b->result);
        no_ci = no_ci || (isfinite(b->result) && !isfinite(b->result_ci95));
        if (isfinite(b->mean_rank))
            snprintf(rank, sizeof rank, "%.2f", b->mean_rank);
        /* Rounding residues print as 0, not -0. */
        double elo = fabs(b->elo) < 0.5 ? 0.0 : b->elo;
        fprintf(out, "%3d  %-*s %+6.0f %5s %7s %7ld  %-15s  %9s  ", k + 1, lw, labels[i], elo, ci,
                los, b->games, result, rank);
        if (scores) {
            if (isfinite(b->mean_score))
                fprintf(out, "%10.2f  ", b->mean_score);
            else
                fprintf(out, "%10s  ", "-");
        }
        fprintf(out, "%s\n", specs[i]);
    }
    if (no_ci)
        fprintf(out, "(a result without +- has no interval: fewer than two seats, or every "
                     "result the same)\n");
    rating_separation_print(out, t, labels);
    long forfeits = 0;
    for (int i = 0; i < nb; i++)
        forfeits += t->bots[i].forfeits;
    if (forfeits) {
        fprintf(out, "Forfeits (each ranked last in its game):");
        for (int k = 0; k < nb; k++)
            if (t->bots[t->order[k]].forfeits)
                fprintf(out, " %s %ld", labels[t->order[k]], t->bots[t->order[k]].forfeits);
        fprintf(out, "\n");
    }
    rating_clock_print(out, t, labels);
    if (!pairwise)
        return;
    fprintf(out,
            "\nPairwise: the row bot's result against the column bot in games where both "
            "sat\n(1 ranked better, 1/2 tied), and the number of such pairs.\n%*s",
            lw + 1, "");
    for (int y = 0; y < nb; y++)
        fprintf(out, " %-12s", labels[t->order[y]]);
    fprintf(out, "\n");
    for (int x = 0; x < nb; x++) {
        fprintf(out, "%-*s ", lw, labels[t->order[x]]);
        for (int y = 0; y < nb; y++) {
            int a = t->order[x], b = t->order[y];
            long n = t->pair_count[a * nb + b];
            if (a == b || !n)
                fprintf(out, " %-12s", "-");
            else
                fprintf(out, " %5.3f/%-6ld", t->pair_score[a * nb + b], n);
        }
        fprintf(out, "\n");
    }
}
