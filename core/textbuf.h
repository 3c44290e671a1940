#pragma once
/*
 * Appending text to a fixed buffer, for the games' diagrams and move descriptions
 * (game_api_t.diagram, move_describe): printf-style appends that truncate safely, and
 * the symbol and colour choices of the GAME_TEXT_* flags.
 */
#include <stdbool.h>
#include <stddef.h>

/* A fixed buffer being filled; always terminated. */
typedef struct textbuf {
    char *buf;      /* the caller's buffer */
    size_t cap;     /* its size in bytes, terminator included */
    size_t len;     /* bytes written so far (at most cap - 1) */
    unsigned flags; /* GAME_TEXT_* of the diagram being written */
} textbuf_t;

/* ANSI colours (SGR codes) used by the diagrams. */
enum {
    TEXTBUF_RESET = 0,
    TEXTBUF_BOLD = 1,
    TEXTBUF_DIM = 2,
    TEXTBUF_RED = 31,
    TEXTBUF_GREEN = 32,
    TEXTBUF_YELLOW = 33,
    TEXTBUF_BLUE = 34,
    TEXTBUF_MAGENTA = 35,
    TEXTBUF_CYAN = 36,
    TEXTBUF_WHITE = 37,
    TEXTBUF_GREY = 90,
    TEXTBUF_BRIGHT_WHITE = 97
};

void textbuf_init(textbuf_t *t, char *buf, size_t cap, unsigned flags);
/* Appends formatted text (truncated at the buffer's end). */
void textbuf_printf(textbuf_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends utf8 or, with GAME_TEXT_ASCII, ascii. */
void textbuf_sym(textbuf_t *t, const char *utf8, const char *ascii);
/* Appends the escape of an SGR code (TEXTBUF_*) when colour is on; nothing otherwise. */
void textbuf_colour(textbuf_t *t, int code);
/* Appends n copies of a symbol (utf8 or ascii as textbuf_sym). */
void textbuf_repeat(textbuf_t *t, const char *utf8, const char *ascii, int n);
/* The colour of player p's pieces (players 0..4). */
int textbuf_player_colour(int p);
/* Whether the flags ask for colour. */
bool textbuf_has_colour(const textbuf_t *t);
