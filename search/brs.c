/* Best-reply search's descent between the observer's moves (search/brs.h). */
#include "search/brs.h"

/* True if no move of moves[0..n) collides with a replier-choice edge. */
static bool moves_clear(const move_t *moves, int n)
{
    for (int i = 0; i < n; i++)
        if (moves[i] >= MCTS_BRS_EDGE_BASE)
            return false;
    return true;
}

/* The default policy's move among th->moves[0..n): best prior (first on ties), else random. */
static int default_move(const mcts_t *m, mcts_thread_t *th, int n)
{
    if (!m->opt.prior)
        return (int)pcg32_bounded(&th->rng, (uint32_t)n);
    m->opt.prior(m->api, th->state, th->moves, n, th->priors, m->opt.prior_ctx);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (th->priors[i] > th->priors[best])
            best = i;
    return best;
}

mcts_brs_step_t mcts_brs_step(const mcts_t *m, mcts_thread_t *th, mcts_brs_t *b, int observer,
                              int player, int *n)
{
    if (player == observer) {
        /* A replier that never came to move leaves a choice node without moves below. */
        if (b->replier >= 0 && !b->replied)
            return MCTS_BRS_END;
        b->replier = -1;
        return moves_clear(th->moves, *n) ? MCTS_BRS_TREE : MCTS_BRS_END;
    }
    if (b->replier < 0) {
        int k = 0;
        for (int p = 0; p < m->players; p++)
            if (p != observer)
                th->moves[k++] = MCTS_BRS_EDGE_BASE + (move_t)p;
        *n = k;
        return MCTS_BRS_CHOICE;
    }
    if (player == b->replier) {
        b->replied = true;
        return moves_clear(th->moves, *n) ? MCTS_BRS_TREE : MCTS_BRS_END;
    }
    int i = default_move(m, th, *n);
    m->api->make(th->state, th->moves[i], th->undo);
    return MCTS_BRS_DEFAULT;
}
