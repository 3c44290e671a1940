/* The bench cases and the measurements of one case. */
#include "bench/bench.h"
#include "nn/net.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench_ref.h"
#include "bots/heuristic.h"
#include "bots/mcts_bot.h"
#include "search/mcts_bench.h"

/* Distinct seeded starts that the timed random games cycle through. */
#define BENCH_PLAYOUT_STARTS 32
/* Longest seeded game the bench follows (Tower Up stops at 400 turns). */
#define BENCH_LINE_MAX 4096
/* Positions listed by the fast generator, and by the reference, at full size. */
#define BENCH_GEN_FAST_CALLS 2000000
#define BENCH_GEN_REF_CALLS  40000
/* Moves tried by copy-make, and by make/undo, at full size. */
#define BENCH_CHILD_MOVES 4000000

static bench_case_t bench_case_table[BENCH_MAX_CASES];
static int bench_case_total = -1;

const bench_case_t *bench_cases(int *count)
{
    if (bench_case_total < 0) {
        int n = 0;
        for (int g = 0; g < game_count(); g++) {
            const game_api_t *api = game_at(g);
            const bench_game_t *bg = bench_game_for(api);
            for (int k = 0; bg && k < bg->case_count && n < BENCH_MAX_CASES; k++) {
                const bench_case_spec_t *gc = &bg->cases[k];
                bench_case_table[n++] = (bench_case_t){.spec = *gc, .api = api};
            }
        }
        bench_case_total = n;
    }
    *count = bench_case_total;
    return bench_case_table;
}

double bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_thread_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_load_average(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double load = -1.0;
    if (f) {
        if (fscanf(f, "%lf", &load) != 1)
            load = -1.0;
        fclose(f);
    }
    return load;
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What one case works on: its seeded game and the positions along it. */
typedef struct bench_work {
    const game_api_t *api; /* the game */
    game_options_t opt;    /* options of the seeded game */
    unsigned char *start;  /* the seeded start position */
    int plies;             /* moves of the seeded random game */
    move_t *line;          /* those moves */
    unsigned char *states; /* the plies + 1 positions along the game, state_size each */
    long child_count;      /* legal moves summed over those positions (the last has 0) */
    move_t *children;      /* the legal moves of each position, one after another */
    int *child_end;        /* end of each position's moves in children */
} bench_work_t;

static void *work_state(const bench_work_t *w, int i)
{
    return w->states + (size_t)i * w->api->state_size;
}

static void work_free(bench_work_t *w)
{
    free(w->start);
    free(w->line);
    free(w->states);
    free(w->children);
    free(w->child_end);
}

/* Makes the seeded start and plays one seeded random game from it, keeping every
   position and its legal moves. */
static int work_init(bench_work_t *w, const bench_case_t *c, char *err, size_t errlen)
{
    const game_api_t *api = c->api;
    memset(w, 0, sizeof *w);
    w->api = api;
    game_options_default(&w->opt);
    w->opt.players = c->spec.players;
    w->opt.seed = c->spec.seed;
    if (c->spec.option && game_options_add(&w->opt, c->spec.option, err, errlen))
        return -1;
    w->start = malloc(api->state_size);
    w->line = malloc(BENCH_LINE_MAX * sizeof *w->line);
    if (!w->start || !w->line) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (api->new_game(w->start, &w->opt, err, errlen))
        return -1;
    void *s = malloc(api->state_size);
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    if (!s || !moves) {
        free(s);
        free(moves);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pcg32_t rng;
    pcg32_seed(&rng, c->spec.seed, 1);
    memcpy(s, w->start, api->state_size);
    int n;
    while (w->plies < BENCH_LINE_MAX && (n = api->gen_moves(s, moves)) > 0) {
        move_t m = moves[pcg32_bounded(&rng, (uint32_t)n)];
        w->line[w->plies++] = m;
        api->make(s, m, undo);
    }
    w->states = malloc((size_t)(w->plies + 1) * api->state_size);
    w->child_end = malloc((size_t)(w->plies + 1) * sizeof *w->child_end);
    bool ok = w->states && w->child_end;
    long cap = 1 << 16;
    w->children = ok ? malloc((size_t)cap * sizeof *w->children) : NULL;
    ok = ok && w->children;
    memcpy(s, w->start, api->state_size);
    for (int i = 0; ok && i <= w->plies; i++) {
        memcpy(work_state(w, i), s, api->state_size);
        n = api->gen_moves(s, moves);
        if (w->child_count + n > cap) {
            cap = 2 * (w->child_count + n);
            move_t *grown = realloc(w->children, (size_t)cap * sizeof *grown);
            ok = grown != NULL;
            if (!ok)
                break;
            w->children = grown;
        }
        memcpy(w->children + w->child_count, moves, (size_t)n * sizeof *moves);
        w->child_count += n;
        w->child_end[i] = (int)w->child_count;
        if (i < w->plies)
            api->make(s, w->line[i], undo);
    }
    free(s);
    free(moves);
    if (!ok) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

/*
 * The perft depth for a position: deeper while the leaves of the next depth, estimated as
 * the last count times its growth over the depth before, stay within budget. Counts only,
 * so the choice is the same on every machine.
 */
static int perft_depth(const game_api_t *api, void *s, int max_depth, uint64_t budget,
                       uint64_t *leaves)
{
    uint64_t prev = 1, cur = game_perft(api, s, 1);
    int d = 1;
    while (d < max_depth && cur > 0) {
        double next = (double)cur * ((double)cur / (double)prev);
        if (next > (double)budget)
            break;
        prev = cur;
        cur = game_perft(api, s, ++d);
    }
    *leaves = cur;
    return d;
}

/* Legal moves of position i of the seeded game. */
static int work_moves(const bench_work_t *w, int i)
{
    return w->child_end[i] - (i ? w->child_end[i - 1] : 0);
}

/* The mid position: the first from c->spec.mid_plies on with a rich move list. */
static int mid_index(const bench_work_t *w, const bench_case_t *c)
{
    for (int i = c->spec.mid_plies; i < w->plies; i++) {
        if (work_moves(w, i) >= BENCH_MID_MIN_MOVES)
            return i;
    }
    return c->spec.mid_plies < w->plies ? c->spec.mid_plies : w->plies;
}

/* Perft from the start and from the mid position, bulk and (unless count-only) full. */
static void measure_perft(const bench_work_t *w, const bench_case_t *c, const bench_config_t *cfg,
                          bench_result_t *r)
{
    const game_api_t *api = w->api;
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    void *s = malloc(api->state_size);
    if (!moves || !s) {
        free(moves);
        free(s);
        return;
    }
    r->mid_plies = mid_index(w, c);
    uint64_t budget = cfg->quick ? c->spec.perft_leaves / 16 : c->spec.perft_leaves;
    const void *from[2] = {w->start, work_state(w, r->mid_plies)};
    int depth[2];
    uint64_t nodes[2];
    for (int k = 0; k < 2; k++) {
        memcpy(s, from[k], api->state_size);
        int n = api->gen_moves(s, moves);
        depth[k] = perft_depth(api, s, c->spec.max_depth, budget, &nodes[k]);
        if (k == 0)
            r->start_moves = n;
        else
            r->mid_moves = n;
        if (cfg->count_only)
            continue;
        double t0 = bench_now();
        r->full_mismatch |= game_perft(api, s, depth[k]) != nodes[k];
        r->bulk_seconds += bench_now() - t0;
        t0 = bench_now();
        uint64_t full = game_perft_full(api, s, depth[k]);
        r->full_seconds += bench_now() - t0;
        r->full_mismatch |= full != nodes[k];
    }
    r->start_depth = depth[0];
    r->mid_depth = depth[1];
    r->start_nodes = nodes[0];
    r->mid_nodes = nodes[1];
    free(moves);
    free(s);
}

/* Random full games with api->playout, cycling through seeded starts. */
static int measure_playouts(const bench_work_t *w, const bench_case_t *c, const bench_config_t *cfg,
                            bench_result_t *r, char *err, size_t errlen)
{
    const game_api_t *api = w->api;
    size_t size = api->state_size;
    unsigned char *starts = malloc(BENCH_PLAYOUT_STARTS * size);
    void *s = malloc(size);
    if (!starts || !s) {
        free(starts);
        free(s);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    game_options_t opt = w->opt;
    for (int i = 0; i < BENCH_PLAYOUT_STARTS; i++) {
        opt.seed = c->spec.seed + 1 + (uint64_t)i;
        if (api->new_game(starts + (size_t)i * size, &opt, err, errlen)) {
            free(starts);
            free(s);
            return -1;
        }
    }
    r->playouts = cfg->quick ? c->spec.playouts / 4 : c->spec.playouts;
    pcg32_t rng;
    double t0 = bench_now();
    for (long i = 0; i < r->playouts; i++) {
        memcpy(s, starts + (size_t)(i % BENCH_PLAYOUT_STARTS) * size, size);
        pcg32_seed(&rng, c->spec.seed, (uint64_t)i);
        api->playout(s, &rng);
    }
    r->playout_seconds = bench_now() - t0;
    free(starts);
    free(s);
    return 0;
}

/* Every legal move of every position of the seeded game, tried by copy-make and by
   make/undo in the same order; the walk advances along the game between positions. */
static void measure_copy_make(const bench_work_t *w, const bench_config_t *cfg, bench_result_t *r)
{
    const game_api_t *api = w->api;
    size_t size = api->state_size;
    void *s = malloc(size), *t = malloc(size);
    if (!s || !t) {
        free(s);
        free(t);
        return;
    }
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    _Alignas(16) unsigned char step[GAME_UNDO_MAX];
    r->line_plies = w->plies;
    r->child_moves = w->child_count;
    long passes = BENCH_CHILD_MOVES / (w->child_count > 0 ? w->child_count : 1);
    if (cfg->quick)
        passes /= 4;
    r->cm_passes = passes < 1 ? 1 : (int)passes;
    double t0 = bench_now();
    for (int pass = 0; pass < r->cm_passes; pass++) {
        memcpy(s, w->start, size);
        for (int i = 0, k = 0; i <= w->plies; i++) {
            for (; k < w->child_end[i]; k++) {
                memcpy(t, s, size);
                api->make(t, w->children[k], undo);
            }
            if (i < w->plies)
                api->make(s, w->line[i], step);
        }
    }
    r->copy_make_seconds = bench_now() - t0;
    t0 = bench_now();
    for (int pass = 0; pass < r->cm_passes; pass++) {
        memcpy(s, w->start, size);
        for (int i = 0, k = 0; i <= w->plies; i++) {
            for (; k < w->child_end[i]; k++) {
                api->make(s, w->children[k], undo);
                api->undo(s, w->children[k], undo);
            }
            if (i < w->plies)
                api->make(s, w->line[i], step);
        }
    }
    r->make_undo_seconds = bench_now() - t0;
    free(s);
    free(t);
}

/* Passes over the positions so that about calls positions are listed (a quarter with
   --quick), at least one. */
static int gen_rounds(long calls, int positions, bool quick)
{
    long rounds = (quick ? calls / 4 : calls) / positions;
    return rounds < 1 ? 1 : (int)rounds;
}

/* The fast generator and the reference, each over the positions of the seeded game, in
   rounds; a reference round lists each position several times before the game moves on. */
static int measure_movegen(const bench_work_t *w, const bench_case_t *c, const bench_config_t *cfg,
                           bench_result_t *r, char *err, size_t errlen)
{
    const game_api_t *api = w->api;
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    char(*text)[32] = malloc(GAME_MAX_MOVES * sizeof *text);
    if (!moves || !text) {
        free(moves);
        free(text);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int positions = w->plies + 1;
    r->gen_fast_rounds = gen_rounds(BENCH_GEN_FAST_CALLS, positions, cfg->quick);
    r->gen_ref_rounds = gen_rounds(BENCH_GEN_REF_CALLS, positions, cfg->quick);
    long total = 0;
    double t0 = bench_now();
    for (int round = 0; round < r->gen_fast_rounds; round++)
        for (int i = 0; i < positions; i++)
            total += api->gen_moves(work_state(w, i), moves);
    r->gen_fast_seconds = bench_now() - t0;
    r->gen_fast_moves = total / r->gen_fast_rounds;

    char why[GAME_ERR_MAX];
    bench_ref_t *ref = bench_ref_new(api, w->start, &w->opt, w->line, w->plies, why, sizeof why);
    r->ref_missing = ref == NULL;
    if (!ref && bench_has_reference(api)) /* a game without reference rules has nothing to time */
        fprintf(stderr, "skyline: %s: %s\n", c->spec.label, why);
    for (int i = 0; ref && i < positions; i++) {
        int n = 0;
        t0 = bench_now();
        for (int round = 0; round < r->gen_ref_rounds; round++)
            n = bench_ref_moves(ref, text, GAME_MAX_MOVES);
        r->gen_ref_seconds += bench_now() - t0;
        r->gen_ref_moves += n;
        if (i == w->plies)
            break;
        char mv[GAME_MOVE_TEXT_MAX];
        api->move_to_text(work_state(w, i), w->line[i], mv);
        if (bench_ref_play(ref, mv)) {
            fprintf(stderr, "skyline: %s: the reference refuses move %d (%s)\n", c->spec.label, i,
                    mv);
            r->ref_missing = true;
            break;
        }
    }
    if (ref && r->gen_ref_moves != r->gen_fast_moves)
        fprintf(stderr,
                "skyline: %s: the reference lists %ld moves over the game, the engine %ld\n",
                c->spec.label, r->gen_ref_moves, r->gen_fast_moves);
    bench_ref_free(ref);
    free(moves);
    free(text);
    return 0;
}

/* Sorts v[0..n) in increasing order (a handful of values). */
static void sort_doubles(double *v, int n)
{
    for (int k = 1; k < n; k++)
        for (int j = k; j > 0 && v[j] < v[j - 1]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
}

/* MCTS iterations per second with one thread and with cfg->threads in both modes. */
static int measure_mcts(const bench_work_t *w, const bench_case_t *c, const bench_config_t *cfg,
                        bench_result_t *r, char *err, size_t errlen)
{
    const void *mid = work_state(w, r->mid_plies);
    r->mcts_iterations = cfg->quick ? c->spec.mcts_iterations / 4 : c->spec.mcts_iterations;
    r->mcts_threads = cfg->threads;
    /* The one-thread figure is the median of several runs of the same search: one run
       swung up to 6 times on a machine shared with other work. */
    double t[BENCH_MCTS_ROUNDS], cpu1[BENCH_MCTS_ROUNDS];
    long done1 = 0;
    r->mcts1_rounds = cfg->quick ? BENCH_MCTS_ROUNDS_QUICK : BENCH_MCTS_ROUNDS;
    for (int k = 0; k < r->mcts1_rounds && done1 >= 0; k++) {
        double c0 = bench_thread_cpu_now();
        done1 =
            mcts_bench_iterations(w->api, mid, 1, MCTS_PARALLEL_TREE, r->mcts_iterations, &t[k]);
        cpu1[k] = bench_thread_cpu_now() - c0;
    }
    sort_doubles(t, r->mcts1_rounds);
    sort_doubles(cpu1, r->mcts1_rounds);
    r->mcts1_seconds = t[r->mcts1_rounds / 2];
    r->mcts1_min_seconds = t[0];
    r->mcts1_max_seconds = t[r->mcts1_rounds - 1];
    r->mcts1_cpu_seconds = cpu1[r->mcts1_rounds / 2];
    double cpu0 = bench_cpu_now();
    long done_n = mcts_bench_iterations(w->api, mid, cfg->threads, MCTS_PARALLEL_TREE,
                                        r->mcts_iterations, &r->mcts_n_seconds);
    double cpu = bench_cpu_now() - cpu0;
    r->mcts_n_cpu = r->mcts_n_seconds > 0 ? cpu / r->mcts_n_seconds : 0.0;
    long done_root = mcts_bench_iterations(w->api, mid, cfg->threads, MCTS_PARALLEL_ROOT,
                                           r->mcts_iterations, &r->mcts_root_seconds);
    long done_indep = mcts_bench_independent(w->api, mid, cfg->threads, r->mcts_iterations,
                                             &r->mcts_indep_seconds);
    if (done1 < 0 || done_n < 0 || done_root < 0 || done_indep < 0) {
        snprintf(err, errlen, "bench: %s: the timed search could not run", c->spec.label);
        return -1;
    }
    return 0;
}

/* Iterations and search seconds of one guided-search configuration, summed over the
   positions: 0, or -1 with err filled. */
static int guided_run(const bench_work_t *w, const bench_case_t *c, int threads, int ms,
                      const int *plies, int count, long *iterations, double *seconds, char *err,
                      size_t errlen)
{
    char spec[BOT_SPEC_TEXT_MAX];
    snprintf(spec, sizeof spec, "%s,threads=%d,time=%d", BENCH_GUIDED_SPEC, threads, ms);
    bot_t *b = bot_new(w->api, spec, c->spec.seed, err, errlen);
    if (!b)
        return -1;
    *iterations = 0;
    *seconds = 0.0;
    for (int k = 0; k < count; k++) {
        bot_reset(b, c->spec.seed + (uint64_t)k);
        bot_choose(b, work_state(w, plies[k]));
        const mcts_stats_t *st = mcts_bot_last_stats(b);
        *iterations += st ? st->iterations : 0;
        *seconds += st ? st->seconds : 0.0;
    }
    bot_free(b);
    return 0;
}

/* The guided search at T and 2T with one thread and at T with cfg->threads. */
static int measure_guided(const bench_work_t *w, const bench_case_t *c, const bench_config_t *cfg,
                          bench_result_t *r, char *err, size_t errlen)
{
    int want = cfg->quick ? BENCH_GUIDED_POSITIONS / 2 : BENCH_GUIDED_POSITIONS;
    int plies[BENCH_GUIDED_POSITIONS];
    int count = 0;
    /* Evenly spread along the game, each with a choice to make. */
    for (int k = 0; k < want; k++) {
        int ply = (int)((long)(k + 1) * w->plies / (want + 1));
        if (work_moves(w, ply) > 1)
            plies[count++] = ply;
    }
    r->guided_positions = count;
    if (guided_run(w, c, 1, BENCH_GUIDED_MS, plies, count, &r->guided1_iterations,
                   &r->guided1_seconds, err, errlen) ||
        guided_run(w, c, cfg->threads, BENCH_GUIDED_MS, plies, count, &r->guided_n_iterations,
                   &r->guided_n_seconds, err, errlen) ||
        guided_run(w, c, 1, 2 * BENCH_GUIDED_MS, plies, count, &r->guided_double_iterations,
                   &r->guided_double_seconds, err, errlen))
        return -1;
    return 0;
}

int bench_run_case(const bench_case_t *c, const bench_config_t *cfg, bench_result_t *r, char *err,
                   size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->bcase = c;
    bench_work_t w;
    int rc = work_init(&w, c, err, errlen);
    if (rc == 0) {
        measure_perft(&w, c, cfg, r);
        long sig_iterations =
            cfg->quick ? c->spec.signature_iterations / 4 : c->spec.signature_iterations;
        rc = bench_signature_searches(w.api, work_state(&w, r->mid_plies), sig_iterations, r, err,
                                      errlen);
    }
    if (rc == 0 && !cfg->count_only) {
        rc = measure_playouts(&w, c, cfg, r, err, errlen);
        if (rc == 0)
            measure_copy_make(&w, cfg, r);
        if (rc == 0)
            rc = measure_movegen(&w, c, cfg, r, err, errlen);
        if (rc == 0)
            rc = measure_mcts(&w, c, cfg, r, err, errlen);
        if (rc == 0 && heuristic_for(w.api)) /* the guided search needs the game's heuristic */
            rc = measure_guided(&w, c, cfg, r, err, errlen);
    }
    work_free(&w);
    return rc;
}

/* The network figures of every case of game (NULL: all), after the peak float rate. */
static int run_nets(const char *game, const bench_config_t *conf, bench_report_t *rep, char *err,
                    size_t errlen)
{
    nn_net_t *net = NULL;
    if (conf->net_file && !(net = nn_net_load(conf->net_file, NULL, 0, err, errlen)))
        return -1;
    const nn_info_t *in = net ? nn_net_info(net) : NULL;
    if (in && game && strcmp(game, in->game)) {
        snprintf(err, errlen, "%s: the net is for %s, not --game %s", conf->net_file, in->game,
                 game);
        nn_net_free(net);
        return -1;
    }
    rep->nn_isa = nn_isa();
    rep->nn_width = in ? in->width : BENCH_NN_WIDTH;
    rep->nn_depth = in ? in->depth : BENCH_NN_DEPTH;
    rep->nn_weights = in ? conf->net_file : "random weights";
    rep->nn_peak_flops = nn_peak_flops(conf->quick ? 0.05 : 0.2);
    int case_count, rc = 0;
    const bench_case_t *cases = bench_cases(&case_count);
    for (int i = 0; i < case_count && rc == 0; i++) {
        const bench_case_t *c = &cases[i];
        if ((game && strcmp(game, c->api->name)) || !c->api->observation_size ||
            !c->api->action_count || (in && (c->api != in->api || c->spec.players != in->players)))
            continue;
        if (in && rep->nn_count) /* one case of the net's game and player count */
            break;
        rc = bench_nn_case(c, conf->quick, conf->save_nets, net, &rep->nn[rep->nn_count], err,
                           errlen);
        rep->nn_count += rc == 0;
    }
    if (rc == 0 && in && !rep->nn_count) {
        snprintf(err, errlen, "%s: bench has no case of %s with %d players to time it on",
                 conf->net_file, in->game, in->players);
        rc = -1;
    }
    nn_net_free(net);
    return rc;
}

int bench_run(const char *game, const bench_config_t *cfg, bench_report_t *rep, FILE *rows,
              char *err, size_t errlen)
{
    bench_config_t conf = *cfg;
    memset(rep, 0, sizeof *rep);
    rep->quick = conf.quick;
    rep->count_only = conf.count_only;
    rep->verbose = conf.verbose;
    rep->cores = omp_get_num_procs();
    rep->load_start = bench_load_average();
    if (conf.threads <= 0)
        conf.threads = rep->cores;
    double t0 = bench_now();
    if (rows && !conf.nets_only)
        bench_print_header(rows, rep);
    int case_count;
    const bench_case_t *cases = bench_cases(&case_count);
    rep->nets_only = conf.nets_only;
    for (int i = 0; i < case_count && !conf.nets_only; i++) {
        const bench_case_t *c = &cases[i];
        if (game && strcmp(game, c->api->name))
            continue;
        bench_result_t *r = &rep->cases[rep->case_count];
        if (bench_run_case(c, &conf, r, err, errlen))
            return -1;
        rep->case_count++;
        rep->perft_nodes += r->start_nodes + r->mid_nodes;
        rep->mcts_nodes += (uint64_t)r->signature_nodes;
        rep->search_key += r->signature_key;
        if (rows) {
            bench_print_row(rows, rep, r);
            fflush(rows);
        }
    }
    rep->signature = rep->perft_nodes + rep->mcts_nodes + rep->search_key;
    if (!conf.count_only && run_nets(game, &conf, rep, err, errlen))
        return -1;
    rep->seconds = bench_now() - t0;
    rep->load_end = bench_load_average();
    return 0;
}

uint64_t bench_signature(bool quick, char *err, size_t errlen)
{
    bench_config_t cfg = {.quick = quick, .count_only = true, .threads = 1};
    bench_report_t *rep = malloc(sizeof *rep);
    if (!rep) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    uint64_t sig = bench_run(NULL, &cfg, rep, NULL, err, errlen) ? 0 : rep->signature;
    free(rep);
    return sig;
}
