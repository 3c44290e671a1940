/* Must not build (test include_probe_internal): search/internal.h is search's own. */
#include "bots/bot.h"
#include "search/internal.h"

int main(void) { return 0; }
