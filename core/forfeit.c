#include "forfeit.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/input.h"

void forfeit_ranks(int players, int seat, int *ranks)
{
    for (int s = 0; s < players; s++)
        ranks[s] = s == seat ? players : 1;
}

void forfeit_record_add(json_t *rec, int players, int seat, int move, const char *reason,
                        const char *detail)
{
    int ranks[16];
    forfeit_ranks(players, seat, ranks);
    json_t *rk = json_array();
    for (int s = 0; s < players; s++)
        json_array_append_new(rk, json_integer(ranks[s]));
    json_t *f = json_pack("{s:i,s:i,s:s}", "seat", seat, "move", move, "reason", reason);
    if (detail && *detail)
        json_object_set_new(f, "detail", json_string(detail));
    /* "engine" stays last: forfeit and result go before it. */
    json_t *engine = json_incref(json_object_get(rec, "engine"));
    json_object_del(rec, "engine");
    json_object_del(rec, "result");
    json_object_set_new(rec, "forfeit", f);
    json_object_set_new(rec, "result", json_pack("{s:o}", "ranks", rk));
    if (engine)
        json_object_set_new(rec, "engine", engine);
}

bool forfeit_reason_known(const char *reason)
{
    static const char *const known[] = {"exit", "closed", "illegal", "garbage", "timeout", "quit"};
    for (size_t i = 0; reason && i < sizeof known / sizeof *known; i++)
        if (!strcmp(reason, known[i]))
            return true;
    return false;
}

bool forfeit_record_has(const json_t *rec) { return json_object_get(rec, "forfeit") != NULL; }

int forfeit_record_check(const json_t *rec, int players, int move_count, bool over, char *err,
                         size_t errlen)
{
    const json_t *f = json_object_get(rec, "forfeit");
    const json_t *js = json_object_get(f, "seat"), *jm = json_object_get(f, "move");
    const json_t *jr = json_object_get(f, "reason");
    if (!json_is_object(f) || !json_is_integer(js) || !json_is_integer(jm) || !json_is_string(jr)) {
        snprintf(err, errlen, "record: forfeit must be an object with seat, move and reason");
        return -1;
    }
    if (!forfeit_reason_known(json_string_value(jr))) {
        char shown[INPUT_EXCERPT_MAX];
        snprintf(err, errlen, "record: unknown forfeit reason '%s' (the reasons: %s)",
                 input_escape(json_string_value(jr), shown, sizeof shown), FORFEIT_REASONS);
        return -1;
    }
    const json_t *jd = json_object_get(f, "detail");
    if (jd && !json_is_string(jd)) {
        snprintf(err, errlen, "record: a forfeit's detail must be a string");
        return -1;
    }
    json_int_t seat = json_integer_value(js), move = json_integer_value(jm);
    if (seat < 0 || seat >= players) {
        snprintf(err, errlen, "record: forfeit seat %lld is not a seat of %d players",
                 (long long)seat, players);
        return -1;
    }
    if (move != move_count) {
        snprintf(err, errlen, "record: forfeit at move %lld but the record has %d moves",
                 (long long)move, move_count);
        return -1;
    }
    if (over) {
        snprintf(err, errlen, "record: a forfeit at move %d, but the game was over then",
                 move_count);
        return -1;
    }
    const json_t *ranks = json_object_get(json_object_get(rec, "result"), "ranks");
    int want[16];
    forfeit_ranks(players, (int)seat, want);
    bool ok = json_is_array(ranks) && json_array_size(ranks) == (size_t)players;
    for (int s = 0; ok && s < players; s++) {
        const json_t *r = json_array_get(ranks, (size_t)s);
        ok = json_is_integer(r) && json_integer_value(r) == want[s];
    }
    if (!ok) {
        snprintf(err, errlen,
                 "result: ranks must be %d for forfeiting seat %lld and 1 for the "
                 "others",
                 players, (long long)seat);
        return -1;
    }
    return 0;
}
