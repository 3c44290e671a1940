/* Uptown's slow reference rules (ref/uptown_ref.h) behind game_reference_t, made from a
   game record (FORMATS.md §4): the players' tile piles in draw order. */
#include <jansson.h>
#include <stdio.h>

#include "ref/reference.h"
#include "ref/uptown_ref.h"

static void *ref_new(const json_t *rec, char *err, size_t errlen)
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
    int players = (int)json_integer_value(json_object_get(rec, "players"));
    int first = (int)json_integer_value(json_object_get(rec, "first_player"));
    ut_ref_t *g = ok ? ut_ref_new(players, first, (const char *const(*)[28])tiles) : NULL;
    if (!g)
        snprintf(err, errlen, "the Uptown reference refused the game record");
    return g;
}

static void ref_free(void *ref) { ut_ref_free(ref); }

static int ref_moves(const void *ref, char (*out)[GAME_MOVE_TEXT_MAX], int max)
{
    return ut_ref_moves(ref, out, max);
}

static int ref_play(void *ref, const char *text) { return ut_ref_play(ref, text); }

const game_reference_t uptown_reference = {
    .game = "uptown",
    .new_game = ref_new,
    .free = ref_free,
    .moves = ref_moves,
    .play = ref_play,
};
