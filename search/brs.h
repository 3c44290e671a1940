#pragma once
/*
 * Best-reply search in the tree (option backup = MCTS_BACKUP_BRS with 3 or more players;
 * search/brs.c). Between two moves of the observer only one opponent, the best replier,
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

/* An iteration's place in the turns between two of the observer's moves. */
typedef struct mcts_brs {
    int replier;  /* the opponent chosen to reply, -1: not chosen since the observer moved */
    bool replied; /* the replier made a tree move since it was chosen */
} mcts_brs_t;

/* What the descent does at the current state. */
typedef enum mcts_brs_step {
    MCTS_BRS_TREE,    /* choose a move in the tree (the observer's or the replier's) */
    MCTS_BRS_CHOICE,  /* choose the replier: th->moves holds the opponents' edges */
    MCTS_BRS_DEFAULT, /* an opponent other than the replier moved by the default policy */
    MCTS_BRS_END      /* the descent stops here */
} mcts_brs_step_t;

/* The step at th->state, whose *n legal moves are in th->moves and whose player to move is
   player (of the m->players); may replace the moves (*n with them) or make a move. */
mcts_brs_step_t mcts_brs_step(const mcts_t *m, mcts_thread_t *th, mcts_brs_t *b, int observer,
                              int player, int *n);

/* The replier chosen by the edge mv. */
static inline void mcts_brs_chosen(mcts_brs_t *b, move_t mv)
{
    b->replier = (int)(mv - MCTS_BRS_EDGE_BASE);
    b->replied = false;
}
