#include "rating.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"

/* Weight of the prior: this many virtual comparisons, half won, against a 0-rated player. */
#define RATING_PRIOR_GAMES  1.0
#define RATING_MM_MAX_ITERS 100000
#define RATING_MM_TOLERANCE 1e-10
/* Most bots fitted by Newton's method; more use MM iterations. */
#define RATING_NEWTON_MAX_BOTS 64
/* Natural-log strength to Elo: 400 / ln 10. */
#define RATING_ELO_PER_NEPER 173.71779276130072

/* Pairwise counts of a set of games: n[a*B+b] comparisons of a and b, w[a] a's wins. */
typedef struct rating_pairs {
    int bot_count; /* B */
    double *n;     /* comparisons per ordered pair, symmetric */
    double *w;     /* wins per bot, ties counted half */
} rating_pairs_t;

static void rating_pairs_count(const rating_game_t *games, long game_count, const int *weights,
                               rating_pairs_t *p)
{
    int nb = p->bot_count;
    memset(p->n, 0, sizeof *p->n * (size_t)nb * (size_t)nb);
    memset(p->w, 0, sizeof *p->w * (size_t)nb);
    for (long g = 0; g < game_count; g++) {
        double wt = weights ? weights[g] : 1.0;
        if (wt == 0)
            continue;
        const rating_game_t *gm = &games[g];
        for (int s = 0; s < gm->players; s++)
            for (int t = s + 1; t < gm->players; t++) {
                int a = gm->bots[s], b = gm->bots[t];
                if (a == b)
                    continue;
                double o = rating_pair_outcome(gm->ranks[s], gm->ranks[t]);
                p->n[a * nb + b] += wt;
                p->n[b * nb + a] += wt;
                p->w[a] += wt * o;
                p->w[b] += wt * (1.0 - o);
            }
    }
}

/* MM iterations (Hunter 2004) with the prior player fixed at strength 1; cyclic updates. */
static void rating_pairs_fit(const rating_pairs_t *p, double *gamma)
{
    int nb = p->bot_count;
    for (int it = 0; it < RATING_MM_MAX_ITERS; it++) {
        double change = 0;
        for (int i = 0; i < nb; i++) {
            double denom = RATING_PRIOR_GAMES / (gamma[i] + 1.0);
            for (int j = 0; j < nb; j++)
                if (j != i && p->n[i * nb + j] > 0)
                    denom += p->n[i * nb + j] / (gamma[i] + gamma[j]);
            double next = (p->w[i] + 0.5 * RATING_PRIOR_GAMES) / denom;
            double d = fabs(log(next / gamma[i]));
            if (d > change)
                change = d;
            gamma[i] = next;
        }
        if (change < RATING_MM_TOLERANCE)
            break;
    }
}

static int rating_pairs_alloc(rating_pairs_t *p, int bot_count)
{
    p->bot_count = bot_count;
    p->n = malloc(sizeof *p->n * (size_t)bot_count * (size_t)bot_count);
    p->w = malloc(sizeof *p->w * (size_t)bot_count);
    return p->n && p->w ? 0 : -1;
}

static void rating_pairs_free(rating_pairs_t *p)
{
    free(p->n);
    free(p->w);
}

/* Log-likelihood of strengths theta (natural-log scale), prior included. With total wins
   w_i it is sum_i w_i t_i - sum_{i<j} n_ij log(e^t_i + e^t_j) (+ the prior's terms). */
static double rating_loglik(const rating_pairs_t *p, const double *theta)
{
    int nb = p->bot_count;
    double ll = 0;
    for (int i = 0; i < nb; i++) {
        double t = theta[i];
        /* Prior: half a win and half a loss against a player of strength 0. */
        ll += RATING_PRIOR_GAMES * (0.5 * t - (t > 0 ? t + log1p(exp(-t)) : log1p(exp(t))));
        ll += p->w[i] * t;
        for (int j = i + 1; j < nb; j++)
            if (p->n[i * nb + j] > 0) {
                double hi = theta[i] > theta[j] ? theta[i] : theta[j];
                ll -= p->n[i * nb + j] * (hi + log(exp(theta[i] - hi) + exp(theta[j] - hi)));
            }
    }
    return ll;
}

/* Solves a x = b in place (b becomes x) by Gaussian elimination with partial pivoting. */
static int rating_solve(double *a, double *b, int n)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * n + c]) > fabs(a[piv * n + c]))
                piv = r;
        if (fabs(a[piv * n + c]) < 1e-300)
            return -1;
        if (piv != c) {
            for (int k = 0; k < n; k++) {
                double t = a[c * n + k];
                a[c * n + k] = a[piv * n + k];
                a[piv * n + k] = t;
            }
            double t = b[c];
            b[c] = b[piv];
            b[piv] = t;
        }
        for (int r = c + 1; r < n; r++) {
            double f = a[r * n + c] / a[c * n + c];
            for (int k = c; k < n; k++)
                a[r * n + k] -= f * a[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        for (int k = c + 1; k < n; k++)
            b[c] -= a[c * n + k] * b[k];
        b[c] /= a[c * n + c];
    }
    return 0;
}

/*
 * Newton's method with step halving on the (strictly concave, thanks to the prior)
 * log-likelihood: quadratic convergence even when a bot wins nearly everything, where MM
 * crawls. Returns 0 on convergence, -1 otherwise (theta then holds the last iterate).
 */
static int rating_pairs_newton(const rating_pairs_t *p, double *theta)
{
    int nb = p->bot_count;
    double *a = malloc(sizeof *a * (size_t)nb * (size_t)nb);
    double *g = malloc(sizeof *g * (size_t)nb), *next = malloc(sizeof *next * (size_t)nb);
    int rc = -1;
    if (!a || !g || !next)
        goto done;
    double ll = rating_loglik(p, theta);
    for (int it = 0; it < 200; it++) {
        /* Gradient g and negated Hessian a. */
        for (int i = 0; i < nb; i++) {
            double si = 1 / (1 + exp(-theta[i]));
            g[i] = p->w[i] + RATING_PRIOR_GAMES * (0.5 - si);
            a[i * nb + i] = RATING_PRIOR_GAMES * si * (1 - si);
            for (int j = 0; j < nb; j++) {
                if (j == i)
                    continue;
                double n = p->n[i * nb + j];
                double pij = 1 / (1 + exp(theta[j] - theta[i]));
                g[i] -= n * pij;
                a[i * nb + j] = -n * pij * (1 - pij);
                a[i * nb + i] += n * pij * (1 - pij);
            }
        }
        if (rating_solve(a, g, nb))
            goto done;
        double step = 1, move = 0, ll_next = ll;
        for (; step > 1e-10; step *= 0.5) {
            for (int i = 0; i < nb; i++)
                next[i] = theta[i] + step * g[i];
            ll_next = rating_loglik(p, next);
            if (ll_next >= ll - 1e-12 * fabs(ll))
                break;
        }
        for (int i = 0; i < nb; i++) {
            if (fabs(next[i] - theta[i]) > move)
                move = fabs(next[i] - theta[i]);
            theta[i] = next[i];
        }
        ll = ll_next;
        if (move < 1e-10) {
            rc = 0;
            break;
        }
    }
done:
    free(a);
    free(g);
    free(next);
    return rc;
}

/* Fits elo (start values on entry, anchored on return): Newton for up to
   RATING_NEWTON_MAX_BOTS bots (cubic in the bot count), else or on failure MM. */
static int rating_fit_pairs(const rating_pairs_t *p, int anchor, double *elo)
{
    int nb = p->bot_count;
    double *theta = calloc((size_t)nb, sizeof *theta);
    if (!theta)
        return -1;
    for (int i = 0; i < nb; i++)
        theta[i] = elo[i] / RATING_ELO_PER_NEPER;
    if (nb > RATING_NEWTON_MAX_BOTS || rating_pairs_newton(p, theta)) {
        for (int i = 0; i < nb; i++)
            theta[i] = exp(elo[i] / RATING_ELO_PER_NEPER);
        rating_pairs_fit(p, theta);
        for (int i = 0; i < nb; i++)
            theta[i] = log(theta[i]);
    }
    double zero = 0;
    if (anchor >= 0) {
        zero = theta[anchor];
    } else {
        for (int i = 0; i < nb; i++)
            zero += theta[i];
        zero /= nb;
    }
    for (int i = 0; i < nb; i++)
        elo[i] = (theta[i] - zero) * RATING_ELO_PER_NEPER;
    if (anchor >= 0)
        elo[anchor] = 0; /* exactly, not a rounding residue */
    free(theta);
    return 0;
}

double rating_mean_ci95(long n, double sum, double sum2)
{
    if (n < 2)
        return NAN;
    double mean = sum / (double)n, var = (sum2 - sum * mean) / (double)(n - 1);
    /* Equal results leave a rounding residue of the order of 1e-16 * sum2. */
    if (!(var > 1e-12 * (sum2 > 1 ? sum2 : 1) / (double)n))
        return NAN;
    return 1.96 * sqrt(var / (double)n);
}

void rating_label(int id, char *buf)
{
    /* Bijective base 26, as spreadsheet columns: A..Z, AA..AZ, BA.. */
    char rev[RATING_LABEL_MAX];
    int n = 0;
    for (unsigned v = (unsigned)id + 1; v > 0 && n < RATING_LABEL_MAX - 1; v = (v - 1) / 26)
        rev[n++] = (char)('A' + (v - 1) % 26);
    for (int k = 0; k < n; k++)
        buf[k] = rev[n - 1 - k];
    buf[n] = 0;
}

void rating_fit_bt(const rating_game_t *games, long game_count, const int *weights, int bot_count,
                   int anchor, double *elo)
{
    rating_pairs_t p;
    if (rating_pairs_alloc(&p, bot_count) == 0) {
        rating_pairs_count(games, game_count, weights, &p);
        rating_fit_pairs(&p, anchor, elo);
    }
    rating_pairs_free(&p);
}

/* Per-bot means and the pairwise table. */
static void rating_table_summaries(const rating_game_t *games, long game_count, rating_table_t *t)
{
    int nb = t->bot_count;
    double *sum2 = calloc((size_t)nb, sizeof *sum2);
    for (long g = 0; g < game_count; g++) {
        const rating_game_t *gm = &games[g];
        double res[GAME_MAX_PLAYERS];
        game_result_from_ranks(gm->players, gm->ranks, res);
        for (int s = 0; s < gm->players; s++) {
            rating_bot_t *b = &t->bots[gm->bots[s]];
            b->games++;
            b->result += res[s];
            if (sum2)
                sum2[gm->bots[s]] += res[s] * res[s];
            b->mean_rank += gm->ranks[s];
            b->forfeits += gm->forfeit && gm->forfeit_seat == s;
            b->clocked += gm->clocked;
            b->clock_s += gm->clocked ? gm->used_ms[s] / 1000.0 : 0.0;
            b->time_losses += gm->time_loss && gm->forfeit_seat == s;
            if (gm->has_scores) {
                b->mean_score += gm->scores[s];
                b->scored++;
            }
            for (int u = 0; u < gm->players; u++) {
                int a = gm->bots[s], c = gm->bots[u];
                if (u == s || a == c)
                    continue;
                t->pair_count[a * nb + c]++;
                t->pair_score[a * nb + c] += rating_pair_outcome(gm->ranks[s], gm->ranks[u]);
            }
        }
    }
    for (int i = 0; i < nb; i++) {
        rating_bot_t *b = &t->bots[i];
        if (b->games) {
            double n = (double)b->games, mean = b->result / n;
            b->result_ci95 = sum2 ? rating_mean_ci95(b->games, b->result, sum2[i]) : NAN;
            b->result = mean;
            b->mean_rank /= n;
        } else { /* a bot that has not played yet: no figures */
            b->result = b->result_ci95 = b->mean_rank = NAN;
        }
        b->mean_score = b->scored ? b->mean_score / (double)b->scored : NAN;
        for (int j = 0; j < nb; j++)
            if (t->pair_count[i * nb + j])
                t->pair_score[i * nb + j] /= (double)t->pair_count[i * nb + j];
    }
    free(sum2);
}

/* Bootstrap over games: error bars of each rating and LOS of neighbours in the order. */
static int rating_table_bootstrap(const rating_game_t *games, long game_count, int bootstrap,
                                  uint64_t seed, const double *elo, rating_table_t *t)
{
    int nb = t->bot_count;
    int *weights = malloc(sizeof *weights * (size_t)(game_count ? game_count : 1));
    double *sample = malloc(sizeof *sample * (size_t)nb);
    double *sum2 = calloc((size_t)nb, sizeof *sum2);
    double *los = calloc((size_t)nb, sizeof *los);
    rating_pairs_t p;
    int rc = -1;
    if (rating_pairs_alloc(&p, nb) || !weights || !sample || !sum2 || !los)
        goto done;
    pcg32_t rng;
    pcg32_seed(&rng, seed, 0xb0075742ULL);
    for (int k = 0; k < bootstrap; k++) {
        memset(weights, 0, sizeof *weights * (size_t)game_count);
        for (long g = 0; g < game_count; g++)
            weights[(long)((double)pcg32_next(&rng) / 4294967296.0 * (double)game_count)]++;
        rating_pairs_count(games, game_count, weights, &p);
        memcpy(sample, elo, sizeof *sample * (size_t)nb);
        rating_fit_pairs(&p, t->anchor, sample);
        for (int i = 0; i < nb; i++)
            sum2[i] += (sample[i] - elo[i]) * (sample[i] - elo[i]);
        for (int r = 0; r + 1 < nb; r++) {
            /* Equal data give equal ratings up to rounding, which depends on the bot
               numbering: a tie within 1e-6 Elo counts half, so rate and the tournament
               summary agree whatever order they number the bots in. */
            double d = sample[t->order[r]] - sample[t->order[r + 1]];
            los[r] += d > 1e-6 ? 1.0 : d >= -1e-6 ? 0.5 : 0.0;
        }
    }
    for (int i = 0; i < nb; i++)
        t->bots[i].elo_ci95 = 1.96 * sqrt(sum2[i] / bootstrap);
    for (int r = 0; r + 1 < nb; r++)
        t->bots[t->order[r]].los_next = los[r] / bootstrap;
    rc = 0;
done:
    rating_pairs_free(&p);
    free(weights);
    free(sample);
    free(sum2);
    free(los);
    return rc;
}

int rating_table_compute(const rating_game_t *games, long game_count, int bot_count, int anchor,
                         int bootstrap, uint64_t seed, rating_table_t *t)
{
    memset(t, 0, sizeof *t);
    int nb = bot_count;
    t->bot_count = nb;
    t->game_count = game_count;
    t->anchor = anchor;
    t->bots = calloc((size_t)nb, sizeof *t->bots);
    t->pair_score = calloc((size_t)nb * (size_t)nb, sizeof *t->pair_score);
    t->pair_count = calloc((size_t)nb * (size_t)nb, sizeof *t->pair_count);
    t->order = malloc(sizeof *t->order * (size_t)nb);
    double *elo = calloc((size_t)nb, sizeof *elo);
    if (!t->bots || !t->pair_score || !t->pair_count || !t->order || !elo) {
        free(elo);
        rating_table_free(t);
        return -1;
    }
    rating_table_summaries(games, game_count, t);
    rating_fit_bt(games, game_count, NULL, nb, anchor, elo);
    /* Order by rating, best first (insertion sort: bot counts are small). */
    for (int i = 0; i < nb; i++) {
        t->bots[i].elo = elo[i];
        t->bots[i].los_next = NAN;
        int k = i;
        while (k > 0 && elo[t->order[k - 1]] < elo[i]) {
            t->order[k] = t->order[k - 1];
            k--;
        }
        t->order[k] = i;
    }
    if ((bootstrap > 0 && game_count > 0 &&
         rating_table_bootstrap(games, game_count, bootstrap, seed, elo, t)) ||
        rating_table_groups(t)) {
        free(elo);
        rating_table_free(t);
        return -1;
    }
    free(elo);
    return 0;
}

void rating_table_free(rating_table_t *t)
{
    free(t->bots);
    free(t->pair_score);
    free(t->pair_count);
    free(t->order);
    free(t->group);
    memset(t, 0, sizeof *t);
}

void rating_sprt_init(rating_sprt_t *s, double elo0, double elo1, double alpha, double beta)
{
    memset(s, 0, sizeof *s);
    s->elo0 = elo0;
    s->elo1 = elo1;
    s->alpha = alpha;
    s->beta = beta;
    s->lower = log(beta / (1.0 - alpha));
    s->upper = log((1.0 - beta) / alpha);
}

int rating_sprt_parse(const char *text, rating_sprt_t *s, char *err, size_t errlen)
{
    double v[4];
    const char *p = text;
    for (int k = 0; k < 4; k++) {
        char *end;
        errno = 0;
        v[k] = strtod(p, &end);
        if (errno || end == p || !isfinite(v[k]) || *end != (k < 3 ? ',' : '\0')) {
            snprintf(err, errlen, "--sprt needs elo0,elo1,alpha,beta (four numbers), not '%s'",
                     text);
            return -1;
        }
        p = end + 1;
    }
    if (!(v[1] > v[0])) {
        snprintf(err, errlen, "--sprt '%s': elo1 must be greater than elo0", text);
        return -1;
    }
    if (!(v[2] > 0 && v[2] < 0.5 && v[3] > 0 && v[3] < 0.5)) {
        snprintf(err, errlen, "--sprt '%s': alpha and beta must be between 0 and 0.5", text);
        return -1;
    }
    rating_sprt_init(s, v[0], v[1], v[2], v[3]);
    return 0;
}

/* Expected score of a player rated elo above its opponent (logistic Elo model). */
static double rating_expected_score(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/*
 * The distribution over the outcomes x[0..k) nearest to the observed frequencies f, in the
 * maximum-likelihood sense, among those with expected score s: p_i = f_i / (1 + l (x_i - s))
 * with l found by bisection (every f_i > 0 and x in [0, 1], so the root is inside).
 */
static void rating_outcomes_fit(const double *f, const double *x, int k, double s, double *p)
{
    double lo = -1.0 / (1.0 - s), hi = 1.0 / s;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi), g = 0;
        for (int i = 0; i < k; i++)
            g += f[i] * (x[i] - s) / (1.0 + mid * (x[i] - s));
        if (g > 0)
            lo = mid;
        else
            hi = mid;
    }
    double l = 0.5 * (lo + hi);
    for (int i = 0; i < k; i++)
        p[i] = f[i] / (1.0 + l * (x[i] - s));
}

/* The generalised SPRT's LLR of k outcome counts with scores x (see rating_sprt_llr). */
static double rating_outcomes_llr(const double *cnt, const double *x, int k, double elo0,
                                  double elo1)
{
    double n = 0, f[5], p0[5], p1[5];
    for (int i = 0; i < k; i++)
        n += cnt[i];
    if (n <= 0)
        return 0;
    /* Frequencies get a tiny pseudo-count so that an outcome not seen yet is possible (no
       infinite ratio after a few wins). */
    const double eps = 1e-3;
    for (int i = 0; i < k; i++)
        f[i] = (cnt[i] + eps) / (n + k * eps);
    rating_outcomes_fit(f, x, k, rating_expected_score(elo0), p0);
    rating_outcomes_fit(f, x, k, rating_expected_score(elo1), p1);
    double llr = 0;
    for (int i = 0; i < k; i++)
        if (cnt[i] > 0)
            llr += cnt[i] * log(p1[i] / p0[i]);
    return llr;
}

double rating_sprt_llr_ptnml(const double *counts, double elo0, double elo1)
{
    static const double x[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    return rating_outcomes_llr(counts, x, 5, elo0, elo1);
}

double rating_sprt_llr(double wins, double draws, double losses, double elo0, double elo1)
{
    /* Generalised SPRT: under each hypothesis the W/D/L probabilities are the maximum-
       likelihood trinomial with that expected score. */
    static const double x[3] = {1.0, 0.5, 0.0};
    const double cnt[3] = {wins, draws, losses};
    return rating_outcomes_llr(cnt, x, 3, elo0, elo1);
}

/* Counts one game's outcome in wins, draws, losses. */
static void rating_sprt_count(rating_sprt_t *s, double outcome)
{
    if (outcome > 0.75)
        s->wins += 1;
    else if (outcome < 0.25)
        s->losses += 1;
    else
        s->draws += 1;
}

static int rating_sprt_decide(rating_sprt_t *s)
{
    if (s->llr >= s->upper)
        s->verdict = 1;
    else if (s->llr <= s->lower)
        s->verdict = -1;
    return s->verdict;
}

int rating_sprt_add_pair(rating_sprt_t *s, double first, double second)
{
    rating_sprt_count(s, first);
    rating_sprt_count(s, second);
    int k = (int)lround(2 * (first + second));
    s->ptnml[k < 0 ? 0 : k > 4 ? 4 : k] += 1;
    s->pentanomial = true;
    if (s->verdict)
        return s->verdict;
    s->llr = rating_sprt_llr_ptnml(s->ptnml, s->elo0, s->elo1);
    return rating_sprt_decide(s);
}

int rating_sprt_add(rating_sprt_t *s, double outcome)
{
    rating_sprt_count(s, outcome);
    if (s->verdict)
        return s->verdict;
    s->llr = rating_sprt_llr(s->wins, s->draws, s->losses, s->elo0, s->elo1);
    return rating_sprt_decide(s);
}

const char *rating_sprt_verdict_text(int verdict)
{
    return verdict > 0 ? "H1 accepted" : verdict < 0 ? "H0 accepted" : "continue";
}

/* An integer array of exactly n elements into out, with bounds; 0 or -1. */
static int rating_json_ints(const json_t *a, int n, long lo, long hi, int *out)
{
    if (!json_is_array(a) || json_array_size(a) != (size_t)n)
        return -1;
    for (int i = 0; i < n; i++) {
        const json_t *v = json_array_get(a, (size_t)i);
        if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
            return -1;
        out[i] = (int)json_integer_value(v);
    }
    return 0;
}

/*
 * The tournament key of a record, if it has one: {"index", "config", "bots"}; "bots" (per
 * seat, the bot's place in the --bot list) is absent from files written before it existed.
 */
static int rating_record_tournament(const json_t *t, rating_game_t *g, char *err, size_t errlen)
{
    const char *config = json_string_value(json_object_get(t, "config"));
    const json_t *index = json_object_get(t, "index");
    if (config && json_is_integer(index) && json_integer_value(index) >= 0) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(config, &end, 16);
        if (!errno && end != config && !*end) {
            g->keyed = true;
            g->config = (uint64_t)v;
            g->index = (long)json_integer_value(index);
        }
    }
    const json_t *bots = json_object_get(t, "bots");
    if (bots && rating_json_ints(bots, g->players, 0, 1000000, g->listed)) {
        snprintf(err, errlen, "record's \"tournament\" \"bots\" is not a list of %d places",
                 g->players);
        return -1;
    }
    for (int s = 0; bots && s < g->players; s++)
        g->listed[s]++;
    return 0;
}

int rating_game_from_record(const json_t *rec, int (*lookup)(void *ctx, const char *spec),
                            void *ctx, rating_game_t *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    if (!json_is_object(rec)) {
        snprintf(err, errlen, "a record must be a JSON object");
        return -1;
    }
    record_outcome_t o;
    record_outcome(rec, &o);
    if (!o.players) {
        snprintf(err, errlen, "record has no \"players\" count from 2 to %d", GAME_MAX_PLAYERS);
        return -1;
    }
    int n = g->players = o.players;
    if (o.seat_count != n) {
        snprintf(err, errlen, "record has no \"seats\" list of %d bot specs", n);
        return -1;
    }
    for (int s = 0; s < n; s++) {
        if (!o.seats[s] || !*o.seats[s]) {
            snprintf(err, errlen, "record seat %d is not a bot spec string", s);
            return -1;
        }
        if ((g->bots[s] = lookup(ctx, o.seats[s])) < 0) {
            snprintf(err, errlen, "too many different bots");
            return -1;
        }
    }
    if (rating_record_tournament(json_object_get(rec, "tournament"), g, err, errlen))
        return -1;
    g->forfeit = o.forfeit_seat >= 0;
    g->forfeit_seat = g->forfeit ? o.forfeit_seat : 0;
    const json_t *used = json_object_get(json_object_get(rec, "clock"), "used_ms");
    g->clocked = json_array_size(used) == (size_t)n;
    for (int s = 0; g->clocked && s < n; s++)
        g->used_ms[s] = json_number_value(json_array_get(used, (size_t)s));
    g->time_loss =
        g->clocked && g->forfeit && o.forfeit_reason && !strcmp(o.forfeit_reason, "timeout");
    if (!o.has_ranks) {
        snprintf(err, errlen, "record has no \"result\" with %d \"ranks\" from 1 to %d", n, n);
        return -1;
    }
    memcpy(g->ranks, o.ranks, sizeof(int) * (size_t)n);
    /* The game's own score (Tower Up scores, Uptown groups; core/record.h). */
    if (o.has_scores < 0) {
        snprintf(err, errlen, "record result scores are not a list of %d numbers", n);
        return -1;
    }
    g->has_scores = o.has_scores > 0;
    if (g->has_scores)
        memcpy(g->scores, o.scores, sizeof(double) * (size_t)n);
    return 0;
}

static int rating_key_cmp(const void *a, const void *b)
{
    const rating_key_t *x = a, *y = b;
    if (x->config != y->config)
        return x->config < y->config ? -1 : 1;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

int rating_keys_twice(rating_key_t *keys, long n, const rating_key_t **first,
                      const rating_key_t **second)
{
    if (n < 2)
        return 0;
    qsort(keys, (size_t)n, sizeof *keys, rating_key_cmp);
    for (long i = 1; i < n; i++)
        if (keys[i - 1].config == keys[i].config && keys[i - 1].index == keys[i].index) {
            *first = &keys[i - 1];
            *second = &keys[i];
            return 1;
        }
    return 0;
}

int rating_keys_add(rating_key_t **keys, long *n, long *cap, long index, long line)
{
    if (*n == *cap) {
        long room = *cap ? 2 * *cap : 1024;
        rating_key_t *k = realloc(*keys, sizeof *k * (size_t)room);
        if (!k)
            return -1;
        *keys = k;
        *cap = room;
    }
    (*keys)[(*n)++] = (rating_key_t){.index = index, .line = line};
    return 0;
}
