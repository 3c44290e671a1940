/*
 * Analyses in the browser (serve/serve.h): a position pasted as text (docs/NOTATION.md) or
 * a record's position at a ply, searched by a bot in its own thread. An mcts bot's search
 * is watched while it runs (its progress hook, search/mcts.h): its candidates so far are
 * published ANALYSE_UPDATES times over an iteration budget (iters=N: every N/UPDATES
 * iterations of its first thread), or at most every ANALYSE_EVERY_MS under a time budget,
 * and the page's bars grow with them. With net= the net's prior of each candidate and its
 * value of the position come along. Other bots publish their answer when done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/mcts_bot.h"
#include "core/record.h"
#include "search/mcts.h"
#include "serve/play.h"
#include "viewer/picture.h"

#define ANALYSE_KEPT     64
#define ANALYSE_UPDATES  16
#define ANALYSE_EVERY_MS 100
#define ANALYSE_TOP      12
/* The iterations each update is listed with, at most (a time budget may give more). */
#define ANALYSE_LISTED 64

typedef struct analysis {
    long id;
    const game_api_t *api;
    void *state;
    char position[GAME_POSITION_MAX];
    char spec_text[BOT_SPEC_TEXT_MAX];
    uint64_t seed;
    pthread_t thread;
    bool started;
    /* The search's thread alone. */
    bool throttled;   /* a time budget: updates at most every ANALYSE_EVERY_MS */
    double published; /* when the last update was published (seconds of the search) */
    move_t *moves;    /* the legal moves and the net's prior of each (with net=) */
    double *priors;
    int legal;
    /* Under serve_lock. */
    bool net; /* the bot has a net: priors and value are set */
    double value[GAME_MAX_PLAYERS];
    bool done;
    char error[SERVE_ERR_MAX];
    char choice[GAME_MOVE_TEXT_MAX];
    char describe[GAME_DESCRIBE_MAX];
    json_t *candidates;
    long iterations;
    int updates;                   /* published so far (the final one included) */
    long progress[ANALYSE_LISTED]; /* the iterations of the first ones */
    long version;
} analysis_t;

static analysis_t *analyses[ANALYSE_KEPT];
static long next_id = 1;
static int searches;

bool serve_search_take(void)
{
    pthread_mutex_lock(&serve_lock);
    bool ok = searches < serve_cfg.max_searches && !serve_stopping;
    searches += ok;
    pthread_mutex_unlock(&serve_lock);
    return ok;
}

void serve_search_give(void)
{
    pthread_mutex_lock(&serve_lock);
    searches--;
    pthread_mutex_unlock(&serve_lock);
}

static analysis_t *find(long id)
{
    for (int i = 0; i < ANALYSE_KEPT; i++)
        if (analyses[i] && analyses[i]->id == id)
            return analyses[i];
    return NULL;
}

long serve_analyse_version(long id)
{
    analysis_t *a = find(id);
    return a ? a->version : -1;
}

/* The candidates of st with, when the bot has a net, the net's prior of each. */
static json_t *candidates(const analysis_t *a, const mcts_stats_t *st)
{
    json_t *list = serve_candidates_of(st, a->api, a->state, ANALYSE_TOP);
    for (size_t i = 0; a->net && i < json_array_size(list); i++)
        for (int k = 0; k < a->legal; k++)
            if (a->moves[k] == st->root_moves[i].move)
                json_object_set_new(json_array_get(list, i), "prior", json_real(a->priors[k]));
    return list;
}

/* Publishes what the search found so far (list: its candidates): the page is told. */
static void publish(analysis_t *a, json_t *list, long iterations)
{
    pthread_mutex_lock(&serve_lock);
    json_decref(a->candidates);
    a->candidates = list;
    a->iterations = iterations;
    int n = a->updates < ANALYSE_LISTED ? a->updates : ANALYSE_LISTED;
    if (n == 0 || a->progress[n - 1] != iterations) { /* the end may repeat the last update */
        if (n < ANALYSE_LISTED)
            a->progress[n] = iterations;
        a->updates++;
    }
    a->version++;
    pthread_cond_broadcast(&serve_changed);
    pthread_mutex_unlock(&serve_lock);
}

/* The search's progress hook: an update, and the search ends early when the server stops. */
static bool progress(const mcts_stats_t *so_far, void *ctx)
{
    analysis_t *a = ctx;
    if (!a->throttled || so_far->seconds - a->published >= ANALYSE_EVERY_MS / 1000.0) {
        a->published = so_far->seconds;
        publish(a, candidates(a, so_far), so_far->iterations);
    }
    pthread_mutex_lock(&serve_lock);
    bool go_on = !serve_stopping;
    pthread_mutex_unlock(&serve_lock);
    return go_on;
}

/* Sets up the live view of b's search (an mcts bot; others answer once) and the net's
   prior and value (with net=). */
static void watch_search(analysis_t *a, bot_t *b)
{
    const mcts_options_t *o = mcts_bot_options(b);
    if (!o)
        return;
    a->throttled = o->iterations == 0;
    long every = a->throttled ? 256 : o->iterations / ((long)ANALYSE_UPDATES * o->threads);
    mcts_bot_set_progress(b, progress, a, every);
    a->moves = malloc(GAME_MAX_MOVES * sizeof *a->moves);
    a->priors = malloc(GAME_MAX_MOVES * sizeof *a->priors);
    double value[GAME_MAX_PLAYERS];
    a->legal = a->moves && a->priors ? a->api->gen_moves(a->state, a->moves) : 0;
    bool net =
        a->legal && mcts_bot_net_eval(b, a->state, a->moves, a->legal, a->priors, value) == 0;
    pthread_mutex_lock(&serve_lock);
    a->net = net;
    memcpy(a->value, value, sizeof value);
    pthread_mutex_unlock(&serve_lock);
}

static void *analyse_thread(void *arg)
{
    analysis_t *a = arg;
    char err[GAME_ERR_MAX];
    bot_t *b = bot_new(a->api, a->spec_text, a->seed, err, sizeof err);
    if (b)
        watch_search(a, b);
    move_t m = b ? bot_choose(b, a->state) : 0;
    bool faulted = !b || bot_faulted(b, err, sizeof err);
    const mcts_stats_t *st = faulted ? NULL : bot_last_search(b);
    json_t *list = faulted ? NULL : candidates(a, st);
    pthread_mutex_lock(&serve_lock);
    if (faulted) {
        snprintf(a->error, sizeof a->error, "%s", err);
    } else {
        a->api->move_to_text(a->state, m, a->choice);
        if (a->api->move_describe)
            a->api->move_describe(a->state, m, a->describe, sizeof a->describe);
    }
    pthread_mutex_unlock(&serve_lock);
    if (list)
        publish(a, list, st ? st->iterations : 0);
    bot_free(b);
    free(a->moves); /* only the search's thread used them: a kept analysis needs them no more */
    free(a->priors);
    a->moves = NULL;
    a->priors = NULL;
    /* The search slot is free before anyone can see the analysis done. */
    pthread_mutex_lock(&serve_lock);
    searches--;
    a->done = true;
    a->version++;
    pthread_cond_broadcast(&serve_changed);
    pthread_mutex_unlock(&serve_lock);
    return NULL;
}

static void analysis_free(analysis_t *a)
{
    if (a->started)
        pthread_join(a->thread, NULL);
    json_decref(a->candidates);
    free(a->moves);
    free(a->priors);
    free(a->state);
    free(a);
}

/* The position of rec after its first ply moves (-1: all) into s: 0, or -1 with err. */
static int record_state(const game_api_t *api, const json_t *rec, int ply, void *s, char *err,
                        size_t errlen)
{
    return record_position(api, rec, ply, s, err, errlen) < 0 ? -1 : 0; /* core/record.h */
}

/* The position text of a record's game at ply (seen by the player to move): 0, or -1. */
static int record_text(const serve_params_t *p, char *text, size_t len, char *err, size_t errlen,
                       int *status)
{
    long index, ply;
    if (serve_param_int(p, "index", 1, 1000000, 1, &index, err, errlen) ||
        serve_param_int(p, "ply", -1, 100000, -1, &ply, err, errlen))
        return -1;
    json_t **recs = calloc((size_t)index, sizeof *recs);
    int n =
        recs ? serve_files_read(serve_param(p, "file"), recs, (int)index, err, errlen, status) : -1;
    int rc = -1;
    *status = 400;
    if (n >= 0 && n < index)
        snprintf(err, errlen, "the file holds %d records, not %ld", n, index);
    const json_t *rec = n >= index ? recs[index - 1] : NULL;
    const game_api_t *api = rec ? game_find(json_string_value(json_object_get(rec, "game"))) : NULL;
    void *s = api ? malloc(api->state_size) : NULL;
    if (rec && (!api || !api->position_write)) {
        snprintf(err, errlen, "the record's game has no position notation");
    } else if (s && record_state(api, rec, (int)ply, s, err, errlen) == 0) {
        if (api->is_terminal(s)) {
            snprintf(err, errlen, "the game is over at that ply: nothing to analyse");
        } else {
            api->position_write(s, api->to_move(s), text, len);
            rc = 0;
        }
    }
    free(s);
    for (int i = 0; i < n; i++)
        json_decref(recs[i]);
    free(recs);
    return rc;
}

/* A new analysis from the request: NULL with err and status. */
static analysis_t *analysis_new(const serve_params_t *p, char *err, size_t errlen, int *status)
{
    static const char *const keys[] = {"position", "file", "index", "ply", "bot", "seed", NULL};
    *status = 400;
    const char *bot = serve_param(p, "bot");
    long seed;
    if (serve_params_only(p, keys, err, errlen) ||
        serve_param_int(p, "seed", 0, 1L << 62, 1, &seed, err, errlen))
        return NULL;
    if (!bot || !!serve_param(p, "position") == !!serve_param(p, "file")) {
        snprintf(err, errlen, bot ? "give one of position and file" : "missing parameter bot");
        return NULL;
    }
    analysis_t *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (serve_param(p, "position"))
        snprintf(a->position, sizeof a->position, "%s", serve_param(p, "position"));
    else if (record_text(p, a->position, sizeof a->position, err, errlen, status))
        goto fail;
    int view;
    a->state = game_position_read(a->position, NULL, (uint64_t)seed, &a->api, &view, err, errlen);
    if (!a->state)
        goto fail;
    if (a->api->is_terminal(a->state)) {
        snprintf(err, errlen, "the game is over: nothing to analyse");
        goto fail;
    }
    int mover = a->api->to_move(a->state);
    if (!game_position_shows_all(a->position, NULL, mover)) {
        snprintf(err, errlen,
                 "the position leaves what P%d, to move, sees to chance (give P%d's "
                 "view)",
                 mover + 1, mover + 1);
        goto fail;
    }
    if (serve_spec_allowed(bot, err, errlen))
        goto fail;
    bot_t *probe = bot_new(a->api, bot, (uint64_t)seed, err, errlen);
    if (!probe)
        goto fail;
    bot_free(probe);
    snprintf(a->spec_text, sizeof a->spec_text, "%s", bot);
    a->seed = (uint64_t)seed;
    return a;
fail:
    free(a->state);
    free(a);
    return NULL;
}

void serve_analyse_new(const serve_params_t *p, serve_reply_t *r)
{
    char err[SERVE_ERR_MAX];
    int status;
    analysis_t *a = analysis_new(p, err, sizeof err, &status);
    if (!a) {
        serve_reply_error(r, status, err);
        return;
    }
    if (!serve_search_take()) {
        analysis_free(a);
        snprintf(err, sizeof err, "too many searches under way (%d); try again soon",
                 serve_cfg.max_searches);
        serve_reply_error(r, 503, err);
        return;
    }
    pthread_mutex_lock(&serve_lock);
    int slot = -1;
    for (int i = 0; i < ANALYSE_KEPT && slot < 0; i++)
        if (!analyses[i])
            slot = i;
    for (int i = 0; i < ANALYSE_KEPT && slot < 0; i++)
        if (analyses[i]->done && (slot < 0 || analyses[i]->id < analyses[slot]->id))
            slot = i;
    analysis_t *old = slot >= 0 ? analyses[slot] : NULL;
    if (slot >= 0) {
        a->id = next_id++;
        analyses[slot] = a;
        a->started = !pthread_create(&a->thread, NULL, analyse_thread, a);
        if (!a->started) {
            a->done = true;
            snprintf(a->error, sizeof a->error, "no thread for the search");
            searches--;
        }
    }
    long id = a->id;
    pthread_mutex_unlock(&serve_lock);
    if (old)
        analysis_free(old);
    if (slot < 0) {
        serve_search_give();
        analysis_free(a);
        serve_reply_error(r, 503, "too many analyses kept; try again soon");
        return;
    }
    serve_reply_json(r, 200, json_pack("{s:I}", "analysis", (json_int_t)id));
}

void serve_analyse_view(const serve_params_t *p, serve_reply_t *r)
{
    static const char *const keys[] = {"id", NULL};
    char err[SERVE_ERR_MAX];
    long id;
    if (serve_params_only(p, keys, err, sizeof err) ||
        serve_param_int(p, "id", 1, 1L << 40, 0, &id, err, sizeof err)) {
        serve_reply_error(r, 400, err);
        return;
    }
    pthread_mutex_lock(&serve_lock);
    analysis_t *a = find(id);
    json_t *j = a ? json_pack("{s:I,s:s,s:s,s:s,s:b,s:s,s:s,s:s,s:I,s:i,s:o,s:I}", "analysis",
                              (json_int_t)a->id, "game", a->api->name, "position", a->position,
                              "bot", a->spec_text, "done", a->done, "error", a->error, "choice",
                              a->choice, "describe", a->describe, "iterations",
                              (json_int_t)a->iterations, "updates", a->updates, "candidates",
                              a->candidates ? json_deep_copy(a->candidates) : json_array(),
                              "version", (json_int_t)a->version)
                  : NULL;
    json_t *progress = json_array(), *value = json_null();
    for (int k = 0; a && k < a->updates && k < ANALYSE_LISTED; k++)
        json_array_append_new(progress, json_integer(a->progress[k]));
    if (a && a->net) {
        value = json_array();
        for (int seat = 0; seat < a->api->player_count(a->state); seat++)
            json_array_append_new(value, json_real(a->value[seat]));
    }
    if (j) {
        json_object_set(j, "progress", progress);
        json_object_set(j, "net_value", value);
    }
    json_decref(progress);
    json_decref(value);
    char *svg = NULL;
    size_t len = 0;
    game_svg_fn svg_fn = a ? game_svg_for(a->api) : NULL;
    FILE *f = svg_fn ? open_memstream(&svg, &len) : NULL;
    if (f) {
        svg_fn(a->state, a->api->to_move(a->state), f);
        fclose(f);
    }
    pthread_mutex_unlock(&serve_lock);
    if (!j) {
        free(svg);
        serve_reply_error(r, 404, "no such analysis");
        return;
    }
    json_object_set_new(j, "svg", json_string(svg ? svg : ""));
    free(svg);
    serve_reply_json(r, 200, j);
}

void serve_analyse_stop_all(void)
{
    for (int i = 0; i < ANALYSE_KEPT; i++)
        if (analyses[i]) {
            analysis_free(analyses[i]);
            analyses[i] = NULL;
        }
}
