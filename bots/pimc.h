#pragma once
/*
 * The pimc bot kind (bots/pimc.c): Perfect Information Monte Carlo. For a move it samples
 * `dets` determinizations of the state for the player to move, searches each with the
 * perfect-information MCTS of search/mcts.h (cheat=1 on the determinized state) and plays
 * the move the determinizations vote for. This header is its vote, for tests.
 */
#include "core/game.h"
#include "search/mcts.h"

/* How the determinizations' searches vote. */
typedef enum pimc_vote_rule {
    PIMC_VOTE_VISITS = 0,   /* each adds its root visit share per move; the largest sum wins */
    PIMC_VOTE_PLURALITY = 1 /* each votes for the move its search chose; most votes win */
} pimc_vote_rule_t;

/* The votes of the determinizations so far, per legal move of the real state. */
typedef struct pimc_tally {
    int n;                            /* legal moves of the real state */
    int dets;                         /* determinizations added */
    move_t moves[GAME_MAX_MOVES];     /* those moves, in the order of api->gen_moves */
    double share[GAME_MAX_MOVES];     /* sum of the moves' root visit shares */
    int votes[GAME_MAX_MOVES];        /* determinizations whose search chose the move */
    long visits[GAME_MAX_MOVES];      /* root visits summed */
    double value_sum[GAME_MAX_MOVES]; /* visits times mean summed (the searcher's result) */
} pimc_tally_t;

/* An empty tally over the n legal moves of the real state. */
void pimc_tally_init(pimc_tally_t *t, const move_t *moves, int n);
/* Adds one determinization's search: its count root moves' statistics and the move it
   chose. Moves not among the tally's are ignored. A search of no visits at all (one legal
   move) gives its chosen move the whole share. */
void pimc_tally_add(pimc_tally_t *t, const mcts_move_stat_t *root, int count, move_t chosen);
/* The winner under rule. Ties on the rule's score go to the other rule's score (visit
   shares for plurality, votes for visits), then to the earlier move in legal order. */
move_t pimc_tally_winner(const pimc_tally_t *t, pimc_vote_rule_t rule);
