#pragma once
/* max^n: every player maximises its own result (the search's default). */

/* The result of the player who made the move. */
static inline double mcts_backup_maxn(const double *values, int player, int observer)
{
    (void)observer;
    return values[player];
}
