/*
 * The fast descent (search/worker_fast.c) chooses exactly what the general one chooses:
 * seeded one-thread Connect Four searches, from the empty board, from positions a few and
 * many random moves in (near the end, with won and drawn children), at budgets from a few
 * iterations to ones that fill the tree deeply, with several constants, a first-play
 * urgency that competes with the children's scores and a memory cap that fills the arena,
 * give the same root statistics (visits and mean results, bit for bit), chosen move, tree
 * size, depth and root values with the fast descent on and forced off; a search that
 * keeps the tree afterwards (reuse) then goes on the same way. And the fast descent is
 * taken where it should be and not elsewhere.
 */
#include <string.h>

#include "core/connect4/connect4.h"
#include "search/internal.h"
#include "tests/test.h"

/* A seeded position: `plies` random moves from the empty board (fewer if the game ends). */
static void position(c4_state_t *s, int plies, uint64_t seed)
{
    c4_init(s, 0);
    pcg32_t rng;
    pcg32_seed(&rng, seed, 3);
    move_t moves[GAME_MAX_MOVES];
    c4_undo_t undo;
    for (int k = 0; k < plies; k++) {
        int n = connect4_api.gen_moves(s, moves);
        if (n <= 1)
            break;
        c4_state_t next = *s;
        connect4_api.make(&next, moves[pcg32_bounded(&rng, (uint32_t)n)], &undo);
        if (connect4_api.gen_moves(&next, moves) == 0)
            break; /* keep a position with moves left */
        *s = next;
    }
}

/* What a search left: the move, its statistics and the root's, in one comparable record. */
typedef struct outcome {
    move_t best;
    long iterations, nodes;
    int max_depth, moves;
    bool capped;
    double root_value[2];
    mcts_move_stat_t stat[GAME_MAX_MOVES];
} outcome_t;

static void outcome_of(outcome_t *o, move_t best, const mcts_stats_t *st)
{
    memset(o, 0, sizeof *o);
    o->best = best;
    o->iterations = st->iterations;
    o->nodes = st->nodes;
    o->max_depth = st->max_depth;
    o->capped = st->memory_capped;
    o->moves = st->root_move_count;
    memcpy(o->root_value, st->root_value, sizeof o->root_value);
    memcpy(o->stat, st->root_moves, (size_t)o->moves * sizeof *o->stat);
}

static bool outcome_same(const outcome_t *a, const outcome_t *b)
{
    if (a->best != b->best || a->iterations != b->iterations || a->nodes != b->nodes ||
        a->max_depth != b->max_depth || a->capped != b->capped || a->moves != b->moves ||
        memcmp(a->root_value, b->root_value, sizeof a->root_value))
        return false;
    for (int i = 0; i < a->moves; i++)
        if (a->stat[i].move != b->stat[i].move || a->stat[i].visits != b->stat[i].visits ||
            memcmp(&a->stat[i].mean, &b->stat[i].mean, sizeof(double)))
            return false;
    return true;
}

/* Two searches from s by one searcher with opt (the second after the best move is told by
   mcts_advance, on the kept tree), fast descent forced off when off: outcomes into o[2],
   and whether the first search took the fast descent into *fast. */
static void search_twice(const mcts_options_t *opt, const c4_state_t *s, bool off, outcome_t *o,
                         bool *fast)
{
    mcts_t *m = mcts_new(&connect4_api, opt);
    CHECK(m != NULL);
    if (!m)
        return;
    m->fast_off = off;
    mcts_stats_t st;
    move_t best = mcts_search(m, s, &st);
    *fast = m->fast;
    outcome_of(&o[0], best, &st);
    char err[256];
    CHECK_MSG(mcts_check(m, err, sizeof err) == 0, "after the first search: %s", err);
    c4_state_t next = *s;
    c4_undo_t undo;
    connect4_api.make(&next, best, &undo);
    memset(&o[1], 0, sizeof o[1]);
    if (connect4_api.gen_moves(&next, (move_t[GAME_MAX_MOVES]){0}) > 0) {
        mcts_advance(m, best);
        best = mcts_search(m, &next, &st);
        outcome_of(&o[1], best, &st);
        CHECK_MSG(mcts_check(m, err, sizeof err) == 0, "after the second search: %s", err);
    }
    mcts_free(m);
}

/* The cases: budgets, constants, first-play urgencies, memory caps, positions. */
static void test_same_choices(void)
{
    static const long budgets[] = {2, 7, 50, 400, 3000, 20000, 100000};
    static const int plies[] = {0, 4, 12, 24, 33, 38};
    static const struct {
        double c, fpu;
        size_t memory;
    } kinds[] = {{2.0, 10.0, 0},          /* OpenSpiel's c, every move tried once first */
                 {0.7, 10.0, 0},          /* the defaults */
                 {0.4, 0.6, 0},           /* fpu among the children's scores: expansions compete */
                 {1.0, 10.0, 64 * 1024}}; /* a cap that fills the arena: expansion stops */
    int cases = 0, fast_taken = 0, differ = 0;
    for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++)
        for (size_t p = 0; p < sizeof plies / sizeof *plies; p++)
            for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
                if ((budgets[b] > 3000 && k > 0 && p % 2) ||
                    (budgets[b] > 20000 && (k > 0 || p > 0)))
                    continue; /* the largest budgets: fewer cases, the suite's time */
                mcts_options_t opt;
                mcts_options_default(&opt);
                opt.iterations = budgets[b];
                opt.c = kinds[k].c;
                opt.fpu = kinds[k].fpu;
                if (kinds[k].memory)
                    opt.memory_bytes = kinds[k].memory;
                opt.seed = 1000 + 17 * b + 5 * p + k;
                c4_state_t s;
                position(&s, plies[p], 77 + p);
                outcome_t fast[2], slow[2];
                bool took = false, took_off = false;
                search_twice(&opt, &s, false, fast, &took);
                search_twice(&opt, &s, true, slow, &took_off);
                cases++;
                fast_taken += took;
                CHECK(!took_off);
                bool same = outcome_same(&fast[0], &slow[0]) && outcome_same(&fast[1], &slow[1]);
                if (!same)
                    differ++;
                CHECK_MSG(same, "budget %ld, %d plies, kind %zu: the fast descent differs",
                          budgets[b], plies[p], k);
            }
    CHECK_EQ_INT(differ, 0);
    CHECK_MSG(fast_taken == cases, "fast descent taken in %d of %d searches", fast_taken, cases);
}

/* Where the general descent must run: several threads, a variant, a kept tree. */
static void test_taken_where(void)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = 200;
    c4_state_t s;
    c4_init(&s, 0);
    mcts_t *m = mcts_new(&connect4_api, &opt);
    CHECK(m != NULL);
    mcts_search(m, &s, NULL);
    CHECK(m->fast);
    /* The kept root has children now: a search from it takes the general descent. */
    mcts_search(m, &s, NULL);
    CHECK(!m->fast);
    mcts_free(m);
    static const char *why[] = {"two threads", "RAVE", "progressive widening"};
    for (int k = 0; k < 3; k++) {
        mcts_options_default(&opt);
        opt.iterations = 200;
        opt.threads = k == 0 ? 2 : 1;
        opt.rave_k = k == 1 ? 300 : 0;
        opt.pw = k == 2 ? 1.0 : 0;
        opt.pw_alpha = 0.5;
        m = mcts_new(&connect4_api, &opt);
        CHECK(m != NULL);
        if (!m)
            continue;
        mcts_search(m, &s, NULL);
        CHECK_MSG(!m->fast, "fast descent taken with %s", why[k]);
        mcts_free(m);
    }
}

int main(void)
{
    test_same_choices();
    test_taken_where();
    return test_finish("test_search_fast");
}
