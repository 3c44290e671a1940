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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Slots of the table of live supervisors that a fatal signal tells to end. */
#define PROC_SLOTS 1024

static atomic_int proc_groups[PROC_SLOTS];
static pthread_once_t proc_once = PTHREAD_ONCE_INIT;
/* Pipes are made and flagged close-on-exec under this lock, and fork only under it, so no
   child inherits another child's pipe (which would hide that child's end of output). */
static pthread_mutex_t proc_spawn_lock = PTHREAD_MUTEX_INITIALIZER;
/* The lifeline: a pipe whose write end only this program keeps. Every supervisor holds the
   read end and sees its end of file when this program ends, however it ends (a thread's
   end is not the program's: PR_SET_PDEATHSIG would be). Made under proc_spawn_lock. */
static int proc_lifeline[2] = {-1, -1};

double proc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Tells every registered supervisor to end its bot, then dies of the signal as it would
   have. (Were it missed, the lifeline's end of file tells them too.) */
static void proc_on_signal(int sig)
{
    for (int i = 0; i < PROC_SLOTS; i++) {
        int g = atomic_load(&proc_groups[i]);
        if (g > 0)
            kill(g, SIGTERM);
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
    return -1; /* table full: the lifeline still ends the child with this program */
}

/* ---- The supervisor (a child of this program; async-signal-safe calls only) --------- */

static volatile sig_atomic_t proc_sup_term; /* SIGTERM came: end the bot */

static void proc_sup_flag(int sig)
{
    if (sig == SIGTERM)
        proc_sup_term = 1;
    /* SIGCHLD only interrupts ppoll */
}

/* The parent pid in /proc/PID/stat, or -1. */
static pid_t proc_parent_of(pid_t pid)
{
    char path[40], buf[512];
    int k = (int)sizeof "/proc/" - 1, d = 0;
    memcpy(path, "/proc/", (size_t)k);
    char digits[16];
    for (pid_t v = pid; v > 0 && d < 15; v /= 10)
        digits[d++] = (char)('0' + v % 10);
    while (d > 0)
        path[k++] = digits[--d];
    memcpy(path + k, "/stat", sizeof "/stat");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    /* "pid (comm) S ppid ...": comm may hold anything, so the last ')' ends it. */
    char *c = NULL;
    for (char *q = buf; *q; q++)
        if (*q == ')')
            c = q;
    if (!c || c[1] != ' ' || !c[2] || c[3] != ' ')
        return -1;
    pid_t ppid = 0;
    for (c += 4; *c >= '0' && *c <= '9'; c++)
        ppid = ppid * 10 + (*c - '0');
    return ppid;
}

/* Kills every child of this process (what it started, and the orphans of its descendants,
   which come to it as a subreaper), and the group each of them leads. */
static void proc_kill_children(void)
{
    pid_t self = getpid();
    int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return;
    _Alignas(8) char buf[4096];
    long n;
    while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0) {
        for (long off = 0; off < n;) {
            /* struct linux_dirent64: inode, offset, record length, type, name */
            unsigned short reclen;
            memcpy(&reclen, buf + off + 16, sizeof reclen);
            const char *name = buf + off + 19;
            off += reclen;
            pid_t pid = 0;
            for (const char *c = name; *c && pid >= 0; c++)
                pid = *c >= '0' && *c <= '9' && pid < 100000000 ? pid * 10 + (*c - '0') : -1;
            if (pid <= 0 || pid == self || proc_parent_of(pid) != self)
                continue;
            if (getpgid(pid) == pid)
                kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
    }
    close(dir);
}

/* Kills the bot's group and every descendant of this process until none is left. A killed
   process's children come here (the subreaper), so each round takes one more level. */
static void proc_kill_all(pid_t bot)
{
    if (bot > 0)
        kill(-bot, SIGKILL);
    for (;;) {
        proc_kill_children();
        if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
            return;
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
    }
}

/* Ends the supervisor as the bot ended (its waitid record), without a core file. */
static _Noreturn void proc_sup_exit_as(const siginfo_t *info)
{
    if (info->si_code == CLD_EXITED)
        _exit(info->si_status);
    int sig = info->si_status;
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigaction(sig, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    raise(sig);
    _exit(128 + sig);
}

/* Reaps the children that ended, but the bot: true if the bot ended (left unreaped, so its
   pid stays its group's id until the group is killed), its record in *info. */
static bool proc_sup_reap(pid_t bot, siginfo_t *info)
{
    for (;;) {
        memset(info, 0, sizeof *info);
        if (waitid(P_ALL, 0, info, WEXITED | WNOHANG | WNOWAIT) || info->si_pid == 0)
            return false;
        if (info->si_pid == bot)
            return true;
        waitpid(info->si_pid, NULL, 0);
    }
}

/* The bot itself: its own process group, its pipes as standard input and output. */
static _Noreturn void proc_exec_bot(const char *path, pid_t supervisor, int in, int out)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* the supervisor is single-threaded */
    if (getppid() != supervisor)
        _exit(127); /* the supervisor died before the line above */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGCHLD, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0)
        _exit(127);
    close_range(3, ~0u, 0); /* nothing of the harness's open files */
    char *argv[] = {(char *)path, NULL};
    execv(path, argv);
    _exit(127);
}

/*
 * The child of proc_start: a supervisor, a subreaper (every orphan below it comes to it)
 * in a process group of its own. It starts the bot and waits for the first of: the bot's
 * end, SIGTERM (proc_stop, or this program's fatal signal), the lifeline's end of file
 * (this program ended). Then it kills the bot's group and every descendant left, even one
 * that left the group (setsid), and ends as the bot ended (or by SIGKILL if the bot ran).
 * It starts with every signal blocked (proc_start).
 */
static _Noreturn void proc_supervise(const char *path, int lifeline, int in, int out)
{
    setpgid(0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGPIPE, &sa, NULL);
    sa.sa_handler = proc_sup_flag;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGCHLD, &sa, NULL);
    sigset_t wait_set; /* blocked but for ppoll, so none is missed between checks */
    sigemptyset(&wait_set);
    sigaddset(&wait_set, SIGTERM);
    sigaddset(&wait_set, SIGCHLD);
    sigprocmask(SIG_SETMASK, &wait_set, NULL);
    pid_t bot = fork();
    if (bot == 0)
        proc_exec_bot(path, getppid(), in, out);
    if (bot > 0)
        setpgid(bot, bot);
    /* Only the lifeline's read end is kept (as fd 0): no pipe end held here, so the
       harness sees the bot's end of output, and no lifeline write end. */
    dup2(lifeline, 0);
    close_range(1, ~0u, 0);
    if (bot < 0)
        _exit(127);
    sigset_t none;
    sigemptyset(&none);
    siginfo_t info;
    bool ended = false;
    for (;;) {
        ended = proc_sup_reap(bot, &info);
        if (ended || proc_sup_term)
            break;
        struct pollfd pfd = {.fd = 0, .events = POLLIN};
        if (ppoll(&pfd, 1, NULL, &none) > 0 || (errno != EINTR && errno != EAGAIN))
            break; /* the lifeline's end of file: the harness ended */
    }
    proc_kill_all(bot);
    if (ended)
        proc_sup_exit_as(&info);
    kill(getpid(), SIGKILL);
    _exit(137);
}

/* ---- The harness side ---------------------------------------------------------------- */

/* fd moved to 3 or above (0, 1 and 2 are the child's standard files), close-on-exec. */
static int proc_high_fd(int fd)
{
    if (fd >= 3) {
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        return fd;
    }
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    return high;
}

static int proc_cloexec_pipe(int fds[2])
{
    if (pipe(fds))
        return -1;
    fds[0] = proc_high_fd(fds[0]);
    fds[1] = proc_high_fd(fds[1]);
    if (fds[0] >= 0 && fds[1] >= 0)
        return 0;
    if (fds[0] >= 0)
        close(fds[0]);
    if (fds[1] >= 0)
        close(fds[1]);
    return -1;
}

/* Makes the pipes (and the lifeline once), with proc_spawn_lock held: 0, or -1. */
static int proc_make_pipes(int to_child[2], int from_child[2])
{
    if (proc_lifeline[1] < 0 && proc_cloexec_pipe(proc_lifeline))
        return -1;
    if (proc_cloexec_pipe(to_child))
        return -1;
    if (proc_cloexec_pipe(from_child)) {
        close(to_child[0]);
        close(to_child[1]);
        return -1;
    }
    return 0;
}

int proc_start(proc_t *p, const char *path, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->in_fd = p->out_fd = p->slot = -1;
    pthread_once(&proc_once, proc_install_handlers);
    int to_child[2], from_child[2];
    pthread_mutex_lock(&proc_spawn_lock);
    if (proc_make_pipes(to_child, from_child)) {
        pthread_mutex_unlock(&proc_spawn_lock);
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        return -1;
    }
    /* The child starts with every signal blocked: none of this program's handlers runs
       in it before it sets its own. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = fork();
    if (pid == 0)
        proc_supervise(path, proc_lifeline[0], to_child[0], from_child[1]);
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
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
            /* "move 1\0junk" must not pass for "move 1". */
            return memchr(s, 0, (size_t)(nl - s)) ? PROC_NUL : PROC_OK;
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
        /* The supervisor kills the bot and all it started, then ends. One that does not
           end (stopped by someone) is killed: the bot dies with it (PR_SET_PDEATHSIG). */
        kill(p->pid, SIGTERM);
        if (!proc_wait_end(p->pid, 10.0, &info))
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
