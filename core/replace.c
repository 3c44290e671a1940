#include "core/replace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int file_replace(const char *path, replace_write_fn write, void *ctx)
{
    size_t len = strlen(path) + sizeof ".tmp";
    char *tmp = malloc(len);
    if (!tmp)
        return -1;
    snprintf(tmp, len, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        free(tmp);
        return -1;
    }
    int rc = write(f, ctx);
    /* The bytes reach the disk before the rename makes them the file's. */
    if (fflush(f) || ferror(f) || fsync(fileno(f)))
        rc = -1;
    if (fclose(f))
        rc = -1;
    if (rc == 0 && rename(tmp, path))
        rc = -1;
    if (rc)
        remove(tmp);
    free(tmp);
    return rc ? -1 : 0;
}

typedef struct {
    const json_t *j;
    size_t flags;
} replace_json_t;

static int write_json(FILE *f, void *ctx)
{
    const replace_json_t *r = ctx;
    return json_dumpf(r->j, f, r->flags) ? -1 : 0;
}

int file_replace_json(const char *path, const json_t *j, size_t flags)
{
    replace_json_t r = {j, flags};
    return j ? file_replace(path, write_json, &r) : -1;
}
