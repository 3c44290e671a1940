/* skyline quality: search quality per move against a reference search (arena/quality.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena/quality.h"
#include "cli/cli.h"

static void quality_usage(void)
{
    printf("usage: skyline quality --ref SPEC --bot SPEC [--bot SPEC ...] [options]\n"
           "Takes positions from games of --from in every seat (a position every E plies,\n"
           "with two or more legal moves), scores each position's moves with the reference\n"
           "search (an mcts bot with a large budget: its mean result after each move), and\n"
           "lets every --bot choose there R times with seeds shared by all bots. Prints per\n"
           "bot the share of choices equal to the reference's, the mean regret (reference\n"
           "mean of its move minus that of the chosen one), the difference from the first\n"
           "bot with a 95%% interval over positions, and iterations and time per choice.\n"
           "%s"
           "  --ref SPEC              reference search (mcts)\n"
           "  --bot SPEC              a bot under test (1 to %d; the first is the baseline)\n"
           "  --from SPEC             bot that plays the position games (default heuristic;\n"
           "                          it must replay them the same, so no time budget)\n"
           "  --games K               games positions are taken from (default 20)\n"
           "  --every E               a position every E plies (default 3)\n"
           "  --repeats R             choices per position and bot (default 4)\n"
           "  --speedup               exactly 3 bots P, S, D: S and D one searcher at T and\n"
           "                          2T, P the one measured (two threads at T, say); prints\n"
           "                          2 ** ((r_S - r_P) / (r_S - r_D)), the budget factor S\n"
           "                          needs to choose as well as P, with a bootstrap interval\n"
           "  --out FILE              write results as they come (JSON Lines); running the\n"
           "                          same command again resumes from the file\n"
           "  --quiet                 no progress lines\n",
           cli_game_help, QUALITY_MAX_BOTS);
}

int cmd_quality(int argc, char **argv)
{
    cli_game_t g;
    cli_game_init(&g);
    quality_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.from = "heuristic";
    cfg.games = 20;
    cfg.every = 3;
    cfg.repeats = 4;
    cfg.progress = 20;
    bool speedup = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_game_option(&g, argc, argv, &i))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            quality_usage();
            return 0;
        } else if (!strcmp(a, "--ref")) {
            cfg.ref = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--bot")) {
            if (cfg.bot_count == QUALITY_MAX_BOTS)
                cli_die("too many --bot options (at most %d)", QUALITY_MAX_BOTS);
            cfg.specs[cfg.bot_count++] = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--from")) {
            cfg.from = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--games")) {
            cfg.games = (int)cli_int(a, cli_value(argc, argv, &i), 1, 1000000);
        } else if (!strcmp(a, "--every")) {
            cfg.every = (int)cli_int(a, cli_value(argc, argv, &i), 1, 10000);
        } else if (!strcmp(a, "--repeats")) {
            cfg.repeats = (int)cli_int(a, cli_value(argc, argv, &i), 1, 10000);
        } else if (!strcmp(a, "--speedup")) {
            speedup = true;
        } else if (!strcmp(a, "--out")) {
            cfg.out_path = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--quiet")) {
            cfg.progress = 0;
        } else {
            cli_die("quality: unknown option '%s' (see skyline quality --help)", a);
        }
    }
    cli_game_finish(&g);
    if (!cfg.ref)
        cli_die("quality needs --ref SPEC (an mcts bot with a large budget)");
    if (cfg.bot_count < 1)
        cli_die("quality needs at least one --bot");
    if (speedup && cfg.bot_count != 3)
        cli_die("--speedup needs exactly three --bot options (P, then S at T, then D at 2T)");
    cfg.api = g.api;
    cfg.opt = g.opt;

    quality_report_t rep;
    char err[1024];
    if (quality_run(&cfg, &rep, err, sizeof err))
        cli_die("%s", err);
    printf("quality: %s, %d players, %d positions from %d games of %s, %d choices each, "
           "reference %s\n",
           cfg.api->name, cfg.opt.players, rep.positions, cfg.games, cfg.from, cfg.repeats,
           cfg.ref);
    if (rep.resumed)
        printf("(%ld positions resumed from %s)\n", rep.resumed, cfg.out_path);
    printf("  #  agree   regret  vs #1 (95%% CI)         iterations   ms  bot\n");
    for (int b = 0; b < cfg.bot_count; b++)
        printf("%3d  %.3f  %.5f  %+.5f +- %.5f  %10.0f %6.1f  %s\n", b + 1, rep.agree[b],
               rep.mean_regret[b], rep.diff[b], rep.diff_ci95[b], rep.iterations[b],
               1000.0 * rep.seconds[b], cfg.specs[b]);
    if (speedup) {
        double lo, hi;
        double s = quality_speedup(&rep, &lo, &hi);
        printf("quality speedup of #1: %.2f (95%% %.2f to ", s, lo);
        if (isinf(hi))
            printf("unbounded)\n");
        else
            printf("%.2f)\n", hi);
    }
    quality_report_free(&rep);
    return 0;
}
