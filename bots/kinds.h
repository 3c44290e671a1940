#pragma once
/* The bot kinds registered in bot.c. Adding a kind: declare it here and list it in bot.c. */
#include "bots/bot.h"

extern const bot_kind_t bot_kind_random;
extern const bot_kind_t bot_kind_greedy;
extern const bot_kind_t bot_kind_heuristic;
extern const bot_kind_t bot_kind_mcts;
extern const bot_kind_t bot_kind_pimc;
extern const bot_kind_t bot_kind_policy;
extern const bot_kind_t bot_kind_ext;
extern const bot_kind_t bot_kind_human;
