/*
 * The fit (arena/fit.h): on positions of real games labelled by the heuristic's own
 * evaluation with known weights (through the link, plus noise), it finds the link's scale
 * and gets back near the known weights from other start values; the same fit gives the
 * same bits with 1 or 2 threads and when stopped, checkpointed and resumed; duplicates
 * are merged with their labels averaged; a checkpoint of other inputs is refused; a
 * record whose chance events the engine would not draw is rebuilt from the record.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena/fit.h"
#include "bots/heuristic.h"
#include "core/record.h"
#include "core/rng.h"
#include "tests/test.h"

/* Adds the non-terminal positions of `games` random games of api to d, unlabelled (0). */
static void random_positions(fit_data_t *d, int games, uint64_t seed)
{
    const game_api_t *api = d->api;
    unsigned char *s = calloc(1, api->state_size);
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    double zero[GAME_MAX_PLAYERS] = {0};
    pcg32_t rng;
    pcg32_seed(&rng, seed, 7);
    for (int g = 0; g < games; g++) {
        game_options_t opt;
        game_options_default(&opt);
        opt.players = d->players;
        opt.seed = seed + (uint64_t)g;
        char err[GAME_ERR_MAX];
        CHECK(api->new_game(s, &opt, err, sizeof err) == 0);
        int n;
        while ((n = api->gen_moves(s, moves)) > 0) {
            CHECK(fit_data_add(d, s, zero) == 0);
            api->make(s, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
        }
    }
    free(s);
    free(moves);
}

/* Labels every position by the link of evaluate(w) at scale k, plus uniform noise. */
static void label(fit_data_t *d, const heuristic_t *h, const heur_params_t *w, double k,
                  double noise, uint64_t seed)
{
    pcg32_t rng;
    pcg32_seed(&rng, seed, 3);
    for (long i = 0; i < d->count; i++) {
        double v[GAME_MAX_PLAYERS];
        h->evaluate(d->states + (size_t)i * d->stride, w, v);
        for (int q = 0; q < d->players; q++) {
            double x = v[q] < 1e-6 ? 1e-6 : v[q] > 1 - 1e-6 ? 1 - 1e-6 : v[q];
            double z = log(x / (1 - x));
            double p = 1 / (1 + exp(-k * z)) + noise * (2 * pcg32_double(&rng) - 1);
            d->result[i * d->players + q] = (p < 0 ? 0 : p > 1 ? 1 : p) * d->games_of[i];
        }
    }
}

/* Fits weights names[n] (bounds from the heuristic) from start. */
static void config(fit_config_t *cfg, const heuristic_t *h, const heur_params_t *start,
                   const char *const *names, int n)
{
    fit_config_default(cfg, h);
    cfg->start = *start;
    cfg->count = n;
    for (int c = 0; c < n; c++) {
        int x = heur_param_find(h, names[c]);
        CHECK(x >= 0);
        cfg->index[c] = x;
        cfg->lo[c] = h->params[x].lo;
        cfg->hi[c] = h->params[x].hi;
    }
    cfg->batch = 256;
    cfg->lr = 0.03;
    cfg->l2 = 0;
    cfg->epochs = 40;
    cfg->seed = 11;
}

static const char *const tu_names[] = {"eval_roof", "eval_temp", "floor"};

static void test_recovery(const game_api_t *api)
{
    const heuristic_t *h = heuristic_for(api);
    fit_data_t d;
    CHECK(fit_data_init(&d, api, 3) == 0);
    random_positions(&d, 20, 100);
    CHECK_MSG(d.count > 800, "%ld positions", d.count);
    heur_params_t truth, start;
    heur_params_default(h, &truth);
    heur_params_default(h, &start);
    double want[3] = {3.0, 7.0, 0.8};
    for (int c = 0; c < 3; c++)
        truth.value[heur_param_find(h, tu_names[c])] = want[c];

    /* K: labelled at the start weights with scale 1.7, the fit finds 1.7. */
    fit_config_t cfg;
    config(&cfg, h, &start, tu_names, 3);
    label(&d, h, &start, 1.7, 0.02, 5);
    fit_run_t run;
    char err[GAME_ERR_MAX];
    CHECK(fit_start(&run, &d, &cfg, err, sizeof err) == 0);
    CHECK_MSG(fabs(run.k - 1.7) < 0.05, "K %g, want 1.7", run.k);
    CHECK(run.held_count > 0 && run.held_count < d.count / 5);
    fit_run_free(&run);

    /* The weights: labelled with the known ones at K 1.3, fitted from the defaults. */
    label(&d, h, &truth, 1.3, 0.05, 6);
    cfg.k = 1.3;
    CHECK(fit_start(&run, &d, &cfg, err, sizeof err) == 0);
    for (int e = 0; e < cfg.epochs; e++)
        fit_epoch(&run, &d, &cfg);
    heur_params_t got;
    fit_weights(&run, &cfg, &got);
    for (int c = 0; c < 3; c++) {
        int x = heur_param_find(h, tu_names[c]);
        double range = h->params[x].hi - h->params[x].lo;
        CHECK_MSG(fabs(got.value[x] - want[c]) < 0.05 * range, "%s: fitted %g, known %g (start %g)",
                  tu_names[c], got.value[x], want[c], start.value[x]);
    }
    CHECK_MSG(run.held_loss < 0.5 * run.start_held, "held-out loss %g from %g", run.held_loss,
              run.start_held);
    /* Weights not fitted keep their start values. */
    CHECK(got.value[heur_param_find(h, "scale")] == start.value[heur_param_find(h, "scale")]);
    fit_run_free(&run);

    /* Of the weights, those evaluate reads are found; the move-score ones are not. */
    int active[HEUR_MAX_PARAMS];
    CHECK(fit_active_weights(&d, h, &start, active) > 3);
    CHECK(active[heur_param_find(h, "eval_temp")]);
    CHECK(!active[heur_param_find(h, "scale")]);
    CHECK(!active[heur_param_find(h, "take_base")]);
    fit_data_free(&d);
}

/* Runs epochs [from, to) of a fit from run's state. */
static void epochs(fit_run_t *run, const fit_data_t *d, const fit_config_t *cfg, int to)
{
    while (run->epoch < to)
        fit_epoch(run, d, cfg);
}

static void test_resume(const game_api_t *api, int players)
{
    const heuristic_t *h = heuristic_for(api);
    fit_data_t d;
    CHECK(fit_data_init(&d, api, players) == 0);
    random_positions(&d, 4, 300);
    heur_params_t start;
    heur_params_default(h, &start);
    int active[HEUR_MAX_PARAMS];
    fit_active_weights(&d, h, &start, active);
    fit_config_t cfg;
    fit_config_default(&cfg, h);
    for (int x = 0; x < h->param_count; x++)
        if (active[x]) {
            cfg.index[cfg.count] = x;
            cfg.lo[cfg.count] = h->params[x].lo;
            cfg.hi[cfg.count++] = h->params[x].hi;
        }
    CHECK(cfg.count > 0);
    label(&d, h, &start, 1.0, 0.4, 9);
    cfg.batch = 100;
    cfg.epochs = 4;
    char err[GAME_ERR_MAX];

    fit_run_t a, b;
    cfg.threads = 1;
    CHECK(fit_start(&a, &d, &cfg, err, sizeof err) == 0);
    epochs(&a, &d, &cfg, 4);

    char path[] = "/tmp/test_fit_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    cfg.threads = 2;
    CHECK(fit_start(&b, &d, &cfg, err, sizeof err) == 0);
    epochs(&b, &d, &cfg, 2);
    CHECK(fit_save(&b, &cfg, "tag1", path, err, sizeof err) == 0);
    fit_run_free(&b);
    CHECK(fit_start(&b, &d, &cfg, err, sizeof err) == 0);
    CHECK(fit_load(&b, &cfg, "tag2", path, err, sizeof err) == -1);
    CHECK(strstr(err, "different records or options") != NULL);
    CHECK(fit_load(&b, &cfg, "tag1", path, err, sizeof err) == 0);
    CHECK_EQ_INT(b.epoch, 2);
    epochs(&b, &d, &cfg, 4);
    CHECK(memcmp(a.u, b.u, sizeof a.u) == 0);
    CHECK(memcmp(&a.held_loss, &b.held_loss, sizeof a.held_loss) == 0);
    CHECK(a.step == b.step && a.step > 4);
    CHECK(a.train_loss < a.start_train);
    fit_run_free(&a);
    fit_run_free(&b);
    remove(path);
    CHECK(fit_load(&b, &cfg, "tag1", path, err, sizeof err) == 1);
    fit_data_free(&d);
}

/* An equal position twice is stored once, with the mean of its labels. */
static void test_merge(const game_api_t *api)
{
    fit_data_t d;
    CHECK(fit_data_init(&d, api, 2) == 0);
    unsigned char *s = calloc(1, api->state_size);
    game_options_t opt;
    game_options_default(&opt);
    opt.players = 2;
    opt.seed = 4;
    char err[GAME_ERR_MAX];
    CHECK(api->new_game(s, &opt, err, sizeof err) == 0);
    CHECK(fit_data_add(&d, s, (double[]){1, 0}) == 0);
    CHECK(fit_data_add(&d, s, (double[]){0.5, 0.5}) == 0);
    CHECK_EQ_INT(d.count, 1);
    CHECK_EQ_INT(d.seen, 2);
    CHECK(fit_data_label(&d, 0, 0) == 0.75 && fit_data_label(&d, 0, 1) == 0.25);
    free(s);
    fit_data_free(&d);
}

/*
 * A record whose reshuffles differ from what the engine would draw (its seed changed) is
 * rebuilt ply by ply from the record: the same positions as the record as written.
 */
static void test_rebuild(const game_api_t *api)
{
    unsigned char *s = calloc(1, api->state_size), *init = calloc(1, api->state_size);
    move_t *moves = malloc(4000 * sizeof *moves), legal[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    pcg32_t rng;
    pcg32_seed(&rng, 1, 2);
    json_t *rec = NULL;
    for (uint64_t seed = 1; seed < 40 && !rec; seed++) {
        game_options_t opt;
        game_options_default(&opt);
        opt.players = 2;
        opt.seed = seed;
        char err[GAME_ERR_MAX];
        CHECK(api->new_game(s, &opt, err, sizeof err) == 0);
        api->copy(init, s);
        int n = 0, k;
        while (n < 4000 && (k = api->gen_moves(s, legal)) > 0) {
            moves[n] = legal[pcg32_bounded(&rng, (uint32_t)k)];
            api->make(s, moves[n++], undo);
        }
        rec = record_new(api, init, &opt, moves, n, NULL, NULL);
        if (json_array_size(json_object_get(rec, "reshuffles")) == 0) {
            json_decref(rec);
            rec = NULL;
        }
    }
    CHECK(rec != NULL);
    fit_data_t a, b;
    char err[GAME_ERR_MAX];
    CHECK(fit_data_init(&a, api, 2) == 0 && fit_data_init(&b, api, 2) == 0);
    CHECK(fit_data_add_record(&a, rec, 1, err, sizeof err) == 0);
    json_object_set_new(rec, "seed", json_integer(987654321));
    CHECK(fit_data_add_record(&b, rec, 1, err, sizeof err) == 0);
    CHECK_EQ_INT(b.rebuilt, 1);
    CHECK(a.count == b.count && a.count > 10);
    CHECK(memcmp(a.key, b.key, (size_t)a.count * sizeof *a.key) == 0);
    /* Each kept position is the record's own at that ply. */
    for (long i = 0; i < b.count; i++) {
        CHECK(record_position(api, rec, (int)i, s, err, sizeof err) >= 0);
        CHECK(fit_data_key(api, s) == b.key[i]);
    }
    CHECK(fit_data_hash(&a) == fit_data_hash(&b));
    json_decref(rec);
    fit_data_free(&a);
    fit_data_free(&b);
    free(s);
    free(init);
    free(moves);
}

int main(void)
{
    const game_api_t *tu = game_find("towerup"), *ut = game_find("uptown");
    CHECK(tu && ut && heuristic_for(tu) && heuristic_for(ut));
    test_merge(tu);
    test_merge(ut);
    test_rebuild(tu);
    test_recovery(tu);
    test_resume(tu, 3);
    test_resume(ut, 2);
    return test_finish("test_fit");
}
