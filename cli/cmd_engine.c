/*
 * skyline engine: a built-in bot behind the Skyline Bot Protocol (docs/PROTOCOL.md), so that
 * other harnesses (and skyline's own ext: bots) can play it: standard input's lines go to
 * the protocol session of bots/sbp_engine.c, its answers to standard output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "bots/sbp_engine.h"
#include "cli/cli.h"
#include "core/lines.h"

static const char engine_help[] =
    "usage: skyline engine --bot SPEC [--seed S]\n"
    "Speaks the Skyline Bot Protocol (docs/PROTOCOL.md) on standard input and output for\n"
    "a built-in bot: plays from each position text alone (hidden parts determinized).\n"
    "Warnings (a move list that does not match the position) go to standard error.\n"
    "  --bot SPEC              the bot (default heuristic, or mcts in a game without a\n"
    "                          heuristic)\n"
    "  --seed S                seed of its random choices (game i of the session: S+i)\n";

/* Answers on standard output, flushed a line at a time (the controller waits on them). */
static void engine_say(void *ctx, const char *line)
{
    (void)ctx;
    printf("%s\n", line);
    fflush(stdout);
}

static void engine_warn(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "skyline engine: %s\n", line);
}

int cmd_engine(int argc, char **argv)
{
    const char *spec = NULL; /* NULL: sbp_engine_default_spec */
    uint64_t seed = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(engine_help, stdout);
            return 0;
        } else if (!strcmp(a, "--bot")) {
            spec = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--seed")) {
            seed = cli_seed(a, cli_value(argc, argv, &i));
        } else {
            cli_die("engine: unknown option '%s' (see skyline engine --help)", a);
        }
    }
    /* The spec is checked now, against every game, so a bad one fails before the protocol. */
    char err[GAME_ERR_MAX];
    bool made = false;
    for (int g = 0; g < game_count() && !made; g++) {
        bot_t *probe = bot_new(game_at(g), spec ? spec : sbp_engine_default_spec(game_at(g)), 0,
                               err, sizeof err);
        made = probe != NULL;
        bot_free(probe);
    }
    if (!made)
        cli_die("%s", err);
    sbp_engine_t *e = sbp_engine_new(spec, seed, engine_say, engine_warn, NULL);
    if (!e)
        cli_die("engine: out of memory");
    lines_reader_t r;
    lines_init(&r, stdin);
    int go_on = 1, got = 0;
    while (go_on > 0 && (got = lines_next(&r)) > 0)
        go_on = sbp_engine_line(e, r.text, err, sizeof err);
    /* A line no protocol message can be (a NUL byte, over the line bound, a read error)
       ends the session with the reason. */
    if (got < 0)
        lines_error(&r, "standard input", err, sizeof err);
    lines_free(&r);
    sbp_engine_free(e);
    if (go_on < 0) {
        fprintf(stderr, "skyline engine: %s\n", err);
        return 2;
    }
    if (got < 0)
        cli_die("engine: %s", err);
    return 0;
}
