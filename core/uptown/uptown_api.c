/*
 * uptown_api: the game interface table over the Uptown engine. The engine's functions have
 * the interface's signatures, so the table points at them; the entries below are the ones
 * the engine has no function for.
 */
#include <stdio.h>
#include <string.h>

#include "uptown.h"

static int api_new_game(void *state, const game_options_t *opt, char *err, size_t errlen)
{
    if (game_options_check(&uptown_api, opt, err, errlen)) /* it has none */
        return -1;
    return uptown_new_game(state, opt, err, errlen);
}

static void api_copy(void *dst, const void *src) { memcpy(dst, src, sizeof(uptown_state_t)); }

static int api_to_move(const void *state) { return ((const uptown_state_t *)state)->to_move; }

static int api_player_count(const void *state) { return ((const uptown_state_t *)state)->players; }

static uint64_t api_hash(const void *state) { return ((const uptown_state_t *)state)->hash; }

static void api_ranks(const void *state, int *ranks)
{
    int groups[GAME_MAX_PLAYERS], captures[GAME_MAX_PLAYERS];
    uptown_ranks(state, groups, captures, ranks);
}

static void api_scores(const void *state, double *scores)
{
    const uptown_state_t *s = state;
    int groups[GAME_MAX_PLAYERS], captures[GAME_MAX_PLAYERS], ranks[GAME_MAX_PLAYERS];
    uptown_ranks(s, groups, captures, ranks);
    for (int p = 0; p < s->players; p++)
        scores[p] = groups[p];
}

static void api_board_text(const void *state, char *buf, size_t len)
{
    char text[GAME_TEXT_MAX];
    uptown_board_to_text(state, text);
    snprintf(buf, len, "%s", text);
}

const game_api_t uptown_api = {
    .name = "uptown",
    .flags = GAME_CHANCE,
    .min_players = 2,
    .max_players = 5,
    .state_size = sizeof(uptown_state_t),
    .undo_size = sizeof(uptown_undo_t),
    .new_game = api_new_game,
    .copy = api_copy,
    .gen_moves = uptown_gen_moves,
    .make = uptown_make,
    .undo = uptown_undo,
    .is_terminal = uptown_is_terminal,
    .to_move = api_to_move,
    .player_count = api_player_count,
    .result = uptown_result,
    .hash = api_hash,
    .hash_full = uptown_hash_full,
    .move_to_text = uptown_move_to_text,
    .move_from_text = uptown_move_from_text,
    .determinize = uptown_determinize,
    .playout = uptown_playout,
    .check = uptown_check,
    .record = &uptown_record_hooks,
    .ranks = api_ranks,
    .scores = api_scores,
    .score_key = "groups",
    .board_text = api_board_text,
    .diagram = uptown_diagram,
    .move_describe = uptown_move_describe,
    .chance_outcomes = uptown_chance_outcomes,
    .position_write = uptown_position_write,
    .position_read = uptown_position_read,
    .action_count = uptown_action_count,
    .move_action = uptown_move_action,
    .observation_size = uptown_observation_size,
    .observation = uptown_observation,
};
