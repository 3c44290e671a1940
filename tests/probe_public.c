/* Built in every build: a target linking skyline_bots reaches the public headers. */
#include "bots/bot.h"
#include "core/game.h"
#include "search/mcts.h"

int main(void) { return game_count() > 0 ? 0 : 1; }
