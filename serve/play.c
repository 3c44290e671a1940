/*
 * Games in the browser (serve/serve.h): each game runs in its own thread through
 * match_play_setup (arena/match.h), so forfeits, undo and records are those of `skyline
 * play`. Every seat is a "seat" bot that wraps the seat's real bot or, for a human, waits
 * for the browser's move; seat 0's also keeps the live position the pages are drawn from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena/match.h"
#include "serve/play.h"

static serve_game_t *games[SERVE_GAMES_KEPT];
static long next_id = 1;

/* Under serve_lock: g changed; every stream looks again. */
void serve_game_bump(serve_game_t *g)
{
    g->version++;
    pthread_cond_broadcast(&g->changed);
}

/* The game with id, or NULL (under serve_lock). */
serve_game_t *serve_game_find(long id)
{
    for (int i = 0; i < SERVE_GAMES_KEPT; i++)
        if (games[i] && games[i]->id == id)
            return games[i];
    return NULL;
}

serve_game_t *serve_play_hold(long id)
{
    serve_game_t *g = serve_game_find(id);
    if (g)
        g->refs++;
    return g;
}

void serve_play_release(serve_game_t *g)
{
    pthread_mutex_lock(&serve_lock);
    g->refs--;
    pthread_mutex_unlock(&serve_lock);
}

long serve_play_version(const serve_game_t *g) { return g->version; }

void serve_play_wait(serve_game_t *g, const struct timespec *until)
{
    pthread_cond_timedwait(&g->changed, &serve_lock, until);
}

int serve_play_running(void)
{
    int n = 0;
    for (int i = 0; i < SERVE_GAMES_KEPT; i++)
        n += games[i] && games[i]->running;
    return n;
}

/* ---- the seat bot ---- */

typedef struct seat {
    serve_game_t *g;
    int seat;
    bot_t *inner; /* the seat's bot, NULL for a human */
} seat_t;

static move_t first_legal(const bot_t *b, const void *state)
{
    move_t moves[GAME_MAX_MOVES];
    b->api->gen_moves(state, moves);
    return moves[0];
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* A human's move: waits for the browser (a move, an undo or leaving the game). */
static move_t human_choose(bot_t *b, seat_t *st, const void *state)
{
    serve_game_t *g = st->g;
    pthread_mutex_lock(&serve_lock);
    g->waiting = st->seat;
    serve_game_bump(g);
    while (!g->has_move && g->undo_to < 0 && !g->quit && !serve_stopping)
        pthread_cond_wait(&g->changed, &serve_lock);
    g->waiting = -1;
    move_t m = first_legal(b, state);
    if (g->quit || serve_stopping) {
        bot_fault(b, "quit", "%s", serve_stopping ? "the server stopped" : "the player left");
    } else if (g->undo_to >= 0) {
        b->undo_to = g->undo_to;
        g->undo_to = -1;
    } else {
        m = g->move;
        g->has_move = false;
    }
    serve_game_bump(g);
    pthread_mutex_unlock(&serve_lock);
    return m;
}

static move_t seat_choose(bot_t *b, const void *state)
{
    seat_t *st = b->impl;
    if (!st->inner)
        return human_choose(b, st, state);
    serve_game_t *g = st->g;
    pthread_mutex_lock(&serve_lock);
    if (g->quit || serve_stopping) {
        pthread_mutex_unlock(&serve_lock);
        bot_fault(b, "quit", "%s", serve_stopping ? "the server stopped" : "stopped by a player");
        return first_legal(b, state);
    }
    g->thinking = st->seat;
    serve_game_bump(g);
    pthread_mutex_unlock(&serve_lock);
    if (serve_cfg.move_ms > 0)
        bot_clock(st->inner, -1, 0, serve_cfg.move_ms);
    double t0 = now_ms();
    move_t m = bot_choose(st->inner, state);
    double dt = now_ms() - t0;
    if (st->inner->fault[0])
        bot_fault(b, st->inner->fault, "%s", st->inner->fault_detail);
    else if (serve_cfg.move_ms > 0 && dt > (double)serve_cfg.move_ms)
        bot_fault(b, "timeout", "move took %.0f ms, over the limit of %ld ms", dt,
                  serve_cfg.move_ms);
    pthread_mutex_lock(&serve_lock);
    g->thinking = -1;
    serve_game_bump(g);
    pthread_mutex_unlock(&serve_lock);
    return m;
}

static void seat_observe(bot_t *b, const void *state, move_t m)
{
    seat_t *st = b->impl;
    if (st->inner) {
        bot_observe(st->inner, state, m);
        if (st->inner->fault[0] && !b->fault[0])
            bot_fault(b, st->inner->fault, "%s", st->inner->fault_detail);
    }
    if (st->seat != 0)
        return;
    serve_game_t *g = st->g;
    char text[GAME_MOVE_TEXT_MAX];
    g->api->move_to_text(state, m, text);
    pthread_mutex_lock(&serve_lock);
    if (g->n == g->cap) {
        int cap = g->cap ? 2 * g->cap : 256;
        char(*t)[GAME_MOVE_TEXT_MAX] = realloc(g->texts, sizeof *t * (size_t)cap);
        int *mv = realloc(g->movers, sizeof *mv * (size_t)cap);
        if (t)
            g->texts = t;
        if (mv)
            g->movers = mv;
        if (!t || !mv) {
            pthread_mutex_unlock(&serve_lock);
            fprintf(stderr, "skyline serve: out of memory\n");
            exit(1);
        }
        g->cap = cap;
    }
    memcpy(g->texts[g->n], text, sizeof text);
    g->movers[g->n] = g->api->to_move(g->state);
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    g->api->make(g->state, m, undo);
    g->n++;
    serve_game_bump(g);
    pthread_mutex_unlock(&serve_lock);
}

static void seat_reset(bot_t *b)
{
    seat_t *st = b->impl;
    if (st->inner)
        bot_reset(st->inner, b->seed);
}

static void seat_begin(bot_t *b, const void *initial, const game_options_t *opt, int seat)
{
    seat_t *st = b->impl;
    if (st->inner)
        bot_begin(st->inner, initial, opt, seat);
    if (st->seat != 0)
        return;
    pthread_mutex_lock(&serve_lock);
    st->g->api->copy(st->g->state, initial);
    st->g->n = 0;
    serve_game_bump(st->g);
    pthread_mutex_unlock(&serve_lock);
}

static void seat_end(bot_t *b, const double *result)
{
    seat_t *st = b->impl;
    if (st->inner)
        bot_end(st->inner, result);
}

static void seat_destroy(bot_t *b)
{
    seat_t *st = b->impl;
    bot_free(st->inner);
    free(st);
}

static const struct mcts_stats *seat_last_search(const bot_t *b)
{
    const seat_t *st = b->impl;
    return st->inner ? bot_last_search(st->inner) : NULL;
}

static const bot_kind_t seat_kind = {
    .name = "seat",
    .help = "a seat of skyline serve",
    .choose = seat_choose,
    .observe = seat_observe,
    .reset = seat_reset,
    .destroy = seat_destroy,
    .begin = seat_begin,
    .end = seat_end,
    .last_search = seat_last_search,
};

/* The seat bot of seat s of g playing spec ("human" or a bot spec): NULL with err. */
bot_t *serve_seat_new(serve_game_t *g, int s, const char *spec, char *err, size_t errlen)
{
    bot_t *b = calloc(1, sizeof *b);
    seat_t *st = calloc(1, sizeof *st);
    if (!b || !st) {
        free(b);
        free(st);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    st->g = g;
    st->seat = s;
    if (strcmp(spec, "human")) {
        st->inner = bot_new(g->api, spec, g->opt.seed + (uint64_t)s, err, errlen);
        if (!st->inner) {
            free(b);
            free(st);
            return NULL;
        }
    }
    b->api = g->api;
    b->kind = &seat_kind;
    snprintf(b->spec, sizeof b->spec, "%s", spec);
    b->threads = st->inner ? st->inner->threads : 1;
    b->undo_to = -1;
    b->impl = st;
    return b;
}

/* ---- the game's thread ---- */

/* The outcome of a finished game as a line for people into buf. */
static void outcome_text(const serve_game_t *g, const match_result_t *res, char *buf, size_t len)
{
    int n = 0;
    if (res->forfeit_seat >= 0)
        n = snprintf(buf, len, "P%d forfeits (%s). ", res->forfeit_seat + 1, res->forfeit_reason);
    int best = -1;
    bool shared = false;
    for (int s = 0; s < g->players; s++)
        if (res->ranks[s] == 1) {
            shared = best >= 0;
            best = best < 0 ? s : best;
        }
    if (shared)
        snprintf(buf + n, len - (size_t)n, "Shared first place.");
    else if (best >= 0)
        snprintf(buf + n, len - (size_t)n, "P%d (%s) wins.", best + 1, g->spec[best]);
}

static void *game_thread(void *arg)
{
    serve_game_t *g = arg;
    match_result_t res;
    char err[GAME_ERR_MAX], name[SERVE_NAME_MAX + 1] = "", outcome[256] = "";
    int rc = match_play_search(g->api, &g->opt, g->bots, false, true, &res, err, sizeof err);
    if (rc == 0) {
        outcome_text(g, &res, outcome, sizeof outcome);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "play-%s-%ld", g->api->name, g->id);
        if (serve_files_save(res.record, prefix, name, err, sizeof err)) {
            fprintf(stderr, "skyline serve: game %ld: %s\n", g->id, err);
            snprintf(outcome + strlen(outcome), sizeof outcome - strlen(outcome),
                     " The record was not saved: %.160s", err);
            name[0] = 0;
        }
        json_decref(res.record);
    } else {
        snprintf(outcome, sizeof outcome, "The game stopped: %.200s", err);
    }
    /* A finished game keeps its moves and position, not its bots (search trees). */
    for (int s = 0; s < g->players; s++) {
        bot_free(g->bots[s]);
        g->bots[s] = NULL;
    }
    pthread_mutex_lock(&serve_lock);
    snprintf(g->outcome, sizeof g->outcome, "%s", outcome);
    snprintf(g->record, sizeof g->record, "%s", name);
    g->running = false;
    g->over = true;
    g->waiting = g->thinking = -1;
    serve_game_bump(g);
    pthread_mutex_unlock(&serve_lock);
    return NULL;
}

void serve_game_free(serve_game_t *g)
{
    pthread_cond_destroy(&g->changed);
    for (int s = 0; s < g->players; s++)
        bot_free(g->bots[s]);
    free(g->state);
    free(g->texts);
    free(g->movers);
    free(g);
}

/* Adds g to the table, dropping the oldest finished game if it is full: 0, or -1. Under
   serve_lock. */
static int table_add(serve_game_t *g)
{
    int slot = -1;
    for (int i = 0; i < SERVE_GAMES_KEPT && slot < 0; i++)
        if (!games[i])
            slot = i;
    /* Else the oldest finished game that no event stream holds. */
    for (int i = 0; i < SERVE_GAMES_KEPT && !(slot >= 0 && !games[slot]); i++) {
        const serve_game_t *c = games[i];
        if (c->over && !c->running && !c->refs && (slot < 0 || c->id < games[slot]->id))
            slot = i;
    }
    if (slot < 0)
        return -1;
    if (games[slot]) {
        if (games[slot]->started)
            pthread_join(games[slot]->thread, NULL);
        serve_game_free(games[slot]);
    }
    g->id = next_id++;
    games[slot] = g;
    return 0;
}

/* Starts g's thread (g is in the table, under serve_lock): 0, or -1. */
int serve_game_start(serve_game_t *g)
{
    g->running = true;
    g->waiting = g->thinking = -1;
    g->undo_to = -1;
    g->started = !pthread_create(&g->thread, NULL, game_thread, g);
    if (!g->started) {
        g->running = false;
        g->over = true;
        snprintf(g->outcome, sizeof g->outcome, "The game could not start (no thread).");
        return -1;
    }
    return 0;
}

int serve_game_add(serve_game_t *g, char *err, size_t errlen, int *status)
{
    pthread_mutex_lock(&serve_lock);
    int rc = 0;
    if (serve_stopping) {
        snprintf(err, errlen, "the server is stopping");
        *status = 503;
        rc = -1;
    } else if (serve_play_running() >= serve_cfg.max_games) {
        snprintf(err, errlen, "too many games under way (%d); try again when one ends",
                 serve_cfg.max_games);
        *status = 503;
        rc = -1;
    } else if (table_add(g)) {
        snprintf(err, errlen, "too many games kept; try again when one ends");
        *status = 503;
        rc = -1;
    } else if (serve_game_start(g)) {
        snprintf(err, errlen, "the game could not start (no thread)");
        *status = 503;
        rc = -1;
    }
    pthread_mutex_unlock(&serve_lock);
    return rc;
}

void serve_play_quit_all(void)
{
    pthread_mutex_lock(&serve_lock);
    for (int i = 0; i < SERVE_GAMES_KEPT; i++)
        if (games[i]) {
            games[i]->quit = true;
            pthread_cond_broadcast(&games[i]->changed);
        }
    pthread_mutex_unlock(&serve_lock);
}

void serve_play_stop_all(void)
{
    serve_play_quit_all();
    for (int i = 0; i < SERVE_GAMES_KEPT; i++)
        if (games[i]) {
            if (games[i]->started)
                pthread_join(games[i]->thread, NULL);
            serve_game_free(games[i]);
            games[i] = NULL;
        }
}
