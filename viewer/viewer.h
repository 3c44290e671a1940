#pragma once
/*
 * Pages for people (docs/PICTURES.md): the replay viewer of recorded games and the
 * tournament report. Every page is one self-contained HTML file: the script and style
 * sheet are compiled in (viewer/viewer.js, viewer/viewer.css), the pictures are the
 * games' SVG (game_api_t.svg), nothing is fetched from a network.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_t;

/* The compiled-in script and style sheet (generated from the .js and .css files of viewer/). */
extern const char viewer_asset_viewer_js[];
extern const char viewer_asset_viewer_css[];

/* Opens an HTML page with the style sheet and a title (escaped). */
void viewer_page_open(FILE *out, const char *title);
/* Closes the page, the viewer script included when with_script; 0, or -1 if a write failed. */
int viewer_page_close(FILE *out, bool with_script);
/* Writes text with & < > " ' escaped for HTML. */
void viewer_html_escape(FILE *out, const char *text);

/*
 * Writes the replay viewer of count game records (FORMATS.md §4, JSON objects) to out;
 * numbers[i] labels record i ("game N" of its file, 1-based). Each game's picture is drawn
 * at every ply (a game without an svg entry is refused), beside the readable move list
 * (one element with data-ply="K" per move, K from 1), its scores and, when the record
 * holds them, the search figures of each move. Returns 0, or -1 with err filled (a record
 * that does not replay, a write error).
 */
int viewer_write_replay(FILE *out, const char *title, struct json_t *const *records,
                        const long *numbers, int count, char *err, size_t errlen);
