/* close_range and syscall numbers are Linux extensions. */
#define _GNU_SOURCE
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Slots of the table of live child groups that a fatal signal kills. */
#define PROC_SLOTS 1024

static atomic_int proc_groups[PROC_SLOTS];
static pthread_once_t proc_once = PTHREAD_ONCE_INIT;
/* Pipes are made and flagged close-on-exec under this lock, and fork only under it, so no
   child inherits another child's pipe (which would hide that child's end of output). */
static pthread_mutex_t proc_spawn_lock = PTHREAD_MUTEX_INITIALIZER;

double proc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Kills every registered child group, then dies of the signal as it would have. */
static void proc_on_signal(int sig)
{
    for (int i = 0; i < PROC_SLOTS; i++) {
        int g = atomic_load(&proc_groups[i]);
        if (g > 0)
            kill(-g, SIGKILL);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void proc_install_handlers(void)
{
    int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old, sa;
        /* A signal this program was told to ignore (nohup) stays ignored. */
        if (sigaction(sigs[i], NULL, &old) || old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = proc_on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

static int proc_register(pid_t pid)
{
    for (int i = 0; i < PROC_SLOTS; i++) {
        int zero = 0;
        if (atomic_compare_exchange_strong(&proc_groups[i], &zero, (int)pid))
            return i;
    }
    return -1; /* table full: PR_SET_PDEATHSIG still ends the child with this program */
}

/* The supervisor's answer to its parent's death: its whole group goes. */
static void proc_supervisor_die(int sig)
{
    (void)sig;
    kill(0, SIGKILL);
}

/*
 * The child of proc_start: a supervisor leading a new process group. It starts the bot in
 * that group, waits for it and ends as it ended. When the thread that started it dies
 * (even by SIGKILL) it kills the group, so a bot's own children go too. Only
 * async-signal-safe calls: the parent may have threads.
 */
static _Noreturn void proc_supervise(const char *path, pid_t parent, int in, int out)
{
    setpgid(0, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGPIPE, &sa, NULL);
    sa.sa_handler = proc_supervisor_die;
    sigaction(SIGTERM, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        kill(0, SIGKILL); /* the parent died before the line above */
    pid_t bot = fork();
    if (bot == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        sa.sa_handler = SIG_DFL;
        sigaction(SIGTERM, &sa, NULL);
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0)
            _exit(127);
        close_range(3, ~0u, 0); /* nothing of the harness's open files */
        char *argv[] = {(char *)path, NULL};
        execv(path, argv);
        _exit(127);
    }
    close_range(3, ~0u, 0); /* no pipe end held here: the harness sees the bot's EOF */
    if (bot < 0)
        _exit(127);
    int st;
    while (waitpid(bot, &st, 0) < 0)
        if (errno != EINTR)
            _exit(127);
    if (WIFEXITED(st))
        _exit(WEXITSTATUS(st));
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    sa.sa_handler = SIG_DFL;
    sigaction(WTERMSIG(st), &sa, NULL);
    raise(WTERMSIG(st));
    _exit(128 + WTERMSIG(st));
}

static int proc_cloexec_pipe(int fds[2])
{
    if (pipe(fds))
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

int proc_start(proc_t *p, const char *path, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->in_fd = p->out_fd = p->slot = -1;
    pthread_once(&proc_once, proc_install_handlers);
    int to_child[2], from_child[2];
    pid_t parent = getpid();
    pthread_mutex_lock(&proc_spawn_lock);
    if (proc_cloexec_pipe(to_child)) {
        pthread_mutex_unlock(&proc_spawn_lock);
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        return -1;
    }
    if (proc_cloexec_pipe(from_child)) {
        close(to_child[0]);
        close(to_child[1]);
        pthread_mutex_unlock(&proc_spawn_lock);
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0)
        proc_supervise(path, parent, to_child[0], from_child[1]);
    int saved = errno;
    close(to_child[0]);
    close(from_child[1]);
    pthread_mutex_unlock(&proc_spawn_lock);
    if (pid < 0) {
        close(to_child[1]);
        close(from_child[0]);
        snprintf(err, errlen, "cannot start '%s': %s", path, strerror(saved));
        return -1;
    }
    setpgid(pid, pid); /* also here, so the group exists before any kill */
    p->pid = pid;
    p->slot = proc_register(pid);
    p->in_fd = to_child[1];
    p->out_fd = from_child[0];
    fcntl(p->in_fd, F_SETFL, fcntl(p->in_fd, F_GETFL) | O_NONBLOCK);
    fcntl(p->out_fd, F_SETFL, fcntl(p->out_fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

/* Milliseconds left before deadline for poll (-1: none). */
static int proc_wait_ms(double deadline)
{
    if (deadline < 0)
        return -1;
    double left = deadline - proc_now();
    return left <= 0 ? 0 : (int)(left * 1000.0) + 1;
}

/* One write with SIGPIPE blocked in this thread (and a pending one consumed), so a child
   that is gone gives EPIPE, not the death of this program. */
static ssize_t proc_write_once(int fd, const char *text, size_t len)
{
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    ssize_t n = write(fd, text, len);
    int saved = errno;
    if (n < 0 && saved == EPIPE) {
        struct timespec zero = {0, 0};
        sigtimedwait(&pipe_set, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return n;
}

int proc_write(proc_t *p, const char *text, double deadline)
{
    if (p->in_fd < 0)
        return PROC_EOF;
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t n = proc_write_once(p->in_fd, text + done, len - done);
        if (n > 0) {
            done += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            return PROC_EOF;
        struct pollfd pfd = {.fd = p->in_fd, .events = POLLOUT};
        int ms = proc_wait_ms(deadline);
        if (ms == 0)
            return PROC_TIMEOUT;
        if (poll(&pfd, 1, ms) == 0)
            return PROC_TIMEOUT;
    }
    return PROC_OK;
}

int proc_read_line(proc_t *p, double deadline, const char **line)
{
    for (;;) {
        char *nl = p->len > p->start ? memchr(p->buf + p->start, '\n', p->len - p->start) : NULL;
        if (nl) {
            char *s = p->buf + p->start;
            *nl = 0;
            if (nl > s && nl[-1] == '\r')
                nl[-1] = 0;
            p->start = (size_t)(nl - p->buf) + 1;
            *line = s;
            return PROC_OK;
        }
        if (p->len - p->start > PROC_LINE_MAX)
            return PROC_TOO_LONG;
        if (p->start > 0) { /* keep only the unfinished line */
            memmove(p->buf, p->buf + p->start, p->len - p->start);
            p->len -= p->start;
            p->start = 0;
        }
        if (p->cap - p->len < 4096) {
            size_t cap = p->cap ? p->cap * 2 : 8192;
            char *b = realloc(p->buf, cap);
            if (!b)
                return PROC_TOO_LONG;
            p->buf = b;
            p->cap = cap;
        }
        if (p->out_fd < 0)
            return PROC_EOF;
        ssize_t n = read(p->out_fd, p->buf + p->len, p->cap - p->len - 1);
        if (n > 0) {
            p->len += (size_t)n;
            continue;
        }
        if (n == 0)
            return PROC_EOF;
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            return PROC_EOF;
        struct pollfd pfd = {.fd = p->out_fd, .events = POLLIN};
        int ms = proc_wait_ms(deadline);
        if (ms == 0 || poll(&pfd, 1, ms) == 0)
            return PROC_TIMEOUT;
    }
}

/* True if the child has ended (not reaped: its pid, hence its group id, stays taken). */
static bool proc_ended(pid_t pid, siginfo_t *info)
{
    memset(info, 0, sizeof *info);
    return waitid(P_PID, (id_t)pid, info, WEXITED | WNOHANG | WNOWAIT) == 0 && info->si_pid == pid;
}

/* Waits up to seconds for the child to end; true if it did. */
static bool proc_wait_end(pid_t pid, double seconds, siginfo_t *info)
{
    double end = proc_now() + seconds;
    for (;;) {
        if (proc_ended(pid, info))
            return true;
        if (proc_now() >= end)
            return false;
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

const char *proc_why_closed(proc_t *p, char *detail, size_t len)
{
    siginfo_t info;
    if (p->pid <= 0 || !proc_wait_end(p->pid, 2.0, &info)) {
        snprintf(detail, len, "closed its output");
        return "closed";
    }
    if (info.si_code == CLD_EXITED)
        snprintf(detail, len, "exit status %d", info.si_status);
    else
        snprintf(detail, len, "killed by signal %d", info.si_status);
    return "exit";
}

void proc_stop(proc_t *p, bool polite)
{
    if (p->pid > 0) {
        siginfo_t info;
        if (polite && proc_write(p, "quit\n", proc_now() + 0.5) == PROC_OK) {
            close(p->in_fd);
            p->in_fd = -1;
            proc_wait_end(p->pid, 2.0, &info);
        }
        /* The whole group: a wrapper script's children go too. */
        kill(-p->pid, SIGKILL);
        kill(p->pid, SIGKILL);
        if (p->slot >= 0)
            atomic_store(&proc_groups[p->slot], 0);
        while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (p->in_fd >= 0)
        close(p->in_fd);
    if (p->out_fd >= 0)
        close(p->out_fd);
    free(p->buf);
    memset(p, 0, sizeof *p);
    p->in_fd = p->out_fd = p->slot = -1;
}
