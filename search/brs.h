#pragma once
/*
 * Best-reply search in the tree (option backup = MCTS_BACKUP_BRS with 3 or more players;
 * search/brs.c, through the descent_step and choice_made hooks of search/hooks.h). Between two moves of the observer only one opponent, the best replier,
 * moves in the tree (Schadd and Winands 2011; MCTS-BRS: Nijssen and Winands 2013). The
 * games let no player pass, so as in BRS+ (Esser et al. 2013) the other opponents play the
 * move of a fixed default policy, outside the tree: the first move with the best prior
 * when there is a prior hook (the heuristic's best-scored move), else a uniformly random
 * move from the iteration's rng.
 *
 * Which opponent replies is itself a choice in the tree. The node entered by the observer's
 * move, when an opponent is to move, has one child per opponent, keyed by the synthetic
 * edge MCTS_BRS_EDGE_BASE + player (no game's move: move values must stay below
 * MCTS_BRS_EDGE_BASE, which the descent checks), made by the opponents' coalition; below
 * the child of opponent p are p's moves, then the observer's. All of the replier's moves
 * between two of the observer's are tree moves. Values are paranoid's: the observer's
 * result at its moves, 1 minus it at the opponents' and at the replier choice. A kept tree
 * cannot be followed past an opponent's real move (no node is keyed by one), so the tree
 * is reused only across the searcher's own consecutive moves. With 2 players it is paranoid
 * (search/backup_paranoid.h), the same search.
 */
#include <stdbool.h>

#include "search/internal.h"

/* Keys of the replier-choice edges: MCTS_BRS_EDGE_BASE + player. */
#define MCTS_BRS_EDGE_BASE 0xffffff00u

/* True if mv is a replier-choice edge, not a move. */
static inline bool mcts_brs_is_edge(move_t mv)
{
    return mv >= MCTS_BRS_EDGE_BASE && mv < MCTS_BRS_EDGE_BASE + GAME_MAX_PLAYERS;
}

/* The descent between two of the observer's moves (the hooks of search/hooks.h): an
   iteration's place in the turns is its mcts_descent_t, word[0] the opponent chosen to
   reply plus 1 (0: none chosen since the observer moved), word[1] 1 once the replier made
   a tree move since it was chosen. Registered by mcts_brs_hooks with backup BRS; with 2
   players the descent is the plain one. */
