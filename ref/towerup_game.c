/* Tower Up's slow reference rules (ref/towerup_ref.h) behind game_reference_t, made from a
   game record (FORMATS.md §4): built-in boards only. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/towerup/boards.h"
#include "ref/reference.h"
#include "ref/towerup_ref.h"

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

static void *ref_new(const json_t *rec, char *err, size_t errlen)
{
    const char *board = json_string_value(json_object_get(rec, "board"));
    const char *text = NULL;
    if (board && !strcmp(board, "standard"))
        text = towerup_board_text_standard;
    else if (board && !strcmp(board, "duo"))
        text = towerup_board_text_duo;
    if (!text) {
        snprintf(err, errlen, "the Tower Up reference needs a built-in board, not '%s'",
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
        snprintf(err, errlen, "the Tower Up reference refused the game record");
    return g;
}

static void ref_free(void *ref) { tu_ref_free(ref); }

static int ref_moves(const void *ref, char (*out)[GAME_MOVE_TEXT_MAX], int max)
{
    return tu_ref_moves(ref, out, max);
}

static int ref_play(void *ref, const char *text) { return tu_ref_play(ref, text); }

const game_reference_t towerup_reference = {
    .game = "towerup",
    .new_game = ref_new,
    .free = ref_free,
    .moves = ref_moves,
    .play = ref_play,
};
