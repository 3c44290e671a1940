/* Connect Four game records (FORMATS.md §4, core/connect4/README.md): written and replayed. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/connect4/connect4.h"
#include "core/forfeit.h"
#include "core/input.h"
#include "core/version.h"

static json_t *int_pair(const int *v) { return json_pack("[ii]", v[0], v[1]); }

json_t *c4_record_new(const void *initial, const game_options_t *opt, const move_t *moves,
                      int move_count, const int *legal_counts, const char *const *seats)
{
    c4_state_t s;
    memcpy(&s, initial, sizeof s);
    json_t *rec = json_object(), *list = json_array(), *seat_list = json_array();
    json_t *lc = legal_counts ? json_array() : NULL;
    c4_undo_t u;
    move_t buf[C4_COLUMNS];
    for (int i = 0; i < move_count; i++) {
        int n = c4_gen_moves(&s, buf), legal = 0;
        for (int k = 0; k < n; k++)
            legal |= buf[k] == moves[i];
        if (!legal) {
            json_decref(rec);
            json_decref(list);
            json_decref(seat_list);
            json_decref(lc);
            return NULL;
        }
        if (lc)
            json_array_append_new(lc, json_integer(legal_counts[i]));
        char text[2] = {(char)('1' + moves[i]), '\0'};
        json_array_append_new(list, json_string(text));
        c4_make(&s, moves[i], &u);
    }
    for (int p = 0; p < 2; p++)
        json_array_append_new(seat_list, json_string(seats && seats[p] ? seats[p] : ""));
    json_object_set_new(rec, "game", json_string("connect4"));
    json_object_set_new(rec, "format", json_integer(1));
    json_object_set_new(rec, "players", json_integer(2));
    json_object_set_new(rec, "seats", seat_list);
    json_object_set_new(rec, "seed", json_integer((json_int_t)(opt ? opt->seed : 0)));
    json_object_set_new(rec, "first_player", json_integer(s.first_player));
    json_object_set_new(rec, "moves", list);
    if (lc)
        json_object_set_new(rec, "legal_counts", lc);
    if (c4_is_over(&s)) {
        int ranks[2];
        c4_ranks(&s, ranks);
        json_object_set_new(
            rec, "result",
            json_pack("{s:o,s:i}", "ranks", int_pair(ranks), "turns", s.stone_count));
    }
    /* A key after FORMATS.md's (readers ignore unknown keys): the engine that wrote it. */
    json_object_set_new(rec, "engine", json_string(skyline_engine()));
    return rec;
}

/* Fills err and returns -1. */
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* The record's result against the final position. */
static int compare_result(const json_t *result, const c4_state_t *s, char *err, size_t errlen)
{
    if (!json_is_object(result))
        return fail(err, errlen, "record: result must be an object");
    int ranks[2];
    c4_ranks(s, ranks);
    const json_t *jr = json_object_get(result, "ranks");
    if (!json_is_array(jr) || json_array_size(jr) != 2 || !json_is_integer(json_array_get(jr, 0)) ||
        !json_is_integer(json_array_get(jr, 1)))
        return fail(err, errlen, "record: result.ranks must be a list of 2 integers");
    for (int p = 0; p < 2; p++)
        if (json_integer_value(json_array_get(jr, (size_t)p)) != ranks[p])
            return fail(err, errlen,
                        "result: ranks are [%lld,%lld] in the record but [%d,%d] "
                        "by the rules",
                        (long long)json_integer_value(json_array_get(jr, 0)),
                        (long long)json_integer_value(json_array_get(jr, 1)), ranks[0], ranks[1]);
    const json_t *turns = json_object_get(result, "turns");
    if (!json_is_integer(turns))
        return fail(err, errlen, "record: result.turns must be an integer");
    if (json_integer_value(turns) != s->stone_count)
        return fail(err, errlen, "result: turns is %lld in the record but %d moves were played",
                    (long long)json_integer_value(turns), s->stone_count);
    return 0;
}

int c4_record_replay(const json_t *rec, char *err, size_t errlen)
{
    if (!json_is_object(rec))
        return fail(err, errlen, "record: not a JSON object");
    const json_t *game = json_object_get(rec, "game");
    if (!json_is_string(game) || strcmp(json_string_value(game), "connect4"))
        return fail(err, errlen, "record: game must be \"connect4\"");
    const json_t *format = json_object_get(rec, "format");
    if (!json_is_integer(format) || json_integer_value(format) != 1)
        return fail(err, errlen, "record: format must be 1 (the only record format)");
    const json_t *jp = json_object_get(rec, "players");
    if (!json_is_integer(jp) || json_integer_value(jp) != 2)
        return fail(err, errlen, "record: players must be 2");
    const json_t *seats = json_object_get(rec, "seats");
    if (!json_is_array(seats) || json_array_size(seats) != 2 ||
        !json_is_string(json_array_get(seats, 0)) || !json_is_string(json_array_get(seats, 1)))
        return fail(err, errlen, "record: seats must be a list of 2 bot specs");
    const json_t *seed = json_object_get(rec, "seed");
    if (!json_is_integer(seed) || json_integer_value(seed) < 0)
        return fail(err, errlen, "record: seed must be an integer from 0 to 2^63-1");
    const json_t *jf = json_object_get(rec, "first_player");
    if (!json_is_integer(jf) || json_integer_value(jf) < 0 || json_integer_value(jf) > 1)
        return fail(err, errlen, "record: first_player must be 0 or 1");
    c4_state_t s;
    c4_init(&s, (int)json_integer_value(jf));
    const json_t *moves = json_object_get(rec, "moves");
    if (!json_is_array(moves))
        return fail(err, errlen, "record: moves must be a list of move texts");
    const json_t *counts = json_object_get(rec, "legal_counts");
    if (counts && !json_is_array(counts))
        return fail(err, errlen, "record: legal_counts must be a list of integers");
    if (counts && json_array_size(counts) != json_array_size(moves))
        return fail(err, errlen, "record: legal_counts has %d entries for %d moves",
                    (int)json_array_size(counts), (int)json_array_size(moves));
    move_t buf[C4_COLUMNS];
    c4_undo_t u;
    for (size_t i = 0; i < json_array_size(moves); i++) {
        const json_t *jm = json_array_get(moves, i);
        if (!json_is_string(jm))
            return fail(err, errlen, "move %d: not a string", (int)i);
        char text[INPUT_EXCERPT_MAX];
        input_escape(json_string_value(jm), text, sizeof text);
        if (c4_is_over(&s))
            return fail(err, errlen, "move %d (%s): the game ended after move %d", (int)i, text,
                        (int)i - 1);
        if (counts) {
            const json_t *jc = json_array_get(counts, i);
            int n = c4_gen_moves(&s, buf);
            if (!json_is_integer(jc))
                return fail(err, errlen, "move %d (%s): legal_counts entry is not an integer",
                            (int)i, text);
            if (json_integer_value(jc) != n)
                return fail(err, errlen,
                            "move %d (%s): legal_counts says %lld legal moves, the rules give %d",
                            (int)i, text, (long long)json_integer_value(jc), n);
        }
        move_t m;
        char why[GAME_ERR_MAX];
        if (c4_move_from_text(&s, json_string_value(jm), &m, why, sizeof why))
            return fail(err, errlen, "move %d (%s): %s", (int)i, text, why);
        c4_make(&s, m, &u);
    }
    if (forfeit_record_has(rec))
        return forfeit_record_check(rec, 2, (int)json_array_size(moves), c4_is_over(&s), err,
                                    errlen);
    const json_t *result = json_object_get(rec, "result");
    if (!result && c4_is_over(&s))
        return fail(err, errlen, "record: no \"result\" (the game ended at move %d)",
                    s.stone_count - 1);
    if (!result)
        return fail(err, errlen, "record: no \"result\" and the game is not over after %d moves",
                    s.stone_count);
    if (!c4_is_over(&s))
        return fail(err, errlen, "record: a result, but the game is not over after %d moves",
                    s.stone_count);
    return compare_result(result, &s, err, errlen);
}
