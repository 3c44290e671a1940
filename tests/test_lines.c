/*
 * Whole lines whatever their length: the shared line reader (long lines, CR LF, a cut-off
 * last line, a NUL byte, a directory), and the files read line by line (tuning specs,
 * parameter files, boards) with lines far longer than the old 512-byte buffers; a record
 * file's cut-off last line is dropped, a foreign one refused. The bounds: a line over
 * LINES_LINE_MAX, a small file over LINES_FILE_MAX, devices, FIFOs (without waiting for a
 * writer: an alarm fails the test if anything blocks) and a UTF-8 byte-order mark refused.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena/spsa.h"
#include "bots/heuristic.h"
#include "core/lines.h"
#include "core/towerup/boards.h"
#include "core/towerup/towerup.h"
#include "tests/test.h"

static char dir[] = "/tmp/skyline-lines-XXXXXX";

static const char *path_in_dir(const char *name)
{
    static char path[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
    return path[k];
}

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

/* A comment of n bytes (n >= 3), without newline. */
static char *long_comment(size_t n)
{
    char *c = malloc(n + 1);
    memset(c, 'x', n);
    memcpy(c, "# ", 2);
    c[n] = 0;
    return c;
}

static void test_reader(void)
{
    size_t big = 100000;
    char *text = malloc(big + 64);
    memset(text, 'a', big);
    size_t n = big;
    n += (size_t)sprintf(text + n, "\nb\r\n\ntail");
    const char *path = path_in_dir("lines.txt");
    write_file(path, text, n);
    FILE *f = fopen(path, "r");
    lines_reader_t r;
    lines_init(&r, f);
    CHECK_EQ_INT(lines_next(&r), 1);
    CHECK_EQ_INT(r.len, big);
    CHECK_EQ_INT(strlen(r.text), big);
    CHECK(!r.cut);
    CHECK_EQ_INT(lines_next(&r), 1);
    CHECK(!strcmp(r.text, "b"));
    CHECK_EQ_INT(r.lineno, 2);
    CHECK_EQ_INT(lines_next(&r), 1);
    CHECK_EQ_INT(r.len, 0);
    CHECK_EQ_INT(lines_next(&r), 1);
    CHECK(!strcmp(r.text, "tail"));
    CHECK(r.cut);
    CHECK_EQ_INT(r.whole, (long long)(n - 4));
    CHECK_EQ_INT(lines_next(&r), 0);
    lines_free(&r);
    fclose(f);

    /* A NUL byte: refused, naming the line. */
    write_file(path, "ok\nbad\0byte\n", 12);
    f = fopen(path, "r");
    lines_init(&r, f);
    CHECK_EQ_INT(lines_next(&r), 1);
    CHECK_EQ_INT(lines_next(&r), -1);
    char err[256];
    lines_error(&r, "p", err, sizeof err);
    CHECK_MSG(!strcmp(err, "p:2: a NUL byte: not a text file"), "%s", err);
    lines_free(&r);
    fclose(f);

    /* A directory opens as a stream on Linux, then fails to read. */
    f = fopen(dir, "r");
    if (f) {
        lines_init(&r, f);
        CHECK_EQ_INT(lines_next(&r), -1);
        lines_error(&r, "d", err, sizeof err);
        CHECK_MSG(!strncmp(err, "d: read error: ", 15), "%s", err);
        lines_free(&r);
        fclose(f);
    }
    free(text);
}

static void test_spec_file(void)
{
    /* Before whole lines, 512-byte pieces made the comment's tail a second entry. */
    char *c = long_comment(5000);
    size_t len = strlen(c) + 200;
    char *text = malloc(len);
    int n = snprintf(text, len, "alpha 1 0 2 0.5 %s\nbeta 0.5 0 1 0.1\n", c);
    const char *path = path_in_dir("spec.txt");
    write_file(path, text, (size_t)n);
    spsa_param_t p[SPSA_MAX_PARAMS];
    int count = 0;
    char err[256] = "";
    CHECK_MSG(spsa_spec_load(path, p, &count, err, sizeof err) == 0, "%s", err);
    CHECK_EQ_INT(count, 2);
    CHECK(!strcmp(p[0].name, "alpha") && p[0].hi == 2.0 && !strcmp(p[1].name, "beta"));
    /* A long bad line is reported once, on its own line number. */
    n = snprintf(text, len, "alpha 1 0 2 0.5\n%s\nbeta 0.5 0 1\n", c);
    write_file(path, text, (size_t)n);
    CHECK(spsa_spec_load(path, p, &count, err, sizeof err) == -1);
    CHECK_MSG(strstr(err, ":3: expected") != NULL, "%s", err);
    free(text);
    free(c);
}

static void test_params_file(void)
{
    const heuristic_t *h = &heuristic_towerup;
    heur_params_t w;
    heur_params_default(h, &w);
    char *c = long_comment(3000);
    size_t len = 2 * strlen(c) + 200;
    char *text = malloc(len);
    int n = snprintf(text, len, "%s\n%s 0.25 %s\n", c, h->params[0].name, c);
    const char *path = path_in_dir("tu.params");
    write_file(path, text, (size_t)n);
    char err[256] = "";
    CHECK_MSG(heur_params_load(h, path, &w, err, sizeof err) == 0, "%s", err);
    CHECK(w.value[0] == 0.25);
    free(text);
    free(c);
}

static void test_board_file(void)
{
    char *c = long_comment(2000);
    size_t len = strlen(towerup_board_text_duo) + 3 * strlen(c) + 100;
    char *text = malloc(len);
    /* A long comment on its own line, after a record and at the end without newline. */
    const char *first_nl = strchr(towerup_board_text_duo, '\n');
    int head = (int)(first_nl - towerup_board_text_duo);
    int n = snprintf(text, len, "%.*s %s\n%s\n%s%s", head, towerup_board_text_duo, c, c,
                     first_nl + 1, c);
    towerup_board_t b;
    char err[256] = "";
    CHECK_MSG(towerup_board_load_text(&b, text, "long", err, sizeof err) == 0, "%s", err);
    CHECK(!strcmp(b.name, "duo"));
    const char *path = path_in_dir("long.board");
    write_file(path, text, (size_t)n);
    CHECK_MSG(towerup_board_load_file(&b, path, err, sizeof err) == 0, "%s", err);
    free(text);
    free(c);
}

static void test_record_file(void)
{
    const char *path = path_in_dir("rec.jsonl");
    write_file(path, "{\"a\":1}\n{\"a\":", 13);
    lines_file_t a;
    char err[256] = "";
    CHECK_MSG(lines_file_open(&a, path, err, sizeof err) == 0, "%s", err);
    CHECK_MSG(lines_file_drop_cut(&a, err, sizeof err) == 0, "%s", err);
    CHECK(lines_file_write(&a, "{\"b\":2}\n", 8) == 0);
    CHECK(lines_file_close(&a) == 0);
    char *got = test_read_file(path);
    CHECK_MSG(!strcmp(got, "{\"a\":1}\n{\"b\":2}\n"), "%s", got);
    free(got);
    /* A cut last line with no newline at all in the file. */
    write_file(path, "{\"a\"", 4);
    CHECK(lines_file_open(&a, path, err, sizeof err) == 0);
    CHECK(lines_file_drop_cut(&a, err, sizeof err) == 0);
    CHECK(lines_file_close(&a) == 0);
    got = test_read_file(path);
    CHECK(!strcmp(got, ""));
    free(got);
    /* Someone's text without final newline is left as it is. */
    write_file(path, "notes\nmore notes", 16);
    CHECK(lines_file_open(&a, path, err, sizeof err) == 0);
    CHECK(lines_file_drop_cut(&a, err, sizeof err) == -1);
    CHECK_MSG(strstr(err, "refusing to append") != NULL, "%s", err);
    CHECK(lines_file_close(&a) == 0);
    got = test_read_file(path);
    CHECK(!strcmp(got, "notes\nmore notes"));
    free(got);
    CHECK(lines_file_open(&a, dir, err, sizeof err) == -1);
    /* Records appended to a device would be lost, or read back as endless lines. */
    CHECK(lines_file_open(&a, "/dev/null", err, sizeof err) == -1);
    CHECK_MSG(strstr(err, "/dev/null is a character device, not a record file"), "%s", err);
}

/* A file of n bytes of c, then tail. */
static void write_filled(const char *path, size_t n, char c, const char *tail)
{
    size_t t = strlen(tail);
    char *text = malloc(n + t);
    memset(text, c, n);
    memcpy(text + n, tail, t);
    write_file(path, text, n + t);
    free(text);
}

static void test_line_bound(void)
{
    const char *path = path_in_dir("bound.txt");
    char err[512];
    lines_reader_t r;
    /* Exactly the bound is a line; one byte more is refused, read no further. */
    write_filled(path, LINES_LINE_MAX, 'a', "\nb\n");
    FILE *f = fopen(path, "r");
    lines_init(&r, f);
    CHECK_EQ_INT(lines_next(&r), 1);
    CHECK_EQ_INT(r.len, LINES_LINE_MAX);
    CHECK_EQ_INT(lines_next(&r), 1);
    CHECK(!strcmp(r.text, "b"));
    lines_free(&r);
    fclose(f);
    write_filled(path, LINES_LINE_MAX + 1, 'a', "\nb\n");
    f = fopen(path, "r");
    lines_init(&r, f);
    CHECK_EQ_INT(lines_next(&r), -1);
    CHECK(r.too_long);
    lines_error(&r, "p", err, sizeof err);
    CHECK_MSG(!strcmp(err, "p:1: a line over 1048576 bytes, the longest skyline reads"), "%s", err);
    lines_free(&r);
    fclose(f);
    /* An endless stream stops at the bound. */
    f = fopen("/dev/zero", "r");
    if (f) {
        lines_init(&r, f);
        CHECK_EQ_INT(lines_next(&r), -1);
        CHECK(r.too_long && r.cap <= LINES_LINE_MAX + 2);
        lines_free(&r);
        fclose(f);
    }
    /* A smaller bound, a CR before the newline counted in it. */
    write_file(path, "0123456789\n0123456789\r\n", 23);
    f = fopen(path, "r");
    lines_init(&r, f);
    r.max = 10;
    CHECK_EQ_INT(lines_next(&r), 1);
    CHECK_EQ_INT(lines_next(&r), -1);
    CHECK_EQ_INT(r.lineno, 2);
    lines_free(&r);
    fclose(f);
    /* A byte-order mark on line 1 is named; the same bytes later are text. */
    write_file(path, "\xef\xbb\xbf{}\n", 6);
    f = fopen(path, "r");
    lines_init(&r, f);
    CHECK_EQ_INT(lines_next(&r), -1);
    lines_error(&r, "p", err, sizeof err);
    CHECK_MSG(strstr(err, "p:1: starts with a UTF-8 byte-order mark"), "%s", err);
    lines_free(&r);
    fclose(f);
    write_file(path, "a\n\xef\xbb\xbf{}\n", 8);
    f = fopen(path, "r");
    lines_init(&r, f);
    CHECK_EQ_INT(lines_next(&r), 1);
    CHECK_EQ_INT(lines_next(&r), 1);
    lines_free(&r);
    fclose(f);
    unlink(path);
}

static void test_open(void)
{
    char err[512];
    const char *fifo = path_in_dir("fifo");
    CHECK(mkfifo(fifo, 0600) == 0);
    /* Special files are refused, a FIFO without waiting for a writer. */
    CHECK(lines_open("/dev/zero", "record file", 0, err, sizeof err) == NULL);
    CHECK_MSG(!strcmp(err, "/dev/zero is a character device, not a record file"), "%s", err);
    CHECK(lines_open(fifo, "record file", 0, err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, "fifo is a FIFO, not a record file"), "%s", err);
    CHECK(lines_open(dir, "board file", 0, err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, " is a directory, not a board file"), "%s", err);
    CHECK(lines_open(path_in_dir("none"), "board file", 0, err, sizeof err) == NULL);
    CHECK(errno == ENOENT && strstr(err, "none: cannot open board file: "));
    /* The size bound of small files. */
    const char *big = path_in_dir("big.txt");
    write_filled(big, (size_t)LINES_FILE_MAX + 1, ' ', "");
    CHECK(lines_open(big, "parameter file", LINES_FILE_MAX, err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, "big.txt: 1048577 bytes, over the 1048576 bytes a parameter file may "
                          "hold"),
              "%s", err);
    FILE *f = lines_open(big, "record file", 0, err, sizeof err);
    CHECK(f != NULL);
    if (f)
        fclose(f);
    errno = ENOENT;
    CHECK(lines_read_file(big, "board file", NULL, err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, "over the 1048576 bytes a board file may hold"), "%s", err);
    /* Only a missing file says ENOENT: a checkpoint that is there is never "none yet". */
    CHECK(errno != ENOENT);
    /* Whole small files: the text, a NUL byte named by line, a byte-order mark. */
    write_file(big, "a\nb", 3);
    size_t len = 0;
    char *text = lines_read_file(big, "board file", &len, err, sizeof err);
    CHECK(text && len == 3 && !strcmp(text, "a\nb"));
    free(text);
    write_file(big, "a\nb\0", 4);
    errno = ENOENT;
    CHECK(lines_read_file(big, "board file", NULL, err, sizeof err) == NULL);
    CHECK(errno != ENOENT);
    CHECK_MSG(strstr(err, "big.txt:2: a NUL byte"), "%s", err);
    write_file(big,
               "\xef\xbb\xbf"
               "board x\n",
               11);
    CHECK(lines_read_file(big, "board file", NULL, err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, "big.txt:1: starts with a UTF-8 byte-order mark"), "%s", err);
    CHECK(lines_read_file("/dev/zero", "board file", NULL, err, sizeof err) == NULL);

    /* The readers of boards, parameter files and tuning specs: the same refusals. */
    towerup_board_t b;
    CHECK(towerup_board_load_file(&b, fifo, err, sizeof err) == -1);
    CHECK_MSG(strstr(err, "is a FIFO, not a board file"), "%s", err);
    CHECK(towerup_board_load_file(&b, "/dev/zero", err, sizeof err) == -1);
    const heuristic_t *h = &heuristic_towerup;
    heur_params_t w;
    heur_params_default(h, &w);
    CHECK(heur_params_load(h, fifo, &w, err, sizeof err) == -1);
    CHECK_MSG(strstr(err, "is a FIFO, not a parameter file"), "%s", err);
    CHECK(heur_params_load(h, "/dev/zero", &w, err, sizeof err) == -1);
    write_filled(big, (size_t)LINES_FILE_MAX, ' ', "\n");
    CHECK(heur_params_load(h, big, &w, err, sizeof err) == -1);
    CHECK_MSG(strstr(err, "over the 1048576 bytes a parameter file may hold"), "%s", err);
    write_file(big, "\xef\xbb\xbf# x\n", 7);
    CHECK(heur_params_load(h, big, &w, err, sizeof err) == -1);
    CHECK_MSG(strstr(err, "UTF-8 byte-order mark"), "%s", err);
    spsa_param_t p[SPSA_MAX_PARAMS];
    int count;
    CHECK(spsa_spec_load(fifo, p, &count, err, sizeof err) == -1);
    CHECK_MSG(strstr(err, "is a FIFO, not a tuning spec file"), "%s", err);
    unlink(big);
    unlink(fifo);
}

/* play --record's check: records only, a whole last record keeps its newline; a file the
   opener made is removed by lines_file_discard, one that was there is not. */
static void test_record_check(void)
{
    const char *path = path_in_dir("recs.jsonl");
    lines_file_t a;
    char err[256] = "";
    const char *text = "{\"game\":\"towerup\"}\n{\"game\":\"towerup\",\"x\":1}";
    write_file(path, text, strlen(text));
    CHECK_MSG(lines_file_open(&a, path, err, sizeof err) == 0, "%s", err);
    CHECK(!a.created);
    CHECK_MSG(lines_file_check_records(&a, err, sizeof err) == 0, "%s", err);
    lines_file_discard(&a);
    char *got = test_read_file(path);
    CHECK_MSG(got && !strcmp(got, "{\"game\":\"towerup\"}\n{\"game\":\"towerup\",\"x\":1}\n"), "%s",
              got ? got : "(gone)");
    free(got);
    write_file(path, "{\"x\":1}\n", 8);
    CHECK(lines_file_open(&a, path, err, sizeof err) == 0);
    CHECK(lines_file_check_records(&a, err, sizeof err) == -1);
    CHECK_MSG(strstr(err, "recs.jsonl:1: not a JSON record") != NULL, "%s", err);
    CHECK(lines_file_close(&a) == 0);
    const char *made = path_in_dir("made.lock");
    CHECK(lines_file_open(&a, made, err, sizeof err) == 0);
    CHECK(a.created);
    lines_file_discard(&a);
    CHECK(access(made, F_OK) != 0);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_reader();
    test_spec_file();
    test_params_file();
    test_board_file();
    test_record_file();
    /* Anything that blocks on a FIFO or reads an endless stream fails here, not hangs. */
    alarm(120);
    test_line_bound();
    test_open();
    test_record_check();
    const char *names[] = {"lines.txt",  "spec.txt",  "tu.params",
                           "long.board", "rec.jsonl", "recs.jsonl"};
    for (int i = 0; i < 6; i++)
        unlink(path_in_dir(names[i]));
    rmdir(dir);
    return test_finish("test_lines");
}
