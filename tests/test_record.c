/*
 * core/record.c for every game of the registry: a record written by record_new replays;
 * each envelope key missing is refused in the one wording ("record: KEY ..."); the
 * position at every ply, also from a record line as text (record_line_position, for
 * Python), is the game's own; the outcome as rate reads it; per-move keys go after "engine";
 * record_position_each knows a random set-up's placements.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/record.h"
#include "core/rng.h"
#include "tests/test.h"

#define MAX_PLY 400

/* A random game of api from seed: its start in initial, its moves and legal counts. */
static int random_game(const game_api_t *api, uint64_t seed, game_options_t *opt, void *initial,
                       move_t *played, int *counts)
{
    game_options_default(opt);
    opt->players = api->min_players;
    opt->seed = seed;
    char err[GAME_ERR_MAX];
    CHECK_MSG(api->new_game(initial, opt, err, sizeof err) == 0, "%s: %s", api->name, err);
    unsigned char *s = malloc(api->state_size);
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    api->copy(s, initial);
    pcg32_t rng;
    pcg32_seed(&rng, seed, 3);
    int n = 0, k;
    while (n < MAX_PLY && (k = api->gen_moves(s, moves)) > 0) {
        counts[n] = k;
        played[n] = moves[pcg32_bounded(&rng, (uint32_t)k)];
        api->make(s, played[n++], undo);
    }
    free(moves);
    free(s);
    return n;
}

/* rec without key replays to an error that starts with "record: KEY", on one line. */
static void expect_missing(const game_api_t *api, const json_t *rec, const char *key)
{
    json_t *bad = json_deep_copy(rec);
    json_object_del(bad, key);
    char err[GAME_ERR_MAX] = "", want[64];
    snprintf(want, sizeof want, "record: %s", key);
    CHECK_MSG(record_replay(api, bad, err, sizeof err) == -1 && !strncmp(err, want, strlen(want)),
              "%s without %s: '%s'", api->name, key, err);
    CHECK(!strchr(err, '\n'));
    json_decref(bad);
}

/* The positions of rec's line at plies 0, 1, n/2 and the end against a replay by make. */
static void check_line_positions(const game_api_t *api, const json_t *rec, const void *initial,
                                 const move_t *played, int n)
{
    char *line = json_dumps(rec, JSON_COMPACT);
    unsigned char *s = malloc(api->state_size), *r = malloc(api->state_size);
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    char err[GAME_ERR_MAX];
    int plies[] = {0, 1, n / 2, n};
    for (int i = 0; i < 4; i++) {
        api->copy(s, initial);
        for (int k = 0; k < plies[i]; k++)
            api->make(s, played[k], undo);
        const game_api_t *got_api = NULL;
        int moves = -1;
        void *got = record_line_position(line, plies[i], &got_api, &moves, err, sizeof err);
        CHECK_MSG(got && got_api == api && moves == n, "%s ply %d: %s", api->name, plies[i],
                  got ? "" : err);
        /* The record's own position (a Tower Up record fixes the draw pile that new_game
           drew: its hash differs from the replay by make, what players see does not). */
        CHECK(record_position(api, rec, plies[i], r, err, sizeof err) == n);
        if (got)
            CHECK_MSG(api->hash_full(got) == api->hash_full(r), "%s ply %d differs", api->name,
                      plies[i]);
        if (got && api->position_write) {
            char a[GAME_POSITION_MAX], b[GAME_POSITION_MAX];
            api->position_write(got, -1, a, sizeof a);
            api->position_write(s, -1, b, sizeof b);
            CHECK_MSG(!strcmp(a, b), "%s ply %d: %s, not %s", api->name, plies[i], a, b);
        }
        free(got);
    }
    const game_api_t *got_api = NULL;
    char want[96];
    snprintf(want, sizeof want, "ply %d is beyond the game's %d moves", n + 1, n);
    CHECK(!record_line_position(line, n + 1, &got_api, NULL, err, sizeof err) &&
          !strcmp(err, want));
    free(line);
    free(s);
    free(r);
}

static void test_game(const game_api_t *api, uint64_t seed)
{
    game_options_t opt;
    unsigned char *initial = malloc(api->state_size);
    move_t played[MAX_PLY];
    int counts[MAX_PLY];
    int n = random_game(api, seed, &opt, initial, played, counts);
    json_t *rec = record_new(api, initial, &opt, played, n, counts, NULL);
    char err[GAME_ERR_MAX];
    CHECK_MSG(rec && record_replay(api, rec, err, sizeof err) == 0, "%s: %s", api->name,
              rec ? err : "no record");
    if (!rec) {
        free(initial);
        return;
    }
    static const char *const envelope[] = {"game", "format",       "players", "seats",
                                           "seed", "first_player", "moves"};
    for (size_t k = 0; k < sizeof envelope / sizeof *envelope; k++)
        expect_missing(api, rec, envelope[k]);
    /* A value out of range is quoted, as JSON. */
    json_t *bad = json_deep_copy(rec);
    json_object_set_new(bad, "players", json_string("9\n"));
    CHECK(record_replay(api, bad, err, sizeof err) == -1 && strstr(err, ", not \"9\\n\"") &&
          !strchr(err, '\n'));
    json_object_set_new(bad, "first_player", json_integer(7));
    json_object_set_new(bad, "players", json_integer(api->min_players));
    CHECK_MSG(record_replay(api, bad, err, sizeof err) == -1 && strstr(err, "first_player") &&
                  strstr(err, ", not 7"),
              "%s: %s", api->name, err);
    json_decref(bad);
    check_line_positions(api, rec, initial, played, n);
    /* The outcome as rate reads it: the game's ranks and own scores, seats, seed. */
    record_outcome_t o;
    record_outcome(rec, &o);
    unsigned char *end = malloc(api->state_size);
    CHECK(record_position(api, rec, -1, end, err, sizeof err) == n);
    int ranks[GAME_MAX_PLAYERS];
    game_ranks(api, end, ranks);
    CHECK(o.game && !strcmp(o.game, api->name) && o.players == opt.players &&
          o.seat_count == opt.players && o.seats[0] && !o.seats[0][0] && o.has_seed &&
          o.seed == seed && o.forfeit_seat == -1 && o.has_ranks &&
          !memcmp(o.ranks, ranks, sizeof(int) * (size_t)o.players));
    CHECK_MSG(o.has_scores == (api->score_key ? 1 : 0), "%s: scores %d", api->name, o.has_scores);
    free(end);
    /* Without its result a record still has positions; a replay refuses it. */
    json_t *open = json_deep_copy(rec);
    json_object_del(open, "result");
    unsigned char *s = malloc(api->state_size);
    CHECK_MSG(record_position(api, open, -1, s, err, sizeof err) == n, "%s: %s", api->name, err);
    CHECK(record_replay(api, open, err, sizeof err) == -1 &&
          !strcmp(err, "record: result must be an object (the record of a finished game)"));
    json_decref(open);
    free(s);
    /* Per-move keys: after "engine"; a list longer than the moves or not a list refused. */
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, json_integer(i));
    CHECK(record_add_per_move(rec, "visits", list) == 0);
    const char *last = NULL, *key;
    json_t *value;
    json_object_foreach(rec, key, value) last = key;
    CHECK_MSG(last && !strcmp(last, "visits"), "%s: last key %s", api->name, last);
    json_t *longer = json_deep_copy(list);
    json_array_append_new(longer, json_integer(0));
    CHECK(record_add_per_move(rec, "more", longer) == -1 && !json_object_get(rec, "more"));
    CHECK(record_add_per_move(rec, "more", json_integer(3)) == -1);
    CHECK(record_replay(api, rec, err, sizeof err) == 0);
    json_decref(rec);
    free(initial);
}

/* Lines that are no record of any game. */
static void test_bad_lines(void)
{
    char err[GAME_ERR_MAX];
    const game_api_t *api = NULL;
    CHECK(!record_line_position("{\"game\":", 0, &api, NULL, err, sizeof err) &&
          !strncmp(err, "record: not JSON (", 18));
    CHECK(!record_line_position("{\"game\":\"chess\"}", 0, &api, NULL, err, sizeof err) &&
          !strncmp(err, "record: game 'chess' is not one of ", 35));
    CHECK(!record_line_position("[1,2]", 0, &api, NULL, err, sizeof err) &&
          !strncmp(err, "record: game must be one of ", 28));
    CHECK(!record_line_position("{\"game\":\"\\u0001x\"}", 0, &api, NULL, err, sizeof err) &&
          strstr(err, "'\\x01x'"));
    CHECK(api == NULL);
}

static void count_each(void *ctx, int index, const void *before, move_t m)
{
    int *n = ctx;
    (void)m;
    CHECK(index == (*n)++ && before);
}

/* record_position_each: each move once, in order; Tower Up's random set-up (setup=random)
   is the record's first moves when they are the placements its seed draws, not otherwise. */
static void test_random_setup(void)
{
    const game_api_t *api = game_find("towerup");
    unsigned char *initial = malloc(api->state_size), *state = malloc(api->state_size);
    char err[GAME_ERR_MAX];
    for (int random = 0; random < 2; random++) {
        game_options_t opt;
        game_options_default(&opt);
        opt.players = 3;
        opt.seed = 5;
        CHECK(!random || game_options_add(&opt, "setup=random", err, sizeof err) == 0);
        CHECK(api->new_game(initial, &opt, err, sizeof err) == 0);
        json_t *rec = record_new(api, initial, &opt, NULL, 0, NULL, NULL);
        int n = 0, setup = -1;
        int moves =
            record_position_each(api, rec, -1, state, count_each, &n, &setup, err, sizeof err);
        CHECK_MSG(moves == (random ? 3 : 0) && n == moves && setup == moves, "%d %d %d", moves, n,
                  setup);
        if (random) { /* another first placement: the players placed them */
            CHECK(record_position(api, rec, 0, state, err, sizeof err) == 3);
            move_t legal[GAME_MAX_MOVES];
            int k = api->gen_moves(state, legal);
            char text[GAME_MOVE_TEXT_MAX];
            const char *first = json_string_value(json_array_get(json_object_get(rec, "moves"), 0));
            for (int i = 0; i < k; i++) {
                api->move_to_text(state, legal[i], text);
                if (strcmp(text, first))
                    break;
            }
            json_array_set_new(json_object_get(rec, "moves"), 0, json_string(text));
            n = 0;
            CHECK(record_position_each(api, rec, 1, state, count_each, &n, &setup, err,
                                       sizeof err) == 3);
            CHECK(n == 1 && setup == 0);
        }
        json_decref(rec);
    }
    free(initial);
    free(state);
}

int main(void)
{
    for (int i = 0; i < game_count(); i++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            test_game(game_at(i), seed);
    test_bad_lines();
    test_random_setup();
    return test_finish("test_record");
}
