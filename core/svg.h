#pragma once
/*
 * Small pieces shared by the games' SVG pictures (listed by viewer/picture.c): the document frame,
 * escaped text and the colours of players. Every picture is standalone: no external file,
 * a generic font family, 800 px wide.
 */
#include <stdio.h>

/* Width of every picture in px (its height follows from its content). */
#define SVG_WIDTH 800

/* Opens an SVG document of SVG_WIDTH x height px with a white background and a title. */
void svg_open(FILE *out, int height, const char *title);
/* Closes the document; 0, or -1 if a write failed. */
int svg_close(FILE *out);
/* Writes text with & < > " escaped. */
void svg_escape(FILE *out, const char *text);
/*
 * A text element at (x, y): size in px, anchor "start", "middle" or "end", fill colour,
 * bold or not; the text is escaped.
 */
void svg_text(FILE *out, double x, double y, int size, const char *anchor, const char *fill,
              int bold, const char *text);
/* The colour of player (or Uptown colour) p, 0..4, as "#rrggbb". */
const char *svg_player_colour(int p);
