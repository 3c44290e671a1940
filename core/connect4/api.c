/*
 * Connect Four behind the game interface (core/game.h): the table connect4_api. The rules'
 * functions have the interface's signatures, so the table points at them; the entries
 * below are the ones the rules have no function for.
 */
#include <stdio.h>
#include <string.h>

#include "core/connect4/connect4.h"
#include "core/connect4/solve.h"
#include "core/input.h"

static int api_new_game(void *state, const game_options_t *opt, char *err, size_t errlen)
{
    if (game_options_check(&connect4_api, opt, err, errlen)) /* it has none */
        return -1;
    char given[16];
    if (opt->players != 2) {
        snprintf(given, sizeof given, "%d", opt->players);
        return input_fail(err, errlen, "players", given, "connect4 is played by 2 players");
    }
    if (opt->first_player > 1) {
        snprintf(given, sizeof given, "%d", opt->first_player);
        return input_fail(err, errlen, "first_player", given, "connect4 has seats 0 and 1");
    }
    /* The first seat starts unless --first-player names another: Connect Four has no
       chance event, so the seed changes nothing in a game. */
    c4_init(state, opt->first_player >= 0 ? opt->first_player : 0);
    return 0;
}

static void api_copy(void *dst, const void *src) { memcpy(dst, src, sizeof(c4_state_t)); }
static int api_to_move(const void *state) { return ((const c4_state_t *)state)->to_move; }
static int api_player_count(const void *state)
{
    (void)state;
    return 2;
}

static void api_result(const void *state, double *res)
{
    int w = ((const c4_state_t *)state)->winner;
    res[0] = w < 0 ? 0.5 : w == 0;
    res[1] = w < 0 ? 0.5 : w == 1;
}

static uint64_t api_hash(const void *state) { return ((const c4_state_t *)state)->hash; }
static void api_move_to_text(const void *state, move_t m, char *buf)
{
    (void)state;
    buf[0] = (char)('1' + m);
    buf[1] = '\0';
}

/* The board, top row first: X the first player's stones, O the other's, . empty. */
static void api_board_text(const void *state, char *buf, size_t len)
{
    const c4_state_t *s = state;
    char text[(C4_COLUMNS + 1) * (C4_ROWS + 1) + 1], *t = text;
    for (int r = C4_ROWS - 1; r >= 0; r--) {
        for (int c = 0; c < C4_COLUMNS; c++) {
            uint64_t bit = 1ULL << (7 * c + r);
            *t++ = (s->stones[s->first_player] & bit)       ? 'X'
                   : (s->stones[s->first_player ^ 1] & bit) ? 'O'
                                                            : '.';
        }
        *t++ = '\n';
    }
    memcpy(t, "1234567\n", 9);
    snprintf(buf, len, "%s", text);
}

const game_api_t connect4_api = {
    .name = "connect4",
    .flags = GAME_PERFECT_INFO,
    .min_players = 2,
    .max_players = 2,
    .state_size = sizeof(c4_state_t),
    .undo_size = sizeof(c4_undo_t),
    .new_game = api_new_game,
    .copy = api_copy,
    .gen_moves = c4_gen_moves,
    .make = c4_make,
    .undo = c4_undo,
    .is_terminal = c4_is_over,
    .to_move = api_to_move,
    .player_count = api_player_count,
    .result = api_result,
    .hash = api_hash,
    .hash_full = c4_hash_full,
    .move_to_text = api_move_to_text,
    .move_from_text = c4_move_from_text,
    .determinize = game_determinize_none,
    .playout = c4_playout,
    .check = c4_check,
    .record = &c4_record_hooks,
    .ranks = c4_ranks,
    .board_text = api_board_text,
    .diagram = c4_diagram,
    .move_describe = c4_move_describe,
    .position_write = c4_position_write,
    .position_read = c4_position_read,
    .action_count = c4_action_count,
    .move_action = c4_move_action,
    .observation_size = c4_observation_size,
    .observation = c4_observation,
    .solver_new = c4_api_solver_new,
    .solver_free = c4_api_solver_free,
    .solve = c4_api_solve,
};
