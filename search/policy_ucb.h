#pragma once
/*
 * UCB1 over availability (ISMCTS) with first-play urgency, a prior bias and virtual loss:
 *   mean + c sqrt(ln avail / visits) + bias,
 * visits counting the other threads' virtual losses (as losses) and, in the exploration
 * term only, their unobserved passes; avail counting the parent's unobserved passes. The
 * bias is weight * prior / (visits + 1), times sqrt(avail) in the PUCT form. An untried
 * move scores the fpu (relative: plus the mover's mean over the tried moves), plus the bias
 * of the best prior left untried. Included by search/policy.h only.
 */
#include <math.h>

/* Bias of a move with prior `prior`, visited `visits` times out of `avail`. */
static inline double mcts_ucb_bias(const mcts_policy_t *p, double prior, int32_t visits,
                                   double avail)
{
    if (!p->prior)
        return 0.0;
    double b = p->prior_weight * prior / (visits + 1.0);
    return p->prior_form == MCTS_PRIOR_PUCT ? b * sqrt(avail) : b;
}

static inline double mcts_ucb_score(const mcts_policy_t *p, const mcts_child_view_t *v)
{
    double eff = (double)v->visits;
    if (v->vloss)
        eff += (double)p->virtual_loss * v->vloss;
    double bias = mcts_ucb_bias(p, v->prior, v->visits, v->avail);
    if (eff <= 0.0)
        return p->fpu + bias;
    double mean = v->value / eff;
    double explore_visits = eff, explore_avail = v->avail;
    if (v->unseen | v->parent_unseen) {
        explore_visits += v->unseen;
        explore_avail += v->parent_unseen;
    }
    double lg = explore_avail > 1.0 ? mcts_log(explore_avail) : 0.0;
    return mean + p->c * sqrt(lg / explore_visits) + bias;
}

static inline double mcts_ucb_urgency(const mcts_policy_t *p, double tried_value,
                                      int64_t tried_visits, float next_prior, bool any_tried,
                                      int32_t parent_visits)
{
    double urgency = p->fpu;
    if (p->fpu_relative)
        urgency += tried_visits > 0 ? tried_value / (double)tried_visits : 0.5;
    if (any_tried && p->prior)
        urgency += mcts_ucb_bias(p, next_prior, 0, parent_visits);
    return urgency;
}
