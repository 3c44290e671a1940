/*
 * Uptown game records: written records replay; illegal moves, wrong legal counts, wrong
 * results and malformed records are refused with a clear one-line error.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "core/uptown/uptown.h"
#include "tests/test.h"

/* A finished random game (fixed seed): initial state, moves and legal counts. */
typedef struct game {
    game_options_t opt;     /* options it was made from */
    uptown_state_t initial; /* position before the first move */
    move_t moves[128];      /* moves played */
    int counts[128];        /* legal moves before each move */
    int n;                  /* number of moves */
} game_t;

static void play_random_game(game_t *g, int players, uint64_t seed)
{
    char err[GAME_ERR_MAX];
    game_options_default(&g->opt);
    g->opt.players = players;
    g->opt.seed = seed;
    CHECK(uptown_new_game(&g->initial, &g->opt, err, sizeof err) == 0);
    uptown_state_t s = g->initial;
    pcg32_t rng;
    pcg32_seed(&rng, seed, 3);
    move_t moves[GAME_MAX_MOVES];
    g->n = 0;
    for (int n; (n = uptown_gen_moves(&s, moves)) > 0;) {
        g->counts[g->n] = n;
        g->moves[g->n++] = moves[pcg32_bounded(&rng, (uint32_t)n)];
        uptown_play(&s, g->moves[g->n - 1]);
    }
}

/* Replays rec and checks that it fails with an error that starts with want. */
static void expect_error(const json_t *rec, const char *want)
{
    char err[GAME_ERR_MAX] = "";
    int rc = record_replay(&uptown_api, rec, err, sizeof err);
    CHECK_MSG(rc != 0 && strncmp(err, want, strlen(want)) == 0, "wanted '%s', got '%s'", want,
              rc ? err : "ok");
    CHECK(strchr(err, '\n') == NULL);
}

static json_t *fresh_record(const game_t *g, bool counts)
{
    const char *seats[GAME_MAX_PLAYERS] = {"random", "greedy", "mcts:iters=10", "random", "random"};
    return record_new(&uptown_api, &g->initial, &g->opt, g->moves, g->n, counts ? g->counts : NULL,
                      seats);
}

static void test_written_record(void)
{
    game_t g;
    play_random_game(&g, 3, 7);
    json_t *rec = fresh_record(&g, true);
    char err[GAME_ERR_MAX];
    CHECK(rec && record_replay(&uptown_api, rec, err, sizeof err) == 0);
    char *text = json_dumps(rec, JSON_COMPACT);
    CHECK(strncmp(text,
                  "{\"game\":\"uptown\",\"format\":1,\"players\":3,\"seats\":[\"random\","
                  "\"greedy\",\"mcts:iters=10\"],\"seed\":7,\"first_player\":",
                  strlen("{\"game\":\"uptown\",\"format\":1,\"players\":3,\"seats\":[\"random\","
                         "\"greedy\",\"mcts:iters=10\"],\"seed\":7,\"first_player\":")) == 0);
    CHECK(strstr(text, "\"result\":{\"groups\":[") &&
          strstr(text, "],\"turns\":72},\"engine\":\"skyline " SKYLINE_VERSION "\"}"));
    free(text);
    /* A record without the engine (an older engine's) replays too. */
    json_object_del(rec, "engine");
    CHECK(record_replay(&uptown_api, rec, err, sizeof err) == 0);
    /* The first 5 tiles of each pile are the starting rack. */
    const json_t *pile0 = json_array_get(json_object_get(rec, "piles"), 0);
    uint32_t rack = 0;
    for (int i = 0; i < 5; i++)
        rack |= 1u << uptown_tile_parse(json_string_value(json_array_get(pile0, (size_t)i)));
    CHECK(rack == g.initial.rack[0]);
    /* Replay uses the piles, never the seed. */
    json_object_set_new(rec, "seed", json_integer(123456));
    CHECK(record_replay(&uptown_api, rec, err, sizeof err) == 0);
    json_decref(rec);
    /* Without seats: empty specs; an illegal move: no record. */
    rec = record_new(&uptown_api, &g.initial, &g.opt, g.moves, g.n, NULL, NULL);
    CHECK(rec && json_array_size(json_object_get(rec, "seats")) == 3 &&
          json_object_get(rec, "legal_counts") == NULL);
    json_decref(rec);
    move_t bad[2] = {g.moves[0], g.moves[0]};
    CHECK(record_new(&uptown_api, &g.initial, &g.opt, bad, 2, NULL, NULL) == NULL);
}

/* Plays g until a capture that would split a group can be written; returns its move index. */
static int find_split_capture(const game_t *g, char *text)
{
    uptown_state_t s = g->initial;
    for (int i = 0; i < g->n; i++) {
        unsigned own = uptown_player_colours(&s, s.to_move);
        for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++) {
            int c = uptown_cell_colour(&s, cell);
            if (c < 0 || (own >> c & 1) || uptown_can_remove(&s, cell))
                continue;
            int colour = __builtin_ctz(own);
            if (!(s.rack[colour] >> UPTOWN_TILE_DOLLAR & 1) || (s.retired >> colour & 1))
                continue;
            char name[3];
            uptown_cell_name(cell, name);
            snprintf(text, GAME_MOVE_TEXT_MAX, "%s$@%sx", s.players == 2 ? "0:" : "", name);
            return i;
        }
        uptown_play(&s, g->moves[i]);
    }
    return -1;
}

static void test_illegal_moves(void)
{
    int found = 0;
    for (uint64_t seed = 1; seed < 40 && !found; seed++) {
        game_t g;
        play_random_game(&g, 3 + (int)(seed % 3), seed);
        char text[GAME_MOVE_TEXT_MAX];
        int at = find_split_capture(&g, text);
        if (at < 0)
            continue;
        found = 1;
        json_t *rec = fresh_record(&g, false);
        json_array_set_new(json_object_get(rec, "moves"), (size_t)at, json_string(text));
        char want[128];
        snprintf(want, sizeof want, "move %d: move '%s': illegal: capture would split a group", at,
                 text);
        expect_error(rec, want);
        char err[GAME_ERR_MAX];
        record_replay(&uptown_api, rec, err, sizeof err);
        CHECK_MSG(!strcmp(err, want), "got '%s'", err);
        json_decref(rec);
    }
    CHECK_MSG(found, "no split capture found in the test games");

    game_t g;
    play_random_game(&g, 2, 11);
    json_t *rec = fresh_record(&g, true);
    json_t *moves = json_object_get(rec, "moves");
    json_t *counts = json_object_get(rec, "legal_counts");
    char err[GAME_ERR_MAX];
    CHECK(record_replay(&uptown_api, rec, err, sizeof err) == 0);
    /* A 2-player move without its colour prefix. */
    const char *m5 = json_string_value(json_array_get(moves, 5));
    char copy[GAME_MOVE_TEXT_MAX];
    snprintf(copy, sizeof copy, "%s", m5 + 2);
    json_array_set_new(moves, 5, json_string(copy));
    char want[128];
    snprintf(want, sizeof want, "move 5: move '%s': a 2-player move starts with", copy);
    expect_error(rec, want);
    json_decref(rec);
    /* A wrong legal count. */
    rec = fresh_record(&g, true);
    counts = json_object_get(rec, "legal_counts");
    json_array_set_new(counts, 9, json_integer(g.counts[9] + 1));
    expect_error(rec, "move 9 (");
    json_decref(rec);
    /* A wrong result, a missing end. */
    rec = fresh_record(&g, false);
    json_t *groups = json_object_get(json_object_get(rec, "result"), "groups");
    json_array_set_new(groups, 0, json_integer(99));
    expect_error(rec, "result: groups are [99,");
    json_decref(rec);
    rec = fresh_record(&g, false);
    json_array_remove(json_object_get(rec, "moves"), (size_t)g.n - 1);
    expect_error(rec, "record: the moves end with move 94, before the game is over");
    json_decref(rec);
    rec = fresh_record(&g, false);
    json_object_set_new(json_object_get(rec, "result"), "turns", json_integer(90));
    expect_error(rec, "result: turns is 90");
    json_decref(rec);
    /* Moves after the end name the move that ended the game. */
    rec = fresh_record(&g, false);
    json_array_append_new(json_object_get(rec, "moves"), json_string("-1"));
    expect_error(rec, "move 96 (-1): the game ended with move 95, the record goes on");
    json_decref(rec);
}

/* Every header field of FORMATS.md §4 present, of its type and in its range. */
static void test_header_fields(void)
{
    game_t g;
    play_random_game(&g, 3, 5);
    static const char *const drop[] = {"game",         "format", "players", "seats", "seed",
                                       "first_player", "piles",  "moves",   "result"};
    for (int i = 0; i < 9; i++) {
        json_t *rec = fresh_record(&g, false);
        json_object_del(rec, drop[i]);
        char want[64];
        snprintf(want, sizeof want, "record: %s", drop[i]);
        expect_error(rec, want);
        json_decref(rec);
    }
    json_t *rec = fresh_record(&g, false);
    json_array_remove(json_object_get(rec, "seats"), 0);
    expect_error(rec, "record: seats must be a list of 3 bot specs");
    json_decref(rec);
    rec = fresh_record(&g, false);
    json_object_set_new(rec, "seed", json_integer(-1));
    expect_error(rec, "record: seed must be a non-negative integer");
    json_decref(rec);
    rec = fresh_record(&g, false);
    json_object_set_new(rec, "format", json_integer(2));
    expect_error(rec, "record: format must be 1");
    json_decref(rec);
    rec = fresh_record(&g, false);
    json_array_set_new(json_object_get(rec, "moves"), 2, json_string("\x10\x01x"));
    expect_error(rec, "move 2: move '\\x10\\x01x': expected");
    json_decref(rec);
}

static void test_malformed(void)
{
    game_t g;
    play_random_game(&g, 4, 5);
    static const char *const keys[] = {"game", "players", "first_player", "piles", "moves"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        json_t *rec = fresh_record(&g, false);
        json_object_del(rec, keys[k]);
        char want[64];
        snprintf(want, sizeof want, "record: %s", keys[k]);
        expect_error(rec, want);
        json_decref(rec);
    }
    json_t *rec = fresh_record(&g, false);
    json_t *pile = json_array_get(json_object_get(rec, "piles"), 2);
    json_array_set_new(pile, 3, json_string("s0"));
    expect_error(rec, "record: pile 2, entry 3 is not a tile name");
    json_array_set_new(pile, 3, json_string(json_string_value(json_array_get(pile, 4))));
    expect_error(rec, "record: pile 2 holds tile");
    json_array_remove(pile, 3);
    expect_error(rec, "record: pile 2 must be a list of the 28 tiles");
    json_decref(rec);
    rec = fresh_record(&g, false);
    json_array_remove(json_object_get(rec, "piles"), 3);
    expect_error(rec, "record: piles must be a list of 4 lists");
    json_object_set_new(rec, "players", json_integer(6));
    expect_error(rec, "record: players must be");
    json_object_set_new(rec, "players", json_string("4"));
    expect_error(rec, "record: players must be");
    json_decref(rec);
    rec = fresh_record(&g, false);
    json_object_set_new(rec, "game", json_string("towerup"));
    expect_error(rec, "record: game must be");
    json_object_set_new(rec, "game", json_string("uptown"));
    json_object_set_new(rec, "first_player", json_integer(4));
    expect_error(rec, "record: first_player must be");
    json_object_set_new(rec, "first_player", json_integer(g.initial.first_player));
    json_array_set_new(json_object_get(rec, "moves"), 0, json_integer(3));
    expect_error(rec, "move 0: not a string");
    json_decref(rec);
    json_t *not_object = json_array();
    expect_error(not_object, "record: not a JSON object");
    json_decref(not_object);
}

int main(void)
{
    test_written_record();
    test_illegal_moves();
    test_header_fields();
    test_malformed();
    return test_finish("test_uptown_record");
}
