/*
 * skyline fit: Texel-style fitting of a heuristic's evaluation to the results of recorded
 * games (arena/fit.h, docs/FIT.md). Writes a parameter file as `tune` does.
 */
#include <math.h>
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "arena/fit.h"
#include "arena/spsa.h"
#include "bots/heuristic.h"
#include "cli/cli.h"
#include "core/input.h"

#define FIT_MAX_RECORD_FILES 256

/* Seconds on a monotonic clock. */
static double fit_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Writes w to path through a temporary file and a rename: never half a file. */
static void fit_write_params(const heuristic_t *h, const heur_params_t *w, const char *path)
{
    char tmp[1200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        cli_die("parameter file path too long: '%.60s...'", path);
    if (heur_params_save(h, w, tmp) || rename(tmp, path)) {
        remove(tmp);
        cli_die("cannot write parameter file '%s'", path);
    }
}

/* Fails now, not after the records are read, if path.tmp cannot be written (what names
   path in the message). */
static void fit_check_writable(const char *path, const char *what)
{
    char tmp[1300];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        cli_die("cannot write %s '%s' (its folder is missing or not writable)", what, path);
    fclose(f);
    remove(tmp);
}

/* A number option: finite, in [lo, hi]. */
static double fit_number(const char *opt, const char *value, double lo, double hi)
{
    char *end, shown[INPUT_EXCERPT_MAX];
    double x = strtod(value, &end);
    if (end == value || *end || !isfinite(x) || x < lo || x > hi)
        cli_die("%s needs a number from %g to %g, not '%s'", opt, lo, hi, cli_quote(value, shown));
    return x;
}

/* A held-out loss as text into buf[16]: "none" when no position is held out. */
static const char *fit_held(const fit_run_t *run, double loss, char *buf)
{
    if (run->held_count == 0)
        return "none";
    snprintf(buf, 16, "%.6f", loss);
    return buf;
}

/* FNV-1a of text, continuing from h. */
static uint64_t fit_fnv(uint64_t h, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return h;
}

/* The start weights: defaults, the bot's params= file and weight keys, then --start. */
static void fit_start_weights(const heuristic_t *h, const game_api_t *api, const char *bot_text,
                              const char *start_path, heur_params_t *w)
{
    char err[GAME_ERR_MAX];
    bot_spec_t spec;
    if (bot_spec_parse(bot_text, &spec, err, sizeof err))
        cli_die("%s", err);
    if (strcmp(spec.name, "heuristic") && strcmp(spec.name, "greedy") && strcmp(spec.name, "mcts"))
        cli_die("bot '%s' has no heuristic weights to fit (heuristic, greedy or mcts)", spec.name);
    bot_t *probe = bot_new(api, bot_text, 0, err, sizeof err);
    if (!probe)
        cli_die("%s", err);
    bot_free(probe);
    heur_params_default(h, w);
    for (int k = 0; k < spec.key_count; k++)
        if (!strcmp(spec.keys[k], "params") &&
            heur_params_load(h, spec.values[k], w, err, sizeof err))
            cli_die("%s", err);
    for (int k = 0; k < spec.key_count; k++) {
        int x = heur_param_find(h, spec.keys[k]);
        if (x >= 0)
            w->value[x] = strtod(spec.values[k], NULL);
    }
    if (start_path && heur_params_load(h, start_path, w, err, sizeof err))
        cli_die("%s", err);
}

/* The fitted weights of a spec file (read before any record, so a bad one fails first). */
static void fit_choose_spec(fit_config_t *cfg, const char *spec_path, bool start_given)
{
    const heuristic_t *h = cfg->heur;
    char err[GAME_ERR_MAX];
    spsa_param_t p[SPSA_MAX_PARAMS];
    int n = 0;
    if (spsa_spec_load(spec_path, p, &n, err, sizeof err))
        cli_die("%s", err);
    for (int c = 0; c < n; c++) {
        int x = heur_param_find(h, p[c].name);
        if (x < 0)
            cli_die("%s: unknown parameter '%s' for the %s heuristic", spec_path, p[c].name,
                    h->api->name);
        if (!(p[c].hi > p[c].lo))
            cli_die("%s: parameter '%s' needs lo < hi to be fitted", spec_path, p[c].name);
        cfg->index[c] = x;
        cfg->lo[c] = p[c].lo;
        cfg->hi[c] = p[c].hi;
        if (!start_given)
            cfg->start.value[x] = p[c].value;
    }
    cfg->count = n;
}

/* Without a spec file: every weight that changes evaluate on the data. */
static void fit_choose_active(fit_config_t *cfg, const fit_data_t *d)
{
    const heuristic_t *h = cfg->heur;
    int active[HEUR_MAX_PARAMS];
    fit_active_weights(d, h, &cfg->start, active);
    cfg->count = 0;
    for (int x = 0; x < h->param_count; x++)
        if (active[x]) {
            cfg->index[cfg->count] = x;
            cfg->lo[cfg->count] = h->params[x].lo;
            cfg->hi[cfg->count] = h->params[x].hi;
            cfg->count++;
        }
}

/* The tag a checkpoint must match: the data and every option that changes the fit. */
static void fit_tag(const fit_config_t *cfg, const fit_data_t *d, char *tag, size_t len)
{
    char text[4096];
    int n = snprintf(text, sizeof text, "%s|%d|%016llx|%.17g|%.17g|%.17g|%.17g|%ld|%llu|%d|%.17g",
                     d->api->name, d->players, (unsigned long long)fit_data_hash(d), cfg->holdout,
                     cfg->l2, cfg->lr, cfg->fd_step, cfg->batch, (unsigned long long)cfg->seed,
                     (int)cfg->loss, cfg->k);
    for (int x = 0; x < cfg->heur->param_count && n < (int)sizeof text; x++)
        n += snprintf(text + n, sizeof text - (size_t)n, "|%.17g", cfg->start.value[x]);
    for (int c = 0; c < cfg->count && n < (int)sizeof text; c++)
        n += snprintf(text + n, sizeof text - (size_t)n, "|%d %.17g %.17g", cfg->index[c],
                      cfg->lo[c], cfg->hi[c]);
    snprintf(tag, len, "%016llx", (unsigned long long)fit_fnv(1469598103934665603ULL, text));
}

static void fit_usage(void)
{
    printf("usage: skyline fit --game G --players N --records FILE... --out FILE [options]\n"
           "Fits the weights of the game heuristic's evaluate to the results of recorded games\n"
           "(Texel tuning: a sigmoid of K * logit(evaluation) per player against the player's\n"
           "result; K first, then the weights by Adam; docs/FIT.md). Writes FILE, a parameter\n"
           "file for heuristic:params=FILE, greedy:params=FILE or mcts, after every epoch.\n"
           "  --game G --players N    the game and player count of every record\n"
           "  --records FILE...       game record files (JSON Lines); repeatable\n"
           "  --out FILE              the parameter file to write\n"
           "  --bot SPEC              whose weights to start from: heuristic, greedy or mcts with\n"
           "                          params=FILE or weight keys (default heuristic)\n"
           "  --start FILE            start from this parameter file (over --bot's)\n"
           "  --params SPECFILE       fit only these ('name start lo hi c' lines, as tune;\n"
           "                          c unused); default: every weight that changes evaluate\n"
           "  --every K               every K-th position of each game (default 1)\n"
           "  --holdout SHARE         share of positions held out, 0 to 0.9 (default 0.1)\n"
           "  --l2 X                  pull towards the start values (default 1e-4)\n"
           "  --epochs N              passes over the positions (default 20)\n"
           "  --batch N               positions per Adam step, 0: all (default 16384)\n"
           "  --lr X                  Adam step, share of each weight's range (default 0.01)\n"
           "  --loss mse|ce           squared error or cross-entropy (default mse)\n"
           "  --k X                   the link's scale K (default: fitted first)\n"
           "  --fd-step X             finite-difference step, share of the range (default 1e-3)\n"
           "  --threads N             threads (default: every core; results do not depend on it)\n"
           "  --seed S                fixes the held-out split and the order (default 1)\n"
           "  --checkpoint FILE       written after every epoch (default FILE.ckpt); removed\n"
           "                          when the fit ends\n"
           "  --resume                go on from the checkpoint (the same records and options)\n"
           "  --stop-after N          stop after N epochs of this run (resume later)\n");
}

/* Options of one fit run. */
typedef struct fit_opts {
    const char *records[FIT_MAX_RECORD_FILES]; /* record files */
    int record_count;                          /* their number */
    const char *bot_text;                      /* --bot */
    const char *spec_path;                     /* --params */
    const char *start_path;                    /* --start */
    const char *out;                           /* --out */
    const char *ckpt;                          /* --checkpoint */
    int every;                                 /* --every */
    bool resume;                               /* --resume */
    int stop_after;                            /* --stop-after (0: none) */
} fit_opts_t;

/* Parses the options into o, g and cfg (cfg's weights come later). */
static void fit_parse(int argc, char **argv, cli_game_t *g, fit_opts_t *o, fit_config_t *cfg)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_game_option(g, argc, argv, &i))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fit_usage();
            exit(0);
        } else if (!strcmp(a, "--records")) {
            cli_value(argc, argv, &i);
            for (i--; i + 1 < argc && strncmp(argv[i + 1], "--", 2); i++) {
                if (o->record_count == FIT_MAX_RECORD_FILES)
                    cli_die("at most %d record files", FIT_MAX_RECORD_FILES);
                o->records[o->record_count++] = argv[i + 1];
            }
        } else if (!strcmp(a, "--bot")) {
            o->bot_text = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--params")) {
            o->spec_path = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--start")) {
            o->start_path = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--out")) {
            o->out = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--checkpoint")) {
            o->ckpt = cli_value(argc, argv, &i);
        } else if (!strcmp(a, "--every")) {
            o->every = (int)cli_int(a, cli_value(argc, argv, &i), 1, 100000);
        } else if (!strcmp(a, "--holdout")) {
            cfg->holdout = fit_number(a, cli_value(argc, argv, &i), 0, 0.9);
        } else if (!strcmp(a, "--l2")) {
            cfg->l2 = fit_number(a, cli_value(argc, argv, &i), 0, 1e6);
        } else if (!strcmp(a, "--epochs")) {
            cfg->epochs = (int)cli_int(a, cli_value(argc, argv, &i), 1, 1000000);
        } else if (!strcmp(a, "--batch")) {
            cfg->batch = cli_int(a, cli_value(argc, argv, &i), 0, 1000000000L);
        } else if (!strcmp(a, "--lr")) {
            cfg->lr = fit_number(a, cli_value(argc, argv, &i), 1e-9, 1);
        } else if (!strcmp(a, "--fd-step")) {
            cfg->fd_step = fit_number(a, cli_value(argc, argv, &i), 1e-9, 0.1);
        } else if (!strcmp(a, "--k")) {
            cfg->k = fit_number(a, cli_value(argc, argv, &i), 1e-3, 1e3);
        } else if (!strcmp(a, "--loss")) {
            const char *v = cli_value(argc, argv, &i);
            char shown[INPUT_EXCERPT_MAX];
            if (!strcmp(v, "mse"))
                cfg->loss = FIT_LOSS_MSE;
            else if (!strcmp(v, "ce"))
                cfg->loss = FIT_LOSS_CE;
            else
                cli_die("--loss is mse or ce, not '%s'", cli_quote(v, shown));
        } else if (!strcmp(a, "--threads")) {
            cfg->threads = (int)cli_int(a, cli_value(argc, argv, &i), 1, 1024);
        } else if (!strcmp(a, "--resume")) {
            o->resume = true;
        } else if (!strcmp(a, "--stop-after")) {
            o->stop_after = (int)cli_int(a, cli_value(argc, argv, &i), 1, 1000000);
        } else {
            char shown[INPUT_EXCERPT_MAX];
            cli_die("fit: unknown option '%s' (see skyline fit --help)", cli_quote(a, shown));
        }
    }
    if (!o->record_count)
        cli_die("fit needs --records FILE... (game records to fit to)");
    if (!o->out)
        cli_die("fit needs --out FILE (the parameter file to write)");
    if (strlen(o->out) > 1000 || (o->ckpt && strlen(o->ckpt) > 1000))
        cli_die("--out and --checkpoint take paths of at most 1000 bytes");
}

int cmd_fit(int argc, char **argv)
{
    static cli_game_t g;
    static fit_opts_t o;
    static fit_config_t cfg;
    static fit_data_t d;
    static fit_run_t run;
    cli_game_init(&g);
    memset(&o, 0, sizeof o);
    o.bot_text = "heuristic";
    o.every = 1;
    fit_config_default(&cfg, NULL);
    cfg.threads = omp_get_num_procs();
    fit_parse(argc, argv, &g, &o, &cfg);
    cli_game_finish(&g);
    cfg.seed = g.opt.seed;
    const heuristic_t *h = heuristic_for(g.api);
    char h1[16], h2[16];
    if (!h)
        cli_die("%s has no heuristic to fit", g.api->name);
    cfg.heur = h;
    fit_start_weights(h, g.api, o.bot_text, o.start_path, &cfg.start);
    if (o.spec_path)
        fit_choose_spec(&cfg, o.spec_path, o.start_path != NULL);
    cli_lock_out(o.out); /* one fit (or tune) per --out */
    cli_check_params_out(o.out);
    char ckpt[1200], err[GAME_ERR_MAX];
    snprintf(ckpt, sizeof ckpt, "%s%s", o.ckpt ? o.ckpt : o.out, o.ckpt ? "" : ".ckpt");
    if (!o.resume && access(ckpt, F_OK) == 0)
        cli_die("%s exists: give --resume to go on with that fit, or remove it", ckpt);
    if (o.resume && access(ckpt, F_OK) != 0)
        cli_die("--resume: no checkpoint at %s", ckpt);
    fit_check_writable(o.out, "parameter file");
    fit_check_writable(ckpt, "checkpoint");

    double t0 = fit_now();
    clock_t c0 = clock();
    if (fit_data_init(&d, g.api, g.opt.players))
        cli_die("out of memory");
    d.threads = cfg.threads;
    for (int f = 0; f < o.record_count; f++)
        if (fit_data_add_file(&d, o.records[f], o.every, err, sizeof err))
            cli_die("%s", err);
    double t_load = fit_now() - t0, c_load = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (d.count == 0)
        cli_die("no positions in the records (%ld games read)", d.games);
    if (!o.spec_path)
        fit_choose_active(&cfg, &d);
    char tag[32];
    fit_tag(&cfg, &d, tag, sizeof tag);
    fit_config_t start_cfg = cfg;
    if (o.resume)
        start_cfg.k = 1; /* the checkpoint holds K: no need to fit it again */
    if (fit_start(&run, &d, &start_cfg, err, sizeof err))
        cli_die("%s", err);
    if (o.resume && fit_load(&run, &cfg, tag, ckpt, err, sizeof err))
        cli_die("%s", err);

    /* Every input is accepted: what the fit works on. */
    fprintf(stderr,
            "fit: %ld positions (%ld read, duplicates merged) from %ld games in %.1f s, "
            "%.1f s CPU (%.0f positions/s)",
            d.count, d.seen, d.games, t_load, c_load,
            (double)d.seen / (t_load > 0 ? t_load : 1e-9));
    if (d.skipped)
        fprintf(stderr, "; %ld forfeited games skipped", d.skipped);
    if (d.rebuilt)
        fprintf(stderr, "; %ld records rebuilt ply by ply", d.rebuilt);
    fprintf(stderr, "\nfit: %d of %d weights fitted:", cfg.count, h->param_count);
    for (int c = 0; c < cfg.count; c++)
        fprintf(stderr, " %s", h->params[cfg.index[c]].name);
    fprintf(stderr, "\n");
    if (o.resume)
        fprintf(stderr, "fit: resuming from %s after epoch %d of %d\n", ckpt, run.epoch,
                cfg.epochs);
    else
        fprintf(stderr,
                "fit: %ld training, %ld held-out positions; K = %.4g (%s); start loss train "
                "%.6f held-out %s\n",
                run.train_count, run.held_count, run.k, cfg.k > 0 ? "given" : "fitted",
                run.start_train, fit_held(&run, run.start_held, h1));
    heur_params_t w;
    for (int done = 0; run.epoch < cfg.epochs; done++) {
        if (o.stop_after && done == o.stop_after) {
            printf("stopped after %d epochs at %d of %d; go on with --resume\n", done, run.epoch,
                   cfg.epochs);
            return 0;
        }
        double t1 = fit_now();
        clock_t c1 = clock();
        fit_epoch(&run, &d, &cfg);
        fit_weights(&run, &cfg, &w);
        fit_write_params(h, &w, o.out);
        if (fit_save(&run, &cfg, tag, ckpt, err, sizeof err))
            cli_die("%s", err);
        fprintf(stderr, "fit: epoch %d/%d: loss train %.6f held-out %s (%.1f s, %.1f s CPU)\n",
                run.epoch, cfg.epochs, run.train_loss, fit_held(&run, run.held_loss, h1),
                fit_now() - t1, (double)(clock() - c1) / CLOCKS_PER_SEC);
    }
    fit_weights(&run, &cfg, &w);
    fit_write_params(h, &w, o.out);
    remove(ckpt);
    printf("K %.6g; held-out loss: start %s, fitted %s (%ld positions); train loss: start "
           "%.6f, fitted %.6f\n",
           run.k, fit_held(&run, run.start_held, h1), fit_held(&run, run.held_loss, h2),
           run.held_count, run.start_train, run.train_loss);
    printf("wrote %s (load it with heuristic:params=%s)\n", o.out, o.out);
    fit_run_free(&run);
    fit_data_free(&d);
    return 0;
}
