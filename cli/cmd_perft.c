/* skyline perft: move-tree leaf counts from a seed's initial position. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

static double perft_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cmd_perft(int argc, char **argv)
{
    cli_game_t g;
    cli_game_init(&g);
    int depth = 3;
    bool divide = false, full = false, timed = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_game_option(&g, argc, argv, &i))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: skyline perft [options]\n"
                   "Counts the move sequences of each length 1..D from the initial position\n"
                   "(set-up included) that the seed makes; prints 'depth count' per line.\n%s"
                   "  --depth D               deepest length (default 3)\n"
                   "  --divide                also the count below each first move at depth D\n"
                   "  --full                  make and undo every leaf (no bulk counting)\n"
                   "  --time                  with headings: depth count seconds nodes/s\n",
                   cli_game_help);
            return 0;
        } else if (!strcmp(a, "--depth")) {
            depth = (int)cli_int(a, cli_value(argc, argv, &i), 1, 12);
        } else if (!strcmp(a, "--divide")) {
            divide = true;
        } else if (!strcmp(a, "--full")) {
            full = true;
        } else if (!strcmp(a, "--time")) {
            timed = true;
        } else {
            cli_die("perft: unknown option '%s' (see skyline perft --help)", a);
        }
    }
    cli_game_finish(&g);
    const game_api_t *api = g.api;
    void *state = malloc(api->state_size);
    char err[GAME_ERR_MAX];
    if (!state)
        cli_die("out of memory");
    if (api->new_game(state, &g.opt, err, sizeof err))
        cli_die("%s", err);
    if (timed)
        printf("%5s %15s %9s %13s\n", "depth", "count", "seconds", "nodes/s");
    for (int d = 1; d <= depth; d++) {
        double t0 = perft_now();
        uint64_t n;
        if (game_perft_checked(api, state, d, full, &n, err, sizeof err))
            cli_die("perft: depth %d: %s", d, err);
        double t = perft_now() - t0;
        if (timed)
            printf("%5d %15llu %9.3f %13.0f\n", d, (unsigned long long)n, t,
                   t > 0 ? (double)n / t : 0);
        else
            printf("%d %llu\n", d, (unsigned long long)n);
        fflush(stdout);
    }
    if (divide) {
        move_t moves[GAME_MAX_MOVES];
        _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
        int n = api->gen_moves(state, moves);
        for (int i = 0; i < n; i++) {
            char text[GAME_MOVE_TEXT_MAX];
            api->move_to_text(state, moves[i], text);
            api->make(state, moves[i], undo);
            uint64_t c = 1;
            if (depth > 1 && game_perft_checked(api, state, depth - 1, full, &c, err, sizeof err))
                cli_die("perft: below %s: %s", text, err);
            api->undo(state, moves[i], undo);
            printf("%s %llu\n", text, (unsigned long long)c);
        }
    }
    free(state);
    return 0;
}
