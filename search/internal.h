#pragma once
/*
 * Private to search/: the node arena, the shared tree and per-thread scratch. The files:
 * mcts.c the public interface (options, searcher, the search and its root statistics),
 * worker.c the iterations and threads, worker_fast.c the iteration of a one-thread search
 * where none of worker.c's generality can matter (mcts_fast_ok), multi.c the iteration of
 * the multiple-tree search (one tree per player, made of worker.c's steps: mcts_steps_t;
 * mcts.c picks it), policy.h with policy_*.h the selection formula, tree.c the tree's memory, mcts_bench.c the bench's entry points (mcts_bench.h), amaf.c
 * and rollout_mast.c the variants that record every move of an iteration (amaf.h: RAVE,
 * GRAVE, MAST, NST), noise.c the root's Dirichlet noise (noise.h), brs.c best-reply search
 * (brs.h). The variants reach the iteration only through its extension points (hooks.h).
 */
#include <math.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "search/hooks.h"
#include "search/mcts.h"
#include "search/policy.h"

/* Fixed point of result sums: a result r in [0, 1] adds round(r * MCTS_VALUE_ONE). */
#define MCTS_VALUE_ONE (1 << 28)
/* Deepest tree path followed in one iteration; deeper, the iteration rolls out. */
#define MCTS_MAX_DEPTH 1024
/* Slots of the per-thread move hash (a power of two, at least twice GAME_MAX_MOVES). */
#define MCTS_HASH_SIZE 8192
/* Entries of a thread's counts made ready at once (mcts_local_extend). */
#define MCTS_LOCAL_CHUNK 4096
/* Most threads a searcher runs. */
#define MCTS_MAX_THREADS 256
/* Nodes a thread takes from the arena at once (its block): one shared write per block. */
#define MCTS_ALLOC_BLOCK 64
/* Edge slots a thread takes from the edge arena at once (more if one array needs more). */
#define MCTS_EDGE_BLOCK 256
/* Edge slots the arena holds per node: a node's child array grows by doubling (2, 4, 8,
   ...), so its arrays, the old ones included, take fewer than 4 slots per child and mostly
   about 2; when the edge arena is full, the tree stops growing as when the nodes are. */
#define MCTS_EDGES_PER_NODE 3
/* Most iterations a thread may run before it publishes its results (mcts_options_t.sync);
   pending counts per node are 8-bit. */
#define MCTS_SYNC_MAX 64
/* Iterations between publications by default in tree mode with several threads (the most
   that pending counts allow ran the most iterations a second: bench/BENCH.md). */
#define MCTS_SYNC_DEFAULT 64
/* Most iterations a thread claims at once from an iteration budget. */
#define MCTS_CLAIM_CHUNK 16
/* 1 in a test build that also counts availability the obvious way (tests/search_avail.c). */
#ifndef MCTS_AVAIL_REFERENCE
#define MCTS_AVAIL_REFERENCE 0
#endif
/* Slots of a node's unobserved-pass counts: with at most this many threads each thread
   is the only writer of its slot and counts with a plain store, not a locked add (a locked
   add on every node of every iteration's path costs iterations: docs/PARALLEL.md). */
#define MCTS_UNOBSERVED_SLOTS 4
/* Cache line size assumed for padding. */
#define MCTS_CACHE_LINE 64

/*
 * One tree node: the information set reached by a move sequence from the root. Its
 * children are an array of edges (move, child) in the edge arena, in the order they were
 * added, appended only by the thread that holds `busy`: a walk over the children reads a
 * few consecutive lines instead of chasing a list through the arena. The array's place and
 * length are one atomic word (`kids`): a thread that appends past the array's capacity
 * copies it to a new array twice as long and then publishes the new word, so a reader
 * always sees a complete array (old arrays stay untouched until the tree is compacted).
 * A node fills one cache line of its own, so the counters that threads write as they pass
 * never invalidate another node's line.
 *
 * Availability (how often the move was legal when the parent chose a child) is counted by
 * each thread in its own memory (mcts_local_t), never in the shared node: a visit of a node
 * below chance or hidden information finds many of its children legal, and writing to each
 * of them made every other thread reload them all. A thread scores a child with its own
 * count scaled by its share of the parent's selects: with one thread that is the exact
 * count; mcts_check sums the threads' counts, which is exact with any number.
 */
typedef struct mcts_node {
    /* Counters, written by the threads that pass. */
    alignas(MCTS_CACHE_LINE) _Atomic int64_t value_sum; /* results of `player` summed, in
                                                           MCTS_VALUE_ONE units */
    _Atomic int32_t visits;                             /* iterations backed up through this node */
    _Atomic int32_t vloss;    /* threads currently below this node (virtual loss) */
    _Atomic int32_t selects;  /* visits here that chose an existing child */
    int32_t birth;            /* the parent's selects when this node was added (the fast
                                 descent's availability: worker_fast.c) */
    _Atomic uint64_t kids;    /* children: edge-arena offset << 32 | count */
    _Atomic float next_prior; /* best prior among the moves still untried at the last
                                     expansion of this node (its urgency), 0: unknown */
    _Atomic uint8_t busy;     /* 1 while a thread is adding a child */
    /* Keys, written once before the node is linked into the tree. */
    int8_t player; /* the player who made `move`, -1 for a root */
    float prior;   /* prior hook value for `move`, 0 without the hook */
    _Atomic uint16_t unobserved[MCTS_UNOBSERVED_SLOTS]; /* passes whose results are not
                                     published yet (mcts_options_t.unobserved): thread t
                                     counts in slot t % MCTS_UNOBSERVED_SLOTS */
    uint16_t legal; /* legal moves at this node's position, MCTS_LEGAL_UNKNOWN until the
                        fast descent counts them (worker_fast.c) */
    uint16_t index; /* index of `move` in the parent's legal moves when it was added */
#if MCTS_AVAIL_REFERENCE
    _Atomic int32_t avail_ref; /* availability counted child by child, the obvious way,
                                     for mcts_check to compare (a test build only) */
#else
    double mean; /* value_sum / MCTS_VALUE_ONE / visits, as the fast descent scores the node
                    (set by its backup: one division a pass, not one a scoring) */
#endif
} mcts_node_t;

_Static_assert(sizeof(mcts_node_t) == MCTS_CACHE_LINE, "a node fills one cache line");

/* mcts_node_t.legal before it is known. */
#define MCTS_LEGAL_UNKNOWN 0xFFFFu
_Static_assert(GAME_MAX_MOVES < MCTS_LEGAL_UNKNOWN, "a node's legal count fits 16 bits");

/* A link to a child: the move and the child's arena index. */
typedef struct mcts_edge {
    move_t move;    /* the move into the child */
    uint32_t child; /* arena index of the child */
} mcts_edge_t;

/* Slots of the child array of a node with `count` children (0, else a power of two >= 2). */
static inline uint32_t mcts_edges_cap(uint32_t count)
{
    uint32_t cap = count ? 2 : 0;
    while (cap < count)
        cap *= 2;
    return cap;
}

/*
 * One thread's own counts for one node, valid while gen is the tree's generation, and its
 * results not yet published to the shared node (see mcts_thread_t.touched): the thread
 * scores with the shared counters plus its own pending ones, so it always sees all of its
 * own results, and the other threads see them at its next publication.
 */
typedef struct mcts_local {
    int64_t pend_sum;     /* results backed up here and not yet added to value_sum */
    uint32_t gen;         /* mcts_t.generation when these counts were started */
    int32_t avail;        /* this thread's selects of the parent with the node's move legal */
    int32_t selects;      /* this thread's selects at the node (those that chose a child) */
    uint8_t pend_visits;  /* visits not yet added to visits */
    uint8_t pend_selects; /* selects not yet added to selects */
    uint8_t held;         /* MCTS_HELD_* flags: in the thread's touched list since its last
                             publication, and with a virtual loss taken on the node */
    uint8_t pend_unobs;   /* of the pending visits, those counted in the node's unobserved
                             slot (mcts_options_t.unobserved) */
} mcts_local_t;

#define MCTS_HELD       1
#define MCTS_HELD_VLOSS 2

/* Per-thread scratch and counters, each on its own cache lines (no false sharing). */
typedef struct mcts_thread {
    alignas(MCTS_CACHE_LINE) pcg32_t rng;   /* this thread's stream */
    long iterations;                        /* iterations this thread ran in this search */
    int max_depth;                          /* deepest tree node it reached */
    long unobserved_passes;                 /* its passes counted as unobserved */
    int index;                              /* thread number, 0-based */
    void *state;                            /* the iteration's determinized state */
    void *undo;                             /* undo record for make (never undone) */
    uint32_t stamp;                         /* generation of the hash slots in use */
    int slot_bits;                          /* the hash's size in use: 1 << slot_bits */
    uint64_t block_next;                    /* next free node of this thread's block */
    uint64_t block_end;                     /* end of the block (block_next: none left) */
    uint64_t eblock_next;                   /* next free slot of this thread's edge block */
    uint64_t eblock_end;                    /* end of the edge block */
    mcts_local_t *local;                    /* this thread's counts, one per arena node */
    uint32_t local_ready;                   /* entries of local written once (see
                                              mcts_local_extend) */
    uint32_t *touched;                      /* nodes with pending counts or a held virtual
                                              loss, in the order first passed */
    int touched_count;                      /* entries of touched */
    int batch;                              /* iterations run since the last publication */
    int path_len;                           /* entries of path */
    bool choice;                            /* th->moves are an idea's own edges
                                              (MCTS_STEP_CHOICE), not the game's moves */
    double values[GAME_MAX_PLAYERS];        /* the iteration's result per player */
    double root_sum[GAME_MAX_PLAYERS];      /* values summed over this search's iterations */
    uint32_t path[MCTS_MAX_DEPTH + 1];      /* nodes from the root down */
    int8_t path_player[MCTS_MAX_DEPTH + 1]; /* player who made the move into each node */
    move_t moves[GAME_MAX_MOVES];           /* legal moves of the current state */
    uint32_t child_of[GAME_MAX_MOVES];      /* child node of each legal move, 0: none */
    int kid_index[GAME_MAX_MOVES];          /* the legal moves with a child (node_choose) */
    double priors[GAME_MAX_MOVES];          /* prior hook values of the legal moves */
    uint32_t slot_stamp[MCTS_HASH_SIZE];    /* slot in use iff equal to stamp */
    move_t slot_move[MCTS_HASH_SIZE];       /* move stored in the slot */
    uint16_t slot_index[MCTS_HASH_SIZE];    /* its index in moves */
    struct mcts_trace *trace;               /* the iteration's moves and the MAST/NST
                                               tables (search/amaf.h), NULL unless needed */
} mcts_thread_t;

/*
 * The steps of an iteration, which search/worker.c gives to an iteration of another shape
 * than the single tree's (mcts_t.iterate), so that such a
 * variant is made of the same steps without either file calling the other.
 */
typedef struct mcts_steps {
    /* Selection and expansion, one step of the descent at node (th->moves[0..n) legal,
       player to move, virtual loss vl): the child chosen or just added (*expanded set),
       0 to leave the tree; *mv gets its move. */
    uint32_t (*on_select)(mcts_t *m, mcts_thread_t *th, uint32_t node, int n, int player, int vl,
                          move_t *mv, bool *expanded);
    /* A pass of node i, to be backed up and published (a virtual loss when vl). */
    void (*on_pass)(mcts_t *m, mcts_thread_t *th, uint32_t i, bool vl);
    /* The playout (or cutoff and evaluate): the iteration's result into th->values. */
    void (*on_playout)(mcts_t *m, mcts_thread_t *th);
} mcts_steps_t;

/* An iteration of another shape than the single tree's, made of steps, into th's pending
   counts (it backs up itself; the worker publishes). */
typedef void (*mcts_iteration_fn)(mcts_t *m, mcts_thread_t *th, const void *root_state,
                                  int observer, int vl, const mcts_steps_t *steps);

struct mcts {
    const game_api_t *api;  /* the game */
    mcts_options_t opt;     /* options as given (threads clamped) */
    mcts_policy_t policy;   /* the selection policy made from opt (search/policy.h) */
    mcts_hooks_t hooks;     /* the ideas' extension points, from opt (search/hooks.h) */
    int sync;               /* iterations a thread runs between publications (opt.sync, or
                               its default for the mode) */
    bool unobserved;        /* unobserved passes are counted (opt.unobserved, several
                               threads on one tree) */
    bool unobserved_owned;  /* each thread has an unobserved slot of its own */
    mcts_node_t *nodes;     /* the arena; index 0 is never used */
    mcts_edge_t *edges;     /* the edge arena: the nodes' child arrays */
    uint32_t generation;    /* bumped whenever node indexes are reused or moved, so that
                               threads' older mcts_local_t entries read as zero */
    uint32_t capacity;      /* nodes in the arena, index 0 included */
    uint32_t edge_capacity; /* slots in the edge arena */
    /* Written often, each on a line of its own; then read-mostly flags on another. */
    alignas(MCTS_CACHE_LINE) _Atomic uint64_t used;       /* next free index (bump allocator of
                                                       nodes and threads' blocks) */
    alignas(MCTS_CACHE_LINE) _Atomic uint64_t edges_used; /* next free edge slot */
    alignas(MCTS_CACHE_LINE) _Atomic long claimed;        /* iterations handed out, all threads */
    alignas(MCTS_CACHE_LINE) _Atomic bool stop;           /* set when the time is up */
    _Atomic bool full; /* the arena filled up during this search */
    /* Handshakes around the OpenMP region, so that ThreadSanitizer (which cannot see
       libgomp's own synchronisation) sees the setup before and the results after. */
    _Atomic uint64_t started; /* bumped (release) by the caller before the region */
    _Atomic int finished;     /* bumped (release) by each worker when it is done */
    alignas(MCTS_CACHE_LINE) uint32_t roots[MCTS_MAX_THREADS]; /* root per tree, 0: none */
    int root_count;               /* trees in use: 1 in tree mode, threads in root mode,
                                     players with tree multi (roots[p]: player p's) */
    int observer;                 /* player to move at the root of the kept tree, -1: none */
    move_t *pending;              /* moves told by mcts_advance since the last search */
    int pending_count;            /* entries of pending */
    int pending_cap;              /* allocated entries of pending */
    mcts_thread_t **threads;      /* per-thread scratch, opt.threads of them */
    mcts_move_stat_t *root_stats; /* statistics returned by the last search */
    uint64_t searches;            /* searches run so far (varies the seed per search) */
    double deadline;              /* monotonic time at which to stop, 0: none */
    int players;                  /* player count of the searched state */
    uint64_t root_moves_key;      /* order-free key of the legal moves of the searched state */
    struct mcts_amaf *amaf;       /* AMAF statistics per arena node (RAVE), NULL: off */
    struct mcts_noise *noise;     /* the root's noise (search/noise.h), NULL: off */
    int search_moves;             /* legal moves of the state being searched */
    double search_start;          /* monotonic time the search began */
    mcts_move_stat_t *live_stats; /* the progress hook's sorted copy, NULL until used */
    mcts_iteration_fn iterate;    /* the iteration of a variant of another shape (tree
                                     multi), NULL: the single tree's (worker.c) */
    bool fast;                    /* the search takes the fast descent (worker_fast.c); after
                                     it, the tree is the fast descent's until tree_prepare */
    bool fast_off;                /* never take it (tests compare the two descents) */
};

/* Calls the progress hook with the root statistics published so far (the first thread,
   while a search runs): what it returns (false: stop the search). */
bool mcts_progress_report(mcts_t *m);

/* The children of node n: *count edges from the returned pointer (acquire). */
static inline const mcts_edge_t *mcts_kids(const struct mcts *m, uint32_t n, uint32_t *count)
{
    uint64_t k = atomic_load_explicit(&m->nodes[n].kids, memory_order_acquire);
    *count = (uint32_t)k;
    return &m->edges[k >> 32];
}

/* The unobserved passes of node n, all threads. */
static inline int32_t mcts_unobserved(const mcts_node_t *n)
{
    int32_t sum = 0;
    for (int k = 0; k < MCTS_UNOBSERVED_SLOTS; k++)
        sum += atomic_load_explicit(&n->unobserved[k], memory_order_relaxed);
    return sum;
}

/* Slot of move mv in the per-thread move hash of `bits` bits. */
static inline uint32_t mcts_move_slot(move_t mv, int bits)
{
    return (uint32_t)(mv * 0x9E3779B1u) >> (32 - bits);
}

/*
 * Indexes th->moves[0..n) in the per-thread hash and clears child_of. The hash uses the
 * first 4n slots or more (a power of two): a few hundred moves then write a few KB of it,
 * which stay in the L1 cache, instead of places all over its MCTS_HASH_SIZE slots.
 */
static inline void mcts_moves_index(mcts_thread_t *th, int n)
{
    if (++th->stamp == 0) {
        memset(th->slot_stamp, 0, sizeof th->slot_stamp);
        th->stamp = 1;
    }
    int bits = 6;
    while (bits < 13 && (1 << bits) < 4 * n)
        bits++;
    th->slot_bits = bits;
    uint32_t mask = (1u << bits) - 1;
    for (int i = 0; i < n; i++) {
        uint32_t h = mcts_move_slot(th->moves[i], bits);
        while (th->slot_stamp[h] == th->stamp)
            h = (h + 1) & mask;
        th->slot_stamp[h] = th->stamp;
        th->slot_move[h] = th->moves[i];
        th->slot_index[h] = (uint16_t)i;
        th->child_of[i] = 0;
    }
}

/* Index of mv in th->moves, or -1 if it is not legal here. */
static inline int mcts_moves_lookup(const mcts_thread_t *th, move_t mv)
{
    int bits = th->slot_bits;
    uint32_t h = mcts_move_slot(mv, bits), mask = (1u << bits) - 1;
    while (th->slot_stamp[h] == th->stamp) {
        if (th->slot_move[h] == mv)
            return th->slot_index[h];
        h = (h + 1) & mask;
    }
    return -1;
}

/* Progressive widening: the most children legal now that a node with `visits` visits may
   have, max(1, ceil(pw * visits^pw_alpha)) (a hair below an exact integer counts as it). */
static inline int64_t mcts_pw_limit(const mcts_options_t *opt, int64_t visits)
{
    double l = ceil(opt->pw * pow((double)visits, opt->pw_alpha) - 1e-9);
    return l < 1.0 ? 1 : l > 1e9 ? 1000000000 : (int64_t)l;
}

/* worker.c: runs the search's iterations from state on every thread (the trees and the
   threads' rng and counters are ready) and returns when the budget is spent. */
void mcts_workers_run(mcts_t *m, const void *state, int observer);

/* worker.c: finishes the iteration's state into th->values (the playout, or cutoff and
   evaluate, or a variant's own). */
void mcts_simulate(mcts_t *m, mcts_thread_t *th);

/* worker_fast.c: whether this search, from root, can take the fast descent (decided once
   per search); one iteration of it (into the nodes, nothing pending); and, before a tree
   that it grew is kept for the next search, the thread's own counts made what the general
   descent would have left (mcts_local_t; mcts_check reads the nodes until then). */
bool mcts_fast_ok(const mcts_t *m, uint32_t root);
void mcts_fast_iteration(mcts_t *m, mcts_thread_t *th, const void *root_state, uint32_t root,
                         int observer);
void mcts_fast_finish(mcts_t *m, mcts_thread_t *th, uint32_t root);

/* multi.c: one iteration of the multiple-tree search (option tree multi), into th's
   pending counts; m->roots[p] is player p's tree (an mcts_iteration_fn). */
void mcts_multi_iteration(mcts_t *m, mcts_thread_t *th, const void *root_state, int observer,
                          int vl, const mcts_steps_t *steps);

/* tree.c */
uint32_t mcts_tree_alloc(mcts_t *m, mcts_thread_t *th, int player, float prior);
uint32_t mcts_tree_add_child(mcts_t *m, mcts_thread_t *th, uint32_t node, move_t mv, int player,
                             float prior);
uint64_t mcts_tree_nodes(const mcts_t *m);

void mcts_local_extend(const mcts_t *m, mcts_thread_t *th, uint32_t i);

/* Thread th's counts for node i, started afresh if they are from an older generation. */
static inline mcts_local_t *mcts_local(const mcts_t *m, mcts_thread_t *th, uint32_t i)
{
    if (i >= th->local_ready)
        mcts_local_extend(m, th, i);
    mcts_local_t *e = &th->local[i];
    if (e->gen != m->generation)
        *e = (mcts_local_t){.gen = m->generation};
    return e;
}

/* Exact availability of node i (1 for the visit that added it, plus every thread's count). */
int64_t mcts_node_avail_exact(const mcts_t *m, uint32_t i);
void mcts_tree_clear(mcts_t *m);
bool mcts_tree_descend(mcts_t *m, const move_t *moves, int count);
uint32_t mcts_tree_find_child(const mcts_t *m, uint32_t node, move_t mv);
double mcts_clock_now(void);
