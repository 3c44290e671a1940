/* Two-thread MCTS on the toy games: tree and root parallelism, budgets, memory cap, reuse,
   delayed publication.
   Small budgets so the test stays quick under ThreadSanitizer. */
#include "search/mcts_bench.h"
#include "tests/test.h"
#include "tests/test_search_toy.h"

static mcts_t *parallel_searcher(const game_api_t *api, mcts_parallel_t mode, long iterations)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.threads = 2;
    opt.parallel = mode;
    opt.iterations = iterations;
    opt.seed = 2024;
    mcts_t *m = mcts_new(api, &opt);
    CHECK(m != NULL);
    return m;
}

/* The searcher's tree passes mcts_check. */
static void check_tree(const mcts_t *m)
{
    char err[256];
    int rc = mcts_check(m, err, sizeof err);
    CHECK_MSG(rc == 0, "%s", err);
}

static long visit_sum(const mcts_stats_t *st)
{
    long sum = 0;
    for (int i = 0; i < st->root_move_count; i++)
        sum += st->root_moves[i].visits;
    return sum;
}

static void test_modes(void)
{
    for (int mode = MCTS_PARALLEL_TREE; mode <= MCTS_PARALLEL_ROOT; mode++) {
        nim_state_t n;
        nim_set(&n, 13, 0);
        mcts_t *m = parallel_searcher(&nim_api, (mcts_parallel_t)mode, 3000);
        mcts_stats_t st;
        move_t mv = mcts_search(m, &n, &st);
        CHECK_MSG(nim_move_wins(13, mv), "mode %d: move %u", mode, (unsigned)mv);
        CHECK_EQ_INT(st.iterations, 3000);
        check_tree(m);
        /* A thread that finds a node being expanded may roll out from it instead. */
        CHECK(visit_sum(&st) <= 3000 && visit_sum(&st) > 2950);
        mcts_free(m);

        trick_state_t t, undo;
        trick_deal(&t, 31);
        m = parallel_searcher(&trick_api, (mcts_parallel_t)mode, 2000);
        /* A whole game, every seat searched by the same two-thread searcher. */
        while (!trick_is_terminal(&t)) {
            mv = mcts_search(m, &t, &st);
            CHECK(toy_is_legal(&trick_api, &t, mv));
            check_tree(m);
            trick_make(&t, mv, &undo);
            mcts_advance(m, mv);
        }
        mcts_free(m);
    }
}

static void test_parallel_memory_cap(void)
{
    for (int mode = MCTS_PARALLEL_TREE; mode <= MCTS_PARALLEL_ROOT; mode++) {
        trick_state_t t;
        trick_deal(&t, 8);
        mcts_options_t opt;
        mcts_options_default(&opt);
        opt.threads = 2;
        opt.parallel = (mcts_parallel_t)mode;
        opt.iterations = 2000;
        opt.memory_bytes = 4000;
        mcts_t *m = mcts_new(&trick_api, &opt);
        mcts_stats_t st;
        move_t mv = mcts_search(m, &t, &st);
        CHECK(toy_is_legal(&trick_api, &t, mv));
        CHECK(st.memory_capped);
        CHECK_EQ_INT(st.iterations, 2000);
        check_tree(m);
        mcts_free(m);
    }
    /* A whole game, a searcher per seat, small arenas with reuse: full trees are kept
       and compacted. */
    trick_state_t t, undo;
    trick_deal(&t, 19);
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.threads = 2;
    opt.iterations = 600;
    opt.memory_bytes = 16384;
    mcts_t *seat[TRICK_PLAYERS];
    for (int p = 0; p < TRICK_PLAYERS; p++)
        seat[p] = mcts_new(&trick_api, &opt);
    int capped = 0, reused = 0;
    while (!trick_is_terminal(&t)) {
        mcts_stats_t st;
        mcts_t *m = seat[t.to_move];
        move_t mv = mcts_search(m, &t, &st);
        CHECK(toy_is_legal(&trick_api, &t, mv));
        check_tree(m);
        capped += st.memory_capped;
        reused += st.reused;
        trick_make(&t, mv, &undo);
        for (int p = 0; p < TRICK_PLAYERS; p++)
            mcts_advance(seat[p], mv);
    }
    CHECK(capped > 0);
    CHECK(reused > 0);
    for (int p = 0; p < TRICK_PLAYERS; p++)
        mcts_free(seat[p]);
}

static void test_parallel_reuse(void)
{
    nim_state_t n, undo;
    nim_set(&n, 17, 0);
    mcts_t *m = parallel_searcher(&nim_api, MCTS_PARALLEL_TREE, 2000);
    mcts_stats_t st;
    move_t mv = mcts_search(m, &n, &st);
    while (!nim_is_terminal(&n)) {
        nim_make(&n, mv, &undo);
        mcts_advance(m, mv);
        if (nim_is_terminal(&n))
            break;
        mv = mcts_search(m, &n, &st);
        CHECK(toy_is_legal(&nim_api, &n, mv));
        check_tree(m);
        /* The player to move changes between searches except after extra turns. */
        if (st.reused)
            CHECK(visit_sum(&st) <= st.reused_visits - 1 + st.iterations &&
                  visit_sum(&st) > st.reused_visits + st.iterations - 50);
    }
    mcts_free(m);
}

/* A time budget alone: only legality is checked (no timing in tests). */
static void test_time_budget(void)
{
    trick_state_t t;
    trick_deal(&t, 77);
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.threads = 2;
    opt.iterations = 0;
    opt.time_ms = 30;
    mcts_t *m = mcts_new(&trick_api, &opt);
    CHECK(m != NULL);
    CHECK(toy_is_legal(&trick_api, &t, mcts_search(m, &t, NULL)));
    mcts_free(m);
    double seconds;
    for (int mode = MCTS_PARALLEL_TREE; mode <= MCTS_PARALLEL_ROOT; mode++)
        CHECK_EQ_INT(mcts_bench_iterations(&nim_api, &(nim_state_t){20, 0, -1}, 2,
                                           (mcts_parallel_t)mode, 800, &seconds),
                     800);
    /* Independent searches at once (the bench's ceiling): every one runs its budget. */
    CHECK_EQ_INT(mcts_bench_independent(&nim_api, &(nim_state_t){20, 0, -1}, 2, 800, &seconds),
                 1600);
    CHECK_EQ_INT(mcts_bench_independent(&nim_api, &(nim_state_t){20, 0, -1}, 0, 800, &seconds), -1);
}

/* Root statistics of one search: most visits first, then by move. */
static void root_stats_copy(const mcts_stats_t *st, mcts_move_stat_t *out)
{
    for (int i = 0; i < st->root_move_count; i++)
        out[i] = st->root_moves[i];
}

/*
 * Plays up to `plies` moves of trick deal `deal` with a searcher of options opt: every move
 * legal, every search of the exact budget (when there is a choice), every tree checked.
 */
static void trick_game_checked(const mcts_options_t *opt, int deal, int plies)
{
    mcts_t *m = mcts_new(&trick_api, opt);
    CHECK(m != NULL);
    if (!m)
        return;
    trick_state_t t, undo;
    trick_deal(&t, deal);
    for (int ply = 0; ply < plies && !trick_is_terminal(&t); ply++) {
        mcts_stats_t st;
        move_t mv = mcts_search(m, &t, &st);
        CHECK(toy_is_legal(&trick_api, &t, mv));
        if (st.root_move_count > 1)
            CHECK_EQ_INT(st.iterations, opt->iterations);
        check_tree(m);
        trick_make(&t, mv, &undo);
        mcts_advance(m, mv);
    }
    mcts_free(m);
}

/*
 * Delayed publication (sync): with one thread the search is the same for every sync (the
 * thread sees its own pending results), and with unobserved passes counted or not (there
 * are none), so the moves, root statistics and tree size of a whole game agree; with two
 * threads the tree passes mcts_check (every pending count, unobserved pass and virtual
 * loss published) and the budget is exact, also with more threads than a node has
 * unobserved slots (threads then share a slot); sync outside 0 to 64 is refused.
 */
static void test_sync(void)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.sync = -1;
    CHECK(mcts_new(&trick_api, &opt) == NULL);
    opt.sync = 65;
    CHECK(mcts_new(&trick_api, &opt) == NULL);

    static const int syncs[] = {1, 3, 8, 64, 64};
    static const bool unobserved[] = {true, true, true, true, false};
    enum { SYNCS = sizeof syncs / sizeof *syncs };
    mcts_t *one[SYNCS];
    for (int k = 0; k < SYNCS; k++) {
        mcts_options_default(&opt);
        opt.iterations = 700;
        opt.seed = 77;
        opt.sync = syncs[k];
        opt.unobserved = unobserved[k];
        one[k] = mcts_new(&trick_api, &opt);
        CHECK(one[k] != NULL);
    }
    trick_state_t t, undo;
    trick_deal(&t, 5);
    while (!trick_is_terminal(&t)) {
        mcts_move_stat_t first[64];
        mcts_stats_t st0 = {0};
        move_t mv0 = 0;
        for (int k = 0; k < SYNCS; k++) {
            mcts_stats_t st;
            move_t mv = mcts_search(one[k], &t, &st);
            check_tree(one[k]);
            CHECK(st.root_move_count <= 64);
            if (k == 0) {
                mv0 = mv;
                st0 = st;
                root_stats_copy(&st, first);
                continue;
            }
            CHECK_MSG(mv == mv0, "sync %d (unobserved %d): move %u, sync 1: %u", syncs[k],
                      (int)unobserved[k], (unsigned)mv, (unsigned)mv0);
            CHECK_EQ_INT(st.nodes, st0.nodes);
            CHECK_EQ_INT(st.root_move_count, st0.root_move_count);
            for (int i = 0; i < st.root_move_count && i < 64; i++)
                CHECK_MSG(st.root_moves[i].move == first[i].move &&
                              st.root_moves[i].visits == first[i].visits &&
                              st.root_moves[i].mean == first[i].mean,
                          "sync %d: root move %d differs", syncs[k], i);
        }
        trick_make(&t, mv0, &undo);
        for (int k = 0; k < SYNCS; k++)
            mcts_advance(one[k], mv0);
    }
    for (int k = 0; k < SYNCS; k++)
        mcts_free(one[k]);

    for (int k = 0; k < SYNCS; k++) {
        for (int vl = 0; vl <= 1; vl++) {
            mcts_options_default(&opt);
            opt.threads = 2;
            opt.iterations = 1500;
            opt.seed = 78;
            opt.sync = syncs[k];
            opt.unobserved = unobserved[k];
            opt.virtual_loss = vl;
            trick_game_checked(&opt, 6, 1000);
        }
        nim_state_t n;
        nim_set(&n, 13, 0);
        mcts_options_default(&opt);
        opt.threads = 2;
        opt.iterations = 3000;
        opt.sync = syncs[k];
        opt.unobserved = unobserved[k];
        mcts_t *m = mcts_new(&nim_api, &opt);
        move_t mv = mcts_search(m, &n, NULL);
        CHECK_MSG(nim_move_wins(13, mv), "sync %d: move %u", syncs[k], (unsigned)mv);
        check_tree(m);
        mcts_free(m);
    }

    mcts_options_default(&opt);
    opt.threads = 6;
    opt.iterations = 3000;
    opt.unobserved = true;
    opt.seed = 79;
    trick_game_checked(&opt, 7, 6);
}

/*
 * Unobserved passes are counted only at nodes with fewer published visits than
 * unobserved_below: one thread counts none; two threads counting at every node count at
 * least the root's pass of each iteration; with unobserved_below 1 and a publication after
 * every iteration, a node counts only the passes made before its first published visit, at
 * most one per thread, so at most two per node - fewer than the same search counting at
 * every node. An unobserved_below below 1 is refused.
 */
static void test_unobserved_below(void)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    CHECK(!opt.unobserved && opt.unobserved_below == 64);
    opt.unobserved_below = 0;
    CHECK(mcts_new(&nim_api, &opt) == NULL);

    static const int threads[] = {1, 2, 2, 2};
    static const int below[] = {1 << 30, 1 << 30, 1, 64};
    long counted[4], nodes[4], iterations[4];
    for (int k = 0; k < 4; k++) {
        mcts_options_default(&opt);
        opt.threads = threads[k];
        opt.iterations = 4000;
        opt.sync = 1;
        opt.unobserved = true;
        opt.unobserved_below = below[k];
        mcts_t *m = mcts_new(&nim_api, &opt);
        CHECK(m != NULL);
        nim_state_t n;
        nim_set(&n, 17, 0);
        mcts_stats_t st;
        mcts_search(m, &n, &st);
        check_tree(m);
        counted[k] = st.unobserved_passes;
        nodes[k] = st.nodes;
        iterations[k] = st.iterations;
        mcts_free(m);
    }
    CHECK_EQ_INT(counted[0], 0);
    CHECK_MSG(counted[1] >= iterations[1], "every node: %ld passes counted in %ld iterations",
              counted[1], iterations[1]);
    CHECK_MSG(counted[2] <= 2 * nodes[2], "below 1: %ld passes counted for %ld nodes", counted[2],
              nodes[2]);
    CHECK_MSG(counted[1] > 2 * nodes[1], "every node: only %ld passes counted for %ld nodes",
              counted[1], nodes[1]);
    CHECK_MSG(counted[2] < counted[3] && counted[3] < counted[1],
              "passes counted below 1, 64, everywhere: %ld, %ld, %ld", counted[2], counted[3],
              counted[1]);
}

int main(void)
{
    test_modes();
    test_unobserved_below();
    test_parallel_memory_cap();
    test_parallel_reuse();
    test_time_budget();
    test_sync();
    return test_finish("test_search_parallel");
}
