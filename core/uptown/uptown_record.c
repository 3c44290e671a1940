/* Uptown's part of its game records (FORMATS.md §4, core/record.h): the piles, which fix
   every chance event (a record is replayed from them, never re-drawn from the seed), and
   the result. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/input.h"
#include "core/record.h"
#include "uptown.h"

/* A record error: the field "record" (core/record.c words its own errors so). */
#define FAIL(...) return input_fail(err, errlen, "record", NULL, __VA_ARGS__)

static json_t *int_array(const int *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

static int first_player(const void *initial)
{
    return ((const uptown_state_t *)initial)->first_player;
}

/* "piles": each colour's tiles in draw order. */
static void setup_keys(json_t *rec, const void *initial)
{
    const uptown_state_t *init = initial;
    json_t *piles = json_array();
    for (int c = 0; c < init->colours; c++) {
        json_t *pile = json_array();
        for (int i = 0; i < UPTOWN_TILE_COUNT; i++)
            json_array_append_new(pile, json_string(uptown_tile_name(init->pile[c][i])));
        json_array_append_new(piles, pile);
    }
    json_object_set_new(rec, "piles", piles);
}

/* The standings (written for a game not over too). */
static json_t *result(const void *state)
{
    const uptown_state_t *s = state;
    int groups[GAME_MAX_PLAYERS], captures[GAME_MAX_PLAYERS], ranks[GAME_MAX_PLAYERS];
    uptown_ranks(s, groups, captures, ranks);
    json_t *r = json_object();
    json_object_set_new(r, "groups", int_array(groups, s->players));
    json_object_set_new(r, "captures", int_array(captures, s->players));
    json_object_set_new(r, "ranks", int_array(ranks, s->players));
    json_object_set_new(r, "turns", json_integer(s->move_count));
    return r;
}

/* Reads the piles of a record into piles[colours]. */
static int read_piles(const json_t *rec, int colours, uint8_t piles[][UPTOWN_TILE_COUNT], char *err,
                      size_t errlen)
{
    const json_t *a = json_object_get(rec, "piles");
    if (!json_is_array(a) || (int)json_array_size(a) != colours)
        FAIL("piles must be a list of %d lists of tiles", colours);
    for (int c = 0; c < colours; c++) {
        const json_t *pile = json_array_get(a, (size_t)c);
        if (!json_is_array(pile) || json_array_size(pile) != UPTOWN_TILE_COUNT)
            FAIL("pile %d must be a list of the 28 tiles", c);
        uint32_t seen = 0;
        for (int i = 0; i < UPTOWN_TILE_COUNT; i++) {
            const json_t *v = json_array_get(pile, (size_t)i);
            int t = json_is_string(v) ? uptown_tile_parse(json_string_value(v)) : -1;
            if (t < 0)
                FAIL("pile %d, entry %d is not a tile name", c, i);
            if (seen >> t & 1)
                FAIL("pile %d holds tile %s twice", c, uptown_tile_name(t));
            seen |= 1u << t;
            piles[c][i] = (uint8_t)t;
        }
    }
    return 0;
}

/* The game of a record before its first move: its piles. */
static int read_start(const json_t *rec, const record_envelope_t *env, void *state, char *err,
                      size_t errlen)
{
    uint8_t piles[UPTOWN_COLOUR_MAX][UPTOWN_TILE_COUNT];
    if (read_piles(rec, env->players == 2 ? 4 : env->players, piles, err, errlen))
        return -1;
    return uptown_new_from_piles(state, env->players, env->first_player, piles, err, errlen) ? -1
                                                                                             : 0;
}

const record_hooks_t uptown_record_hooks = {
    .first_player = first_player,
    .setup_keys = setup_keys,
    .result = result,
    .result_always = true,
    .read_start = read_start,
};
