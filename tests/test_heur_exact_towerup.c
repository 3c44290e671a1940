/*
 * The Tower Up heuristic gives the same move scores and values, bit for bit, as its
 * reference copy (tests/heur_ref/towerup.c), on every position of seeded random games of
 * 2 (both boards), 3 and 4 players, with the default and random weights.
 * `test_heur_exact_towerup N` plays N games per case instead of the default.
 */
#define heuristic_towerup heuristic_towerup_ref
#include "tests/heur_ref/towerup.c"
#undef heuristic_towerup

#include "tests/heur_exact.h"

extern const heuristic_t heuristic_towerup;

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 100;
    static const struct {
        int players;
        const char *option[2];
    } cases[] = {
        {2, {"board=duo", NULL}},
        {2, {"board=standard", NULL}},
        {3, {NULL, NULL}},
        {4, {NULL, NULL}},
        {3, {"setup=random", "objectives=random"}},
        {4, {"start_floors=5", "objectives=random"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        game_options_t opt;
        game_options_default(&opt);
        opt.players = cases[i].players;
        char err[GAME_ERR_MAX];
        for (int j = 0; j < 2 && cases[i].option[j]; j++)
            CHECK(game_options_add(&opt, cases[i].option[j], err, sizeof err) == 0);
        long n = heur_exact_games(&heuristic_towerup, &heuristic_towerup_ref, opt, games,
                                  1000 * (uint64_t)(i + 1));
        printf("towerup %dp %s %s: %ld positions\n", cases[i].players,
               cases[i].option[0] ? cases[i].option[0] : "",
               cases[i].option[1] ? cases[i].option[1] : "", n);
        CHECK(n > 1000);
    }
    return test_finish("test_heur_exact_towerup");
}
