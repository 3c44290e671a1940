#pragma once
/*
 * The request side of `skyline serve` (docs/SERVE.md) that needs no HTTP library: form
 * parameters (application/x-www-form-urlencoded bodies and query strings) parsed and
 * checked strictly, and file names confined to the --data folder. Fuzzed (fuzz/
 * fuzz_request.c) and tested on their own (tests/test_serve_request.c).
 */
#include <stdbool.h>
#include <stddef.h>

/* Most parameters a request may carry, and the longest key and value (bytes). */
#define SERVE_PARAM_MAX       24
#define SERVE_PARAM_KEY_MAX   24
#define SERVE_PARAM_VALUE_MAX 4096
/* The largest request body the server reads (bytes): more is refused with 413. */
#define SERVE_BODY_MAX 16384
/* Buffer size for a request's error message. */
#define SERVE_ERR_MAX 600

/* The parameters of one request: keys are [a-z0-9_]+, each at most once. */
typedef struct serve_params {
    int count;
    char key[SERVE_PARAM_MAX][SERVE_PARAM_KEY_MAX];
    char *value[SERVE_PARAM_MAX]; /* NUL-terminated, owned (serve_params_free) */
} serve_params_t;

void serve_params_init(serve_params_t *p);
void serve_params_free(serve_params_t *p);
/*
 * Adds key=value (already decoded, len bytes of value): 0, or -1 with err one line: a key
 * that is empty, too long or not [a-z0-9_]+, a key given twice, too many parameters, a
 * value too long or holding a control byte other than tab and newline, or invalid UTF-8.
 */
int serve_params_add(serve_params_t *p, const char *key, const char *value, size_t len, char *err,
                     size_t errlen);
/*
 * Parses len bytes of form data "k=v&k=v" (percent escapes, '+' for a space) into p, added
 * to what it holds: 0, or -1 with err one line (a bad escape, a field without '=', and
 * every refusal of serve_params_add). An empty text has no parameters.
 */
int serve_params_parse(serve_params_t *p, const char *text, size_t len, char *err, size_t errlen);
/* The value of key, or NULL. */
const char *serve_param(const serve_params_t *p, const char *key);
/* 0 if every key of p is one of allowed (NULL-terminated), else -1 with err naming it. */
int serve_params_only(const serve_params_t *p, const char *const *allowed, char *err,
                      size_t errlen);
/* The integer value of key in [lo, hi] into *out (def if absent): 0, or -1 with err. */
int serve_param_int(const serve_params_t *p, const char *key, long lo, long hi, long def, long *out,
                    char *err, size_t errlen);
/* The value of key, required: NULL with err "missing parameter KEY" if absent. */
const char *serve_param_need(const serve_params_t *p, const char *key, char *err, size_t errlen);

/* Longest file name under --data (bytes). */
#define SERVE_NAME_MAX 96
/*
 * Whether name may name a file directly in the data folder: 1 to SERVE_NAME_MAX bytes of
 * [A-Za-z0-9._-], not starting with '.', ending in ".jsonl" when jsonl is set. 0, or -1 with
 * err saying why ("..", '/', a hidden name are all refused here).
 */
int serve_name_check(const char *name, bool jsonl, char *err, size_t errlen);
/*
 * The path of name in data (realpath of the folder) into out[outlen], name checked by
 * serve_name_check; when the file exists, its real path must lie in data (a symbolic link
 * out is refused). 0, or -1 with err.
 */
int serve_path(const char *data, const char *name, bool jsonl, char *out, size_t outlen, char *err,
               size_t errlen);
