/*
 * The HTTP side of skyline serve (serve/serve.h): libmicrohttpd's daemon, one thread per
 * connection, the request size limit, routing, and the Server-Sent Events streams.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serve/serve.h"

serve_config_t serve_cfg;
pthread_mutex_t serve_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t serve_changed;
bool serve_stopping;

/* Connections at once (each holds a thread: event streams stay open). */
#define SERVE_CONNECTIONS 256
/* Seconds between keep-alive comments on an idle event stream. */
#define SERVE_PING_S 15

void serve_reply_text(serve_reply_t *r, int status, const char *type, const char *text, size_t len)
{
    free(r->body);
    r->status = status;
    r->type = type;
    r->body = malloc(len + 1);
    r->len = r->body ? len : 0;
    if (r->body) {
        memcpy(r->body, text, len);
        r->body[len] = 0;
    } else {
        r->status = 500;
    }
}

void serve_reply_json(serve_reply_t *r, int status, json_t *j)
{
    char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!text) {
        serve_reply_text(r, 500, "application/json", "{\"error\":\"out of memory\"}", 25);
        return;
    }
    serve_reply_text(r, status, "application/json", text, strlen(text));
    free(text);
}

void serve_reply_error(serve_reply_t *r, int status, const char *msg)
{
    serve_reply_json(r, status, json_pack("{s:s}", "error", msg));
}

/* What one request gathers over the calls of its handler. */
typedef struct serve_request {
    char *body;
    size_t len;
    bool too_big;
} serve_request_t;

/* The argument iterator of MHD_get_connection_values_n: adds each to the parameters. */
typedef struct arg_ctx {
    serve_params_t *params;
    char err[SERVE_ERR_MAX];
    bool failed;
} arg_ctx_t;

static enum MHD_Result add_arg(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                               const char *value, size_t value_size)
{
    (void)kind;
    arg_ctx_t *a = cls;
    if (a->failed)
        return MHD_NO;
    if (strlen(key) != key_size) {
        snprintf(a->err, sizeof a->err, "bad parameter name (a NUL byte)");
        a->failed = true;
        return MHD_NO;
    }
    if (serve_params_add(a->params, key, value ? value : "", value ? value_size : 0, a->err,
                         sizeof a->err))
        a->failed = true;
    return a->failed ? MHD_NO : MHD_YES;
}

/* Routes a request with its parameters into r. */
static void route(const char *method, const char *url, const serve_params_t *p, serve_reply_t *r)
{
    bool get = !strcmp(method, "GET"), post = !strcmp(method, "POST");
    static const struct {
        const char *url;
        bool post;
        void (*fn)(const serve_params_t *, serve_reply_t *);
    } routes[] = {
        {"/api/new", true, serve_play_new},        {"/api/view", false, serve_play_view},
        {"/api/move", true, serve_play_move},      {"/api/undo", true, serve_play_undo},
        {"/api/hint", true, serve_play_hint},      {"/api/quit", true, serve_play_quit},
        {"/view", false, serve_files_view},        {"/api/watch", false, serve_watch},
        {"/api/analyse", true, serve_analyse_new}, {"/api/analysis", false, serve_analyse_view},
    };
    if (get && !strcmp(url, "/")) {
        if (p->count)
            serve_reply_error(r, 400, "the page takes no parameters");
        else
            serve_page(r);
        return;
    }
    if (get && !strcmp(url, "/favicon.ico")) { /* no icon: an empty answer, not an error */
        serve_reply_text(r, 204, "image/x-icon", "", 0);
        return;
    }
    if (get && !strcmp(url, "/api/games")) {
        serve_games_info(r);
        return;
    }
    if (get && !strcmp(url, "/api/files")) {
        serve_files_list(r);
        return;
    }
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (!strcmp(url, routes[i].url)) {
            if (routes[i].post ? !post : !get)
                serve_reply_error(r, 405, routes[i].post ? "use POST" : "use GET");
            else
                routes[i].fn(p, r);
            return;
        }
    serve_reply_error(r, 404, "no such page");
}

/* An event stream: what it follows and the last version it sent. */
typedef struct serve_stream {
    char kind; /* 'g' a game, 'a' an analysis, 'w' a watched file */
    long id;
    struct serve_game *game; /* a game's, held while the stream is open */
    char name[SERVE_NAME_MAX + 1];
    long long last;
    time_t sent;
} serve_stream_t;

static long long stream_version(const serve_stream_t *s)
{
    if (s->kind == 'g')
        return serve_play_version(s->game);
    if (s->kind == 'a')
        return serve_analyse_version(s->id);
    return serve_watch_stamp(s->name);
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    serve_stream_t *s = cls;
    pthread_mutex_lock(&serve_lock);
    for (;;) {
        if (serve_stopping)
            break;
        /* A watched file is looked at once a second; games and analyses tell. */
        pthread_mutex_unlock(&serve_lock);
        long long v = s->kind == 'w' ? stream_version(s) : 0;
        pthread_mutex_lock(&serve_lock);
        if (s->kind != 'w')
            v = stream_version(s);
        if (v < 0)
            break;
        time_t now = time(NULL);
        if (v != s->last) {
            s->last = v;
            s->sent = now;
            pthread_mutex_unlock(&serve_lock);
            return snprintf(buf, max, "event: update\ndata: %lld\n\n", v);
        }
        if (now - s->sent >= SERVE_PING_S) {
            s->sent = now;
            pthread_mutex_unlock(&serve_lock);
            return snprintf(buf, max, ": ping\n\n");
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        if (s->kind == 'g')
            serve_play_wait(s->game, &until);
        else
            pthread_cond_timedwait(&serve_changed, &serve_lock, &until);
    }
    pthread_mutex_unlock(&serve_lock);
    return MHD_CONTENT_READER_END_OF_STREAM;
}

static void stream_free(void *cls)
{
    serve_stream_t *s = cls;
    if (s->game)
        serve_play_release(s->game);
    free(s);
}

/* The event stream of /api/events?game=ID, ?analysis=ID or ?watch=FILE, or NULL with r. */
static struct MHD_Response *stream_open(const serve_params_t *p, serve_reply_t *r)
{
    static const char *const keys[] = {"game", "analysis", "watch", NULL};
    char err[SERVE_ERR_MAX];
    if (serve_params_only(p, keys, err, sizeof err) || p->count != 1) {
        serve_reply_error(r, 400, p->count == 1 ? err : "events need one of game, analysis, watch");
        return NULL;
    }
    serve_stream_t *s = calloc(1, sizeof *s);
    if (!s) {
        serve_reply_error(r, 500, "out of memory");
        return NULL;
    }
    s->last = -2;
    long id = 0;
    if (serve_param(p, "watch")) {
        s->kind = 'w';
        if (serve_name_check(serve_param(p, "watch"), true, err, sizeof err)) {
            serve_reply_error(r, 400, err);
            free(s);
            return NULL;
        }
        snprintf(s->name, sizeof s->name, "%s", serve_param(p, "watch"));
    } else {
        s->kind = serve_param(p, "game") ? 'g' : 'a';
        if (serve_param_int(p, s->kind == 'g' ? "game" : "analysis", 1, 1L << 40, 0, &id, err,
                            sizeof err)) {
            serve_reply_error(r, 400, err);
            free(s);
            return NULL;
        }
        s->id = id;
        pthread_mutex_lock(&serve_lock);
        if (s->kind == 'g')
            s->game = serve_play_hold(id);
        long long v = s->kind == 'g' && !s->game ? -1 : stream_version(s);
        pthread_mutex_unlock(&serve_lock);
        if (v < 0) {
            serve_reply_error(r, 404, s->kind == 'g' ? "no such game" : "no such analysis");
            free(s);
            return NULL;
        }
    }
    struct MHD_Response *resp =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, stream_read, s, stream_free);
    if (!resp) {
        stream_free(s);
        serve_reply_error(r, 500, "out of memory");
        return NULL;
    }
    MHD_add_response_header(resp, "Content-Type", "text/event-stream");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    return resp;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *conn, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
    (void)cls;
    (void)version;
    serve_request_t *req = *con_cls;
    if (!req) {
        req = calloc(1, sizeof *req);
        if (!req)
            return MHD_NO;
        *con_cls = req;
        return MHD_YES;
    }
    if (*upload_size) {
        if (req->len + *upload_size > SERVE_BODY_MAX) {
            req->too_big = true;
        } else if (!req->too_big) {
            char *b = realloc(req->body, req->len + *upload_size + 1);
            if (!b)
                return MHD_NO;
            memcpy(b + req->len, upload, *upload_size);
            req->body = b;
            req->len += *upload_size;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    serve_reply_t r = {0};
    serve_params_t p;
    serve_params_init(&p);
    arg_ctx_t a = {.params = &p};
    struct MHD_Response *resp = NULL;
    const char *ctype = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Type");
    if (req->too_big) {
        char msg[96];
        snprintf(msg, sizeof msg, "request body over %d bytes", SERVE_BODY_MAX);
        serve_reply_error(&r, 413, msg);
    } else if (strcmp(method, "GET") && strcmp(method, "POST")) {
        serve_reply_error(&r, 405, "only GET and POST");
    } else if (MHD_get_connection_values_n(conn, MHD_GET_ARGUMENT_KIND, add_arg, &a) < 0 ||
               a.failed) {
        serve_reply_error(&r, 400, a.err);
    } else if (req->len && (!ctype || strncmp(ctype, "application/x-www-form-urlencoded", 33))) {
        serve_reply_error(&r, 415, "a body must be application/x-www-form-urlencoded");
    } else if (req->len && serve_params_parse(&p, req->body, req->len, a.err, sizeof a.err)) {
        serve_reply_error(&r, 400, a.err);
    } else if (!strcmp(method, "GET") && !strcmp(url, "/api/events")) {
        resp = stream_open(&p, &r);
    } else {
        route(method, url, &p, &r);
    }
    serve_params_free(&p);
    if (!resp) {
        resp = MHD_create_response_from_buffer(r.len, r.body, MHD_RESPMEM_MUST_FREE);
        if (!resp) {
            free(r.body);
            return MHD_NO;
        }
        MHD_add_response_header(resp, "Content-Type", r.type ? r.type : "application/json");
        MHD_add_response_header(resp, "Cache-Control", "no-store");
    } else {
        r.status = MHD_HTTP_OK;
    }
    /* The page's own script and style only: nothing from elsewhere runs in it. */
    MHD_add_response_header(resp, "Content-Security-Policy",
                            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src "
                            "'self' 'unsafe-inline'; img-src 'self' data:");
    enum MHD_Result rc = MHD_queue_response(conn, (unsigned)r.status, resp);
    MHD_destroy_response(resp);
    return rc;
}

static void request_done(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode code)
{
    (void)cls;
    (void)conn;
    (void)code;
    serve_request_t *req = *con_cls;
    if (req) {
        free(req->body);
        free(req);
        *con_cls = NULL;
    }
}

/* The HTTP library's messages, one line each on stderr, but for a client that went away
   (an event stream closed by its page: routine, and one a page). */
static void http_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (strstr(msg, "closed by remote peer") || strstr(msg, "Connection reset"))
        return;
    msg[strcspn(msg, "\n")] = 0;
    fprintf(stderr, "skyline serve: http: %s\n", msg);
}

int serve_run(const serve_config_t *cfg, char *err, size_t errlen)
{
    serve_cfg = *cfg;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_cond_init(&serve_changed, &ca);
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)cfg->port);
    if (inet_pton(AF_INET, cfg->host, &addr.sin_addr) != 1) {
        snprintf(err, errlen, "--host %s: not an IPv4 address like 127.0.0.1", cfg->host);
        return -1;
    }
    /* Signals go to the thread that waits for them, not to the server's threads. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0,
        NULL, NULL, answer, NULL, MHD_OPTION_EXTERNAL_LOGGER, http_log, NULL, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&addr, MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_CONNECTIONS,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)(4 * SERVE_PING_S),
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536, MHD_OPTION_NOTIFY_COMPLETED,
        request_done, NULL, MHD_OPTION_END);
    if (!d) {
        snprintf(err, errlen, "cannot listen on %s port %d: %s", cfg->host, cfg->port,
                 errno ? strerror(errno) : "the HTTP library refused");
        return -1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    int port = info ? info->port : cfg->port;
    if (strcmp(cfg->host, "127.0.0.1"))
        printf("skyline serve: listening on %s, not only this machine: anyone who reaches it "
               "can play and read the records of %s\n",
               cfg->host, cfg->data);
    printf("skyline serve: open http://%s:%d/ (data folder %s; Ctrl-C stops)\n", cfg->host, port,
           cfg->data);
    fflush(stdout);
    int sig;
    sigwait(&set, &sig);
    printf("skyline serve: stopping (signal %d)\n", sig);
    fflush(stdout);
    pthread_mutex_lock(&serve_lock);
    serve_stopping = true;
    pthread_cond_broadcast(&serve_changed);
    pthread_mutex_unlock(&serve_lock);
    /* Games end (human seats forfeit), the streams and requests end, then the games' and
       analyses' threads are joined and their memory freed. */
    serve_play_quit_all();
    MHD_stop_daemon(d);
    serve_play_stop_all();
    serve_analyse_stop_all();
    return 0;
}
