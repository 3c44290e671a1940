/* Single-thread MCTS on the toy games: strength, determinism, no peeking, memory cap,
   tree reuse and hooks. */
#include "search/mcts_bench.h"
#include "tests/test.h"
#include "tests/test_search_toy.h"

/* The searcher's tree passes mcts_check. */
static void check_tree(const mcts_t *m)
{
    char err[256];
    int rc = mcts_check(m, err, sizeof err);
    CHECK_MSG(rc == 0, "%s", err);
}

static mcts_t *searcher(const game_api_t *api, long iterations, uint64_t seed)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = iterations;
    opt.seed = seed;
    mcts_t *m = mcts_new(api, &opt);
    CHECK(m != NULL);
    return m;
}

static void test_nim_winning_moves(void)
{
    int found = 0;
    for (int pile = 2; pile <= 14; pile++) {
        if (!nim_wins(pile))
            continue;
        nim_state_t s;
        nim_set(&s, pile, pile % 2);
        mcts_t *m = searcher(&nim_api, 4000, 11);
        mcts_stats_t st;
        move_t mv = mcts_search(m, &s, &st);
        CHECK_MSG(nim_move_wins(pile, mv), "pile %d: move %u", pile, (unsigned)mv);
        CHECK_EQ_INT(st.iterations, 4000);
        CHECK(st.root_move_count == 3 || st.root_move_count == pile);
        CHECK(st.nodes > 0 && st.max_depth > 0);
        CHECK(!st.memory_capped);
        check_tree(m);
        found++;
        mcts_free(m);
    }
    CHECK(found >= 5);
}

static void test_nim_final_mean(void)
{
    nim_state_t s;
    nim_set(&s, 12, 0);
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = 4000;
    opt.final = MCTS_FINAL_MEAN;
    mcts_t *m = mcts_new(&nim_api, &opt);
    move_t mv = mcts_search(m, &s, NULL);
    CHECK(nim_move_wins(12, mv));
    mcts_free(m);
}

/* Trick 3 of 4: P1 led 10, P2 played 9, P0 holds {0, 11}; 11 is never worse. */
static void trick_crafted(trick_state_t *s, bool swap_hidden)
{
    memset(s, 0, sizeof *s);
    s->hand[0] = (1u << 0) | (1u << 11);
    s->hand[1] = (uint16_t)(1u << (swap_hidden ? 8 : 7));
    s->hand[2] = (uint16_t)(1u << (swap_hidden ? 7 : 8));
    s->trick[0] = -1;
    s->trick[1] = 10;
    s->trick[2] = 9;
    s->trick_count = 2;
    s->to_move = 0;
    s->points[0] = 1;
    s->points[1] = 1;
}

static void test_trick_best_card(void)
{
    for (int v = 0; v < 2; v++) {
        trick_state_t s;
        trick_crafted(&s, v == 1);
        mcts_t *m = searcher(&trick_api, 2000, 3);
        mcts_stats_t st;
        CHECK_EQ_INT(mcts_search(m, &s, &st), 11);
        CHECK_EQ_INT(st.root_move_count, 2);
        CHECK_EQ_INT(st.root_moves[0].move, 11);
        /* 11 wins outright when P2 holds 8: mean 0.875; 0 always ties P1: 0.75. */
        CHECK(st.root_moves[0].mean > 0.8 && st.root_moves[0].mean < 0.95);
        mcts_free(m);
    }
}

static bool stats_equal(const mcts_stats_t *a, const mcts_stats_t *b)
{
    if (a->iterations != b->iterations || a->nodes != b->nodes || a->max_depth != b->max_depth ||
        a->root_move_count != b->root_move_count)
        return false;
    for (int i = 0; i < a->root_move_count; i++)
        if (a->root_moves[i].move != b->root_moves[i].move ||
            a->root_moves[i].visits != b->root_moves[i].visits ||
            a->root_moves[i].mean != b->root_moves[i].mean)
            return false;
    return true;
}

static void test_repeatable(void)
{
    trick_state_t s;
    trick_deal(&s, 99);
    mcts_t *a = searcher(&trick_api, 3000, 42);
    mcts_t *b = searcher(&trick_api, 3000, 42);
    mcts_stats_t sa, sb;
    move_t ma = mcts_search(a, &s, &sa);
    move_t mb = mcts_search(b, &s, &sb);
    CHECK_EQ_INT(ma, mb);
    CHECK(stats_equal(&sa, &sb));
    CHECK(toy_is_legal(&trick_api, &s, ma));
    /* A second search from the same searcher repeats too (same call sequence). */
    mcts_reset(a);
    mcts_reset(b);
    CHECK_EQ_INT(mcts_search(a, &s, &sa), mcts_search(b, &s, &sb));
    CHECK(stats_equal(&sa, &sb));
    mcts_free(a);
    mcts_free(b);
}

/* Deals the cards `me` cannot see differently, keeping every count. */
static void trick_rotate_hidden(trick_state_t *s, int me)
{
    uint8_t cards[TRICK_CARDS];
    int n = 0;
    for (int p = 0; p < TRICK_PLAYERS; p++)
        for (int c = 0; c < TRICK_CARDS; c++)
            if (p != me && (s->hand[p] & (1u << c)))
                cards[n++] = (uint8_t)c;
    for (int i = 0; i < s->pile_count; i++)
        cards[n++] = (uint8_t)s->pile[i];
    int k = 1; /* dealt back shifted by one */
    for (int p = 0; p < TRICK_PLAYERS; p++) {
        if (p == me)
            continue;
        int count = trick_popcount(s->hand[p]);
        s->hand[p] = 0;
        for (int j = 0; j < count; j++)
            s->hand[p] |= (uint16_t)(1u << cards[k++ % n]);
    }
    for (int i = 0; i < s->pile_count; i++)
        s->pile[i] = (int8_t)cards[k++ % n];
}

/* Two states alike for the player to move, different in what it cannot see. */
static void test_no_peeking(void)
{
    for (int deal = 0; deal < 6; deal++) {
        trick_state_t s1, s2, undo;
        trick_deal(&s1, 500 + (uint64_t)deal);
        /* Play a few moves so the searcher is not always player 0. */
        pcg32_t rng;
        pcg32_seed(&rng, (uint64_t)deal, 1);
        move_t moves[TRICK_CARDS];
        for (int k = 0; k < deal; k++) {
            int n = trick_gen_moves(&s1, moves);
            trick_make(&s1, moves[pcg32_bounded(&rng, (uint32_t)n)], &undo);
        }
        s2 = s1;
        trick_rotate_hidden(&s2, s2.to_move);
        CHECK(memcmp(&s1, &s2, sizeof s1) != 0);
        mcts_t *m1 = searcher(&trick_api, 1500, 77);
        mcts_t *m2 = searcher(&trick_api, 1500, 77);
        mcts_stats_t st1, st2;
        CHECK_EQ_INT(mcts_search(m1, &s1, &st1), mcts_search(m2, &s2, &st2));
        CHECK_MSG(stats_equal(&st1, &st2), "deal %d", deal);
        mcts_free(m1);
        mcts_free(m2);
    }
}

/* With cheat, the search reads the hidden cards: the deals of test_no_peeking with the
   hidden cards rotated are searched differently. */
static void test_cheat(void)
{
    int differ = 0;
    for (int deal = 0; deal < 6; deal++) {
        trick_state_t s1, s2;
        trick_deal(&s1, 500 + (uint64_t)deal);
        s2 = s1;
        trick_rotate_hidden(&s2, s2.to_move);
        mcts_options_t opt;
        mcts_options_default(&opt);
        opt.iterations = 1500;
        opt.seed = 77;
        opt.cheat = true;
        mcts_t *m1 = mcts_new(&trick_api, &opt);
        mcts_t *m2 = mcts_new(&trick_api, &opt);
        mcts_stats_t st1, st2;
        mcts_search(m1, &s1, &st1);
        mcts_search(m2, &s2, &st2);
        differ += !stats_equal(&st1, &st2);
        check_tree(m1);
        mcts_free(m1);
        mcts_free(m2);
    }
    CHECK_MSG(differ >= 4, "cheat: %d of 6 deals searched differently", differ);
}

static void test_memory_cap(void)
{
    static const size_t caps[] = {1, 1000, 64 * 1024};
    for (int i = 0; i < 3; i++) {
        trick_state_t s;
        trick_deal(&s, 5);
        mcts_options_t opt;
        mcts_options_default(&opt);
        opt.iterations = 5000;
        opt.memory_bytes = caps[i];
        mcts_t *m = mcts_new(&trick_api, &opt);
        CHECK(m != NULL);
        mcts_stats_t st;
        move_t mv = mcts_search(m, &s, &st);
        CHECK(toy_is_legal(&trick_api, &s, mv));
        CHECK(st.memory_capped);
        CHECK_EQ_INT(st.iterations, 5000);
        check_tree(m);
        CHECK(caps[i] < 1000 || (size_t)st.nodes * 40 <= caps[i]);
        /* Searching again (tree kept, still full) stays safe. */
        mv = mcts_search(m, &s, &st);
        CHECK(toy_is_legal(&trick_api, &s, mv));
        mcts_free(m);
    }
}

static long visit_sum(const mcts_stats_t *st)
{
    long sum = 0;
    for (int i = 0; i < st->root_move_count; i++)
        sum += st->root_moves[i].visits;
    return sum;
}

static void test_tree_reuse(void)
{
    nim_state_t s, undo;
    nim_set(&s, 13, 0);
    mcts_t *m = searcher(&nim_api, 3000, 8);
    mcts_stats_t st;
    move_t mv = mcts_search(m, &s, &st);
    CHECK(!st.reused);
    long nodes_before = st.nodes;
    /* Play the move and the opponent's reply 1 (or 1 again after an extra turn). */
    nim_make(&s, mv, &undo);
    mcts_advance(m, mv);
    int searcher_player = 0;
    while (s.to_move == searcher_player && s.winner < 0) {
        nim_make(&s, 1, &undo);
        mcts_advance(m, 1);
    }
    nim_make(&s, 1, &undo);
    mcts_advance(m, 1);
    if (s.to_move != searcher_player || s.winner >= 0) {
        CHECK_MSG(false, "unexpected line");
        mcts_free(m);
        return;
    }
    mv = mcts_search(m, &s, &st);
    CHECK(st.reused);
    CHECK(st.reused_visits > 0);
    check_tree(m);
    CHECK(st.nodes < nodes_before + 3000);
    /* Every iteration, old and new, went through a root child (no terminal root). */
    CHECK_EQ_INT(visit_sum(&st), st.reused_visits - 1 + 3000);
    CHECK(nim_move_wins(s.pile, mv) || !nim_wins(s.pile));

    /* A state that does not follow from the reported moves: the tree is not kept. */
    nim_state_t other;
    nim_set(&other, 2, s.to_move);
    mcts_search(m, &other, &st);
    CHECK(!st.reused);
    mv = mcts_search(m, &s, &st);
    CHECK(!st.reused);

    /* A move never searched cannot be matched: a fresh tree. */
    mcts_advance(m, mv);
    mcts_advance(m, 2);
    mcts_advance(m, 3);
    mcts_advance(m, 3);
    nim_set(&s, 20, 0);
    mcts_search(m, &s, &st);
    CHECK(!st.reused);
    CHECK_EQ_INT(visit_sum(&st), 3000);
    mcts_free(m);

    /* Reuse off: never kept. */
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = 500;
    opt.reuse = false;
    m = mcts_new(&nim_api, &opt);
    nim_set(&s, 9, 0);
    mv = mcts_search(m, &s, &st);
    mcts_advance(m, mv);
    nim_make(&s, mv, &undo);
    mcts_search(m, &s, &st);
    CHECK(!st.reused);
    mcts_free(m);
}

/* The searcher's own move that earns an extra turn: the kept subtree (same player to move
   at the new root, its children the searcher's moves again) is reused and plays well. */
static void test_reuse_extra_turn(void)
{
    nim_state_t s, undo;
    nim_set(&s, 13, 0);
    mcts_t *m = searcher(&nim_api, 3000, 5);
    mcts_stats_t st;
    mcts_search(m, &s, &st);
    nim_make(&s, 2, &undo); /* 11 left: another turn for player 0 */
    mcts_advance(m, 2);
    CHECK_EQ_INT(s.to_move, 0);
    move_t mv = mcts_search(m, &s, &st);
    CHECK(st.reused);
    CHECK(st.reused_visits > 0);
    check_tree(m);
    CHECK(nim_move_wins(s.pile, mv) || !nim_wins(s.pile));
    mcts_free(m);
}

/* A new player to move at the root (another observer) never inherits the tree. */
static void test_reuse_other_observer(void)
{
    trick_state_t s, undo;
    trick_deal(&s, 12);
    mcts_t *m = searcher(&trick_api, 1000, 4);
    mcts_stats_t st;
    move_t mv = mcts_search(m, &s, &st);
    trick_make(&s, mv, &undo);
    mcts_advance(m, mv);
    CHECK(s.to_move != 0);
    mcts_search(m, &s, &st);
    CHECK(!st.reused);
    mcts_free(m);
}

static int rollout_calls, prior_calls, evaluate_calls;

static void count_rollout(const game_api_t *api, void *state, pcg32_t *rng, void *ctx)
{
    (*(int *)ctx)++;
    api->playout(state, rng);
}

/* Also checks that the hook gets the state's legal moves, in the game's order. */
static void prefer_one(const game_api_t *api, const void *state, const move_t *moves, int n,
                       double *priors, void *ctx)
{
    move_t legal[GAME_MAX_MOVES];
    int count = api->gen_moves(state, legal);
    CHECK_EQ_INT(n, count);
    for (int i = 0; i < n && i < count; i++)
        CHECK(moves[i] == legal[i]);
    for (int i = 0; i < n; i++)
        priors[i] = moves[i] == 1 ? 1.0 : 0.0;
    (*(int *)ctx)++;
}

/* Exact values from the nim solver. */
static void nim_evaluate(const game_api_t *api, const void *state, double *values, void *ctx)
{
    (void)api;
    (*(int *)ctx)++;
    const nim_state_t *s = state;
    bool win = nim_wins(s->pile);
    values[s->to_move] = win ? 1.0 : 0.0;
    values[s->to_move ^ 1] = win ? 0.0 : 1.0;
}

static void test_hooks(void)
{
    nim_state_t s;
    nim_set(&s, 14, 1);
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = 300;
    opt.rollout = count_rollout;
    opt.rollout_ctx = &rollout_calls;
    mcts_t *m = mcts_new(&nim_api, &opt);
    CHECK(toy_is_legal(&nim_api, &s, mcts_search(m, &s, NULL)));
    CHECK(rollout_calls > 200);
    mcts_free(m);

    mcts_options_default(&opt);
    opt.iterations = 300;
    opt.prior = prefer_one;
    opt.prior_ctx = &prior_calls;
    opt.prior_weight = 0.5;
    m = mcts_new(&nim_api, &opt);
    CHECK(toy_is_legal(&nim_api, &s, mcts_search(m, &s, NULL)));
    CHECK(prior_calls > 0);
    mcts_free(m);

    /* A perfect evaluator at the leaves finds the win with few iterations. */
    for (int cutoff = 0; cutoff <= 2; cutoff += 2) {
        mcts_options_default(&opt);
        opt.iterations = 200;
        opt.evaluate = nim_evaluate;
        opt.evaluate_ctx = &evaluate_calls;
        opt.cutoff_depth = cutoff;
        m = mcts_new(&nim_api, &opt);
        evaluate_calls = 0;
        nim_set(&s, 14, 1);
        move_t mv = mcts_search(m, &s, NULL);
        CHECK(evaluate_calls > 0);
        if (cutoff == 0)
            CHECK(nim_move_wins(14, mv));
        mcts_free(m);
    }
}

static void uniform_prior(const game_api_t *api, const void *state, const move_t *moves, int n,
                          double *priors, void *ctx)
{
    (void)api;
    (void)state;
    (void)moves;
    (void)ctx;
    for (int i = 0; i < n; i++)
        priors[i] = 1.0 / 3.0;
}

static void prefer_winning(const game_api_t *api, const void *state, const move_t *moves, int n,
                           double *priors, void *ctx)
{
    (void)api;
    (void)ctx;
    for (int i = 0; i < n; i++)
        priors[i] = nim_move_wins(((const nim_state_t *)state)->pile, moves[i]) ? 0.9 : 0.05;
}

/* Root moves that got at least one visit. */
static int visited_root_moves(const mcts_stats_t *st)
{
    int k = 0;
    for (int i = 0; i < st->root_move_count; i++)
        k += st->root_moves[i].visits > 0;
    return k;
}

static void test_untried_urgency(void)
{
    nim_state_t s;
    nim_set(&s, 14, 1);
    mcts_options_t opt;
    mcts_stats_t st;

    /* An fpu below every mean alone expands one root move only ... */
    mcts_options_default(&opt);
    opt.iterations = 300;
    opt.fpu = -10.0;
    mcts_t *m = mcts_new(&nim_api, &opt);
    mcts_search(m, &s, &st);
    CHECK_EQ_INT(visited_root_moves(&st), 1);
    mcts_free(m);

    /* ... but an untried move's prior adds to its urgency, so strong priors are tried. */
    opt.prior = uniform_prior;
    opt.prior_weight = 100.0;
    m = mcts_new(&nim_api, &opt);
    mcts_search(m, &s, &st);
    CHECK_EQ_INT(visited_root_moves(&st), 3);
    check_tree(m);
    mcts_free(m);

    /* Relative fpu: far below the mover's mean, one move; far above it, all of them. */
    mcts_options_default(&opt);
    opt.iterations = 300;
    opt.fpu_relative = true;
    opt.fpu = -2.0;
    m = mcts_new(&nim_api, &opt);
    mcts_search(m, &s, &st);
    CHECK_EQ_INT(visited_root_moves(&st), 1);
    mcts_free(m);
    opt.fpu = 2.0;
    m = mcts_new(&nim_api, &opt);
    mcts_search(m, &s, &st);
    CHECK_EQ_INT(visited_root_moves(&st), 3);
    mcts_free(m);
}

static void test_prior_puct(void)
{
    /* A good prior in PUCT form, no UCB term: the winning move from every winning pile. */
    for (int pile = 5; pile <= 14; pile++) {
        if (!nim_wins(pile))
            continue;
        nim_state_t s;
        nim_set(&s, pile, 0);
        mcts_options_t opt;
        mcts_options_default(&opt);
        opt.iterations = 500;
        opt.c = 0.0;
        opt.fpu = 0.0;
        opt.fpu_relative = true;
        opt.prior = prefer_winning;
        opt.prior_form = MCTS_PRIOR_PUCT;
        opt.prior_weight = 1.0;
        mcts_t *m = mcts_new(&nim_api, &opt);
        mcts_stats_t st;
        move_t mv = mcts_search(m, &s, &st);
        CHECK_MSG(nim_move_wins(pile, mv), "pile %d: move %u", pile, (unsigned)mv);
        check_tree(m);
        mcts_free(m);
    }
}

static void test_edges(void)
{
    /* Without determinize (nothing hidden) and playout (random moves by the search). */
    game_api_t bare = nim_api;
    bare.determinize = NULL;
    bare.playout = NULL;
    nim_state_t b;
    nim_set(&b, 13, 1);
    mcts_t *mb = searcher(&bare, 4000, 6);
    CHECK(nim_move_wins(13, mcts_search(mb, &b, NULL)));
    mcts_free(mb);

    nim_state_t s;
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = 0;
    CHECK(mcts_new(&nim_api, &opt) == NULL); /* no budget at all */
    mcts_options_default(&opt);
    opt.threads = 0;
    CHECK(mcts_new(&nim_api, &opt) == NULL);
    /* mcts_create says why, in one line. */
    char why[160] = "";
    CHECK(mcts_create(&nim_api, &opt, why, sizeof why) == NULL && strstr(why, "threads") &&
          !strchr(why, '\n'));
    mcts_options_default(&opt);
    opt.iterations = 0;
    CHECK(mcts_create(&nim_api, &opt, why, sizeof why) == NULL && strstr(why, "no budget"));
    mcts_options_default(&opt);
    opt.tree = MCTS_TREE_MULTI;
    opt.parallel = MCTS_PARALLEL_ROOT;
    CHECK(mcts_create(&nim_api, &opt, why, sizeof why) == NULL && strstr(why, "tree multi"));
    mcts_options_default(&opt);
    opt.iterations = 10;
    why[0] = '\0';
    mcts_t *ok = mcts_create(&nim_api, &opt, why, sizeof why);
    CHECK(ok != NULL && why[0] == '\0');
    mcts_free(ok);

    mcts_t *m = searcher(&nim_api, 100, 1);
    mcts_stats_t st;
    nim_set(&s, 1, 0); /* one legal move: no search */
    CHECK_EQ_INT(mcts_search(m, &s, &st), 1);
    CHECK_EQ_INT(st.iterations, 0);
    nim_set(&s, 0, 0);
    s.winner = 1; /* terminal */
    CHECK(mcts_search(m, &s, &st) == MCTS_NO_MOVE);
    CHECK_EQ_INT(st.root_move_count, 0);
    mcts_free(m);

    double seconds;
    trick_state_t t;
    trick_deal(&t, 3);
    CHECK_EQ_INT(mcts_bench_iterations(&trick_api, &t, 1, MCTS_PARALLEL_TREE, 500, &seconds), 500);
    CHECK(seconds >= 0.0);
}

/* The coalition game: max^n plays A, paranoid plays B (player 1 is assumed to hurt player
   0), in one thread and with two threads on one tree and in root mode. */
static void test_backup(void)
{
    const mcts_backup_t rules[2] = {MCTS_BACKUP_MAXN, MCTS_BACKUP_PARANOID};
    const struct {
        int threads;
        mcts_parallel_t mode;
    } runs[3] = {{1, MCTS_PARALLEL_TREE}, {2, MCTS_PARALLEL_TREE}, {2, MCTS_PARALLEL_ROOT}};
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 3; k++) {
            coalition_state_t s;
            coalition_new_game(&s, NULL, NULL, 0);
            mcts_options_t opt;
            mcts_options_default(&opt);
            opt.iterations = 2000;
            opt.seed = 5;
            opt.backup = rules[r];
            opt.threads = runs[k].threads;
            opt.parallel = runs[k].mode;
            mcts_t *m = mcts_new(&coalition_api, &opt);
            CHECK(m != NULL);
            if (!m)
                continue;
            mcts_stats_t st;
            move_t mv = mcts_search(m, &s, &st);
            CHECK_MSG(mv == (move_t)r, "backup %d, %d threads, mode %d: move %u", r,
                      runs[k].threads, (int)runs[k].mode, (unsigned)mv);
            check_tree(m);
            mcts_free(m);
        }
    /* An unknown rule is refused. */
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.backup = (mcts_backup_t)7;
    CHECK(mcts_new(&coalition_api, &opt) == NULL);
}

int main(void)
{
    test_nim_winning_moves();
    test_nim_final_mean();
    test_trick_best_card();
    test_repeatable();
    test_no_peeking();
    test_cheat();
    test_memory_cap();
    test_tree_reuse();
    test_reuse_extra_turn();
    test_reuse_other_observer();
    test_hooks();
    test_untried_urgency();
    test_prior_puct();
    test_edges();
    test_backup();
    return test_finish("test_search_toy");
}
