/* Request parameters and file names of `skyline serve` (serve/request.h). */
/* realpath (XSI). */
#define _XOPEN_SOURCE 700
#include "serve/request.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"

void serve_params_init(serve_params_t *p) { memset(p, 0, sizeof *p); }

void serve_params_free(serve_params_t *p)
{
    for (int i = 0; i < p->count; i++)
        free(p->value[i]);
    serve_params_init(p);
}

static bool key_ok(const char *key)
{
    if (!key[0] || strlen(key) >= SERVE_PARAM_KEY_MAX)
        return false;
    for (const char *c = key; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
            return false;
    return true;
}

/* Whether s[0..len) is valid UTF-8 without control bytes other than tab and newline. */
static bool value_ok(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
            return false;
    }
    char shown[8];
    /* input_escape_n writes \xNN for a byte outside valid UTF-8: compare lengths. */
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : 4;
        if (c >= 0x80 && (c < 0xc2 || c > 0xf4))
            return false;
        if (i + n > len)
            return false;
        input_escape_n(s + i, n, shown, sizeof shown);
        if (strstr(shown, "\\x"))
            return false;
        i += n;
    }
    return true;
}

int serve_params_add(serve_params_t *p, const char *key, const char *value, size_t len, char *err,
                     size_t errlen)
{
    char shown[INPUT_EXCERPT_MAX];
    if (!key_ok(key)) {
        snprintf(err, errlen, "bad parameter name '%s' (letters a-z, digits and _)",
                 input_escape(key, shown, sizeof shown));
        return -1;
    }
    if (serve_param(p, key)) {
        snprintf(err, errlen, "parameter %s is given twice", key);
        return -1;
    }
    if (p->count == SERVE_PARAM_MAX) {
        snprintf(err, errlen, "too many parameters (at most %d)", SERVE_PARAM_MAX);
        return -1;
    }
    if (len > SERVE_PARAM_VALUE_MAX) {
        snprintf(err, errlen, "parameter %s is too long (at most %d bytes)", key,
                 SERVE_PARAM_VALUE_MAX);
        return -1;
    }
    if (!value_ok(value, len)) {
        snprintf(err, errlen, "parameter %s holds a control byte or invalid UTF-8", key);
        return -1;
    }
    char *v = malloc(len + 1);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(v, value, len);
    v[len] = 0;
    snprintf(p->key[p->count], SERVE_PARAM_KEY_MAX, "%s", key);
    p->value[p->count++] = v;
    return 0;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Decodes s[0..len) (escapes, '+') into out (len + 1 bytes): the decoded length, or -1. */
static long form_decode(const char *s, size_t len, char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '+') {
            out[n++] = ' ';
        } else if (s[i] == '%') {
            int hi = i + 2 < len ? hex_digit(s[i + 1]) : -1;
            int lo = i + 2 < len ? hex_digit(s[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                return -1;
            out[n++] = (char)(hi * 16 + lo);
            i += 2;
        } else {
            out[n++] = s[i];
        }
    }
    out[n] = 0;
    return (long)n;
}

int serve_params_parse(serve_params_t *p, const char *text, size_t len, char *err, size_t errlen)
{
    char shown[INPUT_EXCERPT_MAX];
    size_t i = 0;
    while (i < len) {
        size_t end = i;
        while (end < len && text[end] != '&')
            end++;
        const char *eq = memchr(text + i, '=', end - i);
        if (!eq) {
            snprintf(err, errlen, "bad form field '%s' (no '=')",
                     input_escape_n(text + i, end - i, shown, sizeof shown));
            return -1;
        }
        size_t klen = (size_t)(eq - (text + i)), vlen = end - i - klen - 1;
        char key[SERVE_PARAM_KEY_MAX + 8];
        char *val = malloc(vlen + 1);
        if (!val) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        long kn = klen < SERVE_PARAM_KEY_MAX ? form_decode(text + i, klen, key) : -2;
        long vn = form_decode(eq + 1, vlen, val);
        if (kn == -2) {
            snprintf(err, errlen, "bad parameter name '%s' (too long)",
                     input_escape_n(text + i, klen, shown, sizeof shown));
        } else if (kn < 0 || vn < 0) {
            snprintf(err, errlen, "bad %% escape in form field '%s'",
                     input_escape_n(text + i, end - i, shown, sizeof shown));
        } else if (strlen(key) != (size_t)kn) {
            snprintf(err, errlen, "bad parameter name (a NUL byte)");
        }
        int rc = kn < 0 || vn < 0 || strlen(key) != (size_t)kn
                     ? -1
                     : serve_params_add(p, key, val, (size_t)vn, err, errlen);
        free(val);
        if (rc)
            return -1;
        i = end + 1;
    }
    return 0;
}

const char *serve_param(const serve_params_t *p, const char *key)
{
    for (int i = 0; i < p->count; i++)
        if (!strcmp(p->key[i], key))
            return p->value[i];
    return NULL;
}

int serve_params_only(const serve_params_t *p, const char *const *allowed, char *err, size_t errlen)
{
    for (int i = 0; i < p->count; i++) {
        bool known = false;
        for (const char *const *a = allowed; *a && !known; a++)
            known = !strcmp(*a, p->key[i]);
        if (!known) {
            snprintf(err, errlen, "unknown parameter %s", p->key[i]);
            return -1;
        }
    }
    return 0;
}

int serve_param_int(const serve_params_t *p, const char *key, long lo, long hi, long def, long *out,
                    char *err, size_t errlen)
{
    const char *v = serve_param(p, key);
    if (!v) {
        *out = def;
        return 0;
    }
    char *end;
    long x = v[0] == '-' || (v[0] >= '0' && v[0] <= '9') ? strtol(v, &end, 10) : 0;
    char shown[INPUT_EXCERPT_MAX];
    if (!(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) || *end || x < lo || x > hi ||
        x == LONG_MIN || x == LONG_MAX) {
        snprintf(err, errlen, "parameter %s: '%s' is not an integer from %ld to %ld", key,
                 input_escape(v, shown, sizeof shown), lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

const char *serve_param_need(const serve_params_t *p, const char *key, char *err, size_t errlen)
{
    const char *v = serve_param(p, key);
    if (!v)
        snprintf(err, errlen, "missing parameter %s", key);
    return v;
}

int serve_name_check(const char *name, bool jsonl, char *err, size_t errlen)
{
    char shown[INPUT_EXCERPT_MAX];
    size_t len = strlen(name);
    bool ok = len > 0 && len <= SERVE_NAME_MAX && name[0] != '.';
    for (size_t i = 0; ok && i < len; i++) {
        char c = name[i];
        ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '.' || c == '_' || c == '-';
    }
    if (!ok) {
        snprintf(err, errlen,
                 "bad file name '%s': a name in the data folder, letters, digits, . _ - only "
                 "(no folders, not starting with '.')",
                 input_escape(name, shown, sizeof shown));
        return -1;
    }
    if (jsonl && (len < 7 || strcmp(name + len - 6, ".jsonl"))) {
        snprintf(err, errlen, "bad file name '%s': a record file ending in .jsonl",
                 input_escape(name, shown, sizeof shown));
        return -1;
    }
    return 0;
}

int serve_path(const char *data, const char *name, bool jsonl, char *out, size_t outlen, char *err,
               size_t errlen)
{
    if (serve_name_check(name, jsonl, err, errlen))
        return -1;
    if ((size_t)snprintf(out, outlen, "%s/%s", data, name) >= outlen) {
        snprintf(err, errlen, "file name too long");
        return -1;
    }
    char real[PATH_MAX];
    if (realpath(out, real)) {
        size_t n = strlen(data);
        if (strncmp(real, data, n) || real[n] != '/' || strchr(real + n + 1, '/')) {
            snprintf(err, errlen, "file '%s' lies outside the data folder (a link?)", name);
            return -1;
        }
    }
    return 0;
}
