/*
 * The progress hook of a search (mcts_options_t.progress, mcts_set_progress): called by the
 * first thread every progress_every of its iterations with the root statistics so far
 * (most visits first, their visits summing to the iterations reported, never fewer than
 * the last call's), and it leaves the search as it was: the same move and the same root
 * statistics as without it. Its answer false ends the search. With two threads no call
 * reports more than the search's end. A hook with progress_every 0 is refused.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "search/mcts.h"
#include "tests/test.h"

typedef struct seen {
    int calls;
    long last;       /* iterations of the last call */
    bool ordered;    /* root moves most visited first in every call */
    bool summed;     /* their visits summed to the iterations in every call */
    bool growing;    /* iterations never fell */
    long first_move; /* visits of the most visited move at the last call */
    long stop_at;    /* the hook ends the search once it saw this many iterations (0: never) */
} seen_t;

static bool hook(const mcts_stats_t *so_far, void *ctx)
{
    seen_t *s = ctx;
    long sum = 0;
    for (int i = 0; i < so_far->root_move_count; i++) {
        sum += so_far->root_moves[i].visits;
        if (i && so_far->root_moves[i].visits > so_far->root_moves[i - 1].visits)
            s->ordered = false;
    }
    if (sum != so_far->iterations)
        s->summed = false;
    if (so_far->iterations < s->last)
        s->growing = false;
    s->last = so_far->iterations;
    s->first_move = so_far->root_moves[0].visits;
    s->calls++;
    return s->stop_at == 0 || s->last < s->stop_at;
}

static void start(const game_api_t *api, void *state)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = 2;
    char err[GAME_ERR_MAX];
    CHECK_MSG(api->new_game(state, &opt, err, sizeof err) == 0, "%s", err);
}

int main(void)
{
    const game_api_t *api = game_find("connect4");
    CHECK(api != NULL);
    if (!api)
        return test_finish("test_search_progress");
    void *state = calloc(1, api->state_size);
    start(api, state);

    /* One thread, 6000 iterations, a call every 1000: 6 calls of 1000, 2000, ... 6000. */
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = 6000;
    opt.seed = 7;
    mcts_t *plain = mcts_new(api, &opt);
    mcts_stats_t want;
    move_t want_move = mcts_search(plain, state, &want);

    seen_t s = {.ordered = true, .summed = true, .growing = true};
    opt.progress = hook;
    opt.progress_ctx = &s;
    opt.progress_every = 1000;
    mcts_t *live = mcts_new(api, &opt);
    mcts_stats_t got;
    move_t got_move = mcts_search(live, state, &got);
    CHECK_EQ_INT(s.calls, 6);
    CHECK_EQ_INT(s.last, 6000);
    CHECK(s.ordered && s.summed && s.growing);
    CHECK_EQ_INT(s.first_move, got.root_moves[0].visits);
    /* The same search as without the hook. */
    CHECK_EQ_INT(got_move, want_move);
    CHECK_EQ_INT(got.iterations, want.iterations);
    CHECK_EQ_INT(got.root_move_count, want.root_move_count);
    for (int i = 0; i < got.root_move_count; i++) {
        CHECK_EQ_INT(got.root_moves[i].move, want.root_moves[i].move);
        CHECK_EQ_INT(got.root_moves[i].visits, want.root_moves[i].visits);
    }

    /* Set on a searcher: the next search calls it (every 0 counts as 1); NULL stops it. */
    seen_t t = {.ordered = true, .summed = true, .growing = true};
    mcts_set_progress(plain, hook, &t, 0);
    mcts_reset(plain);
    mcts_search(plain, state, NULL);
    CHECK_EQ_INT(t.calls, 6000);
    CHECK(t.ordered && t.summed && t.growing);
    mcts_set_progress(plain, NULL, NULL, 1);
    mcts_search(plain, state, NULL);
    CHECK_EQ_INT(t.calls, 6000);
    /* The hook ends a search: at its third call of 1000, the search ends with 3000. */
    seen_t v = {.ordered = true, .summed = true, .growing = true, .stop_at = 3000};
    mcts_set_progress(live, hook, &v, 1000);
    mcts_reset(live);
    mcts_search(live, state, &got);
    CHECK_EQ_INT(v.calls, 3);
    CHECK_EQ_INT(got.iterations, 3000);
    mcts_free(plain);
    mcts_free(live);

    /* Two threads on one tree (for the sanitizers): whatever calls come (how many depends
       on the first thread's share) report no more than the search ran. */
    seen_t u = {.ordered = true, .summed = true, .growing = true};
    opt.threads = 2;
    opt.progress_ctx = &u;
    opt.progress_every = 100;
    mcts_t *two = mcts_new(api, &opt);
    mcts_search(two, state, &got);
    CHECK(u.ordered && u.summed && u.growing);
    CHECK(u.last <= got.iterations);
    mcts_free(two);

    /* A hook with no interval is refused, with a reason. */
    opt.threads = 1;
    opt.progress_every = 0;
    char err[200] = "";
    CHECK(mcts_create(api, &opt, err, sizeof err) == NULL);
    CHECK(strstr(err, "progress_every") != NULL);

    free(state);
    return test_finish("test_search_progress");
}
