/* User input in messages and input files (core/input.h). */
#include "core/input.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/lines.h"

/* Length of the valid UTF-8 sequence at s[0..len) (a byte >= 0x80 leads it), or 0. */
static size_t utf8_length(const unsigned char *s, size_t len)
{
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4;
    else
        return 0;
    /* No overlong forms, no surrogates, nothing above U+10FFFF. */
    if (s[0] == 0xe0)
        lo = 0xa0;
    else if (s[0] == 0xed)
        hi = 0x9f;
    else if (s[0] == 0xf0)
        lo = 0x90;
    else if (s[0] == 0xf4)
        hi = 0x8f;
    if (len < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return n;
}

/* True if s[0..len) starts with U+FEFF (a byte-order mark, or a zero-width no-break space):
   printed as it is, a quote of it would look empty. */
static bool zero_width(const unsigned char *s, size_t len)
{
    return len >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf;
}

/* The escaped form of the character at u[i] into piece[8]: its length; *used: bytes read. */
static size_t escape_piece(const unsigned char *u, size_t i, size_t len, char *piece, size_t *used)
{
    unsigned char c = u[i];
    size_t n = 0;
    *used = 1;
    if (c == '\t' || c == '\n' || c == '\r') {
        piece[n++] = '\\';
        piece[n++] = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
    } else if (c >= 0x20 && c < 0x7f) {
        piece[n++] = (char)c;
    } else if (c >= 0x80 && !zero_width(u + i, len - i) && (n = utf8_length(u + i, len - i)) > 0) {
        memcpy(piece, u + i, n);
        *used = n;
    } else {
        static const char hex[] = "0123456789abcdef";
        piece[n++] = '\\';
        piece[n++] = 'x';
        piece[n++] = hex[c >> 4];
        piece[n++] = hex[c & 15];
    }
    return n;
}

const char *input_escape_n(const char *s, size_t len, char *out, size_t outlen)
{
    if (!outlen)
        return out;
    const unsigned char *u = (const unsigned char *)s;
    char piece[8];
    size_t used, total = 0;
    for (size_t i = 0; i < len; i += used)
        total += escape_piece(u, i, len, piece, &used);
    /* When it does not all fit, whole pieces go in while "..." still fits after them. */
    size_t room = total < outlen ? outlen - 1 : outlen > 4 ? outlen - 4 : 0, o = 0;
    for (size_t i = 0; i < len; i += used) {
        size_t n = escape_piece(u, i, len, piece, &used);
        if (o + n > room)
            break;
        memcpy(out + o, piece, n);
        o += n;
    }
    if (total >= outlen && outlen > 4) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = 0;
    return out;
}

const char *input_escape(const char *s, char *out, size_t outlen)
{
    return input_escape_n(s, strlen(s), out, outlen);
}

size_t input_bad_byte(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') ||
            c == 0x7f)
            return i;
    }
    return len;
}

FILE *input_open(const char *path, const char *mode, const char *what, char *err, size_t errlen)
{
    (void)mode; /* the same on POSIX */
    return lines_open(path, what, 0, err, errlen);
}

int input_fail(char *err, size_t errlen, const char *field, const char *input, const char *fmt, ...)
{
    char what[512], shown[INPUT_EXCERPT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (input)
        snprintf(err, errlen, "%s '%s': %s", field, input_escape(input, shown, sizeof shown), what);
    else
        snprintf(err, errlen, "%s: %s", field, what);
    return -1;
}
