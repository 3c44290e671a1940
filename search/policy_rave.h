#pragma once
/*
 * RAVE (Gelly & Silver, "Combining online and offline knowledge in UCT", ICML 2007; "Monte-
 * Carlo tree search and rapid action value estimation in computer Go", AI 2011): UCB over
 * availability (search/policy_ucb.h) with the child's mean replaced by
 *   (1 - beta) mean + beta amaf_mean,   beta = sqrt(K / (3 visits + K)),
 * K the equivalence parameter (rave_k: at K visits the two weigh alike, about), and the
 * exploration term, the prior's bias and the first-play urgency as in UCB. A child without
 * AMAF visits scores as in UCB. With GRAVE (Cazenave, "Generalized Rapid Action Value
 * Estimation", IJCAI 2015) the caller gives the AMAF statistics of a well-visited ancestor's
 * child instead of the child's own (search/amaf.c); the formula is the same. Included by
 * search/policy.h only.
 */
#include <math.h>

static inline double mcts_rave_score(const mcts_policy_t *p, const mcts_child_view_t *v)
{
    double ucb = mcts_ucb_score(p, v);
    double eff = (double)v->visits + (double)p->virtual_loss * v->vloss;
    if (eff <= 0.0 || v->amaf_visits <= 0)
        return ucb;
    double beta = sqrt(p->rave_k / (3.0 * eff + p->rave_k));
    double amaf_mean = v->amaf_value / v->amaf_visits;
    return ucb + beta * (amaf_mean - v->value / eff);
}
