/* Search quality per move against a reference search (arena/quality.h). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena/config_options.h"
#include "arena/quality.h"
#include "bots/bot.h"
#include "core/lines.h"
#include "core/rng.h"
#include "core/version.h"
#include "search/mcts.h"

/* Where a position comes from: the game (0-based, seed opt.seed + game) and its ply. */
typedef struct quality_origin {
    int game; /* game index among cfg->games */
    int ply;  /* plies played before the position */
} quality_origin_t;

/* Positions with 2+ legal moves from cfg->games games of cfg->from in every seat, with
   their origins. */
static int quality_positions(const quality_config_t *cfg, unsigned char **out,
                             quality_origin_t **origins, int *count, char *err, size_t errlen)
{
    const game_api_t *api = cfg->api;
    bot_t *b = bot_new(api, cfg->from, 0, err, errlen);
    unsigned char *s = malloc(api->state_size);
    unsigned char *undo = malloc(api->undo_size);
    unsigned char *list = NULL;
    quality_origin_t *from = NULL;
    int n = 0, cap = 0, rc = -1;
    move_t moves[GAME_MAX_MOVES];
    if (!b || !s || !undo) {
        if (b)
            snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (int g = 0; g < cfg->games; g++) {
        game_options_t o = cfg->opt;
        o.seed = cfg->opt.seed + (uint64_t)g;
        if (api->new_game(s, &o, err, errlen))
            goto done;
        bot_reset(b, rng_mix64(o.seed));
        for (int ply = 0; !api->is_terminal(s); ply++) {
            if (ply % cfg->every == cfg->every / 2 && api->gen_moves(s, moves) > 1) {
                if (n == cap) {
                    cap = cap ? 2 * cap : 256;
                    unsigned char *l = realloc(list, (size_t)cap * api->state_size);
                    if (l)
                        list = l;
                    quality_origin_t *f = realloc(from, (size_t)cap * sizeof *f);
                    if (f)
                        from = f;
                    if (!l || !f) {
                        snprintf(err, errlen, "out of memory");
                        goto done;
                    }
                }
                from[n].game = g;
                from[n].ply = ply;
                memcpy(list + (size_t)n++ * api->state_size, s, api->state_size);
            }
            move_t m = bot_choose(b, s);
            char why[GAME_ERR_MAX];
            if (bot_faulted(b, why, sizeof why)) {
                snprintf(err, errlen, "--from: %s in game %d", why, g);
                goto done;
            }
            bot_observe(b, s, m);
            api->make(s, m, undo);
        }
    }
    rc = 0;
done:
    bot_free(b);
    free(s);
    free(undo);
    if (rc) {
        free(list);
        free(from);
        list = NULL;
        from = NULL;
        n = 0;
    }
    *out = list;
    *origins = from;
    *count = n;
    return rc;
}

/*
 * The header line that a results file must start with. Every line of the file is one JSON
 * object whose "type" says what it is: "header" (this, the first line) or "position".
 */
static json_t *quality_header(const quality_config_t *cfg)
{
    json_t *bots = json_array();
    for (int b = 0; b < cfg->bot_count; b++)
        json_array_append_new(bots, json_string(cfg->specs[b]));
    /* "engine" names the writer; a resume by another version may go on (it is not compared). */
    config_options_t o;
    config_options_read(&cfg->opt, &o);
    json_t *extra = NULL; /* options other than the board, only if there are some */
    for (int i = 0; i < o.extra_count; i++) {
        if (!extra)
            extra = json_array();
        json_array_append_new(extra, json_string(o.extra[i]));
    }
    return json_pack("{s:s,s:s,s:i,s:I,s:s?,s:o*,s:i,s:i,s:i,s:s,s:s,s:o,s:s}", "type", "header",
                     "game", cfg->api->name, "players", cfg->opt.players, "seed",
                     (json_int_t)cfg->opt.seed, "board", o.board, "options", extra, "games",
                     cfg->games, "every", cfg->every, "repeats", cfg->repeats, "from", cfg->from,
                     "ref", cfg->ref, "bots", bots, "engine", skyline_engine());
}

/* One position's line: where it comes from (game index, ply, hash), then per repeat, per
   bot, the regret, agreement, iterations, seconds. */
static json_t *quality_line(int position, quality_origin_t origin, uint64_t key, int repeats,
                            int bots, const double *regret, const double *agree,
                            const double *iters, const double *secs)
{
    json_t *r = json_array(), *a = json_array(), *it = json_array(), *sc = json_array();
    for (int k = 0; k < repeats; k++) {
        json_t *rr = json_array(), *ar = json_array(), *ir = json_array(), *sr = json_array();
        for (int b = 0; b < bots; b++) {
            size_t i = (size_t)k * (size_t)bots + (size_t)b;
            json_array_append_new(rr, json_real(regret[i]));
            json_array_append_new(ar, json_integer(agree[i] != 0.0));
            json_array_append_new(ir, json_integer((json_int_t)iters[i]));
            json_array_append_new(sr, json_real(secs[i]));
        }
        json_array_append_new(r, rr);
        json_array_append_new(a, ar);
        json_array_append_new(it, ir);
        json_array_append_new(sc, sr);
    }
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)key);
    return json_pack("{s:s,s:i,s:i,s:i,s:s,s:o,s:o,s:o,s:o}", "type", "position", "position",
                     position, "game", origin.game, "ply", origin.ply, "key", hex, "regret", r,
                     "agree", a, "iterations", it, "seconds", sc);
}

/* Whether a line is the position with this origin and key (api->hash), as written by
   quality_line. */
static bool quality_line_is(json_t *j, quality_origin_t origin, uint64_t key)
{
    const char *hex = json_string_value(json_object_get(j, "key"));
    json_t *g = json_object_get(j, "game"), *ply = json_object_get(j, "ply");
    return hex && strtoull(hex, NULL, 16) == key && json_is_integer(g) &&
           json_integer_value(g) == origin.game && json_is_integer(ply) &&
           json_integer_value(ply) == origin.ply;
}

/* Reads one position line back into the arrays: 0, or -1 if it is malformed. */
static int quality_line_read(json_t *j, int position, int repeats, int bots, double *regret,
                             double *agree, double *iters, double *secs)
{
    json_t *p = json_object_get(j, "position");
    const char *type = json_string_value(json_object_get(j, "type"));
    if (!type || strcmp(type, "position") || !json_is_integer(p) ||
        json_integer_value(p) != position)
        return -1;
    const char *keys[4] = {"regret", "agree", "iterations", "seconds"};
    double *dst[4] = {regret, agree, iters, secs};
    for (int f = 0; f < 4; f++) {
        json_t *rows = json_object_get(j, keys[f]);
        if (!json_is_array(rows) || (int)json_array_size(rows) != repeats)
            return -1;
        for (int k = 0; k < repeats; k++) {
            json_t *row = json_array_get(rows, (size_t)k);
            if (!json_is_array(row) || (int)json_array_size(row) != bots)
                return -1;
            for (int b = 0; b < bots; b++) {
                json_t *v = json_array_get(row, (size_t)b);
                if (!json_is_number(v))
                    return -1;
                dst[f][(size_t)k * (size_t)bots + (size_t)b] = json_number_value(v);
            }
        }
    }
    return 0;
}

/* Replaces the first line of the file at path by header (through a new file and a rename,
   so that an interruption leaves the old file or the new one). 0, or -1 with errno set. */
static int quality_rewrite_header(const char *path, json_t *header)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE *in = fopen(path, "r");
    FILE *out = in ? fopen(tmp, "w") : NULL;
    int rc = -1;
    if (in && out) {
        char *text = json_dumps(header, JSON_COMPACT);
        fprintf(out, "%s\n", text);
        free(text);
        int c;
        while ((c = fgetc(in)) != EOF && c != '\n')
            ;
        char buf[65536];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, n, out);
        rc = ferror(in) || ferror(out) ? -1 : 0;
    }
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        rc = -1;
    if (rc == 0)
        rc = rename(tmp, path);
    return rc;
}

/*
 * Opens cfg->out_path: checks or writes the header and reads back finished positions into
 * the report's arrays, each checked against the key of the position (pos) it is for.
 * Returns the file open for appending (NULL: error in err), *done the positions read.
 */
static FILE *quality_resume(const quality_config_t *cfg, const unsigned char *pos,
                            const quality_origin_t *origins, quality_report_t *rep, double *agree,
                            double *iters, double *secs, int positions, int *done, char *err,
                            size_t errlen)
{
    const game_api_t *api = cfg->api;
    *done = 0;
    json_t *header = quality_header(cfg);
    /* A file that is not there is a new run; one that cannot be read stops it. */
    FILE *in = lines_open(cfg->out_path, "quality file", 0, err, errlen);
    if (!in && errno != ENOENT) {
        json_decref(header);
        return NULL;
    }
    lines_reader_t lr;
    lines_init(&lr, in);
    int lineno = 0, rc = 0, got = 0;
    bool cut = false, extend = false;
    size_t per = (size_t)cfg->repeats * (size_t)cfg->bot_count;
    if (in) {
        while (rc == 0 && (got = lines_next(&lr)) > 0) {
            /* A last line cut short by an interruption is dropped and redone. */
            if (lr.cut) {
                cut = true;
                break;
            }
            lineno = (int)lr.lineno;
            json_error_t jerr;
            json_t *j = json_loads(lr.text, 0, &jerr);
            if (!j) {
                snprintf(err, errlen, "%s:%d: not JSON (%s)", cfg->out_path, lineno, jerr.text);
                rc = -1;
            } else if (lineno == 1 && json_object_get(j, "quality")) {
                snprintf(err, errlen,
                         "%s was written by an older skyline quality (its header has no "
                         "\"type\"): give another --out",
                         cfg->out_path);
                rc = -1;
            } else if (lineno == 1) {
                /* More games than the file's extend it: their first positions are the
                   file's, as positions are taken game by game. */
                json_t *a = json_deep_copy(j), *b = json_deep_copy(header);
                json_t *g = json_object_get(j, "games");
                json_object_del(a, "games");
                json_object_del(b, "games");
                json_object_del(a, "engine");
                json_object_del(b, "engine");
                if (!json_equal(a, b) || !json_is_integer(g)) {
                    snprintf(err, errlen,
                             "%s holds another measurement (game, seed, bots or counts "
                             "differ): give another --out",
                             cfg->out_path);
                    rc = -1;
                } else if (json_integer_value(g) > cfg->games) {
                    snprintf(err, errlen,
                             "%s holds positions of %lld games: give --games %lld or more",
                             cfg->out_path, (long long)json_integer_value(g),
                             (long long)json_integer_value(g));
                    rc = -1;
                } else {
                    extend = json_integer_value(g) < cfg->games;
                }
                json_decref(a);
                json_decref(b);
            } else if (*done >= positions ||
                       quality_line_read(j, *done, cfg->repeats, cfg->bot_count,
                                         rep->regret + (size_t)*done * per,
                                         agree + (size_t)*done * per, iters + (size_t)*done * per,
                                         secs + (size_t)*done * per)) {
                snprintf(err, errlen, "%s:%d: not the result of position %d", cfg->out_path, lineno,
                         *done);
                rc = -1;
            } else if (!quality_line_is(j, origins[*done],
                                        api->hash(pos + (size_t)*done * api->state_size))) {
                snprintf(err, errlen,
                         "%s:%d: position %d is not the one this run takes (game %d, ply %d; "
                         "the games that give positions must replay the same: no time budget "
                         "in --from)",
                         cfg->out_path, lineno, *done, origins[*done].game, origins[*done].ply);
                rc = -1;
            } else {
                ++*done;
            }
            json_decref(j);
        }
        if (rc == 0 && got < 0) {
            lines_error(&lr, cfg->out_path, err, errlen);
            rc = -1;
        }
        fclose(in);
    }
    if (rc == 0 && cut && truncate(cfg->out_path, (off_t)lr.whole) != 0) {
        snprintf(err, errlen, "cannot cut %s short: %s", cfg->out_path, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && extend && quality_rewrite_header(cfg->out_path, header) != 0) {
        snprintf(err, errlen, "cannot rewrite %s: %s", cfg->out_path, strerror(errno));
        rc = -1;
    }
    lines_free(&lr);
    FILE *out = NULL;
    if (rc == 0) {
        out = fopen(cfg->out_path, lineno == 0 ? "w" : "a");
        if (!out)
            snprintf(err, errlen, "cannot write %s: %s", cfg->out_path, strerror(errno));
        else if (lineno == 0) {
            char *text = json_dumps(header, JSON_COMPACT);
            fprintf(out, "%s\n", text);
            free(text);
            fflush(out);
        }
    }
    json_decref(header);
    return out;
}

/* Regret of move *m under the reference's root statistics st (best: its chosen move); m
   NULL (a forfeit: docs/PROTOCOL.md) counts as a move the reference never visited. */
static double quality_regret(const mcts_move_stat_t *st, int n, move_t best, const move_t *m)
{
    double best_mean = 0.0, worst = INFINITY, mean = NAN;
    for (int i = 0; i < n; i++) {
        if (st[i].move == best)
            best_mean = st[i].mean;
        if (st[i].visits > 0 && st[i].mean < worst)
            worst = st[i].mean;
        if (m && st[i].move == *m && st[i].visits > 0)
            mean = st[i].mean;
    }
    if (isnan(mean))
        mean = isinf(worst) ? best_mean : worst;
    return best_mean - mean;
}

/* Mean regret of bot b over the repeats at position p. */
static double position_regret(const quality_report_t *rep, int p, int b)
{
    double sum = 0.0;
    for (int k = 0; k < rep->repeats; k++)
        sum += rep->regret[((size_t)p * (size_t)rep->repeats + (size_t)k) * (size_t)rep->bot_count +
                           (size_t)b];
    return sum / rep->repeats;
}

/*
 * The samples of position p (state s): the reference's search, then each bot's move in each
 * repeat, scored against it, into regret, agree, iters and secs at index p * repeats * bots.
 */
static void quality_position(const quality_config_t *cfg, bot_t *ref, bot_t *const *bots, int p,
                             const unsigned char *s, double *regret, double *agree, double *iters,
                             double *secs)
{
    int nb = cfg->bot_count;
    size_t per = (size_t)cfg->repeats * (size_t)nb;
    mcts_move_stat_t stats[GAME_MAX_MOVES];
    bot_reset(ref, rng_mix64(cfg->opt.seed ^ (0x5eed0000ull + (uint64_t)p)));
    move_t best = bot_choose(ref, s);
    const mcts_stats_t *rs = bot_last_search(ref);
    int n = rs ? rs->root_move_count : 0;
    if (n > 0)
        memcpy(stats, rs->root_moves, (size_t)n * sizeof *stats);
    for (int k = 0; k < cfg->repeats; k++) {
        uint64_t seed = rng_mix64(cfg->opt.seed + 1000003ull * (uint64_t)k + (uint64_t)p);
        for (int b = 0; b < nb; b++) {
            size_t i = (size_t)p * per + (size_t)k * (size_t)nb + (size_t)b;
            bot_reset(bots[b], seed); /* a faulted ext: program is replaced here */
            move_t m = bot_choose(bots[b], s);
            const mcts_stats_t *st = bot_last_search(bots[b]);
            char why[GAME_ERR_MAX];
            bool fault = bot_faulted(bots[b], why, sizeof why);
            if (fault)
                fprintf(stderr,
                        "quality: %s at position %d; counted as a move unlike the "
                        "reference's\n",
                        why, p);
            regret[i] = quality_regret(stats, n, best, fault ? NULL : &m);
            agree[i] = !fault && m == best;
            iters[i] = st ? (double)st->iterations : 0.0;
            secs[i] = st ? st->seconds : 0.0;
        }
    }
}

/* The report's means and intervals from the samples of npos positions. */
static void quality_summarize(quality_report_t *rep, const double *agree, const double *iters,
                              const double *secs, int npos, int nb, int repeats)
{
    rep->positions = npos;
    rep->samples = (long)npos * repeats;
    rep->bot_count = nb;
    rep->repeats = repeats;
    for (int b = 0; b < nb; b++) {
        double sa = 0, sr = 0, si = 0, ss = 0;
        for (long k = 0; k < rep->samples; k++) {
            size_t i = (size_t)k * (size_t)nb + (size_t)b;
            sa += agree[i];
            sr += rep->regret[i];
            si += iters[i];
            ss += secs[i];
        }
        double ns = (double)rep->samples;
        rep->agree[b] = sa / ns;
        rep->mean_regret[b] = sr / ns;
        rep->iterations[b] = si / ns;
        rep->seconds[b] = ss / ns;
        /* Samples of one position are not independent: the interval is over positions. */
        double pm1 = 0, pm2 = 0;
        for (int p = 0; p < npos; p++) {
            double m = position_regret(rep, p, b) - position_regret(rep, p, 0);
            pm1 += m;
            pm2 += m * m;
        }
        double mean = pm1 / npos, var = pm2 / npos - mean * mean;
        rep->diff[b] = mean;
        rep->diff_ci95[b] = npos > 1 ? 1.96 * sqrt(var > 0 ? var / (npos - 1) : 0) : INFINITY;
    }
}

int quality_run(const quality_config_t *cfg, quality_report_t *rep, char *err, size_t errlen)
{
    memset(rep, 0, sizeof *rep);
    const game_api_t *api = cfg->api;
    int nb = cfg->bot_count;
    bot_t *ref = NULL, *bots[QUALITY_MAX_BOTS] = {0};
    unsigned char *pos = NULL;
    quality_origin_t *origins = NULL;
    double *agree = NULL, *iters = NULL, *secs = NULL;
    FILE *out = NULL;
    int rc = -1, npos = 0;
    if (nb < 1 || nb > QUALITY_MAX_BOTS || cfg->games < 1 || cfg->every < 1 || cfg->repeats < 1) {
        snprintf(err, errlen, "quality needs 1 to %d bots and positive counts", QUALITY_MAX_BOTS);
        return -1;
    }
    ref = bot_new(api, cfg->ref, 0, err, errlen);
    if (!ref)
        goto done;
    if (!ref->kind->last_search) { /* a searching kind (mcts): it scores every move */
        snprintf(err, errlen, "the reference must be an mcts bot (it scores every move), not '%s'",
                 cfg->ref);
        goto done;
    }
    for (int b = 0; b < nb; b++)
        if (!(bots[b] = bot_new(api, cfg->specs[b], 0, err, errlen)))
            goto done;
    if (quality_positions(cfg, &pos, &origins, &npos, err, errlen))
        goto done;
    if (npos == 0) {
        snprintf(err, errlen, "the games gave no position with two or more legal moves");
        goto done;
    }
    size_t per = (size_t)cfg->repeats * (size_t)nb;
    size_t total = (size_t)npos * per;
    rep->regret = malloc(total * sizeof *rep->regret);
    agree = malloc(total * sizeof *agree);
    iters = malloc(total * sizeof *iters);
    secs = malloc(total * sizeof *secs);
    if (!rep->regret || !agree || !iters || !secs) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    int first = 0;
    if (cfg->out_path) {
        out = quality_resume(cfg, pos, origins, rep, agree, iters, secs, npos, &first, err, errlen);
        if (!out)
            goto done;
        rep->resumed = first;
    }
    for (int p = first; p < npos; p++) {
        const unsigned char *s = pos + (size_t)p * api->state_size;
        quality_position(cfg, ref, bots, p, s, rep->regret, agree, iters, secs);
        if (out) {
            size_t o = (size_t)p * per;
            json_t *j = quality_line(p, origins[p], api->hash(s), cfg->repeats, nb, rep->regret + o,
                                     agree + o, iters + o, secs + o);
            char *text = json_dumps(j, JSON_COMPACT);
            fprintf(out, "%s\n", text);
            fflush(out);
            free(text);
            json_decref(j);
        }
        if (cfg->progress && ((p + 1) % cfg->progress == 0 || p + 1 == npos))
            fprintf(stderr, "quality: %d/%d positions\n", p + 1, npos);
    }
    quality_summarize(rep, agree, iters, secs, npos, nb, cfg->repeats);
    rc = 0;
done:
    if (out)
        fclose(out);
    bot_free(ref);
    for (int b = 0; b < nb && b < QUALITY_MAX_BOTS; b++)
        bot_free(bots[b]);
    free(pos);
    free(origins);
    free(agree);
    free(iters);
    free(secs);
    if (rc)
        quality_report_free(rep);
    return rc;
}

/* The speedup from the per-position mean regrets of bots P, S, D over a set of positions. */
static double speedup_of(const double *mp, const double *ms, const double *md, const int *idx,
                         int n)
{
    double p = 0, s = 0, d = 0;
    for (int i = 0; i < n; i++) {
        p += mp[idx[i]];
        s += ms[idx[i]];
        d += md[idx[i]];
    }
    if (s - d <= 0)
        return INFINITY;
    return pow(2.0, (s - p) / (s - d));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double quality_speedup(const quality_report_t *rep, double *lo, double *hi)
{
    int n = rep->positions, nb = rep->bot_count;
    *lo = *hi = NAN;
    if (nb < 3 || n < 1)
        return NAN;
    double *m = malloc((size_t)n * 3 * sizeof *m);
    int *idx = malloc((size_t)n * sizeof *idx);
    enum { RESAMPLES = 2000 };
    double *boot = malloc(RESAMPLES * sizeof *boot);
    if (!m || !idx || !boot) {
        free(m);
        free(idx);
        free(boot);
        return NAN;
    }
    for (int p = 0; p < n; p++) {
        idx[p] = p;
        for (int b = 0; b < 3; b++)
            m[b * n + p] = position_regret(rep, p, b);
    }
    double est = speedup_of(m, m + n, m + 2 * n, idx, n);
    pcg32_t rng;
    pcg32_seed(&rng, 42, 54);
    for (int r = 0; r < RESAMPLES; r++) {
        for (int p = 0; p < n; p++)
            idx[p] = (int)pcg32_bounded(&rng, (uint32_t)n);
        boot[r] = speedup_of(m, m + n, m + 2 * n, idx, n);
    }
    qsort(boot, RESAMPLES, sizeof *boot, cmp_double);
    *lo = boot[(int)(0.025 * RESAMPLES)];
    *hi = boot[(int)(0.975 * RESAMPLES) - 1];
    free(m);
    free(idx);
    free(boot);
    return est;
}

void quality_report_free(quality_report_t *rep)
{
    free(rep->regret);
    rep->regret = NULL;
}
