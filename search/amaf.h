#pragma once
/*
 * Variants that learn from every move of an iteration, the tree part and the playout
 * (with evaluate, the cutoff moves): RAVE and GRAVE selection (all-moves-as-first
 * statistics per node, search/amaf.c, scored by search/policy_rave.h) and the MAST and NST
 * playout policies (search/rollout_mast.c). Private to search/.
 *
 * The game's own playout (api->playout) and the rollout hook do not report their moves, so
 * with any of these variants the search plays the playout move by move itself (gen_moves
 * and make) and records each move with its player in the thread's trace; they exclude the
 * rollout hook (mcts_variants_valid).
 *
 * They take part in the iteration through its extension points (search/hooks.h): the
 * record's iteration_start, tree_move and backup (amaf.c) and its playout (rollout_mast.c),
 * RAVE's child_view and GRAVE's prepare_select (amaf.c).
 *
 * AMAF statistics: for every node on an iteration's path, each child whose move was played
 * by the child's mover at that node or later in the iteration (first time only) adds one
 * visit and the mover's result. A child exists only once expanded, so untried moves have
 * none. They live in a side array beside the arena (mcts_t.amaf, allocated only with RAVE:
 * a node fills one cache line and must stay so), updated at once with relaxed atomic adds
 * (not batched like the visits), so a thread sees the others' updates as they come.
 *
 * MAST and NST tables: one set per thread (no sharing: nothing to synchronise, and one
 * thread searches deterministically), fixed-size open-addressing hashes, emptied at the
 * start of every search (a stamp, not a clear); when a table is full, new keys are not
 * learnt for the rest of the search.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "search/internal.h"

/* Moves of one iteration recorded; later ones are played but not recorded (nor learnt). */
#define MCTS_TRACE_MAX 4096
/* Slots of the per-thread set of (player, move) of the AMAF update: twice MCTS_TRACE_MAX. */
#define MCTS_TRACE_SET 8192
/* Entries of a thread's MAST table and of its NST table (powers of two). */
#define MCTS_MAST_SIZE (1 << 14)
#define MCTS_NST_SIZE  (1 << 16)
/* Slots probed for a key before a table counts as full there. */
#define MCTS_TALLY_PROBES 32
/* Longest NST n-gram: the move and the two before it. */
#define MCTS_NST_MAX_N 3

/* AMAF statistics of one node: the node's mover's results when its move was played at its
   parent or later in an iteration through the parent. */
typedef struct mcts_amaf {
    _Atomic int64_t sum;    /* results summed, in MCTS_VALUE_ONE units */
    _Atomic int32_t visits; /* iterations counted */
} mcts_amaf_t;

/* One entry of a MAST or NST table. */
typedef struct mcts_tally {
    uint64_t key;   /* (player, move) for MAST, a 64-bit hash of (player, n-gram) for NST */
    uint32_t stamp; /* entry in use iff equal to the table's stamp */
    int32_t count;  /* results learnt */
    double sum;     /* results of the key's player summed */
} mcts_tally_t;

/* A thread's record of the current iteration and its playout tables. */
typedef struct mcts_trace {
    int len;                            /* moves recorded in this iteration */
    move_t prev[MCTS_NST_MAX_N - 1];    /* the last two moves played (prev[0] the last) */
    int played;                         /* moves played in this iteration */
    move_t move[MCTS_TRACE_MAX];        /* the moves, tree part first */
    int8_t who[MCTS_TRACE_MAX];         /* the player who made each */
    uint32_t set_stamp_now;             /* stamp of the set's slots in use */
    uint32_t set_stamp[MCTS_TRACE_SET]; /* slot in use iff equal to set_stamp_now */
    uint64_t set_key[MCTS_TRACE_SET];   /* (player, move) in the slot */
    uint32_t src[GAME_MAX_MOVES];       /* GRAVE: node whose AMAF statistics score the
                                               child of each legal move (mcts_grave_prepare) */
    uint32_t stamp;                     /* stamp of the tables' entries in this search */
    mcts_tally_t mast[MCTS_MAST_SIZE];  /* MAST: results per (player, move) */
    mcts_tally_t nst[MCTS_NST_SIZE];    /* NST: results per (player, n-gram) */
} mcts_trace_t;

/* True if opt asks for a variant that records the iteration's moves (RAVE, MAST, NST). */
static inline bool mcts_records(const mcts_options_t *opt)
{
    return opt->playout != MCTS_PLAYOUT_HOOK || opt->rave_k > 0.0;
}

/* True if the variant options of opt can work together (see mcts_options_t). */
bool mcts_variants_valid(const mcts_options_t *opt);
/* Bytes per arena node of the AMAF side array with options opt (0 without RAVE). */
size_t mcts_amaf_bytes(const mcts_options_t *opt);
/* Allocates the threads' traces and the AMAF array that m's options need: 0, or -1 when
   memory is short. */
int mcts_variants_alloc(mcts_t *m);
/* Starts a search: the MAST and NST tables are emptied. */
void mcts_trace_new_search(mcts_trace_t *tr);

/* Starts an iteration's record. */
static inline void mcts_trace_start(mcts_trace_t *tr)
{
    tr->len = 0;
    tr->played = 0;
}

/* Records move mv made by player. */
static inline void mcts_trace_push(mcts_trace_t *tr, move_t mv, int player)
{
    if (tr->len < MCTS_TRACE_MAX) {
        tr->move[tr->len] = mv;
        tr->who[tr->len] = (int8_t)player;
        tr->len++;
    }
    tr->prev[1] = tr->prev[0];
    tr->prev[0] = mv;
    tr->played++;
}

/* rollout_mast.c: finishes the iteration's state into th->values, choosing and recording
   every move (the playout hook, in place of the worker's). */
void mcts_trace_simulate(mcts_t *m, mcts_thread_t *th);
/* rollout_mast.c: the index in th->moves[0..n) of the playout move for player (MAST, NST
   or uniformly random as m's options say). */
int mcts_playout_pick(mcts_t *m, mcts_thread_t *th, int n, int player);
/* rollout_mast.c: learns the iteration's result in th's MAST or NST table. */
void mcts_playout_learn(const mcts_t *m, mcts_thread_t *th, const double *value_of);
/* rollout_mast.c: MAST mean of (player, mv) in tr; *count gets its count (0: unseen, 0.5). */
double mcts_mast_mean(const mcts_trace_t *tr, int player, move_t mv, int32_t *count);
/* rollout_mast.c: NST score of mv for player after the moves before[0] (last), before[1]
   (known: how many of them there are, 0 to 2), with minimum count min_count. */
double mcts_nst_score(const mcts_trace_t *tr, int player, move_t mv, const move_t *before,
                      int known, int min_count);

/* amaf.c: after the iteration (th->values set): the AMAF updates of the path's nodes and
   the MAST/NST tables (the backup hook). */
void mcts_trace_learn(mcts_t *m, mcts_thread_t *th, int observer);
/* amaf.c: GRAVE, at node (the last of th's path, `player` to move, its children in
   th->child_of): fills th->trace->src for the children (the prepare_select hook). */
void mcts_grave_prepare(const mcts_t *m, mcts_thread_t *th, uint32_t node, int n, int player);
/* amaf.c: clears node i's AMAF statistics (a new node). */
void mcts_amaf_clear(mcts_t *m, uint32_t i);
/* amaf.c: copies node src's AMAF statistics to dst (tree compaction). */
void mcts_amaf_move(mcts_t *m, uint32_t src, uint32_t dst);
/* amaf.c: node i's AMAF sum lies in [0, its AMAF visits] (mcts_check). */
bool mcts_amaf_sane(const mcts_t *m, uint32_t i);
