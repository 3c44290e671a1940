/* The C API for bots and the harness (api/skyline_api.h): choose, play, tournament. */
#include <jansson.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"
#include "arena/match.h"
#include "arena/tournament.h"
#include "bots/mcts_bot.h"
#include "core/lines.h"

struct sky_bot {
    bot_t *bot;     /* the bot */
    uint64_t seed;  /* its seed */
    long calls;     /* choices made so far: choice k is made after a reset to seed + k */
    void *searched; /* the state of its last choice (move texts of the info) */
};

/* A JSON number, or null for NaN or infinity (no games, no interval). */
static json_t *jreal(double x) { return isfinite(x) ? json_real(x) : json_null(); }

static void put_err(char *err, int errlen, const char *fmt, const char *arg)
{
    if (err && errlen > 0)
        snprintf(err, (size_t)errlen, fmt, arg);
}

sky_bot_t *sky_bot_new(const char *game, const char *spec, uint64_t seed, char *err, int errlen)
{
    const game_api_t *api = sky_game(game, err, errlen);
    if (!api)
        return NULL;
    sky_bot_t *b = calloc(1, sizeof *b);
    char e[GAME_ERR_MAX];
    if (!b || !(b->searched = malloc(api->state_size))) {
        free(b);
        put_err(err, errlen, "out of memory%s", "");
        return NULL;
    }
    b->bot = bot_new(api, spec, seed, e, sizeof e);
    if (!b->bot) {
        put_err(err, errlen, "%s", e);
        free(b->searched);
        free(b);
        return NULL;
    }
    b->seed = seed;
    return b;
}

void sky_bot_free(sky_bot_t *b)
{
    if (!b)
        return;
    bot_free(b->bot);
    free(b->searched);
    free(b);
}

int sky_bot_choose(sky_bot_t *b, const sky_state_t *st, char *buf, int len, char *err, int errlen)
{
    const game_api_t *api = sky_state_api(st);
    const void *s = sky_state_raw(st);
    if (api != b->bot->api) {
        put_err(err, errlen, "the bot plays %s", b->bot->api->name);
        return -1;
    }
    if (api->is_terminal(s)) {
        put_err(err, errlen, "the game is over: no move to choose%s", "");
        return -1;
    }
    /* Each choice stands alone (the state may come from anywhere): no tree kept. */
    bot_reset(b->bot, b->seed + (uint64_t)b->calls++);
    move_t m = bot_choose(b->bot, s);
    /* A fault is the caller's to see: the move is not the bot's (the next reset restarts). */
    char why[GAME_ERR_MAX];
    if (bot_faulted(b->bot, why, sizeof why)) {
        put_err(err, errlen, "%s", why);
        return -1;
    }
    api->copy(b->searched, s);
    char text[GAME_MOVE_TEXT_MAX];
    api->move_to_text(s, m, text);
    snprintf(buf, (size_t)len, "%s", text);
    return 0;
}

int sky_bot_set_evaluator(sky_bot_t *b, int players, sky_evaluator_fn fn, void *ctx, char *err,
                          int errlen)
{
    char e[GAME_ERR_MAX];
    if (!fn || mcts_bot_set_evaluator(b->bot, players, fn, ctx, e, sizeof e)) {
        put_err(err, errlen, "%s", fn ? e : "no evaluator function");
        return -1;
    }
    return 0;
}

char *sky_bot_info(const sky_bot_t *b)
{
    const mcts_stats_t *stats = mcts_bot_last_stats(b->bot);
    if (!stats || !b->calls)
        return sky_strdup("null");
    const game_api_t *api = b->bot->api;
    json_t *moves = json_array();
    double value = 0.0;
    for (int i = 0; i < stats->root_move_count; i++) {
        const mcts_move_stat_t *ms = &stats->root_moves[i];
        char text[GAME_MOVE_TEXT_MAX];
        api->move_to_text(b->searched, ms->move, text);
        json_array_append_new(moves, json_pack("{s:s, s:I, s:f}", "move", text, "visits",
                                               (json_int_t)ms->visits, "mean", ms->mean));
        if (i == 0)
            value = ms->mean;
    }
    json_t *o =
        json_pack("{s:I, s:f, s:I, s:i, s:f, s:o}", "iterations", (json_int_t)stats->iterations,
                  "value", value, "nodes", (json_int_t)stats->nodes, "max_depth", stats->max_depth,
                  "seconds", stats->seconds, "moves", moves);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

/* Splits the spec lines into specs[max]: the count, or -1 with err filled. */
static int split_specs(char *text, const char **specs, int max, char *err, int errlen)
{
    int n = 0;
    for (char *p = text; p && *p;) {
        char *end = strchr(p, '\n');
        if (end)
            *end = '\0';
        if (*p) {
            if (n == max) {
                if (err && errlen > 0)
                    snprintf(err, (size_t)errlen, "too many bots (at most %d)", max);
                return -1;
            }
            specs[n++] = p;
        }
        p = end ? end + 1 : NULL;
    }
    if (!n)
        put_err(err, errlen, "no bot given%s", "");
    return n ? n : -1;
}

/* Checks n bot specs for players seats (one per seat, or one for all) and the options,
   once here, so that no worker fails on a bad spec or option: n, or -1 with err filled. */
static int play_check(const game_api_t *api, const game_options_t *opt, const char **specs, int n,
                      char *err, int errlen)
{
    int players = opt->players;
    if (n > 0 && n != 1 && n != players) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "%d bots for %d players: give one per seat, or one", n,
                     players);
        n = -1;
    }
    char e[GAME_ERR_MAX];
    for (int s = 0; n > 0 && s < n; s++) {
        bot_t *b = bot_new(api, specs[s], 0, e, sizeof e);
        if (!b) {
            put_err(err, errlen, "%s", e);
            n = -1;
        }
        bot_free(b);
    }
    void *probe = n > 0 ? malloc(api->state_size) : NULL;
    if (probe && api->new_game(probe, opt, e, sizeof e)) {
        put_err(err, errlen, "%s", e);
        n = -1;
    }
    free(probe);
    return n;
}

/* Plays games seed, seed + 1, ... into res[games] on threads workers (0: one per core), the
   n specs seated in turn (or one for all): 1 if a game could not be played, else 0. */
static int play_games(const game_api_t *api, const game_options_t *opt, const char **specs, int n,
                      uint64_t seed, long games, int threads, match_result_t *res)
{
    int players = opt->players;
    int workers = threads > 0 ? threads : omp_get_num_procs();
    if (workers > games)
        workers = (int)games;
    int failed = 0;
#pragma omp parallel num_threads(workers)
    {
        bot_t *bots[GAME_MAX_PLAYERS] = {0};
        char terr[GAME_ERR_MAX];
        int ok = 1;
        for (int s = 0; s < players; s++) {
            bots[s] = bot_new(api, specs[n == 1 ? 0 : s], (uint64_t)s, terr, sizeof terr);
            ok = ok && bots[s];
        }
#pragma omp for schedule(dynamic, 1)
        for (long k = 0; k < games; k++) {
            game_options_t g = *opt;
            g.seed = seed + (uint64_t)k;
            if (!ok || match_play(api, &g, bots, false, &res[k], terr, sizeof terr)) {
                res[k].record = NULL;
#pragma omp atomic write
                failed = 1;
            }
        }
        for (int s = 0; s < players; s++)
            bot_free(bots[s]);
    }
    return failed;
}

/* One game's entry in sky_play's "games" list. */
static json_t *play_game_json(const game_api_t *api, const match_result_t *res, int players,
                              uint64_t seed)
{
    json_t *g = json_object(), *r = json_array(), *ranks = json_array();
    for (int s = 0; s < players; s++) {
        json_array_append_new(r, json_real(res->result[s]));
        json_array_append_new(ranks, json_integer(res->ranks[s]));
    }
    json_object_set_new(g, "seed", json_integer((json_int_t)seed));
    json_object_set_new(g, "result", r);
    json_object_set_new(g, "ranks", ranks);
    json_object_set_new(g, "moves", json_integer(res->moves));
    json_t *rr = json_object_get(res->record, "result");
    json_t *scores = api->score_key ? json_object_get(rr, api->score_key) : NULL;
    json_object_set(g, "scores", scores ? scores : json_null());
    return g;
}

/* Appends a record as one line to rec: -1 if the write failed, else 0 (a record that
   cannot be encoded is left out, as before). */
static int play_write_record(lines_file_t *rec, const json_t *record)
{
    char *line = json_dumps(record, JSON_COMPACT);
    int rc = 0;
    if (line) {
        size_t len = strlen(line);
        char *nl = realloc(line, len + 2);
        if (nl) {
            line = nl;
            memcpy(line + len, "\n", 2);
            rc = lines_file_write(rec, line, len + 1) ? -1 : 0;
        }
        free(line);
    }
    return rc;
}

char *sky_play(const char *game, int players, uint64_t seed, const char *options,
               const char *spec_text, long games, const char *record, int threads, char *err,
               int errlen)
{
    const game_api_t *api = sky_game(game, err, errlen);
    sky_options_t o;
    if (!api || sky_options_parse(api, players, seed, options, &o, err, errlen))
        return NULL;
    players = o.opt.players;
    if (games < 1) {
        put_err(err, errlen, "games must be at least 1%s", "");
        return NULL;
    }
    char *specs_buf = sky_strdup(spec_text ? spec_text : "random");
    const char *specs[GAME_MAX_PLAYERS];
    int n = specs_buf ? split_specs(specs_buf, specs, GAME_MAX_PLAYERS, err, errlen) : -1;
    n = play_check(api, &o.opt, specs, n, err, errlen);
    match_result_t *res = n > 0 ? calloc((size_t)games, sizeof *res) : NULL;
    if (!res) {
        free(specs_buf);
        return NULL;
    }
    int failed = play_games(api, &o.opt, specs, n, seed, games, threads, res);
    char e[GAME_ERR_MAX];
    json_t *out = json_object(), *list = json_array();
    json_object_set_new(out, "games", list);
    lines_file_t rec = {.fd = -1};
    if (!failed && record &&
        (lines_file_open(&rec, record, e, sizeof e) ||
         lines_file_check_records(&rec, e, sizeof e))) {
        put_err(err, errlen, "%s", e);
        failed = 2;
    }
    for (long k = 0; k < games; k++) {
        if (!failed) {
            json_array_append_new(list, play_game_json(api, &res[k], players, seed + (uint64_t)k));
            if (record && play_write_record(&rec, res[k].record)) {
                put_err(err, errlen, "cannot write to record file '%s'", record);
                failed = 2;
            }
        }
        json_decref(res[k].record);
    }
    if (record && lines_file_close(&rec) && !failed) {
        put_err(err, errlen, "cannot write to record file '%s'", record);
        failed = 2;
    }
    free(res);
    free(specs_buf);
    if (failed == 1)
        put_err(err, errlen, "a game could not be played%s", "");
    char *text = failed ? NULL : json_dumps(out, JSON_COMPACT);
    json_decref(out);
    return text;
}

char *sky_tournament(const char *game, int players, uint64_t seed, const char *options,
                     const char *spec_text, long games, const char *format, const char *out,
                     int workers, char *err, int errlen)
{
    const game_api_t *api = sky_game(game, err, errlen);
    sky_options_t o;
    if (!api || sky_options_parse(api, players, seed, options, &o, err, errlen))
        return NULL;
    if (games < 1 || games > TOURNAMENT_MAX_GAMES || !out || !*out) {
        put_err(err, errlen, "a tournament needs games >= 1 and a record file%s", "");
        return NULL;
    }
    tournament_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.api = api;
    cfg.opt = o.opt;
    cfg.games = games;
    cfg.shard_count = 1;
    cfg.out_path = out;
    if (!format || !strcmp(format, "roundrobin"))
        cfg.format = TOURNAMENT_ROUNDROBIN;
    else if (!strcmp(format, "gauntlet"))
        cfg.format = TOURNAMENT_GAUNTLET;
    else {
        put_err(err, errlen, "format must be roundrobin or gauntlet, not '%s'", format);
        return NULL;
    }
    char *specs_buf = sky_strdup(spec_text ? spec_text : "");
    int n = specs_buf ? split_specs(specs_buf, cfg.specs, TOURNAMENT_MAX_BOTS, err, errlen) : -1;
    if (n > 0 && n < 2) {
        put_err(err, errlen, "a tournament needs at least two bots%s", "");
        n = -1;
    }
    char e[GAME_ERR_MAX];
    int max_threads = 1;
    for (int s = 0; n > 0 && s < n; s++) {
        bot_t *b = bot_new(api, cfg.specs[s], 0, e, sizeof e);
        if (!b) {
            put_err(err, errlen, "%s", e);
            n = -1;
        } else if (b->threads > max_threads) {
            max_threads = b->threads;
        }
        bot_free(b);
    }
    if (n < 0) {
        free(specs_buf);
        return NULL;
    }
    cfg.bot_count = n;
    cfg.workers = workers > 0 ? workers : tournament_default_workers(max_threads);
    tournament_report_t rep;
    char run_err[1024];
    if (tournament_run(&cfg, &rep, run_err, sizeof run_err)) {
        put_err(err, errlen, "%s", run_err);
        free(specs_buf);
        return NULL;
    }
    json_t *bots = json_array();
    for (int i = 0; i < rep.table.bot_count; i++) {
        int id = rep.table.order[i];
        const rating_bot_t *rb = &rep.table.bots[id];
        json_t *b = json_pack("{s:s, s:i, s:I}", "spec", cfg.specs[id], "id", id, "games",
                              (json_int_t)rb->games);
        json_object_set_new(b, "result", jreal(rb->result));
        json_object_set_new(b, "result_ci95", jreal(rb->result_ci95));
        json_object_set_new(b, "mean_rank", jreal(rb->mean_rank));
        json_object_set_new(b, "elo", jreal(rb->elo));
        json_object_set_new(b, "elo_ci95", jreal(rb->elo_ci95));
        json_array_append_new(bots, b);
    }
    json_t *o2 =
        json_pack("{s:I, s:I, s:I, s:I, s:f, s:o}", "games", (json_int_t)rep.table.game_count,
                  "played", (json_int_t)rep.played, "resumed", (json_int_t)rep.resumed, "workers",
                  (json_int_t)rep.workers, "seconds", rep.seconds, "bots", bots);
    tournament_report_free(&rep);
    free(specs_buf);
    char *text = o2 ? json_dumps(o2, JSON_COMPACT) : NULL;
    json_decref(o2);
    return text;
}
