#pragma once
/*
 * The selection policy: how a node's children are scored in the descent and how urgent an
 * untried move is. The machinery (search/worker.c) gathers what one child looks like to
 * the selecting thread into a mcts_child_view_t; the policy turns that into a score. It
 * sees no threads, nodes or arenas: a new formula is one new header beside
 * search/policy_ucb.h, an id below and a case in each dispatch function. The dispatch is
 * inline (a switch on the id, the formulas static inline), so the hot loop over the
 * children calls no function through a pointer.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "search/mcts.h"

/* The selection formulas. */
typedef enum mcts_policy_id {
    MCTS_POLICY_UCB = 0, /* UCB1 over availability with a prior bias (search/policy_ucb.h) */
    MCTS_POLICY_RAVE = 1 /* the same with the mean blended with the AMAF mean (RAVE, GRAVE:
                            search/policy_rave.h) */
} mcts_policy_id_t;

/* A policy and its constants, fixed for a searcher (made by mcts_policy_init). */
typedef struct mcts_policy {
    mcts_policy_id_t id;          /* the formula */
    double c;                     /* exploration constant */
    double fpu;                   /* first-play urgency (or its offset when relative) */
    bool fpu_relative;            /* fpu is added to the mover's mean over the tried moves */
    bool prior;                   /* a prior hook gives the moves' priors */
    double prior_weight;          /* weight of the prior's bias */
    mcts_prior_form_t prior_form; /* how the bias shrinks with visits */
    int virtual_loss;             /* losses per other thread inside a child */
    double rave_k;                /* RAVE equivalence parameter (MCTS_POLICY_RAVE) */
} mcts_policy_t;

/* One child as the selecting thread sees it. */
typedef struct mcts_child_view {
    int32_t visits;        /* visits: published plus this thread's pending ones */
    double value;          /* results of the mover summed over those visits, in [0, visits] */
    double avail;          /* availability estimate (the parent's visits with the move legal),
                              current visit included, >= visits + 1 */
    int32_t vloss;         /* other threads' virtual losses inside the child (0 when virtual
                              loss is off for this thread) */
    int32_t unseen;        /* other threads' unobserved passes of the child (0 unless counted) */
    int32_t parent_unseen; /* the same of the parent (0 unless counted) */
    float prior;           /* the prior of the child's move (0 without a prior hook) */
    int32_t amaf_visits;   /* AMAF visits of the child's move (RAVE; else 0) */
    double amaf_value;     /* the mover's AMAF results summed over them */
} mcts_child_view_t;

/*
 * Natural logarithm, from a table for whole numbers below MCTS_LOG_TABLE (the same value
 * as log()): with one thread, or in a game without hidden moves, availability is a whole
 * number, and the logarithm per child was the dearest part of the selection (a call that
 * also kept the loop over the children from overlapping; docs/RESULTS.md). The table
 * (1 MiB) is filled by mcts_log_init, which mcts_new calls.
 */
#define MCTS_LOG_TABLE (1 << 17)
extern double mcts_log_table[MCTS_LOG_TABLE];
void mcts_log_init(void);

static inline double mcts_log(double x)
{
    if (x < (double)MCTS_LOG_TABLE) {
        int k = (int)x;
        if ((double)k == x && k > 0)
            return mcts_log_table[k];
    }
    return log(x);
}

/* The policy of a searcher with options opt. */
static inline void mcts_policy_init(mcts_policy_t *p, const mcts_options_t *opt)
{
    *p = (mcts_policy_t){.id = opt->rave_k > 0.0 ? MCTS_POLICY_RAVE : MCTS_POLICY_UCB,
                         .c = opt->c,
                         .fpu = opt->fpu,
                         .fpu_relative = opt->fpu_relative,
                         .prior = opt->prior != NULL,
                         .prior_weight = opt->prior_weight,
                         .prior_form = opt->prior_form,
                         .virtual_loss = opt->virtual_loss,
                         .rave_k = opt->rave_k};
}

#include "search/policy_ucb.h"
#include "search/policy_rave.h"

/* Score of a child whose move is legal now: the descent takes the highest. */
static inline double mcts_policy_score(const mcts_policy_t *p, const mcts_child_view_t *v)
{
    switch (p->id) {
    case MCTS_POLICY_RAVE: return mcts_rave_score(p, v);
    case MCTS_POLICY_UCB:
    default: return mcts_ucb_score(p, v);
    }
}

/*
 * Score of expanding an untried move (the descent expands when it is at least the best
 * child's score, or when no child is tried). tried_value and tried_visits: the mover's
 * results and visits summed over the tried children (0 unless fpu_relative);
 * next_prior: the best prior left untried at the node's last expansion; any_tried: a child
 * exists; parent_visits: the node's visits, current one included.
 */
static inline double mcts_policy_urgency(const mcts_policy_t *p, double tried_value,
                                         int64_t tried_visits, float next_prior, bool any_tried,
                                         int32_t parent_visits)
{
    switch (p->id) {
    case MCTS_POLICY_RAVE:
    case MCTS_POLICY_UCB:
    default:
        return mcts_ucb_urgency(p, tried_value, tried_visits, next_prior, any_tried, parent_visits);
    }
}
