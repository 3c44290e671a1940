/* Reference games for the bench, made from game records (FORMATS.md §4). */
#include "bench/bench_ref.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/towerup/boards.h"
#include "tests/ref/towerup_ref.h"
#include "tests/ref/uptown_ref.h"

struct bench_ref {
    tu_ref_t *tu; /* the Tower Up reference game, or NULL */
    ut_ref_t *ut; /* the Uptown reference game, or NULL */
};

/* The strings of a JSON array in a new NULL-terminated array (strings still owned by
   the JSON); *count gets their number. NULL if arr is not an array of strings. */
static const char **ref_strings(const json_t *arr, int *count)
{
    if (!json_is_array(arr))
        return NULL;
    size_t n = json_array_size(arr);
    const char **out = calloc(n + 1, sizeof *out);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        out[i] = json_string_value(json_array_get(arr, i));
        if (!out[i]) {
            free(out);
            return NULL;
        }
    }
    *count = (int)n;
    return out;
}

static int ref_int(const json_t *rec, const char *key)
{
    return (int)json_integer_value(json_object_get(rec, key));
}

/* Tower Up: board text by the record's board name (the bench uses built-in boards only). */
static tu_ref_t *ref_towerup(const json_t *rec, char *err, size_t errlen)
{
    const char *board = json_string_value(json_object_get(rec, "board"));
    const char *text = NULL;
    if (board && !strcmp(board, "standard"))
        text = towerup_board_text_standard;
    else if (board && !strcmp(board, "duo"))
        text = towerup_board_text_duo;
    if (!text) {
        snprintf(err, errlen, "bench: the reference needs a built-in board, not '%s'",
                 board ? board : "(none)");
        return NULL;
    }
    int n_obj = 0, n_deck = 0, n_start = 0;
    const char **obj = ref_strings(json_object_get(rec, "objectives"), &n_obj);
    const char **deck = ref_strings(json_object_get(rec, "deck"), &n_deck);
    const char **start = ref_strings(json_object_get(rec, "start_floors"), &n_start);
    const json_t *resh = json_object_get(rec, "reshuffles");
    int n_resh = (int)json_array_size(resh);
    const char ***lists = calloc((size_t)n_resh + 1, sizeof *lists);
    int *lens = calloc((size_t)n_resh + 1, sizeof *lens);
    bool ok = obj && deck && start && lists && lens && n_obj == 3 && n_deck == 44;
    for (int i = 0; ok && i < n_resh; i++) {
        lists[i] = ref_strings(json_array_get(resh, (size_t)i), &lens[i]);
        ok = lists[i] != NULL;
    }
    tu_ref_t *g = NULL;
    if (ok)
        g = tu_ref_new(text, ref_int(rec, "players"), ref_int(rec, "first_player"), obj, deck,
                       n_start, start, n_resh, (const char *const *const *)lists, lens);
    for (int i = 0; lists && i < n_resh; i++)
        free(lists[i]);
    free(lists);
    free(lens);
    free(obj);
    free(deck);
    free(start);
    if (!g)
        snprintf(err, errlen, "bench: the Tower Up reference refused the game record");
    return g;
}

/* Uptown: the players' tile piles in draw order. */
static ut_ref_t *ref_uptown(const json_t *rec, char *err, size_t errlen)
{
    const json_t *piles = json_object_get(rec, "piles");
    size_t colours = json_array_size(piles);
    const char *tiles[5][28];
    bool ok = colours >= 1 && colours <= 5;
    for (size_t c = 0; ok && c < colours; c++) {
        const json_t *pile = json_array_get(piles, c);
        ok = json_array_size(pile) == 28;
        for (size_t t = 0; ok && t < 28; t++)
            ok = (tiles[c][t] = json_string_value(json_array_get(pile, t))) != NULL;
    }
    ut_ref_t *g = ok ? ut_ref_new(ref_int(rec, "players"), ref_int(rec, "first_player"),
                                  (const char *const(*)[28])tiles)
                     : NULL;
    if (!g)
        snprintf(err, errlen, "bench: the Uptown reference refused the game record");
    return g;
}

bench_ref_t *bench_ref_new(const game_api_t *api, const void *initial,
                           const game_options_t *opt, const move_t *moves, int count,
                           char *err, size_t errlen)
{
    json_t *rec = api->record_new(initial, opt, moves, count, NULL, NULL);
    if (!rec) {
        snprintf(err, errlen, "bench: %s could not write the record of its own game", api->name);
        return NULL;
    }
    bench_ref_t *r = calloc(1, sizeof *r);
    if (r) {
        if (!strcmp(api->name, "towerup"))
            r->tu = ref_towerup(rec, err, errlen);
        else if (!strcmp(api->name, "uptown"))
            r->ut = ref_uptown(rec, err, errlen);
        else
            snprintf(err, errlen, "bench: no reference rules for %s", api->name);
        if (!r->tu && !r->ut) {
            free(r);
            r = NULL;
        }
    } else {
        snprintf(err, errlen, "out of memory");
    }
    json_decref(rec);
    return r;
}

void bench_ref_free(bench_ref_t *r)
{
    if (!r)
        return;
    if (r->tu)
        tu_ref_free(r->tu);
    if (r->ut)
        ut_ref_free(r->ut);
    free(r);
}

int bench_ref_moves(const bench_ref_t *r, char (*out)[32], int max)
{
    return r->tu ? tu_ref_moves(r->tu, out, max) : ut_ref_moves(r->ut, out, max);
}

int bench_ref_play(bench_ref_t *r, const char *text)
{
    return r->tu ? tu_ref_play(r->tu, text) : ut_ref_play(r->ut, text);
}
