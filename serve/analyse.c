/*
 * Analyses in the browser (serve/serve.h): a position pasted as text (docs/NOTATION.md) or
 * a record's position at a ply, searched by a bot in its own thread. A spec with iters=N
 * is searched in ANALYSE_ROUNDS rounds of N/ROUNDS, 2N/ROUNDS, ... N iterations (each a
 * fresh search with the same seed), and the candidates of each round are published as it
 * ends: the page's bars grow as the search goes deeper.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "search/mcts.h"
#include "serve/play.h"
#include "viewer/picture.h"

#define ANALYSE_KEPT   64
#define ANALYSE_ROUNDS 8
#define ANALYSE_TOP    12

typedef struct analysis {
    long id;
    const game_api_t *api;
    void *state;
    char position[GAME_POSITION_MAX];
    bot_spec_t spec;
    char spec_text[BOT_SPEC_TEXT_MAX];
    uint64_t seed;
    pthread_t thread;
    bool started;
    /* Under serve_lock. */
    int round, rounds;
    bool done;
    char error[SERVE_ERR_MAX];
    char choice[GAME_MOVE_TEXT_MAX];
    char describe[GAME_DESCRIBE_MAX];
    json_t *candidates;
    long iterations;
    long progress[ANALYSE_ROUNDS]; /* the iterations of each round done */
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

/* The spec of round k of n: iters= scaled to k/n of its value. */
static void round_spec(const analysis_t *a, int k, int n, char *out, size_t len)
{
    int w = snprintf(out, len, "%s", a->spec.name);
    for (int i = 0; i < a->spec.key_count && w > 0 && (size_t)w < len; i++) {
        long v = atol(a->spec.values[i]);
        if (!strcmp(a->spec.keys[i], "iters") && n > 1)
            w += snprintf(out + w, len - (size_t)w, "%c%s=%ld", i ? ',' : ':', a->spec.keys[i],
                          v * k / n > 0 ? v * k / n : 1);
        else
            w += snprintf(out + w, len - (size_t)w, "%c%s=%s", i ? ',' : ':', a->spec.keys[i],
                          a->spec.values[i]);
    }
}

static void *analyse_thread(void *arg)
{
    analysis_t *a = arg;
    for (int k = 1; k <= a->rounds; k++) {
        char spec[2 * BOT_SPEC_TEXT_MAX], err[GAME_ERR_MAX];
        round_spec(a, k, a->rounds, spec, sizeof spec);
        bot_t *b = bot_new(a->api, spec, a->seed, err, sizeof err);
        move_t m = b ? bot_choose(b, a->state) : 0;
        bool faulted = b && bot_faulted(b, err, sizeof err);
        pthread_mutex_lock(&serve_lock);
        if (!b || faulted) {
            snprintf(a->error, sizeof a->error, "%s", err);
            k = a->rounds;
        } else {
            a->api->move_to_text(a->state, m, a->choice);
            if (a->api->move_describe)
                a->api->move_describe(a->state, m, a->describe, sizeof a->describe);
            json_decref(a->candidates);
            a->candidates = serve_candidates(b, a->api, a->state, ANALYSE_TOP);
            const mcts_stats_t *st = bot_last_search(b);
            a->iterations = st ? st->iterations : 0;
            a->progress[k - 1] = a->iterations;
            a->round = k;
        }
        a->version++;
        bool stop = serve_stopping;
        pthread_cond_broadcast(&serve_changed);
        pthread_mutex_unlock(&serve_lock);
        bot_free(b);
        if (stop)
            break;
    }
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
    if (!probe || bot_spec_parse(bot, &a->spec, err, errlen)) {
        bot_free(probe);
        goto fail;
    }
    bot_free(probe);
    snprintf(a->spec_text, sizeof a->spec_text, "%s", bot);
    a->seed = (uint64_t)seed;
    a->rounds = 1;
    for (int i = 0; i < a->spec.key_count; i++)
        if (!strcmp(a->spec.keys[i], "iters") && atol(a->spec.values[i]) >= ANALYSE_ROUNDS)
            a->rounds = ANALYSE_ROUNDS;
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
    json_t *j = a ? json_pack("{s:I,s:s,s:s,s:s,s:i,s:i,s:b,s:s,s:s,s:s,s:I,s:o,s:I}", "analysis",
                              (json_int_t)a->id, "game", a->api->name, "position", a->position,
                              "bot", a->spec_text, "round", a->round, "rounds", a->rounds, "done",
                              a->done, "error", a->error, "choice", a->choice, "describe",
                              a->describe, "iterations", (json_int_t)a->iterations, "candidates",
                              a->candidates ? json_deep_copy(a->candidates) : json_array(),
                              "version", (json_int_t)a->version)
                  : NULL;
    json_t *progress = json_array();
    for (int k = 0; a && k < a->round; k++)
        json_array_append_new(progress, json_integer(a->progress[k]));
    if (j)
        json_object_set(j, "progress", progress);
    json_decref(progress);
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
