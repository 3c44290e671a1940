#pragma once
/*
 * Paranoid (Sturtevant and Korf 2000): the other players are one coalition that minimises
 * the observer's result, so an opponent's node keeps one minus the observer's result. With
 * two players whose results add up to 1 it is the same as max^n.
 */

/* The observer's result at its own moves, one minus it at every other player's. */
static inline double mcts_backup_paranoid(const double *values, int player, int observer)
{
    return player == observer ? values[observer] : 1.0 - values[observer];
}
