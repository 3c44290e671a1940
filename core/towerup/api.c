/*
 * Tower Up behind the game interface (core/game.h): the game's own functions have the
 * interface's signatures, so the table points at them; the few entries below are the
 * ones the game has no function for.
 */
#include <string.h>

#include "towerup.h"

static void api_copy(void *dst, const void *src) { memcpy(dst, src, sizeof(towerup_state_t)); }

static int api_to_move(const void *state) { return ((const towerup_state_t *)state)->to_move; }

static int api_player_count(const void *state) { return ((const towerup_state_t *)state)->players; }

static uint64_t api_hash(const void *state) { return ((const towerup_state_t *)state)->key; }

static void api_result(const void *state, double *res)
{
    const towerup_state_t *s = state;
    int ranks[TOWERUP_MAX_PLAYERS];
    towerup_ranks(s, ranks);
    game_result_from_ranks(s->players, ranks, res);
}

static void api_scores(const void *state, double *scores)
{
    const towerup_state_t *s = state;
    for (int p = 0; p < s->players; p++)
        scores[p] = towerup_score(s, p);
}

const game_api_t towerup_api = {
    .name = "towerup",
    .flags = GAME_CHANCE,
    .min_players = 2,
    .max_players = TOWERUP_MAX_PLAYERS,
    .state_size = sizeof(towerup_state_t),
    .undo_size = sizeof(towerup_undo_t),
    .new_game = towerup_new_game,
    .copy = api_copy,
    .gen_moves = towerup_gen_moves,
    .make = towerup_make,
    .undo = towerup_undo,
    .is_terminal = towerup_is_over,
    .to_move = api_to_move,
    .player_count = api_player_count,
    .result = api_result,
    .hash = api_hash,
    .hash_full = towerup_hash_full,
    .move_to_text = towerup_move_to_text,
    .move_from_text = towerup_move_from_text,
    .determinize = towerup_determinize,
    .playout = towerup_playout,
    .check = towerup_check,
    .record = &towerup_record_hooks,
    .ranks = towerup_ranks,
    .scores = api_scores,
    .score_key = "scores",
    .diagram = towerup_diagram,
    .move_describe = towerup_move_describe,
    .move_group = towerup_move_group,
    .chance_outcomes = towerup_chance_outcomes,
    .position_write = towerup_position_write,
    .position_read = towerup_position_read,
    .action_count = towerup_action_count,
    .move_action = towerup_move_action,
    .observation_size = towerup_observation_size,
    .observation = towerup_observation,
    .options = towerup_option_specs,
    .option_count = TOWERUP_OPTION_COUNT,
    .option_check = towerup_option_check,
};
