/* skyline bench: the fixed speed and node-count benchmark (bench/bench.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cli/cli.h"

int cmd_bench(int argc, char **argv)
{
    bench_config_t cfg = {.quick = false, .count_only = false, .threads = 0, .verbose = false};
    cfg.nets_only = false;
    cfg.save_nets = NULL;
    cfg.net_file = NULL;
    bool json = false;
    const char *game = NULL;
    const char *anchor = NULL, *spec = "mcts:preset=plain";
    uint64_t seed = 1;
    bool anchor_only = false; /* --bot or --seed given */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf(
                "usage: skyline bench [--json] [--verbose] [--quick] [--count] [--game G] [--threads N]\n"
                "                     [--nets] [--save-nets DIR] [--net FILE]\n"
                "       skyline bench --anchor WORK [--game G] [--bot SPEC] [--seed S]\n"
                "Fixed positions of each game (Tower Up 2p duo, 3p and 4p standard, Uptown 2-5p, ...),\n"
                "one thread, fixed seeds: perft (bulk and full make/undo), random games/s,\n"
                "copy-make against make/undo, fast against reference move generation and\n"
                "MCTS iterations/s (1 thread, then N on one shared tree and N on a tree\n"
                "each), then network evaluations/s (docs/NETS.md); ends with a node-count\n"
                "signature.\n"
                "  --json        one JSON object instead of the table\n"
                "  --verbose     the wide table (every column) and the goals of bench/BENCH.md\n"
                "  --quick       smaller depths and fewer repetitions (its own signature)\n"
                "  --count       node counts and signature only, no timing\n"
                "  --game G      only the cases of game G (%s)\n"
                "  --threads N   threads of the parallel MCTS figures (default: every core)\n"
                "  --nets        the network figures alone (no signature)\n"
                "  --save-nets DIR  write the random nets of the network figures to DIR\n"
                "                (GAME-Np.net, for scripts/nn_torch_bench.py)\n"
                "  --net FILE    the network figures of this net file (docs/NETS.md) alone, on\n"
                "                a case of its game and player count\n"
                "  --anchor WORK fixed work from each case's start, timed in processor time,\n"
                "                one line a case: random:GAMES random full games, or\n"
                "                search:ITERATIONS:SEARCHES one-thread searches by --bot\n"
                "                (default mcts:preset=plain; scripts/anchor_openspiel.sh)\n",
                cli_game_names());
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--verbose")) {
            cfg.verbose = true;
        } else if (!strcmp(a, "--quick")) {
            cfg.quick = true;
        } else if (!strcmp(a, "--count")) {
            cfg.count_only = true;
        } else if (!strcmp(a, "--game")) {
            game = cli_value(argc, argv, &i);
            if (!game_find(game))
                cli_die("bench: unknown game '%s' (%s)", game, cli_game_names());
        } else if (!strcmp(a, "--nets")) {
            cfg.nets_only = true;
        } else if (!strcmp(a, "--net")) {
            cfg.net_file = cli_value(argc, argv, &i);
            cfg.nets_only = true;
        } else if (!strcmp(a, "--save-nets")) {
            cfg.save_nets = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--anchor")) {
            anchor = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--bot")) {
            spec = cli_value(argc, argv, &i);
            anchor_only = true;
        } else if (!strcmp(a, "--seed")) {
            seed = cli_seed(a, cli_value(argc, argv, &i));
            anchor_only = true;
        } else if (!strcmp(a, "--threads")) {
            cfg.threads = (int)cli_int(a, cli_value(argc, argv, &i), 1, 256);
        } else {
            cli_die("bench: unknown option '%s' (see skyline bench --help)", a);
        }
    }
    char err[GAME_ERR_MAX];
    if (anchor) {
        bench_anchor_t work;
        if (json || cfg.verbose || cfg.quick || cfg.count_only || cfg.nets_only || cfg.save_nets ||
            cfg.threads)
            cli_die("bench: --anchor takes only --game, --bot and --seed");
        if (bench_anchor_parse(anchor, &work, err, sizeof err) ||
            bench_anchor_run(stdout, game, &work, spec, seed, err, sizeof err))
            cli_die("%s", err);
        return 0;
    }
    if (anchor_only)
        cli_die("bench: --bot and --seed go with --anchor");
    bench_report_t *rep = malloc(sizeof *rep);
    if (!rep)
        cli_die("out of memory");
    if (bench_run(game, &cfg, rep, json ? NULL : stdout, err, sizeof err))
        cli_die("%s", err);
    if (json)
        bench_print_json(stdout, rep);
    else
        bench_print_footer(stdout, rep);
    free(rep);
    return 0;
}
