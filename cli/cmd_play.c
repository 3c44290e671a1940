/* skyline play: games between bots, with records and a summary per seat. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/match.h"
#include "arena/openings.h"
#include "arena/rating.h"
#include "bots/human.h"
#include "cli/cli.h"
#include "core/lines.h"

static const char play_help[] =
    "usage: skyline play [options]\n"
    "Plays games between bots; game i of K (from 0) uses seed S+i. Prints a summary per\n"
    "player (P1 plays seat 0, the first --bot) with the search totals of mcts seats\n"
    "(iterations and ms a search, tree reuse).\n"
    "%s"
    "  --bot SPEC              one per seat in seat order; a single --bot fills every seat\n"
    "                          (default random); bots:";

static void play_usage(void)
{
    printf(play_help, cli_game_help);
    for (int i = 0; bot_kinds[i]; i++)
        printf(" %s", bot_kinds[i]->name);
    printf("\n  --games K               games to play (default 1)\n"
           "  --record FILE           append one JSON record per game (FORMATS.md §4)\n"
           "  --record-legal          records hold legal_counts\n"
           "  --record-search         records hold each search's figures (docs/PICTURES.md)\n"
           "  --openings FILE         start positions: game i plays opening i mod N of FILE\n"
           "                          (seed=S MOVE ... lines, as tournament's; bots seeded S+i)\n"
           "  --quiet                 no line per game, only the summary\n"
           "  --hint SPEC             the bot a human seat's hint asks (default heuristic)\n");
    fputs(CLI_CLOCK_HELP, stdout);
    printf("A human seat (--bot human) plays from the terminal: type help at its prompt.\n");
    for (int i = 0; bot_kinds[i]; i++)
        if (bot_kinds[i]->print_keys) {
            printf("%s keys:\n", bot_kinds[i]->name);
            bot_kinds[i]->print_keys(stdout);
        }
}

/* What the seats' bots did over all games (the searches of mcts seats). */
static void print_search_totals(bot_t *const *bots, int players)
{
    bot_stats_t stats[GAME_MAX_PLAYERS] = {0};
    char names[GAME_MAX_PLAYERS][12];
    const char *labels[GAME_MAX_PLAYERS];
    for (int s = 0; s < players; s++) {
        bot_stats_add(&stats[s], bots[s]);
        snprintf(names[s], sizeof names[s], "P%d", s + 1);
        labels[s] = names[s];
    }
    bot_stats_print(stdout, "player", labels, stats, players);
}

/* Under a time control: the time each seat used and its losses on time. */
static void print_clock(const match_clock_t *c, const double *used, const long *on_time,
                        int players)
{
    printf("time control: clock %ld+%ld ms, move limit %ld ms (0: none)\n", c->base_ms, c->inc_ms,
           c->move_ms);
    printf("player  time used (s)  losses on time\n");
    for (int s = 0; s < players; s++)
        printf("P%-6d %13.3f  %14ld\n", s + 1, used[s] / 1000.0, on_time[s]);
}

/* The options of one play run. */
typedef struct {
    cli_game_t g;
    const char *specs[GAME_MAX_PLAYERS];
    int spec_count;
    long games;
    const char *record_path;
    bool record_legal, record_search, quiet;
    const char *hint, *openings_path;
    match_setup_t setup;
} play_opts_t;

/* Reads the options into *o; 1 when --help was printed. */
static int play_parse(play_opts_t *o, int argc, char **argv)
{
    cli_game_init(&o->g);
    o->games = 1;
    match_clock_t *clock = &o->setup.clock;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_game_option(&o->g, argc, argv, &i) || cli_clock_option(clock, argc, argv, &i))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            play_usage();
            return 1;
        } else if (!strcmp(a, "--bot")) {
            if (o->spec_count == GAME_MAX_PLAYERS)
                cli_die("too many --bot options (at most one per seat)");
            o->specs[o->spec_count++] = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--games")) {
            o->games = cli_int(a, cli_value(argc, argv, &i), 1, 1000000000L);
        } else if (!strcmp(a, "--record")) {
            o->record_path = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--record-legal")) {
            o->record_legal = true;
        } else if (!strcmp(a, "--record-search")) {
            o->record_search = true;
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (!strcmp(a, "--openings")) {
            o->openings_path = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--hint")) {
            o->hint = cli_value(argc, argv, &i);
        } else {
            cli_die("play: unknown option '%s' (see skyline play --help)", a);
        }
    }
    return 0;
}

/* Checks the options together and completes the game's; fills in the default bot. */
static void play_validate(play_opts_t *o)
{
    if (o->record_legal && !o->record_path)
        cli_die("--record-legal needs --record FILE");
    if (o->record_search && !o->record_path)
        cli_die("--record-search needs --record FILE");
    cli_game_finish(&o->g);
    if (o->g.opt.seed > (uint64_t)(LONG_MAX - (o->games - 1)))
        cli_die("--seed %llu: the seeds of %ld games would pass %ld, the largest seed",
                (unsigned long long)o->g.opt.seed, o->games, LONG_MAX);
    int players = o->g.opt.players;
    if (o->spec_count == 0)
        o->specs[o->spec_count++] = "random";
    if (o->spec_count != 1 && o->spec_count != players)
        cli_die("%d --bot options for %d players: give one per seat, or one for all", o->spec_count,
                players);
}

/* The seats' bots (and the hint bot checked); human undo only where it is safe. */
static void play_make_bots(const play_opts_t *o, bot_t **bots)
{
    char err[GAME_ERR_MAX];
    int players = o->g.opt.players;
    /* Undo rewrites the game: only against bots (one human seat), and never in a record. */
    int humans = 0;
    for (int s = 0; s < players; s++)
        humans += !strcmp(o->specs[o->spec_count == 1 ? 0 : s], "human");
    human_enable(o->hint, humans == 1 && !o->record_path);
    if (o->hint) {
        bot_t *probe = bot_new(o->g.api, o->hint, 0, err, sizeof err);
        if (!probe)
            cli_die("--hint: %s", err);
        bot_free(probe);
    }
    for (int s = 0; s < players; s++) {
        bots[s] =
            bot_new(o->g.api, o->specs[o->spec_count == 1 ? 0 : s], (uint64_t)s, err, sizeof err);
        if (!bots[s] || bot_check_players(bots[s], players, err, sizeof err))
            cli_die("%s", err);
    }
}

/* What the games gave each seat. */
typedef struct {
    double sum[GAME_MAX_PLAYERS], sum2[GAME_MAX_PLAYERS], used[GAME_MAX_PLAYERS];
    long firsts[GAME_MAX_PLAYERS], on_time[GAME_MAX_PLAYERS];
} play_totals_t;

/* The line of one game (unless quiet) and its record (with --record). */
static void play_output_game(const play_opts_t *o, lines_file_t *rec, const match_result_t *r,
                             long k, uint64_t seed, long opening)
{
    if (!o->quiet) {
        char *res = json_dumps(json_object_get(r->record, "result"), JSON_COMPACT);
        printf("game %ld seed %llu", k, (unsigned long long)seed);
        if (opening >= 0)
            printf(" opening %ld", opening);
        printf(": %s", res);
        if (r->forfeit_seat >= 0)
            printf(" (P%d forfeits: %s)", r->forfeit_seat + 1, r->forfeit_reason);
        printf("\n");
        free(res);
        fflush(stdout);
    }
    if (o->record_path) {
        char *text = json_dumps(r->record, JSON_COMPACT);
        size_t len = text ? strlen(text) : 0;
        char *line = text ? realloc(text, len + 2) : NULL;
        if (!line)
            cli_die("out of memory");
        memcpy(line + len, "\n", 2);
        if (lines_file_write(rec, line, len + 1))
            cli_die("cannot write to record file '%s': %s", o->record_path, strerror(errno));
        free(line);
    }
}

/* Plays the games, game k with seed S+k (or opening k mod N), adding up into *t. */
static void play_games(play_opts_t *o, const openings_t *openings, bot_t **bots, lines_file_t *rec,
                       play_totals_t *t)
{
    char err[GAME_ERR_MAX];
    int players = o->g.opt.players;
    match_setup_t *setup = &o->setup;
    uint64_t seed0 = o->g.opt.seed;
    for (long k = 0; k < o->games; k++) {
        game_options_t opt = o->g.opt;
        opt.seed = seed0 + (uint64_t)k;
        long opening = -1;
        if (openings->count) { /* its deal and moves; the bots seeded by the game's seed */
            opening = k % openings->count;
            setup->bot_seed_given = true;
            setup->bot_seed = opt.seed;
            opt.seed = openings->seeds[opening];
            setup->opening = openings->moves[opening];
            setup->opening_plies = openings->plies[opening];
        }
        match_result_t r;
        if (match_play_setup(o->g.api, &opt, bots, o->record_legal, o->record_search, setup, &r,
                             err, sizeof err))
            cli_die("%s", err);
        if (r.forfeit_seat >= 0 && !strcmp(r.forfeit_reason, "timeout") &&
            match_clock_on(&setup->clock))
            t->on_time[r.forfeit_seat]++;
        for (int s = 0; s < players; s++) {
            t->used[s] += r.used_ms[s];
            t->sum[s] += r.result[s];
            t->sum2[s] += r.result[s] * r.result[s];
            t->firsts[s] += r.ranks[s] == 1;
        }
        play_output_game(o, rec, &r, k, opt.seed, opening);
        json_decref(r.record);
    }
}

/* The summary: each seat's mean result, first places and bot, then clock and searches. */
static void play_report(const play_opts_t *o, const openings_t *openings, bot_t *const *bots,
                        const play_totals_t *t)
{
    long games = o->games;
    int players = o->g.opt.players;
    printf("%ld game%s of %s, %d players\n", games, games == 1 ? "" : "s", o->g.api->name, players);
    if (openings->count)
        printf("openings: %ld, game i plays opening i mod %ld\n", openings->count, openings->count);
    /* The spec comes last, whole: a long one must not be cut or push columns. */
    printf("player  mean result (95%% CI)  first places  bot\n");
    bool no_ci = false;
    for (int s = 0; s < players; s++) {
        double mean = t->sum[s] / (double)games,
               half = rating_mean_ci95(games, t->sum[s], t->sum2[s]);
        char result[40];
        if (isfinite(half))
            snprintf(result, sizeof result, "%.3f +- %.3f", mean, half);
        else
            snprintf(result, sizeof result, "%.3f", mean);
        no_ci = no_ci || !isfinite(half);
        printf("P%-6d %-20s  %12ld  %s\n", s + 1, result, t->firsts[s], bots[s]->spec);
    }
    if (no_ci)
        printf("(a result without +- has no interval: %s)\n",
               games == 1 ? "one game" : "every game gave that player the same result");
    if (match_clock_on(&o->setup.clock))
        print_clock(&o->setup.clock, t->used, t->on_time, players);
    print_search_totals(bots, players);
}

int cmd_play(int argc, char **argv)
{
    play_opts_t o = {0};
    if (play_parse(&o, argc, argv))
        return 0;
    play_validate(&o);
    char err[GAME_ERR_MAX];
    /* The whole suite is read and checked before any bot is made or file touched. */
    openings_t openings = {0};
    if (o.openings_path &&
        openings_load(o.openings_path, o.g.api, &o.g.opt, &openings, err, sizeof err))
        cli_die("--openings: %s", err);
    bot_t *bots[GAME_MAX_PLAYERS];
    play_make_bots(&o, bots);
    /* Locked while play runs; records go after whole lines only, into a record file. */
    lines_file_t rec = {.fd = -1};
    if (o.record_path && (lines_file_open(&rec, o.record_path, err, sizeof err) ||
                          lines_file_check_records(&rec, err, sizeof err)))
        cli_die("%s", err);
    play_totals_t t = {0};
    play_games(&o, &openings, bots, &rec, &t);
    if (lines_file_close(&rec))
        cli_die("cannot write to record file '%s': %s", o.record_path, strerror(errno));
    play_report(&o, &openings, bots, &t);
    for (int s = 0; s < o.g.opt.players; s++)
        bot_free(bots[s]);
    if (openings.count)
        openings_free(&openings);
    return 0;
}
