/* Tower Up behind the game interface (core/game.h). */
#include <string.h>

#include "towerup.h"

static int api_new_game(void *state, const game_options_t *opt, char *err, size_t errlen)
{
    return towerup_new_game(state, opt, err, errlen);
}

static void api_copy(void *dst, const void *src) { memcpy(dst, src, sizeof(towerup_state_t)); }

static int api_gen_moves(const void *state, move_t *moves)
{
    return towerup_gen_moves(state, moves);
}

static void api_make(void *state, move_t m, void *undo) { towerup_make(state, m, undo); }

static void api_undo(void *state, move_t m, const void *undo) { towerup_undo(state, m, undo); }

static bool api_is_terminal(const void *state) { return towerup_is_over(state); }

static int api_to_move(const void *state) { return ((const towerup_state_t *)state)->to_move; }

static int api_player_count(const void *state) { return ((const towerup_state_t *)state)->players; }

static void api_result(const void *state, double *res)
{
    const towerup_state_t *s = state;
    int ranks[TOWERUP_MAX_PLAYERS];
    towerup_ranks(s, ranks);
    game_result_from_ranks(s->players, ranks, res);
}

static uint64_t api_hash(const void *state) { return ((const towerup_state_t *)state)->key; }

static uint64_t api_hash_full(const void *state) { return towerup_hash_full(state); }

static void api_move_to_text(const void *state, move_t m, char *buf)
{
    towerup_move_to_text(state, m, buf);
}

static int api_move_from_text(const void *state, const char *text, move_t *m, char *err,
                              size_t errlen)
{
    return towerup_move_from_text(state, text, m, err, errlen);
}

static void api_determinize(void *state, int observer, pcg32_t *rng)
{
    towerup_determinize(state, observer, rng);
}

static void api_playout(void *state, pcg32_t *rng) { towerup_playout(state, rng); }

static int api_check(const void *state, char *err, size_t errlen)
{
    return towerup_check(state, err, errlen);
}

static void api_ranks(const void *state, int *ranks) { towerup_ranks(state, ranks); }

static void api_scores(const void *state, double *scores)
{
    const towerup_state_t *s = state;
    for (int p = 0; p < s->players; p++)
        scores[p] = towerup_score(s, p);
}

static void api_diagram(const void *state, int observer, unsigned flags, char *buf, size_t len)
{
    towerup_diagram(state, observer, flags, buf, len);
}

static void api_move_group(const void *state, move_t m, char *group, char *way, size_t len)
{
    towerup_move_group(state, m, group, way, len);
}

static void api_move_describe(const void *state, move_t m, char *buf, size_t len)
{
    towerup_move_describe(state, m, buf, len);
}

const game_api_t towerup_api = {
    .name = "towerup",
    .flags = GAME_CHANCE,
    .min_players = 2,
    .max_players = TOWERUP_MAX_PLAYERS,
    .state_size = sizeof(towerup_state_t),
    .undo_size = sizeof(towerup_undo_t),
    .new_game = api_new_game,
    .copy = api_copy,
    .gen_moves = api_gen_moves,
    .make = api_make,
    .undo = api_undo,
    .is_terminal = api_is_terminal,
    .to_move = api_to_move,
    .player_count = api_player_count,
    .result = api_result,
    .hash = api_hash,
    .hash_full = api_hash_full,
    .move_to_text = api_move_to_text,
    .move_from_text = api_move_from_text,
    .determinize = api_determinize,
    .playout = api_playout,
    .check = api_check,
    .record = &towerup_record_hooks,
    .ranks = api_ranks,
    .scores = api_scores,
    .score_key = "scores",
    .diagram = api_diagram,
    .move_describe = api_move_describe,
    .move_group = api_move_group,
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
