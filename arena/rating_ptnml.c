/*
 * Paired statistics of two-player tournaments (arena/rating.h): a tournament block of two
 * players is one deal played twice with the seats swapped, and the pentanomial model
 * counts the pair's points (0, 1/2, 1, 3/2, 2) instead of the two games' results, so that
 * the luck of the deal, shared by both games, leaves the variance.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/rating.h"

/* A two-player tournament game's key, for finding its partner. */
typedef struct pair_key {
    uint64_t config; /* its tournament */
    long index;      /* its index there */
    long game;       /* its position in the games */
} pair_key_t;

static int pair_key_cmp(const void *x, const void *y)
{
    const pair_key_t *a = x, *b = y;
    if (a->config != b->config)
        return a->config < b->config ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

int rating_pair_partners(const rating_game_t *games, long game_count, long *partner)
{
    pair_key_t *keys = malloc(sizeof *keys * (size_t)(game_count ? game_count : 1));
    long n = 0;
    if (!keys)
        return -1;
    for (long g = 0; g < game_count; g++) {
        partner[g] = -1;
        if (games[g].keyed && games[g].players == 2 && games[g].bots[0] != games[g].bots[1])
            keys[n++] = (pair_key_t){games[g].config, games[g].index, g};
    }
    qsort(keys, (size_t)n, sizeof *keys, pair_key_cmp);
    for (long k = 0; k + 1 < n; k++) {
        const rating_game_t *a = &games[keys[k].game], *b = &games[keys[k + 1].game];
        if (a->config == b->config && a->index % 2 == 0 && b->index == a->index + 1 &&
            a->bots[0] == b->bots[1] && a->bots[1] == b->bots[0]) {
            partner[keys[k].game] = keys[k + 1].game;
            partner[keys[k + 1].game] = keys[k].game;
            k++;
        }
    }
    free(keys);
    return 0;
}

double rating_pair_points(const rating_game_t *first, const rating_game_t *second, int a)
{
    double points = 0;
    const rating_game_t *g[2] = {first, second};
    for (int k = 0; k < 2; k++) {
        int s = g[k]->bots[0] == a ? 0 : 1;
        points += rating_pair_outcome(g[k]->ranks[s], g[k]->ranks[1 - s]);
    }
    return points;
}

/* The logistic Elo of a score in [0, 1] (infinite at the ends). */
static double rating_score_elo(double s)
{
    return s <= 0 ? -INFINITY : s >= 1 ? INFINITY : -400.0 * log10(1.0 / s - 1.0);
}

void rating_ptnml_from_counts(const long *counts, long unpaired, rating_ptnml_t *p)
{
    memset(p, 0, sizeof *p);
    p->unpaired = unpaired;
    double sum = 0;
    for (int k = 0; k < 5; k++) {
        p->counts[k] = counts[k];
        p->pairs += counts[k];
        sum += (double)counts[k] * k / 4.0;
    }
    if (!p->pairs) {
        p->score = p->se = p->elo = p->elo_lo = p->elo_hi = NAN;
        return;
    }
    double n = (double)p->pairs, var = 0;
    p->score = sum / n;
    /* The variance of a pair's score per game (points / 2) from the pair distribution. */
    for (int k = 0; k < 5; k++)
        var += (double)counts[k] / n * (k / 4.0 - p->score) * (k / 4.0 - p->score);
    p->se = sqrt(var / n);
    p->elo = rating_score_elo(p->score);
    p->elo_lo = rating_score_elo(p->score - 1.96 * p->se);
    p->elo_hi = rating_score_elo(p->score + 1.96 * p->se);
}

int rating_ptnml_games(const rating_game_t *games, long game_count, int a, int b, rating_ptnml_t *p)
{
    long *partner = malloc(sizeof *partner * (size_t)(game_count ? game_count : 1));
    if (!partner || rating_pair_partners(games, game_count, partner)) {
        free(partner);
        return -1;
    }
    long counts[5] = {0}, unpaired = 0;
    for (long g = 0; g < game_count; g++) {
        const rating_game_t *gm = &games[g];
        if (gm->players != 2 ||
            !((gm->bots[0] == a && gm->bots[1] == b) || (gm->bots[0] == b && gm->bots[1] == a)))
            continue;
        if (partner[g] < 0)
            unpaired++;
        else if (partner[g] > g)
            counts[(int)lround(2 * rating_pair_points(gm, &games[partner[g]], a))]++;
    }
    free(partner);
    rating_ptnml_from_counts(counts, unpaired, p);
    return 0;
}

/* An Elo figure: a signed whole number, or "inf" with its sign. */
static void elo_text(double e, char *buf, size_t len)
{
    if (isinf(e))
        snprintf(buf, len, "%sinf", e > 0 ? "+" : "-");
    else
        snprintf(buf, len, "%+.0f", fabs(e) < 0.5 ? 0.0 : e);
}

void rating_ptnml_print(FILE *out, const rating_game_t *games, long game_count, int bot_count,
                        const char *const *labels, const int *by_label)
{
    bool header = false;
    for (int x = 0; x < bot_count; x++)
        for (int y = x + 1; y < bot_count; y++) {
            int a = by_label ? by_label[x] : x, b = by_label ? by_label[y] : y;
            rating_ptnml_t p;
            if (rating_ptnml_games(games, game_count, a, b, &p) || !p.pairs)
                continue;
            if (!header) {
                fprintf(out,
                        "\nGame pairs (one deal, the seats swapped): how many pairs gave the "
                        "first bot\n0, 1/2, 1, 3/2 or 2 points (pentanomial), its score per "
                        "game with a 95%% interval\nfrom the pairs' variance, and that score's "
                        "Elo with its interval.\n  %-12s %6s  %-24s  %-15s  %s\n",
                        "bots", "pairs", "[0, 1/2, 1, 3/2, 2]", "score", "elo (95% CI)");
                header = true;
            }
            char name[2 * RATING_LABEL_MAX + 4], counts[64], score[32], e[16], lo[16], hi[16];
            snprintf(name, sizeof name, "%s vs %s", labels[a], labels[b]);
            snprintf(counts, sizeof counts, "[%ld, %ld, %ld, %ld, %ld]", p.counts[0], p.counts[1],
                     p.counts[2], p.counts[3], p.counts[4]);
            elo_text(p.elo, e, sizeof e);
            elo_text(p.elo_lo, lo, sizeof lo);
            elo_text(p.elo_hi, hi, sizeof hi);
            if (p.se > 0) {
                snprintf(score, sizeof score, "%.3f +- %.3f", p.score, 1.96 * p.se);
                fprintf(out, "  %-12s %6ld  %-24s  %-15s  %s [%s, %s]", name, p.pairs, counts,
                        score, e, lo, hi);
            } else { /* no spread: no interval, however many pairs */
                snprintf(score, sizeof score, "%.3f", p.score);
                fprintf(out, "  %-12s %6ld  %-24s  %-15s  %s (every pair the same: no interval)",
                        name, p.pairs, counts, score, e);
            }
            if (p.unpaired)
                fprintf(out, "  (%ld games without their pair left out)", p.unpaired);
            fprintf(out, "\n");
        }
}
