#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"

_Noreturn void cli_die(const char *fmt, ...)
{
    /* Escaped as a whole, so that no user text can break the one printable line. */
    char msg[2048], shown[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "skyline: %s\n", input_escape(msg, shown, sizeof shown));
    exit(2);
}

const char *cli_quote(const char *value, char *buf)
{
    return input_escape(value, buf, INPUT_EXCERPT_MAX);
}

long cli_int(const char *opt, const char *value, long lo, long hi)
{
    char *end, shown[INPUT_EXCERPT_MAX];
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end || v < lo || v > hi)
        cli_die("%s needs an integer from %ld to %ld, not '%s'", opt, lo, hi,
                cli_quote(value, shown));
    return v;
}

uint64_t cli_seed(const char *opt, const char *value)
{
    return (uint64_t)cli_int(opt, value, 0, LONG_MAX);
}

const char *cli_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        cli_die("option %s needs a value", argv[*i]);
    *i += 1;
    return argv[*i];
}

void cli_game_init(cli_game_t *g)
{
    memset(g, 0, sizeof *g);
    g->api = game_at(0);
    game_options_default(&g->opt);
    g->opt.seed = 1;
}

static const char cli_game_help_rest[] =
    "  --players N             players (default 3, or the nearest count the game allows)\n"
    "  --seed S                seed of the (first) game (default 1)\n"
    "  --first-player P        first player 0..N-1 (default: drawn from the seed)\n"
    "  --board NAME|FILE       Tower Up board: standard, duo or a board file\n"
    "                          (default duo for 2 players, standard otherwise)\n"
    "  --start-floors N        Tower Up starting floors, 3 (rules) to 7 (variant)\n"
    "  --setup placed|random   Tower Up set-up: placed by the last player (default) or random\n"
    "  --objectives start|random|A,B,C   Tower Up objectives (default start)\n";

const char *cli_game_names(void)
{
    static char names[256];
    return game_names(names, sizeof names, ", ");
}

const char *cli_game_help_text(void)
{
    static char help[2048];
    char games[256];
    game_names(games, sizeof games, "|");
    snprintf(help, sizeof help, "  --game %-16s%s the game (default %s)\n%s", games,
             strlen(games) > 16 ? "\n                         " : "", game_at(0)->name,
             cli_game_help_rest);
    return help;
}

bool cli_game_option(cli_game_t *g, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--game")) {
        const char *v = cli_value(argc, argv, i);
        g->api = game_find(v);
        char shown[INPUT_EXCERPT_MAX];
        if (!g->api)
            cli_die("unknown game '%s' (%s)", cli_quote(v, shown), cli_game_names());
    } else if (!strcmp(a, "--players")) {
        g->players_text = cli_value(argc, argv, i);
    } else if (!strcmp(a, "--seed")) {
        g->opt.seed = cli_seed(a, cli_value(argc, argv, i));
    } else if (!strcmp(a, "--first-player")) {
        g->first_player_text = cli_value(argc, argv, i);
    } else if (!strcmp(a, "--board")) {
        g->opt.board = cli_value(argc, argv, i);
    } else if (!strcmp(a, "--start-floors")) {
        g->opt.start_floors = (int)cli_int(a, cli_value(argc, argv, i), 3, 7);
    } else if (!strcmp(a, "--setup")) {
        const char *v = cli_value(argc, argv, i);
        char shown[INPUT_EXCERPT_MAX];
        if (!strcmp(v, "random"))
            g->opt.setup_random = true;
        else if (!strcmp(v, "placed"))
            g->opt.setup_random = false;
        else
            cli_die("--setup needs placed or random, not '%s'", cli_quote(v, shown));
    } else if (!strcmp(a, "--objectives")) {
        g->opt.objectives = cli_value(argc, argv, i);
    } else {
        return false;
    }
    return true;
}

void cli_game_finish(cli_game_t *g)
{
    /* Checked once the game is known, so that the messages name this game's valid values. */
    int lo = g->api->min_players, hi = g->api->max_players;
    g->players_given = g->players_text != NULL;
    if (!g->players_text) { /* 3, or the nearest count the game allows */
        g->opt.players = 3 < lo ? lo : 3 > hi ? hi : 3;
    } else if (lo == hi) {
        char *end, shown[INPUT_EXCERPT_MAX];
        if (strtol(g->players_text, &end, 10) != lo || end == g->players_text || *end)
            cli_die("%s is played by %d players, not '%s'", g->api->name, lo,
                    cli_quote(g->players_text, shown));
        g->opt.players = lo;
    } else {
        char what[64];
        snprintf(what, sizeof what, "--players for %s", g->api->name);
        g->opt.players = (int)cli_int(what, g->players_text, lo, hi);
    }
    if (g->first_player_text)
        g->opt.first_player = (int)cli_int("--first-player", g->first_player_text, 0,
                                           g->opt.players - 1);
    if (strcmp(g->api->name, "towerup") &&
        (g->opt.board || g->opt.start_floors != 3 || g->opt.setup_random || g->opt.objectives))
        cli_die("--board, --start-floors, --setup and --objectives are Tower Up options");
}

void cli_print_search_totals(const char *label, const char *const *labels,
                             const mcts_bot_totals_t *totals, int n)
{
    bool header = false;
    for (int i = 0; i < n; i++) {
        const mcts_bot_totals_t *t = &totals[i];
        if (t->searches == 0)
            continue;
        if (!header)
            printf("%-5s searches  iterations/search  ms/search  iterations/s  reused  "
                   "reused visits/search  most nodes\n",
                   label);
        header = true;
        double n_searches = (double)t->searches;
        printf("%-5s %8ld  %17.1f  %9.2f  %12.0f  %6ld  %20.1f  %10ld\n", labels[i],
               t->searches, (double)t->iterations / n_searches,
               1000.0 * t->seconds / n_searches,
               t->seconds > 0 ? (double)t->iterations / t->seconds : 0.0, t->reused,
               t->reused ? (double)t->reused_visits / (double)t->reused : 0.0, t->max_nodes);
    }
}
