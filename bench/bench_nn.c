/*
 * The network figures of `skyline bench` (docs/NETS.md): evaluations/s of a random
 * "resmlp" net per case, one position at a time and BENCH_NN_BATCH at a time, on one
 * thread, and their share of the core's peak float rate measured by an FMA loop.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "nn/net.h"

/* Positions of seeded random games: observations of the mover, legal action ids. */
typedef struct positions {
    int count, total;
    float *obs;
    int n[BENCH_NN_POSITIONS];
    int *ids; /* every position's ids, one after the other */
} positions_t;

static int collect(const bench_case_t *c, int O, positions_t *p, char *err, size_t errlen)
{
    const game_api_t *api = c->api;
    void *s = malloc(api->state_size);
    p->obs = malloc(sizeof(float) * (size_t)O * BENCH_NN_POSITIONS);
    p->ids = malloc(sizeof(int) * (size_t)GAME_MAX_MOVES * BENCH_NN_POSITIONS);
    if (!s || !p->obs || !p->ids) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pcg32_t rng;
    pcg32_seed(&rng, c->spec.seed, 0x6e);
    move_t moves[GAME_MAX_MOVES];
    char undo[GAME_UNDO_MAX];
    p->count = p->total = 0;
    for (int g = 0; p->count < BENCH_NN_POSITIONS; g++) {
        game_options_t opt;
        game_options_default(&opt);
        opt.players = c->spec.players;
        opt.seed = c->spec.seed + (uint64_t)g;
        if (c->spec.option && game_options_add(&opt, c->spec.option, err, errlen))
            break;
        if (api->new_game(s, &opt, err, errlen))
            break;
        int n;
        while (p->count < BENCH_NN_POSITIONS && (n = api->gen_moves(s, moves)) > 0) {
            if (pcg32_bounded(&rng, 4) == 0) { /* a quarter of the positions along the game */
                for (int i = 0; i < n; i++)
                    p->ids[p->total + i] = api->move_action(s, moves[i]);
                api->observation(s, api->to_move(s), p->obs + (size_t)p->count * O);
                p->n[p->count++] = n;
                p->total += n;
            }
            api->make(s, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
        }
    }
    free(s);
    return p->count == BENCH_NN_POSITIONS ? 0 : -1;
}

int bench_nn_case(const bench_case_t *c, bool quick, const char *save_dir,
                  const struct nn_net *given, bench_nn_result_t *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->bcase = c;
    nn_net_t *own =
        given ? NULL
              : nn_net_random(c->api, c->spec.players, BENCH_NN_WIDTH, BENCH_NN_DEPTH, c->spec.seed,
                              "random weights", "skyline bench", err, errlen);
    const nn_net_t *net = given ? given : own;
    if (!net)
        return -1;
    int O = nn_net_info(net)->observation_size, rc = -1;
    r->observation_size = O;
    positions_t p = {0};
    nn_workspace_t *ws = nn_workspace_new(net, BENCH_NN_BATCH);
    float *logits = malloc(sizeof(float) * (size_t)GAME_MAX_MOVES * BENCH_NN_POSITIONS);
    float value[BENCH_NN_BATCH * GAME_MAX_PLAYERS];
    if (save_dir && own) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s-%dp.net", save_dir, c->api->name, c->spec.players);
        if (nn_net_save(net, path, err, errlen))
            goto done;
    }
    if (!ws || !logits || collect(c, O, &p, err, errlen))
        goto done;
    r->mean_moves = (double)p.total / p.count;
    for (int i = 0; i < p.count; i++)
        r->flops1 += nn_eval_flops(net, 1, p.obs + (size_t)i * O, &p.n[i]) / p.count;
    r->flops_batch = nn_eval_flops(net, BENCH_NN_BATCH, p.obs, p.n) / BENCH_NN_BATCH;
    double least = quick ? 0.05 : 0.3;
    /* One at a time, round the positions, until `least` seconds have passed. */
    double t0 = bench_now();
    do {
        for (int i = 0, at = 0; i < p.count; at += p.n[i], i++)
            nn_eval(net, ws, p.obs + (size_t)i * O, p.ids + at, p.n[i], logits, value);
        r->evals1 += p.count;
    } while ((r->seconds1 = bench_now() - t0) < least);
    t0 = bench_now();
    do {
        nn_eval_batch(net, ws, BENCH_NN_BATCH, p.obs, p.n, p.ids, logits, value);
        r->evals_batch += BENCH_NN_BATCH;
    } while ((r->seconds_batch = bench_now() - t0) < least);
    rc = 0;
done:
    if (rc && !err[0])
        snprintf(err, errlen, "bench: no %d positions for the network figures of %s",
                 BENCH_NN_POSITIONS, c->spec.label);
    free(p.obs);
    free(p.ids);
    free(logits);
    nn_workspace_free(ws);
    nn_net_free(own);
    return rc;
}

static double rate(long n, double s) { return s > 0 ? (double)n / s : 0; }

void bench_nn_print(FILE *out, const bench_report_t *rep)
{
    if (!rep->nn_count)
        return;
    double peak = rep->nn_peak_flops;
    fprintf(out,
            "\nnetwork: resmlp width %d depth %d, %s, one thread, %s kernel;\n"
            "peak %.1f GFLOP/s (FMA loop)\n",
            rep->nn_width, rep->nn_depth, rep->nn_weights, rep->nn_isa, peak / 1e9);
    fprintf(out, "%-12s %6s %6s %10s %7s %6s %10s %7s %6s\n", "case", "obs", "moves", "evals/s b1",
            "GFLOP/s", "peak", "evals/s b64", "GFLOP/s", "peak");
    for (int i = 0; i < rep->nn_count; i++) {
        const bench_nn_result_t *r = &rep->nn[i];
        double e1 = rate(r->evals1, r->seconds1), eb = rate(r->evals_batch, r->seconds_batch);
        fprintf(out, "%-12s %6d %6.1f %10.0f %7.2f %5.1f%% %10.0f %7.2f %5.1f%%\n",
                r->bcase->spec.label, r->observation_size, r->mean_moves, e1, e1 * r->flops1 / 1e9,
                100 * e1 * r->flops1 / peak, eb, eb * r->flops_batch / 1e9,
                100 * eb * r->flops_batch / peak);
    }
    fprintf(out, "obs: observation floats; moves: legal moves (logits) per position; GFLOP/s: "
                 "the float operations\ndone (one at a time, the observation's zeros are "
                 "skipped); peak: their share of the FMA\nloop's rate. PyTorch on the same "
                 "weights: scripts/nn_torch_bench.py (docs/NETS.md).\n");
}

json_t *bench_nn_json(const bench_report_t *rep)
{
    json_t *o = json_pack("{s:s, s:i, s:i, s:i, s:f, s:s}", "kernel", rep->nn_isa, "width",
                          rep->nn_width, "depth", rep->nn_depth, "batch", BENCH_NN_BATCH,
                          "peak_flops", rep->nn_peak_flops, "weights", rep->nn_weights);
    json_t *arr = json_array();
    for (int i = 0; i < rep->nn_count; i++) {
        const bench_nn_result_t *r = &rep->nn[i];
        double e1 = rate(r->evals1, r->seconds1), eb = rate(r->evals_batch, r->seconds_batch);
        json_array_append_new(
            arr, json_pack("{s:s, s:s, s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "case",
                           r->bcase->spec.label, "game", r->bcase->api->name, "players",
                           r->bcase->spec.players, "observation_size", r->observation_size, "moves",
                           r->mean_moves, "flops_batch1", r->flops1, "evals_per_s_batch1", e1,
                           "flops_batch64", r->flops_batch, "evals_per_s_batch64", eb,
                           "peak_share_batch1", e1 * r->flops1 / rep->nn_peak_flops,
                           "peak_share_batch64", eb * r->flops_batch / rep->nn_peak_flops));
    }
    json_object_set_new(o, "cases", arr);
    return o;
}
