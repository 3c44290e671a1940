#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "arena/match.h"
#include "bots/heuristic.h"
#include "core/input.h"
#include "core/lines.h"

/* Set by cli_die: the process ends in an error, cli_made's files go. */
static bool cli_failing;

_Noreturn void cli_die(const char *fmt, ...)
{
    /* Escaped as a whole, so that no user text can break the one printable line. */
    char msg[2048], shown[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "skyline: %s\n", input_escape(msg, shown, sizeof shown));
    cli_failing = true;
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

bool cli_clock_option(struct match_clock *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--tc")) {
        char err[GAME_ERR_MAX];
        if (bot_tc_parse("--tc", cli_value(argc, argv, i), &c->base_ms, &c->inc_ms, err,
                         sizeof err))
            cli_die("%s", err);
        return true;
    }
    if (!strcmp(a, "--move-time")) {
        c->move_ms = cli_int(a, cli_value(argc, argv, i), 1, 1000000000L);
        return true;
    }
    return false;
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
    "  --first-player P        the seat that starts, 0..N-1 (default: drawn from the seed\n"
    "                          in Tower Up and Uptown, seat 0 in Connect Four)\n"
    "  --option KEY=VALUE      an option of the game (also -o KEY=VALUE); the games' options,\n"
    "                          also given as --KEY VALUE:\n";

const char *cli_game_names(void)
{
    static char names[256];
    return game_names(names, sizeof names, ", ");
}

/* Appends the help lines of the game's own options (from its table) to buf[len] at *n. */
static void cli_game_help_options(const game_api_t *api, char *buf, size_t len, size_t *n)
{
    for (int k = 0; k < api->option_count && *n < len; k++) {
        const game_option_spec_t *o = &api->options[k];
        char flag[64];
        snprintf(flag, sizeof flag, "--%s %s", o->key, o->value);
        for (char *c = flag + 2; *c && *c != ' '; c++)
            if (*c == '_')
                *c = '-';
        int width = strlen(flag) <= 22 ? 24 : (int)strlen(flag) + 3;
        *n += (size_t)snprintf(buf + *n, len - *n, "  %-*s%s ", width, flag, api->name);
        for (const char *h = o->help; *h && *n < len; h++)
            *n += (size_t)(*h == '\n' ? snprintf(buf + *n, len - *n, "\n%26s", "")
                                      : snprintf(buf + *n, len - *n, "%c", *h));
        if (*n < len)
            *n += (size_t)snprintf(buf + *n, len - *n, "\n");
    }
}

const char *cli_game_help_text(void)
{
    static char help[4096];
    char games[256];
    game_names(games, sizeof games, "|");
    size_t n = (size_t)snprintf(help, sizeof help, "  --game %-16s%s the game (default %s)\n%s",
                                games, strlen(games) > 16 ? "\n                         " : "",
                                game_at(0)->name, cli_game_help_rest);
    for (int i = 0; i < game_count() && n < sizeof help; i++)
        cli_game_help_options(game_at(i), help, sizeof help, &n);
    return help;
}

/* Storage of the "key=value" texts the command line's game options are kept as. */
static char cli_option_pool[16384];
static size_t cli_option_used;

/* "key=value" in the pool, key with '_' for '-' (the command line's spelling). */
static const char *cli_option_text(const char *key, size_t key_len, const char *value)
{
    size_t need = key_len + strlen(value) + 2;
    if (need > sizeof cli_option_pool - cli_option_used)
        cli_die("game options too long");
    char *t = cli_option_pool + cli_option_used;
    cli_option_used += need;
    snprintf(t, need, "%.*s=%s", (int)key_len, key, value);
    for (size_t i = 0; i < key_len; i++)
        if (t[i] == '-')
            t[i] = '_';
    return t;
}

/* Whether flag (after its "--") spells an option key of some registered game. */
static bool cli_is_option_flag(const char *flag)
{
    for (int i = 0; i < game_count(); i++)
        for (int k = 0; k < game_at(i)->option_count; k++) {
            const char *key = game_at(i)->options[k].key, *f = flag;
            for (; *key && (*f == *key || (*f == '-' && *key == '_')); key++, f++)
                ;
            if (!*key && !*f)
                return true;
        }
    return false;
}

bool cli_game_option(cli_game_t *g, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    char err[GAME_ERR_MAX];
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
    } else if (!strcmp(a, "--option") || !strcmp(a, "-o")) {
        const char *v = cli_value(argc, argv, i), *eq = strchr(v, '=');
        char shown[INPUT_EXCERPT_MAX];
        if (!eq || eq == v)
            cli_die("%s needs KEY=VALUE, not '%s'", a, cli_quote(v, shown));
        if (game_options_add(&g->opt, cli_option_text(v, (size_t)(eq - v), eq + 1), err,
                             sizeof err))
            cli_die("%s", err);
    } else if (!strncmp(a, "--", 2) && cli_is_option_flag(a + 2)) {
        const char *v = cli_value(argc, argv, i);
        if (game_options_add(&g->opt, cli_option_text(a + 2, strlen(a + 2), v), err, sizeof err))
            cli_die("%s", err);
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
        g->opt.first_player =
            (int)cli_int("--first-player", g->first_player_text, 0, g->opt.players - 1);
    /* The game's own options, checked once the game is known. */
    char err[GAME_ERR_MAX];
    if (game_options_check(g->api, &g->opt, err, sizeof err))
        cli_die("%s", err);
}

void cli_check_params_out(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        cli_die("%s exists and is not a regular file; refusing to write a parameter file there "
                "(give another --out)",
                path);
    char err[GAME_ERR_MAX];
    FILE *f = lines_open(path, "parameter file", LINES_FILE_MAX, err, sizeof err);
    if (!f && errno == ENOENT)
        return;
    if (!f)
        cli_die("--out %s", err);
    lines_reader_t r;
    lines_init(&r, f);
    int got = lines_next(&r);
    bool own = got == 0 || (got > 0 && r.text[0] == '#' && strstr(r.text, HEUR_PARAMS_HEADER_MARK));
    lines_free(&r);
    fclose(f);
    if (!own)
        cli_die("%s exists and is not a parameter file written by skyline; refusing to "
                "overwrite it (give another --out)",
                path);
}

/* ---- The files of a run on --out FILE (tune, fit) ---------------------------------- */

#define CLI_MADE_MAX 16

static lines_file_t cli_lock = {.fd = -1}; /* FILE.lock, held while the process runs */
static char *cli_made_paths[CLI_MADE_MAX]; /* files this run made, removed on an error */
static int cli_made_count;

/* At exit: after an error, the files the run made go; then the lock file it made. */
static void cli_run_files_exit(void)
{
    for (int i = 0; i < cli_made_count; i++) {
        if (cli_failing && cli_made_paths[i])
            remove(cli_made_paths[i]);
        free(cli_made_paths[i]);
    }
    cli_made_count = 0;
    if (cli_lock.fd >= 0)
        lines_file_discard(&cli_lock);
}

/* Registers cli_run_files_exit once. */
static void cli_run_files_at_exit(void)
{
    static bool registered;
    if (!registered && atexit(cli_run_files_exit) == 0)
        registered = true;
}

void cli_lock_out(const char *out)
{
    static char path[4200];
    if (snprintf(path, sizeof path, "%s.lock", out) >= (int)sizeof path)
        cli_die("--out path too long: '%.60s...'", out);
    char err[4400];
    if (lines_file_open(&cli_lock, path, err, sizeof err) && cli_lock.busy)
        cli_die("--out %s: %s", out, err);
    if (cli_lock.fd < 0)
        cli_die("cannot write parameter file '%s' (its folder is missing or not writable)", out);
    cli_run_files_at_exit();
}

void cli_made(const char *path)
{
    if (access(path, F_OK) == 0 || errno != ENOENT)
        return; /* there before this run: never removed */
    for (int i = 0; i < cli_made_count; i++)
        if (cli_made_paths[i] && !strcmp(cli_made_paths[i], path))
            return;
    if (cli_made_count == CLI_MADE_MAX || !(cli_made_paths[cli_made_count] = strdup(path)))
        cli_die("out of memory");
    cli_made_count++;
    cli_run_files_at_exit();
}

void cli_made_keep(const char *path)
{
    for (int i = 0; i < cli_made_count; i++)
        if (cli_made_paths[i] && !strcmp(cli_made_paths[i], path)) {
            free(cli_made_paths[i]);
            cli_made_paths[i] = NULL;
        }
}
