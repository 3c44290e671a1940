/* The Uptown engine through the game interface table (uptown_api), as search and bots use it. */
#include <jansson.h>
#include <string.h>

#include "core/record.h"
#include "core/uptown/uptown.h"
#include "tests/test.h"

static void play_through_api(int players, uint64_t seed)
{
    const game_api_t *api = &uptown_api;
    CHECK(!strcmp(api->name, "uptown") && api->min_players == 2 && api->max_players == 5);
    CHECK(api->state_size == sizeof(uptown_state_t) && api->undo_size <= GAME_UNDO_MAX);
    game_options_t opt;
    game_options_default(&opt);
    opt.players = players;
    opt.seed = seed;
    _Alignas(16) unsigned char state[sizeof(uptown_state_t)], initial[sizeof(uptown_state_t)],
        copy[sizeof(uptown_state_t)], undo[GAME_UNDO_MAX];
    char err[GAME_ERR_MAX];
    CHECK(api->new_game(state, &opt, err, sizeof err) == 0);
    api->copy(initial, state);
    CHECK(api->player_count(state) == players && !api->is_terminal(state));
    pcg32_t rng;
    pcg32_seed(&rng, seed, 5);
    move_t moves[GAME_MAX_MOVES], played[128];
    int n, count = 0;
    while ((n = api->gen_moves(state, moves)) > 0) {
        move_t m = moves[pcg32_bounded(&rng, (uint32_t)n)];
        char text[GAME_MOVE_TEXT_MAX];
        move_t back;
        api->move_to_text(state, m, text);
        CHECK(api->move_from_text(state, text, &back, err, sizeof err) == 0 && back == m);
        api->copy(copy, state);
        int mover = api->to_move(state);
        api->make(state, m, undo);
        CHECK(api->hash(state) == api->hash_full(state));
        CHECK(api->check(state, err, sizeof err) == 0);
        api->undo(state, m, undo);
        CHECK(memcmp(copy, state, sizeof copy) == 0);
        api->make(state, m, undo);
        CHECK(api->to_move(state) == (mover + 1) % players);
        played[count++] = m;
        if (count % 10 == 0) {
            api->copy(copy, state);
            api->determinize(copy, mover, &rng);
            CHECK(uptown_observation_equal((const uptown_state_t *)copy,
                                           (const uptown_state_t *)state, mover));
        }
    }
    CHECK(api->is_terminal(state));
    double res[GAME_MAX_PLAYERS], sum = 0;
    api->result(state, res);
    for (int p = 0; p < players; p++) {
        CHECK(res[p] >= 0 && res[p] <= 1);
        sum += res[p];
    }
    CHECK(sum > players / 2.0 - 1e-9 && sum < players / 2.0 + 1e-9);
    json_t *rec = record_new(api, initial, &opt, played, count, NULL, NULL);
    CHECK(rec && record_replay(api, rec, err, sizeof err) == 0);
    json_decref(rec);
    /* A playout from the start ends the game too, the same way for the same generator. */
    pcg32_t r1, r2;
    pcg32_seed(&r1, seed, 9);
    r2 = r1;
    api->copy(state, initial);
    api->copy(copy, initial);
    api->playout(state, &r1);
    api->playout(copy, &r2);
    CHECK(api->is_terminal(state) && memcmp(state, copy, sizeof copy) == 0);
}

int main(void)
{
    for (int players = 2; players <= 5; players++)
        for (uint64_t seed = 0; seed < 5; seed++)
            play_through_api(players, 77 + seed);
    return test_finish("test_uptown_api");
}
