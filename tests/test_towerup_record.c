/*
 * Tower Up game records (FORMATS.md §4): keys in the documented order, replay of games
 * with set-up moves and reshuffles, and a clear one-line error for each kind of bad record.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "core/towerup/towerup.h"
#include "tests/test.h"

#define MAX_GAME 1200

/* A finished random game's record; takes_first: only takes for that many turns. */
static json_t *random_record(game_options_t *o, int takes_first, bool counts)
{
    static move_t moves[GAME_MAX_MOVES], played[MAX_GAME];
    static int legal[MAX_GAME];
    towerup_state_t s, initial;
    char err[GAME_ERR_MAX];
    CHECK_MSG(towerup_new_game(&s, o, err, sizeof err) == 0, "%s", err);
    initial = s;
    pcg32_t rng;
    pcg32_seed(&rng, o->seed, 3);
    towerup_undo_t u;
    int k = 0;
    while (!towerup_is_over(&s) && k < MAX_GAME) {
        int n = towerup_gen_moves(&s, moves), pick;
        do
            pick = (int)pcg32_bounded(&rng, (uint32_t)n);
        while (s.turns < takes_first && s.phase == TOWERUP_PHASE_PLAY &&
               towerup_move_kind(moves[pick]) != TOWERUP_MOVE_TAKE);
        legal[k] = n;
        played[k++] = moves[pick];
        towerup_make(&s, moves[pick], &u);
    }
    static const char *const seats[] = {"random", "greedy", "mcts:iters=10", "random"};
    return record_new(&towerup_api, &initial, o, played, k, counts ? legal : NULL, seats);
}

static void check_keys(const json_t *obj, const char *const *keys, int n)
{
    void *it = json_object_iter((json_t *)obj);
    for (int i = 0; i < n; i++, it = json_object_iter_next((json_t *)obj, it)) {
        CHECK_MSG(it != NULL, "key %s missing", keys[i]);
        if (!it)
            return;
        CHECK_MSG(!strcmp(json_object_iter_key(it), keys[i]), "key %d is %s, wanted %s", i,
                  json_object_iter_key(it), keys[i]);
    }
    CHECK(it == NULL);
}

/* Replays rec (through its text) and returns the error ("" if ok). */
static const char *replay(const json_t *rec)
{
    static char err[GAME_ERR_MAX];
    char *text = json_dumps(rec, JSON_COMPACT);
    json_t *back = json_loads(text, 0, NULL);
    free(text);
    err[0] = 0;
    if (record_replay(&towerup_api, back, err, sizeof err) == 0)
        err[0] = 0;
    else if (!err[0])
        strcpy(err, "(no message)");
    json_decref(back);
    return err;
}

static void expect_fail(json_t *rec, const char *what)
{
    const char *err = replay(rec);
    CHECK_MSG(err[0] && strstr(err, what), "wanted '%s', got '%s'", what, err);
    CHECK_MSG(!strchr(err, '\n'), "multi-line error: %s", err);
    json_decref(rec);
}

static void check_format(void)
{
    game_options_t o;
    game_options_default(&o);
    o.players = 3;
    o.seed = 12345;
    json_t *rec = random_record(&o, 0, true);
    CHECK(rec != NULL);
    static const char *const keys[] = {"game",         "format", "board",        "players",
                                       "seats",        "seed",   "first_player", "objectives",
                                       "start_floors", "deck",   "reshuffles",   "moves",
                                       "legal_counts", "result", "engine"};
    check_keys(rec, keys, 15);
    static const char *const rkeys[] = {"scores", "ranks",  "markers", "cones",
                                        "chips",  "supply", "turns"};
    check_keys(json_object_get(rec, "result"), rkeys, 7);
    CHECK(!strcmp(json_string_value(json_object_get(rec, "board")), "standard"));
    CHECK_EQ_INT(json_array_size(json_object_get(rec, "deck")), 44);
    CHECK_EQ_INT(json_array_size(json_object_get(rec, "start_floors")), 3);
    CHECK(!strcmp(json_string_value(json_array_get(json_object_get(rec, "seats"), 2)),
                  "mcts:iters=10"));
    const char *m0 = json_string_value(json_array_get(json_object_get(rec, "moves"), 0));
    CHECK(m0 && m0[0] == 'P');
    CHECK(!strcmp(replay(rec), ""));
    /* The engine that wrote it, from CMake's project version; a record without it (an older
       engine's) replays too. */
    CHECK(!strcmp(json_string_value(json_object_get(rec, "engine")), "skyline " SKYLINE_VERSION));
    json_object_del(rec, "engine");
    CHECK(!strcmp(replay(rec), ""));
    json_decref(rec);

    /* Without legal counts: no key. Random set-up: the P moves are listed first. */
    test_option(&o, "setup=random");
    test_option(&o, "start_floors=5");
    test_option(&o, "objectives=random");
    rec = random_record(&o, 0, false);
    static const char *const keys2[] = {
        "game",       "format",       "board", "players",    "seats", "seed",   "first_player",
        "objectives", "start_floors", "deck",  "reshuffles", "moves", "result", "engine"};
    check_keys(rec, keys2, 14);
    const json_t *moves = json_object_get(rec, "moves");
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(json_string_value(json_array_get(moves, (size_t)i))[0] == 'P', i < 5);
    CHECK(!strcmp(replay(rec), ""));
    json_decref(rec);

    /* A board given as a file path is recorded as that path. */
    char path[512];
    snprintf(path, sizeof path, "%s/core/towerup/boards/duo.board", SKYLINE_SOURCE_DIR);
    game_options_default(&o);
    o.players = 2;
    o.seed = 3;
    test_option(&o, "board=%s", path);
    rec = random_record(&o, 0, true);
    CHECK(!strcmp(json_string_value(json_object_get(rec, "board")), path));
    CHECK(!strcmp(replay(rec), ""));
    json_decref(rec);
}

static void check_reshuffles(void)
{
    game_options_t o;
    game_options_default(&o);
    o.players = 2;
    o.seed = 77;
    json_t *rec = random_record(&o, 60, true);
    const json_t *resh = json_object_get(rec, "reshuffles");
    CHECK(json_array_size(resh) >= 1);
    CHECK(!strcmp(replay(rec), ""));
    /* The first reshuffle is 42 cards (41 discarded, the one just taken). */
    CHECK_EQ_INT(json_array_size(json_array_get(resh, 0)), 42);

    json_t *bad = json_deep_copy(rec);
    json_array_clear(json_object_get(bad, "reshuffles"));
    expect_fail(bad, "the draw pile must be refilled but the record has no reshuffle left");

    bad = json_deep_copy(rec);
    json_t *first = json_array_get(json_object_get(bad, "reshuffles"), 0);
    json_array_set_new(first, 0, json_string("KKBB"));
    json_array_set_new(first, 1, json_string("KKBB"));
    expect_fail(bad, "too many 'KKBB' cards");

    bad = json_deep_copy(rec);
    json_array_append_new(json_object_get(bad, "reshuffles"), json_array());
    expect_fail(bad, "reshuffles but the game made");
    json_decref(rec);
}

static void check_malformed(void)
{
    game_options_t o;
    game_options_default(&o);
    o.players = 3;
    o.seed = 4;
    json_t *rec = random_record(&o, 0, true), *bad;
    CHECK(!strcmp(replay(rec), ""));

    static const char *const required[] = {
        "game",       "format",       "board", "players", "seats",      "seed",  "first_player",
        "objectives", "start_floors", "deck",  "moves",   "reshuffles", "result"};
    for (int i = 0; i < 13; i++) {
        bad = json_deep_copy(rec);
        json_object_del(bad, required[i]);
        char want[64];
        snprintf(want, sizeof want, "record: %s must be", required[i]);
        expect_fail(bad, want);
    }
    bad = json_deep_copy(rec);
    json_object_set_new(bad, "players", json_string("3"));
    expect_fail(bad, "record: players must be an integer from 2 to 4");
    bad = json_deep_copy(rec);
    json_object_set_new(bad, "game", json_string("uptown"));
    expect_fail(bad, "record: game must be \"towerup\"");
    bad = json_deep_copy(rec);
    json_array_remove(json_object_get(bad, "deck"), 7);
    expect_fail(bad, "record: deck has 43 cards, not 44");
    bad = json_deep_copy(rec);
    json_array_set_new(json_object_get(bad, "deck"), 5, json_string("KXW"));
    expect_fail(bad, "'KXW' is not a Tower Up card code");
    bad = json_deep_copy(rec);
    for (int i = 3; i < 8; i++)
        json_array_set_new(json_object_get(bad, "deck"), (size_t)i, json_string("**"));
    expect_fail(bad, "too many '**' cards");
    bad = json_deep_copy(rec);
    json_array_set_new(json_object_get(bad, "objectives"), 1, json_string("towers"));
    expect_fail(bad, "record: objectives entry 1 'towers' is not one of colors,park");
    /* Every header field in its range (FORMATS.md §4). */
    bad = json_deep_copy(rec);
    json_array_remove(json_object_get(bad, "seats"), 2);
    expect_fail(bad, "record: seats must be a list of 3 bot specs");
    bad = json_deep_copy(rec);
    json_array_set_new(json_object_get(bad, "seats"), 1, json_integer(1));
    expect_fail(bad, "record: seats entry 1 is not a string");
    bad = json_deep_copy(rec);
    json_object_set_new(bad, "seed", json_integer(-1));
    expect_fail(bad, "record: seed must be a non-negative integer");
    bad = json_deep_copy(rec);
    json_object_set_new(bad, "players", json_integer(5));
    expect_fail(bad, "record: players must be an integer from 2 to 4");
    bad = json_deep_copy(rec);
    json_object_set_new(bad, "first_player", json_integer(3));
    expect_fail(bad, "record: first_player must be an integer from 0 to 2");
    bad = json_deep_copy(rec);
    json_object_set_new(bad, "format", json_integer(2));
    expect_fail(bad, "record: format must be 1");
    bad = json_deep_copy(rec);
    json_object_del(json_object_get(bad, "result"), "chips");
    expect_fail(bad, "record: result has no \"chips\"");
    bad = json_deep_copy(rec);
    json_array_set_new(json_object_get(bad, "moves"), 3, json_string("\x10\x01PP"));
    expect_fail(bad, "move 3: move '\\x10\\x01PP': not a canonical");
    bad = json_deep_copy(rec);
    json_array_set_new(json_object_get(bad, "start_floors"), 0, json_string("Q"));
    expect_fail(bad, "starting floor 0");
    bad = json_deep_copy(rec);
    json_object_set_new(bad, "board", json_string("/no/such.board"));
    expect_fail(bad, "/no/such.board");

    /* Moves: illegal, non-canonical, after the end; legal counts; the result. */
    bad = json_deep_copy(rec);
    json_array_set_new(json_object_get(bad, "moves"), 5, json_string("B63K^63"));
    expect_fail(bad, "move 5: move 'B63K^63': illegal: there is no site 63");
    bad = json_deep_copy(rec);
    json_array_set_new(json_object_get(bad, "moves"), 4, json_string("t1"));
    expect_fail(bad, "move 4: move 't1': not a canonical Tower Up move");
    bad = json_deep_copy(rec);
    json_array_append_new(json_object_get(bad, "moves"), json_string("T1"));
    json_array_append_new(json_object_get(bad, "legal_counts"), json_integer(0));
    size_t last = json_array_size(json_object_get(bad, "moves")) - 1;
    char want[64];
    snprintf(want, sizeof want, "move %zu (T1): the game ended with move %zu, the record goes on",
             last, last - 1);
    json_object_del(bad, "legal_counts");
    expect_fail(bad, want);
    bad = json_deep_copy(rec);
    json_array_set_new(json_object_get(bad, "legal_counts"), 6, json_integer(9999));
    expect_fail(bad, "move 6 (");
    bad = json_deep_copy(rec);
    json_array_remove(json_object_get(bad, "legal_counts"), 0);
    expect_fail(bad, "record: legal_counts has");
    bad = json_deep_copy(rec);
    json_t *scores = json_object_get(json_object_get(bad, "result"), "scores");
    json_array_set_new(scores, 0, json_integer(json_integer_value(json_array_get(scores, 0)) + 1));
    expect_fail(bad, "result: scores are [");
    bad = json_deep_copy(rec);
    json_object_set_new(json_object_get(bad, "result"), "turns", json_integer(1));
    expect_fail(bad, "result: turns is 1 in the record but");
    bad = json_deep_copy(rec);
    json_array_remove(json_object_get(bad, "moves"),
                      json_array_size(json_object_get(bad, "moves")) - 1);
    json_object_del(bad, "legal_counts");
    snprintf(want, sizeof want, "record: the moves end with move %zu, before the game is over",
             last - 2);
    expect_fail(bad, want);
    bad = json_deep_copy(rec);
    json_array_clear(json_object_get(bad, "moves"));
    json_object_del(bad, "legal_counts");
    expect_fail(bad, "record: no moves, but a game needs some");

    /* Unknown keys are ignored; legal_counts may be left out. */
    bad = json_deep_copy(rec);
    json_object_set_new(bad, "comment", json_string("x"));
    json_object_del(bad, "legal_counts");
    CHECK(!strcmp(replay(bad), ""));
    json_decref(bad);
    json_decref(rec);

    /* record_new refuses an illegal move. */
    towerup_state_t s;
    char err[GAME_ERR_MAX];
    CHECK(towerup_new_game(&s, &o, err, sizeof err) == 0);
    move_t m = towerup_move_build(3, 0, 3);
    CHECK(record_new(&towerup_api, &s, &o, &m, 1, NULL, NULL) == NULL);
}

int main(void)
{
    check_format();
    check_reshuffles();
    check_malformed();
    return test_finish("test_towerup_record");
}
