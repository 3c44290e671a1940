/* random: a uniformly random legal move. No keys. */
#include <stdio.h>

#include "bots/kinds.h"

static int random_init(bot_t *b, const bot_spec_t *spec, char *err, size_t errlen)
{
    (void)b;
    if (spec->key_count) {
        snprintf(err, errlen, "unknown key '%s' (random takes none)", spec->keys[0]);
        return -1;
    }
    return 0;
}

/* Legal moves depend only on what the player to move sees, so the real state is used. */
static move_t random_choose(bot_t *b, const void *state)
{
    move_t moves[GAME_MAX_MOVES];
    int n = b->api->gen_moves(state, moves);
    if (!n)
        return 0; /* bot_choose never asks: no move to pick */
    return moves[pcg32_bounded(&b->rng, (uint32_t)n)];
}

const bot_kind_t bot_kind_random = {
    .name = "random",
    .help = "random: uniformly random legal moves",
    .init = random_init,
    .choose = random_choose,
};
