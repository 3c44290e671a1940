/*
 * Perft counts stored in tests/perft.txt (Ethereal/Stockfish style), checked for both games:
 * any change to move generation, make/undo or the seeded set-up shows up here. Each line:
 *   GAME PLAYERS SEED SETUP D1 D2 D3 D4
 * SETUP is Tower Up's set-up (placed or random: with random the counts start after the
 * starting floors, in the first turns), - for Uptown.
 * Also checks that bulk counting and full make/undo agree, and that perft leaves the
 * state's bytes unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "tests/test.h"

int main(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/perft.txt", SKYLINE_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return test_finish("test_perft");
    char line[512];
    int cases = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char game[32], setup[16];
        int players;
        unsigned long long seed, want[4];
        if (sscanf(line, "%31s %d %llu %15s %llu %llu %llu %llu", game, &players, &seed, setup,
                   &want[0], &want[1], &want[2], &want[3]) != 8) {
            CHECK_MSG(0, "bad line in perft.txt: %s", line);
            continue;
        }
        const game_api_t *api = game_find(game);
        CHECK(api != NULL);
        if (!api)
            continue;
        game_options_t opt;
        game_options_default(&opt);
        opt.players = players;
        opt.seed = seed;
        opt.setup_random = !strcmp(setup, "random");
        void *state = malloc(api->state_size), *copy = malloc(api->state_size);
        char err[GAME_ERR_MAX];
        CHECK(api->new_game(state, &opt, err, sizeof err) == 0);
        memcpy(copy, state, api->state_size);
        for (int d = 1; d <= 4; d++) {
            uint64_t n = game_perft(api, state, d);
            CHECK_MSG(n == want[d - 1], "%s %d players seed %llu %s depth %d: %llu, stored %llu",
                      game, players, seed, setup, d, (unsigned long long)n, want[d - 1]);
        }
        CHECK(game_perft_full(api, state, 3) == want[2]);
        CHECK(memcmp(state, copy, api->state_size) == 0);
        free(state);
        free(copy);
        cases++;
    }
    fclose(f);
    CHECK(cases >= 8);
    return test_finish("test_perft");
}
