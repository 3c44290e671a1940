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

/* The descent_step hook: what the descent does at th->state (see search/brs.h). */
static mcts_step_t brs_step(const mcts_t *m, mcts_thread_t *th, mcts_descent_t *d, int observer,
                            int player, int *n)
{
    if (m->players <= 2) /* paranoid's search */
        return MCTS_STEP_TREE;
    int32_t *replier = &d->word[0], *replied = &d->word[1]; /* replier: its player + 1 */
    if (player == observer) {
        /* A replier that never came to move leaves a choice node without moves below. */
        if (*replier > 0 && !*replied)
            return MCTS_STEP_END;
        *replier = 0;
        return moves_clear(th->moves, *n) ? MCTS_STEP_TREE : MCTS_STEP_END;
    }
    if (*replier == 0) {
        int k = 0;
        for (int p = 0; p < m->players; p++)
            if (p != observer)
                th->moves[k++] = MCTS_BRS_EDGE_BASE + (move_t)p;
        *n = k;
        return MCTS_STEP_CHOICE;
    }
    if (player == *replier - 1) {
        *replied = 1;
        return moves_clear(th->moves, *n) ? MCTS_STEP_TREE : MCTS_STEP_END;
    }
    int i = default_move(m, th, *n);
    m->api->make(th->state, th->moves[i], th->undo);
    return MCTS_STEP_SKIP;
}

/* The choice_made hook: the replier chosen by the edge mv. */
static void brs_chosen(mcts_descent_t *d, move_t mv)
{
    d->word[0] = (int32_t)(mv - MCTS_BRS_EDGE_BASE) + 1;
    d->word[1] = 0;
}

void mcts_brs_hooks(const mcts_options_t *opt, mcts_hooks_t *h)
{
    if (opt->backup != MCTS_BACKUP_BRS)
        return;
    h->descent_step = brs_step;
    h->choice_made = brs_chosen;
}
