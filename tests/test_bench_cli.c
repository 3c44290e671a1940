/*
 * skyline bench on the command line: bad options give one line on stderr and a non-zero
 * exit; the default table fits 100 columns, --verbose adds every column and the goals;
 * --count --quick --json prints one JSON object whose signature is the one in
 * tests/bench-signature.txt (count-only: no timing, so it is fast and exact); and
 * scripts/bench.sh summarises two such runs.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench/bench.h"
#include "core/game.h"
#include "tests/test.h"

/* Runs the skyline binary with args; stdout to out_path, stderr to err_path. Exit status. */
static int run_skyline(const char *args, const char *out_path, const char *err_path)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s' </dev/null", SKYLINE_BINARY, args, out_path,
             err_path);
    int rc = system(cmd);
    return rc == -1 || !WIFEXITED(rc) ? -1 : WEXITSTATUS(rc);
}

static int count_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

static void bad_option(const char *args)
{
    int rc = run_skyline(args, "test_bench_cli.out", "test_bench_cli.err");
    char *err = test_read_file("test_bench_cli.err");
    CHECK_MSG(rc != 0, "skyline %s exited 0", args);
    CHECK_MSG(count_lines(err) == 1, "skyline %s: stderr has %d lines: %s", args, count_lines(err),
              err);
    free(err);
}

int main(void)
{
    bad_option("bench --bogus");
    bad_option("bench --game chess");
    bad_option("bench --threads 0");
    bad_option("bench --threads");
    bad_option("bench extra");

    int rc =
        run_skyline("bench --count --quick --json", "test_bench_cli.out", "test_bench_cli.err");
    CHECK_EQ_INT(rc, 0);
    json_error_t jerr;
    json_t *rep = json_load_file("test_bench_cli.out", 0, &jerr);
    CHECK_MSG(rep != NULL, "bench --json output is not JSON: %s", jerr.text);
    char *sig = test_read_file(SKYLINE_SOURCE_DIR "/tests/bench-signature.txt");
    const char *quick = strstr(sig, "\nquick ");
    CHECK(quick != NULL);
    if (rep && quick) {
        CHECK_EQ_INT(json_integer_value(json_object_get(rep, "signature")),
                     strtoll(quick + 7, NULL, 10));
        int cases = 0; /* the cases of every registered game's bench entry */
        for (int g = 0; g < game_count(); g++) {
            const bench_game_t *bg = bench_game_for(game_at(g));
            cases += bg ? bg->case_count : 0;
        }
        CHECK_EQ_INT(json_array_size(json_object_get(rep, "cases")), cases);
        CHECK(cases >= 8);
        CHECK(json_is_true(json_object_get(rep, "quick")));
        /* The engine that wrote it, from CMake's project version. */
        const char *engine = json_string_value(json_object_get(rep, "engine"));
        CHECK_MSG(engine && !strcmp(engine, "skyline " SKYLINE_VERSION), "engine %s",
                  engine ? engine : "(missing)");
    }
    json_decref(rep);

    /* The default table fits 100 columns and lists no goals; --verbose has every column
       and the goals. A timed run of the quickest cases. */
    rc = run_skyline("bench --quick --game connect4 --threads 2", "test_bench_cli.out",
                     "test_bench_cli.err");
    CHECK_EQ_INT(rc, 0);
    char *table = test_read_file("test_bench_cli.out");
    int widest = 0, width = 0;
    for (const char *p = table; *p; p++) {
        width = *p == '\n' ? 0 : width + 1;
        widest = width > widest ? width : widest;
    }
    CHECK_MSG(widest <= 100, "the default table is %d columns wide:\n%s", widest, table);
    CHECK_MSG(!strstr(table, "goals:") && !strstr(table, "MISSED"), "goals in the default:\n%s",
              table);
    CHECK_MSG(strstr(table, "\nconnect4 ") && strstr(table, "\nsignature (quick) "), "%s", table);
    free(table);
    rc = run_skyline("bench --quick --game connect4 --threads 2 --verbose", "test_bench_cli.out",
                     "test_bench_cli.err");
    CHECK_EQ_INT(rc, 0);
    table = test_read_file("test_bench_cli.out");
    CHECK_MSG(strstr(table, "gen fast/s") && strstr(table, "\ngoals:\n") &&
                  strstr(table, "connect4 random games/s"),
              "--verbose lacks the wide table or the goals:\n%s", table);
    free(table);

    /* scripts/bench.sh: repeated runs summarised, the signature the same in each. */
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "SKYLINE='%s' bash '%s/scripts/bench.sh' 2 --quick --count >test_bench_cli.out "
             "2>test_bench_cli.err </dev/null",
             SKYLINE_BINARY, SKYLINE_SOURCE_DIR);
    rc = system(cmd);
    CHECK_MSG(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "bench.sh failed");
    char *summary = test_read_file("test_bench_cli.out");
    char want[64] = "";
    if (quick)
        snprintf(want, sizeof want, "signature %lld (the same", strtoll(quick + 7, NULL, 10));
    CHECK_MSG(quick && strstr(summary, want), "bench.sh summary lacks '%s':\n%s", want, summary);
    free(summary);
    free(sig);
    remove("test_bench_cli.out");
    remove("test_bench_cli.err");
    return test_finish("test_bench_cli");
}
