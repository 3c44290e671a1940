/* core/input: escaped, cut excerpts of user input; bad bytes; opening input files. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/game.h"
#include "core/input.h"
#include "core/towerup/towerup.h"
#include "tests/test.h"

static void check_escape(const char *in, size_t len, size_t outlen, const char *want)
{
    char out[256];
    input_escape_n(in, len, out, outlen);
    CHECK_MSG(!strcmp(out, want), "escape of %zu bytes into %zu: got '%s', want '%s'", len, outlen,
              out, want);
    CHECK(strlen(out) < outlen);
}

int main(void)
{
    check_escape("plain text", 10, 64, "plain text");
    check_escape("a\x10"
                 "b\x7f"
                 "c",
                 5, 64, "a\\x10b\\x7fc");
    check_escape("nul\0here", 8, 64, "nul\\x00here");
    check_escape("tab\there\nnext\r", 14, 64, "tab\\there\\nnext\\r");
    /* Valid UTF-8 passes; stray, overlong and surrogate bytes do not. */
    check_escape("caf\xc3\xa9", 5, 64, "caf\xc3\xa9");
    check_escape("\xff\xfe", 2, 64, "\\xff\\xfe");
    check_escape("\xc0\xaf", 2, 64, "\\xc0\\xaf");
    check_escape("\xed\xa0\x80", 3, 64, "\\xed\\xa0\\x80");
    check_escape("\xe2\x82", 2, 64, "\\xe2\\x82");
    /* Cut with "..." to fit, never inside an escape or a character. */
    check_escape("abcdefghij", 10, 8, "abcd...");
    check_escape("abcdefg", 7, 8, "abcdefg");
    check_escape("abcdefgh", 8, 8, "abcd...");
    check_escape("ab\x01zzzzzz", 9, 8, "ab...");
    check_escape("a\xc3\xa9zzzzzz", 9, 8, "a\xc3\xa9z...");
    check_escape("a\xc3\xa9zzzzzz", 9, 6, "a...");
    check_escape("abc", 3, 3, "");
    /* A byte-order mark would be an invisible quote. */
    check_escape("\357\273\277ab", 5, 32, "\\xef\\xbb\\xbfab");
    char big[1000];
    memset(big, 1, sizeof big);
    char out[INPUT_EXCERPT_MAX];
    input_escape_n(big, sizeof big, out, sizeof out);
    CHECK(strlen(out) < INPUT_EXCERPT_MAX && !strcmp(out + strlen(out) - 3, "..."));

    CHECK_EQ_INT(input_bad_byte("ok\t\r\n\v\f", 7), 7);
    CHECK_EQ_INT(input_bad_byte("ab\x10", 3), 2);
    CHECK_EQ_INT(input_bad_byte("a\0b", 3), 1);
    CHECK_EQ_INT(input_bad_byte("a\x7f", 2), 1);
    CHECK_EQ_INT(input_bad_byte("caf\xc3\xa9", 5), 5);

    char err[256];
    CHECK(input_open("/", "r", "record file", err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, "/ is a directory, not a record file"), "%s", err);
    CHECK(input_open("/nonexistent/x", "r", "board file", err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, "cannot open board file"), "%s", err);
    char name[] = "/tmp/skyline_input_XXXXXX";
    int fd = mkstemp(name);
    CHECK(fd >= 0);
    if (fd >= 0) {
        close(fd);
        FILE *f = input_open(name, "r", "file", err, sizeof err);
        CHECK(f != NULL);
        if (f)
            fclose(f);
        unlink(name);
    }
    /* The lists of valid values in messages hold every name. */
    char ids[256];
    towerup_objective_names(ids, sizeof ids);
    for (int i = 0; i < TOWERUP_OBJECTIVE_COUNT; i++)
        CHECK_MSG(strstr(ids, towerup_objective_id[i]), "%s", towerup_objective_id[i]);
    return test_finish("test_input");
}
