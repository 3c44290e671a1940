#include "tournament.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "arena/match.h"
#include "core/lines.h"
#include "core/record.h"
#include "core/textbuf.h"

/* A finished game in the done table: this bit, plus 3 bits of rank per seat. */
#define TOUR_DONE    0x8000u
#define TOUR_ERR_MAX 512

/* ---- Run state --------------------------------------------------------------------- */

/* A remotely played game's record waiting for the earlier ones, to keep index order. */
typedef struct tour_held {
    char *line;                  /* the record line, or NULL: not finished */
    int ranks[GAME_MAX_PLAYERS]; /* its ranks per seat */
    int forfeit;                 /* its forfeit seat, or -1 */
} tour_held_t;

typedef struct tour {
    const tournament_config_t *cfg;         /* what is run */
    tournament_schedule_t sched;            /* line-ups and seeds */
    char hash[TOURNAMENT_HASH_LEN + 1];     /* configuration hash */
    uint16_t *done;                         /* per game index < K: TOUR_DONE | packed ranks, or 0 */
    long *todo;                             /* game indices this run plays, ascending */
    long todo_count;                        /* their number */
    atomic_long next;                       /* next todo position to take */
    tour_held_t *held;                      /* remote players: records per todo position, or NULL */
    long held_next;                         /* the todo position to write next */
    atomic_bool stop;                       /* no new games: SPRT verdict or an error */
    pthread_mutex_t lock;                   /* guards everything below and the file */
    lines_file_t file;                      /* record file, locked, opened for appending */
    rating_key_t *keys;                     /* the games of the file's records, with lines */
    long key_count, key_cap;                /* their number and room */
    bool failed;                            /* an error happened; err holds it */
    char err[TOUR_ERR_MAX];                 /* the first error */
    double result_sum[TOURNAMENT_MAX_BOTS]; /* game results per bot (shard games done) */
    long seat_count[TOURNAMENT_MAX_BOTS];   /* seats per bot (shard games done) */
    long forfeits[TOURNAMENT_MAX_BOTS];     /* games forfeited per bot (shard games done) */
    long time_losses[TOURNAMENT_MAX_BOTS];  /* of those, on time (reason "timeout") */
    double clock_ms[TOURNAMENT_MAX_BOTS];   /* ms its moves took (records' "clock") */
    long clocked[TOURNAMENT_MAX_BOTS];      /* its seats under a time control */
    double score_sum[TOURNAMENT_MAX_BOTS];  /* game-specific scores per bot (shard games done) */
    long scored[TOURNAMENT_MAX_BOTS];       /* seats with a score per bot (shard games done) */
    long shard_games;                       /* games of [0, K) in the shard */
    long shard_done;                        /* of those, finished */
    long played;                            /* finished by this run */
    rating_sprt_t sprt;                     /* SPRT state */
    long sprt_next;                         /* next game index the SPRT waits for */
    long sprt_games;                        /* games fed to the SPRT */
    long sprt_stop;                         /* index of the verdict's game, or -1 */
    double start;                           /* monotonic start time */
    double last_progress;                   /* when progress was last shown */
    double last_sync;                       /* when the file was last fsync'ed */
    bot_stats_t stats[TOURNAMENT_MAX_BOTS]; /* the workers' bots' statistics, per bot */
} tour_t;

static double tour_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static bool tour_in_shard(const tour_t *t, long index)
{
    long block = index / t->cfg->opt.players;
    return block % t->cfg->shard_count == t->cfg->shard_index;
}

static void tour_rank_get(const tour_t *t, long index, int *ranks)
{
    for (int s = 0; s < t->cfg->opt.players; s++)
        ranks[s] = 1 + (int)((t->done[index] >> (3 * s)) & 7u);
}

/* Marks a game finished with its ranks (forfeit: the seat that forfeited it, or -1),
   scores (NULL: none) and record rec (for its clock; may be NULL) and adds it to the
   standings. Under the lock. */
static void tour_mark_done(tour_t *t, long index, const int *ranks, int forfeit,
                           const double *scores, const json_t *rec)
{
    int np = t->cfg->opt.players, bots[GAME_MAX_PLAYERS];
    uint16_t v = TOUR_DONE;
    for (int s = 0; s < np; s++)
        v |= (uint16_t)((unsigned)(ranks[s] - 1) << (3 * s));
    t->done[index] = v;
    uint64_t seed;
    tournament_schedule_game(&t->sched, index, &seed, bots);
    double res[GAME_MAX_PLAYERS];
    game_result_from_ranks(np, ranks, res);
    for (int s = 0; s < np; s++) {
        t->result_sum[bots[s]] += res[s];
        t->seat_count[bots[s]]++;
        if (scores) {
            t->score_sum[bots[s]] += scores[s];
            t->scored[bots[s]]++;
        }
    }
    if (forfeit >= 0)
        t->forfeits[bots[forfeit]]++;
    const char *why = json_string_value(json_object_get(json_object_get(rec, "forfeit"), "reason"));
    if (forfeit >= 0 && why && !strcmp(why, "timeout") && json_object_get(rec, "clock"))
        t->time_losses[bots[forfeit]]++;
    const json_t *used = json_object_get(json_object_get(rec, "clock"), "used_ms");
    for (int s = 0; s < np && json_array_size(used) == (size_t)np; s++) {
        t->clock_ms[bots[s]] += json_number_value(json_array_get(used, (size_t)s));
        t->clocked[bots[s]]++;
    }
    t->shard_done++;
}

/*
 * Two players: feeds finished blocks (a deal played twice, the seats swapped) to the SPRT
 * as game pairs (the pentanomial model) in index order while they are contiguous; a last
 * block cut short by an odd --games feeds nothing.
 */
static void tour_sprt_advance_pairs(tour_t *t)
{
    const tournament_config_t *cfg = t->cfg;
    while (t->sprt_stop < 0 && t->sprt_next + 1 < cfg->games) {
        long i = t->sprt_next;
        if (!tour_in_shard(t, i)) {
            t->sprt_next += 2;
            continue;
        }
        if (!(t->done[i] & TOUR_DONE) || !(t->done[i + 1] & TOUR_DONE))
            break;
        double o[2];
        int found = 0;
        for (int k = 0; k < 2; k++) {
            int bots[GAME_MAX_PLAYERS], ranks[GAME_MAX_PLAYERS];
            uint64_t seed;
            tournament_schedule_game(&t->sched, i + k, &seed, bots);
            tour_rank_get(t, i + k, ranks);
            if (bots[0] + bots[1] == 1 && bots[0] != bots[1]) { /* bots 0 and 1 */
                int a = bots[0] == 0 ? 0 : 1;
                o[k] = rating_pair_outcome(ranks[a], ranks[1 - a]);
                found++;
            }
        }
        if (found == 2) {
            rating_sprt_add_pair(&t->sprt, o[0], o[1]);
            t->sprt_games += 2;
        }
        t->sprt_next += 2;
        if (t->sprt.verdict) {
            t->sprt_stop = i + 1;
            atomic_store(&t->stop, true);
        }
    }
}

/* Feeds finished games to the SPRT in index order while they are contiguous. */
static void tour_sprt_advance(tour_t *t)
{
    const tournament_config_t *cfg = t->cfg;
    int np = cfg->opt.players;
    if (cfg->sprt && np == 2) {
        tour_sprt_advance_pairs(t);
        return;
    }
    while (cfg->sprt && t->sprt_stop < 0 && t->sprt_next < cfg->games) {
        long i = t->sprt_next;
        if (!tour_in_shard(t, i)) {
            t->sprt_next++;
            continue;
        }
        if (!(t->done[i] & TOUR_DONE))
            break;
        int bots[GAME_MAX_PLAYERS], ranks[GAME_MAX_PLAYERS];
        uint64_t seed;
        tournament_schedule_game(&t->sched, i, &seed, bots);
        tour_rank_get(t, i, ranks);
        double sum = 0;
        int pairs = 0;
        for (int a = 0; a < np; a++)
            for (int b = 0; b < np; b++)
                if (bots[a] == 0 && bots[b] == 1) {
                    double o = rating_pair_outcome(ranks[a], ranks[b]);
                    if (!cfg->sprt_per_game)
                        rating_sprt_add(&t->sprt, o);
                    sum += o;
                    pairs++;
                }
        if (pairs && cfg->sprt_per_game)
            rating_sprt_add(&t->sprt, sum > 0.5 * pairs ? 1.0 : sum < 0.5 * pairs ? 0.0 : 0.5);
        t->sprt_games += pairs > 0;
        t->sprt_next++;
        if (t->sprt.verdict) {
            t->sprt_stop = i;
            atomic_store(&t->stop, true);
        }
    }
}

/* ---- The record file --------------------------------------------------------------- */

/* Any spec: the seats are checked against the schedule, not counted (rating_game_from_record). */
static int tour_any_bot(void *ctx, const char *spec)
{
    (void)ctx;
    (void)spec;
    return 0;
}

/* Whether rec is game index of this tournament: its game, seed, seats and ranks (into rk). */
static bool tour_record_matches(const tour_t *t, const json_t *rec, long index, int *rk)
{
    json_t *places = json_object_get(json_object_get(rec, "tournament"), "bots"); /* absent
                                                                        from older files */
    const tournament_config_t *cfg = t->cfg;
    int np = cfg->opt.players, bots[GAME_MAX_PLAYERS];
    uint64_t seed;
    tournament_schedule_game(&t->sched, index, &seed, bots);
    if (cfg->openings) /* the deal is the block's opening's */
        seed = cfg->openings->seeds[index / np % cfg->openings->count];
    record_outcome_t o;
    record_outcome(rec, &o);
    bool ok = o.game && !strcmp(o.game, cfg->api->name) && o.has_seed && o.seed == seed &&
              o.players == np && o.seat_count == np && o.has_ranks;
    for (int s = 0; ok && s < np; s++) {
        ok = o.seats[s] && !strcmp(o.seats[s], cfg->specs[bots[s]]) &&
             (!places || (json_array_size(places) == (size_t)np &&
                          json_is_integer(json_array_get(places, (size_t)s)) &&
                          json_integer_value(json_array_get(places, (size_t)s)) == bots[s]));
        rk[s] = ok ? o.ranks[s] : 0;
    }
    return ok;
}

/* Checks one stored record as rate does, then against this tournament (the seed, seats and
   ranks of its index, whatever the index), and marks its game done. */
static int tour_load_record(tour_t *t, const char *line, long lineno, char *err, size_t errlen)
{
    const tournament_config_t *cfg = t->cfg;
    const char *path = cfg->out_path;
    json_t *rec = lines_record_parse(path, lineno, line, err, errlen);
    int rc = -1;
    if (!rec)
        return -1;
    json_t *tj = json_object_get(rec, "tournament");
    const char *hash = json_string_value(json_object_get(tj, "config"));
    json_t *ij = json_object_get(tj, "index");
    if (!hash || !json_is_integer(ij) || json_integer_value(ij) < 0) {
        snprintf(err, errlen,
                 "%s:%ld: a record without a tournament key; this file was not written by "
                 "skyline tournament, use another --out",
                 path, lineno);
        goto done;
    }
    if (strcmp(hash, t->hash)) {
        snprintf(err, errlen,
                 "%s holds games of another tournament configuration (config %s, this one %s): "
                 "use another --out or the same options",
                 path, hash, t->hash);
        goto done;
    }
    char why[GAME_ERR_MAX];
    rating_game_t g;
    if (rating_game_from_record(rec, tour_any_bot, NULL, &g, why, sizeof why)) {
        snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
        goto done;
    }
    /* An index up to the largest --games: later ones are kept, not counted. */
    json_int_t index = json_integer_value(ij);
    int rk[GAME_MAX_PLAYERS];
    if (index >= TOURNAMENT_MAX_GAMES || !tour_record_matches(t, rec, (long)index, rk)) {
        snprintf(err, errlen,
                 "%s:%ld: game %lld's seed, seats or ranks do not match this tournament", path,
                 lineno, (long long)index);
        goto done;
    }
    if (rating_keys_add(&t->keys, &t->key_count, &t->key_cap, (long)index, lineno)) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if (index >= cfg->games) {
        rc = 0;
        goto done;
    }
    /* rating_game_from_record read the forfeit and the game's own scores (core/record.h). */
    int forfeit = g.forfeit ? g.forfeit_seat : -1;
    const double *scores = g.has_scores ? g.scores : NULL;
    if (!(t->done[index] & TOUR_DONE) && tour_in_shard(t, index))
        tour_mark_done(t, index, rk, forfeit, scores, rec);
    else if (!(t->done[index] & TOUR_DONE))
        t->done[index] = TOUR_DONE; /* another shard's game in this file: not replayed */
    rc = 0;
done:
    json_decref(rec);
    return rc;
}

/* Refuses a file that holds a game twice: rate would refuse it. */
static int tour_check_twice(tour_t *t, char *err, size_t errlen)
{
    const rating_key_t *a, *b;
    if (!rating_keys_twice(t->keys, t->key_count, &a, &b))
        return 0;
    snprintf(err, errlen, "game %ld of tournament %s is there twice (%s:%ld and %s:%ld)", b->index,
             t->hash, t->cfg->out_path, a->line, t->cfg->out_path, b->line);
    return -1;
}

/*
 * Opens and locks the file (created if new), then reads its finished games; a last line cut
 * short (no newline: the program was killed while writing it) is cut off.
 */
static int tour_open_file(tour_t *t, char *err, size_t errlen)
{
    const char *path = t->cfg->out_path;
    if (lines_file_open(&t->file, path, err, errlen))
        return -1;
    lines_reader_t r;
    lines_init(&r, t->file.in);
    int rc, got;
    while ((rc = got = lines_next(&r)) > 0 && !r.cut) {
        if (r.len == 0)
            continue;
        if ((rc = tour_load_record(t, r.text, r.lineno, err, errlen)))
            break;
    }
    if (got < 0)
        lines_error(&r, path, err, errlen);
    lines_free(&r);
    if (rc < 0 || tour_check_twice(t, err, errlen))
        return -1;
    return lines_file_drop_cut(&t->file, err, errlen);
}

/* ---- Progress ---------------------------------------------------------------------- */

static int tour_terminal_width(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        return ws.ws_col;
    return 80;
}

static void tour_format_duration(double s, char *buf, size_t len)
{
    long v = (long)(s + 0.5);
    if (v >= 3600)
        snprintf(buf, len, "%ldh%02ldm", v / 3600, v / 60 % 60);
    else if (v >= 60)
        snprintf(buf, len, "%ldm%02lds", v / 60, v % 60);
    else
        snprintf(buf, len, "%lds", v);
}

/* The labels of the progress line, once at the start: "bot A: SPEC", one a line. */
static void tour_progress_legend(const tour_t *t)
{
    if (!t->cfg->progress)
        return;
    for (int b = 0; b < t->cfg->bot_count; b++) {
        char label[RATING_LABEL_MAX];
        rating_label(b, label);
        fprintf(stderr, "bot %s: %s\n", label, t->cfg->specs[b]);
    }
    fflush(stderr);
}

/* One progress line: games, speed, ETA, standings by mean result (bot labels), SPRT.
   Under the lock. */
static void tour_progress(tour_t *t, bool final)
{
    const tournament_config_t *cfg = t->cfg;
    double now = tour_now();
    if (!cfg->progress)
        return;
    if (!final && now - t->last_progress < (cfg->progress == 2 ? 0.25 : cfg->progress_interval))
        return;
    t->last_progress = now;
    char line[1024];
    double el = now - t->start, rate = el > 0 ? (double)t->played / el : 0;
    long left = t->todo_count - t->played;
    char eta[32] = "-";
    if (rate > 0 && !atomic_load(&t->stop))
        tour_format_duration((double)left / rate, eta, sizeof eta);
    textbuf_t tb;
    textbuf_init(&tb, line, sizeof line, 0);
    textbuf_printf(&tb, "games %ld/%ld  %.2f games/s  ETA %s ", t->shard_done, t->shard_games, rate,
                   eta);
    if (cfg->sprt)
        textbuf_printf(&tb, "| LLR %.2f [%.2f, %.2f] %s ", t->sprt.llr, t->sprt.lower,
                       t->sprt.upper, rating_sprt_verdict_text(t->sprt.verdict));
    textbuf_printf(&tb, "|");
    /* Standings, best mean result first. */
    int order[TOURNAMENT_MAX_BOTS];
    double mean[TOURNAMENT_MAX_BOTS];
    for (int i = 0; i < cfg->bot_count; i++) {
        mean[i] = t->seat_count[i] ? t->result_sum[i] / (double)t->seat_count[i] : 0;
        int k = i;
        while (k > 0 && mean[order[k - 1]] < mean[i]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    for (int k = 0; k < cfg->bot_count && tb.len < sizeof line - 40; k++) {
        char label[RATING_LABEL_MAX];
        rating_label(order[k], label);
        if (t->seat_count[order[k]])
            textbuf_printf(&tb, " %s %.3f", label, mean[order[k]]);
        else
            textbuf_printf(&tb, " %s -", label);
    }
    int n = (int)tb.len;
    if (cfg->progress == 2) {
        int w = tour_terminal_width() - 1;
        if (n > w)
            line[w] = 0;
        fprintf(stderr, "\r\033[K%s%s", line, final ? "\n" : "");
    } else {
        fprintf(stderr, "%s\n", line);
    }
    fflush(stderr);
}

/* ---- Workers ----------------------------------------------------------------------- */

/* One worker: its bots, made on first use, one per (seat, bot) so a bot may sit twice. */
typedef struct tour_worker {
    tour_t *t;              /* the shared run */
    int slot;               /* its number, 0 .. workers-1 */
    tournament_bots_t bots; /* its bot instances */
} tour_worker_t;

static void tour_fail(tour_t *t, const char *msg)
{
    pthread_mutex_lock(&t->lock);
    if (!t->failed) {
        t->failed = true;
        snprintf(t->err, sizeof t->err, "%s", msg);
    }
    atomic_store(&t->stop, true);
    pthread_mutex_unlock(&t->lock);
}

int tournament_game_play(const tournament_config_t *cfg, const tournament_schedule_t *sched,
                         const char *hash, tournament_bots_t cache, long index, char **line,
                         int *ranks, int *forfeit, char *err, size_t errlen)
{
    int np = cfg->opt.players, seat_bots[GAME_MAX_PLAYERS];
    game_options_t opt = cfg->opt;
    tournament_schedule_game(sched, index, &opt.seed, seat_bots);
    bot_t *bots[GAME_MAX_PLAYERS];
    for (int s = 0; s < np; s++) {
        bot_t **b = &cache[s][seat_bots[s]];
        if (!*b && !(*b = bot_new(cfg->api, cfg->specs[seat_bots[s]], 0, err, errlen)))
            return -1;
        bots[s] = *b;
    }
    match_setup_t setup = {.clock = cfg->clock};
    long opening = -1;
    if (cfg->openings) { /* the block's opening: its deal and moves; bots seeded by the block */
        opening = index / np % cfg->openings->count;
        setup.bot_seed_given = true;
        setup.bot_seed = opt.seed;
        opt.seed = cfg->openings->seeds[opening];
        setup.opening = cfg->openings->moves[opening];
        setup.opening_plies = cfg->openings->plies[opening];
    }
    match_result_t r;
    if (match_play_setup(cfg->api, &opt, bots, false, cfg->record_search, &setup, &r, err, errlen))
        return -1;
    /* "bots": each seat's place in the --bot list, so that every reader labels the bots in
       --bot order (rating_labels). */
    json_t *places = json_array();
    for (int s = 0; s < np; s++)
        json_array_append_new(places, json_integer(seat_bots[s]));
    json_t *tj =
        json_pack("{s:I,s:s,s:o}", "index", (json_int_t)index, "config", hash, "bots", places);
    if (opening >= 0) /* the opening's line among the file's openings, from 0 */
        json_object_set_new(tj, "opening", json_integer(opening));
    json_object_set_new(r.record, "tournament", tj);
    char *text = json_dumps(r.record, JSON_COMPACT);
    json_decref(r.record);
    size_t len = text ? strlen(text) : 0;
    char *out = text ? realloc(text, len + 2) : NULL;
    if (!out) {
        free(text);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    out[len] = '\n';
    out[len + 1] = 0;
    *line = out;
    memcpy(ranks, r.ranks, sizeof *ranks * (size_t)np);
    *forfeit = r.forfeit_seat;
    return 0;
}

/* Appends a finished game's record and counts it: 0, or -1 with err. Under the lock. */
static int tour_write_game(tour_t *t, long index, const char *line, const int *ranks, int forfeit,
                           char *err, size_t errlen)
{
    if (lines_file_write(&t->file, line, strlen(line))) {
        snprintf(err, errlen, "cannot write to record file '%s': %s", t->cfg->out_path,
                 strerror(errno));
        return -1;
    }
    double now = tour_now();
    if (now - t->last_sync >= 1.0) {
        fsync(t->file.fd);
        t->last_sync = now;
    }
    json_t *rec = json_loads(line, 0, NULL);
    record_outcome_t o;
    record_outcome(rec, &o); /* the game's own scores (core/record.h) */
    tour_mark_done(t, index, ranks, forfeit, rec && o.has_scores > 0 ? o.scores : NULL, rec);
    json_decref(rec);
    t->played++;
    tour_sprt_advance(t);
    tour_progress(t, false);
    return 0;
}

/* Plays the game at todo position pos (here or remotely) and appends its record, at once
   or, with remote players, once every earlier position's record is written; 0, or -1
   after tour_fail. */
static int tour_play_game(tour_worker_t *w, long pos)
{
    tour_t *t = w->t;
    const tournament_config_t *cfg = t->cfg;
    long index = t->todo[pos];
    char err[TOUR_ERR_MAX], *line = NULL;
    int ranks[GAME_MAX_PLAYERS], forfeit = -1;
    int got = cfg->remote ? cfg->remote->play(cfg->remote->ctx, w->slot, index, &line, ranks,
                                              &forfeit, err, sizeof err)
                          : tournament_game_play(cfg, &t->sched, t->hash, w->bots, index, &line,
                                                 ranks, &forfeit, err, sizeof err);
    if (got) {
        tour_fail(t, err);
        return -1;
    }
    int rc = 0;
    pthread_mutex_lock(&t->lock);
    if (!t->held) {
        rc = tour_write_game(t, index, line, ranks, forfeit, err, sizeof err);
        free(line);
    } else {
        tour_held_t *h = &t->held[pos];
        h->line = line;
        memcpy(h->ranks, ranks, sizeof h->ranks);
        h->forfeit = forfeit;
        while (rc == 0 && t->held_next < t->todo_count && t->held[t->held_next].line) {
            h = &t->held[t->held_next++];
            rc = tour_write_game(t, t->todo[t->held_next - 1], h->line, h->ranks, h->forfeit, err,
                                 sizeof err);
            free(h->line);
            h->line = NULL;
        }
    }
    pthread_mutex_unlock(&t->lock);
    if (rc)
        tour_fail(t, err);
    return rc;
}

static void *tour_worker_main(void *arg)
{
    tour_worker_t *w = arg;
    tour_t *t = w->t;
    while (!atomic_load(&t->stop)) {
        long j = atomic_fetch_add(&t->next, 1);
        if (j >= t->todo_count || tour_play_game(w, j))
            break;
    }
    for (int s = 0; s < GAME_MAX_PLAYERS; s++)
        for (int b = 0; b < TOURNAMENT_MAX_BOTS; b++) {
            if (w->bots[s][b]) {
                pthread_mutex_lock(&t->lock);
                bot_stats_add(&t->stats[b], w->bots[s][b]);
                pthread_mutex_unlock(&t->lock);
            }
            bot_free(w->bots[s][b]);
        }
    return NULL;
}

/* ---- The run ----------------------------------------------------------------------- */

/* Standings over the shard's finished games, for the report. */
static int tour_report_table(tour_t *t, tournament_report_t *rep)
{
    const tournament_config_t *cfg = t->cfg;
    rating_game_t *games = malloc(sizeof *games * (size_t)(t->shard_done ? t->shard_done : 1));
    if (!games)
        return -1;
    long n = 0;
    for (long i = 0; i < cfg->games; i++) {
        if (!(t->done[i] & TOUR_DONE) || !tour_in_shard(t, i))
            continue;
        rating_game_t *g = &games[n++];
        memset(g, 0, sizeof *g);
        g->players = cfg->opt.players;
        uint64_t seed;
        tournament_schedule_game(&t->sched, i, &seed, g->bots);
        tour_rank_get(t, i, g->ranks);
        for (int s = 0; s < g->players; s++)
            g->listed[s] = g->bots[s] + 1;
        g->keyed = true;
        g->config = strtoull(t->hash, NULL, 16);
        g->index = i;
    }
    /* The rule and resamples of skyline rate, over the games in index order as rate
       sorts them: rate on the file prints the same ratings and intervals. */
    int rc = rating_table_compute(games, n, cfg->bot_count, RATING_ANCHOR_MEAN,
                                  RATING_BOOTSTRAP_DEFAULT, RATING_BOOTSTRAP_SEED, &rep->table);
    for (int b = 0; rc == 0 && b < cfg->bot_count; b++) {
        rep->table.bots[b].forfeits = t->forfeits[b];
        rep->table.bots[b].time_losses = t->time_losses[b];
        rep->table.bots[b].clock_s = t->clock_ms[b] / 1000.0;
        rep->table.bots[b].clocked = t->clocked[b];
        rep->table.bots[b].scored = t->scored[b];
        rep->table.bots[b].mean_score = t->scored[b] ? t->score_sum[b] / (double)t->scored[b] : NAN;
    }
    if (rc == 0) { /* kept for the game-pair table */
        rep->games = games;
        rep->game_count = n;
    } else {
        free(games);
    }
    return rc;
}

static int tour_start(tour_t *t, char *err, size_t errlen)
{
    const tournament_config_t *cfg = t->cfg;
    if (tournament_schedule_init(&t->sched, cfg->bot_count, cfg->opt.players, cfg->format,
                                 cfg->opt.seed, err, errlen))
        return -1;
    tournament_config_hash(cfg, t->hash);
    t->done = calloc((size_t)cfg->games, sizeof *t->done);
    t->todo = malloc(sizeof *t->todo * (size_t)cfg->games);
    if (cfg->remote)
        t->held = calloc((size_t)cfg->games, sizeof *t->held);
    if (!t->done || !t->todo || (cfg->remote && !t->held)) {
        snprintf(err, errlen, "out of memory for %ld games", cfg->games);
        return -1;
    }
    if (cfg->sprt) {
        t->sprt = cfg->sprt_config;
        rating_sprt_init(&t->sprt, t->sprt.elo0, t->sprt.elo1, t->sprt.alpha, t->sprt.beta);
    }
    if (tour_open_file(t, err, errlen))
        return -1;
    for (long i = 0; i < cfg->games; i++)
        if (tour_in_shard(t, i)) {
            t->shard_games++;
            if (!(t->done[i] & TOUR_DONE))
                t->todo[t->todo_count++] = i;
        }
    /* Finished games may already settle the SPRT: then nothing is played. */
    tour_sprt_advance(t);
    tour_progress_legend(t);
    return 0;
}

int tournament_run(const tournament_config_t *cfg, tournament_report_t *rep, char *err,
                   size_t errlen)
{
    memset(rep, 0, sizeof *rep);
    rep->sprt_stop_index = -1;
    tour_t *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    t->cfg = cfg;
    t->file.fd = -1;
    t->sprt_stop = -1;
    atomic_init(&t->next, 0);
    atomic_init(&t->stop, false);
    pthread_mutex_init(&t->lock, NULL);
    int rc = -1;
    if (tour_start(t, err, errlen))
        goto done;
    long resumed = t->shard_done;
    int workers = cfg->workers > 0 ? cfg->workers : 1;
    if (workers > t->todo_count)
        workers = t->todo_count > 0 ? (int)t->todo_count : 1;
    t->start = t->last_sync = tour_now();
    t->last_progress = cfg->progress == 2 ? 0 : t->start;
    tour_worker_t *w = calloc((size_t)workers, sizeof *w);
    pthread_t *th = calloc((size_t)workers, sizeof *th);
    int started = 0;
    if (w && th && !atomic_load(&t->stop) && t->todo_count > 0) {
        for (; started < workers; started++) {
            w[started].t = t;
            w[started].slot = started;
            if (pthread_create(&th[started], NULL, tour_worker_main, &w[started]))
                break;
        }
        if (started == 0)
            tour_fail(t, "cannot start worker threads");
        for (int k = 0; k < started; k++)
            pthread_join(th[k], NULL);
    } else if (!w || !th) {
        tour_fail(t, "out of memory");
    }
    free(w);
    free(th);
    if (t->file.fd >= 0 && fsync(t->file.fd) && errno != EINVAL && !t->failed)
        tour_fail(t, "cannot flush the record file to disk");
    tour_progress(t, true);
    if (t->failed) {
        snprintf(err, errlen, "%s", t->err);
        goto done;
    }
    rep->shard_games = t->shard_games;
    rep->resumed = resumed;
    rep->played = t->played;
    rep->workers = started ? started : workers;
    rep->seconds = tour_now() - t->start;
    rep->sprt = t->sprt;
    rep->sprt_games = t->sprt_games;
    rep->sprt_stop_index = t->sprt_stop;
    memcpy(rep->hash, t->hash, sizeof rep->hash);
    memcpy(rep->stats, t->stats, sizeof rep->stats);
    if (tour_report_table(t, rep)) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    rc = 0;
done:
    lines_file_close(&t->file);
    pthread_mutex_destroy(&t->lock);
    tournament_schedule_free(&t->sched);
    for (long j = 0; t->held && j < t->todo_count; j++)
        free(t->held[j].line);
    free(t->held);
    free(t->done);
    free(t->todo);
    free(t->keys);
    free(t);
    return rc;
}
