/*
 * skyline analyse: a bot's choice in a position given in notation (docs/NOTATION.md) and,
 * for mcts, its candidate moves with their visits and mean results (and with a net, each
 * one's prior and the net's value of the position).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/mcts_bot.h"
#include "cli/cli.h"

static const char analyse_help[] =
    "usage: skyline analyse --position TEXT --bot SPEC [--as P] [--seed S] [--top K]\n"
    "                       [--game G] [--board FILE] [--option KEY=VALUE]\n"
    "Prints the move the bot chooses in a position given in notation (docs/NOTATION.md)\n"
    "and, for a searching bot (mcts, pimc), its candidate moves with visits and mean results\n"
    "(with mcts:net=FILE also the net's prior of each and its value of the position).\n"
    "  --position TEXT   the position, as its VIEW player sees it (required)\n"
    "  --bot SPEC        the bot to ask (FORMATS.md §6), e.g. mcts:iters=5000 (required)\n"
    "  --as P            the player whose move it is, checked (default: the player to move);\n"
    "                    the text must show all that P sees\n"
    "  --seed S          seed of the bot and of the hidden parts' draw (default 1)\n"
    "  --top K           candidate moves listed, most visited first (default 10, 0: all)\n"
    "  --game G          the game the position must be of (default: its first word)\n"
    "  --board FILE      Tower Up: the board file of a position on a board not built in\n"
    "  --option KEY=VALUE  an option of the position's game (-o; --board FILE is board=FILE)\n";

/* What the command line asked for. */
typedef struct analyse_args {
    const char *position; /* --position */
    const char *bot;      /* --bot */
    const char *game;     /* --game, or NULL */
    game_options_t opt;   /* --board and --option: the game's options */
    long as;              /* --as, -1: the player to move */
    uint64_t seed;        /* --seed */
    long top;             /* --top */
} analyse_args_t;

static void analyse_parse(analyse_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    game_options_default(&a->opt);
    a->as = -1;
    a->seed = 1;
    a->top = 10;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(analyse_help, stdout);
            exit(0);
        } else if (!strcmp(arg, "--position")) {
            a->position = cli_value(argc, argv, &i);
        } else if (!strcmp(arg, "--bot")) {
            if (a->bot)
                cli_die("analyse asks one bot: --bot is given twice");
            a->bot = cli_value(argc, argv, &i);
        } else if (!strcmp(arg, "--game")) {
            a->game = cli_value(argc, argv, &i);
        } else if (!strcmp(arg, "--board") || !strcmp(arg, "--option") || !strcmp(arg, "-o")) {
            /* The same as the other commands' game options, once the game is known. */
            static char board[4200];
            const char *v = cli_value(argc, argv, &i);
            if (!strcmp(arg, "--board") && snprintf(board, sizeof board, "board=%s", v) > 0)
                v = board;
            char err[GAME_ERR_MAX];
            if (game_options_add(&a->opt, v, err, sizeof err))
                cli_die("%s: %s", arg, err);
        } else if (!strcmp(arg, "--as")) {
            /* Checked against the position's player count once it is read. */
            a->as = cli_int(arg, cli_value(argc, argv, &i), 0, INT_MAX);
        } else if (!strcmp(arg, "--seed")) {
            a->seed = cli_seed(arg, cli_value(argc, argv, &i));
        } else if (!strcmp(arg, "--top")) {
            a->top = cli_int(arg, cli_value(argc, argv, &i), 0, GAME_MAX_MOVES);
        } else {
            cli_die("analyse: unknown option '%s' (see skyline analyse --help)", arg);
        }
    }
    if (!a->position)
        cli_die("analyse needs --position TEXT (see skyline analyse --help)");
    if (!a->bot)
        cli_die("analyse needs --bot SPEC (see skyline analyse --help)");
}

/* The candidate moves of the bot's last search, if it searched. */
static void print_candidates(const bot_t *bot, const game_api_t *api, const void *s, long top)
{
    const mcts_stats_t *st = bot_last_search(bot);
    if (!st)
        return;
    printf("search: %ld iterations, %ld nodes, depth %d\n", st->iterations, st->nodes,
           st->max_depth);
    int n = st->root_move_count;
    if (top > 0 && top < n)
        n = (int)top;
    /* With a net (mcts:net=): its prior of each candidate and its value of the position. */
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    double *priors = malloc(GAME_MAX_MOVES * sizeof *priors);
    double values[GAME_MAX_PLAYERS];
    if (!moves || !priors)
        cli_die("out of memory");
    int legal = api->gen_moves(s, moves);
    bool net = mcts_bot_net_eval(bot, s, moves, legal, priors, values) == 0;
    if (net) {
        int players = api->player_count(s);
        printf("net value:");
        for (int p = 0; p < players; p++)
            printf(" P%d %.4f", p + 1, values[p]);
        printf("\n");
    }
    printf("candidates (%d of %d, most visited first):\n", n, st->root_move_count);
    printf("  %-12s %9s %8s%s\n", "move", "visits", "mean", net ? "    prior" : "");
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        api->move_to_text(s, st->root_moves[i].move, text);
        printf("  %-12s %9ld %8.4f", text, st->root_moves[i].visits, st->root_moves[i].mean);
        for (int k = 0; net && k < legal; k++)
            if (moves[k] == st->root_moves[i].move)
                printf(" %8.4f", priors[k]);
        printf("\n");
    }
    free(moves);
    free(priors);
}

int cmd_analyse(int argc, char **argv)
{
    analyse_args_t a;
    analyse_parse(&a, argc, argv);
    const game_options_t opt = a.opt;
    const game_api_t *api;
    int view;
    char err[GAME_ERR_MAX];
    void *s = game_position_read(a.position, &opt, a.seed, &api, &view, err, sizeof err);
    if (!s)
        cli_die("--position: %s", err);
    if (a.game && strcmp(a.game, api->name))
        cli_die("--game %s: the position is a %s position", a.game, api->name);
    if (game_options_check(api, &opt, err, sizeof err))
        cli_die("%s", err);
    if (api->is_terminal(s))
        cli_die("--position: the game is over, there is no move to analyse");
    int mover = api->to_move(s), players = api->player_count(s);
    if (a.as >= players)
        cli_die("--as %ld: the game has %d players (0 to %d)", a.as, players, players - 1);
    if (a.as >= 0 && a.as != mover)
        cli_die("--as %ld: seat %d (P%d) is to move, and a bot chooses the mover's move", a.as,
                mover, mover + 1);
    if (!game_position_shows_all(a.position, &opt, mover)) {
        char who[32];
        snprintf(who, sizeof who, view < 0 ? "no player (view -)" : "seat %d (P%d)", view,
                 view + 1);
        cli_die("--position is seen by %s: it leaves what seat %d (P%d), to move, sees to "
                "chance (give seat %d's view)",
                who, mover, mover + 1, mover);
    }
    bot_t *bot = bot_new(api, a.bot, a.seed, err, sizeof err);
    if (!bot)
        cli_die("--bot: %s", err);
    move_t m = bot_choose(bot, s);
    if (bot_faulted(bot, err, sizeof err))
        cli_die("--bot: %s", err);
    char text[GAME_MOVE_TEXT_MAX], what[GAME_DESCRIBE_MAX] = "";
    api->move_to_text(s, m, text);
    if (api->move_describe)
        api->move_describe(s, m, what, sizeof what);
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    if (!moves)
        cli_die("out of memory");
    int legal = api->gen_moves(s, moves);
    free(moves);
    printf("%s, P%d to move, %d legal move%s; bot %s\n", api->name, mover + 1, legal,
           legal == 1 ? "" : "s", a.bot);
    printf("choice: %s%s%s\n", text, what[0] ? "  " : "", what);
    print_candidates(bot, api, s, a.top);
    bot_free(bot);
    free(s);
    return 0;
}
