/*
 * Files written whole or not at all (core/replace.h): the content replaces the file and no
 * temporary file stays; a failed write, a rename that cannot happen (a folder in the way)
 * and a missing folder leave the file as it was and no temporary file; JSON is written
 * as json_dump_file writes it; a page of the viewer says which path it could not write.
 * The viewer's log reader (tune and zero pages) hands each line over and names the line
 * that is no JSON or that the page refuses.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/replace.h"
#include "tests/test.h"
#include "viewer/viewer.h"

static char dir[] = "/tmp/skyline-replace-XXXXXX";

static const char *in_dir(const char *name)
{
    static char path[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
    return path[k];
}

static int write_text(FILE *f, void *ctx) { return fputs(ctx, f) < 0 ? -1 : 0; }

/* Writes half of its text, then fails. */
static int write_half(FILE *f, void *ctx)
{
    const char *text = ctx;
    fwrite(text, 1, strlen(text) / 2, f);
    return -1;
}

/* The file at path holds exactly text. */
static bool holds(const char *path, const char *text)
{
    char *got = test_read_file(path);
    bool same = got && !strcmp(got, text);
    free(got);
    return same;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void check_replace(void)
{
    char path[256], tmp[256];
    snprintf(path, sizeof path, "%s", in_dir("a.txt"));
    snprintf(tmp, sizeof tmp, "%s", in_dir("a.txt.tmp"));
    CHECK(file_replace(path, write_text, "first\n") == 0);
    CHECK(holds(path, "first\n") && !exists(tmp));
    CHECK(file_replace(path, write_text, "second, longer\n") == 0);
    CHECK(holds(path, "second, longer\n") && !exists(tmp));
    /* A failed write: the old file stays whole, the half-written one is gone. */
    CHECK(file_replace(path, write_half, "third, never seen\n") == -1);
    CHECK(holds(path, "second, longer\n") && !exists(tmp));
    /* A folder where the file goes: the rename fails, nothing stays behind. */
    const char *folder = in_dir("folder");
    CHECK(mkdir(folder, 0700) == 0);
    CHECK(file_replace(folder, write_text, "x\n") == -1);
    CHECK(!exists(in_dir("folder.tmp")));
    CHECK(rmdir(folder) == 0);
    /* A missing folder: nothing to open. */
    CHECK(file_replace(in_dir("missing/b.txt"), write_text, "x\n") == -1);
    CHECK(remove(path) == 0);
}

static void check_json(void)
{
    json_t *j = json_pack("{s:f,s:[i,i],s:s}", "k", 0.1, "a", 1, 2, "tag", "t");
    const char *mine = in_dir("mine.json"), *theirs = in_dir("theirs.json");
    size_t flags = JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17);
    CHECK(file_replace_json(mine, j, flags) == 0);
    CHECK(json_dump_file(j, theirs, flags) == 0);
    char *a = test_read_file(mine), *b = test_read_file(theirs);
    CHECK(a && b && !strcmp(a, b));
    free(a);
    free(b);
    json_decref(j);
    CHECK(file_replace_json(mine, NULL, flags) == -1);
    remove(mine);
    remove(theirs);
}

static int write_page(FILE *f, void *ctx)
{
    (void)ctx;
    viewer_page_open(f, "test");
    return viewer_page_close(f, false);
}

static void check_page(void)
{
    char err[512];
    const char *path = in_dir("missing/page.html");
    CHECK(viewer_page_write(path, write_page, NULL, err, sizeof err) == -1);
    char want[512];
    snprintf(want, sizeof want, "cannot write '%s'", path);
    CHECK_MSG(!strcmp(err, want), "%s", err);
    path = in_dir("page.html");
    CHECK(viewer_page_write(path, write_page, NULL, err, sizeof err) == 0);
    CHECK(viewer_page_check(path, err, sizeof err) == 0);
    remove(path);
}

/* Counts the lines; refuses one whose "n" is negative. */
static int add_line(void *ctx, const json_t *line)
{
    int *count = ctx;
    (*count)++;
    return json_integer_value(json_object_get(line, "n")) < 0 ? -1 : 0;
}

static void check_log(void)
{
    char path[256], err[512], want[512];
    snprintf(path, sizeof path, "%s", in_dir("log.jsonl"));
    int count = 0;
    CHECK(file_replace(path, write_text, "{\"n\": 1}\n{\"n\": 2}\n") == 0);
    CHECK(viewer_read_log(path, "test log", add_line, &count, err, sizeof err) == 0 && count == 2);
    CHECK(file_replace(path, write_text, "{\"n\": 1}\nnot json\n{\"n\": 2}\n") == 0);
    count = 0;
    CHECK(viewer_read_log(path, "test log", add_line, &count, err, sizeof err) == -1);
    snprintf(want, sizeof want, "%s:2: not a test log line", path);
    CHECK_MSG(!strcmp(err, want) && count == 1, "%s", err);
    CHECK(file_replace(path, write_text, "{\"n\": 1}\n{\"n\": 2}\n{\"n\": -1}\n") == 0);
    count = 0;
    CHECK(viewer_read_log(path, "test log", add_line, &count, err, sizeof err) == -1);
    snprintf(want, sizeof want, "%s:3: not a test log line", path);
    CHECK_MSG(!strcmp(err, want) && count == 3, "%s", err);
    remove(path);
    CHECK(viewer_read_log(path, "test log", add_line, &count, err, sizeof err) == -1 &&
          strstr(err, "log.jsonl"));
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    check_replace();
    check_json();
    check_page();
    check_log();
    rmdir(dir);
    return test_finish("test_replace");
}
