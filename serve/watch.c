/*
 * Watching a tournament file that another process writes (serve/serve.h): its standings
 * (ratings with their 95% intervals, mean results) and its latest games, recomputed on
 * each look; the page's event stream tells it when the file changes (serve_watch_stamp).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arena/rating.h"
#include "bots/bot.h"
#include "serve/serve.h"

/* Records read from a watched file at most, the games listed, resamples of the intervals. */
#define WATCH_RECORDS   20000
#define WATCH_LISTED    50
#define WATCH_BOOTSTRAP 100
#define WATCH_BOTS      64

long long serve_watch_stamp(const char *name)
{
    char path[4200], err[SERVE_ERR_MAX];
    struct stat st;
    if (serve_path(serve_cfg.data, name, true, path, sizeof path, err, sizeof err) ||
        stat(path, &st))
        return 0;
    return (long long)st.st_size * 1000003LL + (long long)st.st_mtim.tv_sec * 1000 +
           st.st_mtim.tv_nsec / 1000000 + 1;
}

typedef struct specs {
    int n;
    char spec[WATCH_BOTS][BOT_SPEC_TEXT_MAX];
} specs_t;

static int spec_id(void *ctx, const char *spec)
{
    specs_t *s = ctx;
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->spec[i], spec))
            return i;
    if (s->n == WATCH_BOTS)
        return -1;
    snprintf(s->spec[s->n], sizeof s->spec[0], "%s", spec);
    return s->n++;
}

static json_t *number(double v) { return isfinite(v) ? json_real(v) : json_null(); }

/* The standings of games[0..n) as a JSON list, best first. */
static json_t *standings(const rating_game_t *games, long n, const specs_t *specs)
{
    json_t *list = json_array();
    rating_table_t t;
    if (!n || rating_table_compute(games, n, specs->n, RATING_ANCHOR_MEAN, WATCH_BOOTSTRAP,
                                   RATING_BOOTSTRAP_SEED, &t))
        return list;
    for (int k = 0; k < t.bot_count; k++) {
        int b = t.order[k];
        const rating_bot_t *rb = &t.bots[b];
        json_t *row = json_pack("{s:s,s:I,s:I}", "bot", specs->spec[b], "games",
                                (json_int_t)rb->games, "forfeits", (json_int_t)rb->forfeits);
        json_object_set_new(row, "elo", number(rb->elo));
        json_object_set_new(row, "elo_ci95", number(rb->elo_ci95));
        json_object_set_new(row, "result", number(rb->result));
        json_object_set_new(row, "result_ci95", number(rb->result_ci95));
        json_object_set_new(row, "mean_rank", number(rb->mean_rank));
        json_array_append_new(list, row);
    }
    rating_table_free(&t);
    return list;
}

void serve_watch(const serve_params_t *p, serve_reply_t *r)
{
    const char *name;
    int n;
    json_t **recs = serve_files_request(p, WATCH_RECORDS, &n, &name, r);
    if (!recs)
        return;
    rating_game_t *games = calloc(WATCH_RECORDS, sizeof *games);
    specs_t *specs = calloc(1, sizeof *specs);
    if (!games || !specs) {
        serve_reply_error(r, 500, "out of memory");
        for (int i = 0; i < n; i++)
            json_decref(recs[i]);
        free(recs);
        free(games);
        free(specs);
        return;
    }
    long used = 0;
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        char gerr[GAME_ERR_MAX];
        if (rating_game_from_record(recs[i], spec_id, specs, &games[used], gerr, sizeof gerr))
            continue;
        if (i >= n - WATCH_LISTED) {
            json_t *seats = json_object_get(recs[i], "seats");
            json_t *ranks = json_array();
            for (int s = 0; s < games[used].players; s++)
                json_array_append_new(ranks, json_integer(games[used].ranks[s]));
            json_t *game = json_object_get(recs[i], "game");
            json_array_append_new(list, json_pack("{s:i,s:O,s:O,s:o,s:b}", "index", i + 1, "game",
                                                  game ? game : json_null(), "seats",
                                                  seats ? seats : json_null(), "ranks", ranks,
                                                  "forfeit", games[used].forfeit));
        }
        used++;
    }
    json_t *j =
        json_pack("{s:s,s:i,s:I,s:o,s:o}", "file", name, "records", n, "rated", (json_int_t)used,
                  "standings", standings(games, used, specs), "games", list);
    for (int i = 0; i < n; i++)
        json_decref(recs[i]);
    free(recs);
    free(games);
    free(specs);
    serve_reply_json(r, 200, j);
}
