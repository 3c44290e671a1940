/*
 * The fast Uptown engine against the slow reference (ref/uptown_ref.c), written
 * independently from RULES.md: in every position of many random games both must list
 * exactly the same moves (as canonical text), and the final results must agree.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/record.h"
#include "ref/uptown_ref.h"
#include "tests/test.h"

/* Builds the reference game from a record, as another program would. */
static ut_ref_t *ref_from_record(const json_t *rec)
{
    json_t *piles = json_object_get(rec, "piles");
    int colours = (int)json_array_size(piles);
    const char *tiles[5][28];
    for (int c = 0; c < colours && c < 5; c++) {
        json_t *pile = json_array_get(piles, (size_t)c);
        CHECK_EQ_INT(json_array_size(pile), 28);
        for (int t = 0; t < 28; t++)
            tiles[c][t] = json_string_value(json_array_get(pile, (size_t)t));
    }
    return ut_ref_new((int)json_integer_value(json_object_get(rec, "players")),
                      (int)json_integer_value(json_object_get(rec, "first_player")),
                      (const char *const(*)[28])tiles);
}

/* The reference behind the generic walk of tests/test.c. */
static int ut_ops_moves(const void *ref, char (*out)[32], int max)
{
    return ut_ref_moves(ref, out, max);
}
static int ut_ops_play(void *ref, const char *move) { return ut_ref_play(ref, move); }
static const test_ref_ops_t ut_ops = {ut_ops_moves, ut_ops_play};

/* One random game: returns the number of positions compared. */
static int diff_game(const game_options_t *opt, uint64_t move_seed)
{
    const game_api_t *api = game_find("uptown");
    char err[GAME_ERR_MAX];
    void *initial = malloc(api->state_size), *state = malloc(api->state_size);
    if (api->new_game(initial, opt, err, sizeof err)) {
        CHECK_MSG(0, "new_game: %s", err);
        return 0;
    }
    static move_t history[1024];
    int n = 0;
    pcg32_t rng;
    pcg32_seed(&rng, move_seed, 77);
    memcpy(state, initial, api->state_size);
    move_t moves[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    int count;
    while ((count = api->gen_moves(state, moves)) > 0 && n < 1024) {
        history[n] = moves[pcg32_bounded(&rng, (uint32_t)count)];
        api->make(state, history[n++], undo);
    }
    json_t *rec = record_new(api, initial, opt, history, n, NULL, NULL);
    CHECK(rec != NULL);
    if (!rec)
        return 0;
    ut_ref_t *ref = ref_from_record(rec);
    CHECK(ref != NULL);
    if (!ref)
        return 0;
    int positions =
        test_walk_against(api, initial, history, n, &ut_ops, ref, opt->seed, opt->players);
    if (!test_failures) {
        int groups[5], captures[5], ranks[5], turns;
        ut_ref_result(ref, groups, captures, ranks, &turns);
        json_t *res = json_object_get(rec, "result");
        CHECK(ut_ref_over(ref));
        for (int p = 0; p < opt->players; p++) {
            CHECK_EQ_INT(groups[p], json_integer_value(
                                        json_array_get(json_object_get(res, "groups"), (size_t)p)));
            CHECK_EQ_INT(captures[p], json_integer_value(json_array_get(
                                          json_object_get(res, "captures"), (size_t)p)));
            CHECK_EQ_INT(ranks[p], json_integer_value(
                                       json_array_get(json_object_get(res, "ranks"), (size_t)p)));
        }
        CHECK_EQ_INT(turns, json_integer_value(json_object_get(res, "turns")));
    }
    ut_ref_free(ref);
    json_decref(rec);
    free(initial);
    free(state);
    return positions;
}

int main(void)
{
    long positions = 0;
    int games = 0;
    for (int players = 2; players <= 5; players++)
        for (uint64_t seed = 1; seed <= 60 && !test_failures; seed++) {
            game_options_t opt;
            game_options_default(&opt);
            opt.players = players;
            opt.seed = seed * 1000 + (uint64_t)players;
            positions += diff_game(&opt, seed);
            games++;
        }
    printf("%d games, %ld positions compared\n", games, positions);
    return test_finish("test_uptown_diff");
}
