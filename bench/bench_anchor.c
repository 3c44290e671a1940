/*
 * `skyline bench --anchor WORK`: one measurement of fixed work from each case's seeded start
 * position (the empty board for Connect Four), timed in this thread's processor time, one
 * line per case, for scripts that interleave Skyline with another engine on the same work
 * (scripts/anchor_openspiel.sh) or with another build of Skyline.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bots/bot.h"
#include "search/mcts.h"

/* A whole number in [1, hi] at *p, up to the next ':' or the end: 0, or -1. */
static int anchor_number(const char **p, long hi, long *out)
{
    char *end;
    if (**p < '1' || **p > '9')
        return -1;
    long v = strtol(*p, &end, 10);
    if (v < 1 || v > hi || (*end != '\0' && *end != ':'))
        return -1;
    *out = v;
    *p = end;
    return 0;
}

/* Parses "random:GAMES" or "search:ITERATIONS:SEARCHES" into w: 0, or -1 with err filled. */
int bench_anchor_parse(const char *text, bench_anchor_t *w, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    const char *p = text;
    bool ok = false;
    if (!strncmp(p, "random:", 7)) {
        p += 7;
        w->random = true;
        w->searches = 1;
        ok = !anchor_number(&p, 1000000000L, &w->count) && *p == '\0';
    } else if (!strncmp(p, "search:", 7)) {
        p += 7;
        ok = !anchor_number(&p, 100000000L, &w->count) && *p++ == ':' &&
             !anchor_number(&p, 10000, &w->searches) && *p == '\0';
    }
    if (!ok)
        snprintf(err, errlen,
                 "bench: --anchor wants random:GAMES or search:ITERATIONS:SEARCHES (whole "
                 "numbers from 1), not '%s'",
                 text);
    return ok ? 0 : -1;
}

/* The case's seeded start position into s (api->state_size bytes): 0, or -1. */
static int case_start(const bench_case_t *c, void *s, char *err, size_t errlen)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = c->spec.players;
    opt.seed = c->spec.seed;
    if (c->spec.option && game_options_add(&opt, c->spec.option, err, errlen))
        return -1;
    return c->api->new_game(s, &opt, err, errlen);
}

/* Random full games from start: one line. */
static void anchor_random(FILE *out, const bench_case_t *c, const void *start, void *s,
                          const bench_anchor_t *w, uint64_t seed)
{
    const game_api_t *api = c->api;
    pcg32_t rng;
    pcg32_seed(&rng, seed, 7);
    double t0 = bench_thread_cpu_now();
    for (long g = 0; g < w->count; g++) {
        memcpy(s, start, api->state_size);
        api->playout(s, &rng);
    }
    double dt = bench_thread_cpu_now() - t0;
    fprintf(out, "%s random %.1f games/s (%ld games, %.3f s)\n", c->spec.label,
            dt > 0 ? (double)w->count / dt : 0.0, w->count, dt);
}

/* w->searches searches of w->count iterations from start by a fresh bot each: one line. */
static int anchor_search(FILE *out, const bench_case_t *c, const void *start,
                         const bench_anchor_t *w, const char *spec, uint64_t seed, char *err,
                         size_t errlen)
{
    char full[BOT_SPEC_TEXT_MAX];
    snprintf(full, sizeof full, "%s%siters=%ld,threads=1,reuse=0", spec,
             strchr(spec, ':') ? "," : ":", w->count);
    long iterations = 0;
    long nodes = 0;
    double seconds = 0.0;
    for (long k = 0; k < w->searches; k++) {
        bot_t *b = bot_new(c->api, full, seed + (uint64_t)k, err, errlen);
        if (!b)
            return -1;
        double t0 = bench_thread_cpu_now();
        bot_choose(b, start);
        seconds += bench_thread_cpu_now() - t0;
        const mcts_stats_t *st = bot_last_search(b);
        if (!st) {
            snprintf(err, errlen, "bench: --anchor search: '%s' runs no search", spec);
            bot_free(b);
            return -1;
        }
        iterations += st->iterations;
        nodes += st->nodes;
        bot_free(b);
    }
    fprintf(out, "%s search %.1f iterations/s (%ld iterations, %ld nodes, %.3f s)\n", c->spec.label,
            seconds > 0 ? (double)iterations / seconds : 0.0, iterations, nodes, seconds);
    return 0;
}

int bench_anchor_run(FILE *out, const char *game, const bench_anchor_t *w, const char *spec,
                     uint64_t seed, char *err, size_t errlen)
{
    int count;
    const bench_case_t *cases = bench_cases(&count);
    int done = 0;
    for (int k = 0; k < count; k++) {
        const bench_case_t *c = &cases[k];
        if (game && strcmp(c->api->name, game))
            continue;
        void *start = malloc(c->api->state_size), *s = malloc(c->api->state_size);
        int rc = !start || !s ? (snprintf(err, errlen, "out of memory"), -1)
                              : case_start(c, start, err, errlen);
        if (rc == 0 && w->random)
            anchor_random(out, c, start, s, w, seed);
        else if (rc == 0)
            rc = anchor_search(out, c, start, w, spec, seed, err, errlen);
        free(start);
        free(s);
        if (rc)
            return -1;
        fflush(out);
        done++;
    }
    if (!done)
        snprintf(err, errlen, "bench: no case of game '%s'", game ? game : "");
    return done ? 0 : -1;
}
