/* The C API's information-state tensor (api/skyline_api.h, docs/PYTHON.md): the
   observation tensor followed by the public move history of the state's move log. */
#include <stdio.h>
#include <string.h>

#include "api/internal.h"

/* Bits of an action id: the fewest b with 2^b >= count. */
static int action_bits(int count)
{
    int b = 0;
    while (b < 31 && (1L << b) < count)
        b++;
    return b;
}

/* Floats of one history slot. */
static int slot_size(const game_api_t *api, int players)
{
    return 1 + api->max_players + action_bits(api->action_count(players));
}

/* Checks that api's game has the parts the tensor needs and that history is in range: 0,
   or -1 with err filled. */
static int check_parts(const game_api_t *api, int history, char *err, int errlen)
{
    const char *missing = !api->observation   ? "observation tensor"
                          : !api->move_action ? "action space"
                                              : NULL;
    if (missing) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "%s has no %s, so no information-state tensor", api->name,
                     missing);
        return -1;
    }
    if (history < 0 || history > SKY_HISTORY_MAX) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "history must be 0..%d plies, not %d", SKY_HISTORY_MAX,
                     history);
        return -1;
    }
    return 0;
}

static int info_size(const game_api_t *api, int players, int history)
{
    return api->observation_size(players) + history * slot_size(api, players) + 1;
}

int sky_information_state_size(const char *game, int players, int history, char *err, int errlen)
{
    const game_api_t *api = sky_game(game, err, errlen);
    if (!api || check_parts(api, history, err, errlen))
        return -1;
    if (players < api->min_players || players > api->max_players) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "%s is played by %d to %d players, not %d", api->name,
                     api->min_players, api->max_players, players);
        return -1;
    }
    return info_size(api, players, history);
}

int sky_state_information_state(const sky_state_t *st, int player, int history, float *out, int max,
                                char *err, int errlen)
{
    const game_api_t *api = sky_state_api(st);
    const void *s = sky_state_raw(st);
    int players = api->player_count(s);
    if (check_parts(api, history, err, errlen))
        return -1;
    if (player < 0 || player >= players) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "player %d out of range 0..%d", player, players - 1);
        return -1;
    }
    int n = info_size(api, players, history);
    if (n > max) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "information-state buffer too small (%d for %d)", max, n);
        return -1;
    }
    int obs = api->observation_size(players), slot = slot_size(api, players);
    int bits = action_bits(api->action_count(players));
    api->observation(s, player, out);
    float *o = out + obs;
    memset(o, 0, (size_t)(n - obs) * sizeof *o);
    const sky_ply_t *log;
    int plies = sky_state_log(st, &log);
    for (int i = 0; i < history && i < plies; i++, o += slot) {
        const sky_ply_t *p = &log[plies - 1 - i];
        o[0] = 1.0f;
        if (p->mover >= 0 && p->mover < api->max_players)
            o[1 + p->mover] = 1.0f;
        for (int b = 0; b < bits; b++)
            o[1 + api->max_players + b] = (float)((unsigned)p->action >> b & 1u);
    }
    out[n - 1] = (float)(plies < SKY_HISTORY_MAX ? plies : SKY_HISTORY_MAX) / SKY_HISTORY_MAX;
    return n;
}
