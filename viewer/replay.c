/*
 * The replay viewer (viewer/viewer.h): each game of a record file re-played ply by ply,
 * its SVG picture at every ply stored once per distinct line (a position is a list of runs
 * of lines, which keeps a 150-ply game at a few hundred KB), the readable move list, the
 * scores and the search figures that --record-search left in the record.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/record.h"
#include "core/svg.h"
#include "viewer/picture.h"
#include "viewer/viewer.h"

/* Distinct lines of a game's pictures, by index, with an open-addressing index. */
typedef struct line_dict {
    json_t *lines;     /* the lines (a JSON array of strings) */
    size_t *slots;     /* hash slots: line index + 1, or 0 when free */
    size_t slot_count; /* slots (a power of two, at least twice the lines) */
} line_dict_t;

static uint64_t text_hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

/* The index of line s[0..len) in d, added if new; -1 if out of memory. */
static long dict_add(line_dict_t *d, const char *s, size_t len)
{
    size_t count = json_array_size(d->lines);
    if (2 * (count + 1) > d->slot_count) {
        size_t n = d->slot_count ? 2 * d->slot_count : 1024;
        size_t *slots = calloc(n, sizeof *slots);
        if (!slots)
            return -1;
        for (size_t i = 0; i < count; i++) {
            const char *t = json_string_value(json_array_get(d->lines, i));
            size_t h = (size_t)text_hash(t, strlen(t)) & (n - 1);
            while (slots[h])
                h = (h + 1) & (n - 1);
            slots[h] = i + 1;
        }
        free(d->slots);
        d->slots = slots;
        d->slot_count = n;
    }
    size_t h = (size_t)text_hash(s, len) & (d->slot_count - 1);
    while (d->slots[h]) {
        const char *t = json_string_value(json_array_get(d->lines, d->slots[h] - 1));
        if (strlen(t) == len && !memcmp(t, s, len))
            return (long)d->slots[h] - 1;
        h = (h + 1) & (d->slot_count - 1);
    }
    json_t *str = json_stringn(s, len);
    if (!str || json_array_append_new(d->lines, str))
        return -1;
    d->slots[h] = count + 1;
    return (long)count;
}

/* A picture as runs [first line, count] of d's lines; NULL if out of memory. */
static json_t *picture_runs(line_dict_t *d, const char *svg)
{
    json_t *runs = json_array();
    long first = -1, n = 0;
    for (const char *p = svg; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        long i = dict_add(d, p, len);
        if (i < 0) {
            json_decref(runs);
            return NULL;
        }
        if (first >= 0 && i == first + n) {
            n++;
        } else {
            if (first >= 0)
                json_array_append_new(runs, json_pack("[I,I]", (json_int_t)first, (json_int_t)n));
            first = i;
            n = 1;
        }
        p += len + (e ? 1 : 0);
    }
    if (first >= 0)
        json_array_append_new(runs, json_pack("[I,I]", (json_int_t)first, (json_int_t)n));
    return runs;
}

/* The position after ply moves of rec (core/record.h): 0, or -1 with err filled. */
static int position_at(const game_api_t *api, const json_t *rec, int ply, void *state, char *err,
                       size_t errlen)
{
    return record_position(api, rec, ply, state, err, errlen) < 0 ? -1 : 0;
}

/* The picture of state as text (caller frees); NULL if it could not be made. */
static char *picture_text(const game_api_t *api, const void *state)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int rc = game_svg_for(api)(state, -1, f);
    fclose(f);
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void player_dot(FILE *out, int p)
{
    fprintf(out, "<span class=\"who\" style=\"background:%s\"></span>", svg_player_colour(p));
}

/* Scores (or the result) and whose turn it is, for the position after ply k. */
static void write_status(FILE *out, const game_api_t *api, const void *s, int k)
{
    int players = api->player_count(s);
    fprintf(out, "<div class=\"scores\" data-for=\"%d\" hidden>", k);
    double v[GAME_MAX_PLAYERS];
    if (api->scores) {
        api->scores(s, v);
        fprintf(out, "%s:", api->score_key ? api->score_key : "scores");
        for (int p = 0; p < players; p++) {
            fputs(" ", out);
            player_dot(out, p);
            fprintf(out, "P%d <b>%g</b>", p + 1, v[p]);
        }
        fputs("<br>", out);
    }
    if (api->is_terminal(s)) {
        int ranks[GAME_MAX_PLAYERS];
        game_ranks(api, s, ranks);
        fputs("game over, ranks:", out);
        for (int p = 0; p < players; p++)
            fprintf(out, " P%d %d%s", p + 1, ranks[p], p + 1 < players ? "," : "");
    } else {
        player_dot(out, api->to_move(s));
        fprintf(out, "P%d to move", api->to_move(s) + 1);
    }
    fputs("</div>\n", out);
}

/* The search figures of move k (1-based) as a table with bars, shown at ply k - 1. */
static void write_search(FILE *out, const json_t *fig, int k, int mover, const char *played)
{
    if (!json_is_object(fig))
        return;
    const json_t *top = json_object_get(fig, "top");
    fprintf(out,
            "<div class=\"search\" data-for=\"%d\" hidden><p>Search for move %d by P%d: "
            "%" JSON_INTEGER_FORMAT " iterations, %" JSON_INTEGER_FORMAT " ms, value %.3f</p>\n"
            "<table><tr><th class=\"l\">move</th><th class=\"l\">visits</th><th>mean</th></tr>\n",
            k - 1, k, mover + 1, json_integer_value(json_object_get(fig, "iters")),
            json_integer_value(json_object_get(fig, "ms")),
            json_integer_value(json_object_get(fig, "value_pm")) / 1000.0);
    json_int_t most = 1;
    size_t i;
    const json_t *c;
    json_array_foreach(top, i, c)
    {
        json_int_t v = json_integer_value(json_object_get(c, "visits"));
        most = v > most ? v : most;
    }
    json_array_foreach(top, i, c)
    {
        const char *mv = json_string_value(json_object_get(c, "move"));
        json_int_t v = json_integer_value(json_object_get(c, "visits"));
        fputs("<tr><td class=\"l\"><code>", out);
        viewer_html_escape(out, mv ? mv : "?");
        fprintf(out,
                "</code>%s</td><td class=\"l\"><span class=\"bar\" style=\"width:%dpx\">"
                "</span> %" JSON_INTEGER_FORMAT "</td><td>%.3f</td></tr>\n",
                mv && played && !strcmp(mv, played) ? " (played)" : "", (int)(120 * v / most), v,
                json_integer_value(json_object_get(c, "mean_pm")) / 1000.0);
    }
    fputs("</table></div>\n", out);
}

/* The list item of move k (text) by mover from state before: the move and its description. */
static void write_move_item(FILE *li, const game_api_t *api, const void *before, const char *text,
                            int k, int mover)
{
    char what[GAME_DESCRIBE_MAX] = "";
    move_t m;
    char why[GAME_ERR_MAX * 2];
    if (api->move_describe && text && !api->move_from_text(before, text, &m, why, sizeof why))
        api->move_describe(before, m, what, sizeof what);
    fprintf(li, "<li data-ply=\"%d\" data-mover=\"%d\">", k, mover);
    player_dot(li, mover);
    fprintf(li, "P%d <code>", mover + 1);
    viewer_html_escape(li, text ? text : "?");
    fputs("</code>", li);
    if (what[0]) {
        fputs(" ", li);
        viewer_html_escape(li, what);
    }
    fputs("</li>\n", li);
}

/* The heading of game g (record number, n moves), its seats, and the ply controls. */
static void write_game_head(FILE *out, const json_t *rec, const game_api_t *api, long number, int g,
                            int n)
{
    fprintf(out, "<section class=\"game\" id=\"game-%d\" hidden>\n<h2>Game %ld: ", g, number);
    viewer_html_escape(out, api->name);
    fprintf(out,
            ", %" JSON_INTEGER_FORMAT " players, seed %" JSON_INTEGER_FORMAT ", %d moves</h2>\n"
            "<div class=\"meta\">",
            json_integer_value(json_object_get(rec, "players")),
            json_integer_value(json_object_get(rec, "seed")), n);
    const json_t *seats = json_object_get(rec, "seats");
    for (size_t p = 0; p < json_array_size(seats); p++) {
        const char *spec = json_string_value(json_array_get(seats, p));
        player_dot(out, (int)p);
        fprintf(out, "P%zu ", p + 1);
        viewer_html_escape(out, spec ? spec : "?");
        fputs(p + 1 < json_array_size(seats) ? " &middot; " : "", out);
    }
    const char *engine = json_string_value(json_object_get(rec, "engine"));
    if (engine) {
        fputs(" &middot; recorded by ", out);
        viewer_html_escape(out, engine);
    }
    fprintf(out,
            "</div>\n<div class=\"main\">\n<div class=\"board\"></div>\n<div class=\"side\">\n"
            "<div class=\"controls\"><button data-act=\"first\" title=\"first (Home)\">"
            "&laquo;</button><button data-act=\"prev\" title=\"back (left arrow)\">"
            "&#x25C0;</button><span class=\"plylabel\"></span><button data-act=\"next\" "
            "title=\"forward (right arrow)\">&#x25B6;</button><button data-act=\"last\" "
            "title=\"last (End)\">&raquo;</button> <input class=\"jump\" type=\"number\" "
            "min=\"0\" max=\"%d\" title=\"ply\"><button data-act=\"jump\">go</button>"
            "</div>\n",
            n);
}

/* One game's section; 0, or -1 with err filled. */
static int write_game(FILE *out, const json_t *rec, long number, int g, char *err, size_t errlen)
{
    const char *name = json_string_value(json_object_get(rec, "game"));
    const game_api_t *api = name ? game_find(name) : NULL;
    const json_t *moves = json_object_get(rec, "moves");
    if (!api || !json_is_array(moves)) {
        snprintf(err, errlen, "record %ld: %s", number,
                 !name  ? "no \"game\" string"
                 : !api ? "unknown game"
                        : "no \"moves\" list");
        return -1;
    }
    if (!game_svg_for(api)) {
        snprintf(err, errlen, "record %ld: game '%s' has no pictures", number, api->name);
        return -1;
    }
    int n = (int)json_array_size(moves), rc = -1;
    void *before = malloc(api->state_size), *after = malloc(api->state_size);
    line_dict_t dict = {json_array(), NULL, 0};
    json_t *plies = json_array();
    char *items = NULL, *extras = NULL;
    size_t items_len = 0, extras_len = 0;
    FILE *li = open_memstream(&items, &items_len), *ex = open_memstream(&extras, &extras_len);
    if (!before || !after || !li || !ex) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    const json_t *search = json_object_get(rec, "search");
    for (int k = 0; k <= n; k++) {
        char why[GAME_ERR_MAX * 2];
        if (position_at(api, rec, k, after, why, sizeof why)) {
            snprintf(err, errlen, "record %ld: %s", number, why);
            goto done;
        }
        char *svg = picture_text(api, after);
        json_t *runs = svg ? picture_runs(&dict, svg) : NULL;
        free(svg);
        if (!runs) {
            snprintf(err, errlen, "record %ld: the picture of ply %d could not be made", number, k);
            goto done;
        }
        json_array_append_new(plies, runs);
        write_status(ex, api, after, k);
        if (k > 0) {
            const char *text = json_string_value(json_array_get(moves, (size_t)k - 1));
            int mover = api->to_move(before);
            write_move_item(li, api, before, text, k, mover);
            write_search(ex, json_array_get(search, (size_t)k - 1), k, mover, text);
        }
        void *t = before;
        before = after;
        after = t;
    }
    fclose(li);
    fclose(ex);
    li = ex = NULL;
    write_game_head(out, rec, api, number, g, n);
    fwrite(extras, 1, extras_len, out);
    fprintf(out, "<ol class=\"moves\">\n");
    fwrite(items, 1, items_len, out);
    fputs("</ol>\n<p class=\"note\">Keys: left and right arrows step, Home and End jump; "
          "click a move to go to it.</p>\n</div>\n</div>\n"
          "<script type=\"application/json\" class=\"game-data\">",
          out);
    json_t *data = json_pack("{s:O,s:O}", "lines", dict.lines, "plies", plies);
    /* Escaped slashes: no "</script>" can end the data early. */
    json_dumpf(data, out, JSON_COMPACT | JSON_ESCAPE_SLASH);
    json_decref(data);
    fputs("</script>\n</section>\n", out);
    rc = 0;
done:
    if (li)
        fclose(li);
    if (ex)
        fclose(ex);
    free(items);
    free(extras);
    free(before);
    free(after);
    free(dict.slots);
    json_decref(dict.lines);
    json_decref(plies);
    return rc;
}

int viewer_write_replay(FILE *out, const char *title, json_t *const *records, const long *numbers,
                        int count, char *err, size_t errlen)
{
    viewer_page_open(out, title);
    fputs("<h1>", out);
    viewer_html_escape(out, title);
    fputs("</h1>\n", out);
    if (count > 1) {
        fputs("<p><label>Game: <select id=\"picker\">\n", out);
        for (int i = 0; i < count; i++) {
            const char *name = json_string_value(json_object_get(records[i], "game"));
            fprintf(out, "<option value=\"%d\">game %ld (", i, numbers[i]);
            viewer_html_escape(out, name ? name : "?");
            fprintf(out, ", %zu moves)</option>\n",
                    json_array_size(json_object_get(records[i], "moves")));
        }
        fputs("</select></label></p>\n", out);
    }
    for (int i = 0; i < count; i++)
        if (write_game(out, records[i], numbers[i], i, err, errlen))
            return -1;
    if (viewer_page_close(out, true)) {
        snprintf(err, errlen, "write error");
        return -1;
    }
    return 0;
}
