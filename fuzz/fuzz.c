/* The target table and the helpers the harnesses share. */
#define _GNU_SOURCE /* memfd_create */
#include "fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

const fuzz_target_t fuzz_targets[] = {
    {"board", fuzz_board},
    {"record", fuzz_record},
    {"botspec", fuzz_botspec},
    {"params", fuzz_params},
    {"tunespec", fuzz_tunespec},
    {"move", fuzz_move},
    {"position", fuzz_position},
    {"engine", fuzz_engine},
    {"net", fuzz_net},
    {"request", fuzz_request},
    {NULL, NULL},
};

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    if (!t)
        abort();
    if (size)
        memcpy(t, data, size);
    t[size] = 0;
    return t;
}

int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t pathlen)
{
    int fd = memfd_create("skyline-fuzz", 0);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    snprintf(path, pathlen, "/proc/self/fd/%d", fd);
    return fd;
}

uint64_t fuzz_hash(const uint8_t *data, size_t size)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 1099511628211ULL;
    return h;
}

void fuzz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz: %s: %s\n", what, detail ? detail : "");
    abort();
}

void fuzz_check_error(const char *err, size_t errlen, const char *where)
{
    if (!memchr(err, 0, errlen))
        fuzz_fail(where, "error message not terminated");
    if (!err[0])
        fuzz_fail(where, "refused without an error message");
}
