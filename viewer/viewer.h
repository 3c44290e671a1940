#pragma once
/*
 * Pages for people (docs/PICTURES.md): the replay viewer of recorded games and the
 * tournament report. Every page is one self-contained HTML file: the script and style
 * sheet are compiled in (viewer/viewer.js, viewer/viewer.css), the pictures are the
 * games' SVG (viewer/picture.h), nothing is fetched from a network.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_t;
struct rating_sprt;

/* The compiled-in script and style sheet (generated from the .js and .css files of viewer/). */
extern const char viewer_asset_viewer_js[];
extern const char viewer_asset_viewer_css[];

/* Opens an HTML page with the style sheet and a title (escaped). */
void viewer_page_open(FILE *out, const char *title);
/* Closes the page, the viewer script included when with_script; 0, or -1 if a write failed. */
int viewer_page_close(FILE *out, bool with_script);
/* Writes the page path whole or not at all (core/replace.h) with write(f, ctx), which
   writes it and returns 0, or -1 if a write failed: 0, or -1 with err "cannot write
   'PATH'" (path as it was). */
int viewer_page_write(const char *path, int (*write)(FILE *f, void *ctx), void *ctx, char *err,
                      size_t errlen);
/* Reads the log at path (what: "zero log", "tune log"), one JSON object a line, through
   add(ctx, line) for each: 0, or -1 with err one line (the file, or "PATH:LINE: not a
   WHAT line" where add refuses one or a line is no JSON). */
int viewer_read_log(const char *path, const char *what,
                    int (*add)(void *ctx, const struct json_t *line), void *ctx, char *err,
                    size_t errlen);
/* Whether path may be written as a page: 0 if it is missing, empty or a page of the
   viewer (the generator mark in its head, which viewer_page_open writes), else -1 with
   err: someone else's file is never overwritten. */
int viewer_page_check(const char *path, char *err, size_t errlen);
/* viewer_page_check of a report page (viewer_write_report) and of the viewer files
   (game-N.html) already in its folder: 0, or -1 with err. */
int viewer_report_check(const char *path, char *err, size_t errlen);
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

/* A histogram of n values (bins of a round width) as an inline SVG chart. */
void viewer_chart_histogram(FILE *out, const double *values, long n, const char *xlabel,
                            const char *colour);
/* Lines of n values each (series of them, named), between dashed lower and upper bounds
   when lower <= upper (NAN: none), as an inline SVG chart; xlabel is written as given. */
void viewer_chart_lines(FILE *out, const double *const *ys, const char *const *names, int series,
                        long n, double lower, double upper, const char *xlabel, const char *ylabel);
/* One series of points for viewer_chart_points: n values (NAN: no point), each with its
   interval [lo, hi] (NULL or NAN: none), drawn hollow where hollow is true (NULL: none),
   with a tooltip (titles, NULL: none). */
typedef struct viewer_points {
    const char *name;          /* the series' name (shown when there are several) */
    const double *y, *lo, *hi; /* the values and their intervals */
    const bool *hollow;        /* points drawn hollow */
    const char *const *titles; /* tooltips */
} viewer_points_t;
/* Points at (xs[i], y[i]) of count series with their intervals as bars, a dashed line at
   y = 0, as an inline SVG chart; the x axis is xs's values (its extremes labelled). */
void viewer_chart_points(FILE *out, const double *xs, const viewer_points_t *series, int count,
                         long n, const char *xlabel, const char *ylabel);

/* What a tournament report is made from. */
typedef struct viewer_report {
    const char *title;              /* the page's title */
    const char *const *files;       /* record files (JSON Lines) */
    int file_count;                 /* their number */
    int bootstrap;                  /* resamples of the rating error bars */
    int players;                    /* only the games of this many players, 0: all */
    const struct rating_sprt *sprt; /* SPRT bounds (rating_sprt_t), or NULL: none */
    bool sprt_per_game;             /* one SPRT outcome per game, not per seat pair */
    const char *sprt_a;             /* the SPRT's bot A (spec), NULL: the bot labelled A */
    const char *sprt_b;             /* its bot B, NULL: the bot labelled B */
    long viewers;                   /* games (the first by index) that get a viewer
                                          file; the others list the replay command */
} viewer_report_t;

/* Games of a report that get a viewer file unless asked otherwise. */
#define VIEWER_REPORT_VIEWERS 50

/*
 * Writes the report of the games in r's files to path (through a temporary file): ratings
 * with their error bars as a chart, the pairwise results as a coloured matrix, results by
 * seat, game length and score distributions, the SPRT's progress when r has one, and the
 * list of games, the first r->viewers linked to their replay viewer, written beside the
 * page in the folder PATH-without-.html + "-games" (the others show the replay command
 * that makes one). Returns 0, or -1 with err filled.
 */
int viewer_write_report(const char *path, const viewer_report_t *r, char *err, size_t errlen);

/*
 * Writes the tuning page of a tune log (FILE.log.jsonl of skyline tune) to path: the path
 * of each weight over the iterations and the results per iteration. 0, or -1 with err.
 */
int viewer_write_tune(const char *path, const char *log_path, char *err, size_t errlen);

/*
 * Writes the self-play loop's page of its log (DIR/log.jsonl of skyline zero, docs/ZERO.md)
 * to path: losses, Elo against generation 0 and against mcts with their intervals, games
 * per hour, and each generation's decision. 0, or -1 with err.
 */
int viewer_write_zero(const char *path, const char *log_path, char *err, size_t errlen);
