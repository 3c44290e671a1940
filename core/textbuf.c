/* Appending text to a fixed buffer (textbuf.h). */
#include "textbuf.h"

#include <stdarg.h>
#include <stdio.h>

#include "game.h"

void textbuf_init(textbuf_t *t, char *buf, size_t cap, unsigned flags)
{
    t->buf = buf;
    t->cap = cap;
    t->len = 0;
    t->flags = flags;
    if (cap)
        buf[0] = 0;
}

void textbuf_printf(textbuf_t *t, const char *fmt, ...)
{
    if (t->len + 1 >= t->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    t->len += (size_t)n;
    if (t->len >= t->cap)
        t->len = t->cap - 1;
}

void textbuf_sym(textbuf_t *t, const char *utf8, const char *ascii)
{
    textbuf_printf(t, "%s", t->flags & GAME_TEXT_ASCII ? ascii : utf8);
}

void textbuf_colour(textbuf_t *t, int code)
{
    if (t->flags & GAME_TEXT_COLOUR)
        textbuf_printf(t, "\033[%dm", code);
}

void textbuf_repeat(textbuf_t *t, const char *utf8, const char *ascii, int n)
{
    for (int i = 0; i < n; i++)
        textbuf_sym(t, utf8, ascii);
}

int textbuf_player_colour(int p)
{
    static const int colours[] = {TEXTBUF_RED, TEXTBUF_BLUE, TEXTBUF_GREEN, TEXTBUF_MAGENTA,
                                  TEXTBUF_CYAN};
    return p >= 0 && p < 5 ? colours[p] : TEXTBUF_RESET;
}

bool textbuf_has_colour(const textbuf_t *t) { return (t->flags & GAME_TEXT_COLOUR) != 0; }
