#pragma once
/* The human seat (bot spec `human`): a player at the terminal, in skyline play only. */
#include <stdbool.h>

/*
 * Lets human seats be made (only skyline play calls it): hint_spec is the bot that `hint`
 * asks (NULL: heuristic, or random for a game without a heuristic); allow_undo lets
 * `undo` take the game back (play allows it only without --record and with one human).
 */
void human_enable(const char *hint_spec, bool allow_undo);
