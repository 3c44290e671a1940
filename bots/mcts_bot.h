#pragma once
/* What the mcts bot kind offers beyond the bot interface. */
#include "bots/bot.h"
#include "search/mcts.h"

/* Statistics of the last search of an mcts bot (iterations, nodes, depth, time, root
   moves; valid until its next choose or reset), or NULL if b is not an mcts bot or has
   not searched since its last reset. */
const mcts_stats_t *mcts_bot_last_stats(const bot_t *b);
