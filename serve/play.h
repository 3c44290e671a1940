#pragma once
/* The games of skyline serve (serve/play.c, serve/play_http.c): shared between them only. */
#include "bots/bot.h"
#include "serve/serve.h"

/* Games kept at once, running or finished (the oldest finished one makes room). */
#define SERVE_GAMES_KEPT 512
/* Length of a seat's secret (hex digits). */
#define SERVE_TOKEN_LEN 24

typedef struct serve_game {
    long id;
    const game_api_t *api;
    game_options_t opt;
    char option_text[GAME_OPTION_MAX][128]; /* what opt.option points to */
    int players;
    bool human[GAME_MAX_PLAYERS];
    char token[GAME_MAX_PLAYERS][SERVE_TOKEN_LEN + 1]; /* a human seat's secret */
    char spec[GAME_MAX_PLAYERS][BOT_SPEC_TEXT_MAX];
    bool allow_undo;
    char hint[BOT_SPEC_TEXT_MAX]; /* the bot hints ask, "" for none */
    bot_t *bots[GAME_MAX_PLAYERS];
    pthread_t thread;
    bool started;
    pthread_cond_t changed; /* broadcast on every change (with serve_lock) */
    int refs;               /* event streams holding the game: it stays in the table */
    /* Below: under serve_lock. */
    void *state;                       /* the position now */
    int n, cap;                        /* moves played; room in texts and movers */
    char (*texts)[GAME_MOVE_TEXT_MAX]; /* each move's text */
    int *movers;                       /* who made each move */
    int waiting;                       /* the human seat waited for, or -1 */
    int thinking;                      /* the bot seat choosing, or -1 */
    bool has_move;                     /* a human's move is handed over in move */
    move_t move;
    int undo_to; /* -1, or the move count a human's undo goes back to */
    bool quit;   /* the human left: the game ends (a forfeit) */
    bool running, over;
    char outcome[320];               /* the result in words, once over */
    char record[SERVE_NAME_MAX + 1]; /* the record file in --data, once saved */
    long version;
} serve_game_t;

void serve_game_bump(serve_game_t *g);
serve_game_t *serve_game_find(long id);
void serve_game_free(serve_game_t *g);
/* Adds g (its bots made) and starts its thread: 0, or -1 with err and the HTTP status. */
int serve_game_add(serve_game_t *g, char *err, size_t errlen, int *status);
int serve_game_start(serve_game_t *g);
/* The seat bot of seat s playing spec ("human" or a bot spec): NULL with err. */
bot_t *serve_seat_new(serve_game_t *g, int s, const char *spec, char *err, size_t errlen);
/* The candidates of b's last search, most visited first (at most top): a JSON list of
   {move, visits, mean}. */
json_t *serve_candidates(const bot_t *b, const game_api_t *api, const void *state, int top);
/* The same from a search's statistics (st NULL: an empty list). */
json_t *serve_candidates_of(const struct mcts_stats *st, const game_api_t *api, const void *state,
                            int top);
/* Whether a request may ask for bot spec: no ext: bot unless --allow-ext, no value naming
   a path outside the data folder (the server runs in it), bounded threads, mem, time and
   iters. 0, or -1 with err. */
int serve_spec_allowed(const char *spec, char *err, size_t errlen);
