/*
 * The search's availability bookkeeping against the obvious count. Built with the search
 * sources compiled once more with MCTS_AVAIL_REFERENCE, where every node also counts its
 * availability in one shared counter, child by child, and mcts_check compares it exactly
 * with the sum of the threads' own counts (one and two threads, tree and root modes, and
 * the multiple-tree search).
 * Tower Up (hidden draw order), Uptown (hidden racks) and the toy trick game, whole games
 * with tree reuse, so that subtree compaction (which moves the threads' counts) is
 * exercised too.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "search/internal.h"
#include "tests/test.h"
#include "tests/test_search_toy.h"

#if !MCTS_AVAIL_REFERENCE
#error "build tests/search_avail.c with MCTS_AVAIL_REFERENCE=1"
#endif

typedef struct any_state {
    alignas(16) unsigned char bytes[2048];
} any_state_t;

/* The tree option of the searches (the multiple-tree runs set it). */
static mcts_tree_t run_tree = MCTS_TREE_SINGLE;

/* Plays one whole game of api, every move searched by one searcher with reuse. */
static void play_checked(const game_api_t *api, void *s, int threads, mcts_parallel_t mode,
                         int sync, long iterations, uint64_t seed, const char *what)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.sync = sync;
    opt.threads = threads;
    opt.parallel = mode;
    opt.iterations = iterations;
    opt.seed = seed;
    opt.tree = run_tree;
    mcts_t *m = mcts_new(api, &opt);
    CHECK(m != NULL);
    if (!m)
        return;
    any_state_t undo;
    int plies = 0;
    while (!api->is_terminal(s) && plies < 400) {
        mcts_stats_t st;
        move_t mv = mcts_search(m, s, &st);
        char err[256];
        int rc = mcts_check(m, err, sizeof err);
        CHECK_MSG(rc == 0, "%s, %d thread(s), mode %d, sync %d, ply %d: %s", what, threads,
                  (int)mode, sync, plies, err);
        if (rc != 0)
            break;
        api->make(s, mv, &undo);
        mcts_advance(m, mv);
        plies++;
    }
    mcts_free(m);
}

static void new_game(const game_api_t *api, void *s, int players, uint64_t seed)
{
    game_options_t o;
    game_options_default(&o);
    o.players = players;
    o.seed = seed;
    char err[256];
    int rc = api->new_game(s, &o, err, sizeof err);
    CHECK_MSG(rc == 0, "%s", err);
}

/*
 * The thread's move hash (mcts_moves_index, mcts_moves_lookup), whose size follows the
 * move count: every move found at its index and moves not listed not found, for counts on
 * both sides of each size step up to GAME_MAX_MOVES, with moves that share hash slots.
 */
static void check_move_hash(void)
{
    mcts_thread_t *th = calloc(1, sizeof *th);
    CHECK(th != NULL);
    static const int counts[] = {0, 1, 15, 16, 17, 100, 1023, 1024, 1025, 2048, GAME_MAX_MOVES};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        int n = counts[c];
        for (int i = 0; i < n; i++) /* multiples of 64: many share their top hash bits */
            th->moves[i] = (move_t)(i * 64 + (int)c);
        mcts_moves_index(th, n);
        for (int i = 0; i < n; i++) {
            CHECK_MSG(mcts_moves_lookup(th, th->moves[i]) == i, "n %d: move %d", n, i);
            CHECK_MSG(th->child_of[i] == 0, "n %d: child_of[%d] not cleared", n, i);
        }
        CHECK_MSG(mcts_moves_lookup(th, (move_t)(n * 64 + (int)c)) == -1, "n %d: past the list", n);
        CHECK_MSG(mcts_moves_lookup(th, (move_t)(1 + (int)c)) == -1, "n %d: an unlisted move", n);
    }
    free(th);
}

int main(void)
{
    check_move_hash();
    (void)toy_is_legal; /* the toy header's helpers that this test does not need */
    (void)nim_move_wins;
    any_state_t s;
    /* threads, mode, sync: the default (publication every 16 iterations with two threads
       in tree mode, else every iteration), every iteration, and 64. */
    static const int runs[][3] = {
        {1, MCTS_PARALLEL_TREE, 0}, {1, MCTS_PARALLEL_TREE, 64}, {2, MCTS_PARALLEL_TREE, 0},
        {2, MCTS_PARALLEL_TREE, 1}, {2, MCTS_PARALLEL_TREE, 64}, {2, MCTS_PARALLEL_ROOT, 0},
    };
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        int threads = runs[r][0], sync = runs[r][2];
        mcts_parallel_t pm = (mcts_parallel_t)runs[r][1];
        for (uint64_t seed = 1; seed <= 2; seed++) {
            new_game(&towerup_api, &s, 2 + (int)seed % 2, seed);
            play_checked(&towerup_api, &s, threads, pm, sync, 300, seed, "towerup");
            new_game(&uptown_api, &s, 2 + 2 * (int)(seed % 2), seed);
            play_checked(&uptown_api, &s, threads, pm, sync, 300, seed, "uptown");
            trick_state_t t;
            trick_deal(&t, seed);
            play_checked(&trick_api, &t, threads, pm, sync, 500, seed, "trick");
        }
    }
    /* The multiple-tree search (one tree per player, no reuse): one and two threads. */
    run_tree = MCTS_TREE_MULTI;
    for (int threads = 1; threads <= 2; threads++) {
        new_game(&towerup_api, &s, 3, 5);
        play_checked(&towerup_api, &s, threads, MCTS_PARALLEL_TREE, 0, 300, 5, "towerup multi");
        new_game(&uptown_api, &s, 4, 6);
        play_checked(&uptown_api, &s, threads, MCTS_PARALLEL_TREE, 0, 300, 6, "uptown multi");
        trick_state_t t;
        trick_deal(&t, 7);
        play_checked(&trick_api, &t, threads, MCTS_PARALLEL_TREE, 0, 500, 7, "trick multi");
    }
    return test_finish("test_search_avail");
}
