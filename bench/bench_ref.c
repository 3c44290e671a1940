/* Reference games for the bench, made from game records (FORMATS.md §4) through the game's
   reference rules (ref/reference.h). */
#include "bench/bench_ref.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/record.h"
#include "ref/reference.h"

struct bench_ref {
    const game_reference_t *rules; /* the game's reference entry */
    void *game;                    /* the reference game */
};

bench_ref_t *bench_ref_new(const game_api_t *api, const void *initial, const game_options_t *opt,
                           const move_t *moves, int count, char *err, size_t errlen)
{
    const game_reference_t *rules = game_reference_for(api);
    if (!rules) {
        snprintf(err, errlen, "bench: no reference rules for %s", api->name);
        return NULL;
    }
    json_t *rec = record_new(api, initial, opt, moves, count, NULL, NULL);
    if (!rec) {
        snprintf(err, errlen, "bench: %s could not write the record of its own game", api->name);
        return NULL;
    }
    bench_ref_t *r = calloc(1, sizeof *r);
    if (r) {
        char why[GAME_ERR_MAX];
        r->rules = rules;
        r->game = r->rules->new_game(rec, why, sizeof why);
        if (!r->game) {
            snprintf(err, errlen, "bench: %s", why);
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
    r->rules->free(r->game);
    free(r);
}

int bench_ref_moves(const bench_ref_t *r, char (*out)[GAME_MOVE_TEXT_MAX], int max)
{
    return r->rules->moves(r->game, out, max);
}

int bench_ref_play(bench_ref_t *r, const char *text) { return r->rules->play(r->game, text); }

bool bench_has_reference(const game_api_t *api) { return game_reference_for(api) != NULL; }
