/*
 * heuristic: plays from the game heuristic's move scores, without looking ahead. Keys:
 * params=FILE (weights), any weight name (overrides the file and the defaults, whatever the
 * key order), temp=T (0: argmax with random tie-break; > 0: softmax of score / T), eps=E
 * (a share E of the moves uniformly random: exploration for generating training records).
 * score_moves reads only what the player to move sees, so the real state is scored.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/heuristic.h"
#include "bots/kinds.h"
#include "core/input.h"

/* Scores closer than this count as equal. */
#define HEURISTIC_TIE_EPS 1e-12

typedef struct heuristic_bot {
    const heuristic_t *h; /* the game's heuristic */
    heur_params_t w;      /* its weights */
    double temp;          /* softmax temperature, 0: argmax */
    double eps;           /* share of uniformly random moves, 0: none */
    move_t *moves;        /* legal moves, GAME_MAX_MOVES entries */
    double *scores;       /* their scores, GAME_MAX_MOVES entries */
} heuristic_bot_t;

static void heuristic_destroy(bot_t *b)
{
    heuristic_bot_t *hb = b->impl;
    if (!hb)
        return;
    free(hb->moves);
    free(hb->scores);
    free(hb);
    b->impl = NULL;
}

static int heuristic_keys(bot_t *b, heuristic_bot_t *hb, const bot_spec_t *spec, char *err,
                          size_t errlen)
{
    const heuristic_t *h = hb->h;
    /* The file first, so that weights given as keys override it in any key order. */
    for (int k = 0; k < spec->key_count; k++)
        if (!strcmp(spec->keys[k], "params") &&
            heur_params_load(h, spec->values[k], &hb->w, err, errlen))
            return -1;
    for (int k = 0; k < spec->key_count; k++) {
        const char *key = spec->keys[k], *value = spec->values[k];
        int i;
        if (!strcmp(key, "params"))
            continue;
        if (!strcmp(key, "temp")) {
            if (bot_spec_double(key, value, 0.0, 1e9, &hb->temp, err, errlen))
                return -1;
        } else if (!strcmp(key, "eps")) {
            if (bot_spec_double(key, value, 0.0, 1.0, &hb->eps, err, errlen))
                return -1;
        } else if ((i = heur_param_find(h, key)) >= 0) {
            if (bot_spec_double(key, value, -HEUR_VALUE_MAX, HEUR_VALUE_MAX, &hb->w.value[i], err,
                                errlen))
                return -1;
        } else {
            char names[GAME_ERR_MAX], shown[INPUT_EXCERPT_MAX];
            heur_param_names(h, names, sizeof names);
            snprintf(err, errlen,
                     "unknown key '%s' (heuristic takes params=FILE, temp=T, eps=E and the %s "
                     "weights: %.380s)",
                     input_escape(key, shown, sizeof shown), b->api->name, names);
            return -1;
        }
    }
    return 0;
}

static int heuristic_init(bot_t *b, const bot_spec_t *spec, char *err, size_t errlen)
{
    const heuristic_t *h = heuristic_for(b->api);
    if (!h) {
        snprintf(err, errlen, "no heuristic for game '%s'", b->api->name);
        return -1;
    }
    heuristic_bot_t *hb = calloc(1, sizeof *hb);
    if (!hb) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    b->impl = hb;
    hb->h = h;
    heur_params_default(h, &hb->w);
    hb->moves = malloc(GAME_MAX_MOVES * sizeof *hb->moves);
    hb->scores = malloc(GAME_MAX_MOVES * sizeof *hb->scores);
    if (!hb->moves || !hb->scores) {
        snprintf(err, errlen, "out of memory");
        heuristic_destroy(b);
        return -1;
    }
    if (heuristic_keys(b, hb, spec, err, errlen)) {
        heuristic_destroy(b);
        return -1;
    }
    return 0;
}

static move_t heuristic_choose(bot_t *b, const void *state)
{
    heuristic_bot_t *hb = b->impl;
    int n = b->api->gen_moves(state, hb->moves);
    if (!n)
        return 0; /* bot_choose never asks: no move to pick */
    if (n == 1)
        return hb->moves[0];
    /* Drawn only with eps > 0, so that the default play is what it was without the key. */
    if (hb->eps > 0.0 && pcg32_double(&b->rng) < hb->eps)
        return hb->moves[pcg32_bounded(&b->rng, (uint32_t)n)];
    hb->h->score_moves(state, hb->moves, n, &hb->w, hb->scores);
    double top = hb->scores[0];
    int best = 0, ties = 1;
    for (int i = 1; i < n; i++) {
        double s = hb->scores[i];
        if (s > top + HEURISTIC_TIE_EPS) {
            top = s;
            best = i;
            ties = 1;
        } else if (s >= top - HEURISTIC_TIE_EPS) {
            /* Reservoir sampling: each tied move is equally likely. */
            if (pcg32_bounded(&b->rng, (uint32_t)++ties) == 0)
                best = i;
            if (s > top)
                top = s;
        }
    }
    if (hb->temp <= 0.0)
        return hb->moves[best];
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        hb->scores[i] = exp((hb->scores[i] - top) / hb->temp);
        sum += hb->scores[i];
    }
    double u = pcg32_double(&b->rng) * sum;
    for (int i = 0; i < n; i++) {
        u -= hb->scores[i];
        if (u < 0.0)
            return hb->moves[i];
    }
    return hb->moves[best];
}

const bot_kind_t bot_kind_heuristic = {
    .name = "heuristic",
    .help = "heuristic: best heuristic move score; keys: params=FILE, temp=T (softmax, 0 = "
            "argmax), eps=E (share of random moves), any weight name=value",
    .init = heuristic_init,
    .choose = heuristic_choose,
    .destroy = heuristic_destroy,
};
