#include "core/lines.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/input.h"

static const char lines_bom_says[] =
    "starts with a UTF-8 byte-order mark: save the file as UTF-8 without it";

void lines_init(lines_reader_t *r, FILE *f)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->max = LINES_LINE_MAX;
}

/* Room for n + 2 bytes in r->text (a byte more and the NUL). 0, or -1 (out of memory). */
static int lines_room(lines_reader_t *r, size_t n)
{
    if (n + 2 <= r->cap)
        return 0;
    size_t cap = r->cap ? r->cap * 2 : 256;
    if (cap > r->max + 2)
        cap = r->max + 2;
    char *t = realloc(r->text, cap);
    if (!t)
        return -1;
    r->text = t;
    r->cap = cap;
    return 0;
}

int lines_next(lines_reader_t *r)
{
    r->cut = false;
    r->len = 0;
    size_t n = 0;
    bool newline = false, nul = false;
    int c;
    errno = 0;
    /* Byte by byte, so that a line is never read past the bound. */
    while ((c = getc_unlocked(r->f)) != EOF) {
        if (c == '\n') {
            newline = true;
            break;
        }
        if (n >= r->max) {
            r->lineno++;
            r->too_long = true;
            return -1;
        }
        if (lines_room(r, n)) {
            r->error = ENOMEM;
            return -1;
        }
        r->text[n++] = (char)c;
        nul |= c == 0;
    }
    if (c == EOF && ferror(r->f)) {
        r->error = errno ? errno : EIO;
        return -1;
    }
    if (!newline && n == 0)
        return 0;
    if (lines_room(r, n)) {
        r->error = ENOMEM;
        return -1;
    }
    r->text[n] = 0;
    r->lineno++;
    r->len = n;
    if (newline)
        r->whole += (long long)n + 1;
    else
        r->cut = true;
    if (r->len && r->text[r->len - 1] == '\r')
        r->text[--r->len] = 0;
    if (nul && !r->keep_nul) {
        r->nul = true;
        return -1;
    }
    if (r->lineno == 1 && r->len >= 3 && !memcmp(r->text, "\xef\xbb\xbf", 3)) {
        r->bom = true;
        return -1;
    }
    return 1;
}

void lines_error(const lines_reader_t *r, const char *path, char *err, size_t errlen)
{
    char shown[256];
    input_escape(path, shown, sizeof shown);
    if (r->nul)
        snprintf(err, errlen, "%s:%ld: a NUL byte: not a text file", shown, r->lineno);
    else if (r->too_long)
        snprintf(err, errlen, "%s:%ld: a line over %zu bytes, the longest skyline reads", shown,
                 r->lineno, r->max);
    else if (r->bom)
        snprintf(err, errlen, "%s:1: %s", shown, lines_bom_says);
    else
        snprintf(err, errlen, "%s: read error: %s", shown, strerror(r->error));
}

void lines_free(lines_reader_t *r)
{
    free(r->text);
    r->text = NULL;
    r->cap = 0;
}

int lines_check_file(int fd, const char *path, const char *what, long long max, char *err,
                     size_t errlen)
{
    char shown[256];
    input_escape(path, shown, sizeof shown);
    struct stat st;
    if (fstat(fd, &st)) {
        snprintf(err, errlen, "%s: cannot read %s: %s", shown, what, strerror(errno));
        return -1;
    }
    const char *kind = S_ISREG(st.st_mode)    ? NULL
                       : S_ISDIR(st.st_mode)  ? "a directory"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "a special file";
    if (kind) {
        snprintf(err, errlen, "%s is %s, not a %s", shown, kind, what);
        return -1;
    }
    if (max > 0 && (long long)st.st_size > max) {
        snprintf(err, errlen, "%s: %lld bytes, over the %lld bytes a %s may hold", shown,
                 (long long)st.st_size, max, what);
        return -1;
    }
    return 0;
}

FILE *lines_open(const char *path, const char *what, long long max, char *err, size_t errlen)
{
    /* Non-blocking, so that opening a FIFO does not wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        char shown[256];
        snprintf(err, errlen, "%s: cannot open %s: %s", input_escape(path, shown, sizeof shown),
                 what, strerror(e));
        errno = e;
        return NULL;
    }
    FILE *f = NULL;
    if (lines_check_file(fd, path, what, max, err, errlen) == 0) {
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0)
            fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
        f = fdopen(fd, "r");
        if (!f)
            snprintf(err, errlen, "cannot read %s: %s", what, strerror(errno));
    }
    if (!f) {
        close(fd);
        errno = 0;
    }
    return f;
}

char *lines_read_file(const char *path, const char *what, size_t *len, char *err, size_t errlen)
{
    FILE *f = lines_open(path, what, LINES_FILE_MAX, err, errlen);
    if (!f)
        return NULL;
    /* A file may grow after the check, or say size 0 (/proc): the bound holds anyway. */
    size_t cap = 4096, n = 0, max = (size_t)LINES_FILE_MAX, got;
    char *text = malloc(cap);
    while (text && (got = fread(text + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n > max)
            break;
        if (n + 1 == cap) {
            char *t = realloc(text, cap * 2);
            if (!t)
                free(text);
            text = t;
            cap *= 2;
        }
    }
    bool read_error = ferror(f);
    int e = errno;
    fclose(f);
    char shown[256];
    input_escape(path, shown, sizeof shown);
    const char *nul = text ? memchr(text, 0, n) : NULL;
    if (!text || read_error || n > max || nul) {
        if (!text)
            snprintf(err, errlen, "%s: out of memory", shown);
        else if (read_error)
            snprintf(err, errlen, "%s: read error: %s", shown, strerror(e ? e : EIO));
        else if (n > max)
            snprintf(err, errlen, "%s: over the %lld bytes a %s may hold", shown, LINES_FILE_MAX,
                     what);
        else {
            long line = 1;
            for (const char *p = text; p < nul; p++)
                line += *p == '\n';
            snprintf(err, errlen, "%s:%ld: a NUL byte: not a text file", shown, line);
        }
        free(text);
        errno = 0; /* not ENOENT: the file is there */
        return NULL;
    }
    text[n] = 0;
    if (n >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
        snprintf(err, errlen, "%s:1: %s", shown, lines_bom_says);
        free(text);
        errno = 0; /* not ENOENT: the file is there */
        return NULL;
    }
    if (len)
        *len = n;
    return text;
}

/* Opens path for reading and appending, creating it only if it is missing (a->created). */
static int lines_file_open_fd(lines_file_t *a, const char *path)
{
    for (int tries = 0; tries < 100; tries++) {
        a->fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
        if (a->fd >= 0 || errno != ENOENT)
            return a->fd;
        a->fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (a->fd >= 0) {
            a->created = true;
            return a->fd;
        }
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

/* Whether path still names the file open on fd (a holder may have removed it). */
static bool lines_file_same(int fd, const char *path)
{
    struct stat f, p;
    return fstat(fd, &f) == 0 && stat(path, &p) == 0 && f.st_dev == p.st_dev &&
           f.st_ino == p.st_ino;
}

int lines_file_open(lines_file_t *a, const char *path, char *err, size_t errlen)
{
    a->path = path;
    a->in = NULL;
    a->created = a->busy = false;
    for (int tries = 0;; tries++) {
        if (lines_file_open_fd(a, path) < 0) {
            snprintf(err, errlen, "cannot open '%s' for appending: %s", path, strerror(errno));
            return -1;
        }
        if (lines_check_file(a->fd, path, "record file", 0, err, errlen)) {
            close(a->fd);
            a->fd = -1;
            return -1;
        }
        /* Two processes appending to one file would interleave or repeat lines: the second
           is refused. The lock comes before any reading, so that what is read stays true. */
        struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        if (fcntl(a->fd, F_SETLK, &lock)) {
            a->busy = errno == EACCES || errno == EAGAIN;
            if (a->busy)
                snprintf(err, errlen, "'%s' is in use by another running skyline", path);
            else
                snprintf(err, errlen, "cannot lock '%s': %s", path, strerror(errno));
            close(a->fd);
            a->fd = -1;
            return -1;
        }
        if (lines_file_same(a->fd, path))
            break;
        close(a->fd);
        a->fd = -1;
        a->created = false;
        if (tries == 100) {
            snprintf(err, errlen, "cannot lock '%s': it keeps being replaced", path);
            return -1;
        }
    }
    a->in = fdopen(a->fd, "r");
    if (!a->in) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        close(a->fd);
        a->fd = -1;
        return -1;
    }
    return 0;
}

/* Offset just past the file's last '\n' (0 if none), reading backwards from end. */
static int lines_whole_end(int fd, off_t end, off_t *whole)
{
    char buf[4096];
    off_t pos = end;
    while (pos > 0) {
        size_t n = pos < (off_t)sizeof buf ? (size_t)pos : sizeof buf;
        pos -= (off_t)n;
        if (pread(fd, buf, n, pos) != (ssize_t)n)
            return -1;
        for (size_t i = n; i-- > 0;)
            if (buf[i] == '\n') {
                *whole = pos + (off_t)i + 1;
                return 0;
            }
    }
    *whole = 0;
    return 0;
}

/* Whether the bytes [from, to) of fd are one game record (lines_record_parse). */
static bool lines_tail_is_record(int fd, off_t from, off_t to)
{
    size_t n = (size_t)(to - from);
    char *buf = malloc(n + 1);
    bool yes = false;
    if (buf && pread(fd, buf, n, from) == (ssize_t)n) {
        buf[n] = 0;
        char err[8];
        json_t *rec = strlen(buf) == n ? lines_record_parse("", 0, buf, err, sizeof err) : NULL;
        yes = rec != NULL;
        json_decref(rec);
    }
    free(buf);
    return yes;
}

/* drop_cut, and with mend a last line that is a whole record gets its newline instead. */
static int lines_file_end_lines(lines_file_t *a, bool mend, char *err, size_t errlen)
{
    struct stat st;
    off_t whole;
    char first;
    if (fstat(a->fd, &st) || lines_whole_end(a->fd, st.st_size, &whole) ||
        (whole < st.st_size && pread(a->fd, &first, 1, whole) != 1)) {
        snprintf(err, errlen, "cannot read '%s': %s", a->path, strerror(errno));
        return -1;
    }
    if (whole == st.st_size)
        return 0;
    if (first != '{') {
        snprintf(err, errlen,
                 "'%s' ends in a line without newline that is not a record: refusing to "
                 "append to it",
                 a->path);
        return -1;
    }
    if (mend && lines_tail_is_record(a->fd, whole, st.st_size)) {
        fprintf(stderr, "skyline: %s: adding the missing newline after the last record\n", a->path);
        if (lines_file_write(a, "\n", 1)) {
            snprintf(err, errlen, "cannot write to '%s': %s", a->path, strerror(errno));
            return -1;
        }
        return 0;
    }
    fprintf(stderr, "skyline: %s: dropping a cut-off last record (%lld bytes)\n", a->path,
            (long long)(st.st_size - whole));
    if (ftruncate(a->fd, whole)) {
        snprintf(err, errlen, "cannot cut the last record off '%s': %s", a->path, strerror(errno));
        return -1;
    }
    return 0;
}

int lines_file_drop_cut(lines_file_t *a, char *err, size_t errlen)
{
    return lines_file_end_lines(a, false, err, errlen);
}

json_t *lines_record_parse(const char *path, long lineno, const char *line, char *err,
                           size_t errlen)
{
    json_error_t jerr;
    json_t *rec = json_loads(line, 0, &jerr);
    if (json_is_object(rec) && json_is_string(json_object_get(rec, "game")))
        return rec;
    json_decref(rec);
    snprintf(err, errlen, "%s:%ld: not a JSON record; refusing to append to this file", path,
             lineno);
    return NULL;
}

int lines_file_check_records(lines_file_t *a, char *err, size_t errlen)
{
    lines_reader_t r;
    lines_init(&r, a->in);
    int got;
    while ((got = lines_next(&r)) > 0 && r.len == 0 && !r.cut)
        ;
    int rc = 0;
    if (got < 0) {
        lines_error(&r, a->path, err, errlen);
        rc = -1;
    } else if (got > 0 && !r.cut) { /* a cut first line is the last: end_lines sees to it */
        json_t *rec = lines_record_parse(a->path, r.lineno, r.text, err, errlen);
        rc = rec ? 0 : -1;
        json_decref(rec);
    }
    lines_free(&r);
    return rc ? -1 : lines_file_end_lines(a, true, err, errlen);
}

int lines_file_write(lines_file_t *a, const char *buf, size_t len)
{
    while (len) {
        ssize_t n = write(a->fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

void lines_file_discard(lines_file_t *a)
{
    if (a->created && a->fd >= 0)
        unlink(a->path);
    a->created = false;
    lines_file_close(a);
}

int lines_file_close(lines_file_t *a)
{
    int rc = 0;
    if (a->in)
        rc = fclose(a->in);
    else if (a->fd >= 0)
        rc = close(a->fd);
    a->in = NULL;
    a->fd = -1;
    return rc ? -1 : 0;
}
