/*
 * skyline tune: SPSA over a bot's heuristic weights. Each iteration plays theta+ against
 * theta- on the same deals with the line-up rotated over the seats (common random
 * numbers), in parallel, and moves theta along the difference of their mean results.
 */
#include <math.h>
#include <jansson.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "arena/config_options.h"
#include "arena/match.h"
#include "arena/spsa.h"
#include "bots/heuristic.h"
#include "cli/cli.h"
#include "core/lines.h"
#include "core/textbuf.h"
#include "viewer/viewer.h"
#ifdef SKYLINE_MPI
#include "mpi/mpi_run.h"
#endif

#define TUNE_MAX_AGAINST 8
#define TUNE_MAX_WORKERS 1024

/* Everything an iteration needs. */
typedef struct tune_ctx {
    cli_game_t g;                          /* game and options */
    const heuristic_t *heur;               /* the game's heuristic */
    heur_params_t base;                    /* weights not tuned keep these values */
    int tuned_index[SPSA_MAX_PARAMS];      /* heuristic index of each tuned parameter */
    char spec_plus[BOT_SPEC_TEXT_MAX];     /* the tuned bot with theta+ */
    char spec_minus[BOT_SPEC_TEXT_MAX];    /* the tuned bot with theta- */
    char path_plus[1024];                  /* theta+ parameter file */
    char path_minus[1024];                 /* theta- parameter file */
    const char *against[TUNE_MAX_AGAINST]; /* opponents filling the other seats */
    int against_count;                     /* number of opponents */
    int deals;                             /* deals per iteration */
    int workers;                           /* games played at once */
    int rank;                              /* MPI rank: plays the games gi % ranks == rank */
    int ranks;                             /* MPI ranks (1: one process) */
    double mean_plus;                      /* the last iteration's mean result of theta+ */
    double mean_minus;                     /* the last iteration's mean result of theta- */
} tune_ctx_t;

/* Rebuilds spec with params=path as its only parameter source. */
static void tune_spec_with_params(const bot_spec_t *spec, const char *path, char *out,
                                  size_t outlen)
{
    textbuf_t t;
    textbuf_init(&t, out, outlen, 0);
    textbuf_printf(&t, "%s:", spec->name);
    for (int k = 0; k < spec->key_count; k++)
        if (strcmp(spec->keys[k], "params"))
            textbuf_printf(&t, "%s=%s,", spec->keys[k], spec->values[k]);
    textbuf_printf(&t, "params=%s", path);
    if (t.len + 1 >= outlen)
        cli_die("bot spec too long with params=%s", path);
}

static void tune_write_params(const tune_ctx_t *t, const double *theta, int count, const char *path)
{
    heur_params_t w = t->base;
    for (int i = 0; i < count; i++)
        w.value[t->tuned_index[i]] = theta[i];
    if (heur_params_save(t->heur, &w, path))
        cli_die("cannot write parameter file '%s'", path);
}

/* The games of one iteration, shared by its worker threads. */
typedef struct tune_batch {
    tune_ctx_t *t;                /* the run */
    long k;                       /* iteration (0-based): fixes the deals */
    int games;                    /* deals times rotations */
    double *res_plus;             /* theta+'s result in each game */
    double *res_minus;            /* theta-'s result in each game */
    atomic_int next;              /* next game to take */
    pthread_mutex_t lock;         /* guards failed and first_err */
    int failed;                   /* games that could not be played */
    char first_err[GAME_ERR_MAX]; /* the first failure's message */
} tune_batch_t;

/* Plays game gi of the batch: deal gi / players, line-up rotated by gi % players. */
static void tune_play_game(tune_batch_t *b, int gi)
{
    const tune_ctx_t *t = b->t;
    int players = t->g.opt.players;
    int deal = gi / players, rot = gi % players;
    /* Line-up: theta+, theta-, then opponents; rotated over the seats. */
    const char *lineup[GAME_MAX_PLAYERS];
    lineup[0] = t->spec_plus;
    lineup[1] = t->spec_minus;
    for (int s = 2; s < players; s++)
        lineup[s] = t->against[(s - 2) % t->against_count];
    game_options_t opt = t->g.opt;
    opt.seed = rng_mix64(t->g.opt.seed ^ rng_mix64((uint64_t)b->k * 1000003u + (uint64_t)deal));
    bot_t *bots[GAME_MAX_PLAYERS] = {0};
    char err[GAME_ERR_MAX] = "";
    int seat_plus = 0, seat_minus = 0, ok = 1;
    for (int s = 0; s < players && ok; s++) {
        int who = (s + rot) % players;
        if (who == 0)
            seat_plus = s;
        if (who == 1)
            seat_minus = s;
        bots[s] = bot_new(t->g.api, lineup[who], (uint64_t)s, err, sizeof err);
        ok = bots[s] != NULL;
    }
    match_result_t r;
    if (ok && match_play(t->g.api, &opt, bots, false, &r, err, sizeof err) == 0) {
        b->res_plus[gi] = r.result[seat_plus];
        b->res_minus[gi] = r.result[seat_minus];
        json_decref(r.record);
    } else {
        pthread_mutex_lock(&b->lock);
        if (!b->failed++)
            snprintf(b->first_err, sizeof b->first_err, "%s", err);
        pthread_mutex_unlock(&b->lock);
    }
    for (int s = 0; s < players; s++)
        bot_free(bots[s]);
}

static void *tune_worker_main(void *arg)
{
    tune_batch_t *b = arg;
    const tune_ctx_t *t = b->t;
    for (int gi; (gi = t->rank + atomic_fetch_add(&b->next, 1) * t->ranks) < b->games;)
        tune_play_game(b, gi);
    return NULL;
}

/*
 * One iteration's games: returns mean(theta+) - mean(theta-). Plain threads joined before
 * the results are read (as the tournament's workers): the join orders every result write
 * before the sums, visibly to ThreadSanitizer too, which does not see OpenMP's barriers in
 * an uninstrumented libgomp and reported the results of an omp parallel for as races.
 */
static double tune_eval(const double *plus, const double *minus, int count, long k, void *ctx)
{
    tune_ctx_t *t = ctx;
    tune_write_params(t, plus, count, t->path_plus);
    tune_write_params(t, minus, count, t->path_minus);
    static tune_batch_t b;
    memset(&b, 0, sizeof b);
    b.t = t;
    b.k = k;
    b.games = t->deals * t->g.opt.players;
    b.res_plus = calloc((size_t)b.games, sizeof *b.res_plus);
    b.res_minus = calloc((size_t)b.games, sizeof *b.res_minus);
    if (!b.res_plus || !b.res_minus)
        cli_die("out of memory");
    atomic_init(&b.next, 0);
    pthread_mutex_init(&b.lock, NULL);
    int mine = (b.games - t->rank + t->ranks - 1) / t->ranks; /* this rank's games */
    int workers = t->workers < mine ? t->workers : mine;
    pthread_t th[TUNE_MAX_WORKERS];
    int started = 0;
    while (started < workers && !pthread_create(&th[started], NULL, tune_worker_main, &b))
        started++;
    if (started == 0 && workers > 0)
        cli_die("cannot start worker threads");
    for (int w = 0; w < started; w++)
        pthread_join(th[w], NULL);
    pthread_mutex_destroy(&b.lock);
    if (b.failed)
        cli_die("%s", b.first_err);
#ifdef SKYLINE_MPI
    if (t->ranks > 1) { /* each game's entry is another rank's or 0: the sums are exact */
        mpi_run_sum(b.res_plus, b.games);
        mpi_run_sum(b.res_minus, b.games);
    }
#endif
    double sum_plus = 0, sum_minus = 0;
    for (int gi = 0; gi < b.games; gi++) {
        sum_plus += b.res_plus[gi];
        sum_minus += b.res_minus[gi];
    }
    free(b.res_plus);
    free(b.res_minus);
    t->mean_plus = sum_plus / b.games;
    t->mean_minus = sum_minus / b.games;
    return (sum_plus - sum_minus) / b.games;
}

/*
 * Opens the iteration log FILE.log.jsonl for appending after iteration k: the lines of
 * iterations 1..k are kept, later ones (written before a checkpoint that an interruption
 * lost) and a last line cut short are dropped, so a resumed run adds each iteration once.
 * A line that is not a tune log line stops the run: the file is someone else's.
 */
static FILE *tune_log_open(const char *path, long k)
{
    FILE *f = fopen(path, "r+");
    if (!f) {
        f = fopen(path, "w");
        if (!f)
            cli_die("cannot write the iteration log '%s'", path);
        return f;
    }
    char err[GAME_ERR_MAX];
    if (lines_check_file(fileno(f), path, "tune log", 0, err, sizeof err))
        cli_die("%s", err);
    lines_reader_t r;
    lines_init(&r, f);
    long keep = 0, lineno = 0;
    int got;
    while ((got = lines_next(&r)) > 0 && !r.cut) {
        lineno = r.lineno;
        json_t *j = json_loads(r.text, 0, NULL);
        json_t *it = json_object_get(j, "iteration");
        bool ours = json_is_integer(it) && json_is_object(json_object_get(j, "theta"));
        json_int_t iteration = json_integer_value(it);
        json_decref(j);
        if (!ours)
            cli_die("%s:%ld: not an iteration of skyline tune; refusing to append to this "
                    "file (give another --out)",
                    path, lineno);
        if (iteration > k)
            break;
        keep = (long)r.whole;
    }
    if (got < 0) {
        lines_error(&r, path, err, sizeof err);
        cli_die("%s", err);
    }
    lines_free(&r);
    if (fflush(f) || ftruncate(fileno(f), (off_t)keep) || fseek(f, 0, SEEK_END))
        cli_die("cannot write the iteration log '%s'", path);
    return f;
}

/* Appends iteration s->k's line: theta after the step and the iteration's results. */
static void tune_log_write(FILE *f, const char *path, const spsa_t *s, const tune_ctx_t *t,
                           double diff)
{
    json_t *theta = json_object();
    for (int i = 0; i < s->count; i++)
        json_object_set_new(theta, s->p[i].name, json_real(s->p[i].value));
    json_t *line =
        json_pack("{s:I,s:o,s:f,s:f,s:f,s:f,s:i}", "iteration", (json_int_t)s->k, "theta", theta,
                  "result_plus", t->mean_plus, "result_minus", t->mean_minus, "diff", diff,
                  "mean_diff", s->diff_sum / (double)s->k, "games", t->deals * t->g.opt.players);
    char *text = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(line);
    if (!text || fprintf(f, "%s\n", text) < 0 || fflush(f))
        cli_die("cannot write the iteration log '%s'", path);
    free(text);
}

/* Seconds on a monotonic clock. */
static double tune_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Writes h:mm:ss or m:ss. */
static void tune_clock(double seconds, char *out, size_t len)
{
    long t = (long)(seconds + 0.5);
    if (t >= 3600)
        snprintf(out, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(out, len, "%ld:%02ld", t / 60, t % 60);
}

/*
 * The terminal's progress line (stderr is a terminal): iterations done, elapsed time and
 * the estimated time left at this run's pace, rewritten in place; clear erases it.
 */
static void tune_progress(long k, long total, long done, double start, bool clear)
{
    fputs("\r\033[K", stderr);
    if (!clear) {
        double elapsed = tune_now() - start;
        char el[32], eta[32];
        tune_clock(elapsed, el, sizeof el);
        tune_clock(done ? elapsed / (double)done * (double)(total - k) : 0, eta, sizeof eta);
        fprintf(stderr, "tune: %ld/%ld iterations, %s elapsed, ETA %s", k, total, el,
                done ? eta : "?");
    }
    fflush(stderr);
}

/* FNV-1a of the configuration text: a resume must find the same. */
static void tune_tag(const char *text, char *tag, size_t len)
{
    uint64_t h = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    snprintf(tag, len, "%016llx", (unsigned long long)h);
}

/* Closes the log, removes the theta+/- files if done, ends MPI; returns 0. */
static int tune_finish(const tune_ctx_t *t, FILE *log, bool done)
{
    if (log)
        fclose(log);
    if (done || t->rank) {
        remove(t->path_plus);
        remove(t->path_minus);
    }
#ifdef SKYLINE_MPI
    mpi_run_finish();
#endif
    return 0;
}

/*
 * Rank 0's files, before any is written: locks --out FILE against a second tune or fit;
 * refuses what is not ours (FILE: a parameter file, FILE.ckpt and FILE.log.jsonl:
 * checked when read, FILE.html: a page of the viewer) and notes what this run makes.
 */
static void tune_check_files(const char *out, const char *ckpt, const char *log_path,
                             const char *page)
{
    cli_lock_out(out);
    cli_check_params_out(out);
    char err[GAME_ERR_MAX * 2];
    if (viewer_page_check(page, err, sizeof err))
        cli_die("%s", err);
    const char *regular[] = {ckpt, log_path};
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (stat(regular[i], &st) == 0 && !S_ISREG(st.st_mode))
            cli_die("%s exists and is not a regular file (give another --out)", regular[i]);
    }
    cli_made(out);
    cli_made(ckpt);
    cli_made(log_path);
}

/* After the first saved iteration, FILE, FILE.ckpt and the log stay whatever follows. */
static void tune_keep_files(const char *out, const char *ckpt, const char *log_path)
{
    cli_made_keep(out);
    cli_made_keep(ckpt);
    cli_made_keep(log_path);
}

static void tune_usage(void)
{
    printf("usage: skyline tune --bot SPEC [--params SPECFILE] [--against SPEC ...]\n"
           "                    --iterations K --seed S --out FILE [options]\n"
           "SPSA over the bot's heuristic weights (bots heuristic, greedy or mcts). Each\n"
           "iteration plays theta+ against theta- on the same deals with the line-up rotated\n"
           "over the seats; 3 to 5 players fill the other seats with the --against bots.\n"
           "Writes FILE (a parameter file for heuristic:params=FILE), FILE.ckpt and a line of\n"
           "FILE.log.jsonl after every iteration; the same command resumes from FILE.ckpt,\n"
           "and with a larger --iterations extends a finished run.\n%s"
           "  --params SPECFILE       'name start lo hi c' per line (default: every weight of\n"
           "                          the game's heuristic, with built-in bounds and steps)\n"
           "  --deals D               deals per iteration (default 2)\n"
           "  --workers W             games at once (default: cores / bot threads)\n"
           "  --stop-after N          stop after N iterations of this run (resume later)\n"
           "  --verbose               every weight on each iteration line (they are in\n"
           "                          FILE.log.jsonl either way)\n"
           "  --a X --A X --alpha X --gamma X   gain sequences (defaults: a = 2(A+1)^alpha,\n"
           "                          A = 40, alpha 0.602, gamma 0.101)\n",
           cli_game_help);
}

/* The options and set-up of one tune run (beside the context an iteration needs). */
typedef struct {
    const char *bot_text, *spec_path, *out;
    long iterations, stop_after;
    bool verbose;
    double a, A, alpha, gamma;
    bot_spec_t spec;                      /* the tuned bot's spec */
    spsa_param_t params[SPSA_MAX_PARAMS]; /* the tuned parameters */
    int count;                            /* number of tuned parameters */
    char ckpt[1100], log_path[1100], page[1200];
    char tag[32]; /* the configuration's tag (a resume must match) */
    spsa_config_t cfg;
} tune_run_t;

/* Reads the options into *t and *r; 1 when --help was printed. */
static int tune_parse(tune_ctx_t *t, tune_run_t *r, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (cli_game_option(&t->g, argc, argv, &i))
            continue;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            tune_usage();
            return 1;
        } else if (!strcmp(o, "--bot")) {
            if (r->bot_text)
                cli_die("tune takes one --bot (the bot to tune)");
            r->bot_text = cli_value(argc, argv, &i);
        } else if (!strcmp(o, "--params")) {
            r->spec_path = cli_value(argc, argv, &i);
        } else if (!strcmp(o, "--against")) {
            if (t->against_count == TUNE_MAX_AGAINST)
                cli_die("at most %d --against bots", TUNE_MAX_AGAINST);
            t->against[t->against_count++] = cli_value(argc, argv, &i);
        } else if (!strcmp(o, "--iterations")) {
            r->iterations = cli_int(o, cli_value(argc, argv, &i), 1, 100000000L);
        } else if (!strcmp(o, "--stop-after")) {
            r->stop_after = cli_int(o, cli_value(argc, argv, &i), 1, 100000000L);
        } else if (!strcmp(o, "--out")) {
            r->out = cli_value(argc, argv, &i);
        } else if (!strcmp(o, "--verbose")) {
            r->verbose = true;
        } else if (!strcmp(o, "--deals")) {
            t->deals = (int)cli_int(o, cli_value(argc, argv, &i), 1, 100000);
        } else if (!strcmp(o, "--workers")) {
            t->workers = (int)cli_int(o, cli_value(argc, argv, &i), 1, TUNE_MAX_WORKERS);
        } else if (!strcmp(o, "--a") || !strcmp(o, "--A") || !strcmp(o, "--alpha") ||
                   !strcmp(o, "--gamma")) {
            const char *v = cli_value(argc, argv, &i);
            char *end;
            double x = strtod(v, &end);
            if (end == v || *end || !(x >= 0))
                cli_die("%s needs a non-negative number, not '%s'", o, v);
            if (!strcmp(o, "--a"))
                r->a = x;
            else if (!strcmp(o, "--A"))
                r->A = x;
            else if (!strcmp(o, "--alpha"))
                r->alpha = x;
            else
                r->gamma = x;
        } else {
            cli_die("tune: unknown option '%s' (see skyline tune --help)", o);
        }
    }
    return 0;
}

/* Checks the options together and completes the game's; finds the game's heuristic. */
static void tune_validate(tune_ctx_t *t, const tune_run_t *r)
{
    if (!r->bot_text)
        cli_die("tune needs --bot SPEC (the bot to tune)");
    if (!r->iterations)
        cli_die("tune needs --iterations K");
    if (!r->out)
        cli_die("tune needs --out FILE");
    cli_game_finish(&t->g);
    int players = t->g.opt.players;
    if (players == 2 && t->against_count)
        cli_die("2-player tuning plays theta+ against theta-: --against is for 3 to 5 players");
    if (players > 2 && !t->against_count)
        cli_die("%d-player tuning needs --against SPEC for the other seats", players);
    t->heur = heuristic_for(t->g.api);
    if (!t->heur)
        cli_die("%s has no heuristic to tune", t->g.api->name);
}

/* The tuned bot's base weights (from its params= file, if any) and the tuned parameters
   (from --params, or every weight of the heuristic). */
static void tune_load_params(tune_ctx_t *t, tune_run_t *r)
{
    char err[GAME_ERR_MAX];
    bot_spec_t *spec = &r->spec;
    if (bot_spec_parse(r->bot_text, spec, err, sizeof err))
        cli_die("%s", err);
    if (strcmp(spec->name, "heuristic") && strcmp(spec->name, "greedy") &&
        strcmp(spec->name, "mcts"))
        cli_die("bot '%s' has no heuristic weights to tune (heuristic, greedy or mcts)",
                spec->name);
    heur_params_default(t->heur, &t->base);
    for (int k = 0; k < spec->key_count; k++)
        if (!strcmp(spec->keys[k], "params") &&
            heur_params_load(t->heur, spec->values[k], &t->base, err, sizeof err))
            cli_die("%s", err);

    spsa_param_t *params = r->params;
    int count = 0;
    if (r->spec_path) {
        if (spsa_spec_load(r->spec_path, params, &count, err, sizeof err))
            cli_die("%s", err);
    } else {
        for (int i = 0; i < t->heur->param_count && count < SPSA_MAX_PARAMS; i++, count++) {
            const heur_param_def_t *d = &t->heur->params[i];
            memset(&params[count], 0, sizeof params[count]);
            snprintf(params[count].name, sizeof params[count].name, "%s", d->name);
            params[count].value = t->base.value[i];
            params[count].lo = d->lo;
            params[count].hi = d->hi;
            params[count].c = d->step;
        }
    }
    for (int i = 0; i < count; i++) {
        t->tuned_index[i] = heur_param_find(t->heur, params[i].name);
        if (t->tuned_index[i] < 0)
            cli_die("%s: unknown parameter '%s' for the %s heuristic",
                    r->spec_path ? r->spec_path : "--params", params[i].name, t->g.api->name);
    }
    r->count = count;
}

/* The run's files checked and named, every bot spec checked, and the workers chosen. */
static void tune_prepare(tune_ctx_t *t, tune_run_t *r)
{
    char err[GAME_ERR_MAX];
    const char *out = r->out;
#ifdef SKYLINE_MPI
    if (mpi_run_launched() && mpi_run_world(&t->rank, &t->ranks, err, sizeof err))
        cli_die("%s", err);
#endif
    /* Under MPI, rank 0 alone writes FILE, FILE.ckpt and the log; every rank writes its
       own theta+ and theta- files. */
    const char *rank_suffix = t->rank ? ".rank" : "";
    snprintf(t->path_plus, sizeof t->path_plus, "%s.plus%s%.0d", out, rank_suffix, t->rank);
    snprintf(t->path_minus, sizeof t->path_minus, "%s.minus%s%.0d", out, rank_suffix, t->rank);
    snprintf(r->ckpt, sizeof r->ckpt, "%s.ckpt", out);
    snprintf(r->log_path, sizeof r->log_path, "%s.log.jsonl", out);
    snprintf(r->page, sizeof r->page, "%s.html", out);
    /* One run per --out; every file is checked before any game, and a run refused or
       failed before its first iteration is saved leaves none that it made. */
    if (!t->rank)
        tune_check_files(out, r->ckpt, r->log_path, r->page);
    cli_check_params_out(t->path_plus);
    cli_check_params_out(t->path_minus);
    cli_made(t->path_plus);
    cli_made(t->path_minus);
    tune_spec_with_params(&r->spec, t->path_plus, t->spec_plus, sizeof t->spec_plus);
    tune_spec_with_params(&r->spec, t->path_minus, t->spec_minus, sizeof t->spec_minus);
    /* Check every bot spec now, so a bad one fails before any game. */
    tune_write_params(t, (double[SPSA_MAX_PARAMS]){0}, 0, t->path_plus);
    bot_t *probe = bot_new(t->g.api, t->spec_plus, 0, err, sizeof err);
    if (!probe)
        cli_die("%s", err);
    int threads = probe->threads;
    bot_free(probe);
    for (int j = 0; j < t->against_count; j++) {
        bot_t *b = bot_new(t->g.api, t->against[j], 0, err, sizeof err);
        if (!b)
            cli_die("%s", err);
        if (b->threads > threads)
            threads = b->threads;
        bot_free(b);
    }
    if (!t->workers)
        t->workers = omp_get_num_procs() / threads > 0 ? omp_get_num_procs() / threads : 1;
    if (t->workers > TUNE_MAX_WORKERS)
        t->workers = TUNE_MAX_WORKERS;
}

/* The SPSA gains, and the tag of the configuration a resume must match (workers may
   differ: results do not; so may --iterations: a run extends to more). */
static void tune_configure(const tune_ctx_t *t, tune_run_t *r)
{
    spsa_config_t *cfg = &r->cfg;
    spsa_config_default(cfg, r->iterations, t->g.opt.seed);
    if (r->A >= 0)
        cfg->A = r->A;
    cfg->alpha = r->alpha;
    cfg->gamma = r->gamma;
    cfg->a = r->a >= 0 ? r->a : 2.0 * pow(cfg->A + 1.0, cfg->alpha);

    static char text[65536];
    config_options_t o;
    config_options_read(&t->g.opt, &o);
    textbuf_t tb;
    textbuf_init(&tb, text, sizeof text, 0);
    textbuf_printf(&tb, "%s|%d|%s|%s|%d|%d|%s|%s|%llu|%d|%.17g|%.17g|%.17g|%.17g", t->g.api->name,
                   t->g.opt.players, o.board ? o.board : "", o.objectives ? o.objectives : "",
                   o.start_floors, o.setup_random, r->bot_text, r->spec_path ? r->spec_path : "",
                   (unsigned long long)t->g.opt.seed, t->deals, cfg->a, cfg->A, cfg->alpha,
                   cfg->gamma);
    for (int j = 0; j < o.extra_count; j++)
        textbuf_printf(&tb, "|%s", o.extra[j]);
    for (int j = 0; j < t->against_count; j++)
        textbuf_printf(&tb, "|%s", t->against[j]);
    for (int i = 0; i < r->count; i++) {
        const spsa_param_t *p = &r->params[i];
        textbuf_printf(&tb, "|%s %.17g %.17g %.17g %.17g", p->name, p->value, p->lo, p->hi, p->c);
    }
    if (tb.len + 1 >= sizeof text) /* a cut text would tag two runs alike */
        cli_die("tune: the run's configuration is over %zu bytes", sizeof text - 1);
    tune_tag(text, r->tag, sizeof r->tag);
}

/* A new run, or rank 0's checkpoint resumed (or extended to more iterations). */
static void tune_start(const tune_ctx_t *t, tune_run_t *r, spsa_t *s)
{
    char err[GAME_ERR_MAX];
    long iterations = r->iterations;
    int loaded = t->rank ? 2 : spsa_load(s, r->tag, r->ckpt, err, sizeof err);
    if (loaded < 0)
        cli_die("%s", err);
    if (loaded == 2) {
        /* another rank: the run comes from rank 0 below */
    } else if (loaded == 1) {
        spsa_init(s, &r->cfg, r->params, r->count);
    } else {
        /* The gains do not depend on the budget: a finished run extends to more. */
        if (s->k > iterations)
            cli_die("%s is at iteration %ld, past --iterations %ld: give --iterations %ld or "
                    "more to extend it, or another --out",
                    r->ckpt, s->k, iterations, s->k);
        if (iterations > s->cfg.iterations && s->k == s->cfg.iterations)
            fprintf(stderr, "tune: extending %s from %ld to %ld iterations\n", r->ckpt, s->k,
                    iterations);
        else
            fprintf(stderr, "tune: resuming from %s at iteration %ld of %ld\n", r->ckpt, s->k,
                    iterations);
        s->cfg.iterations = iterations;
    }
#ifdef SKYLINE_MPI
    if (t->ranks > 1)
        mpi_run_share(s, sizeof *s); /* rank 0's run (new or resumed) on every rank */
#endif
}

/* Rank 0 after an iteration: the log line, checkpoint, parameter file and progress line. */
static void tune_save_iteration(tune_ctx_t *t, const tune_run_t *r, spsa_t *s, FILE *log,
                                double diff, bool progress)
{
    char err[GAME_ERR_MAX];
    /* The log line first: a resume drops lines past the checkpoint's iteration. */
    tune_log_write(log, r->log_path, s, t, diff);
    if (spsa_save(s, r->tag, r->ckpt, err, sizeof err))
        cli_die("%s", err);
    double theta[SPSA_MAX_PARAMS];
    for (int i = 0; i < s->count; i++)
        theta[i] = s->p[i].value;
    tune_write_params(t, theta, s->count, r->out);
    tune_keep_files(r->out, r->ckpt, r->log_path); /* a saved iteration: the run can resume */
    if (progress)
        tune_progress(0, 0, 0, 0, true);
    printf("iter %ld/%ld diff %+.3f mean diff %+.4f", s->k, s->cfg.iterations, diff,
           s->diff_sum / (double)s->k);
    if (r->verbose) {
        printf(" theta");
        for (int i = 0; i < s->count; i++)
            printf(" %s=%.4g", s->p[i].name, s->p[i].value);
    }
    printf("\n");
    fflush(stdout);
}

/* The iterations to the end (or --stop-after), then the parameter file and the page. */
static int tune_iterate(tune_ctx_t *t, const tune_run_t *r, spsa_t *s)
{
    char err[GAME_ERR_MAX];
    FILE *log = t->rank ? NULL : tune_log_open(r->log_path, s->k);
    bool progress = !t->rank && isatty(STDERR_FILENO);
    double start = tune_now();
    if (progress && s->k < s->cfg.iterations)
        tune_progress(s->k, s->cfg.iterations, 0, start, false);
    for (long done = 0; s->k < s->cfg.iterations; done++) {
        if (r->stop_after && done == r->stop_after) {
            if (progress)
                tune_progress(0, 0, 0, 0, true);
            if (!t->rank)
                printf("stopped after %ld iterations at %ld of %ld; run again to resume\n", done,
                       s->k, s->cfg.iterations);
            return tune_finish(t, log, false);
        }
        double diff = spsa_step(s, tune_eval, t);
        if (t->rank)
            continue;
        tune_save_iteration(t, r, s, log, diff, progress);
        if (progress)
            tune_progress(s->k, s->cfg.iterations, done + 1, start, false);
    }
    if (progress)
        tune_progress(0, 0, 0, 0, true);
    if (!t->rank)
        printf("wrote %s (load it with %s:params=%s)\n", r->out, r->spec.name, r->out);
    int rc = tune_finish(t, log, true);
    if (!t->rank) {
        if (viewer_write_tune(r->page, r->log_path, err, sizeof err))
            cli_die("the tuning page: %s", err);
        printf("Report: %s (open it in a browser)\n", r->page);
    }
    return rc;
}

int cmd_tune(int argc, char **argv)
{
    static tune_ctx_t t;
    static tune_run_t r;
    static spsa_t s;
    cli_game_init(&t.g);
    r = (tune_run_t){.a = -1, .A = -1, .alpha = 0.602, .gamma = 0.101};
    t.deals = 2;
    t.workers = 0;
    t.ranks = 1;
    if (tune_parse(&t, &r, argc, argv))
        return 0;
    tune_validate(&t, &r);
    tune_load_params(&t, &r);
    tune_prepare(&t, &r);
    tune_configure(&t, &r);
    tune_start(&t, &r, &s);
    return tune_iterate(&t, &r, &s);
}
