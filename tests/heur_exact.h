#pragma once
/*
 * The differential check of tests/test_heur_exact_*.c: a game's heuristic against its
 * reference copy (tests/heur_ref/), on every position of seeded random games, with several
 * weight vectors. Every move's score and every value must be the same double, bit for bit.
 */
#include <stdlib.h>
#include <string.h>

#include "bots/heuristic.h"
#include "core/rng.h"
#include "tests/test.h"

/* Weight vector number k: 0 the defaults, then random ones within the tuning bounds, some
   weights at a bound or at zero (branches that test for a zero weight). */
static void heur_exact_weights(const heuristic_t *h, int k, pcg32_t *rng, heur_params_t *w)
{
    heur_params_default(h, w);
    if (k == 0)
        return;
    for (int i = 0; i < h->param_count; i++) {
        const heur_param_def_t *d = &h->params[i];
        uint32_t pick = pcg32_bounded(rng, 8);
        double u = pcg32_next(rng) / 4294967296.0;
        if (pick == 0)
            w->value[i] = d->lo;
        else if (pick == 1)
            w->value[i] = d->hi;
        else if (pick == 2 && d->lo <= 0 && d->name[0] != 's' && strncmp(d->name, "eval_", 5))
            w->value[i] = 0; /* never a divisor: scale and the eval_ temperatures */
        else if (k % 2)
            w->value[i] = d->lo + u * (d->hi - d->lo);
    }
}

static bool heur_exact_same(const double *a, const double *b, int n)
{
    return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

/*
 * Plays `games` seeded random games of api with options opt (seed replaced per game) and
 * compares fast against ref at every position (and at a determinization of it for the
 * player to move, as the search sees it). Returns the number of positions compared.
 */
static long heur_exact_games(const heuristic_t *fast, const heuristic_t *ref, game_options_t opt,
                             int games, uint64_t seed)
{
    const game_api_t *api = fast->api;
    void *s = malloc(api->state_size), *d = malloc(api->state_size);
    void *undo = malloc(api->undo_size ? api->undo_size : 1);
    static move_t moves[GAME_MAX_MOVES];
    static double a[GAME_MAX_MOVES], b[GAME_MAX_MOVES];
    double va[GAME_MAX_PLAYERS], vb[GAME_MAX_PLAYERS];
    char err[GAME_ERR_MAX];
    long positions = 0;
    pcg32_t rng;
    pcg32_seed(&rng, seed, 41);
    for (int g = 0; g < games; g++) {
        opt.seed = seed + (uint64_t)g;
        if (api->new_game(s, &opt, err, sizeof err)) {
            CHECK_MSG(0, "new_game: %s", err);
            break;
        }
        int n = api->player_count(s);
        for (int ply = 0;; ply++) {
            int count = api->gen_moves(s, moves);
            for (int view = 0; view < 2; view++) {
                const void *at = s;
                if (view == 1) {
                    if (!api->determinize || api->is_terminal(s))
                        break;
                    api->copy(d, s);
                    api->determinize(d, api->to_move(s), &rng);
                    at = d;
                }
                heur_params_t w;
                heur_exact_weights(fast, (g + ply + view) % 6, &rng, &w);
                int m = view ? api->gen_moves(at, moves) : count;
                if (m > 0) {
                    fast->score_moves(at, moves, m, &w, a);
                    ref->score_moves(at, moves, m, &w, b);
                    if (!heur_exact_same(a, b, m)) {
                        for (int i = 0; i < m; i++)
                            CHECK_MSG(a[i] == b[i] || (a[i] != a[i] && b[i] != b[i]),
                                      "%s %dp game %d ply %d view %d move %d: %.17g != %.17g",
                                      api->name, n, g, ply, view, i, a[i], b[i]);
                        goto done;
                    }
                }
                fast->evaluate(at, &w, va);
                ref->evaluate(at, &w, vb);
                if (!heur_exact_same(va, vb, n)) {
                    CHECK_MSG(0, "%s %dp game %d ply %d view %d: values differ", api->name, n, g,
                              ply, view);
                    goto done;
                }
                positions++;
            }
            if (count == 0)
                break;
            count = api->gen_moves(s, moves); /* moves held the determinization's */
            api->make(s, moves[pcg32_bounded(&rng, (uint32_t)count)], undo);
        }
    }
done:
    free(s);
    free(d);
    free(undo);
    return positions;
}
