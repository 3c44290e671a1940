/*
 * skyline generate: self-play of one bot spec in every seat, for training records (the
 * records `skyline fit` reads). Game i of K uses seed S+i (as play); every record gets a
 * "generate" key {"config": hash of the game, its options and the spec}. The record file
 * is locked while the command runs, and resumed: the games whose seed the file already
 * holds (for the same configuration) are not played again. Games run on W worker threads,
 * each with its own bots; records are appended in the order games finish. Under an MPI
 * launcher (the MPI build, docs/MPI.md) the other ranks play the games and rank 0 writes
 * their records in seed order: the file of a one-worker run.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arena/config_options.h"
#include "arena/match.h"
#include "arena/tournament.h"
#include "cli/cli.h"
#include "core/lines.h"
#include "core/record.h"
#include "mpi/mpi_run.h"

/* Length of the configuration hash in hex digits. */
#define GEN_HASH_LEN 16

/* A generate run: what is played, what is done, and the file. */
typedef struct gen {
    const game_api_t *api;       /* the game */
    game_options_t opt;          /* its options; opt.seed is the first game's seed */
    const char *spec;            /* the bot in every seat */
    long games;                  /* K: seeds S .. S+K-1 */
    bool record_policy;          /* records get "policy" (match_setup_t.record_policy) */
    char hash[GEN_HASH_LEN + 1]; /* configuration hash */
    bool *done;                  /* per game i < K: the file holds it */
    long *todo;                  /* the games this run plays, ascending */
    long todo_count;             /* their number */
    long next;                   /* next position in todo to hand out (under lock) */
    char **held;                 /* remote players: records per todo position, or NULL */
    long *held_moves;            /* their moves */
    long held_next;              /* the todo position to write next */
    mpi_run_root_t *remote;      /* rank 0 of an MPI job: the other ranks play, or NULL */
    int ranks;                   /* ranks of the MPI job (1: one process) */
    long played;                 /* games played and written (under lock) */
    long moves;                  /* moves in the games played (under lock) */
    lines_file_t file;           /* the record file, locked */
    rating_key_t *keys;          /* the seeds of the file's records, with lines */
    long key_count, key_cap;     /* their number and room */
    pthread_mutex_t lock;        /* guards next, played, moves, failed, err and the file */
    bool failed;                 /* a worker failed: err says why, the others stop */
    char err[GAME_ERR_MAX * 2];  /* the first failure */
    int progress;                /* 0: none, 1: a line every 10 s, 2: a line kept updated */
    double start, last_progress; /* monotonic seconds: start, last progress line */
} gen_t;

static const char generate_help[] =
    "usage: skyline generate --bot SPEC --games K --out FILE [options]\n"
    "Self-play for training records (skyline fit): SPEC plays every seat; game i of K uses\n"
    "seed S+i. Appends one JSON record per game to FILE (FORMATS.md section 4) with a\n"
    "\"generate\" key {config}. Running the same command again resumes: games whose seed\n"
    "FILE holds are not replayed; a larger --games or another --seed adds games. Give the\n"
    "bot some exploration, e.g. heuristic:temp=0.3 or heuristic:eps=0.1 (bots/BOTS.md).\n"
    "%s"
    "  --bot SPEC              the bot of every seat (required)\n"
    "  --games K               games (seeds S to S+K-1)\n"
    "  --out FILE              record file: appended to, resumed from\n"
    "  --workers W             games played at once (default: cores / the bot's threads)\n"
    "  --record-policy         each record gets \"policy\": per searched move, the visits\n"
    "                          per action id and the root value (docs/NETS.md)\n"
    "  --quiet                 no progress lines\n";

static double gen_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t gen_fnv(uint64_t h, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL;
    }
    /* A separator byte that never occurs in text, so fields cannot run into each other. */
    h ^= 0xffu;
    return h * 0x100000001b3ULL;
}

/* The configuration hash: the game, its options (not the seed) and the spec. */
static void gen_config_hash(gen_t *g)
{
    char buf[128];
    uint64_t h = 0xcbf29ce484222325ULL;
    h = gen_fnv(h, "skyline-generate-1");
    h = gen_fnv(h, g->api->name);
    config_options_t o;
    config_options_read(&g->opt, &o);
    snprintf(buf, sizeof buf, "players=%d first=%d floors=%d setup=%d", g->opt.players,
             g->opt.first_player, o.start_floors, o.setup_random);
    h = gen_fnv(h, buf);
    h = gen_fnv(h, o.board ? o.board : "-");
    h = gen_fnv(h, o.objectives ? o.objectives : "-");
    for (int i = 0; i < o.extra_count; i++)
        h = gen_fnv(h, o.extra[i]);
    h = gen_fnv(h, g->spec);
    snprintf(g->hash, sizeof g->hash, "%016llx", (unsigned long long)rng_mix64(h));
}

/* Any spec: the seats are checked against the bot, not counted (rating_game_from_record). */
static int gen_any_bot(void *ctx, const char *spec)
{
    (void)ctx;
    (void)spec;
    return 0;
}

/* Whether rec is a game of this run: its game, player count and the bot in every seat. */
static bool gen_record_matches(const gen_t *g, const json_t *rec)
{
    record_outcome_t o;
    record_outcome(rec, &o);
    bool ok = o.game && !strcmp(o.game, g->api->name) && o.players == g->opt.players &&
              o.seat_count == g->opt.players;
    for (int s = 0; ok && s < o.seat_count; s++)
        ok = o.seats[s] && !strcmp(o.seats[s], g->spec);
    return ok;
}

/* Checks one stored record as rate does, then against this run, and marks its game done:
   0, or -1 with err. */
static int gen_load_record(gen_t *g, const char *path, const char *line, long lineno, char *err,
                           size_t errlen)
{
    json_t *rec = lines_record_parse(path, lineno, line, err, errlen);
    if (!rec)
        return -1;
    int rc = -1;
    const char *hash =
        json_string_value(json_object_get(json_object_get(rec, "generate"), "config"));
    json_t *seed = json_object_get(rec, "seed");
    char why[GAME_ERR_MAX];
    rating_game_t rg;
    if (!hash || !json_is_integer(seed) || json_integer_value(seed) < 0) {
        snprintf(err, errlen,
                 "%s:%ld: a record without a generate key and seed; this file was not written "
                 "by skyline generate, use another --out",
                 path, lineno);
    } else if (strcmp(hash, g->hash)) {
        snprintf(err, errlen,
                 "%s holds games of another game, option or bot (config %s, this one %s): use "
                 "another --out or the same options",
                 path, hash, g->hash);
    } else if (rating_game_from_record(rec, gen_any_bot, NULL, &rg, why, sizeof why)) {
        snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
    } else if (!gen_record_matches(g, rec)) {
        snprintf(err, errlen, "%s:%ld: the game, players or seats do not match this run", path,
                 lineno);
    } else if (rating_keys_add(&g->keys, &g->key_count, &g->key_cap, (long)json_integer_value(seed),
                               lineno)) {
        snprintf(err, errlen, "out of memory");
    } else {
        uint64_t s = (uint64_t)json_integer_value(seed);
        if (s >= g->opt.seed && s - g->opt.seed < (uint64_t)g->games)
            g->done[s - g->opt.seed] = true;
        rc = 0;
    }
    json_decref(rec);
    return rc;
}

/* Refuses a file that holds one seed twice (rate refuses a tournament game given twice). */
static int gen_check_twice(gen_t *g, const char *path, char *err, size_t errlen)
{
    const rating_key_t *a, *b;
    if (!rating_keys_twice(g->keys, g->key_count, &a, &b))
        return 0;
    snprintf(err, errlen, "the game of seed %ld is there twice (%s:%ld and %s:%ld)", b->index, path,
             a->line, path, b->line);
    return -1;
}

/* Opens and locks the file, reads the games it holds, cuts off a last line cut short. */
static int gen_open_file(gen_t *g, const char *path, char *err, size_t errlen)
{
    if (lines_file_open(&g->file, path, err, errlen))
        return -1;
    lines_reader_t r;
    lines_init(&r, g->file.in);
    int rc, got;
    while ((rc = got = lines_next(&r)) > 0 && !r.cut) {
        if (r.len == 0)
            continue;
        if ((rc = gen_load_record(g, path, r.text, r.lineno, err, errlen)))
            break;
    }
    if (got < 0)
        lines_error(&r, path, err, errlen);
    lines_free(&r);
    if (rc < 0 || got < 0 || gen_check_twice(g, path, err, errlen))
        return -1;
    return lines_file_drop_cut(&g->file, err, errlen);
}

/* A progress line (under the lock): games done of K, speed, positions so far. */
static void gen_progress(gen_t *g, bool final)
{
    double now = gen_now();
    if (!g->progress || (!final && now - g->last_progress < (g->progress == 2 ? 0.25 : 10)))
        return;
    g->last_progress = now;
    double el = now - g->start;
    long done = g->games - g->todo_count + g->played;
    fprintf(stderr, "%sgames %ld/%ld  %.2f games/s  %ld moves played%s",
            g->progress == 2 ? "\r" : "", done, g->games, el > 0 ? (double)g->played / el : 0.0,
            g->moves, g->progress == 2 && !final ? "" : "\n");
    fflush(stderr);
}

/* Records the first failure and stops the workers (under the lock). */
static void gen_fail(gen_t *g, const char *msg)
{
    if (!g->failed)
        snprintf(g->err, sizeof g->err, "%s", msg);
    g->failed = true;
}

/* Makes the bots of every seat: 0, or -1 with err (the ones made are freed). */
static int gen_bots_new(const gen_t *g, bot_t **bots, char *err, size_t errlen)
{
    for (int s = 0; s < g->opt.players; s++)
        if (!(bots[s] = bot_new(g->api, g->spec, (uint64_t)s, err, errlen))) {
            for (int k = 0; k < s; k++)
                bot_free(bots[k]);
            return -1;
        }
    return 0;
}

/* Plays game k (seed S+k): its record line, '\n' ended (malloc'ed), and its moves; 0, or -1
   with err. */
static int gen_play(const gen_t *g, bot_t **bots, long k, char **out, long *moves, char *err,
                    size_t errlen)
{
    game_options_t opt = g->opt;
    opt.seed = g->opt.seed + (uint64_t)k;
    match_result_t r;
    match_setup_t setup = {.record_policy = g->record_policy};
    if (match_play_setup(g->api, &opt, bots, false, false, &setup, &r, err, errlen))
        return -1;
    json_object_set_new(r.record, "generate", json_pack("{s:s}", "config", g->hash));
    char *line = json_dumps(r.record, JSON_COMPACT);
    json_decref(r.record);
    size_t len = line ? strlen(line) : 0;
    char *grown = line && len <= LINES_LINE_MAX ? realloc(line, len + 2) : NULL;
    if (line && len > LINES_LINE_MAX) {
        snprintf(err, errlen,
                 "seed %llu: the record is %zu bytes, over the %zu that record readers take "
                 "(fewer iterations, or no --record-policy)",
                 (unsigned long long)opt.seed, len, LINES_LINE_MAX);
        free(line);
        return -1;
    }
    if (!grown) {
        snprintf(err, errlen, "out of memory");
        free(line);
        return -1;
    }
    memcpy(grown + len, "\n", 2);
    *out = grown;
    *moves = r.moves;
    return 0;
}

/* Appends one game's record (under the lock): 0, or -1 after gen_fail. */
static int gen_write(gen_t *g, const char *line, long moves)
{
    if (lines_file_write(&g->file, line, strlen(line))) {
        char err[GAME_ERR_MAX + 64];
        snprintf(err, sizeof err, "cannot write to record file '%s': %s", g->file.path,
                 strerror(errno));
        gen_fail(g, err);
        return -1;
    }
    g->played++;
    g->moves += moves;
    gen_progress(g, false);
    return 0;
}

/* Keeps the record of todo position pos (under the lock): written at once, or, with
   remote players, once every earlier position's record is (seed order, so the file is a
   one-worker run's). Takes line. */
static void gen_store(gen_t *g, long pos, char *line, long moves)
{
    if (!g->held) {
        if (!g->failed)
            gen_write(g, line, moves);
        free(line);
        return;
    }
    g->held[pos] = line;
    g->held_moves[pos] = moves;
    while (!g->failed && g->held_next < g->todo_count && g->held[g->held_next]) {
        long at = g->held_next++;
        gen_write(g, g->held[at], g->held_moves[at]);
        free(g->held[at]);
        g->held[at] = NULL;
    }
}

/* A worker thread: its own bots (or, on rank 0 of an MPI job, a game slot of another rank),
   games taken from the todo list until none is left. */
typedef struct gen_worker_arg {
    gen_t *g;
    int slot; /* the remote game slot it drives */
} gen_worker_arg_t;

static void *gen_worker(void *arg)
{
    gen_worker_arg_t *wa = arg;
    gen_t *g = wa->g;
    bot_t *bots[GAME_MAX_PLAYERS] = {0};
    char err[GAME_ERR_MAX * 2];
    bool ok = g->remote || !gen_bots_new(g, bots, err, sizeof err);
    if (!ok) {
        pthread_mutex_lock(&g->lock);
        gen_fail(g, err);
        pthread_mutex_unlock(&g->lock);
    }
    while (ok) {
        pthread_mutex_lock(&g->lock);
        long pos = g->failed || g->next == g->todo_count ? -1 : g->next++;
        pthread_mutex_unlock(&g->lock);
        if (pos < 0)
            break;
        char *line = NULL;
        long moves = 0;
#ifdef SKYLINE_MPI
        long long info[MPI_RUN_INFO];
        if (g->remote) {
            ok =
                !mpi_run_root_play(g->remote, wa->slot, g->todo[pos], &line, info, err, sizeof err);
            moves = (long)info[0];
        } else
#endif
            ok = !gen_play(g, bots, g->todo[pos], &line, &moves, err, sizeof err);
        pthread_mutex_lock(&g->lock);
        if (ok)
            gen_store(g, pos, line, moves);
        else
            gen_fail(g, err);
        ok = ok && !g->failed;
        pthread_mutex_unlock(&g->lock);
    }
    if (!g->remote)
        for (int s = 0; s < g->opt.players; s++)
            bot_free(bots[s]);
    return NULL;
}

#ifdef SKYLINE_MPI
/* A worker rank's game slot: the bots of every seat. */
static void *gen_slot_new(void *ctx)
{
    gen_t *g = ctx;
    bot_t **bots = calloc(GAME_MAX_PLAYERS, sizeof *bots);
    char err[GAME_ERR_MAX];
    if (bots && gen_bots_new(g, bots, err, sizeof err)) {
        free(bots);
        return NULL;
    }
    return bots;
}

static void gen_slot_free(void *ctx, void *slot)
{
    gen_t *g = ctx;
    bot_t **bots = slot;
    for (int s = 0; s < g->opt.players; s++)
        bot_free(bots[s]);
    free(bots);
}

static int gen_slot_play(void *ctx, void *slot, long k, char **line, long long *info, char *err,
                         size_t errlen)
{
    long moves = 0;
    int rc = gen_play(ctx, slot, k, line, &moves, err, errlen);
    info[0] = moves;
    return rc;
}

/* Under an MPI launcher with two or more ranks, a rank other than 0 plays the games rank 0
   sends and returns 1 (the run is done for it); rank 0 and a lone rank return 0. */
static int gen_mpi_worker(gen_t *g, long workers)
{
    char err[GAME_ERR_MAX * 2];
    int rank = 0, size = 1;
    if (!mpi_run_launched())
        return 0;
    if (mpi_run_world(&rank, &size, err, sizeof err))
        mpi_run_die(err);
    g->ranks = size;
    if (size < 2 || rank == 0)
        return 0;
    mpi_run_player_t p = {gen_slot_new, gen_slot_play, gen_slot_free, g};
    if (mpi_run_worker(&p, (int)workers, err, sizeof err))
        mpi_run_die(err);
    return 1;
}
#endif

/* Ends the run with msg: on every rank of an MPI job. */
_Noreturn static void gen_die(const gen_t *g, const char *msg)
{
#ifdef SKYLINE_MPI
    if (g->ranks > 1)
        mpi_run_die(msg);
#else
    (void)g;
#endif
    cli_die("%s", msg);
}

/* Plays the todo list on workers threads (rank 0 of an MPI job: one a game slot of the
   other ranks); the threads started. */
static long gen_run(gen_t *g, long workers)
{
#ifdef SKYLINE_MPI
    char err[GAME_ERR_MAX * 2];
    int slots = 0;
    if (g->ranks > 1) {
        if (!(g->remote = mpi_run_root_start(&slots, err, sizeof err)))
            gen_die(g, err);
        workers = slots;
        g->held = calloc((size_t)g->todo_count + 1, sizeof *g->held);
        g->held_moves = calloc((size_t)g->todo_count + 1, sizeof *g->held_moves);
        if (!g->held || !g->held_moves)
            gen_die(g, "out of memory");
    }
#endif
    if (workers > g->todo_count)
        workers = g->todo_count > 0 ? g->todo_count : 1;
    pthread_t *tids = calloc((size_t)workers, sizeof *tids);
    gen_worker_arg_t *args = calloc((size_t)workers, sizeof *args);
    if (!tids || !args)
        gen_die(g, "out of memory");
    long started = 0;
    for (; started < workers; started++) {
        args[started] = (gen_worker_arg_t){g, (int)started};
        if (pthread_create(&tids[started], NULL, gen_worker, &args[started]))
            break;
    }
    if (!started && g->todo_count > 0)
        gen_worker(&args[0]);
    for (long w = 0; w < started; w++)
        pthread_join(tids[w], NULL);
#ifdef SKYLINE_MPI
    if (g->remote &&
        mpi_run_root_stop(g->remote, g->failed ? -1 : 0, g->played, g->progress, err, sizeof err) &&
        !g->failed)
        gen_fail(g, err); /* stopping the ranks failed */
    g->remote = NULL;
    for (long k = 0; g->held && k < g->todo_count; k++)
        free(g->held[k]);
    free(g->held);
    free(g->held_moves);
    g->held = NULL;
#endif
    free(tids);
    free(args);
    return started;
}

int cmd_generate(int argc, char **argv)
{
    cli_game_t cg;
    cli_game_init(&cg);
    const char *spec = NULL, *out = NULL;
    long games = 0, workers = 0;
    bool quiet = false, record_policy = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_game_option(&cg, argc, argv, &i))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf(generate_help, cli_game_help);
            return 0;
        } else if (!strcmp(a, "--bot")) {
            if (spec)
                cli_die("generate takes one --bot (it plays every seat)");
            spec = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--games")) {
            games = cli_int(a, cli_value(argc, argv, &i), 1, 100000000L);
        } else if (!strcmp(a, "--out")) {
            out = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--workers")) {
            workers = cli_int(a, cli_value(argc, argv, &i), 1, 256);
        } else if (!strcmp(a, "--quiet")) {
            quiet = true;
        } else if (!strcmp(a, "--record-policy")) {
            record_policy = true;
        } else {
            cli_die("generate: unknown option '%s' (see skyline generate --help)", a);
        }
    }
    cli_game_finish(&cg);
    if (!spec)
        cli_die("generate needs --bot SPEC (the bot of every seat)");
    if (!games)
        cli_die("generate needs --games K");
    if (!out)
        cli_die("generate needs --out FILE (the record file, resumed if it exists)");
    if (cg.opt.seed > (uint64_t)(LONG_MAX - (games - 1)))
        cli_die("--seed %llu: the seeds of %ld games would pass %ld, the largest seed",
                (unsigned long long)cg.opt.seed, games, LONG_MAX);

    /* A bad spec or bad game options fail now, before the file is touched. */
    if (!strcmp(spec, "human") || !strncmp(spec, "human:", 6))
        cli_die("generate plays bots only, not 'human'");
    char err[GAME_ERR_MAX * 2];
    bot_t *probe = bot_new(cg.api, spec, 0, err, sizeof err);
    if (!probe || bot_check_players(probe, cg.opt.players, err, sizeof err))
        cli_die("%s", err);
    int threads = probe->threads;
    bot_free(probe);
    void *state = malloc(cg.api->state_size);
    if (!state)
        cli_die("out of memory");
    if (cg.api->new_game(state, &cg.opt, err, sizeof err))
        cli_die("%s", err);
    free(state);

    if (record_policy && !cg.api->move_action)
        cli_die("--record-policy: %s has no action ids", cg.api->name);
    gen_t g = {
        .api = cg.api, .opt = cg.opt, .spec = spec, .games = games, .record_policy = record_policy};
    g.file.fd = -1;
    gen_config_hash(&g);
    g.done = calloc((size_t)games, sizeof *g.done);
    g.todo = malloc((size_t)games * sizeof *g.todo);
    if (!g.done || !g.todo)
        cli_die("out of memory");
    g.ranks = 1;
    if (!workers)
        workers = tournament_default_workers(threads);
#ifdef SKYLINE_MPI
    if (gen_mpi_worker(&g, workers)) {
        mpi_run_finish();
        free(g.done);
        free(g.todo);
        return 0;
    }
#endif
    if (gen_open_file(&g, out, err, sizeof err))
        gen_die(&g, err);
    for (long k = 0; k < games; k++)
        if (!g.done[k])
            g.todo[g.todo_count++] = k;
    g.progress = quiet ? 0 : isatty(STDERR_FILENO) ? 2 : 1;
    g.start = g.last_progress = gen_now();
    pthread_mutex_init(&g.lock, NULL);
    long started = gen_run(&g, workers);
    pthread_mutex_destroy(&g.lock);
    double seconds = gen_now() - g.start;
    if (!g.failed && g.played)
        gen_progress(&g, true);
    if (lines_file_close(&g.file) && !g.failed) {
        snprintf(g.err, sizeof g.err, "cannot write to record file '%s': %s", out, strerror(errno));
        g.failed = true;
    }
    if (g.failed)
        gen_die(&g, g.err);
    printf("generate %s: %s, %d players, %s, seeds %llu to %llu -> %s\n", g.hash, cg.api->name,
           cg.opt.players, spec, (unsigned long long)cg.opt.seed,
           (unsigned long long)(cg.opt.seed + (uint64_t)games - 1), out);
    printf("%ld of %ld games done (%ld resumed, %ld played by ", games - g.todo_count + g.played,
           games, games - g.todo_count, g.played);
    if (g.ranks > 1)
        printf("%ld game slot%s on %d ranks", started, started == 1 ? "" : "s", g.ranks);
    else
        printf("%ld worker%s", started ? started : 1, started == 1 ? "" : "s");
    printf(" in %.1f s, %ld moves)\n", seconds, g.moves);
#ifdef SKYLINE_MPI
    mpi_run_finish();
#endif
    free(g.done);
    free(g.todo);
    free(g.keys);
    return 0;
}
