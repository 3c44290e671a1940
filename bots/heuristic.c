/* Heuristic lookup by game and parameter files (FORMATS.md §7): defaults, load, save. */
#include "bots/heuristic.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/lines.h"

#include "core/version.h"

/* The registry of heuristics: one line per game that has one (the table lives in the game's
   folder and names its game; core/heuristic.h). */
#define HEURISTIC_LIST(X)                                                                          \
    X(heuristic_towerup)                                                                           \
    X(heuristic_uptown)

#define HEURISTIC_DECLARE(h) extern const heuristic_t h;
#define HEURISTIC_POINTER(h) &h,

HEURISTIC_LIST(HEURISTIC_DECLARE)

static const heuristic_t *const heuristic_table[] = {HEURISTIC_LIST(HEURISTIC_POINTER)};

const heuristic_t *heuristic_for(const game_api_t *api)
{
    for (size_t i = 0; api && i < sizeof heuristic_table / sizeof heuristic_table[0]; i++)
        if (!strcmp(heuristic_table[i]->api->name, api->name)) /* a copy of a table too */
            return heuristic_table[i];
    return NULL;
}

void heur_params_default(const heuristic_t *h, heur_params_t *w)
{
    memset(w, 0, sizeof *w);
    w->count = h->param_count;
    for (int i = 0; i < h->param_count; i++)
        w->value[i] = h->params[i].value;
}

int heur_param_find(const heuristic_t *h, const char *name)
{
    for (int i = 0; i < h->param_count; i++)
        if (!strcmp(h->params[i].name, name))
            return i;
    return -1;
}

void heur_param_names(const heuristic_t *h, char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    for (int k = 0; k < h->param_count && n < len; k++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", k ? " " : "", h->params[k].name);
}

/* The next whitespace-separated token of *p (advanced past it), or NULL at the end. */
static char *next_token(char **p)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    if (!*s) {
        *p = s;
        return NULL;
    }
    char *start = s;
    while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
        s++;
    if (*s)
        *s++ = '\0';
    *p = s;
    return start;
}

/* Checks one line (comment already cut off) and stores its value into w. 0, or -1 + err. */
static int load_line(const heuristic_t *h, char *text, heur_params_t *w, int *first_line, int line,
                     char *what, size_t whatlen)
{
    char *p = text;
    char *name = next_token(&p);
    if (!name)
        return 0;
    char *value = next_token(&p);
    char *extra = next_token(&p);
    int i = heur_param_find(h, name);
    char shown[INPUT_EXCERPT_MAX];
    if (i < 0) {
        char names[GAME_ERR_MAX];
        heur_param_names(h, names, sizeof names);
        snprintf(what, whatlen, "unknown parameter '%s' (%s has: %.380s)",
                 input_escape(name, shown, sizeof shown), h->api->name, names);
        return -1;
    }
    if (!value) {
        snprintf(what, whatlen, "parameter '%s' has no value", name);
        return -1;
    }
    if (extra) {
        snprintf(what, whatlen, "extra text '%s' after the value of '%s'",
                 input_escape(extra, shown, sizeof shown), name);
        return -1;
    }
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (errno || end == value || *end || !isfinite(v)) {
        snprintf(what, whatlen, "bad number '%s' for parameter '%s'",
                 input_escape(value, shown, sizeof shown), name);
        return -1;
    }
    if (!(v >= -HEUR_VALUE_MAX && v <= HEUR_VALUE_MAX)) {
        snprintf(what, whatlen,
                 "value '%s' of parameter '%s' is out of range (a number from %g to %g)",
                 input_escape(value, shown, sizeof shown), name, -HEUR_VALUE_MAX, HEUR_VALUE_MAX);
        return -1;
    }
    if (first_line[i]) {
        snprintf(what, whatlen, "parameter '%s' given twice (first on line %d)", name,
                 first_line[i]);
        return -1;
    }
    first_line[i] = line;
    w->value[i] = v;
    return 0;
}

int heur_params_load(const heuristic_t *h, const char *path, heur_params_t *w, char *err,
                     size_t errlen)
{
    FILE *f = lines_open(path, "parameter file", LINES_FILE_MAX, err, errlen);
    if (!f)
        return -1;
    char name[128];
    input_escape(path, name, sizeof name);
    /* Work on a copy so that w is unchanged when the file is refused. */
    heur_params_t out = *w;
    out.count = h->param_count;
    int first_line[HEUR_MAX_PARAMS] = {0};
    lines_reader_t r;
    lines_init(&r, f);
    r.keep_nul = true; /* refused below with its column, as any control byte */
    int line = 0, rc = 0, got = 0;
    char what[GAME_ERR_MAX];
    while (rc == 0 && (got = lines_next(&r)) > 0) {
        line = (int)r.lineno;
        size_t bad = input_bad_byte(r.text, r.len);
        if (bad < r.len) {
            snprintf(err, errlen,
                     "%s:%d: control byte 0x%02x at column %zu (a parameter file is "
                     "text)",
                     name, line, (unsigned char)r.text[bad], bad + 1);
            rc = -1;
            break;
        }
        char *hash = strchr(r.text, '#');
        if (hash)
            *hash = '\0';
        if (load_line(h, r.text, &out, first_line, line, what, sizeof what)) {
            snprintf(err, errlen, "%s:%d: %s", name, line, what);
            rc = -1;
        }
    }
    /* A read that fails is an error, never the weights read so far or the defaults. */
    if (rc == 0 && got < 0) {
        lines_error(&r, path, err, errlen);
        rc = -1;
    }
    lines_free(&r);
    fclose(f);
    if (rc == 0)
        *w = out;
    return rc;
}

int heur_params_save(const heuristic_t *h, const heur_params_t *w, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# %s heuristic weights (name value; " HEUR_PARAMS_HEADER_MARK ")\n", h->api->name);
    fprintf(f, "# written by %s\n", skyline_engine());
    for (int i = 0; i < h->param_count; i++) {
        /* The shortest of %.15g and %.17g that reads back as the same double. */
        char num[40];
        snprintf(num, sizeof num, "%.15g", w->value[i]);
        if (strtod(num, NULL) != w->value[i])
            snprintf(num, sizeof num, "%.17g", w->value[i]);
        const heur_param_def_t *d = &h->params[i];
        fprintf(f, "%-24s %-22s # %s\n", d->name, num, d->help ? d->help : "");
    }
    int bad = ferror(f);
    if (fclose(f) || bad)
        return -1;
    return 0;
}
