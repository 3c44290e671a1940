/*
 * The registry of games (core/games.c) and the parts of the game interface the harness
 * relies on: every registered game has its required entries, is found by name, gives ranks
 * that agree with its result and, where it has them, scores that agree with its record;
 * its optional parts point back at it; a game whose record holds no result.ranks still plays
 * matches (ranks come from the game, not its record); the command line lists the games.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "arena/match.h"
#include "bench/bench.h"
#include "bots/heuristic.h"
#include "core/record.h"
#include "tests/games/registry.h"
#include "tests/test.h"

/* Runs the skyline binary with args; stderr to err_path. Exit status. */
static int run_skyline(const char *args, const char *err_path)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>'%s' </dev/null", SKYLINE_BINARY, args,
             err_path);
    int rc = system(cmd);
    return rc == -1 || !WIFEXITED(rc) ? -1 : WEXITSTATUS(rc);
}

static void test_table(void)
{
    CHECK(game_count() >= 3);
    CHECK(game_at(-1) == NULL && game_at(game_count()) == NULL);
    CHECK(!strcmp(game_at(0)->name, "towerup")); /* the command line's default */
    CHECK(game_find("chess") == NULL && game_find(NULL) == NULL);
    char names[256];
    game_names(names, sizeof names, ", ");
    CHECK_MSG(!strncmp(names, "towerup, uptown", 15) && strstr(names, "connect4"), "%s", names);
    char tiny[8];
    game_names(tiny, sizeof tiny, ", "); /* cut to fit, still terminated */
    CHECK(strlen(tiny) == sizeof tiny - 1);
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        CHECK_MSG(game_find(api->name) == api, "%s", api->name);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(api->name, game_at(j)->name));
        CHECK(api->min_players >= 1 && api->min_players <= api->max_players &&
              api->max_players <= GAME_MAX_PLAYERS);
        CHECK(api->state_size > 0 && api->undo_size <= GAME_UNDO_MAX);
        CHECK(api->new_game && api->copy && api->gen_moves && api->make && api->undo &&
              api->is_terminal && api->to_move && api->player_count && api->result && api->hash &&
              api->hash_full && api->move_to_text && api->move_from_text && api->determinize &&
              api->playout && api->check && api->record && api->record->first_player &&
              api->record->result);
        CHECK_MSG(!heuristic_for(api) || heuristic_for(api)->api == api, "%s", api->name);
        game_api_t copy = *api; /* layers key their tables by the game's name */
        CHECK_MSG(heuristic_for(&copy) == heuristic_for(api), "%s", api->name);
        CHECK(!api->scores == !api->score_key);
        const bench_game_t *bg = bench_game_for(api); /* optional: bench rows */
        for (int k = 0; bg && k < bg->case_count; k++) {
            const bench_case_spec_t *c = &bg->cases[k];
            CHECK_MSG(c->players >= api->min_players && c->players <= api->max_players, "%s",
                      c->label);
        }
    }
}

/* The capability flags tell the truth: a game of perfect information without chance is one
   whose determinize changes nothing; any other game's determinize changes something at the
   start of some game (hidden parts, or the chance events to come). The optional entries
   come in the groups game_caps names. */
static void test_flags(void)
{
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        unsigned caps = game_caps(api);
        CHECK_MSG(!(api->flags & ~(GAME_PERFECT_INFO | GAME_CHANCE)), "%s", api->name);
        CHECK_MSG(!api->position_write == !api->position_read, "%s", api->name);
        CHECK_MSG(!api->solver_new == !(caps & GAME_CAP_SOLVER), "%s", api->name);
        CHECK_MSG(!api->action_count == !(caps & GAME_CAP_ACTIONS), "%s", api->name);
        char *s = malloc(api->state_size), *t = malloc(api->state_size);
        bool changed = false;
        for (int players = api->min_players; players <= api->max_players; players++)
            for (uint64_t seed = 1; seed <= 4; seed++) {
                game_options_t opt;
                game_options_default(&opt);
                opt.players = players;
                opt.seed = seed;
                char err[GAME_ERR_MAX];
                CHECK_MSG(api->new_game(s, &opt, err, sizeof err) == 0, "%s", err);
                pcg32_t rng;
                pcg32_seed(&rng, seed, 9);
                for (int observer = 0; observer < players; observer++) {
                    api->copy(t, s);
                    api->determinize(t, observer, &rng);
                    changed |= memcmp(s, t, api->state_size) != 0;
                }
            }
        CHECK_MSG(changed ==
                      ((api->flags & (GAME_PERFECT_INFO | GAME_CHANCE)) != GAME_PERFECT_INFO),
                  "%s: determinize %s the state, but the flags say otherwise", api->name,
                  changed ? "changes" : "never changes");
        free(s);
        free(t);
    }
}

/* Random games of every game and player count: ranks (from the game, and derived from the
   result when the game gives none) agree with the result and the record. */
static void test_ranks(void)
{
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        game_api_t plain = *api;
        plain.ranks = NULL;
        void *s = malloc(api->state_size);
        for (int players = api->min_players; players <= api->max_players; players++)
            for (uint64_t seed = 1; seed <= 6; seed++) {
                game_options_t opt;
                game_options_default(&opt);
                opt.players = players;
                opt.seed = seed;
                char err[GAME_ERR_MAX];
                if (api->new_game(s, &opt, err, sizeof err))
                    continue;
                pcg32_t rng;
                pcg32_seed(&rng, seed, 3);
                api->playout(s, &rng);
                CHECK(api->is_terminal(s));
                int ranks[GAME_MAX_PLAYERS], derived[GAME_MAX_PLAYERS];
                double res[GAME_MAX_PLAYERS], expect[GAME_MAX_PLAYERS];
                game_ranks(api, s, ranks);
                game_ranks(&plain, s, derived);
                api->result(s, res);
                game_result_from_ranks(players, ranks, expect);
                for (int p = 0; p < players; p++) {
                    CHECK_MSG(ranks[p] >= 1 && ranks[p] <= players, "%s", api->name);
                    CHECK_MSG(expect[p] == res[p], "%s seed %llu", api->name,
                              (unsigned long long)seed);
                    CHECK_MSG(derived[p] == ranks[p], "%s seed %llu", api->name,
                              (unsigned long long)seed);
                }
            }
        free(s);
    }
}

/* A record result that drops ranks (and the score) from the game's own. */
static const game_api_t *wrapped;
static json_t *result_without_ranks(const void *state)
{
    json_t *result = wrapped->record->result(state);
    json_object_del(result, "ranks");
    if (wrapped->score_key)
        json_object_del(result, wrapped->score_key);
    return result;
}

static void test_match_without_record_ranks(void)
{
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        game_api_t bare = *api;
        wrapped = api;
        record_hooks_t hooks = *api->record;
        hooks.result = result_without_ranks;
        bare.record = &hooks;
        game_options_t opt;
        game_options_default(&opt);
        opt.players = api->min_players;
        opt.seed = 11;
        char err[GAME_ERR_MAX];
        bot_t *bots[GAME_MAX_PLAYERS];
        for (int s = 0; s < opt.players; s++)
            bots[s] = bot_new(&bare, "random", 5 + (uint64_t)s, err, sizeof err);
        match_result_t a, b;
        CHECK(match_play(&bare, &opt, bots, false, &a, err, sizeof err) == 0);
        CHECK(match_play(api, &opt, bots, false, &b, err, sizeof err) == 0);
        json_t *ranks = json_object_get(json_object_get(b.record, "result"), "ranks");
        for (int s = 0; s < opt.players; s++) {
            CHECK_MSG(a.ranks[s] == b.ranks[s] && a.ranks[s] >= 1, "%s seat %d: %d", api->name, s,
                      a.ranks[s]);
            CHECK(b.ranks[s] == (int)json_integer_value(json_array_get(ranks, (size_t)s)));
        }
        CHECK(json_object_get(json_object_get(a.record, "result"), "ranks") == NULL);
        json_decref(a.record);
        json_decref(b.record);
        for (int s = 0; s < opt.players; s++)
            bot_free(bots[s]);
    }
}

/* The game's scores are those its record writes under score_key. */
static void test_scores(void)
{
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        if (!api->scores)
            continue;
        game_options_t opt;
        game_options_default(&opt);
        opt.players = api->min_players;
        opt.seed = 21;
        char err[GAME_ERR_MAX];
        bot_t *bots[GAME_MAX_PLAYERS];
        for (int s = 0; s < opt.players; s++)
            bots[s] = bot_new(api, "random", 7 + (uint64_t)s, err, sizeof err);
        match_result_t r;
        CHECK(match_play(api, &opt, bots, false, &r, err, sizeof err) == 0);
        /* Replay the record's moves to the end and ask the game. */
        void *st = malloc(api->state_size);
        api->new_game(st, &opt, err, sizeof err);
        json_t *moves = json_object_get(r.record, "moves");
        _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
        for (size_t k = 0; k < json_array_size(moves); k++) {
            move_t m;
            CHECK(api->move_from_text(st, json_string_value(json_array_get(moves, k)), &m, err,
                                      sizeof err) == 0);
            api->make(st, m, undo);
        }
        double scores[GAME_MAX_PLAYERS];
        api->scores(st, scores);
        json_t *sc = json_object_get(json_object_get(r.record, "result"), api->score_key);
        for (int s = 0; s < opt.players; s++)
            CHECK_MSG(scores[s] == json_number_value(json_array_get(sc, (size_t)s)), "%s seat %d",
                      api->name, s);
        free(st);
        json_decref(r.record);
        for (int s = 0; s < opt.players; s++)
            bot_free(bots[s]);
    }
}

/* The command line names the registered games: in help and when a name is unknown. */
static void test_cli(void)
{
    const char *cmds[] = {"play --game chess", "perft --game chess 1", "bench --game chess"};
    for (int k = 0; k < 3; k++) {
        CHECK(run_skyline(cmds[k], "test_registry.err") != 0);
        char *err = test_read_file("test_registry.err");
        for (int i = 0; i < game_count(); i++) /* the program has no test-only game */
            CHECK_MSG(test_game_only(game_at(i)) || strstr(err, game_at(i)->name), "skyline %s: %s",
                      cmds[k], err);
        CHECK_MSG(strchr(err, '\n') == strrchr(err, '\n'), "%s", err);
        free(err);
    }
}

int main(void)
{
    test_table();
    test_flags();
    test_ranks();
    test_match_without_record_ranks();
    test_scores();
    test_cli();
    return test_finish("test_registry");
}
