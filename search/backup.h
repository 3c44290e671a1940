#pragma once
/*
 * The backup: which value of an iteration's result a tree node keeps. A node holds the mean
 * value for the player who made the move into it, so the descent there picks what is best
 * for that player by this value. A new rule is one new header beside search/backup_maxn.h,
 * an id in mcts_backup_t (search/mcts.h) and a case below; like the selection policy, the
 * dispatch is an inline switch.
 */
#include "search/mcts.h"

#include "search/backup_maxn.h"
#include "search/backup_paranoid.h"

/* The value in [0, 1] backed up into a node entered by player's move, from the result
   values (one per player) of an iteration of the search for observer. */
static inline double mcts_backup_value(mcts_backup_t rule, const double *values, int player,
                                       int observer)
{
    switch (rule) {
    case MCTS_BACKUP_PARANOID:
    case MCTS_BACKUP_BRS: /* the values of paranoid; the tree's shape is search/brs.h's */
        return mcts_backup_paranoid(values, player, observer);
    case MCTS_BACKUP_MAXN:
    default: return mcts_backup_maxn(values, player, observer);
    }
}
