/* The bench's output: a table for people, one JSON object for scripts. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/bench_ref.h"
#include "core/version.h"

/* A figure divided by a time, 0 when nothing was timed. */
static double per_second(double amount, double seconds)
{
    return seconds > 0 ? amount / seconds : 0.0;
}

static double bulk_mnps(const bench_result_t *r)
{
    return per_second((double)(r->start_nodes + r->mid_nodes), r->bulk_seconds) * 1e-6;
}

static double full_mnps(const bench_result_t *r)
{
    return per_second((double)(r->start_nodes + r->mid_nodes), r->full_seconds) * 1e-6;
}

static double games_per_second(const bench_result_t *r)
{
    return per_second((double)r->playouts, r->playout_seconds);
}

static double ns_per_move(const bench_result_t *r, double seconds)
{
    double moves = (double)r->child_moves * r->cm_passes;
    return moves > 0 ? seconds * 1e9 / moves : 0.0;
}

static double gen_fast_rate(const bench_result_t *r)
{
    return per_second((double)(r->line_plies + 1) * r->gen_fast_rounds, r->gen_fast_seconds);
}

static double gen_ref_rate(const bench_result_t *r)
{
    return r->ref_missing
               ? 0.0
               : per_second((double)(r->line_plies + 1) * r->gen_ref_rounds, r->gen_ref_seconds);
}

static double gen_ratio(const bench_result_t *r)
{
    double ref = gen_ref_rate(r);
    return ref > 0 ? gen_fast_rate(r) / ref : 0.0;
}

static double mcts_rate(const bench_result_t *r, double seconds)
{
    return per_second((double)r->mcts_iterations, seconds);
}

static double mcts_speedup(const bench_result_t *r)
{
    return r->mcts_n_seconds > 0 ? r->mcts1_seconds / r->mcts_n_seconds : 0.0;
}

static double mcts_root_speedup(const bench_result_t *r)
{
    return r->mcts_root_seconds > 0 ? r->mcts1_seconds / r->mcts_root_seconds : 0.0;
}

/* What the machine gives: N independent one-thread searches against one. */
static double mcts_indep_speedup(const bench_result_t *r)
{
    return r->mcts_indep_seconds > 0 ? r->mcts_threads * r->mcts1_seconds / r->mcts_indep_seconds
                                     : 0.0;
}

/* The guided search: the speed-up of every core at T, and the iterations of every core at
   T over those of one thread at 2T. */
static double guided_rate(long iterations, double seconds)
{
    return per_second((double)iterations, seconds);
}

static double guided_speedup(const bench_result_t *r)
{
    double one = guided_rate(r->guided1_iterations, r->guided1_seconds);
    return one > 0 ? guided_rate(r->guided_n_iterations, r->guided_n_seconds) / one : 0.0;
}

static double guided_vs_double(const bench_result_t *r)
{
    return r->guided_double_iterations > 0
               ? (double)r->guided_n_iterations / (double)r->guided_double_iterations
               : 0.0;
}

/* The guided search over all cases of a run: the speed-up at T (iterations/s of every core
   over one thread's) and the iterations of every core at T over one thread's at 2T; false
   if not measured. */
static bool guided_totals(const bench_report_t *rep, double *speedup, double *vs_double)
{
    long g1 = 0, gn = 0, g2 = 0;
    double s1 = 0, sn = 0;
    for (int i = 0; i < rep->case_count; i++) {
        const bench_result_t *r = &rep->cases[i];
        g1 += r->guided1_iterations;
        gn += r->guided_n_iterations;
        g2 += r->guided_double_iterations;
        s1 += r->guided1_seconds;
        sn += r->guided_n_seconds;
    }
    if (g1 <= 0 || g2 <= 0 || s1 <= 0 || sn <= 0)
        return false;
    *speedup = ((double)gn / sn) / ((double)g1 / s1);
    *vs_double = (double)gn / (double)g2;
    return true;
}

/* One goal of bench/BENCH.md: a name, the target and the figure reached. */
typedef struct bench_goal {
    const char *name; /* what is measured */
    double target;    /* the goal */
    double value;     /* the figure of this run; 0 if not measured */
    bool measured;    /* the run had the cases the goal needs */
} bench_goal_t;

/* The whole-run goals and those of every game's bench entry. */
#define BENCH_GOAL_MAX 48

static const bench_result_t *find_case(const bench_report_t *rep, const char *label)
{
    for (int i = 0; i < rep->case_count; i++)
        if (!strcmp(rep->cases[i].bcase->spec.label, label))
            return &rep->cases[i];
    return NULL;
}

/* Leaves per second of the bulk perft runs of every case of one game, in millions. */
static double game_bulk_mnps(const bench_report_t *rep, const game_api_t *api, bool *any)
{
    double leaves = 0, seconds = 0;
    *any = false;
    for (int i = 0; i < rep->case_count; i++) {
        const bench_result_t *r = &rep->cases[i];
        if (r->bcase->api != api)
            continue;
        *any = true;
        leaves += (double)(r->start_nodes + r->mid_nodes);
        seconds += r->bulk_seconds;
    }
    return per_second(leaves, seconds) * 1e-6;
}

/* A game's goal g as measured by this run. */
static bench_goal_t game_goal(const bench_report_t *rep, const game_api_t *api,
                              const bench_goal_spec_t *g)
{
    bool timed = !rep->count_only && rep->case_count > 0, any = false;
    const bench_result_t *c = g->label ? find_case(rep, g->label) : NULL;
    double value = 0;
    if (g->figure == BENCH_FIGURE_BULK && !g->label)
        value = game_bulk_mnps(rep, api, &any);
    else if (c && g->figure == BENCH_FIGURE_BULK)
        value = bulk_mnps(c);
    else if (c && g->figure == BENCH_FIGURE_GAMES)
        value = games_per_second(c);
    else if (c)
        value = mcts_rate(c, c->mcts1_seconds);
    return (bench_goal_t){g->name, g->target, value, timed && (c || any)};
}

/* The games' goals of one kind into g[*n...]: the engine's own targets (versus false) of
   figure `figure` or, versus true, those against another engine (any figure); in registry
   order. */
static void add_game_goals(const bench_report_t *rep, bool versus, int figure, bench_goal_t *g,
                           int *n)
{
    for (int i = 0; i < game_count(); i++) {
        const bench_game_t *bg = bench_game_for(game_at(i));
        for (int k = 0; bg && k < bg->goal_count && *n < BENCH_GOAL_MAX; k++) {
            const bench_goal_spec_t *spec = &bg->goals[k];
            if (spec->versus == versus && (versus || (int)spec->figure == figure))
                g[(*n)++] = game_goal(rep, game_at(i), spec);
        }
    }
}

/* The goals and how far this run got: the games' own goals (random games, then perft,
   then MCTS), the generator ratio of the worst case, the MCTS speed-up over every case
   together, then the games' goals against other engines. Returns their count. */
static int compute_goals(const bench_report_t *rep, bench_goal_t *g)
{
    double mcts1 = 0, mcts_n = 0, mcts_root = 0, worst_ratio = 0;
    bool ratio_all = true, ratio_any = false;
    for (int i = 0; i < rep->case_count; i++) {
        const bench_result_t *r = &rep->cases[i];
        mcts1 += r->mcts1_seconds;
        mcts_n += r->mcts_n_seconds;
        mcts_root += r->mcts_root_seconds;
        if (!bench_has_reference(r->bcase->api)) /* no reference rules: no ratio */
            continue;
        double ratio = gen_ratio(r);
        ratio_all &= ratio > 0;
        if (!ratio_any || ratio < worst_ratio)
            worst_ratio = ratio;
        ratio_any = true;
    }
    ratio_all &= ratio_any;
    bool timed = !rep->count_only && rep->case_count > 0;
    int n = 0;
    for (int figure = BENCH_FIGURE_GAMES; figure <= BENCH_FIGURE_MCTS; figure++)
        add_game_goals(rep, false, figure, g, &n);
    g[n++] = (bench_goal_t){"fast/reference generator (worst case)", 50, worst_ratio,
                            timed && ratio_all};
    g[n++] = (bench_goal_t){"MCTS 2 threads / 1 thread (all cases)", 1.9,
                            mcts_n > 0 ? mcts1 / mcts_n : 0, timed && rep->cores >= 2};
    g[n++] = (bench_goal_t){"MCTS same, root parallelism", 1.9,
                            mcts_root > 0 ? mcts1 / mcts_root : 0, timed && rep->cores >= 2};
    add_game_goals(rep, true, 0, g, &n);
    return n;
}

void bench_print_header(FILE *out, const bench_report_t *rep)
{
    fprintf(out, "skyline bench%s: one thread unless stated, %d cores, fixed seeds, load %.2f\n",
            rep->quick ? " --quick" : "", rep->cores, rep->load_start);
    if (rep->count_only)
        fprintf(out, "%-11s %9s %5s %14s\n", "case", "moves", "depth", "perft leaves");
    else if (!rep->verbose)
        fprintf(out, "%-11s %9s %5s %14s %7s %8s %6s %8s %8s %5s %4s\n", "case", "moves", "depth",
                "perft leaves", "bulk", "games/s", "gen x", "mcts 1t", "mcts Nt", "xN", "cpu");
    else
        fprintf(out,
                "%-11s %9s %5s %14s %7s %7s %8s %6s %6s %10s %9s %6s %8s %8s %5s %5s %5s "
                "%4s %7s %5s %5s\n",
                "case", "moves", "depth", "perft leaves", "bulk", "full", "games/s", "cp-mk",
                "mk-un", "gen fast/s", "gen ref/s", "ratio", "mcts 1t", "mcts Nt", "xN", "root",
                "indep", "cpu", "guided", "xN", "/2T");
}

void bench_print_row(FILE *out, const bench_report_t *rep, const bench_result_t *r)
{
    char moves[24], depth[16];
    snprintf(moves, sizeof moves, "%d/%d", r->start_moves, r->mid_moves);
    snprintf(depth, sizeof depth, "%d/%d", r->start_depth, r->mid_depth);
    unsigned long long leaves = (unsigned long long)(r->start_nodes + r->mid_nodes);
    if (r->bulk_seconds == 0 && r->playouts == 0) {
        fprintf(out, "%-11s %9s %5s %14llu\n", r->bcase->spec.label, moves, depth, leaves);
        return;
    }
    char ratio[16];
    if (gen_ratio(r) > 0)
        snprintf(ratio, sizeof ratio, "%.0f", gen_ratio(r));
    else
        snprintf(ratio, sizeof ratio, "-");
    const char *disagree = r->full_mismatch ? "  PERFT COUNTS DISAGREE" : "";
    if (!rep->verbose) {
        fprintf(out, "%-11s %9s %5s %14llu %7.1f %8.0f %6s %8.0f %8.0f %5.2f %4.2f%s\n",
                r->bcase->spec.label, moves, depth, leaves, bulk_mnps(r), games_per_second(r),
                ratio, mcts_rate(r, r->mcts1_seconds), mcts_rate(r, r->mcts_n_seconds),
                mcts_speedup(r), r->mcts_n_cpu, disagree);
        return;
    }
    fprintf(out,
            "%-11s %9s %5s %14llu %7.1f %7.1f %8.0f %6.1f %6.1f %10.0f %9.0f %6s %8.0f %8.0f "
            "%5.2f %5.2f %5.2f %4.2f %7.0f %5.2f %5.2f%s\n",
            r->bcase->spec.label, moves, depth, leaves, bulk_mnps(r), full_mnps(r),
            games_per_second(r), ns_per_move(r, r->copy_make_seconds),
            ns_per_move(r, r->make_undo_seconds), gen_fast_rate(r), gen_ref_rate(r), ratio,
            mcts_rate(r, r->mcts1_seconds), mcts_rate(r, r->mcts_n_seconds), mcts_speedup(r),
            mcts_root_speedup(r), mcts_indep_speedup(r), r->mcts_n_cpu,
            guided_rate(r->guided1_iterations, r->guided1_seconds), guided_speedup(r),
            guided_vs_double(r), disagree);
}

/* What the wide table's columns mean (--verbose). */
static void print_legend_wide(FILE *out, const bench_report_t *rep, int threads)
{
    fprintf(out,
            "moves: legal moves at the start / at the mid position; depth: perft depth from "
            "each;\nbulk, full: perft Mleaves/s with bulk counting / with every leaf made "
            "and undone;\ngames/s: random full games (api->playout); cp-mk, mk-un: ns per "
            "move for memcpy+make\nand for make+undo over every legal move of one seeded "
            "game; gen fast/s, gen ref/s:\npositions/s of that game listed by the engine "
            "and by the slow reference, ratio fast/ref;\nmcts 1t, mcts Nt: MCTS "
            "iterations/s from the mid position with 1 and %d threads\n(one shared "
            "tree), xN the speed-up, root the speed-up with root parallelism (a tree\n"
            "per thread), indep what the machine gives: %d independent one-thread\n"
            "searches at once against one, cpu the cores the shared-tree search had\n"
            "(processor s / wall s);\nguided: iterations/s of the strength-speedup's search,\n"
            "%s (heuristic prior and cut-off\nevaluation), with 1 thread at %d ms a "
            "search from %d positions of the game, xN the\nspeed-up with %d threads, /2T "
            "their iterations at %d ms over one thread's at %d ms.\n",
            threads, threads, BENCH_GUIDED_SPEC, BENCH_GUIDED_MS, rep->cases[0].guided_positions,
            threads, BENCH_GUIDED_MS, 2 * BENCH_GUIDED_MS);
}

/* What the default table's columns mean, and where the rest is. */
static void print_legend_short(FILE *out, int threads, int rounds)
{
    fprintf(out,
            "moves: legal moves at the start / mid position; depth: perft depth from each;\n"
            "bulk: perft Mleaves/s (bulk counting); games/s: random full games;\n"
            "gen x: moves listed by the engine against the slow reference, times faster;\n"
            "mcts 1t: MCTS iterations/s with 1 thread (median of %d runs); mcts Nt: with %d\n"
            "threads (one shared tree), xN the speed-up, cpu the cores it had. Every column and\n"
            "the goals of bench/BENCH.md: --verbose; everything for scripts: --json.\n",
            rounds, threads);
}

/* The goals of bench/BENCH.md and the whole-run search figures (--verbose). */
static void print_goals(FILE *out, const bench_report_t *rep, int threads)
{
    bench_goal_t goals[BENCH_GOAL_MAX];
    int goal_count = compute_goals(rep, goals);
    fprintf(out, "goals:\n");
    for (int i = 0; i < goal_count; i++) {
        if (!goals[i].measured)
            fprintf(out, "  %-40s not measured\n", goals[i].name);
        else /* millions without decimals, to keep the columns */
            fprintf(out,
                    goals[i].target >= 1e6 ? "  %-40s %12.0f / %9.0f = %5.2f %s\n"
                                           : "  %-40s %12.2f / %9.2f = %5.2f %s\n",
                    goals[i].name, goals[i].value, goals[i].target,
                    goals[i].value / goals[i].target,
                    goals[i].value >= goals[i].target ? "met" : "MISSED");
    }
    double one = 0, tree = 0, indep = 0, spread = 0;
    const char *widest = NULL;
    for (int i = 0; i < rep->case_count; i++) {
        const bench_result_t *r = &rep->cases[i];
        double sp = r->mcts1_min_seconds > 0
                        ? (r->mcts1_max_seconds - r->mcts1_min_seconds) / r->mcts1_min_seconds
                        : 0.0;
        if (!widest || sp > spread) {
            spread = sp;
            widest = r->bcase ? r->bcase->spec.label : "";
        }
    }
    if (widest && rep->cases[0].mcts1_rounds > 0)
        fprintf(out,
                "mcts 1t: the median of %d runs of the same search a case; the widest "
                "spread (slowest / fastest - 1) %.0f%% (%s)\n",
                rep->cases[0].mcts1_rounds, 100.0 * spread, widest);
    for (int i = 0; i < rep->case_count; i++) {
        one += rep->cases[i].mcts1_seconds;
        tree += rep->cases[i].mcts_n_seconds;
        indep += rep->cases[i].mcts_indep_seconds / threads;
    }
    if (threads >= 2 && tree > 0 && indep > 0)
        fprintf(out,
                "the machine gives %.2f with %d independent searches (all cases): the "
                "shared tree keeps %.0f%% of it\n",
                one / indep, threads, 100.0 * indep / tree);
    double gx, g2x;
    if (guided_totals(rep, &gx, &g2x))
        fprintf(out,
                "guided search (all cases): %d threads %.2f x one thread at %d ms; "
                "%.2f x one thread's iterations at %d ms\n",
                threads, gx, BENCH_GUIDED_MS, g2x, 2 * BENCH_GUIDED_MS);
}

void bench_print_footer(FILE *out, const bench_report_t *rep)
{
    bool timed = !rep->count_only && rep->case_count > 0;
    if (timed) {
        int threads = rep->cases[0].mcts_threads;
        if (rep->verbose)
            print_legend_wide(out, rep, threads);
        else
            print_legend_short(out, threads, rep->case_count ? rep->cases[0].mcts1_rounds : 0);
        double least_cpu = threads;
        for (int i = 0; i < rep->case_count; i++)
            if (rep->cases[i].mcts_n_cpu < least_cpu)
                least_cpu = rep->cases[i].mcts_n_cpu;
        if (least_cpu < 0.9 * threads)
            fprintf(out,
                    "warning: other work took the cores (load %.2f before, %.2f after, the "
                    "parallel search\nhad %.2f of %d): speeds are low and the speed-up is "
                    "bounded by the cpu column.\n",
                    rep->load_start, rep->load_end, least_cpu, threads);
        if (rep->verbose)
            print_goals(out, rep, threads);
    }
    bench_nn_print(out, rep);
    if (rep->nets_only)
        return;
    fprintf(out,
            "total perft leaves %llu, signature search nodes %llu, search key %llu, "
            "%.1f s\n",
            (unsigned long long)rep->perft_nodes, (unsigned long long)rep->mcts_nodes,
            (unsigned long long)rep->search_key, rep->seconds);
    fprintf(out, "signature%s %llu\n", rep->quick ? " (quick)" : "",
            (unsigned long long)rep->signature);
}

static json_t *json_case(const bench_result_t *r, bool timed)
{
    const bench_case_t *c = r->bcase;
    json_t *o = json_pack("{s:s, s:s, s:i}", "case", c->spec.label, "game", c->api->name, "players",
                          c->spec.players);
    /* The case's game option under its key (Tower Up: "board"). */
    const char *eq = c->spec.option ? strchr(c->spec.option, '=') : NULL;
    if (eq) {
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(eq - c->spec.option), c->spec.option);
        json_object_set_new(o, key, json_string(eq + 1));
    }
    json_object_set_new(o, "start_moves", json_integer(r->start_moves));
    json_object_set_new(o, "mid_plies", json_integer(r->mid_plies));
    json_object_set_new(o, "mid_moves", json_integer(r->mid_moves));
    json_t *perft =
        json_pack("{s:i, s:i, s:I, s:I, s:I}", "start_depth", r->start_depth, "mid_depth",
                  r->mid_depth, "start_nodes", (json_int_t)r->start_nodes, "mid_nodes",
                  (json_int_t)r->mid_nodes, "nodes", (json_int_t)(r->start_nodes + r->mid_nodes));
    json_object_set_new(o, "perft", perft);
    json_object_set_new(o, "signature_nodes", json_integer(r->signature_nodes));
    json_object_set_new(o, "signature_key", json_integer(r->signature_key));
    if (!timed)
        return o;
    json_object_set_new(perft, "bulk_seconds", json_real(r->bulk_seconds));
    json_object_set_new(perft, "bulk_mnps", json_real(bulk_mnps(r)));
    json_object_set_new(perft, "full_seconds", json_real(r->full_seconds));
    json_object_set_new(perft, "full_mnps", json_real(full_mnps(r)));
    json_object_set_new(perft, "full_matches", json_boolean(!r->full_mismatch));
    json_object_set_new(o, "playout",
                        json_pack("{s:I, s:f, s:f}", "games", (json_int_t)r->playouts, "seconds",
                                  r->playout_seconds, "games_per_second", games_per_second(r)));
    json_object_set_new(o, "copy_make",
                        json_pack("{s:i, s:I, s:i, s:f, s:f}", "game_plies", r->line_plies, "moves",
                                  (json_int_t)r->child_moves, "passes", r->cm_passes,
                                  "copy_make_ns", ns_per_move(r, r->copy_make_seconds),
                                  "make_undo_ns", ns_per_move(r, r->make_undo_seconds)));
    json_t *gen = json_pack("{s:i, s:f, s:I}", "positions", r->line_plies + 1, "fast_per_second",
                            gen_fast_rate(r), "fast_moves", (json_int_t)r->gen_fast_moves);
    if (!r->ref_missing) {
        json_object_set_new(gen, "ref_per_second", json_real(gen_ref_rate(r)));
        json_object_set_new(gen, "ref_moves", json_integer(r->gen_ref_moves));
        json_object_set_new(gen, "ratio", json_real(gen_ratio(r)));
    }
    json_object_set_new(o, "movegen", gen);
    json_object_set_new(
        o, "mcts",
        json_pack("{s:I, s:i, s:f, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
                  "iterations", (json_int_t)r->mcts_iterations, "threads", r->mcts_threads,
                  "one_thread_per_second", mcts_rate(r, r->mcts1_seconds), "one_thread_rounds",
                  r->mcts1_rounds, "one_thread_min_per_second", mcts_rate(r, r->mcts1_max_seconds),
                  "one_thread_max_per_second", mcts_rate(r, r->mcts1_min_seconds),
                  "one_thread_cpu_per_second", mcts_rate(r, r->mcts1_cpu_seconds),
                  "threads_per_second", mcts_rate(r, r->mcts_n_seconds), "root_threads_per_second",
                  mcts_rate(r, r->mcts_root_seconds), "indep_per_second",
                  r->mcts_indep_seconds > 0 ? r->mcts_threads * mcts_rate(r, r->mcts_indep_seconds)
                                            : 0.0,
                  "speedup", mcts_speedup(r), "root_speedup", mcts_root_speedup(r), "indep_speedup",
                  mcts_indep_speedup(r), "cpu", r->mcts_n_cpu));
    json_object_set_new(
        o, "guided",
        json_pack("{s:s, s:i, s:i, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f}", "spec",
                  BENCH_GUIDED_SPEC, "ms", BENCH_GUIDED_MS, "positions", r->guided_positions,
                  "one_thread_iterations", (json_int_t)r->guided1_iterations, "threads_iterations",
                  (json_int_t)r->guided_n_iterations, "one_thread_double_time_iterations",
                  (json_int_t)r->guided_double_iterations, "one_thread_per_second",
                  guided_rate(r->guided1_iterations, r->guided1_seconds), "threads_per_second",
                  guided_rate(r->guided_n_iterations, r->guided_n_seconds),
                  "double_time_per_second",
                  guided_rate(r->guided_double_iterations, r->guided_double_seconds), "speedup",
                  guided_speedup(r), "vs_double_time", guided_vs_double(r)));
    return o;
}

void bench_print_json(FILE *out, const bench_report_t *rep)
{
    bool timed = !rep->count_only;
    json_t *root =
        json_pack("{s:s, s:b, s:b, s:i, s:f, s:f, s:f}", "bench", "skyline", "quick", rep->quick,
                  "count_only", rep->count_only, "cores", rep->cores, "seconds", rep->seconds,
                  "load_start", rep->load_start, "load_end", rep->load_end);
    json_object_set_new(root, "engine", json_string(skyline_engine()));
    json_t *cases = json_array();
    for (int i = 0; i < rep->case_count; i++)
        json_array_append_new(cases, json_case(&rep->cases[i], timed));
    json_object_set_new(root, "cases", cases);
    if (timed && rep->case_count > 0) {
        bench_goal_t goals[BENCH_GOAL_MAX];
        int goal_count = compute_goals(rep, goals);
        json_t *arr = json_array();
        for (int i = 0; i < goal_count; i++) {
            if (!goals[i].measured)
                continue;
            json_array_append_new(arr, json_pack("{s:s, s:f, s:f, s:f, s:b}", "goal", goals[i].name,
                                                 "target", goals[i].target, "value", goals[i].value,
                                                 "ratio", goals[i].value / goals[i].target, "met",
                                                 goals[i].value >= goals[i].target));
        }
        json_object_set_new(root, "goals", arr);
        double gx, g2x;
        if (guided_totals(rep, &gx, &g2x))
            json_object_set_new(root, "guided",
                                json_pack("{s:f, s:f}", "speedup", gx, "vs_double_time", g2x));
    }
    if (rep->nn_count)
        json_object_set_new(root, "nets", bench_nn_json(rep));
    if (rep->nets_only) {
        json_object_set_new(root, "nets_only", json_true());
    } else {
        json_object_set_new(root, "perft_nodes", json_integer((json_int_t)rep->perft_nodes));
        json_object_set_new(root, "mcts_nodes", json_integer((json_int_t)rep->mcts_nodes));
        json_object_set_new(root, "search_key", json_integer((json_int_t)rep->search_key));
        json_object_set_new(root, "signature", json_integer((json_int_t)rep->signature));
    }
    json_dumpf(root, out, JSON_COMPACT | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
}
