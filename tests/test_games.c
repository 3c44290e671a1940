/*
 * Every game of the registry through the game interface alone, the test-only games of
 * tests/games/ included (this test links them): perft with bulk counting against full
 * make/undo, random games with make/undo restoring every byte, the incremental hash
 * against the full one and the consistency check at every position, the game record
 * written, read back from its JSON text and replayed, and MCTS playing whole games with
 * legal moves. What a game does not have (notation, actions, a solver: game_caps) is not
 * asked of it.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "search/mcts.h"
#include "tests/games/registry.h"
#include "tests/test.h"

static void new_game(const game_api_t *api, void *s, int players, uint64_t seed)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = players;
    opt.seed = seed;
    char err[GAME_ERR_MAX];
    CHECK_MSG(api->new_game(s, &opt, err, sizeof err) == 0, "%s: %s", api->name, err);
}

/* Bulk and full perft agree from the start, to a shallow depth. */
static void check_perft(const game_api_t *api, int players)
{
    void *s = malloc(api->state_size);
    new_game(api, s, players, 7);
    for (int depth = 1; depth <= 3; depth++) {
        char err[GAME_ERR_MAX];
        uint64_t bulk = 0, full = 0;
        CHECK_MSG(game_perft_checked(api, s, depth, false, &bulk, err, sizeof err) == 0, "%s", err);
        CHECK_MSG(game_perft_checked(api, s, depth, true, &full, err, sizeof err) == 0, "%s", err);
        CHECK_MSG(bulk == full && bulk > 0, "%s %dp depth %d: %llu bulk, %llu full", api->name,
                  players, depth, (unsigned long long)bulk, (unsigned long long)full);
    }
    free(s);
}

/* A random game: every position consistent, make/undo exact; then its record round trip.
   The moves go to moves[], their count is returned. */
static int check_random_game(const game_api_t *api, int players, uint64_t seed, move_t *moves)
{
    void *s = malloc(api->state_size), *before = malloc(api->state_size);
    void *initial = malloc(api->state_size);
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    move_t legal[GAME_MAX_MOVES];
    new_game(api, s, players, seed);
    api->copy(initial, s);
    pcg32_t rng;
    pcg32_seed(&rng, seed, 11);
    int n = 0;
    char err[GAME_ERR_MAX];
    for (; n < 2000; n++) {
        CHECK_MSG(api->check(s, err, sizeof err) == 0, "%s ply %d: %s", api->name, n, err);
        CHECK(api->hash(s) == api->hash_full(s));
        int count = api->gen_moves(s, legal);
        CHECK((count == 0) == api->is_terminal(s));
        if (!count)
            break;
        move_t m = legal[pcg32_bounded(&rng, (uint32_t)count)];
        char text[GAME_MOVE_TEXT_MAX];
        move_t back;
        api->move_to_text(s, m, text);
        CHECK_MSG(api->move_from_text(s, text, &back, err, sizeof err) == 0 && back == m,
                  "%s: '%s'", api->name, text);
        memcpy(before, s, api->state_size);
        api->make(s, m, undo);
        api->undo(s, m, undo);
        CHECK_MSG(!memcmp(before, s, api->state_size), "%s: undo of '%s'", api->name, text);
        api->make(s, m, undo);
        moves[n] = m;
    }
    CHECK_MSG(api->is_terminal(s), "%s %dp seed %llu: no end", api->name, players,
              (unsigned long long)seed);
    game_options_t opt;
    game_options_default(&opt);
    opt.players = players;
    opt.seed = seed;
    json_t *rec = record_new(api, initial, &opt, moves, n, NULL, NULL);
    CHECK_MSG(rec != NULL, "%s: no record", api->name);
    char *text = rec ? json_dumps(rec, JSON_COMPACT) : NULL;
    json_t *back = text ? json_loads(text, 0, NULL) : NULL;
    CHECK_MSG(back && record_replay(api, back, err, sizeof err) == 0, "%s: replay: %s", api->name,
              err);
    free(text);
    json_decref(back);
    json_decref(rec);
    free(s);
    free(before);
    free(initial);
    return n;
}

/* MCTS plays a whole game, every move legal. */
static void check_mcts(const game_api_t *api, int players, uint64_t seed)
{
    mcts_options_t mo;
    mcts_options_default(&mo);
    mo.iterations = 200;
    mo.seed = seed;
    mo.threads = 1;
    mcts_t *m = mcts_new(api, &mo);
    CHECK_MSG(m != NULL, "%s: no search", api->name);
    if (!m)
        return;
    void *s = malloc(api->state_size);
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    move_t legal[GAME_MAX_MOVES];
    new_game(api, s, players, seed);
    for (int ply = 0; ply < 2000 && !api->is_terminal(s); ply++) {
        move_t mv = mcts_search(m, s, NULL);
        int n = api->gen_moves(s, legal), ok = 0;
        for (int i = 0; i < n; i++)
            ok |= legal[i] == mv;
        CHECK_MSG(ok, "%s ply %d: MCTS chose an illegal move", api->name, ply);
        if (!ok)
            break;
        api->make(s, mv, undo);
    }
    CHECK_MSG(api->is_terminal(s), "%s: MCTS game did not end", api->name);
    mcts_free(m);
    free(s);
}

int main(void)
{
    static move_t moves[2000];
    bool test_only = false;
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        test_only |= test_game_only(api);
        for (int players = api->min_players; players <= api->max_players; players++) {
            check_perft(api, players);
            for (uint64_t seed = 1; seed <= 3; seed++)
                check_random_game(api, players, seed, moves);
        }
        check_mcts(api, api->min_players, 5);
    }
    CHECK_MSG(test_only, "no test-only game in the registry (tests/games/registry.c)");
    return test_finish("test_games");
}
