/* Plays one seeded random game of each built-in game through the installed library:
 * what a program of its own needs to use Skyline's game interface and bots. */
#include <stdio.h>
#include <stdlib.h>

#include "core/game.h"
#include "core/rng.h"

int main(void)
{
    const char *games[] = {"towerup", "uptown"};
    for (int g = 0; g < 2; g++) {
        const game_api_t *api = game_find(games[g]);
        if (!api) {
            fprintf(stderr, "consumer: no game %s\n", games[g]);
            return 1;
        }
        game_options_t opt;
        game_options_default(&opt);
        opt.players = 3;
        opt.seed = 42;
        char err[256];
        void *s = malloc(api->state_size);
        if (!s || api->new_game(s, &opt, err, sizeof err) != 0) {
            fprintf(stderr, "consumer: %s\n", err);
            return 1;
        }
        pcg32_t rng;
        pcg32_seed(&rng, 7, 1);
        void *undo = malloc(api->undo_size);
        move_t moves[GAME_MAX_MOVES];
        int plies = 0, n;
        while ((n = api->gen_moves(s, moves)) > 0) {
            api->make(s, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
            plies++;
        }
        printf("%s: a random game of %d plies\n", games[g], plies);
        free(undo);
        free(s);
    }
    return 0;
}
