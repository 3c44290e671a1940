#include "game.h"

#include <string.h>

const game_api_t *game_find(const char *name)
{
    if (!strcmp(name, towerup_api.name))
        return &towerup_api;
    if (!strcmp(name, uptown_api.name))
        return &uptown_api;
    return NULL;
}

void game_options_default(game_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->first_player = -1;
    opt->start_floors = 3;
}

void game_result_from_ranks(int players, const int *ranks, double *res)
{
    for (int i = 0; i < players; i++) {
        int beaten = 0, tied = 0;
        for (int j = 0; j < players; j++) {
            if (j == i)
                continue;
            beaten += ranks[j] > ranks[i];
            tied += ranks[j] == ranks[i];
        }
        res[i] = players > 1 ? (beaten + 0.5 * tied) / (players - 1) : 1.0;
    }
}

void game_ranks_from_keys(int players, const int *primary, const int *secondary, int *ranks)
{
    for (int i = 0; i < players; i++) {
        int better = 0;
        for (int j = 0; j < players; j++)
            better += primary[j] > primary[i] ||
                      (primary[j] == primary[i] && secondary[j] > secondary[i]);
        ranks[i] = 1 + better;
    }
}
