#pragma once
/*
 * The named extension points of an iteration: where a search idea of search/ hooks into the
 * descent, the playout and the backup of search/worker.c without the worker (or
 * search/multi.c) knowing the idea. A searcher's hooks (mcts_t.hooks) are set once, when it
 * is made: mcts.c calls each idea's registration (declared below) with the options, and an
 * idea that the options turn on fills its slots. An empty slot costs the iteration one
 * predictable branch; a filled one an indirect call.
 *
 * The ideas and their slots:
 *  - RAVE and GRAVE (search/amaf.c): child_view, prepare_select;
 *  - the recorded iteration that RAVE, MAST and NST learn from (search/amaf.c,
 *    search/rollout_mast.c): iteration_start, tree_move, playout, backup;
 *  - root noise (search/noise.c): root_prior;
 *  - best-reply search (search/brs.c): descent_step, choice_made.
 * Two ideas never fill one slot: the options that would make them meet are refused
 * (mcts_variants_valid). Private to search/.
 */
#include <stdbool.h>
#include <stdint.h>

#include "search/mcts.h"
#include "search/policy.h"

struct mcts_thread;

/* What the descent does at the current state (descent_step). */
typedef enum mcts_step {
    MCTS_STEP_TREE,   /* choose one of the state's legal moves in the tree */
    MCTS_STEP_CHOICE, /* choose one of the idea's own edges (th->moves replaced): no prior,
                         every edge tried before any twice, no widening; no move is made */
    MCTS_STEP_SKIP,   /* the idea made a move outside the tree: look at the state again */
    MCTS_STEP_END     /* the descent stops here */
} mcts_step_t;

/* A descent_step idea's scratch for one iteration: all zero when the iteration starts. */
typedef struct mcts_descent {
    int32_t word[2];
} mcts_descent_t;

/* Priors blended towards a target where root_prior says so: move i's prior becomes
   (1 - weight) prior + weight target[i]. */
typedef struct mcts_prior_blend {
    double weight;        /* in [0, 1] */
    const double *target; /* per legal move, indexed as th->moves */
} mcts_prior_blend_t;

/* A prior blended by b for legal move i. */
static inline double mcts_prior_blended(const mcts_prior_blend_t *b, double prior, int i)
{
    return (1.0 - b->weight) * prior + b->weight * b->target[i];
}

/* The slots. th is the iterating thread; m->opt the searcher's options. */
typedef struct mcts_hooks {
    /* An iteration begins (the state is determinized, the path holds the root only). */
    void (*iteration_start)(const mcts_t *m, struct mcts_thread *th);
    /* Before the descent chooses at a state whose *n legal moves are in th->moves, player
       to move: what it does there (may replace the moves, *n with them, or make a move). */
    mcts_step_t (*descent_step)(const mcts_t *m, struct mcts_thread *th, mcts_descent_t *d,
                                int observer, int player, int *n);
    /* The descent chose edge mv at an MCTS_STEP_CHOICE (an idea whose descent_step returns
       that fills this slot too). */
    void (*choice_made)(mcts_descent_t *d, move_t mv);
    /* At node, before its children are scored (the legal moves th->moves[0..n) indexed,
       th->child_of filled, player to move). */
    void (*prepare_select)(const mcts_t *m, struct mcts_thread *th, uint32_t node, int n,
                           int player);
    /* The priors of node's legal moves th->moves[0..n) blended (true, into *b), or as they
       are (false): where an untried move is picked and where a child is scored. */
    bool (*root_prior)(const mcts_t *m, struct mcts_thread *th, uint32_t node, int n,
                       mcts_prior_blend_t *b);
    /* While child ci (of legal move i) is scored: the view's AMAF figures (the worker sets
       them to 0 first). */
    void (*child_view)(const mcts_t *m, const struct mcts_thread *th, uint32_t ci, int i,
                       mcts_child_view_t *v);
    /* A tree move mv by player was made (after descent_step's MCTS_STEP_TREE). */
    void (*tree_move)(const mcts_t *m, struct mcts_thread *th, move_t mv, int player);
    /* The playout in place of the worker's: the iteration's result into th->values. */
    void (*playout)(mcts_t *m, struct mcts_thread *th);
    /* After the playout, before the path's visits are backed up (th->values set). */
    void (*backup)(mcts_t *m, struct mcts_thread *th, int observer);
} mcts_hooks_t;

/* The ideas' registrations: each fills the slots that options opt turn on. */
void mcts_amaf_hooks(const mcts_options_t *opt, mcts_hooks_t *h);  /* search/amaf.c */
void mcts_mast_hooks(const mcts_options_t *opt, mcts_hooks_t *h);  /* search/rollout_mast.c */
void mcts_noise_hooks(const mcts_options_t *opt, mcts_hooks_t *h); /* search/noise.c */
void mcts_brs_hooks(const mcts_options_t *opt, mcts_hooks_t *h);   /* search/brs.c */
