/* A record's outcome read without the rules (core/record.h): game, seats, seed, ranks,
   forfeit and the game's own scores, for rate and the resumes of tournament and generate. */
#include <jansson.h>
#include <string.h>

#include "core/record.h"

/* The result's list of the game's own scores, or NULL. */
static const json_t *scores_of(const json_t *result, const char *game)
{
    const game_api_t *api = game ? game_find(game) : NULL;
    if (api)
        return api->score_key ? json_object_get(result, api->score_key) : NULL;
    const json_t *sc = NULL;
    for (int i = 0; !sc && i < game_count(); i++)
        if (game_at(i)->score_key)
            sc = json_object_get(result, game_at(i)->score_key);
    return sc;
}

/* n numbers of list into v: 1, or -1 if it is not a list of n numbers. */
static int numbers(const json_t *list, int n, double *v)
{
    if (!json_is_array(list) || (int)json_array_size(list) != n)
        return -1;
    for (int i = 0; i < n; i++) {
        const json_t *x = json_array_get(list, (size_t)i);
        if (!json_is_number(x))
            return -1;
        v[i] = json_number_value(x);
    }
    return 1;
}

/* result.ranks: n integers from 1 to n into ranks. */
static bool ranks_of(const json_t *list, int n, int *ranks)
{
    if (!n || !json_is_array(list) || (int)json_array_size(list) != n)
        return false;
    for (int i = 0; i < n; i++) {
        const json_t *v = json_array_get(list, (size_t)i);
        if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > n)
            return false;
        ranks[i] = (int)json_integer_value(v);
    }
    return true;
}

void record_outcome(const json_t *rec, record_outcome_t *out)
{
    memset(out, 0, sizeof *out);
    out->seat_count = -1;
    out->forfeit_seat = -1;
    out->game = json_string_value(json_object_get(rec, "game"));
    const json_t *pj = json_object_get(rec, "players");
    if (json_is_integer(pj) && json_integer_value(pj) >= 2 &&
        json_integer_value(pj) <= GAME_MAX_PLAYERS)
        out->players = (int)json_integer_value(pj);
    const json_t *seats = json_object_get(rec, "seats");
    if (json_is_array(seats))
        out->seat_count = (int)json_array_size(seats);
    for (int s = 0; s < out->players && s < out->seat_count; s++)
        out->seats[s] = json_string_value(json_array_get(seats, (size_t)s));
    const json_t *seed = json_object_get(rec, "seed");
    out->has_seed = json_is_integer(seed);
    out->seed = (uint64_t)json_integer_value(seed);
    const json_t *result = json_object_get(rec, "result");
    out->has_ranks = json_is_object(result) &&
                     ranks_of(json_object_get(result, "ranks"), out->players, out->ranks);
    const json_t *forfeit = json_object_get(rec, "forfeit");
    const json_t *fs = json_object_get(forfeit, "seat");
    if (json_is_integer(fs) && json_integer_value(fs) >= 0 && json_integer_value(fs) < out->players)
        out->forfeit_seat = (int)json_integer_value(fs);
    out->forfeit_reason = json_string_value(json_object_get(forfeit, "reason"));
    const json_t *sc = json_is_object(result) ? scores_of(result, out->game) : NULL;
    if (sc)
        out->has_scores = numbers(sc, out->players, out->scores);
}
