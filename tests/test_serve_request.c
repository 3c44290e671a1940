/* skyline serve's request parameters and file names (serve/request.c): strict parsing,
   one-line errors, and no file name that leaves the data folder. */
/* realpath, mkdtemp, symlink (XSI). */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve/request.h"
#include "tests/test.h"

/* Parses text: the return value, err checked to be one line when it fails. */
static int parse(const char *text, serve_params_t *p, char *err)
{
    serve_params_init(p);
    err[0] = 0;
    int rc = serve_params_parse(p, text, strlen(text), err, SERVE_ERR_MAX);
    if (rc)
        CHECK_MSG(err[0] && !strchr(err, '\n'), "'%s' gives no one-line error", text);
    return rc;
}

static void check_forms(void)
{
    serve_params_t p;
    char err[SERVE_ERR_MAX];
    CHECK(parse("game=connect4&seat0=human&seat1=mcts%3Aiters%3D50&pos=a+b", &p, err) == 0);
    CHECK_EQ_INT(p.count, 4);
    CHECK(!strcmp(serve_param(&p, "seat1"), "mcts:iters=50"));
    CHECK(!strcmp(serve_param(&p, "pos"), "a b"));
    CHECK(serve_param(&p, "seat2") == NULL);
    long v;
    CHECK(serve_param_int(&p, "players", 2, 4, 3, &v, err, sizeof err) == 0 && v == 3);
    static const char *const some[] = {"game", "seat0", NULL};
    CHECK(serve_params_only(&p, some, err, sizeof err) == -1 && strstr(err, "seat1"));
    serve_params_free(&p);
    CHECK(parse("", &p, err) == 0 && p.count == 0);
    static const char *const bad[] = {
        "a=1&a=2",                          /* a key twice */
        "A=1",                              /* not [a-z0-9_] */
        "=1",                               /* empty key */
        "novalue",                          /* no '=' */
        "a=%zz",                            /* a bad escape */
        "a=%4",                             /* a cut escape */
        "a=%00",                            /* NUL */
        "a=%01",                            /* a control byte */
        "a=%ff%fe",                         /* invalid UTF-8 */
        "a%00b=1",                          /* NUL in a key */
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=1", /* a long key */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_MSG(parse(bad[i], &p, err) == -1, "'%s' is accepted", bad[i]);
        serve_params_free(&p);
    }
    char many[2048] = "";
    for (int i = 0; i <= SERVE_PARAM_MAX; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "%sk%d=1", i ? "&" : "", i);
    CHECK(parse(many, &p, err) == -1 && strstr(err, "too many"));
    serve_params_free(&p);
    char *big = malloc(SERVE_PARAM_VALUE_MAX + 16);
    memset(big, 'x', SERVE_PARAM_VALUE_MAX + 8);
    memcpy(big, "a=", 2);
    big[SERVE_PARAM_VALUE_MAX + 8] = 0;
    CHECK(parse(big, &p, err) == -1 && strstr(err, "too long"));
    serve_params_free(&p);
    free(big);
    CHECK(parse("n=12x&m=-&o=99999999999999999999", &p, err) == 0);
    CHECK(serve_param_int(&p, "n", 0, 100, 0, &v, err, sizeof err) == -1);
    CHECK(serve_param_int(&p, "m", 0, 100, 0, &v, err, sizeof err) == -1);
    CHECK(serve_param_int(&p, "o", 0, 100, 0, &v, err, sizeof err) == -1);
    serve_params_free(&p);
}

static void check_paths(void)
{
    char dir[] = "/tmp/skyline-serve-XXXXXX", real[PATH_MAX], out[PATH_MAX + 128];
    char err[SERVE_ERR_MAX];
    CHECK(mkdtemp(dir) != NULL);
    CHECK(realpath(dir, real) != NULL);
    static const char *const bad[] = {"../etc/passwd",  "/etc/passwd", "a/../../x",  "..",
                                      ".hidden.jsonl",  "sub/x.jsonl", "x\\y.jsonl", "",
                                      "%2e%2e%2fpasswd"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        CHECK_MSG(serve_path(real, bad[i], false, out, sizeof out, err, sizeof err) == -1,
                  "'%s' is allowed", bad[i]);
        CHECK(err[0] && !strchr(err, '\n'));
    }
    CHECK(serve_path(real, "games.jsonl", true, out, sizeof out, err, sizeof err) == 0);
    CHECK(serve_path(real, "games.txt", true, out, sizeof out, err, sizeof err) == -1);
    /* A link that leads out of the folder is refused once it exists. */
    char link_path[PATH_MAX + 32];
    snprintf(link_path, sizeof link_path, "%s/out.jsonl", real);
    CHECK(symlink("/etc/hostname", link_path) == 0);
    CHECK(serve_path(real, "out.jsonl", true, out, sizeof out, err, sizeof err) == -1);
    CHECK(strstr(err, "outside") != NULL);
    unlink(link_path);
    rmdir(dir);
}

int main(void)
{
    check_forms();
    check_paths();
    return test_finish("test_serve_request");
}
