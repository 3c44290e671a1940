#pragma once
/*
 * Helpers for user input in error messages and for opening input files: every message
 * that quotes user text (board files, records, bot specs, parameter files, move text,
 * command-line values) passes it through input_escape, so a message is one printable
 * line however binary the input.
 */
#include <stddef.h>
#include <stdio.h>

/* Buffer size for a short excerpt of bad input: 40 shown characters, "..." and the end. */
#define INPUT_EXCERPT_MAX 48

/*
 * Copies len bytes of s into out[outlen] for a message: tab, newline and return as \t \n
 * \r, other control bytes, DEL, bytes that are not part of valid UTF-8 and U+FEFF (a
 * byte-order mark: invisible) as \xNN; cut at
 * a whole character with "..." when it does not fit. Returns out.
 */
const char *input_escape_n(const char *s, size_t len, char *out, size_t outlen);
/* input_escape_n of a NUL-terminated string. */
const char *input_escape(const char *s, char *out, size_t outlen);

/*
 * The one error style of core: "FIELD 'INPUT': WHAT" into err[errlen], naming the field at
 * fault and quoting the bad input (escaped and cut by input_escape), or "FIELD: WHAT" when
 * input is NULL (no single text is at fault). WHAT is a printf format. Returns -1.
 */
int input_fail(char *err, size_t errlen, const char *field, const char *input, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/*
 * Index of the first byte of s[0..len) that a text file must not hold: NUL, a control
 * byte other than tab, newline, return, vertical tab and form feed, or DEL; len if none.
 */
size_t input_bad_byte(const char *s, size_t len);

/*
 * Opens path for reading (mode "r" or "rb"); what names the file in messages ("board
 * file"). lines_open (core/lines.h) with no size bound: NULL with err filled ("PATH:
 * cannot open WHAT: reason", or "PATH is a directory, not a WHAT") when it cannot be
 * opened or is not a regular file.
 */
FILE *input_open(const char *path, const char *mode, const char *what, char *err, size_t errlen);
