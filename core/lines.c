#include "core/lines.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

void lines_init(lines_reader_t *r, FILE *f)
{
    memset(r, 0, sizeof *r);
    r->f = f;
}

int lines_next(lines_reader_t *r)
{
    errno = 0;
    ssize_t n = getline(&r->text, &r->cap, r->f);
    r->cut = false;
    if (n <= 0) {
        r->len = 0;
        if (!ferror(r->f))
            return 0;
        r->error = errno ? errno : EIO;
        return -1;
    }
    r->lineno++;
    r->len = (size_t)n;
    if (r->text[r->len - 1] == '\n') {
        r->whole += n;
        r->text[--r->len] = 0;
    } else {
        r->cut = true;
    }
    if (r->len && r->text[r->len - 1] == '\r')
        r->text[--r->len] = 0;
    if (memchr(r->text, 0, r->len)) {
        r->nul = true;
        return -1;
    }
    return 1;
}

void lines_error(const lines_reader_t *r, const char *path, char *err, size_t errlen)
{
    if (r->nul)
        snprintf(err, errlen, "%s:%ld: a NUL byte: not a text file", path, r->lineno);
    else
        snprintf(err, errlen, "%s: read error: %s", path, strerror(r->error));
}

void lines_free(lines_reader_t *r)
{
    free(r->text);
    r->text = NULL;
    r->cap = 0;
}

int lines_file_open(lines_file_t *a, const char *path, char *err, size_t errlen)
{
    a->path = path;
    a->in = NULL;
    a->fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (a->fd < 0) {
        snprintf(err, errlen, "cannot open '%s' for appending: %s", path, strerror(errno));
        return -1;
    }
    /* Two processes appending to one file would interleave or repeat lines: the second is
       refused. The lock comes before any reading, so that what is read stays true. */
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(a->fd, F_SETLK, &lock)) {
        if (errno == EACCES || errno == EAGAIN)
            snprintf(err, errlen,
                     "'%s' is in use by another running skyline (tournament, play --record)", path);
        else
            snprintf(err, errlen, "cannot lock '%s': %s", path, strerror(errno));
        close(a->fd);
        a->fd = -1;
        return -1;
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

int lines_file_drop_cut(lines_file_t *a, char *err, size_t errlen)
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
    fprintf(stderr, "skyline: %s: dropping a cut-off last record (%lld bytes)\n", a->path,
            (long long)(st.st_size - whole));
    if (ftruncate(a->fd, whole)) {
        snprintf(err, errlen, "cannot cut the last record off '%s': %s", a->path, strerror(errno));
        return -1;
    }
    return 0;
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
