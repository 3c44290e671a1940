/*
 * The bench signature (perft leaves of every bench position, the tree nodes of the
 * fixed-iteration single-thread searches, default and heuristic-guided, and a key of the
 * moves those searches chose and their root visit counts) must equal
 * tests/bench-signature.txt: it changes only when move generation, search or a heuristic
 * changes, and then the file is updated in the same commit (with `skyline bench --count`
 * and `skyline bench --count --quick`).
 * Count-only mode: no timing. The full-size signature is checked in optimised builds only,
 * where it takes about a second; the quick one everywhere.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "tests/test.h"

/* The value of the line "name N" of the signature file, or 0 if there is none. */
static uint64_t signature_expected(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *line = text; line; line = strchr(line, '\n')) {
        line += *line == '\n';
        if (!strncmp(line, name, len) && line[len] == ' ')
            return strtoull(line + len + 1, NULL, 10);
    }
    return 0;
}

static void signature_check(const char *text, const char *name, bool quick)
{
    char err[GAME_ERR_MAX] = "";
    uint64_t expected = signature_expected(text, name);
    CHECK_MSG(expected != 0, "no '%s' line in tests/bench-signature.txt", name);
    uint64_t got = bench_signature(quick, err, sizeof err);
    CHECK_MSG(got != 0, "bench failed: %s", err);
    CHECK_MSG(got == expected,
              "%s signature %" PRIu64 ", expected %" PRIu64
              " (if move generation or search changed on purpose, update the file)",
              name, got, expected);
    printf("%s signature %" PRIu64 "\n", name, got);
}

int main(void)
{
    char *text = test_read_file(SKYLINE_SOURCE_DIR "/tests/bench-signature.txt");
    signature_check(text, "quick", true);
#ifdef NDEBUG
    signature_check(text, "default", false);
#else
    printf("default signature not checked: assertions make a full count too slow\n");
#endif
    /* Count-only runs are deterministic: a second quick run gives the same counts. */
    char err[GAME_ERR_MAX] = "";
    CHECK_EQ_INT(bench_signature(true, err, sizeof err), signature_expected(text, "quick"));
    free(text);
    return test_finish("test_bench_signature");
}
