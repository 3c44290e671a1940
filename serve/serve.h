#pragma once
/*
 * skyline serve (docs/SERVE.md): a local web app over libmicrohttpd to play against the
 * bots, watch a tournament file grow and analyse positions. The HTTP library only moves
 * bytes; routing, pages, games and limits are here. One lock (serve_lock) guards every
 * shared table; serve_changed is broadcast whenever a game, a search or the server's
 * state moves on, and the Server-Sent Events streams wait on it.
 */
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "serve/request.h"

/* What the command line sets. */
typedef struct serve_config {
    const char *host; /* numeric IPv4 address to listen on (127.0.0.1) */
    int port;         /* TCP port, 0: any free one */
    const char *data; /* the data folder (real path): records written and read */
    int max_games;    /* games under way at once; more get 503 */
    int max_searches; /* analyses and hints at once; more get 503 */
    long move_ms;     /* the most a bot's move may take before it forfeits (0: none) */
    bool allow_ext;   /* ext: bots (programs run by request) are allowed */
} serve_config_t;

extern serve_config_t serve_cfg;
extern pthread_mutex_t serve_lock;
extern pthread_cond_t serve_changed;
extern bool serve_stopping;

/* Runs the server until SIGINT or SIGTERM: 0, or -1 with err (cannot listen). */
int serve_run(const serve_config_t *cfg, char *err, size_t errlen);

/* An answer to a request: status, content type and body (owned). */
typedef struct serve_reply {
    int status;
    const char *type;
    char *body;
    size_t len;
} serve_reply_t;

/* Replies: JSON (takes the reference), an error {"error": msg} with status, text. */
void serve_reply_json(serve_reply_t *r, int status, json_t *j);
void serve_reply_error(serve_reply_t *r, int status, const char *msg);
void serve_reply_text(serve_reply_t *r, int status, const char *type, const char *text, size_t len);

/* The main page (serve/page.c). */
void serve_page(serve_reply_t *r);

/* Games (serve/play.c). Each handler fills r from the request's parameters. */
void serve_play_new(const serve_params_t *p, serve_reply_t *r);
void serve_play_view(const serve_params_t *p, serve_reply_t *r);
void serve_play_move(const serve_params_t *p, serve_reply_t *r);
void serve_play_undo(const serve_params_t *p, serve_reply_t *r);
void serve_play_hint(const serve_params_t *p, serve_reply_t *r);
void serve_play_quit(const serve_params_t *p, serve_reply_t *r);
void serve_games_info(serve_reply_t *r);
/* An event stream's hold on game id (under serve_lock): the game, kept in the table until
   released, or NULL if there is none. */
struct serve_game *serve_play_hold(long id);
void serve_play_release(struct serve_game *g);
/* The version of a held game (grows on every change); waits (under serve_lock) until it
   may have changed or until the time given. */
long serve_play_version(const struct serve_game *g);
void serve_play_wait(struct serve_game *g, const struct timespec *until);
/* Tells every game to end (server shutdown): their human seats forfeit. */
void serve_play_quit_all(void);
/* Waits for every game's thread and frees the games (after the HTTP side stopped). */
void serve_play_stop_all(void);
/* Games under way (under serve_lock). */
int serve_play_running(void);

/* Records in --data (serve/files.c): the list, one file's replay viewer page. */
void serve_files_list(serve_reply_t *r);
void serve_files_view(const serve_params_t *p, serve_reply_t *r);
/* Writes rec as a new record file in --data named after prefix (atomic: a temporary
   file renamed); its name into name[SERVE_NAME_MAX + 1]. 0, or -1 with err. */
int serve_files_save(const json_t *rec, const char *prefix, char *name, char *err, size_t errlen);

/* The records of file name in --data (at most max, from the first; lines that are not
   records are skipped) into recs: the count, or -1 with err and the HTTP status. */
int serve_files_read(const char *name, json_t **recs, int max, char *err, size_t errlen,
                     int *status);

/* The records of the file a request names (its one parameter, file), at most max from the
   first: an array of max (the caller releases its *n records and frees it), with *name
   the file's name; or NULL with r filled (400 bad request, 404 no such file, 500). */
json_t **serve_files_request(const serve_params_t *p, int max, int *n, const char **name,
                             serve_reply_t *r);

/* Watching a tournament file (serve/watch.c): its standings and games as JSON. */
void serve_watch(const serve_params_t *p, serve_reply_t *r);
/* A stamp of file name in --data (size and time); 0 if missing. */
long long serve_watch_stamp(const char *name);

/* Analyses (serve/analyse.c). */
void serve_analyse_new(const serve_params_t *p, serve_reply_t *r);
void serve_analyse_view(const serve_params_t *p, serve_reply_t *r);
long serve_analyse_version(long id);
void serve_analyse_stop_all(void);

/* The search slots of --max-searches: take one (false if none is free), give it back. */
bool serve_search_take(void);
void serve_search_give(void);
