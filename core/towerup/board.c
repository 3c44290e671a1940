/* Tower Up board files (FORMATS.md §1): parser, checks, built-in and cached boards. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boards.h"
#include "core/input.h"
#include "core/lines.h"
#include "towerup.h"

#define MAX_TOKENS 8

/* Parser state: the board being built plus what is needed for error messages. */
typedef struct parse {
    towerup_board_t *b;                /* board being filled */
    const char *fname;                 /* file name for messages */
    char *err;                         /* error buffer */
    size_t errlen;                     /* its size */
    int line;                          /* current line number */
    bool have_board;                   /* the board record was seen */
    int area_line[TOWERUP_AREA_COUNT]; /* line of each area record, 0 if none */
    int site_line[TOWERUP_MAX_SITES];  /* line of each site record */
    int degree[TOWERUP_MAX_SITES];     /* streets per site so far */
    char quoted[2][INPUT_EXCERPT_MAX]; /* escaped tokens for the message being written */
} parse_t;

/* Token tok escaped and cut for a message (k: 0 or 1, two may be quoted at once). */
static const char *q(parse_t *ps, int k, const char *tok)
{
    return input_escape(tok, ps->quoted[k], sizeof ps->quoted[k]);
}

static int fail(parse_t *ps, int line, const char *fmt, ...)
{
    char name[128];
    int n =
        snprintf(ps->err, ps->errlen, "%s:%d: ", input_escape(ps->fname, name, sizeof name), line);
    if (n < 0 || (size_t)n >= ps->errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* A decimal integer token (optional minus sign), nothing else. */
static bool parse_int(const char *t, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (!*t || *end || errno || v < INT_MIN / 2 || v > INT_MAX / 2)
        return false;
    if (!(*t == '-' || (*t >= '0' && *t <= '9')))
        return false;
    *out = (int)v;
    return true;
}

static int parse_area(parse_t *ps, char **tok, int n)
{
    towerup_board_t *b = ps->b;
    int id;
    if (n < 3 || n > 4)
        return fail(ps, ps->line, "an area record is 'area ID NAME [grey]'");
    if (!parse_int(tok[1], &id) || id < 0 || id >= TOWERUP_AREA_COUNT)
        return fail(ps, ps->line, "area id '%s' is not 0..4", q(ps, 0, tok[1]));
    if (ps->area_line[id])
        return fail(ps, ps->line, "area %d is defined twice (first on line %d)", id,
                    ps->area_line[id]);
    if (n == 4 && strcmp(tok[3], "grey"))
        return fail(ps, ps->line, "unknown area flag '%s' (only 'grey')", q(ps, 0, tok[3]));
    ps->area_line[id] = ps->line;
    snprintf(b->area_name[id], sizeof b->area_name[id], "%s", tok[2]);
    b->area_grey[id] = n == 4;
    int greys = 0;
    for (int i = 0; i < TOWERUP_AREA_COUNT; i++)
        greys += ps->area_line[i] && b->area_grey[i];
    if (greys > 2)
        return fail(ps, ps->line, "more than two grey areas");
    return 0;
}

static int parse_site(parse_t *ps, char **tok, int n)
{
    towerup_board_t *b = ps->b;
    int id, x, y, area;
    if (n < 5 || n > 7)
        return fail(ps, ps->line, "a site record is 'site ID X Y AREA [park] [lake]'");
    if (!parse_int(tok[1], &id) || id < 0)
        return fail(ps, ps->line, "bad site id '%s'", q(ps, 0, tok[1]));
    if (id >= TOWERUP_MAX_SITES)
        return fail(ps, ps->line, "more than %d sites", TOWERUP_MAX_SITES);
    if (id != b->site_count)
        return fail(ps, ps->line, "site id %d out of order (expected %d)", id, b->site_count);
    if (!parse_int(tok[2], &x) || !parse_int(tok[3], &y))
        return fail(ps, ps->line, "bad site position '%s %s'", q(ps, 0, tok[2]), q(ps, 1, tok[3]));
    if (!parse_int(tok[4], &area) || area < 0 || area >= TOWERUP_AREA_COUNT || !ps->area_line[area])
        return fail(ps, ps->line, "unknown area '%s'", q(ps, 0, tok[4]));
    uint64_t bit = 1ULL << id;
    for (int i = 5; i < n; i++) {
        uint64_t *mask = !strcmp(tok[i], "park")   ? &b->park
                         : !strcmp(tok[i], "lake") ? &b->lake
                                                   : NULL;
        if (!mask)
            return fail(ps, ps->line, "unknown site flag '%s' (park or lake)", q(ps, 0, tok[i]));
        if (*mask & bit)
            return fail(ps, ps->line, "site flag '%s' given twice", q(ps, 0, tok[i]));
        *mask |= bit;
    }
    b->site_x[id] = x;
    b->site_y[id] = y;
    b->site_area[id] = (uint8_t)area;
    b->area_mask[area] |= bit;
    b->all_sites |= bit;
    ps->site_line[id] = ps->line;
    b->site_count++;
    return 0;
}

static int parse_street(parse_t *ps, char **tok, int n)
{
    towerup_board_t *b = ps->b;
    int s[2];
    if (n != 3)
        return fail(ps, ps->line, "a street record is 'street A B'");
    for (int i = 0; i < 2; i++)
        if (!parse_int(tok[1 + i], &s[i]) || s[i] < 0 || s[i] >= b->site_count)
            return fail(ps, ps->line, "unknown site '%s' (sites must be defined above)",
                        q(ps, 0, tok[1 + i]));
    if (s[0] == s[1])
        return fail(ps, ps->line, "street from site %d to itself", s[0]);
    if (b->nbr[s[0]] & (1ULL << s[1]))
        return fail(ps, ps->line, "duplicate street %d %d", s[0], s[1]);
    for (int i = 0; i < 2; i++)
        if (++ps->degree[s[i]] > TOWERUP_MAX_DEGREE)
            return fail(ps, ps->line, "site %d has more than %d streets", s[i], TOWERUP_MAX_DEGREE);
    int k = b->street_count++;
    b->street_a[k] = (uint8_t)s[0];
    b->street_b[k] = (uint8_t)s[1];
    b->nbr[s[0]] |= 1ULL << s[1];
    b->nbr[s[1]] |= 1ULL << s[0];
    int a0 = b->site_area[s[0]], a1 = b->site_area[s[1]];
    b->street_border[k] = a0 != a1;
    int lo = a0 < a1 ? a0 : a1, hi = a0 < a1 ? a1 : a0;
    b->street_pair[k] = (uint8_t)(lo * TOWERUP_AREA_COUNT + hi);
    return 0;
}

static int parse_line(parse_t *ps, char *line)
{
    size_t len = strlen(line), bad = input_bad_byte(line, len);
    if (bad < len)
        return fail(ps, ps->line, "control byte 0x%02x at column %zu (a board file is text)",
                    (unsigned char)line[bad], bad + 1);
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    char *tok[MAX_TOKENS];
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\v\f", &save); t; t = strtok_r(NULL, " \t\r\v\f", &save)) {
        if (n == MAX_TOKENS)
            return fail(ps, ps->line, "too many tokens");
        tok[n++] = t;
    }
    if (!n)
        return 0;
    bool is_board = !strcmp(tok[0], "board");
    if (!is_board && strcmp(tok[0], "area") && strcmp(tok[0], "site") && strcmp(tok[0], "street"))
        return fail(ps, ps->line, "unknown record '%s'", q(ps, 0, tok[0]));
    if (is_board) {
        if (ps->have_board)
            return fail(ps, ps->line, "a second 'board' record");
        if (n != 2)
            return fail(ps, ps->line, "a board record is 'board NAME'");
        snprintf(ps->b->name, sizeof ps->b->name, "%s", tok[1]);
        ps->have_board = true;
        return 0;
    }
    if (!ps->have_board)
        return fail(ps, ps->line, "the first record must be 'board NAME'");
    if (!strcmp(tok[0], "area"))
        return parse_area(ps, tok, n);
    if (!strcmp(tok[0], "site"))
        return parse_site(ps, tok, n);
    return parse_street(ps, tok, n);
}

/* Whole-board checks once every line is read. */
static int check_board(parse_t *ps)
{
    towerup_board_t *b = ps->b;
    if (!ps->have_board)
        return fail(ps, ps->line, "no 'board NAME' record");
    int greys = 0;
    for (int i = 0; i < TOWERUP_AREA_COUNT; i++) {
        if (!ps->area_line[i])
            return fail(ps, ps->line, "area %d is missing (exactly 5 areas are needed)", i);
        if (b->area_grey[i])
            b->grey[greys++] = i;
    }
    if (greys != 2)
        return fail(ps, ps->line, "%d grey areas (exactly 2 are needed)", greys);
    if (!b->site_count)
        return fail(ps, ps->line, "no sites");
    for (int i = 0; i < b->site_count; i++)
        if (!ps->degree[i])
            return fail(ps, ps->site_line[i], "site %d has no street", i);
    uint64_t seen = 1, frontier = 1;
    while (frontier) {
        uint64_t next = 0;
        for (uint64_t f = frontier; f; f &= f - 1)
            next |= b->nbr[__builtin_ctzll(f)];
        frontier = next & ~seen;
        seen |= next;
    }
    if (seen != b->all_sites) {
        int s = __builtin_ctzll(b->all_sites & ~seen);
        return fail(ps, ps->site_line[s], "site %d is not connected to site 0 by streets", s);
    }
    return 0;
}

int towerup_board_load_text(towerup_board_t *b, const char *text, const char *fname, char *err,
                            size_t errlen)
{
    parse_t ps;
    memset(&ps, 0, sizeof ps);
    memset(b, 0, sizeof *b);
    ps.b = b;
    ps.fname = fname;
    ps.err = err;
    ps.errlen = errlen;
    /* Each line is parsed from a copy, whatever its length. */
    char *buf = malloc(strlen(text) + 1);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", fname);
        return -1;
    }
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        ps.line++;
        memcpy(buf, p, len);
        buf[len] = 0;
        if (parse_line(&ps, buf) < 0) {
            free(buf);
            return -1;
        }
        p += len + (e ? 1 : 0);
    }
    free(buf);
    if (!ps.line)
        ps.line = 1;
    return check_board(&ps);
}

int towerup_board_load_file(towerup_board_t *b, const char *path, char *err, size_t errlen)
{
    char *text = lines_read_file(path, "board file", NULL, err, errlen);
    if (!text)
        return -1;
    int rc = towerup_board_load_text(b, text, path, err, errlen);
    free(text);
    return rc;
}

static towerup_board_t builtin_standard, builtin_duo;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void builtin_init(void)
{
    char err[GAME_ERR_MAX];
    if (towerup_board_load_text(&builtin_standard, towerup_board_text_standard, "standard", err,
                                sizeof err) < 0 ||
        towerup_board_load_text(&builtin_duo, towerup_board_text_duo, "duo", err, sizeof err) < 0) {
        fprintf(stderr, "built-in board is broken: %s\n", err);
        abort();
    }
}

const towerup_board_t *towerup_board_builtin(const char *name)
{
    pthread_once(&builtin_once, builtin_init);
    if (!strcmp(name, "standard"))
        return &builtin_standard;
    if (!strcmp(name, "duo"))
        return &builtin_duo;
    return NULL;
}

/* Boards loaded from files, kept for the life of the process (states point to them). */
typedef struct board_cache {
    struct board_cache *next; /* next cached board */
    char *path;               /* the path it was loaded from */
    towerup_board_t board;    /* the board */
} board_cache_t;

static board_cache_t *cache_head;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

const towerup_board_t *towerup_board_get(const char *name_or_path, char *err, size_t errlen)
{
    const towerup_board_t *b = towerup_board_builtin(name_or_path);
    if (b)
        return b;
    pthread_mutex_lock(&cache_lock);
    for (board_cache_t *c = cache_head; c; c = c->next)
        if (!strcmp(c->path, name_or_path)) {
            pthread_mutex_unlock(&cache_lock);
            return &c->board;
        }
    board_cache_t *c = calloc(1, sizeof *c);
    if (c)
        c->path = strdup(name_or_path);
    if (!c || !c->path) {
        if (c)
            free(c);
        pthread_mutex_unlock(&cache_lock);
        snprintf(err, errlen, "out of memory loading a board");
        return NULL;
    }
    if (towerup_board_load_file(&c->board, name_or_path, err, errlen) < 0) {
        /* A name that is no file may have meant a built-in board: name them. */
        size_t used = strlen(err);
        if (access(name_or_path, F_OK) != 0 && errno == ENOENT && used < errlen)
            snprintf(err + used, errlen - used, " (built-in boards: standard, duo)");
        free(c->path);
        free(c);
        pthread_mutex_unlock(&cache_lock);
        return NULL;
    }
    c->next = cache_head;
    cache_head = c;
    pthread_mutex_unlock(&cache_lock);
    return &c->board;
}
