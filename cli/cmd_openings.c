/* skyline openings: a balanced suite of start positions for tournament --openings. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "search/mcts.h"

static void openings_usage(void)
{
    printf("usage: skyline openings --out FILE [options]\n"
           "Makes a suite of start positions for skyline tournament --openings: from the deal\n"
           "of seed S, S+1, ... plays --plies moves with --bot in every seat, then keeps the\n"
           "position if --eval's search values it near equal for the player to move (its best\n"
           "move's mean result within --band of a seat's mean game result, 0.5), until --count\n"
           "are kept. Writes one line per opening, seed=S MOVE ... (arena/TOURNAMENT.md).\n"
           "%s"
           "  --out FILE              the suite (a new file: an existing one is refused)\n"
           "  --count N               openings to keep (default 20)\n"
           "  --plies K               moves from the start (default 4)\n"
           "  --bot SPEC              the bot that plays them (default random)\n"
           "  --eval SPEC             the search that values the position (default\n"
           "                          mcts:iters=2000)\n"
           "  --band X                keep values within 0.5 +- X (default 0.1)\n"
           "  --tries M               deals tried at most (default 50 per opening)\n",
           cli_game_help);
}

typedef struct open_args {
    cli_game_t g;
    const char *out, *bot, *eval;
    long count, plies, tries;
    double band;
} open_args_t;

/* A seat's mean game result over the ranks 1..N: the value of an equal position. */
static double open_fair(int players)
{
    int ranks[GAME_MAX_PLAYERS];
    double res[GAME_MAX_PLAYERS], sum = 0;
    for (int s = 0; s < players; s++)
        ranks[s] = s + 1;
    game_result_from_ranks(players, ranks, res);
    for (int s = 0; s < players; s++)
        sum += res[s];
    return sum / players;
}

/*
 * Plays the opening of seed's deal and values it: the line "seed=S MOVE ..." into line,
 * and its value for the mover into *value; false if the game ended or left no choice.
 */
static bool open_try(const open_args_t *a, bot_t *const *bots, bot_t *ev, uint64_t seed, char *line,
                     size_t len, double *value)
{
    const game_api_t *api = a->g.api;
    game_options_t opt = a->g.opt;
    opt.seed = seed;
    char err[GAME_ERR_MAX], text[GAME_MOVE_TEXT_MAX];
    void *initial = malloc(api->state_size), *state = malloc(api->state_size);
    move_t moves[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    if (!initial || !state)
        cli_die("out of memory");
    if (api->new_game(initial, &opt, err, sizeof err))
        cli_die("%s", err);
    int players = api->player_count(initial);
    memcpy(state, initial, api->state_size);
    for (int s = 0; s < players; s++) {
        bot_reset(bots[s], rng_mix64(seed * 0x9e3779b97f4a7c15ULL + (uint64_t)s + 1));
        bot_begin(bots[s], initial, &opt, s);
    }
    size_t n = (size_t)snprintf(line, len, "seed=%llu", (unsigned long long)seed);
    bool ok = true;
    move_t played[1000];
    for (long k = 0; ok && k < a->plies; k++) {
        ok = !api->is_terminal(state);
        if (!ok)
            break;
        int p = api->to_move(state);
        move_t m = bot_choose(bots[p], state);
        if (bots[p]->fault[0])
            cli_die("--bot %s: %s (%s)", a->bot, bots[p]->fault, bots[p]->fault_detail);
        for (int s = 0; s < players; s++)
            bot_observe(bots[s], state, m);
        api->move_to_text(state, m, text);
        n += (size_t)snprintf(line + n, n < len ? len - n : 0, " %s", text);
        played[k] = m;
        api->make(state, m, undo);
    }
    ok = ok && n < len && !api->is_terminal(state) && api->gen_moves(state, moves) > 1;
    if (ok) { /* the mover's search over the position, told the moves from the start */
        int p = api->to_move(state);
        bot_reset(ev, seed);
        bot_begin(ev, initial, &opt, p);
        void *replay = initial; /* no longer needed as the start */
        for (long k = 0; k < a->plies; k++) {
            bot_observe(ev, replay, played[k]);
            api->make(replay, played[k], undo);
        }
        bot_choose(ev, state);
        const mcts_stats_t *st = bot_last_search(ev);
        if (ev->fault[0] || !st || st->root_move_count < 1)
            cli_die("--eval %s: not a search that reports its values (give an mcts spec)", a->eval);
        *value = st->root_moves[0].mean;
    }
    free(initial);
    free(state);
    return ok;
}

static void open_parse(open_args_t *a, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (cli_game_option(&a->g, argc, argv, &i))
            continue;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            openings_usage();
            exit(0);
        } else if (!strcmp(o, "--out")) {
            a->out = cli_value(argc, argv, &i);
        } else if (!strcmp(o, "--count")) {
            a->count = cli_int(o, cli_value(argc, argv, &i), 1, 1000000);
        } else if (!strcmp(o, "--plies")) {
            a->plies = cli_int(o, cli_value(argc, argv, &i), 0, 1000);
        } else if (!strcmp(o, "--bot")) {
            a->bot = cli_value(argc, argv, &i);
        } else if (!strcmp(o, "--eval")) {
            a->eval = cli_value(argc, argv, &i);
        } else if (!strcmp(o, "--tries")) {
            a->tries = cli_int(o, cli_value(argc, argv, &i), 1, 1000000000L);
        } else if (!strcmp(o, "--band")) {
            const char *v = cli_value(argc, argv, &i);
            char *end;
            errno = 0;
            a->band = strtod(v, &end);
            if (errno || end == v || *end || !(a->band >= 0 && a->band <= 1))
                cli_die("--band needs a number from 0 to 1, not '%s'", v);
        } else {
            cli_die("openings: unknown option '%s' (see skyline openings --help)", o);
        }
    }
    cli_game_finish(&a->g);
    if (!a->out)
        cli_die("openings needs --out FILE (a new file)");
    if (!a->tries)
        a->tries = a->count * 50;
}

int cmd_openings(int argc, char **argv)
{
    open_args_t a = {
        .bot = "random", .eval = "mcts:iters=2000", .count = 20, .plies = 4, .band = 0.1};
    cli_game_init(&a.g);
    open_parse(&a, argc, argv);
    char err[GAME_ERR_MAX];
    int players = a.g.opt.players;
    bot_t *bots[GAME_MAX_PLAYERS], *ev = bot_new(a.g.api, a.eval, 0, err, sizeof err);
    if (!ev)
        cli_die("--eval: %s", err);
    for (int s = 0; s < players; s++)
        if (!(bots[s] = bot_new(a.g.api, a.bot, (uint64_t)s, err, sizeof err)))
            cli_die("--bot: %s", err);
    if (a.g.opt.seed > (uint64_t)(LONG_MAX - a.tries))
        cli_die("--seed %llu: the seeds of %ld tries would pass %ld, the largest seed",
                (unsigned long long)a.g.opt.seed, a.tries, LONG_MAX);
    FILE *f = fopen(a.out, "wx"); /* never over a file: it may hold anything */
    if (!f)
        cli_die("--out %s: %s", a.out,
                errno == EEXIST ? "the file exists (give a new file)" : strerror(errno));
    fprintf(f, "# skyline openings: game=%s players=%d plies=%ld bot=%s eval=%s band=%g\n",
            a.g.api->name, players, a.plies, a.bot, a.eval, a.band);
    double fair = open_fair(players);
    long kept = 0, tried = 0;
    char line[16384];
    for (; kept < a.count && tried < a.tries; tried++) {
        double v;
        if (open_try(&a, bots, ev, a.g.opt.seed + (uint64_t)tried, line, sizeof line, &v) &&
            fabs(v - fair) <= a.band) {
            fprintf(f, "%s\n", line);
            kept++;
        }
    }
    bool bad = ferror(f) | (fclose(f) != 0);
    for (int s = 0; s < players; s++)
        bot_free(bots[s]);
    bot_free(ev);
    if (bad)
        cli_die("cannot write to '%s': %s", a.out, strerror(errno));
    if (kept < a.count) {
        remove(a.out); /* ours: made above */
        cli_die("only %ld of %ld openings within %g +- %g after %ld deals: widen --band, or "
                "give more --tries",
                kept, a.count, fair, a.band, tried);
    }
    printf("%ld openings (of %ld deals tried) -> %s\n", kept, tried, a.out);
    return 0;
}
