#pragma once
/*
 * Text files line by line: whole lines whatever their length (every line-based reader
 * uses lines_next), and files that records are appended to, one line each, by one process
 * at a time (lines_file_t: play --record, tournament --out).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Reads a stream one whole line at a time. */
typedef struct lines_reader {
    FILE *f;         /* the stream read (not owned) */
    char *text;      /* the current line, without its '\n' nor a '\r' before it */
    size_t len;      /* bytes of text */
    size_t cap;      /* bytes allocated for text */
    long lineno;     /* number of the current line, from 1 */
    long long whole; /* bytes of the stream up to the last '\n' read */
    bool cut;        /* the current line ends the stream without a '\n' */
    bool nul;        /* lines_next failed on a NUL byte in the current line */
    int error;       /* lines_next failed on a read error: its errno */
} lines_reader_t;

void lines_init(lines_reader_t *r, FILE *f);
/* The next line: 1, 0 at the end of the stream, -1 on a read error or a NUL byte (a binary
   file: what follows a NUL would be invisible to the parsers). */
int lines_next(lines_reader_t *r);
/* The one-line message for lines_next's -1: "PATH:LINE: ..." or "PATH: ...". */
void lines_error(const lines_reader_t *r, const char *path, char *err, size_t errlen);
void lines_free(lines_reader_t *r);

/* A file appended to one line at a time by the process that holds its write lock. */
typedef struct lines_file {
    const char *path; /* as given by the user, for messages */
    int fd;           /* open for reading and appending; holds the lock */
    FILE *in;         /* reads the lines already there, on fd: closing any other
                         descriptor of the file would drop the process's lock */
} lines_file_t;

/* Opens (creates if new) and locks path before anything is read; a file another process
   holds is refused ("in use by another running skyline"). 0, or -1 with err. */
int lines_file_open(lines_file_t *a, const char *path, char *err, size_t errlen);
/* Cuts off a last line without '\n' (a writer killed in the middle of a record) with a
   note on stderr, so that nothing is ever appended after a partial line; refuses (-1, err)
   when that line does not start like a JSON record: the file is then not one of ours. */
int lines_file_drop_cut(lines_file_t *a, char *err, size_t errlen);
/* Appends len bytes (whole lines) in as few writes as the system allows. 0, or -1 (errno). */
int lines_file_write(lines_file_t *a, const char *buf, size_t len);
/* Closes the file, which drops the lock. 0, or -1 (errno). */
int lines_file_close(lines_file_t *a);
