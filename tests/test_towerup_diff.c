/*
 * The fast Tower Up engine against the slow reference (ref/towerup_ref.c), written
 * independently from RULES.md: in every position of many random games both must list
 * exactly the same moves (as canonical text), and the final results must agree.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/record.h"
#include "ref/towerup_ref.h"
#include "tests/test.h"

static const char *const *json_strings(const json_t *arr, int *count)
{
    int n = (int)json_array_size(arr);
    const char **out = calloc((size_t)n + 1, sizeof *out);
    for (int i = 0; i < n; i++)
        out[i] = json_string_value(json_array_get(arr, (size_t)i));
    *count = n;
    return out;
}

/* Builds the reference game from a record, as another program would. */
static tu_ref_t *ref_from_record(const json_t *rec)
{
    const char *board = json_string_value(json_object_get(rec, "board"));
    char path[512];
    snprintf(path, sizeof path, "%s/core/towerup/boards/%s.board", SKYLINE_SOURCE_DIR, board);
    char *board_text = test_read_file(path);
    int n_obj, n_deck, n_start;
    const char *const *obj = json_strings(json_object_get(rec, "objectives"), &n_obj);
    const char *const *deck = json_strings(json_object_get(rec, "deck"), &n_deck);
    const char *const *start = json_strings(json_object_get(rec, "start_floors"), &n_start);
    json_t *resh = json_object_get(rec, "reshuffles");
    int n_resh = (int)json_array_size(resh);
    const char *const **lists = calloc((size_t)n_resh + 1, sizeof *lists);
    int *lens = calloc((size_t)n_resh + 1, sizeof *lens);
    for (int i = 0; i < n_resh; i++)
        lists[i] = json_strings(json_array_get(resh, (size_t)i), &lens[i]);
    CHECK_EQ_INT(n_obj, 3);
    CHECK_EQ_INT(n_deck, 44);
    tu_ref_t *g = tu_ref_new(board_text, (int)json_integer_value(json_object_get(rec, "players")),
                             (int)json_integer_value(json_object_get(rec, "first_player")), obj,
                             deck, n_start, start, n_resh, lists, lens);
    for (int i = 0; i < n_resh; i++)
        free((void *)lists[i]);
    free(lists);
    free(lens);
    free((void *)obj);
    free((void *)deck);
    free((void *)start);
    free(board_text);
    return g;
}

/* The reference behind the generic walk of tests/test.c. */
static int tu_ops_moves(const void *ref, char (*out)[32], int max)
{
    return tu_ref_moves(ref, out, max);
}
static int tu_ops_play(void *ref, const char *move) { return tu_ref_play(ref, move); }
static const test_ref_ops_t tu_ops = {tu_ops_moves, tu_ops_play};

/* One random game: returns the number of positions compared. */
static int diff_game(const game_options_t *opt, uint64_t move_seed)
{
    const game_api_t *api = game_find("towerup");
    char err[GAME_ERR_MAX];
    void *initial = malloc(api->state_size), *state = malloc(api->state_size);
    if (api->new_game(initial, opt, err, sizeof err)) {
        CHECK_MSG(0, "new_game: %s", err);
        return 0;
    }
    /* Play the game with the fast engine, then compare position by position. */
    static move_t history[4096];
    int n = 0;
    pcg32_t rng;
    pcg32_seed(&rng, move_seed, 99);
    memcpy(state, initial, api->state_size);
    move_t moves[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    int count;
    /* Every other game prefers takes, so that shortages, reshuffles, full supplies and long
       games are reached. */
    bool take_heavy = move_seed % 2 == 0;
    while ((count = api->gen_moves(state, moves)) > 0 && n < 4096) {
        move_t m = moves[pcg32_bounded(&rng, (uint32_t)count)];
        for (int tries = 0; take_heavy && tries < 8; tries++) {
            char text[GAME_MOVE_TEXT_MAX];
            api->move_to_text(state, m, text);
            if (text[0] != 'B' || pcg32_bounded(&rng, 10) == 0)
                break;
            m = moves[pcg32_bounded(&rng, (uint32_t)count)];
        }
        history[n] = m;
        api->make(state, history[n++], undo);
    }
    json_t *rec = record_new(api, initial, opt, history, n, NULL, NULL);
    CHECK(rec != NULL);
    if (!rec)
        return 0;
    tu_ref_t *ref = ref_from_record(rec);
    CHECK(ref != NULL);
    if (!ref)
        return 0;
    /* With a random set-up the engine placed the starting floors itself: the record lists
       them first, and the reference plays them before the comparison starts. */
    json_t *rec_moves = json_object_get(rec, "moves");
    int setup = (int)json_array_size(rec_moves) - n;
    const char *setup_option = game_options_get(opt, "setup");
    CHECK(setup == 0 || (setup_option && !strcmp(setup_option, "random") && setup >= 3));
    for (int k = 0; k < setup; k++) {
        const char *text = json_string_value(json_array_get(rec_moves, (size_t)k));
        CHECK_MSG(text && text[0] == 'P' && tu_ref_play(ref, text) == 0,
                  "reference refuses set-up move %s", text ? text : "?");
    }
    int positions =
        test_walk_against(api, initial, history, n, &tu_ops, ref, opt->seed, opt->players);
    if (!test_failures) {
        int scores[4], ranks[4], supply[4], cones[4], markers[4][4], turns;
        tu_ref_result(ref, scores, ranks, supply, cones, markers, &turns);
        json_t *res = json_object_get(rec, "result");
        CHECK(tu_ref_over(ref));
        for (int p = 0; p < opt->players; p++) {
            CHECK_EQ_INT(scores[p], json_integer_value(
                                        json_array_get(json_object_get(res, "scores"), (size_t)p)));
            CHECK_EQ_INT(ranks[p], json_integer_value(
                                       json_array_get(json_object_get(res, "ranks"), (size_t)p)));
            CHECK_EQ_INT(supply[p], json_integer_value(
                                        json_array_get(json_object_get(res, "supply"), (size_t)p)));
            CHECK_EQ_INT(cones[p], json_integer_value(
                                       json_array_get(json_object_get(res, "cones"), (size_t)p)));
            for (int c = 0; c < 4; c++)
                CHECK_EQ_INT(
                    markers[p][c],
                    json_integer_value(json_array_get(
                        json_array_get(json_object_get(res, "markers"), (size_t)p), (size_t)c)));
        }
        CHECK_EQ_INT(turns, json_integer_value(json_object_get(res, "turns")));
    }
    tu_ref_free(ref);
    json_decref(rec);
    free(initial);
    free(state);
    return positions;
}

int main(void)
{
    long positions = 0;
    int games = 0;
    for (int players = 2; players <= 4; players++)
        for (uint64_t seed = 1; seed <= 40 && !test_failures; seed++) {
            game_options_t opt;
            game_options_default(&opt);
            opt.players = players;
            opt.seed = seed * 1000 + (uint64_t)players;
            /* Variants in turn: more start floors, random set-up, named or random objectives
               (every objective appears). */
            if (seed % 4 == 1)
                test_option(&opt, "start_floors=%d", players == 4 ? 5 : 7);
            if (seed % 4 == 2)
                test_option(&opt, "setup=random");
            static const char *const triples[] = {"lake,connected,brown", "grey,borders,doubles",
                                                  "heights,areas,lake", "random"};
            if (seed % 4 == 3)
                test_option(&opt, "objectives=%s", triples[(seed / 4) % 4]);
            positions += diff_game(&opt, seed);
            games++;
        }
    printf("%d games, %ld positions compared\n", games, positions);
    return test_finish("test_towerup_diff");
}
