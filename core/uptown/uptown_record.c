/* Uptown game records (FORMATS.md §4): written by re-playing the moves, replayed from the
   record alone (piles, players, first player; never re-drawn from the seed). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/forfeit.h"
#include "core/input.h"
#include "core/version.h"
#include "uptown.h"

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        snprintf(err, errlen, __VA_ARGS__);                                                        \
        return -1;                                                                                 \
    } while (0)

static json_t *int_array(const int *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

static bool move_is_legal(const uptown_state_t *s, move_t m)
{
    move_t moves[GAME_MAX_MOVES];
    int n = uptown_gen_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

json_t *uptown_record_new(const void *initial, const game_options_t *opt, const move_t *moves,
                          int move_count, const int *legal_counts, const char *const *seats)
{
    const uptown_state_t *init = initial;
    uptown_state_t s = *init;
    json_t *rec = json_object();
    json_object_set_new(rec, "game", json_string("uptown"));
    json_object_set_new(rec, "format", json_integer(1));
    json_object_set_new(rec, "players", json_integer(init->players));
    /* Without seats (tests, benchmarks) every seat is written as an empty spec. */
    json_t *seat_list = json_array();
    for (int p = 0; p < init->players; p++)
        json_array_append_new(seat_list, json_string(seats && seats[p] ? seats[p] : ""));
    json_object_set_new(rec, "seats", seat_list);
    json_object_set_new(rec, "seed", json_integer(opt ? (json_int_t)opt->seed : 0));
    json_object_set_new(rec, "first_player", json_integer(init->first_player));
    json_t *piles = json_array();
    for (int c = 0; c < init->colours; c++) {
        json_t *pile = json_array();
        for (int i = 0; i < UPTOWN_TILE_COUNT; i++)
            json_array_append_new(pile, json_string(uptown_tile_name(init->pile[c][i])));
        json_array_append_new(piles, pile);
    }
    json_object_set_new(rec, "piles", piles);
    json_t *texts = json_array();
    json_object_set_new(rec, "moves", texts);
    for (int i = 0; i < move_count; i++) {
        if (!move_is_legal(&s, moves[i])) {
            json_decref(rec);
            return NULL;
        }
        char buf[GAME_MOVE_TEXT_MAX];
        uptown_move_to_text(&s, moves[i], buf);
        json_array_append_new(texts, json_string(buf));
        uptown_play(&s, moves[i]);
    }
    if (legal_counts)
        json_object_set_new(rec, "legal_counts", int_array(legal_counts, move_count));
    int groups[GAME_MAX_PLAYERS], captures[GAME_MAX_PLAYERS], ranks[GAME_MAX_PLAYERS];
    uptown_ranks(&s, groups, captures, ranks);
    json_t *result = json_object();
    json_object_set_new(result, "groups", int_array(groups, s.players));
    json_object_set_new(result, "captures", int_array(captures, s.players));
    json_object_set_new(result, "ranks", int_array(ranks, s.players));
    json_object_set_new(result, "turns", json_integer(s.move_count));
    json_object_set_new(rec, "result", result);
    /* A key after FORMATS.md's (readers ignore unknown keys): the engine that wrote it. */
    json_object_set_new(rec, "engine", json_string(skyline_engine()));
    return rec;
}

/* Reads the piles of a record into piles[colours]. */
static int read_piles(const json_t *rec, int colours, uint8_t piles[][UPTOWN_TILE_COUNT], char *err,
                      size_t errlen)
{
    const json_t *a = json_object_get(rec, "piles");
    if (!json_is_array(a) || (int)json_array_size(a) != colours)
        FAIL("record: piles must be a list of %d lists of tiles", colours);
    for (int c = 0; c < colours; c++) {
        const json_t *pile = json_array_get(a, (size_t)c);
        if (!json_is_array(pile) || json_array_size(pile) != UPTOWN_TILE_COUNT)
            FAIL("record: pile %d must be a list of the 28 tiles", c);
        uint32_t seen = 0;
        for (int i = 0; i < UPTOWN_TILE_COUNT; i++) {
            const json_t *v = json_array_get(pile, (size_t)i);
            int t = json_is_string(v) ? uptown_tile_parse(json_string_value(v)) : -1;
            if (t < 0)
                FAIL("record: pile %d, entry %d is not a tile name", c, i);
            if (seen >> t & 1)
                FAIL("record: pile %d holds tile %s twice", c, uptown_tile_name(t));
            seen |= 1u << t;
            piles[c][i] = (uint8_t)t;
        }
    }
    return 0;
}

/* Reads an array of players integers at key of obj into v. */
static int read_int_array(const json_t *obj, const char *key, int n, int *v, char *err,
                          size_t errlen)
{
    const json_t *a = json_object_get(obj, key);
    if (!json_is_array(a) || (int)json_array_size(a) != n)
        FAIL("record: result.%s must be a list of %d integers", key, n);
    for (int i = 0; i < n; i++) {
        const json_t *x = json_array_get(a, (size_t)i);
        if (!json_is_integer(x))
            FAIL("record: result.%s must be a list of %d integers", key, n);
        v[i] = (int)json_integer_value(x);
    }
    return 0;
}

static void format_ints(const int *v, int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "", v[i]);
}

/* Compares the record's result with the position reached. */
static int compare_result(const json_t *result, const uptown_state_t *s, char *err, size_t errlen)
{
    if (!json_is_object(result))
        FAIL("record: result must be an object");
    int mine[3][GAME_MAX_PLAYERS], theirs[GAME_MAX_PLAYERS];
    uptown_ranks(s, mine[0], mine[1], mine[2]);
    static const char *const keys[3] = {"groups", "captures", "ranks"};
    for (int k = 0; k < 3; k++) {
        if (read_int_array(result, keys[k], s->players, theirs, err, errlen))
            return -1;
        if (memcmp(theirs, mine[k], sizeof(int) * s->players)) {
            char a[64], b[64];
            format_ints(theirs, s->players, a, sizeof a);
            format_ints(mine[k], s->players, b, sizeof b);
            FAIL("result: %s are [%s] in the record but [%s] by the rules", keys[k], a, b);
        }
    }
    const json_t *turns = json_object_get(result, "turns");
    if (!json_is_integer(turns))
        FAIL("record: result.turns must be an integer");
    if (json_integer_value(turns) != s->move_count)
        FAIL("result: turns is %d in the record but %d moves were played",
             (int)json_integer_value(turns), s->move_count);
    return 0;
}

/* The record's game after its first ply moves (-1: all) into s; the move count, or -1. */
static int replay_moves(const json_t *rec, int ply, uptown_state_t *s_out, char *err, size_t errlen)
{
    if (!json_is_object(rec))
        FAIL("record: not a JSON object");
    const json_t *game = json_object_get(rec, "game");
    if (!json_is_string(game) || strcmp(json_string_value(game), "uptown"))
        FAIL("record: game must be \"uptown\"");
    const json_t *format = json_object_get(rec, "format");
    if (!json_is_integer(format) || json_integer_value(format) != 1)
        FAIL("record: format must be 1 (the only record format)");
    const json_t *jp = json_object_get(rec, "players");
    if (!json_is_integer(jp) || json_integer_value(jp) < 2 || json_integer_value(jp) > 5)
        FAIL("record: players must be an integer from 2 to 5");
    int players = (int)json_integer_value(jp);
    const json_t *seats = json_object_get(rec, "seats");
    if (!json_is_array(seats) || (int)json_array_size(seats) != players)
        FAIL("record: seats must be a list of %d bot specs (one per player)", players);
    for (size_t i = 0; i < json_array_size(seats); i++)
        if (!json_is_string(json_array_get(seats, i)))
            FAIL("record: seats entry %d is not a string", (int)i);
    const json_t *seed = json_object_get(rec, "seed");
    if (!json_is_integer(seed) || json_integer_value(seed) < 0)
        FAIL("record: seed must be a non-negative integer");
    const json_t *jf = json_object_get(rec, "first_player");
    if (!json_is_integer(jf) || json_integer_value(jf) < 0 || json_integer_value(jf) >= players)
        FAIL("record: first_player must be an integer from 0 to %d", players - 1);
    uint8_t piles[UPTOWN_COLOUR_MAX][UPTOWN_TILE_COUNT];
    if (read_piles(rec, players == 2 ? 4 : players, piles, err, errlen))
        return -1;
    uptown_state_t s;
    if (uptown_new_from_piles(&s, players, (int)json_integer_value(jf), piles, err, errlen))
        return -1;
    const json_t *moves = json_object_get(rec, "moves");
    if (!json_is_array(moves))
        FAIL("record: moves must be a list of move texts");
    const json_t *counts = json_object_get(rec, "legal_counts");
    if (counts && !json_is_array(counts))
        FAIL("record: legal_counts must be a list of integers");
    if (counts && json_array_size(counts) != json_array_size(moves))
        FAIL("record: legal_counts has %d entries for %d moves", (int)json_array_size(counts),
             (int)json_array_size(moves));
    const json_t *result = json_object_get(rec, "result");
    if (!json_is_object(result))
        FAIL("record: result must be an object (the record of a finished game)");
    int move_count = (int)json_array_size(moves);
    if (ply > move_count)
        FAIL("ply %d is beyond the game's %d moves", ply, move_count);
    size_t last = ply < 0 ? (size_t)move_count : (size_t)ply;
    for (size_t i = 0; i < last; i++) {
        const json_t *jm = json_array_get(moves, i);
        if (!json_is_string(jm))
            FAIL("move %d: not a string", (int)i);
        char text[INPUT_EXCERPT_MAX];
        input_escape(json_string_value(jm), text, sizeof text);
        if (uptown_is_terminal(&s)) {
            if (i == 0)
                FAIL("move 0 (%s): the game is over before any move", text);
            FAIL("move %d (%s): the game ended with move %d, the record goes on", (int)i, text,
                 (int)i - 1);
        }
        if (counts) {
            const json_t *jc = json_array_get(counts, i);
            int n = uptown_count_moves(&s);
            if (!json_is_integer(jc))
                FAIL("move %d (%s): legal_counts entry is not an integer", (int)i, text);
            if (json_integer_value(jc) != n)
                FAIL("move %d (%s): legal_counts says %lld legal moves, the rules give %d", (int)i,
                     text, (long long)json_integer_value(jc), n);
        }
        move_t m;
        char why[GAME_ERR_MAX];
        if (uptown_move_from_text(&s, json_string_value(jm), &m, why, sizeof why))
            FAIL("move %d (%s): %s", (int)i, text, why);
        uptown_play(&s, m);
    }
    *s_out = s;
    return move_count;
}

int uptown_record_position(const json_t *rec, int ply, void *state, char *err, size_t errlen)
{
    return replay_moves(rec, ply, state, err, errlen);
}

int uptown_record_replay(const json_t *rec, char *err, size_t errlen)
{
    uptown_state_t s;
    int move_count = replay_moves(rec, -1, &s, err, errlen);
    if (move_count < 0)
        return -1;
    if (forfeit_record_has(rec))
        return forfeit_record_check(rec, s.players, move_count, uptown_is_terminal(&s), err,
                                    errlen);
    if (!uptown_is_terminal(&s)) {
        if (move_count == 0)
            FAIL("record: no moves, but a game needs some");
        FAIL("record: the moves end with move %d, before the game is over", move_count - 1);
    }
    return compare_result(json_object_get(rec, "result"), &s, err, errlen);
}
