#pragma once
/*
 * Every file skyline reads goes through here: opened as a regular file (lines_open; a
 * directory, device, FIFO or socket is refused), read line by line with a bound on the
 * line (lines_next) or whole with a bound on the file (lines_read_file), and files that
 * records are appended to, one line each, by one process at a time (lines_file_t: play
 * --record, tournament --out). The bounds are documented in README ("Commands").
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The longest line read from any file or stream (protocol lines included): 1 MiB. */
#define LINES_LINE_MAX ((size_t)1 << 20)
/* The largest file read whole or meant to be small (board, parameter, tuning-spec and
   checkpoint files): 1 MiB. Record files and logs are read line by line, of any size. */
#define LINES_FILE_MAX ((long long)1 << 20)

/* Reads a stream one whole line at a time. */
typedef struct lines_reader {
    FILE *f;         /* the stream read (not owned) */
    char *text;      /* the current line, without its '\n' nor a '\r' before it */
    size_t len;      /* bytes of text */
    size_t cap;      /* bytes allocated for text */
    long lineno;     /* number of the current line, from 1 */
    long long whole; /* bytes of the stream up to the last '\n' read */
    bool cut;        /* the current line ends the stream without a '\n' */
    size_t max;      /* the longest line accepted (lines_init: LINES_LINE_MAX) */
    bool keep_nul;   /* return lines with NUL bytes (the caller checks bytes itself) */
    bool nul;        /* lines_next failed on a NUL byte in the current line */
    bool too_long;   /* lines_next failed on a line over max bytes */
    bool bom;        /* lines_next failed on a UTF-8 byte-order mark starting line 1 */
    int error;       /* lines_next failed on a read error: its errno */
} lines_reader_t;

void lines_init(lines_reader_t *r, FILE *f);
/* The next line: 1, 0 at the end of the stream, -1 on a read error, a NUL byte (a binary
   file: what follows a NUL would be invisible to the parsers; unless keep_nul), a line over r->max bytes
   (read no further: /dev/zero must not fill the memory) or a UTF-8 byte-order mark
   (invisible in messages, and no part of FORMATS.md's UTF-8 text). */
int lines_next(lines_reader_t *r);
/* The one-line message for lines_next's -1: "PATH:LINE: ..." or "PATH: ...". */
void lines_error(const lines_reader_t *r, const char *path, char *err, size_t errlen);
void lines_free(lines_reader_t *r);

/* 0 if fd is a regular file of at most max bytes (0: any size); else -1 with err
   ("PATH is a directory, not a WHAT", "PATH: N bytes, over ..."). */
int lines_check_file(int fd, const char *path, const char *what, long long max, char *err,
                     size_t errlen);
/*
 * Opens path for reading, what naming it in messages ("board file"): a regular file of at
 * most max bytes (0: any size). A FIFO is refused without waiting for a writer. NULL with
 * err "PATH: cannot open WHAT: reason" (errno kept: ENOENT for a missing file) or
 * lines_check_file's message (errno 0).
 */
FILE *lines_open(const char *path, const char *what, long long max, char *err, size_t errlen);
/* The whole text of a file of at most LINES_FILE_MAX bytes, NUL-terminated, its length in
   *len (may be NULL): free it. NULL with err (as lines_open's, errno ENOENT only for a
   missing file; or a NUL byte, a byte-order mark, a read error: "PATH:LINE: ..."). */
char *lines_read_file(const char *path, const char *what, size_t *len, char *err, size_t errlen);

/* A file appended to one line at a time by the process that holds its write lock. */
typedef struct lines_file {
    const char *path; /* as given by the user, for messages */
    int fd;           /* open for reading and appending; holds the lock */
    FILE *in;         /* reads the lines already there, on fd: closing any other
                         descriptor of the file would drop the process's lock */
    bool created;     /* lines_file_open made the file (it did not exist before) */
    bool busy;        /* lines_file_open failed: another process holds the lock */
} lines_file_t;

/* Opens (creates if new) and locks path before anything is read; a file another process
   holds is refused ("in use by another running skyline"), and so is anything but a regular
   file. 0, or -1 with err. The lock is on the file that path names once it is held (a
   file removed meanwhile is let go and path opened again), so that a lock file removed by
   its last holder stays exclusive. */
int lines_file_open(lines_file_t *a, const char *path, char *err, size_t errlen);
/* play --record's check of a file to append records to: empty, or its first line is a
   game record (lines_record_parse); a last record whole but for its newline gets the
   newline (it is a finished game), any other last line without newline is cut off as
   lines_file_drop_cut does. 0, or -1 with err (the file is left as it was). */
int lines_file_check_records(lines_file_t *a, char *err, size_t errlen);
/* Line lineno of path as a game record: a JSON object naming its "game", as every record
   writer writes them (FORMATS.md section 4). The object (json_decref it), or NULL with err
   "PATH:LINE: not a JSON record; refusing to append to this file". */
struct json_t *lines_record_parse(const char *path, long lineno, const char *line, char *err,
                                  size_t errlen);
/* Cuts off a last line without '\n' (a writer killed in the middle of a record) with a
   note on stderr, so that nothing is ever appended after a partial line; refuses (-1, err)
   when that line does not start like a JSON record: the file is then not one of ours. */
int lines_file_drop_cut(lines_file_t *a, char *err, size_t errlen);
/* Appends len bytes (whole lines) in as few writes as the system allows. 0, or -1 (errno). */
int lines_file_write(lines_file_t *a, const char *buf, size_t len);
/* Closes the file, which drops the lock. 0, or -1 (errno). */
int lines_file_close(lines_file_t *a);
/* Removes the file if lines_file_open made it (still under the lock, so that no other
   process takes a lock on the removed file), then closes it. */
void lines_file_discard(lines_file_t *a);
