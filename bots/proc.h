#pragma once
/*
 * Child processes spoken to by lines over pipes (the harness side of the Skyline Bot
 * Protocol, docs/PROTOCOL.md). Each child runs under a supervisor process, a subreaper
 * with a process group of its own, that kills the child and everything it started (even
 * what left its process group, setsid) when the child ends, when it is stopped, and when
 * this program ends however it ends (the supervisor holds a pipe whose write end only this
 * program keeps, so no thread's end matters). SIGINT, SIGTERM and SIGHUP of this program
 * tell every supervisor to do so before the program ends, so no bot process outlives it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Longest line a child may write, newline excluded. */
#define PROC_LINE_MAX 65536

/* A running child and what it has written that is not read yet. */
typedef struct proc {
    pid_t pid;    /* the child's supervisor (also its process group), 0 when none */
    int in_fd;    /* write end of the child's standard input, non-blocking */
    int out_fd;   /* read end of the child's standard output, non-blocking */
    char *buf;    /* bytes read, not yet returned as lines */
    size_t len;   /* bytes held in buf */
    size_t start; /* offset of the first byte not yet returned */
    size_t cap;   /* allocated size of buf */
    int slot;     /* the child's slot in the kill-on-signal table, or -1 */
} proc_t;

/* Results of proc_read_line and proc_write. */
#define PROC_OK       1
#define PROC_EOF      0  /* the child closed its output (or its input, on write) */
#define PROC_TIMEOUT  -2 /* the deadline passed */
#define PROC_TOO_LONG -3 /* a line longer than PROC_LINE_MAX */
#define PROC_NUL      -4 /* a line holding a NUL byte (no protocol message can) */

/* Monotonic seconds, for deadlines. */
double proc_now(void);
/* Starts path (an executable file, no arguments) with pipes on its standard input and
   output; its standard error is this program's. 0, or -1 with err filled. */
int proc_start(proc_t *p, const char *path, char *err, size_t errlen);
/* Writes text whole before deadline (proc_now() seconds; < 0: none): PROC_OK, PROC_EOF or
   PROC_TIMEOUT. */
int proc_write(proc_t *p, const char *text, double deadline);
/* The next line (without its newline or a '\r' before it) into *line, valid until the
   next call: PROC_OK, PROC_EOF, PROC_TIMEOUT, PROC_TOO_LONG or PROC_NUL (the line is
   consumed). */
int proc_read_line(proc_t *p, double deadline, const char **line);
/* Why a child that closed its output did so, into buf: "exit" (with "exit status N" or
   "killed by signal N" in detail) if it ended within 2 s, else "closed". */
const char *proc_why_closed(proc_t *p, char *detail, size_t len);
/* Ends the child: with polite, sends "quit" and waits up to 2 s for it to exit; then
   has its supervisor kill it and all it started, and reaps it. Nothing if no child. */
void proc_stop(proc_t *p, bool polite);
