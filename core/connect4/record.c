/* Connect Four's part of its game records (FORMATS.md §4, core/record.h): no keys of its
   own, a result of ranks and turns. */
#include <jansson.h>

#include "core/connect4/connect4.h"
#include "core/record.h"

static int first_player(const void *initial) { return ((const c4_state_t *)initial)->first_player; }

static json_t *result(const void *state)
{
    const c4_state_t *s = state;
    int ranks[2];
    c4_ranks(s, ranks);
    return json_pack("{s:[ii],s:i}", "ranks", ranks[0], ranks[1], "turns", s->stone_count);
}

const record_hooks_t c4_record_hooks = {.first_player = first_player, .result = result};
