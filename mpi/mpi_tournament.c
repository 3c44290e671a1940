/*
 * skyline tournament over MPI ranks (mpi_run.h). Rank 0 runs tournament_run as one process
 * does, with one worker thread per game slot of the other ranks: each such thread hands its
 * game index to a communication thread, which sends it to the slot's rank and routes the
 * record that comes back. Rank 0 thus keeps the file, resume, the SPRT and the progress
 * display unchanged; the other ranks only play games (tournament_game_play), each with its
 * own worker threads. Only the communication thread calls MPI on rank 0, only the main
 * thread on the others (MPI_THREAD_SERIALIZED).
 */
#include "mpi/mpi_run.h"

#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MPI_TAG_GAME   1 /* rank 0 -> worker rank: {slot, game index}, index -1: stop */
#define MPI_TAG_RESULT 2 /* worker rank -> rank 0: header, then the record line or error */
/* Result header: slot, index, status (0 played, 1 error), forfeit seat, ranks per seat. */
#define MPI_HEAD    (4 + GAME_MAX_PLAYERS)
#define MPI_ERR_MAX 512

static bool mpi_started; /* MPI_Init_thread was called */
static int mpi_rank;     /* this process's rank */
static int mpi_size;     /* ranks in the job */

bool mpi_run_launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

/* Starts MPI once: 0, or -1 with err. */
static int mpi_start(char *err, size_t errlen)
{
    if (mpi_started)
        return 0;
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        snprintf(err, errlen, "MPI: cannot start (MPI_Init_thread failed)");
        return -1;
    }
    mpi_started = true;
    /* A lost rank shows as an error code, turned into a message, not a silent abort. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
    if (provided < MPI_THREAD_SERIALIZED) {
        snprintf(err, errlen, "MPI: this MPI library does not allow threads (SERIALIZED)");
        return -1;
    }
    return 0;
}

int mpi_run_world(int *rank, int *size, char *err, size_t errlen)
{
    if (mpi_start(err, errlen))
        return -1;
    *rank = mpi_rank;
    *size = mpi_size;
    return 0;
}

void mpi_run_finish(void)
{
    if (mpi_started)
        MPI_Finalize();
    mpi_started = false;
}

_Noreturn void mpi_run_die(const char *message)
{
    fprintf(stderr, "skyline: %s\n", message);
    fflush(stderr);
    if (mpi_started && mpi_size > 1)
        MPI_Abort(MPI_COMM_WORLD, 1);
    mpi_run_finish();
    exit(1);
}

/* The one-line message of an MPI error code. */
static void mpi_error_text(int code, const char *what, int peer, char *err, size_t errlen)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, text, &len);
    snprintf(err, errlen,
             "MPI: %s rank %d failed (%s): a rank was lost; run the same command again to "
             "resume",
             what, peer, text);
}

static void mpi_nap(void)
{
    struct timespec ts = {0, 50000};
    nanosleep(&ts, NULL);
}

/* ---- Rank 0 ------------------------------------------------------------------------ */

/* A game slot of a worker rank, as seen from rank 0. */
typedef struct mpi_slot {
    int rank;                    /* the rank that plays its games */
    long index;                  /* game asked for */
    bool ready;                  /* its result arrived */
    bool failed;                 /* the result is an error (err) */
    char *line;                  /* the record line (malloc'ed) */
    int ranks[GAME_MAX_PLAYERS]; /* ranks per seat */
    int forfeit;                 /* forfeit seat or -1 */
    char err[MPI_ERR_MAX];       /* the worker's error */
} mpi_slot_t;

/* Rank 0's routing state, shared by its game threads and the communication thread. */
typedef struct mpi_root {
    pthread_mutex_t lock;  /* guards everything below */
    pthread_cond_t cond;   /* signalled when a result arrives or the link breaks */
    mpi_slot_t *slots;     /* slot_count slots */
    int slot_count;        /* game slots over all worker ranks */
    int *sendq;            /* slots whose game is to be sent */
    int send_count;        /* their number */
    bool quit;             /* the tournament is over: stop the ranks */
    bool broken;           /* an MPI call failed: err holds why */
    char err[MPI_ERR_MAX]; /* that failure */
    long messages;         /* messages sent and received */
    long bytes;            /* their payload bytes */
} mpi_root_t;

static int mpi_root_play(void *ctx, int slot, long index, char **line, int *ranks, int *forfeit,
                         char *err, size_t errlen)
{
    mpi_root_t *m = ctx;
    mpi_slot_t *s = &m->slots[slot];
    pthread_mutex_lock(&m->lock);
    s->index = index;
    s->ready = false;
    m->sendq[m->send_count++] = slot;
    while (!s->ready && !m->broken)
        pthread_cond_wait(&m->cond, &m->lock);
    int rc = 0;
    if (!s->ready) {
        snprintf(err, errlen, "%s", m->err);
        rc = -1;
    } else if (s->failed) {
        snprintf(err, errlen, "%s", s->err);
        rc = -1;
    } else {
        *line = s->line;
        s->line = NULL;
        memcpy(ranks, s->ranks, sizeof s->ranks);
        *forfeit = s->forfeit;
    }
    pthread_mutex_unlock(&m->lock);
    return rc;
}

static void mpi_root_break(mpi_root_t *m, int code, const char *what, int peer)
{
    pthread_mutex_lock(&m->lock);
    if (!m->broken)
        mpi_error_text(code, what, peer, m->err, sizeof m->err);
    m->broken = true;
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
}

/* Receives one result if one is waiting: 1 received, 0 none, -1 broken. */
static int mpi_root_receive(mpi_root_t *m)
{
    int flag = 0;
    MPI_Status st;
    int rc = MPI_Iprobe(MPI_ANY_SOURCE, MPI_TAG_RESULT, MPI_COMM_WORLD, &flag, &st);
    if (rc != MPI_SUCCESS) {
        mpi_root_break(m, rc, "waiting for", -1);
        return -1;
    }
    if (!flag)
        return 0;
    int n = 0;
    MPI_Get_count(&st, MPI_BYTE, &n);
    char *buf = malloc((size_t)n + 1);
    if (!buf) {
        mpi_root_break(m, MPI_ERR_NO_MEM, "receiving from", st.MPI_SOURCE);
        return -1;
    }
    rc = MPI_Recv(buf, n, MPI_BYTE, st.MPI_SOURCE, MPI_TAG_RESULT, MPI_COMM_WORLD,
                  MPI_STATUS_IGNORE);
    long long head[MPI_HEAD];
    if (rc != MPI_SUCCESS || n < (int)sizeof head) {
        free(buf);
        mpi_root_break(m, rc != MPI_SUCCESS ? rc : MPI_ERR_TRUNCATE, "receiving from",
                       st.MPI_SOURCE);
        return -1;
    }
    memcpy(head, buf, sizeof head);
    size_t len = (size_t)n - sizeof head;
    pthread_mutex_lock(&m->lock);
    m->messages++;
    m->bytes += n;
    mpi_slot_t *s = head[0] >= 0 && head[0] < m->slot_count ? &m->slots[head[0]] : NULL;
    if (s) {
        s->failed = head[2] != 0;
        s->forfeit = (int)head[3];
        for (int k = 0; k < GAME_MAX_PLAYERS; k++)
            s->ranks[k] = (int)head[4 + k];
        if (s->failed) {
            snprintf(s->err, sizeof s->err, "rank %d: %.*s", st.MPI_SOURCE, (int)len,
                     buf + sizeof head);
        } else {
            memmove(buf, buf + sizeof head, len);
            buf[len] = 0;
            s->line = buf;
            buf = NULL;
        }
        s->ready = true;
        pthread_cond_broadcast(&m->cond);
    }
    pthread_mutex_unlock(&m->lock);
    free(buf);
    return 1;
}

static void *mpi_root_comm(void *arg)
{
    mpi_root_t *m = arg;
    int *batch = malloc(sizeof *batch * (size_t)m->slot_count);
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int count = m->send_count;
        if (batch)
            memcpy(batch, m->sendq, sizeof *batch * (size_t)count);
        m->send_count = 0;
        bool quit = m->quit, broken = m->broken;
        pthread_mutex_unlock(&m->lock);
        if (broken || quit || !batch)
            break;
        for (int k = 0; k < count; k++) {
            mpi_slot_t *s = &m->slots[batch[k]];
            long long msg[2] = {batch[k], s->index};
            int rc = MPI_Send(msg, 2, MPI_LONG_LONG, s->rank, MPI_TAG_GAME, MPI_COMM_WORLD);
            if (rc != MPI_SUCCESS) {
                mpi_root_break(m, rc, "sending to", s->rank);
                break;
            }
            pthread_mutex_lock(&m->lock);
            m->messages++;
            m->bytes += (long)sizeof msg;
            pthread_mutex_unlock(&m->lock);
        }
        int got = mpi_root_receive(m);
        if (got < 0)
            break;
        if (got == 0 && count == 0)
            mpi_nap();
    }
    free(batch);
    if (!batch)
        mpi_root_break(m, MPI_ERR_NO_MEM, "routing for", 0);
    return NULL;
}

/* Rank 0: the tournament with the other ranks' game slots as its workers. */
static int mpi_root_run(tournament_config_t *cfg, tournament_report_t *rep, char *err,
                        size_t errlen)
{
    int *counts = calloc((size_t)mpi_size, sizeof *counts);
    int mine = 0, rc = -1;
    if (!counts) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int code = MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (code != MPI_SUCCESS) {
        mpi_error_text(code, "starting with", -1, err, errlen);
        free(counts);
        return -1;
    }
    mpi_root_t m;
    memset(&m, 0, sizeof m);
    for (int r = 1; r < mpi_size; r++)
        m.slot_count += counts[r];
    m.slots = calloc((size_t)m.slot_count, sizeof *m.slots);
    m.sendq = calloc((size_t)m.slot_count, sizeof *m.sendq);
    if (!m.slots || !m.sendq) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    /* Slots take the ranks in turn, so that a short run still spreads over them. */
    for (int s = 0, left = m.slot_count; left > 0;)
        for (int r = 1; r < mpi_size; r++)
            if (counts[r] > 0) {
                counts[r]--;
                m.slots[s++].rank = r;
                left--;
            }
    pthread_mutex_init(&m.lock, NULL);
    pthread_cond_init(&m.cond, NULL);
    pthread_t comm;
    if (pthread_create(&comm, NULL, mpi_root_comm, &m)) {
        snprintf(err, errlen, "cannot start the MPI communication thread");
        goto done;
    }
    tournament_remote_t remote = {mpi_root_play, &m};
    cfg->remote = &remote;
    cfg->workers = m.slot_count;
    rc = tournament_run(cfg, rep, err, errlen);
    cfg->remote = NULL;
    pthread_mutex_lock(&m.lock);
    m.quit = true;
    bool broken = m.broken;
    pthread_mutex_unlock(&m.lock);
    pthread_join(comm, NULL);
    if (!broken) {
        long long stop[2] = {-1, -1};
        for (int r = 1; r < mpi_size; r++) {
            code = MPI_Send(stop, 2, MPI_LONG_LONG, r, MPI_TAG_GAME, MPI_COMM_WORLD);
            if (code != MPI_SUCCESS && rc == 0) {
                mpi_error_text(code, "stopping", r, err, errlen);
                rc = -1;
            }
        }
    }
    if (rc == 0 && cfg->progress && rep->played > 0)
        fprintf(stderr,
                "mpi: %d ranks, %d game slots: %ld messages, %ld bytes (%.1f messages, %.0f "
                "bytes a game)\n",
                mpi_size, m.slot_count, m.messages, m.bytes,
                (double)m.messages / (double)rep->played, (double)m.bytes / (double)rep->played);
    pthread_cond_destroy(&m.cond);
    pthread_mutex_destroy(&m.lock);
done:
    for (int s = 0; m.slots && s < m.slot_count; s++)
        free(m.slots[s].line);
    free(m.slots);
    free(m.sendq);
    free(counts);
    return rc;
}

/* ---- Worker ranks ------------------------------------------------------------------ */

/* A worker rank's queues between its main thread (MPI) and its game threads. */
typedef struct mpi_worker {
    const tournament_config_t *cfg;     /* the tournament */
    tournament_schedule_t sched;        /* its schedule */
    char hash[TOURNAMENT_HASH_LEN + 1]; /* its configuration hash */
    pthread_mutex_t lock;               /* guards the queues and stop */
    pthread_cond_t cond;                /* signalled when a game arrives or on stop */
    long long (*inq)[2];                /* games to play: {slot, index} */
    int in_count;                       /* their number */
    char **outq;                        /* result messages to send */
    int *out_len;                       /* their lengths */
    int out_count;                      /* their number */
    bool stop;                          /* rank 0 is done */
} mpi_worker_t;

/* One result message: header then text (record line or error). NULL if out of memory. */
static char *mpi_result_pack(long long slot, long long index, int status, int forfeit,
                             const int *ranks, const char *text, int *len)
{
    long long head[MPI_HEAD] = {slot, index, status, forfeit};
    for (int k = 0; k < GAME_MAX_PLAYERS; k++)
        head[4 + k] = ranks ? ranks[k] : 0;
    size_t tl = strlen(text);
    char *buf = malloc(sizeof head + tl);
    if (!buf)
        return NULL;
    memcpy(buf, head, sizeof head);
    memcpy(buf + sizeof head, text, tl);
    *len = (int)(sizeof head + tl);
    return buf;
}

static void *mpi_worker_games(void *arg)
{
    mpi_worker_t *w = arg;
    tournament_bots_t bots;
    memset(bots, 0, sizeof bots);
    for (;;) {
        pthread_mutex_lock(&w->lock);
        while (!w->in_count && !w->stop)
            pthread_cond_wait(&w->cond, &w->lock);
        if (!w->in_count) {
            pthread_mutex_unlock(&w->lock);
            break;
        }
        long long slot = w->inq[0][0], index = w->inq[0][1];
        memmove(w->inq, w->inq + 1, sizeof *w->inq * (size_t)--w->in_count);
        pthread_mutex_unlock(&w->lock);
        char err[MPI_ERR_MAX], *line = NULL;
        int ranks[GAME_MAX_PLAYERS] = {0}, forfeit = -1, len = 0;
        int rc = tournament_game_play(w->cfg, &w->sched, w->hash, bots, (long)index, &line, ranks,
                                      &forfeit, err, sizeof err);
        char *msg = mpi_result_pack(slot, index, rc ? 1 : 0, forfeit, ranks, rc ? err : line, &len);
        free(line);
        if (!msg)
            msg = mpi_result_pack(slot, index, 1, -1, NULL, "out of memory", &len);
        pthread_mutex_lock(&w->lock);
        w->outq[w->out_count] = msg;
        w->out_len[w->out_count++] = len;
        pthread_mutex_unlock(&w->lock);
    }
    for (int s = 0; s < GAME_MAX_PLAYERS; s++)
        for (int b = 0; b < TOURNAMENT_MAX_BOTS; b++)
            bot_free(bots[s][b]);
    return NULL;
}

/* The worker rank's main loop: games in, results out, until rank 0 says stop. */
static int mpi_worker_loop(mpi_worker_t *w, char *err, size_t errlen)
{
    for (;;) {
        int flag = 0, sent = 0;
        int code = MPI_Iprobe(0, MPI_TAG_GAME, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (code == MPI_SUCCESS && flag) {
            long long msg[2];
            code =
                MPI_Recv(msg, 2, MPI_LONG_LONG, 0, MPI_TAG_GAME, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (code == MPI_SUCCESS) {
                pthread_mutex_lock(&w->lock);
                if (msg[1] < 0) {
                    w->stop = true;
                } else {
                    w->inq[w->in_count][0] = msg[0];
                    w->inq[w->in_count++][1] = msg[1];
                }
                pthread_cond_broadcast(&w->cond);
                bool stop = w->stop;
                pthread_mutex_unlock(&w->lock);
                if (stop)
                    return 0;
            }
        }
        if (code != MPI_SUCCESS) {
            mpi_error_text(code, "receiving from", 0, err, errlen);
            return -1;
        }
        for (;;) {
            pthread_mutex_lock(&w->lock);
            char *msg = w->out_count ? w->outq[0] : NULL;
            int len = w->out_count ? w->out_len[0] : 0;
            if (msg) {
                w->out_count--;
                memmove(w->outq, w->outq + 1, sizeof *w->outq * (size_t)w->out_count);
                memmove(w->out_len, w->out_len + 1, sizeof *w->out_len * (size_t)w->out_count);
            }
            pthread_mutex_unlock(&w->lock);
            if (!msg)
                break;
            code = MPI_Send(msg, len, MPI_BYTE, 0, MPI_TAG_RESULT, MPI_COMM_WORLD);
            free(msg);
            if (code != MPI_SUCCESS) {
                mpi_error_text(code, "sending to", 0, err, errlen);
                return -1;
            }
            sent++;
        }
        if (!flag && !sent)
            mpi_nap();
    }
}

static int mpi_worker_run(const tournament_config_t *cfg, char *err, size_t errlen)
{
    int workers = cfg->workers > 0 ? cfg->workers : 1;
    int code = MPI_Gather(&workers, 1, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
    if (code != MPI_SUCCESS) {
        mpi_error_text(code, "starting with", 0, err, errlen);
        return -1;
    }
    mpi_worker_t w;
    memset(&w, 0, sizeof w);
    w.cfg = cfg;
    if (tournament_schedule_init(&w.sched, cfg->bot_count, cfg->opt.players, cfg->format,
                                 cfg->opt.seed, err, errlen))
        return -1;
    tournament_config_hash(cfg, w.hash);
    w.inq = calloc((size_t)workers, sizeof *w.inq);
    w.outq = calloc((size_t)workers, sizeof *w.outq);
    w.out_len = calloc((size_t)workers, sizeof *w.out_len);
    pthread_t *th = calloc((size_t)workers, sizeof *th);
    int rc = -1, started = 0;
    if (!w.inq || !w.outq || !w.out_len || !th) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    pthread_mutex_init(&w.lock, NULL);
    pthread_cond_init(&w.cond, NULL);
    for (; started < workers; started++)
        if (pthread_create(&th[started], NULL, mpi_worker_games, &w))
            break;
    if (started < workers)
        snprintf(err, errlen, "cannot start worker threads");
    else
        rc = mpi_worker_loop(&w, err, errlen);
    pthread_mutex_lock(&w.lock);
    w.stop = true;
    pthread_cond_broadcast(&w.cond);
    pthread_mutex_unlock(&w.lock);
    for (int k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    for (int k = 0; k < w.out_count; k++)
        free(w.outq[k]);
    pthread_cond_destroy(&w.cond);
    pthread_mutex_destroy(&w.lock);
done:
    free(th);
    free(w.inq);
    free(w.outq);
    free(w.out_len);
    tournament_schedule_free(&w.sched);
    return rc;
}

int mpi_run_tournament(tournament_config_t *cfg, tournament_report_t *rep, bool *is_root, char *err,
                       size_t errlen)
{
    *is_root = true;
    if (mpi_start(err, errlen))
        return -1;
    if (mpi_size < 2)
        return tournament_run(cfg, rep, err, errlen);
    *is_root = mpi_rank == 0;
    return *is_root ? mpi_root_run(cfg, rep, err, errlen) : mpi_worker_run(cfg, err, errlen);
}
