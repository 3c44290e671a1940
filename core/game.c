#include "game.h"

#include <stdio.h>
#include <string.h>

const game_api_t *game_find(const char *name)
{
    for (int i = 0; name && i < game_count(); i++)
        if (!strcmp(name, game_at(i)->name))
            return game_at(i);
    return NULL;
}

const char *game_names(char *buf, size_t len, const char *sep)
{
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < game_count() && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? sep : "", game_at(i)->name);
    return buf;
}

unsigned game_caps(const game_api_t *api)
{
    unsigned caps = api->flags;
    if (api->position_write && api->position_read)
        caps |= GAME_CAP_NOTATION;
    if (api->action_count && api->move_action && api->observation_size && api->observation)
        caps |= GAME_CAP_ACTIONS;
    if (api->solver_new && api->solver_free && api->solve)
        caps |= GAME_CAP_SOLVER;
    if (api->diagram && api->move_describe)
        caps |= GAME_CAP_DIAGRAM;
    return caps;
}

void game_determinize_none(void *state, int observer, pcg32_t *rng)
{
    (void)state, (void)observer, (void)rng;
}

void game_ranks(const game_api_t *api, const void *state, int *ranks)
{
    if (api->ranks) {
        api->ranks(state, ranks);
        return;
    }
    int n = api->player_count(state);
    double res[GAME_MAX_PLAYERS];
    api->result(state, res);
    for (int i = 0; i < n; i++) {
        ranks[i] = 1;
        for (int j = 0; j < n; j++)
            ranks[i] += res[j] > res[i];
    }
}

void game_options_default(game_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->first_player = -1;
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

int game_action_move(const game_api_t *api, const void *state, int action, move_t *m)
{
    if (!api->move_action || action < 0)
        return -1;
    move_t moves[GAME_MAX_MOVES];
    int n = api->gen_moves(state, moves);
    for (int i = 0; i < n; i++)
        if (api->move_action(state, moves[i]) == action) {
            *m = moves[i];
            return 0;
        }
    return -1;
}
