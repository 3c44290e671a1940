#include "match.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search/mcts.h"
#include "core/forfeit.h"
#include "core/record.h"

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
static int match_restart(const game_api_t *api, const game_options_t *opt,
                         const match_setup_t *setup, bot_t *const *bots, int players,
                         const void *initial, void *state, const move_t *moves, int n)
{
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    uint64_t seed = setup && setup->bot_seed_given ? setup->bot_seed : opt->seed;
    for (int s = 0; s < players; s++) {
        bot_reset(bots[s], rng_mix64(seed * 0x9e3779b97f4a7c15ULL + (uint64_t)s + 1));
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
    return match_play_search(api, opt, bots, record_legal, false, out, err, errlen);
}

/* A value in [0, 1] in thousandths. */
static json_t *permille(double v) { return json_integer((json_int_t)lround(v * 1000)); }

/* What bot b's last search saw at state (before its move), or JSON null. */
static json_t *search_figures(const game_api_t *api, const bot_t *b, const void *state)
{
    const mcts_stats_t *st = bot_last_search(b);
    if (!st || st->root_move_count < 2)
        return json_null();
    json_t *top = json_array();
    for (int i = 0; i < st->root_move_count && i < MATCH_SEARCH_TOP; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        api->move_to_text(state, st->root_moves[i].move, text);
        json_array_append_new(top, json_pack("{s:s,s:I,s:o}", "move", text, "visits",
                                             (json_int_t)st->root_moves[i].visits, "mean_pm",
                                             permille(st->root_moves[i].mean)));
    }
    return json_pack("{s:I,s:I,s:o,s:o}", "iters", (json_int_t)st->iterations, "ms",
                     (json_int_t)llround(st->seconds * 1000), "value_pm",
                     permille(st->root_moves[0].mean), "top", top);
}

/* Action id and visits of a root move, for sorting by id. */
typedef struct policy_entry {
    int id;
    long visits;
} policy_entry_t;

static int policy_compare(const void *a, const void *b)
{
    const policy_entry_t *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

json_t *match_policy_json(const game_api_t *api, const bot_t *b, const void *state)
{
    const mcts_stats_t *st = bot_last_search(b);
    if (!st || st->root_move_count < 2 || !api->move_action)
        return json_null();
    policy_entry_t e[GAME_MAX_MOVES];
    int n = 0;
    for (int i = 0; i < st->root_move_count && i < GAME_MAX_MOVES; i++)
        if (st->root_moves[i].visits > 0)
            e[n++] = (policy_entry_t){api->move_action(state, st->root_moves[i].move),
                                      st->root_moves[i].visits};
    qsort(e, (size_t)n, sizeof e[0], policy_compare);
    json_t *ids = json_array(), *visits = json_array(), *value = json_array();
    for (int i = 0; i < n; i++) {
        json_array_append_new(ids, json_integer(e[i].id));
        json_array_append_new(visits, json_integer((json_int_t)e[i].visits));
    }
    for (int p = 0; p < api->player_count(state); p++)
        json_array_append_new(value, permille(st->root_value[p]));
    return json_pack("{s:I,s:o,s:o,s:o}", "iters", (json_int_t)st->iterations, "ids", ids, "visits",
                     visits, "value_pm", value);
}

/* The player who made each of moves[0..n) from initial, as a JSON list. */
static json_t *movers_of(const game_api_t *api, const void *initial, const move_t *moves, int n)
{
    void *s = malloc(api->state_size);
    json_t *movers = json_array();
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    if (!s)
        return movers;
    memcpy(s, initial, api->state_size);
    for (int i = 0; i < n; i++) {
        json_array_append_new(movers, json_integer(api->to_move(s)));
        api->make(s, moves[i], undo);
    }
    free(s);
    return movers;
}

int match_play_search(const game_api_t *api, const game_options_t *opt, bot_t *const *bots,
                      bool record_legal, bool record_search, match_result_t *out, char *err,
                      size_t errlen)
{
    return match_play_setup(api, opt, bots, record_legal, record_search, NULL, out, err, errlen);
}

static double match_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* Bot p's move under the time control: tells it its clock, times its choice into used[p]
   and left[p], and faults it (a loss on time) if it took too long. */
static move_t match_choose_timed(bot_t *b, const void *state, const match_clock_t *c, int p,
                                 double *left, double *used)
{
    if (match_clock_on(c))
        bot_clock(b, c->base_ms ? (long)left[p] : -1, c->inc_ms, c->move_ms);
    double t0 = match_now_ms();
    move_t m = bot_choose(b, state);
    double dt = match_now_ms() - t0;
    used[p] += dt;
    if (!match_clock_on(c) || b->fault[0] || b->undo_to >= 0)
        return m;
    if (c->move_ms && dt > (double)c->move_ms)
        bot_fault(b, "timeout", "move took %.0f ms, over the limit of %ld ms", dt, c->move_ms);
    else if (c->base_ms && dt > left[p])
        bot_fault(b, "timeout", "move took %.0f ms with %.0f ms left on its clock", dt, left[p]);
    left[p] += (double)c->inc_ms - dt;
    return m;
}

/* The record's "clock" key: the time control and each seat's time used. */
static json_t *clock_json(const match_clock_t *c, const double *used, int players)
{
    json_t *u = json_array();
    for (int s = 0; s < players; s++)
        json_array_append_new(u, json_integer((json_int_t)llround(used[s])));
    return json_pack("{s:I,s:I,s:I,s:o}", "base_ms", (json_int_t)c->base_ms, "inc_ms",
                     (json_int_t)c->inc_ms, "move_ms", (json_int_t)c->move_ms, "used_ms", u);
}

/* The opening's move n at state, if it is legal there (buf: its legal moves): 0, or -1
   with err. */
static int match_opening_move(const game_options_t *opt, const match_setup_t *setup,
                              const move_t *buf, int legal, int n, move_t *m, char *err,
                              size_t errlen)
{
    *m = setup->opening[n];
    for (int i = 0; i < legal; i++)
        if (buf[i] == *m)
            return 0;
    snprintf(err, errlen, "seed %llu: the opening's move %d is not legal in the game",
             (unsigned long long)opt->seed, n + 1);
    return -1;
}

/* Doubles the move list (and the legal-move counts, if kept): 0, or -1 with err. */
static int match_grow(move_t **moves, int **counts, int *cap, bool record_legal, char *err,
                      size_t errlen)
{
    *cap *= 2;
    move_t *m2 = realloc(*moves, sizeof **moves * (size_t)*cap);
    int *c2 = record_legal ? realloc(*counts, sizeof **counts * (size_t)*cap) : NULL;
    if (m2)
        *moves = m2;
    if (c2)
        *counts = c2;
    if (!m2 || (record_legal && !c2)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

/* Drops the entries of a per-move list (or NULL) from move n on. */
static void match_truncate(json_t *list, int n)
{
    while (list && json_array_size(list) > (size_t)n)
        json_array_remove(list, json_array_size(list) - 1);
}

/* The move bot b asked to take back to (not before the opening's end, nor after move n);
   clears its request. */
static int match_undo_target(bot_t *b, int n, int opening)
{
    int to = b->undo_to < n ? b->undo_to : n;
    to = to < opening ? opening : to;
    b->undo_to = -1;
    return to;
}

/* Appends what bot b's search saw at state to the per-move lists kept (null for an
   opening move the bot did not choose). */
static void match_note_search(const game_api_t *api, const bot_t *b, const void *state,
                              bool opening_move, json_t *search, json_t *policy)
{
    if (search)
        json_array_append_new(search, opening_move ? json_null() : search_figures(api, b, state));
    if (policy)
        json_array_append_new(policy,
                              opening_move ? json_null() : match_policy_json(api, b, state));
}

/* Fills out's players, moves, result and ranks (a forfeit by seat forfeit, or the end
   at state), and tells the bots the result. */
static void match_result(const game_api_t *api, bot_t *const *bots, int players, const void *state,
                         int forfeit, int n, match_result_t *out)
{
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
}

/* The game's record with its forfeit, if any, or NULL. */
static json_t *match_record(const game_api_t *api, const game_options_t *opt, bot_t *const *bots,
                            int players, const void *initial, const move_t *moves, int n,
                            const int *counts, int forfeit)
{
    const char *seats[GAME_MAX_PLAYERS];
    for (int s = 0; s < players; s++)
        seats[s] = bots[s]->spec;
    json_t *record = record_new(api, initial, opt, moves, n, counts, seats);
    if (record && forfeit >= 0)
        forfeit_record_add(record, players, forfeit, n, bots[forfeit]->fault,
                           bots[forfeit]->fault_detail);
    return record;
}

int match_play_setup(const game_api_t *api, const game_options_t *opt, bot_t *const *bots,
                     bool record_legal, bool record_search, const match_setup_t *setup,
                     match_result_t *out, char *err, size_t errlen)
{
    const match_clock_t *clock = setup ? &setup->clock : NULL;
    int opening = setup && setup->opening ? setup->opening_plies : 0;
    double left[GAME_MAX_PLAYERS];
    for (int s = 0; s < GAME_MAX_PLAYERS; s++)
        left[s] = clock ? (double)clock->base_ms : 0;
    memset(out, 0, sizeof *out);
    out->forfeit_seat = -1;
    void *initial = malloc(api->state_size), *state = malloc(api->state_size);
    int cap = 512, n = 0;
    move_t *moves = malloc(sizeof *moves * (size_t)cap);
    int *counts = record_legal ? malloc(sizeof *counts * (size_t)cap) : NULL;
    move_t buf[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    int rc = -1, forfeit = -1;
    json_t *search = record_search ? json_array() : NULL;
    json_t *policy = setup && setup->record_policy ? json_array() : NULL;
    if (!initial || !state || !moves || (record_legal && !counts)) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if (api->new_game(initial, opt, err, errlen))
        goto done;
    int players = api->player_count(initial);
    forfeit = match_restart(api, opt, setup, bots, players, initial, state, moves, 0);
    while (forfeit < 0 && !api->is_terminal(state)) {
        if (n == cap && match_grow(&moves, &counts, &cap, record_legal, err, errlen))
            goto done;
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
        move_t m;
        if (n < opening) {
            if (match_opening_move(opt, setup, buf, legal, n, &m, err, errlen))
                goto done;
        } else {
            m = match_choose_timed(bots[p], state, clock, p, left, out->used_ms);
        }
        if (bots[p]->fault[0]) {
            forfeit = p;
            break;
        }
        if (bots[p]->undo_to >= 0) {
            n = match_undo_target(bots[p], n, opening);
            match_truncate(search, n);
            match_truncate(policy, n);
            forfeit = match_restart(api, opt, setup, bots, players, initial, state, moves, n);
            continue;
        }
        match_note_search(api, bots[p], state, n < opening, search, policy);
        for (int s = 0; s < players; s++)
            bot_observe(bots[s], state, m);
        api->make(state, m, undo);
        moves[n++] = m;
        forfeit = match_faulted(bots, players, p);
    }
    match_result(api, bots, players, state, forfeit, n, out);
    out->record = match_record(api, opt, bots, players, initial, moves, n, counts, forfeit);
    if (!out->record) {
        snprintf(err, errlen, "internal error: the game's record could not be made");
        goto done;
    }
    /* Keys after FORMATS.md's and "engine" (readers ignore unknown keys). */
    record_add_per_move(out->record, "movers", movers_of(api, initial, moves, n));
    if (search)
        record_add_per_move(out->record, "search", json_incref(search));
    if (policy)
        record_add_per_move(out->record, "policy", json_incref(policy));
    if (match_clock_on(clock))
        json_object_set_new(out->record, "clock", clock_json(clock, out->used_ms, players));
    if (opening) /* the moves bots did not choose */
        json_object_set_new(out->record, "opening_plies", json_integer(opening));
    rc = 0;
done:
    free(initial);
    free(state);
    free(moves);
    free(counts);
    json_decref(search);
    json_decref(policy);
    return rc;
}
