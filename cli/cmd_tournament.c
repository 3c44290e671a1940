/* skyline tournament: a fair, resumable, parallel tournament between bots (arena/tournament.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena/tournament.h"
#include "bots/bot.h"
#include "bots/mcts_bot.h"
#include "cli/cli.h"
#include "viewer/viewer.h"
#ifdef SKYLINE_MPI
#include "mpi/mpi_run.h"
#endif

static void tournament_usage(void)
{
    printf("usage: skyline tournament --bot SPEC --bot SPEC [...] --games K --out FILE [options]\n"
           "Without --bot: the built-in line-up random, greedy, heuristic and\n"
           "mcts:iters=1000,prior=heuristic,cutoff=8,fpu=0.3, by default 240 games into\n"
           "tournament.jsonl (other options apply: --workers 1, --quiet, --games K ...).\n"
           "Plays a tournament between 2 to %d bots and appends one JSON record per game to\n"
           "FILE, with a \"tournament\" key {index, config}. Games come in blocks: one deal\n"
           "played once per rotation of a line-up over the seats. Running the same command\n"
           "again resumes: finished games are not replayed. Bots are labelled A, B, ... in\n"
           "--bot order; the summary gives each label's full spec, and the ratings that\n"
           "skyline rate gives on the same file.\n"
           "%s"
           "  --bot SPEC              a bot (at least two; specs may repeat)\n"
           "  --games K               games in the whole tournament (best a multiple of the\n"
           "                          player count: whole blocks)\n"
           "  --out FILE              record file: appended to, resumed from\n"
           "  --workers W             games played at once (default: cores / most bot threads)\n"
           "  --format roundrobin|gauntlet   line-ups: all combinations (default), or bot 1\n"
           "                          against combinations of the others\n"
           "  --sprt E0,E1,ALPHA,BETA SPRT between the first two bots on their pairwise outcomes\n"
           "                          inside each game (2 players: on game pairs, the seats\n"
           "                          swapped, pentanomial); stops at a verdict\n"
           "  --sprt-per-game         one SPRT outcome per game (conservative) instead of one\n"
           "                          per pair of their seats (3 to 5 players)\n"
           "  --shard I/N             play only blocks b with b mod N = I (0 <= I < N)\n"
           "  --progress-interval S   seconds between progress lines when stderr is not a\n"
           "                          terminal (default 10)\n"
           "  --quiet                 no progress display\n"
           "  --allow-cheat           play bots that see hidden information (mcts:cheat=1)\n"
           "  --record-search         records hold each search's figures (docs/PICTURES.md)\n"
           "  --report-viewers N      games of the report page with a viewer file (default 50)\n",
           TOURNAMENT_MAX_BOTS, cli_game_help);
    fputs(CLI_CLOCK_HELP, stdout);
    printf("  --openings FILE         start positions: block b plays opening b mod N of FILE\n"
           "                          (seed=S MOVE ... lines; skyline openings makes one)\n");
}

/* The report page's path beside the records: FILE.jsonl gives FILE.html. */
static void tournament_page_path(const tournament_config_t *cfg, char *path, size_t size)
{
    size_t len = strlen(cfg->out_path);
    if (len > 6 && !strcmp(cfg->out_path + len - 6, ".jsonl"))
        len -= 6;
    snprintf(path, size, "%.*s.html", (int)len, cfg->out_path);
}

/* The report page beside the records, named on the last line. */
static void tournament_write_page(const tournament_config_t *cfg, long viewers)
{
    char path[4096], err[GAME_ERR_MAX * 2];
    tournament_page_path(cfg, path, sizeof path);
    viewer_report_t r = {.title = "Skyline tournament report",
                         .files = &cfg->out_path,
                         .file_count = 1,
                         .bootstrap = RATING_BOOTSTRAP_DEFAULT,
                         .sprt = cfg->sprt ? &cfg->sprt_config : NULL,
                         .sprt_per_game = cfg->sprt_per_game,
                         .sprt_a = cfg->specs[0],
                         .sprt_b = cfg->specs[1],
                         .viewers = viewers};
    if (viewer_write_report(path, &r, err, sizeof err))
        cli_die("the report page: %s", err);
    printf("\nReport: %s (open it in a browser)\n", path);
}

static void tournament_parse_shard(const char *text, tournament_config_t *cfg)
{
    char *end;
    long i = strtol(text, &end, 10), n = 0;
    bool ok = end != text && *end == '/' && text[0] != '-';
    if (ok) {
        const char *p = end + 1;
        n = strtol(p, &end, 10);
        ok = end != p && !*end && n >= 1 && n <= 1000000 && i >= 0 && i < n && *p != '-';
    }
    if (!ok)
        cli_die("--shard needs I/N with 0 <= I < N, e.g. 0/4, not '%s'", text);
    cfg->shard_index = (int)i;
    cfg->shard_count = (int)n;
}

static void tournament_print_report(const tournament_config_t *cfg, const char *format_name,
                                    const tournament_report_t *rep)
{
    printf("tournament %s: %s, %d players, %d bots, %s, seed %llu -> %s\n", rep->hash,
           cfg->api->name, cfg->opt.players, cfg->bot_count, format_name,
           (unsigned long long)cfg->opt.seed, cfg->out_path);
    printf("%ld of %ld games done", rep->table.game_count, rep->shard_games);
    if (cfg->shard_count > 1)
        printf(" in shard %d/%d", cfg->shard_index, cfg->shard_count);
    printf(" (%ld resumed, %ld played by %ld worker%s in %.1f s", rep->resumed, rep->played,
           rep->workers, rep->workers == 1 ? "" : "s", rep->seconds);
    if (rep->played && rep->seconds > 0)
        printf(", %.2f games/s", (double)rep->played / rep->seconds);
    printf(")\n");
    if (cfg->openings)
        printf("openings: %ld, block b plays opening b mod %ld\n", cfg->openings->count,
               cfg->openings->count);
    char names[TOURNAMENT_MAX_BOTS][RATING_LABEL_MAX];
    const char *labels[TOURNAMENT_MAX_BOTS];
    for (int i = 0; i < cfg->bot_count; i++) {
        rating_label(i, names[i]);
        labels[i] = names[i];
    }
    /* The table was bootstrapped if it has games (tour_report_table). */
    rating_table_print(stdout, &rep->table, cfg->specs, labels,
                       rep->table.game_count ? RATING_BOOTSTRAP_DEFAULT : 0, false);
    rating_ptnml_print(stdout, rep->games, rep->game_count, cfg->bot_count, labels, NULL);
    if (cfg->sprt) {
        const rating_sprt_t *s = &rep->sprt;
        printf("SPRT A vs B (elo0 %g, elo1 %g, alpha %g, beta %g, %s): W %.0f D %.0f L %.0f",
               s->elo0, s->elo1, s->alpha, s->beta,
               cfg->opt.players == 2 ? "pentanomial over game pairs"
               : cfg->sprt_per_game  ? "one outcome per game"
                                     : "pairwise outcomes",
               s->wins, s->draws, s->losses);
        if (cfg->opt.players == 2)
            printf(", pairs [%.0f, %.0f, %.0f, %.0f, %.0f]", s->ptnml[0], s->ptnml[1], s->ptnml[2],
                   s->ptnml[3], s->ptnml[4]);
        printf(" from %ld games, LLR %.3f [%.3f, %.3f]: %s", rep->sprt_games, s->llr, s->lower,
               s->upper, rating_sprt_verdict_text(s->verdict));
        if (rep->sprt_stop_index >= 0)
            printf(" at game %ld", rep->sprt_stop_index);
        printf("\n");
    }
    if (match_clock_on(&cfg->clock))
        printf("time control: clock %ld+%ld ms, move limit %ld ms (0: none)\n", cfg->clock.base_ms,
               cfg->clock.inc_ms, cfg->clock.move_ms);
    bot_stats_print(stdout, "bot", labels, rep->stats, cfg->bot_count);
}

/* The options of a tournament run that are not in its config. */
typedef struct {
    bool quiet, builtin, allow_cheat;
    long viewers;
    const char *format_name, *openings_path;
} tournament_opts_t;

/* Reads the options into *g, *cfg and *o; 1 when --help was printed. */
static int tournament_parse(cli_game_t *g, tournament_config_t *cfg, tournament_opts_t *o, int argc,
                            char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_game_option(g, argc, argv, &i) || cli_clock_option(&cfg->clock, argc, argv, &i))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            tournament_usage();
            return 1;
        } else if (!strcmp(a, "--bot")) {
            if (cfg->bot_count == TOURNAMENT_MAX_BOTS)
                cli_die("too many --bot options (at most %d)", TOURNAMENT_MAX_BOTS);
            cfg->specs[cfg->bot_count++] = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--games")) {
            cfg->games = cli_int(a, cli_value(argc, argv, &i), 1, TOURNAMENT_MAX_GAMES);
        } else if (!strcmp(a, "--out")) {
            cfg->out_path = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--workers")) {
            cfg->workers = (int)cli_int(a, cli_value(argc, argv, &i), 1, 256);
        } else if (!strcmp(a, "--format")) {
            o->format_name = cli_value(argc, argv, &i);
            if (!strcmp(o->format_name, "roundrobin"))
                cfg->format = TOURNAMENT_ROUNDROBIN;
            else if (!strcmp(o->format_name, "gauntlet"))
                cfg->format = TOURNAMENT_GAUNTLET;
            else
                cli_die("--format needs roundrobin or gauntlet, not '%s'", o->format_name);
        } else if (!strcmp(a, "--sprt")) {
            char err[GAME_ERR_MAX];
            if (rating_sprt_parse(cli_value(argc, argv, &i), &cfg->sprt_config, err, sizeof err))
                cli_die("%s", err);
            cfg->sprt = true;
        } else if (!strcmp(a, "--sprt-per-game")) {
            cfg->sprt_per_game = true;
        } else if (!strcmp(a, "--shard")) {
            tournament_parse_shard(cli_value(argc, argv, &i), cfg);
        } else if (!strcmp(a, "--progress-interval")) {
            cfg->progress_interval = (double)cli_int(a, cli_value(argc, argv, &i), 1, 86400);
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (!strcmp(a, "--allow-cheat")) {
            o->allow_cheat = true;
        } else if (!strcmp(a, "--record-search")) {
            cfg->record_search = true;
        } else if (!strcmp(a, "--openings")) {
            o->openings_path = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--report-viewers")) {
            o->viewers = cli_int(a, cli_value(argc, argv, &i), 0, 1000000000L);
        } else {
            cli_die("tournament: unknown option '%s' (see skyline tournament --help)", a);
        }
    }
    return 0;
}

/* The built-in line-up when no --bot is given, then the checks of the options together. */
static void tournament_validate(tournament_config_t *cfg, tournament_opts_t *o)
{
    if (cfg->bot_count == 0) {
        /* No --bot: the built-in line-up (the main job of README's first command), whatever
           other options say; --games and --out keep their defaults unless given. */
        static const char *const defaults[] = {"random", "greedy", "heuristic",
                                               "mcts:iters=1000,prior=heuristic,cutoff=8,fpu=0.3"};
        for (int b = 0; b < 4; b++)
            cfg->specs[cfg->bot_count++] = defaults[b];
        o->builtin = true;
        if (!cfg->games)
            cfg->games = 240;
        if (!cfg->out_path)
            cfg->out_path = "tournament.jsonl";
    }
    if (cfg->bot_count < 2)
        cli_die("a tournament needs at least two --bot options");
    if (!cfg->games)
        cli_die("tournament needs --games K");
    if (!cfg->out_path)
        cli_die("tournament needs --out FILE (the record file, resumed if it exists)");
    if (cfg->sprt_per_game && !cfg->sprt)
        cli_die("--sprt-per-game needs --sprt");
}

/* Bad specs and bad game options fail now, before any file is touched; the most threads a
   bot uses. */
static int tournament_check_bots(const tournament_config_t *cfg, bool allow_cheat)
{
    char err[GAME_ERR_MAX];
    int max_threads = 1;
    for (int b = 0; b < cfg->bot_count; b++) {
        bot_t *bot = bot_new(cfg->api, cfg->specs[b], 0, err, sizeof err);
        if (!bot || bot_check_players(bot, cfg->opt.players, err, sizeof err))
            cli_die("%s", err);
        if (bot->threads > max_threads)
            max_threads = bot->threads;
        bool cheats = mcts_bot_cheats(bot);
        bot_free(bot);
        if (cheats && !allow_cheat)
            cli_die("bot '%s' sees hidden information (cheat=1): give --allow-cheat if that "
                    "is intended",
                    cfg->specs[b]);
    }
    void *state = malloc(cfg->api->state_size);
    if (!state)
        cli_die("out of memory");
    if (cfg->api->new_game(state, &cfg->opt, err, sizeof err))
        cli_die("%s", err);
    free(state);
    return max_threads;
}

/* Runs the tournament (over the MPI ranks when launched so), prints its report and writes
   its page. */
static void tournament_run_all(tournament_config_t *cfg, const tournament_opts_t *o)
{
    tournament_report_t rep;
    char run_err[1024];
#ifdef SKYLINE_MPI
    if (mpi_run_launched()) { /* under mpirun or srun: one tournament over the ranks */
        bool root = true;
        if (mpi_run_tournament(cfg, &rep, &root, run_err, sizeof run_err))
            mpi_run_die(run_err);
        if (root) {
            tournament_print_report(cfg, o->format_name, &rep);
            tournament_report_free(&rep);
            tournament_write_page(cfg, o->viewers);
        }
        mpi_run_finish();
        return;
    }
#endif
    if (tournament_run(cfg, &rep, run_err, sizeof run_err))
        cli_die("%s", run_err);
    tournament_print_report(cfg, o->format_name, &rep);
    tournament_report_free(&rep);
    tournament_write_page(cfg, o->viewers);
}

int cmd_tournament(int argc, char **argv)
{
    cli_game_t g;
    cli_game_init(&g);
    tournament_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.shard_count = 1;
    cfg.progress_interval = 10;
    tournament_opts_t o = {.viewers = VIEWER_REPORT_VIEWERS, .format_name = "roundrobin"};
    if (tournament_parse(&g, &cfg, &o, argc, argv))
        return 0;
    cli_game_finish(&g);
    tournament_validate(&cfg, &o);
    cfg.api = g.api;
    cfg.opt = g.opt;

    int max_threads = tournament_check_bots(&cfg, o.allow_cheat);
    /* The page and its viewers are written at the end: someone else's file there stops the
       run now, before any game. */
    char err[GAME_ERR_MAX];
    char page[4096], page_err[GAME_ERR_MAX * 2];
    tournament_page_path(&cfg, page, sizeof page);
    if (viewer_report_check(page, page_err, sizeof page_err))
        cli_die("%s", page_err);
    openings_t openings;
    if (o.openings_path) {
        if (openings_load(o.openings_path, cfg.api, &cfg.opt, &openings, err, sizeof err))
            cli_die("--openings: %s", err);
        cfg.openings = &openings;
    }
    if (!cfg.workers)
        cfg.workers = tournament_default_workers(max_threads);
    if (cfg.games % cfg.opt.players)
        fprintf(stderr,
                "skyline: note: %ld games is not a multiple of %d (one block per deal): the "
                "last block is partial\n",
                cfg.games, cfg.opt.players);
    cfg.progress = o.quiet ? 0 : isatty(STDERR_FILENO) ? 2 : 1;
    if (o.builtin && !o.quiet)
        fprintf(stderr,
                "skyline: no --bot: the built-in line-up, %s for %d players, %ld games into %s "
                "(resumed if it exists)\n",
                cfg.api->name, cfg.opt.players, cfg.games, cfg.out_path);
    tournament_run_all(&cfg, &o);
    if (cfg.openings)
        openings_free(&openings);
    return 0;
}
