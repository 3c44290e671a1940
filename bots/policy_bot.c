/*
 * policy: the raw policy of a network (docs/NETS.md), no search: one network call per
 * move on the mover's observation, the legal moves' logits gathered. temp=0 (the default)
 * plays the move of the highest logit (the first of equal ones, in move order); temp=T > 0
 * draws a move from the softmax of logit / T with the bot's seeded random numbers. Keys:
 * net=FILE|NAME (required: a file path, or a shipped network's name, nn/nets.h), temp=T.
 *
 * The net must be for the game played (checked when the bot is made) and its player count
 * (play, tournament and generate check it before their games, bot_check_players; at a game's
 * start and at each move the bot faults and forfeits, as mcts:net= does).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/kinds.h"
#include "nn/nets.h"

/* Exit status when the net does not fit the game's player count. */

typedef struct policy {
    nn_net_t *net;      /* read-only after loading */
    nn_workspace_t *ws; /* for one position */
    const nn_info_t *info;
    double temp;                       /* 0: argmax */
    float *obs;                        /* the mover's observation, observation_size floats */
    int *ids;                          /* legal moves' action ids, GAME_MAX_MOVES */
    float *logits;                     /* their logits, GAME_MAX_MOVES */
    double *weights;                   /* softmax weights for temp > 0, GAME_MAX_MOVES */
    move_t *moves;                     /* the legal moves, GAME_MAX_MOVES */
    char net_value[BOT_SPEC_TEXT_MAX]; /* the net= value, for messages */
} policy_t;

static void policy_destroy(bot_t *b)
{
    policy_t *p = b->impl;
    if (!p)
        return;
    nn_workspace_free(p->ws);
    nn_net_free(p->net);
    free(p->obs);
    free(p->ids);
    free(p->logits);
    free(p->weights);
    free(p->moves);
    free(p);
    b->impl = NULL;
}

/* Reads the keys into p: 0, or -1 with err naming the bad one. */
static int policy_keys(policy_t *p, const bot_spec_t *spec, const char **net, char *err,
                       size_t errlen)
{
    *net = NULL;
    for (int k = 0; k < spec->key_count; k++) {
        const char *key = spec->keys[k], *value = spec->values[k];
        if (!strcmp(key, "net"))
            *net = value;
        else if (!strcmp(key, "temp")) {
            if (bot_spec_double(key, value, 0.0, 1e6, &p->temp, err, errlen))
                return -1;
        } else {
            snprintf(err, errlen, "unknown key '%s' (policy takes net=FILE|NAME and temp=T)", key);
            return -1;
        }
    }
    if (!*net) {
        snprintf(err, errlen,
                 "policy needs net=FILE|NAME (a network file or a shipped net's "
                 "name; docs/NETS.md)");
        return -1;
    }
    return 0;
}

static int policy_init(bot_t *b, const bot_spec_t *spec, char *err, size_t errlen)
{
    policy_t *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    b->impl = p;
    const char *net = NULL;
    if (policy_keys(p, spec, &net, err, errlen)) {
        policy_destroy(b);
        return -1;
    }
    snprintf(p->net_value, sizeof p->net_value, "%s", net);
    if (!(p->net = nn_net_open(net, b->api, 0, err, errlen))) {
        policy_destroy(b);
        return -1;
    }
    p->info = nn_net_info(p->net);
    p->ws = nn_workspace_new(p->net, 1);
    p->obs = malloc((size_t)p->info->observation_size * sizeof *p->obs);
    p->ids = malloc(GAME_MAX_MOVES * sizeof *p->ids);
    p->logits = malloc(GAME_MAX_MOVES * sizeof *p->logits);
    p->weights = malloc(GAME_MAX_MOVES * sizeof *p->weights);
    p->moves = malloc(GAME_MAX_MOVES * sizeof *p->moves);
    if (!p->ws || !p->obs || !p->ids || !p->logits || !p->weights || !p->moves) {
        snprintf(err, errlen, "out of memory");
        policy_destroy(b);
        return -1;
    }
    return 0;
}

/* True (and b faulted, so that it forfeits) if the net is not for players players. */
static bool policy_refuses(bot_t *b, int players)
{
    const policy_t *p = b->impl;
    if (players == p->info->players)
        return false;
    bot_fault(b, "exit", "net '%s': __metadata__.players: the net is for %d players, not %d",
              p->net_value, p->info->players, players);
    return true;
}

static int policy_check_players(const bot_t *b, int players, char *err, size_t errlen)
{
    const policy_t *p = b->impl;
    if (players == p->info->players)
        return 0;
    snprintf(err, errlen, "net '%s': __metadata__.players: the net is for %d players, not %d",
             p->net_value, p->info->players, players);
    return -1;
}

static void policy_begin(bot_t *b, const void *initial, const game_options_t *opt, int seat)
{
    (void)initial;
    (void)seat;
    policy_refuses(b, opt->players);
}

/* A move drawn from the softmax of logit / temp over the n moves. */
static int policy_sample(bot_t *b, policy_t *p, int n, int best)
{
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        p->weights[i] = exp(((double)p->logits[i] - p->logits[best]) / p->temp);
        sum += p->weights[i];
    }
    double u = pcg32_double(&b->rng) * sum;
    for (int i = 0; i < n; i++) {
        u -= p->weights[i];
        if (u < 0.0)
            return i;
    }
    return best; /* rounding left u at or above 0 */
}

/* The observation and the legal moves depend only on what the mover sees: the real state
   is used, never read beyond that. */
static move_t policy_choose(bot_t *b, const void *state)
{
    policy_t *p = b->impl;
    const game_api_t *api = b->api;
    int n = api->gen_moves(state, p->moves);
    if (!n)
        return 0; /* bot_choose never asks: no move to pick */
    if (b->fault[0] || policy_refuses(b, api->player_count(state)))
        return p->moves[0]; /* not played: the bot forfeits */
    for (int i = 0; i < n; i++)
        p->ids[i] = api->move_action(state, p->moves[i]);
    api->observation(state, api->to_move(state), p->obs);
    float values[GAME_MAX_PLAYERS];
    if (nn_eval(p->net, p->ws, p->obs, p->ids, n, p->logits, values)) {
        /* The game gave an action id outside its own action space: an engine bug. */
        bot_fault(b, "exit", "an action id outside the %s net's range", api->name);
        return p->moves[0];
    }
    int best = 0;
    for (int i = 1; i < n; i++)
        if (p->logits[i] > p->logits[best])
            best = i;
    if (p->temp > 0.0 && n > 1)
        best = policy_sample(b, p, n, best);
    return p->moves[best];
}

const bot_kind_t bot_kind_policy = {
    .name = "policy",
    .help = "policy: a network's raw policy, no search, one network call per move; keys: "
            "net=FILE|NAME (required), temp=T (softmax of logits, 0 = argmax)",
    .init = policy_init,
    .choose = policy_choose,
    .destroy = policy_destroy,
    .begin = policy_begin,
    .check_players = policy_check_players,
};
