/* skyline: the command-line program (FORMATS.md §5). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/version.h"

/* A subcommand: its name, entry point and one-line summary. */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} cli_command_t;

/* skyline version (and skyline --version): "skyline X.Y.Z"; --help says so. */
static int main_version(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf(
            "usage: skyline version   (or skyline --version)\n"
            "Prints the engine's version, 'skyline X.Y.Z', as every file it writes records it.\n");
        return 0;
    }
    if (argc > 1)
        cli_die("version takes no options");
    printf("%s\n", skyline_engine());
    return 0;
}

static const cli_command_t commands[] = {
    {"play", cmd_play, "play games between bots, optionally recording them"},
    {"replay", cmd_replay, "check every game record of a file against the rules"},
    {"show", cmd_show, "a position as a text diagram, with the moves that led to it"},
    {"perft", cmd_perft, "count move sequences to a depth (move generation check)"},
    {"tournament", cmd_tournament, "fair multi-player tournament with records, SPRT and resume"},
    {"openings", cmd_openings, "a balanced suite of start positions for tournament --openings"},
    {"rate", cmd_rate, "ratings and tables from tournament record files"},
    {"bench", cmd_bench, "fixed speed and node-count benchmark with a signature"},
    {"generate", cmd_generate, "self-play of one bot in every seat: training records, resumable"},
    {"tune", cmd_tune, "SPSA tuning of a bot's heuristic weights, resumable"},
    {"fit", cmd_fit, "fit heuristic weights to the results of recorded games, resumable"},
    {"quality", cmd_quality, "search quality per move against a reference search, resumable"},
    {"analyse", cmd_analyse, "a bot's choice and candidate moves in a position given as text"},
    {"solve", cmd_solve,
     "the exact value of a position and the moves keeping it (games with a solver)"},
    {"nets", cmd_nets, "list and check the networks found by name, or net files given"},
    {"zero", cmd_zero, "the self-play loop: train a network by gated self-play (docs/ZERO.md)"},
    {"engine", cmd_engine, "a built-in bot behind the Skyline Bot Protocol (docs/PROTOCOL.md)"},
    {"serve", cmd_serve,
     "a local web app: play the bots, watch tournaments, analyse (docs/SERVE.md)"},
    {"version", main_version, "print the engine's version (also skyline --version)"},
};

static void main_usage(FILE *out)
{
    fprintf(out,
            "usage: skyline COMMAND [options]   (skyline COMMAND --help for its options)\n"
            "Skyline: research engine for board games (%s).\n",
            cli_game_names());
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        cli_die("no command given (see skyline --help)");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        main_usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version"))
        return main_version(argc - 1, argv + 1);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    cli_die("unknown command '%s' (see skyline --help)", argv[1]);
}
