/*
 * Labels and separation of a rating table (arena/rating.h): the one labelling rule of
 * every table, and the groups of bots whose gaps the games cannot bound.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/rating.h"

int rating_labels(const rating_game_t *games, long game_count, int bot_count,
                  char (*labels)[RATING_LABEL_MAX], int *order)
{
    int *place = malloc(sizeof *place * (size_t)(bot_count ? bot_count : 1));
    int *sorted = malloc(sizeof *sorted * (size_t)(bot_count ? bot_count : 1));
    if (!place || !sorted) {
        free(place);
        free(sorted);
        return -1;
    }
    for (int b = 0; b < bot_count; b++)
        place[b] = INT_MAX;
    for (long g = 0; g < game_count; g++)
        for (int s = 0; s < games[g].players; s++) {
            int b = games[g].bots[s], p = games[g].listed[s] - 1;
            if (p >= 0 && p < place[b])
                place[b] = p;
        }
    /* Placed bots by place, then the others by id (insertion sort: few bots). */
    int last = -1;
    for (int b = 0; b < bot_count; b++) {
        int k = b;
        while (k > 0 && place[sorted[k - 1]] > place[b]) {
            sorted[k] = sorted[k - 1];
            k--;
        }
        sorted[k] = b;
        if (place[b] != INT_MAX && place[b] > last)
            last = place[b];
    }
    int next = -1, unplaced = last + 1;
    for (int k = 0; k < bot_count; k++) {
        int b = sorted[k];
        int id = place[b] == INT_MAX ? unplaced++ : place[b] > next ? place[b] : next + 1;
        if (place[b] != INT_MAX) {
            next = id;
            if (id >= unplaced)
                unplaced = id + 1;
        }
        rating_label(id, labels[b]);
        if (order)
            order[k] = b;
    }
    free(place);
    free(sorted);
    return 0;
}

int rating_table_groups(rating_table_t *t)
{
    int nb = t->bot_count;
    bool *reach = calloc((size_t)nb * (size_t)nb, sizeof *reach);
    t->group = malloc(sizeof *t->group * (size_t)(nb ? nb : 1));
    if (!reach || !t->group) {
        free(reach);
        return -1;
    }
    /* a reaches b when a scored against b (a win or a tie), directly or through others. */
    for (int a = 0; a < nb; a++)
        for (int b = 0; b < nb; b++)
            reach[a * nb + b] =
                a == b || (t->pair_count[a * nb + b] > 0 && t->pair_score[a * nb + b] > 0);
    for (int k = 0; k < nb; k++)
        for (int a = 0; a < nb; a++)
            if (reach[a * nb + k])
                for (int b = 0; b < nb; b++)
                    reach[a * nb + b] = reach[a * nb + b] || reach[k * nb + b];
    /* Groups: bots that reach each other, numbered down the table. */
    t->group_count = 0;
    for (int i = 0; i < nb; i++)
        t->group[i] = -2;
    for (int k = 0; k < nb; k++) {
        int a = t->order[k];
        if (!t->bots[a].games) {
            t->group[a] = -1;
            continue;
        }
        if (t->group[a] != -2)
            continue;
        for (int b = 0; b < nb; b++)
            if (t->bots[b].games && reach[a * nb + b] && reach[b * nb + a])
                t->group[b] = t->group_count;
        t->group_count++;
    }
    free(reach);
    /* A rating relative to the anchor has an interval only when the games bound it: the
       anchor bot's group, or with the mean anchor, one group for all. */
    for (int i = 0; i < nb; i++) {
        bool bounded = t->group[i] >= 0 &&
                       (t->anchor >= 0 ? t->group[i] == t->group[t->anchor] : t->group_count == 1);
        if (!bounded)
            t->bots[i].elo_ci95 = NAN;
    }
    for (int k = 0; k + 1 < nb; k++) {
        int a = t->order[k], b = t->order[k + 1];
        if (t->group[a] < 0 || t->group[a] != t->group[b])
            t->bots[a].los_next = NAN;
    }
    return 0;
}

int rating_separation(const rating_table_t *t, int k, rating_separation_t *s)
{
    int nb = t->bot_count;
    memset(s, 0, sizeof *s);
    if (k < 0 || k + 1 >= t->group_count)
        return -1;
    double won = 0;
    for (int a = 0; a < nb; a++)
        for (int b = 0; b < nb; b++)
            if (t->group[a] == k && t->group[b] == k + 1) {
                s->comparisons += t->pair_count[a * nb + b];
                won += t->pair_score[a * nb + b] * (double)t->pair_count[a * nb + b];
            }
    s->upper_won = won > 0.5 * (double)s->comparisons;
    if (s->comparisons > 0) {
        /* All n comparisons went one way. If the winners' mean expected score p were below
           b = 0.05^(1/n), n wins in a row would have probability at most p^n < 0.05 (the
           product of the n chances is at most their mean to the n-th power). */
        s->score_bound = pow(0.05, 1.0 / (double)s->comparisons);
        s->elo_bound = 400.0 * log10(s->score_bound / (1.0 - s->score_bound));
    }
    return 0;
}

/* The labels of group g, in table order, joined by commas. */
static void rating_group_names(const rating_table_t *t, const char *const *labels, int g, char *buf,
                               size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < t->bot_count && n < len; k++)
        if (t->group[t->order[k]] == g)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", labels[t->order[k]]);
}

void rating_separation_print(FILE *out, const rating_table_t *t, const char *const *labels)
{
    if (t->group_count < 2)
        return;
    fprintf(out,
            "Separated: the games bound no gap between these groups (one won every comparison\n"
            "with the next, or they never met), so only the prior (one virtual draw per bot)\n"
            "holds those gaps: no +- for a rating that depends on one, no LOS across one\n"
            "(--anchor SPEC gives intervals inside the anchor's group).\n");
    for (int k = 0; k + 1 < t->group_count; k++) {
        rating_separation_t s;
        char up[256], down[256];
        rating_separation(t, k, &s);
        rating_group_names(t, labels, k, up, sizeof up);
        rating_group_names(t, labels, k + 1, down, sizeof down);
        if (!s.comparisons)
            fprintf(out, "  %s and %s: never compared directly\n", up, down);
        else
            fprintf(out,
                    "  %s over %s: all %ld comparisons won; one-sided 95%%: they score at least "
                    "%.3f (%+.0f Elo)\n",
                    s.upper_won ? up : down, s.upper_won ? down : up, s.comparisons, s.score_bound,
                    s.elo_bound);
    }
}
