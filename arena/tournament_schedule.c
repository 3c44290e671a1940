/*
 * The schedule of a tournament (arena/tournament.h): line-ups per cycle, and each game's
 * seed and seating, from the tournament seed, the game index and the bot list only; the
 * configuration hash, the default worker count, and freeing a report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena/config_options.h"
#include "arena/tournament.h"
#include "core/rng.h"

/* Most ints the line-up table may hold. */
#define TOURNAMENT_MAX_LINEUP_INTS 20000000L

static long tour_binomial(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    long c = 1;
    for (int i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c;
}

int tournament_schedule_init(tournament_schedule_t *s, int bot_count, int players,
                             tournament_format_t format, uint64_t seed, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->bot_count = bot_count;
    s->players = players;
    s->format = format;
    s->seed = seed;
    /* Fewer bots than seats: cyclic line-ups, seat j of line-up c holds bot (c + j) mod B. */
    bool cyclic = bot_count < players;
    bool gauntlet = format == TOURNAMENT_GAUNTLET && !cyclic;
    int first = gauntlet ? 1 : 0, pick = gauntlet ? players - 1 : players;
    long count = cyclic ? bot_count : tour_binomial(bot_count - first, pick);
    if (count < 1 || count * players > TOURNAMENT_MAX_LINEUP_INTS) {
        snprintf(err, errlen, "too many line-ups (%ld): use fewer bots", count);
        return -1;
    }
    s->lineup_count = count;
    s->lineups = malloc(sizeof *s->lineups * (size_t)count * (size_t)players);
    if (!s->lineups) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (cyclic) {
        for (long c = 0; c < count; c++)
            for (int j = 0; j < players; j++)
                s->lineups[c * players + j] = (int)((c + j) % bot_count);
        return 0;
    }
    /* Combinations of pick bots out of first..B-1 in lexicographic order. */
    int comb[GAME_MAX_PLAYERS];
    for (int j = 0; j < pick; j++)
        comb[j] = first + j;
    for (long c = 0; c < count; c++) {
        int *l = &s->lineups[c * players];
        int k = 0;
        if (gauntlet)
            l[k++] = 0;
        for (int j = 0; j < pick; j++)
            l[k++] = comb[j];
        int j = pick - 1;
        while (j >= 0 && comb[j] == bot_count - pick + j)
            j--;
        if (j < 0)
            break;
        comb[j]++;
        for (int m = j + 1; m < pick; m++)
            comb[m] = comb[m - 1] + 1;
    }
    return 0;
}

void tournament_schedule_free(tournament_schedule_t *s)
{
    free(s->lineups);
    s->lineups = NULL;
}

static uint64_t tour_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void tournament_schedule_game(const tournament_schedule_t *s, long index, uint64_t *game_seed,
                              int *seat_bots)
{
    int np = s->players;
    uint64_t block = (uint64_t)(index / np);
    int rotation = (int)(index % np);
    uint64_t base = rng_mix64(s->seed ^ 0x746f75726e657931ULL);
    /* 63 bits: a record holds its seed as a non-negative JSON integer (FORMATS.md §4). */
    *game_seed = rng_mix64(base ^ block) >> 1;
    /* Each cycle visits every line-up once, in an affine order a*pos+b mod M from the seed. */
    uint64_t m = (uint64_t)s->lineup_count, cycle = block / m, pos = block % m;
    pcg32_t rng;
    pcg32_seed(&rng, rng_mix64(base + 1), cycle);
    uint64_t a = 1, off = 0;
    if (m > 1) {
        do
            a = 1 + pcg32_bounded(&rng, (uint32_t)(m - 1));
        while (tour_gcd(a, m) != 1);
        off = pcg32_bounded(&rng, (uint32_t)m);
    }
    const int *l = &s->lineups[((a * pos + off) % m) * (uint64_t)np];
    /* The line-up's cyclic order around the table is drawn per block, then rotated. */
    int order[GAME_MAX_PLAYERS];
    memcpy(order, l, sizeof *order * (size_t)np);
    pcg32_seed(&rng, rng_mix64(base + 2) ^ block, 7);
    for (int i = np - 1; i > 0; i--) {
        int j = (int)pcg32_bounded(&rng, (uint32_t)i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int seat = 0; seat < np; seat++)
        seat_bots[seat] = order[(seat + rotation) % np];
}

/* ---- Configuration ----------------------------------------------------------------- */

static uint64_t tour_fnv(uint64_t h, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL;
    }
    /* A separator byte that never occurs in text, so fields cannot run into each other. */
    h ^= 0xffu;
    return h * 0x100000001b3ULL;
}

void tournament_config_hash(const tournament_config_t *cfg, char *out)
{
    char buf[128];
    uint64_t h = 0xcbf29ce484222325ULL;
    h = tour_fnv(h, "skyline-tournament-1");
    h = tour_fnv(h, cfg->api->name);
    config_options_t o;
    config_options_read(&cfg->opt, &o);
    snprintf(buf, sizeof buf, "players=%d seed=%llu first=%d floors=%d setup=%d format=%d",
             cfg->opt.players, (unsigned long long)cfg->opt.seed, cfg->opt.first_player,
             o.start_floors, o.setup_random, (int)cfg->format);
    h = tour_fnv(h, buf);
    h = tour_fnv(h, o.board ? o.board : "-");
    h = tour_fnv(h, o.objectives ? o.objectives : "-");
    for (int i = 0; i < o.extra_count; i++)
        h = tour_fnv(h, o.extra[i]);
    for (int i = 0; i < cfg->bot_count; i++)
        h = tour_fnv(h, cfg->specs[i]);
    if (match_clock_on(&cfg->clock)) { /* absent without: older hashes stay */
        snprintf(buf, sizeof buf, "tc=%ld+%ld move=%ld", cfg->clock.base_ms, cfg->clock.inc_ms,
                 cfg->clock.move_ms);
        h = tour_fnv(h, buf);
    }
    if (cfg->openings) {
        snprintf(buf, sizeof buf, "openings=%016llx", (unsigned long long)cfg->openings->hash);
        h = tour_fnv(h, buf);
    }
    snprintf(out, TOURNAMENT_HASH_LEN + 1, "%016llx", (unsigned long long)rng_mix64(h));
}

int tournament_default_workers(int max_bot_threads)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    if (max_bot_threads < 1)
        max_bot_threads = 1;
    long w = cores / max_bot_threads;
    return w < 1 ? 1 : (int)w;
}

void tournament_report_free(tournament_report_t *rep)
{
    rating_table_free(&rep->table);
    free(rep->games);
    rep->games = NULL;
}
