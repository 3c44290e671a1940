/*
 * Target "request": the form data of a skyline serve request (serve/request.h) as a POST
 * body brings it. A refused body has a one-line error; an accepted one has at most
 * SERVE_PARAM_MAX distinct keys of [a-z0-9_], values without control bytes (tab and
 * newline aside), and encoding it again reads back the same parameters. Every key and
 * value is also tried as a file name of the data folder: an accepted name never leaves it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "serve/request.h"

/* Appends text percent-encoded to out (room checked by the caller's size). */
static size_t encode(char *out, const char *text)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_')
            out[n++] = (char)*c;
        else
            n += (size_t)sprintf(out + n, "%%%02X", *c);
    }
    return n;
}

static void check_name(const char *name)
{
    char err[SERVE_ERR_MAX], path[SERVE_NAME_MAX + 64];
    err[0] = 0;
    if (serve_path("/data", name, false, path, sizeof path, err, sizeof err) == 0) {
        if (strchr(name, '/') || name[0] == '.' || strncmp(path, "/data/", 6) ||
            strchr(path + 6, '/'))
            fuzz_fail("request: a file name leaves the data folder", name);
    } else {
        fuzz_check_error(err, sizeof err, "request: file name");
    }
}

int fuzz_request(const uint8_t *data, size_t size)
{
    if (size > SERVE_BODY_MAX)
        return 0;
    serve_params_t p;
    serve_params_init(&p);
    char err[SERVE_ERR_MAX];
    err[0] = 0;
    if (serve_params_parse(&p, (const char *)data, size, err, sizeof err)) {
        fuzz_check_error(err, sizeof err, "request: parse");
        serve_params_free(&p);
        return 0;
    }
    if (p.count > SERVE_PARAM_MAX)
        fuzz_fail("request: too many parameters", "");
    size_t room = 1;
    for (int i = 0; i < p.count; i++) {
        for (const char *c = p.key[i]; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
                fuzz_fail("request: a bad key is accepted", p.key[i]);
        for (const unsigned char *c = (const unsigned char *)p.value[i]; *c; c++)
            if ((*c < 0x20 && *c != '\t' && *c != '\n') || *c == 0x7f)
                fuzz_fail("request: a control byte is accepted", p.key[i]);
        if (serve_param(&p, p.key[i]) != p.value[i])
            fuzz_fail("request: a key is given twice", p.key[i]);
        room += 3 * (strlen(p.key[i]) + strlen(p.value[i])) + 2;
        check_name(p.key[i]);
        check_name(p.value[i]);
    }
    /* Encoded again, the parameters read back the same. */
    char *text = malloc(room);
    if (!text)
        abort();
    size_t n = 0;
    for (int i = 0; i < p.count; i++) {
        if (i)
            text[n++] = '&';
        n += encode(text + n, p.key[i]);
        text[n++] = '=';
        n += encode(text + n, p.value[i]);
    }
    serve_params_t q;
    serve_params_init(&q);
    if (serve_params_parse(&q, text, n, err, sizeof err) || q.count != p.count)
        fuzz_fail("request: the parameters encoded again do not read back", err);
    for (int i = 0; i < p.count; i++)
        if (strcmp(q.key[i], p.key[i]) || strcmp(q.value[i], p.value[i]))
            fuzz_fail("request: a parameter reads back changed", p.key[i]);
    serve_params_free(&q);
    serve_params_free(&p);
    free(text);
    return 0;
}
