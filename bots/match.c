#include "match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int match_play(const game_api_t *api, const game_options_t *opt, bot_t *const *bots,
               bool record_legal, match_result_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    void *initial = malloc(api->state_size), *state = malloc(api->state_size);
    int cap = 512, n = 0;
    move_t *moves = malloc(sizeof *moves * (size_t)cap);
    int *counts = record_legal ? malloc(sizeof *counts * (size_t)cap) : NULL;
    move_t buf[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    int rc = -1;
    if (!initial || !state || !moves || (record_legal && !counts)) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if (api->new_game(initial, opt, err, errlen))
        goto done;
    int players = api->player_count(initial);
    for (int s = 0; s < players; s++)
        bot_reset(bots[s], rng_mix64(opt->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)s + 1));
    memcpy(state, initial, api->state_size);
    while (!api->is_terminal(state)) {
        if (n == cap) {
            cap *= 2;
            move_t *m2 = realloc(moves, sizeof *moves * (size_t)cap);
            int *c2 = record_legal ? realloc(counts, sizeof *counts * (size_t)cap) : NULL;
            if (m2)
                moves = m2;
            if (c2)
                counts = c2;
            if (!m2 || (record_legal && !c2)) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
        }
        int legal = api->gen_moves(state, buf);
        if (record_legal)
            counts[n] = legal;
        if (!legal) {
            snprintf(err, errlen,
                     "seed %llu: no legal move at move %d, yet the game is not over "
                     "(an engine bug)",
                     (unsigned long long)opt->seed, n);
            goto done;
        }
        int p = api->to_move(state);
        move_t m = bot_choose(bots[p], state);
        for (int s = 0; s < players; s++)
            bot_observe(bots[s], state, m);
        api->make(state, m, undo);
        moves[n++] = m;
    }
    const char *seats[GAME_MAX_PLAYERS];
    for (int s = 0; s < players; s++)
        seats[s] = bots[s]->spec;
    out->players = players;
    out->moves = n;
    api->result(state, out->result);
    out->record = api->record_new(initial, opt, moves, n, counts, seats);
    if (!out->record) {
        snprintf(err, errlen, "internal error: the game's record could not be made");
        goto done;
    }
    game_ranks(api, state, out->ranks);
    rc = 0;
done:
    free(initial);
    free(state);
    free(moves);
    free(counts);
    return rc;
}
