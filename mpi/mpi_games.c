/*
 * Games over MPI ranks (mpi_run.h), for the commands that play numbered games. Rank 0 keeps
 * its own run (file, schedule, resume, stopping rules) with one thread per game slot of the
 * other ranks: each such thread hands its game index to a communication thread, which sends
 * it to the slot's rank and routes the record that comes back. The other ranks only play
 * games, each on its own worker threads. Only the communication thread calls MPI on rank 0,
 * only the main thread on the others (MPI_THREAD_SERIALIZED).
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
/* Result header: slot, index, status (0 played, 1 error), then the command's info. */
#define MPI_HEAD    (3 + MPI_RUN_INFO)
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
    int rank;                     /* the rank that plays its games */
    long index;                   /* game asked for */
    bool ready;                   /* its result arrived */
    bool failed;                  /* the result is an error (err) */
    char *line;                   /* the record line (malloc'ed) */
    long long info[MPI_RUN_INFO]; /* the command's figures of the game */
    char err[MPI_ERR_MAX];        /* the worker's error */
} mpi_slot_t;

/* Rank 0's routing state, shared by its game threads and the communication thread. */
struct mpi_run_root {
    pthread_mutex_t lock;  /* guards everything below */
    pthread_cond_t cond;   /* signalled when a result arrives or the link breaks */
    pthread_t comm;        /* the communication thread */
    mpi_slot_t *slots;     /* slot_count slots */
    int slot_count;        /* game slots over all worker ranks */
    int *sendq;            /* slots whose game is to be sent */
    int send_count;        /* their number */
    bool quit;             /* the run is over: stop the ranks */
    bool broken;           /* an MPI call failed: err holds why */
    char err[MPI_ERR_MAX]; /* that failure */
    long messages;         /* messages sent and received */
    long bytes;            /* their payload bytes */
};

int mpi_run_root_play(mpi_run_root_t *m, int slot, long index, char **line, long long *info,
                      char *err, size_t errlen)
{
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
        memcpy(info, s->info, sizeof s->info);
    }
    pthread_mutex_unlock(&m->lock);
    return rc;
}

static void mpi_root_break(mpi_run_root_t *m, int code, const char *what, int peer)
{
    pthread_mutex_lock(&m->lock);
    if (!m->broken)
        mpi_error_text(code, what, peer, m->err, sizeof m->err);
    m->broken = true;
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
}

/* Receives one result if one is waiting: 1 received, 0 none, -1 broken. */
static int mpi_root_receive(mpi_run_root_t *m)
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
        memcpy(s->info, head + 3, sizeof s->info);
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
    mpi_run_root_t *m = arg;
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

static void mpi_root_free(mpi_run_root_t *m)
{
    for (int s = 0; m->slots && s < m->slot_count; s++)
        free(m->slots[s].line);
    free(m->slots);
    free(m->sendq);
    free(m);
}

mpi_run_root_t *mpi_run_root_start(int *slots, char *err, size_t errlen)
{
    int *counts = calloc((size_t)mpi_size, sizeof *counts);
    mpi_run_root_t *m = calloc(1, sizeof *m);
    int mine = 0;
    if (!counts || !m) {
        snprintf(err, errlen, "out of memory");
        free(counts);
        free(m);
        return NULL;
    }
    int code = MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (code != MPI_SUCCESS) {
        mpi_error_text(code, "starting with", -1, err, errlen);
        free(counts);
        free(m);
        return NULL;
    }
    for (int r = 1; r < mpi_size; r++)
        m->slot_count += counts[r];
    m->slots = calloc((size_t)m->slot_count, sizeof *m->slots);
    m->sendq = calloc((size_t)m->slot_count, sizeof *m->sendq);
    if (!m->slots || !m->sendq) {
        snprintf(err, errlen, "out of memory");
        free(counts);
        mpi_root_free(m);
        return NULL;
    }
    /* Slots take the ranks in turn, so that a short run still spreads over them. */
    for (int s = 0, left = m->slot_count; left > 0;)
        for (int r = 1; r < mpi_size; r++)
            if (counts[r] > 0) {
                counts[r]--;
                m->slots[s++].rank = r;
                left--;
            }
    free(counts);
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->cond, NULL);
    if (pthread_create(&m->comm, NULL, mpi_root_comm, m)) {
        snprintf(err, errlen, "cannot start the MPI communication thread");
        pthread_cond_destroy(&m->cond);
        pthread_mutex_destroy(&m->lock);
        mpi_root_free(m);
        return NULL;
    }
    *slots = m->slot_count;
    return m;
}

int mpi_run_root_stop(mpi_run_root_t *m, int rc, long played, bool progress, char *err,
                      size_t errlen)
{
    pthread_mutex_lock(&m->lock);
    m->quit = true;
    bool broken = m->broken;
    pthread_mutex_unlock(&m->lock);
    pthread_join(m->comm, NULL);
    if (!broken) {
        long long stop[2] = {-1, -1};
        for (int r = 1; r < mpi_size; r++) {
            int code = MPI_Send(stop, 2, MPI_LONG_LONG, r, MPI_TAG_GAME, MPI_COMM_WORLD);
            if (code != MPI_SUCCESS && rc == 0) {
                mpi_error_text(code, "stopping", r, err, errlen);
                rc = -1;
            }
        }
    }
    if (rc == 0 && progress && played > 0)
        fprintf(stderr,
                "mpi: %d ranks, %d game slots: %ld messages, %ld bytes (%.1f messages, %.0f "
                "bytes a game)\n",
                mpi_size, m->slot_count, m->messages, m->bytes,
                (double)m->messages / (double)played, (double)m->bytes / (double)played);
    pthread_cond_destroy(&m->cond);
    pthread_mutex_destroy(&m->lock);
    mpi_root_free(m);
    return rc;
}

/* ---- Worker ranks ------------------------------------------------------------------ */

/* A worker rank's queues between its main thread (MPI) and its game threads. */
typedef struct mpi_worker {
    const mpi_run_player_t *p; /* what it plays */
    pthread_mutex_t lock;      /* guards the queues and stop */
    pthread_cond_t cond;       /* signalled when a game arrives or on stop */
    long long (*inq)[2];       /* games to play: {slot, index} */
    int in_count;              /* their number */
    char **outq;               /* result messages to send */
    int *out_len;              /* their lengths */
    int out_count;             /* their number */
    bool stop;                 /* rank 0 is done */
} mpi_worker_t;

/* One result message: header then text (record line or error). NULL if out of memory. */
static char *mpi_result_pack(long long slot, long long index, int status, const long long *info,
                             const char *text, int *len)
{
    long long head[MPI_HEAD] = {slot, index, status};
    if (info)
        memcpy(head + 3, info, sizeof(long long) * MPI_RUN_INFO);
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
    void *state = w->p->slot_new(w->p->ctx);
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
        long long info[MPI_RUN_INFO] = {0};
        int len = 0, rc = -1;
        if (state)
            rc = w->p->play(w->p->ctx, state, (long)index, &line, info, err, sizeof err);
        else
            snprintf(err, sizeof err, "out of memory");
        char *msg = mpi_result_pack(slot, index, rc ? 1 : 0, info, rc ? err : line, &len);
        free(line);
        if (!msg)
            msg = mpi_result_pack(slot, index, 1, NULL, "out of memory", &len);
        pthread_mutex_lock(&w->lock);
        w->outq[w->out_count] = msg;
        w->out_len[w->out_count++] = len;
        pthread_mutex_unlock(&w->lock);
    }
    if (state)
        w->p->slot_free(w->p->ctx, state);
    return NULL;
}

/* Sends the finished games' results: the number sent, or -1 with err. */
static int mpi_worker_send(mpi_worker_t *w, char *err, size_t errlen)
{
    int sent = 0;
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
            return sent;
        int code = MPI_Send(msg, len, MPI_BYTE, 0, MPI_TAG_RESULT, MPI_COMM_WORLD);
        free(msg);
        if (code != MPI_SUCCESS) {
            mpi_error_text(code, "sending to", 0, err, errlen);
            return -1;
        }
        sent++;
    }
}

/* The worker rank's main loop: games in, results out, until rank 0 says stop. */
static int mpi_worker_loop(mpi_worker_t *w, char *err, size_t errlen)
{
    for (;;) {
        int flag = 0;
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
        int sent = mpi_worker_send(w, err, errlen);
        if (sent < 0)
            return -1;
        if (!flag && !sent)
            mpi_nap();
    }
}

int mpi_run_worker(const mpi_run_player_t *p, int workers, char *err, size_t errlen)
{
    if (workers < 1)
        workers = 1;
    int code = MPI_Gather(&workers, 1, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
    if (code != MPI_SUCCESS) {
        mpi_error_text(code, "starting with", 0, err, errlen);
        return -1;
    }
    mpi_worker_t w;
    memset(&w, 0, sizeof w);
    w.p = p;
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
    return rc;
}
