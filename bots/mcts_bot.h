#pragma once
/* What the mcts bot kind offers beyond the bot interface. */
#include <stdbool.h>
#include <stdio.h>

#include "bots/bot.h"
#include "bots/mcts_net.h"
#include "search/mcts.h"

/* Statistics of the last search of an mcts bot (iterations, nodes, depth, time, root
   moves; valid until its next choose or reset), or NULL if b is not an mcts bot or has
   not searched since its last reset. */
const mcts_stats_t *mcts_bot_last_stats(const bot_t *b);

/* The search options of an mcts bot as its keys and preset made them (hooks included),
   or NULL if b is not an mcts bot. */
const mcts_options_t *mcts_bot_options(const bot_t *b);

/* The net of an mcts bot with net=FILE alone at state (not terminal, the net's player
   count): priors[i] of moves[i] (state's n legal moves, in gen_moves order) and values[p]
   per seat p. 0, or -1 (nothing written) if b has no such net. Not while b searches. */
int mcts_bot_net_eval(const bot_t *b, const void *state, const move_t *moves, int n, double *priors,
                      double *values);

/* Sets the progress hook of an mcts bot's searches (search/mcts.h, mcts_options_t.progress):
   fn(so_far, ctx) after every `every` iterations of the search's first thread, for every
   search until set again (fn NULL: none). 0, or -1 if b is not an mcts bot. */
int mcts_bot_set_progress(bot_t *b, mcts_progress_fn fn, void *ctx, long every);

/* The value of key net= that asks for an evaluator given by mcts_bot_set_evaluator. */
#define MCTS_BOT_NET_EVALUATOR "@evaluator"

/* Gives an mcts bot made with net=@evaluator its evaluator (bots/mcts_net.h: a function
   from the mover's observation and legal action ids to logits and values) for games of
   `players` players, in place of a net file; ctx must outlive the bot. The function is
   called from the search's threads (one call at a time per thread). 0, or -1 with err. */
int mcts_bot_set_evaluator(bot_t *b, int players, mcts_net_fn fn, void *ctx, char *err,
                           size_t errlen);

/* True if b is an mcts bot with cheat=1 (it searches hidden information). */
bool mcts_bot_cheats(const bot_t *b);

/* Own moves a game clock expects to be left when own_moves have been made: the
   expected game length less own_moves, never below a floor. */
int mcts_clock_moves_left(int own_moves);
/* Milliseconds to spend on the next move with remaining_ms left on a game clock after
   own_moves own moves: remaining / (expected moves left + margin), at least 1 ms. The
   margin keeps a reserve (a tenth of what is left, past the expected length), so the
   clock runs out only in games far longer than expected. */
long mcts_clock_allot(long remaining_ms, int own_moves);

/* Totals over the searches of an mcts bot since it was made, over every game it played. */
typedef struct mcts_bot_totals {
    long searches;      /* searches of positions with two or more legal moves */
    long iterations;    /* iterations they ran */
    double seconds;     /* their wall time */
    long reused;        /* those that started from a subtree kept from the last search */
    long reused_visits; /* root visits those started with */
    long max_nodes;     /* the most nodes a search ended with */
} mcts_bot_totals_t;

/* Fills *t and returns true if b is an mcts bot; returns false otherwise. */
bool mcts_bot_totals(const bot_t *b, mcts_bot_totals_t *t);
/* Adds t's searches to *into (the most nodes: the larger). */
void mcts_bot_totals_add(mcts_bot_totals_t *into, const mcts_bot_totals_t *t);

/* Prints the mcts bot's keys from its key table: as text, one a line with its range and
   default (for --help), or as BOTS.md's markdown table (markdown). */
void mcts_bot_keys_print(FILE *out, bool markdown);
