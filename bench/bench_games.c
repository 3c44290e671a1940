/*
 * The bench's entry of each game, keyed by the game's name: its cases (a player count, a
 * seed and how much work each figure gets) and its speed goals (bench/BENCH.md). The rules
 * (core/) know nothing of the bench; a game without an entry has no bench rows. Cases are
 * set so the whole bench takes 10-30 s on a 2-core machine.
 */
#include "bench/bench.h"

#include <string.h>

#define COUNT(a) (int)(sizeof(a) / sizeof(a)[0])

/* Cases: label, players, option, seed, mid_plies, max_depth, perft_leaves, playouts,
   mcts_iterations, signature_iterations. */
static const bench_case_spec_t towerup_cases[] = {
    {"towerup-2p", 2, "board=duo", 1002, 16, 6, 8000000, 15000, 100000, 1000},
    {"towerup-3p", 3, "board=standard", 1003, 20, 6, 8000000, 10000, 50000, 1000},
    {"towerup-4p", 4, "board=standard", 1004, 24, 6, 8000000, 8000, 40000, 1000},
};
static const bench_goal_spec_t towerup_goals[] = {
    {"towerup-4p random games/s", "towerup-4p", BENCH_FIGURE_GAMES, 20000, false},
    {"towerup perft bulk Mleaves/s", NULL, BENCH_FIGURE_BULK, 100, false},
};

static const bench_case_spec_t uptown_cases[] = {
    {"uptown-2p", 2, NULL, 2002, 16, 6, 80000000, 8000, 20000, 1000},
    {"uptown-3p", 3, NULL, 2003, 18, 6, 80000000, 15000, 32000, 1000},
    {"uptown-4p", 4, NULL, 2004, 20, 6, 80000000, 10000, 24000, 1000},
    {"uptown-5p", 5, NULL, 2005, 20, 6, 80000000, 8000, 18000, 1000},
};
static const bench_goal_spec_t uptown_goals[] = {
    {"uptown-3p random games/s", "uptown-3p", BENCH_FIGURE_GAMES, 50000, false},
    {"uptown perft bulk Mleaves/s", NULL, BENCH_FIGURE_BULK, 100, false},
};

static const bench_case_spec_t connect4_cases[] = {
    {"connect4", 2, NULL, 4002, 4, 10, 8000000, 2000000, 20000, 1000},
};
/* About 25 and 10 times OpenSpiel's rates on this kind of machine (some 110,000 random
   games/s and MCTSBot simulations/s, measured side by side: docs/RESULTS.md); the MCTS
   figure here is the mid position's, a proxy for the side-by-side ratio. */
static const bench_goal_spec_t connect4_goals[] = {
    {"connect4 random games/s", "connect4", BENCH_FIGURE_GAMES, 3000000, true},
    {"connect4 MCTS iterations/s", "connect4", BENCH_FIGURE_MCTS, 1150000, true},
};

static const bench_game_t bench_game_table[] = {
    {"towerup", towerup_cases, COUNT(towerup_cases), towerup_goals, COUNT(towerup_goals)},
    {"uptown", uptown_cases, COUNT(uptown_cases), uptown_goals, COUNT(uptown_goals)},
    {"connect4", connect4_cases, COUNT(connect4_cases), connect4_goals, COUNT(connect4_goals)},
};

const bench_game_t *bench_game_for(const game_api_t *api)
{
    for (int i = 0; api && i < COUNT(bench_game_table); i++)
        if (!strcmp(bench_game_table[i].game, api->name))
            return &bench_game_table[i];
    return NULL;
}
