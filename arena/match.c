#include "match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/forfeit.h"

/* The first faulted seat from seat first on (all seats in order), or -1. */
static int match_faulted(bot_t *const *bots, int players, int first)
{
    for (int k = 0; k < players; k++) {
        int s = (first + k) % players;
        if (bots[s]->fault[0])
            return s;
    }
    return -1;
}

/* Every bot starts the game again at initial and observes moves[0..n): state becomes the
   position after them. Returns the first faulted seat, or -1. */
static int match_restart(const game_api_t *api, const game_options_t *opt, bot_t *const *bots,
                         int players, const void *initial, void *state, const move_t *moves,
                         int n)
{
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    for (int s = 0; s < players; s++) {
        bot_reset(bots[s], rng_mix64(opt->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)s + 1));
        bot_begin(bots[s], initial, opt, s);
    }
    memcpy(state, initial, api->state_size);
    for (int i = 0; i < n; i++) {
        for (int s = 0; s < players; s++)
            bot_observe(bots[s], state, moves[i]);
        api->make(state, moves[i], undo);
    }
    return match_faulted(bots, players, 0);
}

int match_play(const game_api_t *api, const game_options_t *opt, bot_t *const *bots,
               bool record_legal, match_result_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->forfeit_seat = -1;
    void *initial = malloc(api->state_size), *state = malloc(api->state_size);
    int cap = 512, n = 0;
    move_t *moves = malloc(sizeof *moves * (size_t)cap);
    int *counts = record_legal ? malloc(sizeof *counts * (size_t)cap) : NULL;
    move_t buf[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    int rc = -1, forfeit = -1;
    if (!initial || !state || !moves || (record_legal && !counts)) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if (api->new_game(initial, opt, err, errlen))
        goto done;
    int players = api->player_count(initial);
    forfeit = match_restart(api, opt, bots, players, initial, state, moves, 0);
    while (forfeit < 0 && !api->is_terminal(state)) {
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
        if (bots[p]->fault[0]) {
            forfeit = p;
            break;
        }
        if (bots[p]->undo_to >= 0) {
            int to = bots[p]->undo_to < n ? bots[p]->undo_to : n;
            bots[p]->undo_to = -1;
            n = to;
            forfeit = match_restart(api, opt, bots, players, initial, state, moves, n);
            continue;
        }
        for (int s = 0; s < players; s++)
            bot_observe(bots[s], state, m);
        api->make(state, m, undo);
        moves[n++] = m;
        forfeit = match_faulted(bots, players, p);
    }
    const char *seats[GAME_MAX_PLAYERS];
    for (int s = 0; s < players; s++)
        seats[s] = bots[s]->spec;
    out->players = players;
    out->moves = n;
    if (forfeit >= 0) {
        forfeit_ranks(players, forfeit, out->ranks);
        game_result_from_ranks(players, out->ranks, out->result);
        out->forfeit_seat = forfeit;
        snprintf(out->forfeit_reason, sizeof out->forfeit_reason, "%s", bots[forfeit]->fault);
    } else {
        api->result(state, out->result);
        game_ranks(api, state, out->ranks);
    }
    for (int s = 0; s < players; s++)
        bot_end(bots[s], out->result);
    out->record = api->record_new(initial, opt, moves, n, counts, seats);
    if (!out->record) {
        snprintf(err, errlen, "internal error: the game's record could not be made");
        goto done;
    }
    if (forfeit >= 0)
        forfeit_record_add(out->record, players, forfeit, n, bots[forfeit]->fault,
                           bots[forfeit]->fault_detail);
    rc = 0;
done:
    free(initial);
    free(state);
    free(moves);
    free(counts);
    return rc;
}
