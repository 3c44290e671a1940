/*
 * Bots and matches in a position that is not over yet has no legal move (the engines
 * rule it out; a broken game table stands in for such an engine here): each bot kind
 * returns without dividing by zero, bot_choose returns BOT_NO_MOVE with the bot faulted
 * and one line saying why (the process goes on: the library never exits), match_play
 * returns an error naming the move.
 */
#include <string.h>

#include "arena/match.h"
#include "bots/bot.h"
#include "core/towerup/towerup.h"
#include "tests/test.h"

static int no_moves(const void *state, move_t *moves)
{
    (void)state;
    (void)moves;
    return 0;
}

static bool never_over(const void *state)
{
    (void)state;
    return false;
}

int main(void)
{
    game_api_t broken = towerup_api;
    broken.gen_moves = no_moves;
    broken.is_terminal = never_over;
    game_options_t o;
    game_options_default(&o);
    o.players = 2;
    o.seed = 2;
    towerup_state_t s;
    char err[GAME_ERR_MAX];
    CHECK(towerup_new_game(&s, &o, err, sizeof err) == 0);
    const char *specs[] = {"random", "greedy", "heuristic", "heuristic:temp=0.5", "mcts:iters=50"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        bot_t *b = bot_new(&broken, specs[i], 1, err, sizeof err);
        CHECK_MSG(b != NULL, "%s", err);
        if (!b)
            continue;
        /* The kind itself, called directly: no crash, no move. */
        move_t m = b->kind->choose(b, &s);
        CHECK_MSG(m == 0 || !strncmp(specs[i], "mcts", 4), "%s gave %u", specs[i], m);
        char line[512];
        CHECK(!bot_faulted(b, line, sizeof line));
        CHECK_MSG(bot_choose(b, &s) == BOT_NO_MOVE, "%s", specs[i]);
        CHECK_MSG(bot_faulted(b, line, sizeof line) && strstr(line, "no legal move") &&
                      strstr(line, "not over") && !strchr(line, '\n'),
                  "%s: '%s'", specs[i], line);
        bot_reset(b, 2); /* clears the fault */
        CHECK(!bot_faulted(b, line, sizeof line));
        bot_free(b);
    }
    bot_t *bots[2];
    for (int i = 0; i < 2; i++)
        bots[i] = bot_new(&broken, "random", (uint64_t)i, err, sizeof err);
    match_result_t r;
    CHECK(match_play(&broken, &o, bots, true, &r, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "no legal move at move 0") != NULL, "%s", err);
    for (int i = 0; i < 2; i++)
        bot_free(bots[i]);
    return test_finish("test_bots_dead_end");
}
