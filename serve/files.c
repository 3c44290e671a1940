/* Record files in the --data folder of skyline serve (serve/serve.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve/serve.h"
#include "viewer/viewer.h"

/* Records a viewer page of a file shows at most (the first ones). */
#define SERVE_VIEW_RECORDS 200
/* Bytes of a record file the server reads at most. */
#define SERVE_FILE_MAX (64L << 20)

int serve_files_save(const json_t *rec, const char *prefix, char *name, char *err, size_t errlen)
{
    char *line = json_dumps(rec, JSON_COMPACT);
    if (!line) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    char tmp[4200], path[4200];
    snprintf(tmp, sizeof tmp, "%s/.%s.%ld.tmp", serve_cfg.data, prefix, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int rc = -1;
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    } else {
        fprintf(f, "%s\n", line);
        if (fclose(f)) {
            snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        } else {
            /* A new name each time: link fails on a name in use, never overwriting it. */
            for (int k = 1; k < 1000 && rc; k++) {
                if (k == 1)
                    snprintf(name, SERVE_NAME_MAX + 1, "%s.jsonl", prefix);
                else
                    snprintf(name, SERVE_NAME_MAX + 1, "%s-%d.jsonl", prefix, k);
                snprintf(path, sizeof path, "%s/%s", serve_cfg.data, name);
                if (!link(tmp, path))
                    rc = 0;
                else if (errno != EEXIST)
                    break;
            }
            if (rc)
                snprintf(err, errlen, "cannot save the record as %s: %s", path, strerror(errno));
        }
        unlink(tmp);
    }
    free(line);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(json_string_value(json_object_get(*(json_t *const *)a, "name")),
                  json_string_value(json_object_get(*(json_t *const *)b, "name")));
}

void serve_files_list(serve_reply_t *r)
{
    DIR *d = opendir(serve_cfg.data);
    if (!d) {
        serve_reply_error(r, 500, "cannot read the data folder");
        return;
    }
    json_t *items[1024];
    int n = 0;
    char err[SERVE_ERR_MAX], path[4200];
    for (struct dirent *e; (e = readdir(d)) && n < 1024;) {
        struct stat st;
        if (serve_name_check(e->d_name, true, err, sizeof err) ||
            serve_path(serve_cfg.data, e->d_name, true, path, sizeof path, err, sizeof err) ||
            stat(path, &st) || !S_ISREG(st.st_mode))
            continue;
        items[n++] = json_pack("{s:s,s:I,s:I}", "name", e->d_name, "size", (json_int_t)st.st_size,
                               "mtime", (json_int_t)st.st_mtime);
    }
    closedir(d);
    qsort(items, (size_t)n, sizeof items[0], by_name);
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, items[i]);
    serve_reply_json(r, 200, json_pack("{s:o}", "files", list));
}

/* The records of file name in --data (at most max, from the first) into recs: the count, or
   -1 with err and status. */
int serve_files_read(const char *name, json_t **recs, int max, char *err, size_t errlen,
                     int *status)
{
    char path[4200];
    *status = 400;
    if (serve_path(serve_cfg.data, name, true, path, sizeof path, err, errlen))
        return -1;
    struct stat st;
    FILE *f = stat(path, &st) || !S_ISREG(st.st_mode) ? NULL : fopen(path, "r");
    if (!f) {
        *status = 404;
        snprintf(err, errlen, "no record file %s in the data folder", name);
        return -1;
    }
    if (st.st_size > SERVE_FILE_MAX) {
        fclose(f);
        snprintf(err, errlen, "%s is over %ld MiB", name, SERVE_FILE_MAX >> 20);
        return -1;
    }
    int n = 0;
    long lineno = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while (n < max && (len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[len - 1] != '\n')
            break; /* a line still being written */
        json_error_t je;
        json_t *rec = json_loadb(line, (size_t)len, 0, &je);
        if (!json_is_object(rec)) {
            json_decref(rec);
            continue; /* a header or a torn line: only records are shown */
        }
        recs[n++] = rec;
    }
    free(line);
    fclose(f);
    (void)lineno;
    return n;
}

json_t **serve_files_request(const serve_params_t *p, int max, int *n, const char **name,
                             serve_reply_t *r)
{
    static const char *const keys[] = {"file", NULL};
    char err[SERVE_ERR_MAX];
    if (serve_params_only(p, keys, err, sizeof err) ||
        !(*name = serve_param_need(p, "file", err, sizeof err))) {
        serve_reply_error(r, 400, err);
        return NULL;
    }
    json_t **recs = calloc((size_t)max, sizeof *recs);
    if (!recs) {
        serve_reply_error(r, 500, "out of memory");
        return NULL;
    }
    int status;
    *n = serve_files_read(*name, recs, max, err, sizeof err, &status);
    if (*n < 0) {
        serve_reply_error(r, status, err);
        free(recs);
        return NULL;
    }
    return recs;
}

void serve_files_view(const serve_params_t *p, serve_reply_t *r)
{
    const char *name;
    int n;
    json_t **recs = serve_files_request(p, SERVE_VIEW_RECORDS, &n, &name, r);
    if (!recs)
        return;
    char err[SERVE_ERR_MAX];
    int status = 404;
    snprintf(err, sizeof err, "%s holds no game record yet", name);
    long *numbers = calloc(SERVE_VIEW_RECORDS, sizeof *numbers);
    char *page = NULL;
    size_t len = 0;
    FILE *f = n > 0 && numbers ? open_memstream(&page, &len) : NULL;
    if (n > 0 && !f) {
        status = 500;
        snprintf(err, sizeof err, "out of memory");
    }
    if (f) {
        for (int i = 0; i < n; i++)
            numbers[i] = i + 1;
        int rc = viewer_write_replay(f, name, recs, numbers, n, err, sizeof err);
        fclose(f);
        status = 422;
        if (rc) {
            free(page);
            page = NULL;
        }
    }
    if (page)
        serve_reply_text(r, 200, "text/html; charset=utf-8", page, len);
    else
        serve_reply_error(r, status, err);
    free(page);
    for (int i = 0; i < n; i++)
        json_decref(recs[i]);
    free(recs);
    free(numbers);
}
