/*
 * skyline rate end to end: record files written here from a Plackett-Luce simulation with
 * known strengths must come back in order with roughly the right gaps, whether the games
 * are in one file or split over two; malformed files and games given twice are refused.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "tests/test.h"

static const char *const specs[] = {"alpha:x=1", "bravo", "charlie:y=2,z=3", "delta"};
static const double truth[] = {0, 150, -100, 300};
#define BOTS 4

/* Writes games [from, to) of a 3-player PL tournament to path (appending). */
static void write_games(const char *path, long from, long to)
{
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(2);
    }
    for (long k = from; k < to; k++) {
        pcg32_t rng;
        pcg32_seed(&rng, 99, (uint64_t)k);
        int bots[3], left[BOTS] = {0, 1, 2, 3}, n = BOTS;
        for (int s = 0; s < 3; s++) {
            int j = (int)pcg32_bounded(&rng, (uint32_t)n);
            bots[s] = left[j];
            left[j] = left[--n];
        }
        int ranks[3] = {0}, scores[3];
        for (int place = 1; place <= 3; place++) {
            double w[3], total = 0;
            for (int s = 0; s < 3; s++)
                total += w[s] = ranks[s] ? 0 : pow(10, truth[bots[s]] / 400);
            double u = pcg32_double(&rng) * total;
            int pick = -1;
            for (int s = 0; s < 3; s++)
                if (!ranks[s]) {
                    pick = s;
                    if (u < w[s])
                        break;
                    u -= w[s];
                }
            ranks[pick] = place;
            scores[pick] = 40 - 5 * place;
        }
        fprintf(f,
                "{\"game\":\"towerup\",\"format\":1,\"players\":3,\"seats\":[\"%s\",\"%s\",\"%s\"],"
                "\"result\":{\"scores\":[%d,%d,%d],\"ranks\":[%d,%d,%d]},"
                "\"tournament\":{\"index\":%ld,\"config\":\"00000000000000aa\"}}\n",
                specs[bots[0]], specs[bots[1]], specs[bots[2]], scores[0], scores[1], scores[2],
                ranks[0], ranks[1], ranks[2], k);
    }
    fclose(f);
}

/* Runs skyline with args; returns its exit status and its stdout in *out (caller frees). */
static int run(const char *args, char **out)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>/dev/null", SKYLINE_BINARY, args);
    FILE *p = popen(cmd, "r");
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (p && (got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (n + 1 == cap)
            buf = realloc(buf, cap *= 2);
    }
    buf[n] = 0;
    int status = p ? pclose(p) : -1;
    if (out)
        *out = buf;
    else
        free(buf);
    return status;
}

/* The elo of each spec from rate --json output, in specs order; 0 if parsed. */
static int parse_elos(const char *text, double *elo, double *ci, double *score)
{
    json_t *j = json_loads(text, 0, NULL);
    json_t *bots = json_object_get(j, "bots");
    int found = 0;
    for (size_t i = 0; i < json_array_size(bots); i++) {
        json_t *b = json_array_get(bots, i);
        const char *spec = json_string_value(json_object_get(b, "spec"));
        for (int k = 0; spec && k < BOTS; k++)
            if (!strcmp(spec, specs[k])) {
                elo[k] = json_number_value(json_object_get(b, "elo"));
                ci[k] = json_number_value(json_object_get(b, "elo_ci95"));
                score[k] = json_number_value(json_object_get(b, "mean_score"));
                found++;
            }
    }
    json_decref(j);
    return found == BOTS ? 0 : -1;
}

int main(void)
{
    const char *one = "test_rating_cli_one.jsonl", *a = "test_rating_cli_a.jsonl",
               *b = "test_rating_cli_b.jsonl", *bad = "test_rating_cli_bad.jsonl";
    remove(one);
    remove(a);
    remove(b);
    write_games(one, 0, 3000);
    write_games(a, 0, 1200);
    write_games(b, 1200, 3000);

    char args[512], *out;
    double elo[BOTS], ci[BOTS], score[BOTS];
    snprintf(args, sizeof args, "rate --json --anchor alpha:x=1 %s", one);
    CHECK_EQ_INT(run(args, &out), 0);
    CHECK(parse_elos(out, elo, ci, score) == 0);
    free(out);
    CHECK(elo[0] == 0);
    CHECK(elo[3] > elo[1] && elo[1] > elo[0] && elo[0] > elo[2]);
    for (int k = 1; k < BOTS; k++)
        CHECK_MSG(fabs(elo[k] - truth[k]) < 40 && fabs(elo[k] - truth[k]) < 2.5 * ci[k] + 5,
                  "%s: elo %.1f +- %.1f, truth %.0f", specs[k], elo[k], ci[k], truth[k]);
    CHECK(score[3] > score[1] && score[1] > score[2]);

    /* Split over two files: the same table. */
    double elo2[BOTS], ci2[BOTS], score2[BOTS];
    snprintf(args, sizeof args, "rate --json --anchor alpha:x=1 %s %s", a, b);
    CHECK_EQ_INT(run(args, &out), 0);
    CHECK(parse_elos(out, elo2, ci2, score2) == 0);
    free(out);
    for (int k = 0; k < BOTS; k++)
        CHECK(fabs(elo[k] - elo2[k]) < 1e-6);

    /* Text output names every bot and the pairwise table. */
    snprintf(args, sizeof args, "rate %s", one);
    CHECK_EQ_INT(run(args, &out), 0);
    CHECK(strstr(out, "charlie:y=2,z=3") && strstr(out, "Pairwise"));
    free(out);

    /* Refusals: the same games twice, malformed records, missing files, bad options. */
    snprintf(args, sizeof args, "rate %s %s", one, a);
    CHECK(run(args, NULL) != 0);
    static const char *const bad_lines[] = {
        "{\"game\":\"towerup\",\"players\":3}\n",
        "not json\n",
        "{\"game\":\"chess\",\"players\":2,\"seats\":[\"a\",\"b\"],\"result\":{\"ranks\":[1,2]}}\n",
        "{\"game\":\"towerup\",\"players\":2,\"seats\":[\"a\",\"b\"],\"result\":{\"ranks\":[1,5]}}\n",
        "{\"game\":\"uptown\",\"players\":2,\"seats\":[\"a\",\"b\"],\"result\":{\"ranks\":[1,2]}}\n",
    };
    for (size_t k = 0; k < sizeof bad_lines / sizeof bad_lines[0]; k++) {
        FILE *f = fopen(bad, "w");
        fputs("{\"game\":\"towerup\",\"players\":2,\"seats\":[\"a\",\"b\"],"
              "\"result\":{\"ranks\":[1,2]}}\n",
              f);
        fputs(bad_lines[k], f);
        fclose(f);
        snprintf(args, sizeof args, "rate %s", bad);
        CHECK_MSG(run(args, NULL) != 0, "bad line %zu accepted", k);
    }
    /* A cut-off last line is ignored, not an error. */
    FILE *f = fopen(bad, "w");
    fputs("{\"game\":\"towerup\",\"players\":2,\"seats\":[\"a\",\"b\"],"
          "\"result\":{\"ranks\":[1,2]}}\n{\"game\":\"tow",
          f);
    fclose(f);
    snprintf(args, sizeof args, "rate %s", bad);
    CHECK_EQ_INT(run(args, NULL), 0);
    /* Games of 2 and of 3 players are not pooled unless asked; --players N picks one. */
    const char *mixed = "test_rating_cli_mixed.jsonl";
    remove(mixed);
    write_games(mixed, 0, 300);
    f = fopen(mixed, "a");
    for (int k = 0; k < 2; k++) /* a game pair: "zulu" (listed second) wins both seats */
        fprintf(f,
                "{\"game\":\"towerup\",\"players\":2,\"seats\":[\"%s\",\"%s\"],"
                "\"result\":{\"ranks\":[%d,%d]},\"tournament\":{\"index\":%d,\"config\":"
                "\"00000000000000bb\",\"bots\":[%d,%d]}}\n",
                k ? "yankee" : "zulu", k ? "zulu" : "yankee", k ? 2 : 1, k ? 1 : 2, k, k ? 0 : 1,
                k ? 1 : 0);
    fclose(f);
    snprintf(args, sizeof args, "rate %s", mixed);
    CHECK_MSG(run(args, NULL) != 0, "2- and 3-player games pooled without asking");
    snprintf(args, sizeof args, "rate --pool-players --players 2 %s", mixed);
    CHECK(run(args, NULL) != 0);
    snprintf(args, sizeof args, "rate --pool-players --json %s", mixed);
    CHECK_EQ_INT(run(args, &out), 0);
    json_t *j = json_loads(out, 0, NULL);
    CHECK(json_integer_value(json_object_get(j, "games")) == 302);
    json_decref(j);
    free(out);
    snprintf(args, sizeof args, "rate --players 3 %s", mixed);
    CHECK_EQ_INT(run(args, &out), 0);
    CHECK_MSG(strstr(out, "300 games of towerup (3 players: 300), 6 bots") == NULL &&
                  strstr(out, "300 games of towerup (3 players: 300), 4 bots; left out: 2 games "
                              "of 2 players\n"),
              "%s", out);
    free(out);
    /* The 2-player pair: labels by --bot place (yankee A), no interval for a gap that no
       game bounds, the one-sided bound, and the pentanomial pair. */
    snprintf(args, sizeof args, "rate --players 2 --json %s", mixed);
    CHECK_EQ_INT(run(args, &out), 0);
    j = json_loads(out, 0, NULL);
    json_t *top = json_array_get(json_object_get(j, "bots"), 0);
    CHECK(!strcmp(json_string_value(json_object_get(top, "spec")), "zulu"));
    CHECK(!strcmp(json_string_value(json_object_get(top, "label")), "B"));
    CHECK(json_is_null(json_object_get(top, "elo_ci95")));
    json_t *gap = json_array_get(json_object_get(j, "separations"), 0);
    CHECK(json_integer_value(json_object_get(gap, "comparisons")) == 2 &&
          fabs(json_number_value(json_object_get(gap, "score_bound")) - sqrt(0.05)) < 1e-9);
    json_t *pair = json_array_get(json_object_get(j, "game_pairs"), 0);
    CHECK(!strcmp(json_string_value(json_object_get(pair, "a")), "yankee") &&
          json_integer_value(json_object_get(pair, "pairs")) == 1 &&
          json_integer_value(json_array_get(json_object_get(pair, "counts"), 0)) == 1);
    json_decref(j);
    free(out);
    remove(mixed);
    CHECK(run("rate no-such-file.jsonl", NULL) != 0);
    CHECK(run("rate", NULL) != 0);
    snprintf(args, sizeof args, "rate --frobnicate %s", one);
    CHECK(run(args, NULL) != 0);
    snprintf(args, sizeof args, "rate --anchor nobody %s", one);
    CHECK(run(args, NULL) != 0);
    remove(one);
    remove(a);
    remove(b);
    remove(bad);
    return test_finish("test_rating_cli");
}
