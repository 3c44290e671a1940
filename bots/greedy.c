/*
 * greedy: looks one move ahead. Each legal move is made on a determinization of the state
 * for the mover (a move may draw hidden cards or tiles, and the mover must not see which),
 * and the resulting position is valued by the game heuristic's evaluate for the mover (the
 * result itself if the game is over). Best value wins, ties at random. Keys: params=FILE,
 * temp=T (0: argmax; > 0: softmax of value / T), eps=E (a share E of the moves uniformly
 * random): exploration for generating training records.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/heuristic.h"
#include "bots/kinds.h"

/* Values closer than this count as equal. */
#define GREEDY_TIE_EPS 1e-12

typedef struct greedy {
    const heuristic_t *h; /* the game's heuristic */
    heur_params_t w;      /* its weights */
    double temp;          /* softmax temperature, 0: argmax */
    double eps;           /* share of uniformly random moves, 0: none */
    void *state;          /* the determinization moves are tried on */
    move_t *moves;        /* legal moves, GAME_MAX_MOVES entries */
    double *values;       /* their values for the mover, GAME_MAX_MOVES entries */
} greedy_t;

static void greedy_destroy(bot_t *b)
{
    greedy_t *g = b->impl;
    if (!g)
        return;
    free(g->state);
    free(g->moves);
    free(g->values);
    free(g);
    b->impl = NULL;
}

static int greedy_init(bot_t *b, const bot_spec_t *spec, char *err, size_t errlen)
{
    const heuristic_t *h = heuristic_for(b->api);
    if (!h) {
        snprintf(err, errlen, "no heuristic for game '%s'", b->api->name);
        return -1;
    }
    greedy_t *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    b->impl = g;
    g->h = h;
    heur_params_default(h, &g->w);
    g->state = malloc(b->api->state_size);
    g->moves = malloc(GAME_MAX_MOVES * sizeof *g->moves);
    g->values = malloc(GAME_MAX_MOVES * sizeof *g->values);
    if (!g->state || !g->moves || !g->values) {
        snprintf(err, errlen, "out of memory");
        greedy_destroy(b);
        return -1;
    }
    for (int k = 0; k < spec->key_count; k++) {
        const char *key = spec->keys[k], *value = spec->values[k];
        int rc = 0;
        if (!strcmp(key, "params"))
            rc = heur_params_load(h, value, &g->w, err, errlen);
        else if (!strcmp(key, "temp"))
            rc = bot_spec_double(key, value, 0.0, 1e9, &g->temp, err, errlen);
        else if (!strcmp(key, "eps"))
            rc = bot_spec_double(key, value, 0.0, 1.0, &g->eps, err, errlen);
        else {
            snprintf(err, errlen, "unknown key '%s' (greedy takes params=FILE, temp=T and eps=E)",
                     key);
            rc = -1;
        }
        if (rc) {
            greedy_destroy(b);
            return -1;
        }
    }
    return 0;
}

static move_t greedy_choose(bot_t *b, const void *state)
{
    greedy_t *g = b->impl;
    const game_api_t *api = b->api;
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    double values[GAME_MAX_PLAYERS];
    int me = api->to_move(state);
    api->copy(g->state, state);
    api->determinize(g->state, me, &b->rng);
    int n = api->gen_moves(g->state, g->moves);
    if (!n)
        return 0; /* bot_choose never asks: no move to pick */
    /* Drawn only with eps > 0, so that the default play is what it was without the key. */
    if (g->eps > 0.0 && n > 1 && pcg32_double(&b->rng) < g->eps)
        return g->moves[pcg32_bounded(&b->rng, (uint32_t)n)];
    int best = 0, ties = 0;
    double best_value = -1.0;
    for (int i = 0; i < n; i++) {
        api->make(g->state, g->moves[i], undo);
        if (api->is_terminal(g->state))
            api->result(g->state, values);
        else
            g->h->evaluate(g->state, &g->w, values);
        api->undo(g->state, g->moves[i], undo);
        double v = values[me];
        g->values[i] = v;
        if (i == 0 || v > best_value + GREEDY_TIE_EPS) {
            best = i;
            best_value = v;
            ties = 1;
        } else if (v >= best_value - GREEDY_TIE_EPS) {
            /* Reservoir sampling: each of the tied moves ends up chosen with equal odds. */
            ties++;
            if (pcg32_bounded(&b->rng, (uint32_t)ties) == 0)
                best = i;
        }
    }
    if (g->temp <= 0.0 || n == 1)
        return g->moves[best];
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        g->values[i] = exp((g->values[i] - best_value) / g->temp);
        sum += g->values[i];
    }
    double u = pcg32_double(&b->rng) * sum;
    for (int i = 0; i < n; i++) {
        u -= g->values[i];
        if (u < 0.0)
            return g->moves[i];
    }
    return g->moves[best];
}

const bot_kind_t bot_kind_greedy = {
    .name = "greedy",
    .help = "greedy: best heuristic value one move ahead, ties at random; keys: params=FILE, "
            "temp=T (softmax of values, 0 = argmax), eps=E (share of random moves)",
    .init = greedy_init,
    .choose = greedy_choose,
    .destroy = greedy_destroy,
};
