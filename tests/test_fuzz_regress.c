/*
 * Replays every committed fuzz input through its harness (fuzz/fuzz.h), without libFuzzer:
 * the seed corpus fuzz/corpus/TARGET/ and the inputs fuzzing once found bugs with,
 * fuzz/regress/TARGET/. A harness aborts on a broken property, and the sanitizer builds
 * catch memory errors, so every such input stays fixed. Each target must have a corpus.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "tests/test.h"

/* Reads a whole file as bytes into *data (malloc'd); returns its size. */
static size_t read_bytes(const char *path, uint8_t **data)
{
    FILE *f = fopen(path, "rb");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    size_t cap = 4096, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (f && buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    if (f)
        fclose(f);
    if (!buf)
        abort();
    *data = buf;
    return n;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every file of dir (sorted by name) through run; returns how many. */
static int replay_dir(const char *dir, fuzz_fn_t run)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char *names[4096];
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) && count < 4096)
        if (e->d_name[0] != '.')
            names[count++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], cmp_names);
    for (int i = 0; i < count; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        uint8_t *data;
        size_t n = read_bytes(path, &data);
        CHECK_EQ_INT(run(data, n), 0);
        free(data);
        free(names[i]);
    }
    return count;
}

int main(void)
{
    for (const fuzz_target_t *t = fuzz_targets; t->name; t++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/fuzz/corpus/%s", SKYLINE_SOURCE_DIR, t->name);
        int corpus = replay_dir(dir, t->run);
        CHECK_MSG(corpus >= 3, "target %s: %d seed inputs in %s", t->name, corpus, dir);
        snprintf(dir, sizeof dir, "%s/fuzz/regress/%s", SKYLINE_SOURCE_DIR, t->name);
        int regress = replay_dir(dir, t->run);
        printf("%-9s %3d corpus, %2d regression inputs\n", t->name, corpus, regress);
    }
    /* No input at all must not crash a harness either. */
    for (const fuzz_target_t *t = fuzz_targets; t->name; t++)
        CHECK_EQ_INT(t->run((const uint8_t *)"", 0), 0);
    return test_finish("test_fuzz_regress");
}
