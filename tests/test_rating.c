/*
 * Ratings and SPRT on synthetic data: Plackett-Luce games with known strengths must give
 * back their order and roughly their gaps; the SPRT must accept H1 for a clearly stronger
 * bot and H0 for equal bots; record parsing must refuse malformed records.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena/rating.h"
#include "tests/test.h"

/* A Plackett-Luce game: seats filled with bots, finishing order drawn by strengths. */
static void simulate_pl(pcg32_t *rng, int players, const int *bots, const double *elo,
                        rating_game_t *g)
{
    memset(g, 0, sizeof *g);
    g->players = players;
    bool placed[GAME_MAX_PLAYERS] = {false};
    for (int s = 0; s < players; s++)
        g->bots[s] = bots[s];
    for (int place = 1; place <= players; place++) {
        double total = 0, w[GAME_MAX_PLAYERS];
        for (int s = 0; s < players; s++) {
            w[s] = placed[s] ? 0 : pow(10.0, elo[bots[s]] / 400.0);
            total += w[s];
        }
        double u = pcg32_double(rng) * total;
        int pick = -1;
        for (int s = 0; s < players; s++)
            if (!placed[s]) {
                pick = s;
                if (u < w[s])
                    break;
                u -= w[s];
            }
        placed[pick] = true;
        g->ranks[pick] = place;
        g->scores[pick] = 10 * (players - place);
    }
    g->has_scores = true;
}

static void test_pl_recovery(int players, int bot_count, long games)
{
    static const double truth[] = {0, 100, 250, -150, 50};
    pcg32_t rng;
    pcg32_seed(&rng, 2024, (uint64_t)players);
    rating_game_t *g = malloc(sizeof *g * (size_t)games);
    for (long k = 0; k < games; k++) {
        int bots[GAME_MAX_PLAYERS];
        /* Seats: a random line-up of distinct bots when possible. */
        int perm[5] = {0, 1, 2, 3, 4};
        for (int i = bot_count - 1; i > 0; i--) {
            int j = (int)pcg32_bounded(&rng, (uint32_t)i + 1);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int s = 0; s < players; s++)
            bots[s] = perm[s % bot_count];
        simulate_pl(&rng, players, bots, truth, &g[k]);
    }
    rating_table_t t;
    CHECK(rating_table_compute(g, games, bot_count, 0, 100, 7, &t) == 0);
    /* Order recovered. */
    for (int r = 0; r + 1 < bot_count; r++)
        CHECK_MSG(truth[t.order[r]] > truth[t.order[r + 1]], "%d players: rank %d is bot %d",
                  players, r, t.order[r]);
    /* Gaps: within 4 standard errors and within 35 Elo. */
    for (int i = 0; i < bot_count; i++) {
        double d = fabs(t.bots[i].elo - truth[i]);
        CHECK_MSG(d < 35 && (i == 0 || d < 2.1 * t.bots[i].elo_ci95 + 5),
                  "%d players: bot %d elo %.1f +- %.1f, truth %.0f", players, i, t.bots[i].elo,
                  t.bots[i].elo_ci95, truth[i]);
        CHECK(t.bots[i].elo_ci95 >= 0 && (i == 0 || t.bots[i].elo_ci95 > 1));
    }
    CHECK(t.bots[0].elo == 0);
    /* Neighbours 100+ Elo apart are clearly ordered. */
    CHECK(t.bots[t.order[0]].los_next > 0.99);
    if (bot_count < 3) {
        rating_table_free(&t);
        free(g);
        return;
    }
    /* The pairwise table agrees with the model: 250 vs 0 is about 0.81. */
    double p20 = t.pair_score[2 * bot_count + 0];
    CHECK_MSG(fabs(p20 - 1 / (1 + pow(10, -250 / 400.0))) < 0.04, "pair 2-0 %.3f", p20);
    CHECK(fabs(t.pair_score[2 * bot_count] + t.pair_score[2] - 1) < 1e-9);
    CHECK(t.pair_count[2 * bot_count] == t.pair_count[2]);
    /* Summaries: results average 1/2 over all seats, mean ranks ordered like strengths. */
    double sum = 0;
    long seats = 0;
    for (int i = 0; i < bot_count; i++) {
        sum += t.bots[i].result * (double)t.bots[i].games;
        seats += t.bots[i].games;
    }
    CHECK_EQ_INT(seats, games * players);
    CHECK(fabs(sum / (double)seats - 0.5) < 1e-9);
    CHECK(t.bots[2].mean_rank < t.bots[0].mean_rank);
    CHECK(t.bots[2].mean_score > t.bots[0].mean_score);
    CHECK(t.bots[2].result_ci95 > 0 && t.bots[2].result_ci95 < 0.05);
    rating_table_free(&t);
    free(g);
}

/* Streams of outcomes with a given win and draw probability until the SPRT decides. */
static int run_sprt(double elo0, double elo1, double pwin, double pdraw, uint64_t seed, long *used)
{
    rating_sprt_t s;
    rating_sprt_init(&s, elo0, elo1, 0.05, 0.05);
    pcg32_t rng;
    pcg32_seed(&rng, seed, 3);
    long n = 0;
    while (!s.verdict && n < 1000000) {
        double u = pcg32_double(&rng);
        rating_sprt_add(&s, u < pwin ? 1.0 : u < pwin + pdraw ? 0.5 : 0.0);
        n++;
    }
    *used = n;
    return s.verdict;
}

static void test_sprt(void)
{
    rating_sprt_t s;
    char err[256];
    CHECK(rating_sprt_parse("0,10,0.05,0.05", &s, err, sizeof err) == 0);
    CHECK(fabs(s.upper - log(19.0)) < 1e-12 && fabs(s.lower + log(19.0)) < 1e-12);
    CHECK(rating_sprt_parse("0,10,0.05", &s, err, sizeof err) == -1);
    CHECK(rating_sprt_parse("10,0,0.05,0.05", &s, err, sizeof err) == -1);
    CHECK(rating_sprt_parse("0,10,0.6,0.05", &s, err, sizeof err) == -1);
    CHECK(rating_sprt_parse("0,10,0.05,0.05,", &s, err, sizeof err) == -1);
    CHECK(rating_sprt_parse("a,10,0.05,0.05", &s, err, sizeof err) == -1);
    CHECK(rating_sprt_llr(0, 0, 0, 0, 10) == 0);
    /* Symmetry: swapping wins and losses and the hypotheses' signs flips the LLR. */
    CHECK(fabs(rating_sprt_llr(60, 10, 30, 0, 20) + rating_sprt_llr(30, 10, 60, -20, 0)) < 1e-9);
    /* Straight wins, no draws or losses: the Bernoulli ratio (s1/s0)^n, not infinity. */
    double s1 = 1 / (1 + pow(10, -50 / 400.0));
    CHECK(fabs(rating_sprt_llr(7, 0, 0, 0, 50) - 7 * log(s1 / 0.5)) < 0.01);
    rating_sprt_init(&s, 0, 50, 0.05, 0.05);
    for (int k = 0; k < 10; k++)
        rating_sprt_add(&s, 1.0);
    CHECK_EQ_INT(s.verdict, 0);
    /* Many games: close to the normal approximation N (s1-s0)(2s-s0-s1) / (2 var). */
    {
        double w = 520, d = 40, l = 440, n = w + d + l, m = (w + d / 2) / n;
        double var = (w * (1 - m) * (1 - m) + d * (0.5 - m) * (0.5 - m) + l * m * m) / n;
        double a = 1 / (1 + pow(10, -10 / 400.0)), b = 1 / (1 + pow(10, -30 / 400.0));
        double approx = n * (b - a) * (2 * m - a - b) / (2 * var);
        double llr = rating_sprt_llr(w, d, l, 10, 30);
        CHECK_MSG(fabs(llr - approx) < 0.02 * fabs(approx) + 0.01, "%f vs %f", llr, approx);
    }
    /* Clearly stronger (about +190 Elo): H1 quickly; equal: H0. */
    long used;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        CHECK_EQ_INT(run_sprt(0, 50, 0.7, 0.05, seed, &used), 1);
        CHECK(used < 400);
        CHECK_EQ_INT(run_sprt(0, 50, 0.45, 0.1, seed, &used), -1);
        CHECK(used < 2000);
    }
    /* Error rates: under H0 (elo 0) with bounds 0/30 few runs accept H1. */
    int wrong = 0;
    for (uint64_t seed = 10; seed < 110; seed++)
        wrong += run_sprt(0, 30, 0.5, 0.0, seed, &used) == 1;
    CHECK_MSG(wrong <= 12, "%d of 100 runs accepted H1 under H0", wrong);
    /* A verdict, once reached, stays. */
    rating_sprt_init(&s, 0, 50, 0.05, 0.05);
    while (!s.verdict)
        rating_sprt_add(&s, 1.0);
    for (int k = 0; k < 1000; k++)
        rating_sprt_add(&s, 0.0);
    CHECK_EQ_INT(s.verdict, 1);
    CHECK(strcmp(rating_sprt_verdict_text(1), "H1 accepted") == 0);
}

static int lookup_spec(void *ctx, const char *spec)
{
    char(*names)[16] = ctx;
    for (int i = 0; i < 4; i++) {
        if (!names[i][0])
            snprintf(names[i], 16, "%s", spec);
        if (!strcmp(names[i], spec))
            return i;
    }
    return -1;
}

static int parse(const char *text, rating_game_t *g)
{
    char names[4][16] = {{0}};
    char err[256];
    json_t *rec = json_loads(text, 0, NULL);
    int rc = rec ? rating_game_from_record(rec, lookup_spec, names, g, err, sizeof err) : -2;
    json_decref(rec);
    return rc;
}

static void test_records(void)
{
    rating_game_t g;
    CHECK(parse("{\"game\":\"towerup\",\"players\":3,\"seats\":[\"a\",\"b\",\"a\"],"
                "\"result\":{\"scores\":[4,5,6],\"ranks\":[3,2,1]}}",
                &g) == 0);
    CHECK(g.players == 3 && g.bots[0] == 0 && g.bots[1] == 1 && g.bots[2] == 0);
    CHECK(g.ranks[2] == 1 && g.has_scores && g.scores[1] == 5);
    CHECK(parse("{\"game\":\"uptown\",\"players\":2,\"seats\":[\"a\",\"b\"],"
                "\"result\":{\"groups\":[4,5],\"ranks\":[2,1]}}",
                &g) == 0);
    CHECK(g.has_scores && g.scores[0] == 4);
    /* A named game's score is under its own key only (Tower Up: scores). */
    CHECK(parse("{\"game\":\"towerup\",\"players\":2,\"seats\":[\"a\",\"b\"],"
                "\"result\":{\"groups\":[4,5],\"ranks\":[2,1]}}",
                &g) == 0);
    CHECK(!g.has_scores);
    CHECK(parse("[1,2]", &g) == -1);
    CHECK(parse("{\"players\":3,\"seats\":[\"a\",\"b\"],\"result\":{\"ranks\":[1,2,3]}}", &g) ==
          -1);
    CHECK(parse("{\"players\":2,\"seats\":[\"a\",\"b\"],\"result\":{\"ranks\":[1,3]}}", &g) == -1);
    CHECK(parse("{\"players\":2,\"seats\":[\"a\",2],\"result\":{\"ranks\":[1,2]}}", &g) == -1);
    CHECK(parse("{\"players\":2,\"seats\":[\"a\",\"b\"]}", &g) == -1);
    CHECK(parse("{\"players\":2,\"seats\":[\"a\",\"b\"],\"result\":{\"ranks\":[1,2],"
                "\"scores\":[1]}}",
                &g) == -1);
    CHECK(parse("{\"players\":9,\"seats\":[\"a\",\"b\"],\"result\":{\"ranks\":[1,2]}}", &g) == -1);
}

/* Beyond 64 bots the fit uses MM iterations: still the right order of far-apart bots. */
static void test_many_bots(void)
{
    enum { NB = 70, GAMES = 30000 };
    double truth[NB], elo[NB] = {0};
    for (int i = 0; i < NB; i++)
        truth[i] = 8.0 * i;
    pcg32_t rng;
    pcg32_seed(&rng, 5, 5);
    rating_game_t *g = malloc(sizeof *g * GAMES);
    for (long k = 0; k < GAMES; k++) {
        int bots[2] = {(int)pcg32_bounded(&rng, NB), 0};
        do
            bots[1] = (int)pcg32_bounded(&rng, NB);
        while (bots[1] == bots[0]);
        simulate_pl(&rng, 2, bots, truth, &g[k]);
    }
    rating_fit_bt(g, GAMES, NULL, NB, 0, elo);
    CHECK(elo[0] == 0);
    CHECK_MSG(fabs(elo[NB - 1] - truth[NB - 1]) < 100, "bot %d: %.0f", NB - 1, elo[NB - 1]);
    CHECK(elo[NB - 1] > elo[NB / 2] && elo[NB / 2] > elo[0]);
    free(g);
}

/* Labels, the interval rule, the mean anchor and bots without games. */
static void test_labels_intervals_anchor(void)
{
    static const struct {
        int id;
        const char *label;
    } labels[] = {{0, "A"},   {1, "B"},   {25, "Z"},   {26, "AA"},  {27, "AB"},
                  {51, "AZ"}, {52, "BA"}, {255, "IV"}, {701, "ZZ"}, {702, "AAA"}};
    for (size_t k = 0; k < sizeof labels / sizeof labels[0]; k++) {
        char buf[RATING_LABEL_MAX];
        rating_label(labels[k].id, buf);
        CHECK_MSG(!strcmp(buf, labels[k].label), "label %d: %s", labels[k].id, buf);
    }
    /* No interval from one result or from equal ones (also thirds, which do not add up
       exactly); one from results that differ. */
    CHECK(isnan(rating_mean_ci95(0, 0, 0)));
    CHECK(isnan(rating_mean_ci95(1, 0.5, 0.25)));
    CHECK(isnan(rating_mean_ci95(8, 0, 0)));
    CHECK(isnan(rating_mean_ci95(8, 8, 8)));
    double third = 0, third2 = 0;
    for (int k = 0; k < 30; k++) {
        third += 1.0 / 3;
        third2 += (1.0 / 3) * (1.0 / 3);
    }
    CHECK(isnan(rating_mean_ci95(30, third, third2)));
    CHECK(fabs(rating_mean_ci95(2, 1, 1) - 1.96 * sqrt(0.5 / 2)) < 1e-12);

    /* Mean anchor: the same fit as an anchored one, shifted to mean 0; bot 3 never played. */
    enum { NB = 4, GAMES = 600 };
    static const double truth[NB] = {0, 200, -100, 0};
    rating_game_t *g = malloc(sizeof *g * GAMES);
    pcg32_t rng;
    pcg32_seed(&rng, 5, 5);
    for (int k = 0; k < GAMES; k++) {
        int bots[3] = {k % 3, (k + 1) % 3, (k + 2) % 3};
        simulate_pl(&rng, 3, bots, truth, &g[k]);
    }
    rating_table_t a, m;
    CHECK(rating_table_compute(g, GAMES, NB, 0, 50, 3, &a) == 0);
    CHECK(rating_table_compute(g, GAMES, NB, RATING_ANCHOR_MEAN, 50, 3, &m) == 0);
    CHECK_EQ_INT(m.anchor, RATING_ANCHOR_MEAN);
    double mean = 0;
    for (int i = 0; i < NB; i++)
        mean += m.bots[i].elo / NB;
    CHECK_MSG(fabs(mean) < 1e-6, "mean %g", mean);
    for (int i = 0; i < NB; i++) {
        CHECK_MSG(fabs(m.bots[i].elo - m.bots[0].elo - a.bots[i].elo) < 1e-6, "bot %d", i);
        /* no bot is the anchor; bot 3 never played, so it has no interval */
        CHECK(i == 3 ? isnan(m.bots[i].elo_ci95) : m.bots[i].elo_ci95 > 0);
        CHECK(a.bots[i].los_next == m.bots[i].los_next || isnan(a.bots[i].los_next));
    }
    CHECK(a.bots[0].elo_ci95 == 0);
    CHECK_EQ_INT(m.bots[3].games, 0);
    CHECK(isnan(m.bots[3].result) && isnan(m.bots[3].result_ci95) && isnan(m.bots[3].mean_rank));
    /* The printed table names the anchor, gives whole specs and no interval where none. */
    static const char *const specs[NB] = {"mcts:iters=1000,prior=heuristic,cutoff=8,fpu=0.3",
                                          "mcts:iters=100,prior=heuristic,cutoff=8,fpu=0.3",
                                          "random", "greedy"};
    static const char *const names[NB] = {"A", "B", "C", "D"};
    FILE *f = tmpfile();
    rating_table_print(f, &m, specs, names, 50, true);
    rating_table_print(f, &a, specs, names, 50, false);
    rewind(f);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    CHECK(strstr(text, "Anchor: the mean of the 4 bots is 0.\n"));
    CHECK(strstr(text, "Anchor: A is 0.\n"));
    CHECK(strstr(text, specs[0]) && strstr(text, specs[1]));
    CHECK(strstr(text, "Pairwise"));
    CHECK(!strstr(text, "+- 0.000"));
    rating_table_free(&a);
    rating_table_free(&m);
    free(g);
}

/* A 2-player game of bots x (seat 0) and y with x ranked r0, keyed by tournament index. */
static rating_game_t two_game(int x, int y, int r0, int r1, long index)
{
    rating_game_t g;
    memset(&g, 0, sizeof g);
    g.players = 2;
    g.bots[0] = x;
    g.bots[1] = y;
    g.ranks[0] = r0;
    g.ranks[1] = r1;
    g.keyed = true;
    g.config = 0xabc;
    g.index = index;
    return g;
}

/* One labelling rule: places from the --bot list, then first appearance; labels unique. */
static void test_label_rule(void)
{
    rating_game_t g[2];
    g[0] = two_game(0, 1, 1, 2, 0); /* id 0 "greedy" at place 1, id 1 "random" at place 0 */
    g[0].listed[0] = 2;
    g[0].listed[1] = 1;
    g[1] = two_game(2, 1, 1, 2, 1); /* id 2: a bot no record places */
    g[1].listed[1] = 1;
    char labels[4][RATING_LABEL_MAX];
    int order[4];
    CHECK(rating_labels(g, 2, 3, labels, order) == 0);
    CHECK(!strcmp(labels[1], "A") && !strcmp(labels[0], "B") && !strcmp(labels[2], "C"));
    CHECK(order[0] == 1 && order[1] == 0 && order[2] == 2);
    /* Without places (older files): first appearance. */
    g[0].listed[0] = g[0].listed[1] = g[1].listed[1] = 0;
    CHECK(rating_labels(g, 2, 3, labels, order) == 0);
    CHECK(!strcmp(labels[0], "A") && !strcmp(labels[1], "B") && !strcmp(labels[2], "C"));
    /* Two bots at one place (two tournaments' files): the next free label. */
    g[0].listed[0] = 1;
    g[1].listed[0] = 1;
    CHECK(rating_labels(g, 2, 3, labels, order) == 0);
    CHECK(!strcmp(labels[0], "A") && !strcmp(labels[2], "B") && !strcmp(labels[1], "C"));
}

/* A bot that won every comparison: no interval, no LOS, and the one-sided bound. */
static void test_separation(void)
{
    rating_game_t g[13];
    for (int k = 0; k < 13; k++)
        g[k] = k % 2 ? two_game(1, 0, 2, 1, k) : two_game(0, 1, 1, 2, k);
    rating_table_t t;
    CHECK(rating_table_compute(g, 12, 2, RATING_ANCHOR_MEAN, 50, 1, &t) == 0);
    CHECK_EQ_INT(t.group_count, 2);
    CHECK(isnan(t.bots[0].elo_ci95) && isnan(t.bots[1].elo_ci95) && isnan(t.bots[0].los_next));
    rating_separation_t sep;
    CHECK(rating_separation(&t, 0, &sep) == 0 && sep.comparisons == 12 && sep.upper_won);
    /* 0.05^(1/12) and 400 log10(b / (1 - b)), by hand. */
    CHECK_MSG(fabs(sep.score_bound - 0.7790778) < 1e-6, "%g", sep.score_bound);
    CHECK_MSG(fabs(sep.elo_bound - 218.9366) < 1e-3, "%g", sep.elo_bound);
    CHECK(rating_separation(&t, 1, &sep) == -1);
    static const char *const specs[2] = {"greedy", "random"}, *const names[2] = {"A", "B"};
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    rating_table_print(mem, &t, specs, names, 50, false);
    fclose(mem);
    CHECK_MSG(strstr(text, "  A over B: all 12 comparisons won; one-sided 95%: they score at "
                           "least 0.779 (+219 Elo)\n") &&
                  !strstr(text, "+- 0") && strstr(text, "Separated:"),
              "%s", text);
    free(text);
    rating_table_free(&t);
    /* The anchor's own group keeps its intervals; across a gap there are none. */
    CHECK(rating_table_compute(g, 12, 2, 0, 50, 1, &t) == 0);
    CHECK(t.bots[0].elo_ci95 == 0 && isnan(t.bots[1].elo_ci95));
    rating_table_free(&t);
    /* One loss joins the groups: intervals again. */
    g[12] = two_game(0, 1, 2, 1, 12);
    CHECK(rating_table_compute(g, 13, 2, RATING_ANCHOR_MEAN, 50, 1, &t) == 0);
    CHECK_EQ_INT(t.group_count, 1);
    CHECK(t.bots[0].elo_ci95 > 0 && t.bots[1].elo_ci95 > 0 && isfinite(t.bots[0].los_next));
    rating_table_free(&t);
}

/* The pentanomial model against hand-computed values, and the pairs it is made of. */
static void test_pentanomial(void)
{
    static const long counts[5] = {1, 2, 3, 2, 2};
    rating_ptnml_t p;
    rating_ptnml_from_counts(counts, 0, &p);
    /* 11 points in 10 pairs: 0.55 a game; variance of the pair means 0.0975 (by hand:
       .1 * .55^2 + .2 * .3^2 + .3 * .05^2 + .2 * .2^2 + .2 * .45^2). */
    CHECK(p.pairs == 10 && fabs(p.score - 0.55) < 1e-12);
    CHECK_MSG(fabs(p.se - 0.0987421) < 1e-6, "se %g", p.se);
    CHECK_MSG(fabs(p.elo - 34.86007) < 1e-4, "elo %g", p.elo);
    CHECK(p.elo_lo < p.elo && p.elo < p.elo_hi);
    /* Pairs: indices 2k and 2k + 1 with the seats swapped; others count as unpaired. */
    rating_game_t g[7] = {
        two_game(0, 1, 1, 2, 0), two_game(1, 0, 1, 2, 1), /* 1 + 0 points for bot 0 */
        two_game(1, 0, 2, 1, 2), two_game(0, 1, 1, 1, 3), /* 1 + 1/2 */
        two_game(0, 1, 1, 2, 5), two_game(1, 0, 2, 1, 6), /* 5 and 6: not a block */
        two_game(0, 1, 1, 2, 8),                          /* no partner */
    };
    long partner[7];
    CHECK(rating_pair_partners(g, 7, partner) == 0);
    CHECK(partner[0] == 1 && partner[1] == 0 && partner[2] == 3 && partner[4] == -1 &&
          partner[5] == -1 && partner[6] == -1);
    CHECK(rating_ptnml_games(g, 7, 0, 1, &p) == 0);
    CHECK(p.pairs == 2 && p.counts[2] == 1 && p.counts[3] == 1 && p.unpaired == 3);
    /* The SPRT on pairs: many pairs give the normal approximation
       N (s1 - s0)(2s - s0 - s1) / (2 var) = 104.58 (s0 = 1/2, s1 = 0.571463, by hand)... */
    const double big[5] = {1000, 2000, 3000, 2000, 2000};
    double llr = rating_sprt_llr_ptnml(big, 0, 50);
    CHECK_MSG(fabs(llr - 104.58) < 0.05 * 104.58, "llr %g", llr);
    /* ... and n pairs won outright n log(s1 / s0), not a huge ratio from no variance. */
    const double won[5] = {0, 0, 0, 0, 7};
    llr = rating_sprt_llr_ptnml(won, 0, 50);
    CHECK_MSG(fabs(llr - 0.9351429) < 0.01, "llr %g", llr);
    rating_sprt_t s;
    rating_sprt_init(&s, 0, 50, 0.05, 0.05);
    for (int k = 0; k < 7; k++)
        rating_sprt_add_pair(&s, 1, 1);
    CHECK(s.pentanomial && s.ptnml[4] == 7 && s.wins == 14 && fabs(s.llr - llr) < 1e-12);
    rating_sprt_add_pair(&s, 0.5, 0);
    CHECK(s.ptnml[1] == 1 && s.draws == 1 && s.losses == 1);
}

int main(void)
{
    test_labels_intervals_anchor();
    test_label_rule();
    test_separation();
    test_pentanomial();
    test_many_bots();
    test_pl_recovery(2, 2, 4000);
    test_pl_recovery(3, 4, 4000);
    test_pl_recovery(4, 5, 3000);
    test_pl_recovery(5, 3, 2000);
    test_sprt();
    test_records();
    return test_finish("test_rating");
}
