/*
 * skyline solve: the exact value of a position and the moves that keep it, for a game
 * with a solver (game_api_t.solve: Connect Four), and the move accuracy of bots: the share
 * of a fixed set of positions where a bot's move keeps the best value.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "core/input.h"
#include "core/rng.h"

static const char solve_help[] =
    "usage: skyline solve --position TEXT [--json]\n"
    "       skyline solve --accuracy N --bot SPEC [--bot SPEC...] [--game G] [--seed S]\n"
    "                     [--stones MIN-MAX] [--out FILE] [--json]\n"
    "The game-theoretic value of a position (docs/NOTATION.md) for the player to move, with\n"
    "perfect play (1 a win, 0 a draw, -1 a loss), and the moves that keep it; or the share\n"
    "of N positions where each bot's move keeps the value.\n"
    "  --position TEXT   the position to solve\n"
    "  --json            one JSON object instead of text\n"
    "  --accuracy N      draw N positions (1..100000) by uniformly random play from the\n"
    "                    start, each with a number of stones drawn from MIN-MAX, not over\n"
    "  --bot SPEC        a bot whose moves are checked (FORMATS.md §6); several allowed\n"
    "  --game G          the game of --accuracy (default: the first game with a solver)\n"
    "  --seed S          seed of the positions' draw; the bot's seed at position i is S+i\n"
    "                    (default 1)\n"
    "  --stones MIN-MAX  stones (plies) of the drawn positions (default 8-30)\n"
    "  --out FILE        write each drawn position with its value and moves (JSON Lines)\n";

/* What the command line asked for. */
typedef struct solve_args {
    const char *position;
    const char *game;
    const char *bots[16];
    int bot_count;
    long accuracy; /* 0: solve --position */
    uint64_t seed;
    long min_stones, max_stones;
    const char *out;
    bool json;
} solve_args_t;

/* The names of the games that have a solver, for messages. */
static const char *solver_games(void)
{
    static char buf[256];
    buf[0] = '\0';
    for (int i = 0; i < game_count(); i++)
        if (game_at(i)->solve) {
            size_t n = strlen(buf);
            snprintf(buf + n, sizeof buf - n, "%s%s", n ? ", " : "", game_at(i)->name);
        }
    return buf;
}

static void parse_stones(solve_args_t *a, const char *v)
{
    char q[INPUT_EXCERPT_MAX], *end;
    errno = 0;
    long lo = strtol(v, &end, 10);
    if (end == v || *end != '-' || errno)
        cli_die("--stones: '%s' is not MIN-MAX (e.g. 8-30)", cli_quote(v, q));
    const char *rest = end + 1;
    long hi = strtol(rest, &end, 10);
    if (end == rest || *end || errno)
        cli_die("--stones: '%s' is not MIN-MAX (e.g. 8-30)", cli_quote(v, q));
    if (lo < 0 || hi < lo || hi > GAME_MAX_MOVES)
        cli_die("--stones: '%s' needs 0 <= MIN <= MAX", cli_quote(v, q));
    a->min_stones = lo;
    a->max_stones = hi;
}

static void solve_parse(solve_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->seed = 1;
    a->min_stones = 8;
    a->max_stones = 30;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(solve_help, stdout);
            printf("Games with a solver: %s.\n", solver_games());
            exit(0);
        } else if (!strcmp(arg, "--position")) {
            a->position = cli_value(argc, argv, &i);
        } else if (!strcmp(arg, "--json")) {
            a->json = true;
        } else if (!strcmp(arg, "--accuracy")) {
            a->accuracy = cli_int(arg, cli_value(argc, argv, &i), 1, 100000);
        } else if (!strcmp(arg, "--bot")) {
            if (a->bot_count == (int)(sizeof a->bots / sizeof *a->bots))
                cli_die("--bot: at most %d bots", (int)(sizeof a->bots / sizeof *a->bots));
            a->bots[a->bot_count++] = cli_value(argc, argv, &i);
        } else if (!strcmp(arg, "--game")) {
            a->game = cli_value(argc, argv, &i);
        } else if (!strcmp(arg, "--seed")) {
            a->seed = cli_seed(arg, cli_value(argc, argv, &i));
        } else if (!strcmp(arg, "--stones")) {
            parse_stones(a, cli_value(argc, argv, &i));
        } else if (!strcmp(arg, "--out")) {
            a->out = cli_value(argc, argv, &i);
        } else {
            cli_die("solve: unknown option '%s' (see skyline solve --help)", arg);
        }
    }
    if (!a->position == !a->accuracy)
        cli_die("solve needs --position TEXT or --accuracy N, not both (see skyline solve "
                "--help)");
    if (a->position && (a->bot_count || a->game || a->out))
        cli_die("solve --position takes no --bot, --game or --out (those go with --accuracy)");
    if (a->accuracy && !a->bot_count)
        cli_die("solve --accuracy needs at least one --bot SPEC");
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A solver for api, or a one-line error if the game has none. */
static void *need_solver(const game_api_t *api)
{
    if (!api->solve)
        cli_die("%s has no solver (games with one: %s)", api->name, solver_games());
    void *sv = api->solver_new();
    if (!sv)
        cli_die("out of memory for the solver's table");
    return sv;
}

static const char *value_words(int v) { return v > 0 ? "a win" : v < 0 ? "a loss" : "a draw"; }

/* The moves as a JSON array of texts or a space-separated list into buf[len]. */
static void moves_text(const game_api_t *api, const void *s, const move_t *m, int n, bool json,
                       char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    if (json && k + 1 < len)
        buf[k++] = '[';
    for (int i = 0; i < n && k + GAME_MOVE_TEXT_MAX + 4 < len; i++) {
        char t[GAME_MOVE_TEXT_MAX];
        api->move_to_text(s, m[i], t);
        int w =
            snprintf(buf + k, len - k, json ? "%s\"%s\"" : "%s%s", i ? (json ? "," : " ") : "", t);
        if (w < 0 || (size_t)w >= len - k)
            break;
        k += (size_t)w;
    }
    if (json && k + 1 < len)
        buf[k++] = ']';
    buf[k < len ? k : len - 1] = '\0';
}

static int solve_position(const solve_args_t *a)
{
    const game_api_t *api;
    int view;
    char err[GAME_ERR_MAX];
    void *s = game_position_read(a->position, NULL, 1, &api, &view, err, sizeof err);
    if (!s)
        cli_die("--position: %s", err);
    void *sv = need_solver(api);
    if (api->is_terminal(s))
        cli_die("--position: the game is over, there is nothing to solve");
    if (!game_position_shows_all(a->position, NULL, api->to_move(s)))
        cli_die("--position leaves part of the position to chance: a solver needs all of it");
    int value = 0, nkeep = 0;
    uint64_t nodes = 0;
    move_t keep[GAME_MAX_MOVES];
    double t0 = now_seconds();
    if (api->solve(sv, s, &value, keep, &nkeep, &nodes))
        cli_die("--position: the game is over, there is nothing to solve");
    double secs = now_seconds() - t0;
    char moves[GAME_MAX_MOVES * 8];
    moves_text(api, s, keep, nkeep, a->json, moves, sizeof moves);
    if (a->json)
        printf("{\"value\":%d,\"moves\":%s,\"nodes\":%llu,\"seconds\":%.6f}\n", value, moves,
               (unsigned long long)nodes, secs);
    else
        printf("%s, player %d to move: %s for the player to move (value %d)\n"
               "moves that keep it: %s\n"
               "%llu nodes in %.3f s (%.0f nodes/s)\n",
               api->name, api->to_move(s), value_words(value), value, moves,
               (unsigned long long)nodes, secs, secs > 0 ? (double)nodes / secs : 0.0);
    api->solver_free(sv);
    free(s);
    return 0;
}

/* A position of api with between a->min_stones and a->max_stones random moves played from
   the start, not over, into s (state_size bytes). */
static void draw_position(const game_api_t *api, const game_options_t *opt, const solve_args_t *a,
                          pcg32_t *rng, void *s)
{
    move_t moves[GAME_MAX_MOVES];
    char err[GAME_ERR_MAX];
    void *undo = malloc(api->undo_size);
    if (!undo)
        cli_die("out of memory");
    for (int tries = 0; tries < 100000; tries++) {
        if (api->new_game(s, opt, err, sizeof err))
            cli_die("%s", err);
        long span = a->max_stones - a->min_stones + 1;
        long target = a->min_stones + (long)pcg32_bounded(rng, (uint32_t)span);
        long k = 0;
        for (; k < target && !api->is_terminal(s); k++) {
            int n = api->gen_moves(s, moves);
            api->make(s, moves[pcg32_bounded(rng, (uint32_t)n)], undo);
        }
        if (k == target && !api->is_terminal(s)) {
            free(undo);
            return;
        }
    }
    cli_die("--stones %ld-%ld: no position of that many stones came from 100000 random games",
            a->min_stones, a->max_stones);
}

/* Wilson's 95% interval of k successes in n. */
static void wilson(long k, long n, double *lo, double *hi)
{
    if (n == 0) {
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
    const double z = 1.959963984540054;
    double p = (double)k / (double)n, z2n = z * z / (double)n;
    double mid = (p + z2n / 2) / (1 + z2n);
    double half = z * sqrt(p * (1 - p) / (double)n + z2n / (4 * (double)n)) / (1 + z2n);
    *lo = mid - half < 0 ? 0 : mid - half;
    *hi = mid + half > 1 ? 1 : mid + half;
}

/* Counts for one bot: moves that kept the value, overall and where some move loses it. */
typedef struct solve_tally {
    long kept, nontrivial_kept;
} solve_tally_t;

static void print_accuracy(const solve_args_t *a, const game_api_t *api, long nontrivial,
                           const solve_tally_t *tally, uint64_t nodes, double secs)
{
    double lo, hi, lo2, hi2;
    if (a->json) {
        printf("{\"game\":\"%s\",\"positions\":%ld,\"nontrivial\":%ld,\"seed\":%llu,"
               "\"stones\":[%ld,%ld],\"nodes\":%llu,\"seconds\":%.3f,\"bots\":[",
               api->name, a->accuracy, nontrivial, (unsigned long long)a->seed, a->min_stones,
               a->max_stones, (unsigned long long)nodes, secs);
        for (int b = 0; b < a->bot_count; b++) {
            wilson(tally[b].kept, a->accuracy, &lo, &hi);
            wilson(tally[b].nontrivial_kept, nontrivial, &lo2, &hi2);
            printf("%s{\"spec\":\"%s\",\"kept\":%ld,\"share\":%.4f,\"ci95\":[%.4f,%.4f],"
                   "\"nontrivial_kept\":%ld,\"nontrivial_share\":%.4f,"
                   "\"nontrivial_ci95\":[%.4f,%.4f]}",
                   b ? "," : "", a->bots[b], tally[b].kept,
                   (double)tally[b].kept / (double)a->accuracy, lo, hi, tally[b].nontrivial_kept,
                   nontrivial ? (double)tally[b].nontrivial_kept / (double)nontrivial : 0.0, lo2,
                   hi2);
        }
        printf("]}\n");
        return;
    }
    printf("%ld %s positions (%ld-%ld stones, random play, seed %llu), solved in %.1f s "
           "(%llu nodes); %ld where some move loses the value\n",
           a->accuracy, api->name, a->min_stones, a->max_stones, (unsigned long long)a->seed, secs,
           (unsigned long long)nodes, nontrivial);
    printf("  %-40s %-24s %s\n", "bot", "kept (95% interval)", "kept where it matters");
    for (int b = 0; b < a->bot_count; b++) {
        wilson(tally[b].kept, a->accuracy, &lo, &hi);
        wilson(tally[b].nontrivial_kept, nontrivial, &lo2, &hi2);
        char c1[64], c2[64];
        snprintf(c1, sizeof c1, "%.3f [%.3f, %.3f]", (double)tally[b].kept / (double)a->accuracy,
                 lo, hi);
        snprintf(c2, sizeof c2, "%.3f [%.3f, %.3f]",
                 nontrivial ? (double)tally[b].nontrivial_kept / (double)nontrivial : 0.0, lo2,
                 hi2);
        printf("  %-40s %-24s %s\n", a->bots[b], c1, c2);
    }
}

/* The first game of the registry with a solver, or --game's. */
static const game_api_t *accuracy_game(const solve_args_t *a)
{
    if (a->game) {
        const game_api_t *api = game_find(a->game);
        if (!api)
            cli_die("--game: unknown game '%s' (games: %s)", a->game, cli_game_names());
        return api;
    }
    for (int i = 0; i < game_count(); i++)
        if (game_at(i)->solve)
            return game_at(i);
    cli_die("no game has a solver");
}

static int solve_accuracy(const solve_args_t *a)
{
    const game_api_t *api = accuracy_game(a);
    void *sv = need_solver(api);
    game_options_t opt;
    game_options_default(&opt);
    opt.players = api->min_players;
    char err[GAME_ERR_MAX];
    bot_t *bots[16];
    for (int b = 0; b < a->bot_count; b++)
        if (!(bots[b] = bot_new(api, a->bots[b], a->seed, err, sizeof err)))
            cli_die("--bot: %s", err);
    FILE *out = NULL;
    if (a->out && !(out = fopen(a->out, "w")))
        cli_die("--out %s: cannot write: %s", a->out, strerror(errno));
    void *s = malloc(api->state_size);
    if (!s)
        cli_die("out of memory");
    pcg32_t rng;
    pcg32_seed(&rng, a->seed, 0x50F7E5);
    solve_tally_t tally[16] = {{0}};
    long nontrivial = 0;
    uint64_t nodes = 0;
    double solve_secs = 0;
    for (long i = 0; i < a->accuracy; i++) {
        draw_position(api, &opt, a, &rng, s);
        move_t legal[GAME_MAX_MOVES], keep[GAME_MAX_MOVES];
        int value, nkeep, nlegal = api->gen_moves(s, legal);
        double t0 = now_seconds();
        api->solve(sv, s, &value, keep, &nkeep, &nodes);
        solve_secs += now_seconds() - t0;
        bool matters = nkeep < nlegal;
        nontrivial += matters;
        if (out) {
            char text[GAME_POSITION_MAX], moves[GAME_MAX_MOVES * 8];
            game_position_write(api, s, -1, text, sizeof text, err, sizeof err);
            moves_text(api, s, keep, nkeep, true, moves, sizeof moves);
            fprintf(out, "{\"position\":\"%s\",\"value\":%d,\"moves\":%s}\n", text, value, moves);
        }
        for (int b = 0; b < a->bot_count; b++) {
            bot_reset(bots[b], a->seed + (uint64_t)i);
            move_t m = bot_choose(bots[b], s);
            bool kept = false;
            for (int k = 0; k < nkeep; k++)
                kept |= keep[k] == m;
            tally[b].kept += kept;
            tally[b].nontrivial_kept += kept && matters;
        }
    }
    if (out && fclose(out))
        cli_die("--out %s: write failed: %s", a->out, strerror(errno));
    print_accuracy(a, api, nontrivial, tally, nodes, solve_secs);
    for (int b = 0; b < a->bot_count; b++)
        bot_free(bots[b]);
    free(s);
    api->solver_free(sv);
    return 0;
}

int cmd_solve(int argc, char **argv)
{
    solve_args_t a;
    solve_parse(&a, argc, argv);
    return a.position ? solve_position(&a) : solve_accuracy(&a);
}
