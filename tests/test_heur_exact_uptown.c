/*
 * The Uptown heuristic gives the same move scores and values, bit for bit, as its reference
 * copy (tests/heur_ref/uptown.c), on every position of seeded random games of 2 to 5
 * players, with the default and random weights.
 * `test_heur_exact_uptown N` plays N games per player count instead of the default.
 */
#define heuristic_uptown heuristic_uptown_ref
#include "tests/heur_ref/uptown.c"
#undef heuristic_uptown

#include "tests/heur_exact.h"

extern const heuristic_t heuristic_uptown;

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 60;
    for (int players = 2; players <= 5; players++) {
        game_options_t opt;
        game_options_default(&opt);
        opt.players = players;
        long n = heur_exact_games(&heuristic_uptown, &heuristic_uptown_ref, opt, games,
                                  7000 + 100 * (uint64_t)players);
        printf("uptown %dp: %ld positions\n", players, n);
        CHECK(n > 1000);
    }
    return test_finish("test_heur_exact_uptown");
}
