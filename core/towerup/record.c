/* Tower Up's part of its game records (FORMATS.md §4, core/record.h): the board, the
   objectives, the start floors, the deck and each reshuffle's new draw pile, which fix
   every chance event, and the result. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/record.h"
#include "internal.h"

static json_t *letter_json(int colour)
{
    char t[2] = {towerup_colour_letter[colour], 0};
    return json_string(t);
}

static json_t *int_array(const int *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

/* The result object of a finished game. */
static json_t *result_json(const towerup_state_t *s)
{
    int n = s->players, scores[TOWERUP_MAX_PLAYERS], ranks[TOWERUP_MAX_PLAYERS];
    int cones[TOWERUP_MAX_PLAYERS], supply[TOWERUP_MAX_PLAYERS];
    towerup_ranks(s, ranks);
    json_t *markers = json_array(), *chips = json_array();
    for (int p = 0; p < n; p++) {
        scores[p] = towerup_score(s, p);
        cones[p] = s->cone[p] < 0 ? 0 : s->cone[p];
        supply[p] = towerup_supply_total(s, p);
        int mk[TOWERUP_COLOUR_COUNT], ch[TOWERUP_GAME_OBJECTIVES];
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
            mk[c] = s->markers[p][c];
        for (int i = 0; i < s->chip_count[p]; i++)
            ch[i] = s->chips[p][i];
        json_array_append_new(markers, int_array(mk, TOWERUP_COLOUR_COUNT));
        json_array_append_new(chips, int_array(ch, s->chip_count[p]));
    }
    json_t *r = json_object();
    json_object_set_new(r, "scores", int_array(scores, n));
    json_object_set_new(r, "ranks", int_array(ranks, n));
    json_object_set_new(r, "markers", markers);
    json_object_set_new(r, "cones", int_array(cones, n));
    json_object_set_new(r, "chips", chips);
    json_object_set_new(r, "supply", int_array(supply, n));
    json_object_set_new(r, "turns", json_integer(s->turns));
    return r;
}

/* The draw pile just made by a reshuffle (the card already drawn from it included). */
static json_t *pile_json(const towerup_state_t *s)
{
    const towerup_card_t *cards = towerup_cards();
    json_t *a = json_array();
    for (int i = 0; i < s->draw_end; i++)
        json_array_append_new(a, json_string(cards[s->draw[i]].code));
    return a;
}

/* ---- writing ---- */

static int first_player(const void *initial)
{
    return ((const towerup_state_t *)initial)->first_player;
}

static uint64_t seed(const void *initial) { return ((const towerup_state_t *)initial)->seed; }

/* "board": as the options named it (a file path stays a path), else its name. */
static void head_keys(json_t *rec, const void *initial, const game_options_t *opt)
{
    const towerup_state_t *ini = initial;
    const char *board_option = game_options_get(opt, "board");
    json_object_set_new(rec, "board", json_string(board_option ? board_option : ini->board->name));
}

/* The deck of a game at its start: market slots, then the draw pile, top first. */
static void start_deck(const towerup_state_t *ini, uint8_t *deck)
{
    memcpy(deck, ini->market, TOWERUP_MARKET);
    memcpy(deck + TOWERUP_MARKET, ini->draw + ini->draw_pos, (size_t)towerup_draw_count(ini));
}

/* The game before its set-up; a random set-up's placements are the record's first moves. */
static int write_start(const void *initial, void *start, move_t *prefix, int *nprefix)
{
    const towerup_state_t *ini = initial;
    uint8_t deck[TOWERUP_CARD_COUNT];
    char err[GAME_ERR_MAX];
    start_deck(ini, deck);
    if (ini->draw_pos != 0 || ini->reshuffles ||
        towerup_new_from(start, ini->board, ini->players, ini->first_player, ini->objectives, deck,
                         ini->setup_colour, ini->setup_count, ini->seed, err, sizeof err) < 0)
        return -1;
    *nprefix = ini->setup_random ? ini->setup_done : 0;
    for (int i = 0; i < *nprefix; i++)
        prefix[i] = towerup_move_place(ini->setup_site[i], ini->setup_floor[i]);
    return 0;
}

/* "objectives", "start_floors", "deck" and "reshuffles" (filled by write_move). */
static void setup_keys(json_t *rec, const void *initial)
{
    const towerup_state_t *ini = initial;
    const towerup_card_t *cards = towerup_cards();
    uint8_t deck[TOWERUP_CARD_COUNT];
    start_deck(ini, deck);
    json_t *objs = json_array(), *start = json_array(), *deck_list = json_array();
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
        json_array_append_new(objs, json_string(towerup_objective_id[ini->objectives[i]]));
    for (int i = 0; i < ini->setup_count; i++)
        json_array_append_new(start, letter_json(ini->setup_colour[i]));
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++)
        json_array_append_new(deck_list, json_string(cards[deck[i]].code));
    json_object_set_new(rec, "objectives", objs);
    json_object_set_new(rec, "start_floors", start);
    json_object_set_new(rec, "deck", deck_list);
    json_object_set_new(rec, "reshuffles", json_array());
}

static void write_move(json_t *rec, const void *before, const void *after, move_t m)
{
    (void)m;
    const towerup_state_t *s = after;
    if (s->reshuffles != ((const towerup_state_t *)before)->reshuffles)
        json_array_append_new(json_object_get(rec, "reshuffles"), pile_json(s));
}

static json_t *result(const void *state) { return result_json(state); }

/* ---- reading ---- */

/* Key of rec of JSON type type (what names it: "a string", "a list"); NULL with err. */
static const json_t *get_key(const json_t *rec, const char *key, json_type type, const char *what,
                             char *err, size_t errlen)
{
    const json_t *v = json_object_get(rec, key);
    if (!v || json_typeof(v) != type) {
        input_fail(err, errlen, "record", NULL, "%s must be %s", key, what);
        return NULL;
    }
    return v;
}

/* Card indices for codes: each code takes the lowest unused index among allowed ones. */
static int codes_to_cards(const json_t *list, uint64_t allowed, uint8_t *out, const char *what,
                          char *err, size_t errlen)
{
    const towerup_card_t *cards = towerup_cards();
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v)
    {
        const char *code = json_string_value(v);
        if (!code) {
            return input_fail(err, errlen, "record", NULL, "%s entry %zu is not a string", what, i);
        }
        int known = 0, found = -1;
        for (int k = 0; k < TOWERUP_CARD_COUNT && found < 0; k++) {
            if (strcmp(cards[k].code, code))
                continue;
            known = 1;
            if (allowed >> k & 1)
                found = k;
        }
        char shown[INPUT_EXCERPT_MAX];
        if (!known) {
            return input_fail(err, errlen, "record", NULL,
                              "%s entry %zu '%s' is not a Tower Up card code", what, i,
                              input_escape(code, shown, sizeof shown));
        }
        if (found < 0) {
            return input_fail(err, errlen, "record", NULL, "%s has too many '%s' cards", what,
                              code);
        }
        allowed &= ~(1ULL << found);
        out[i] = (uint8_t)found;
    }
    return 0;
}

/* The objectives of a record into objectives[]. */
static int read_objectives(const json_t *objs_v, uint8_t *objectives, char *err, size_t errlen)
{
    if (json_array_size(objs_v) != TOWERUP_GAME_OBJECTIVES) {
        return input_fail(err, errlen, "record", NULL, "objectives must be a list of three ids");
    }
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++) {
        const char *id = json_string_value(json_array_get(objs_v, (size_t)i));
        int o = id ? towerup_objective_find(id) : -1;
        if (o < 0) {
            char shown[INPUT_EXCERPT_MAX], names[128];
            towerup_objective_names(names, sizeof names);
            return input_fail(err, errlen, "record", NULL,
                              "objectives entry %d '%s' is not one of %s", i,
                              id ? input_escape(id, shown, sizeof shown) : "(not a string)", names);
        }
        objectives[i] = (uint8_t)o;
    }
    return 0;
}

/* The starting floors of a record into start[]; their count, or -1. */
static int read_start_floors(const json_t *start_v, uint8_t *start, char *err, size_t errlen)
{
    size_t ns = json_array_size(start_v);
    if (ns < 3 || ns > TOWERUP_MAX_START_FLOORS) {
        return input_fail(err, errlen, "record", NULL,
                          "start_floors lists %zu floors (3 to 7 allowed)", ns);
    }
    for (size_t i = 0; i < ns; i++) {
        const char *t = json_string_value(json_array_get(start_v, i));
        int c = t && t[0] && !t[1] ? towerup_colour_from_letter(t[0], true) : -1;
        if (c < 0) {
            return input_fail(err, errlen, "record", NULL,
                              "starting floor %zu is not one of K G W B *", i);
        }
        start[i] = (uint8_t)c;
    }
    return (int)ns;
}

/* The game of a record before its first move. */
static int read_start(const json_t *rec, const record_envelope_t *env, void *state, char *err,
                      size_t errlen)
{
    const json_t *board_v, *objs_v, *start_v, *deck_v;
    if (!(board_v = get_key(rec, "board", JSON_STRING, "a board name or file", err, errlen)) ||
        !(objs_v =
              get_key(rec, "objectives", JSON_ARRAY, "a list of objective ids", err, errlen)) ||
        !(start_v = get_key(rec, "start_floors", JSON_ARRAY, "a list of colours", err, errlen)) ||
        !(deck_v = get_key(rec, "deck", JSON_ARRAY, "a list of card codes", err, errlen)) ||
        !get_key(rec, "reshuffles", JSON_ARRAY, "a list of card lists", err, errlen))
        return -1;
    const towerup_board_t *board = towerup_board_get(json_string_value(board_v), err, errlen);
    if (!board)
        return -1;
    uint8_t objectives[TOWERUP_GAME_OBJECTIVES], deck[TOWERUP_CARD_COUNT];
    uint8_t start[TOWERUP_MAX_START_FLOORS];
    int ns;
    if (read_objectives(objs_v, objectives, err, errlen) < 0 ||
        (ns = read_start_floors(start_v, start, err, errlen)) < 0)
        return -1;
    if (json_array_size(deck_v) != TOWERUP_CARD_COUNT) {
        return input_fail(err, errlen, "record", NULL, "deck has %zu cards, not 44",
                          json_array_size(deck_v));
    }
    if (codes_to_cards(deck_v, (1ULL << TOWERUP_CARD_COUNT) - 1, deck, "deck", err, errlen) < 0)
        return -1;
    return towerup_new_from(state, board, env->players, env->first_player, objectives, deck, start,
                            ns, env->seed, err, errlen);
}

/* After a reshuffle: the record's list becomes the draw pile (one card already drawn). */
static int apply_reshuffle(towerup_state_t *s, int slot, const json_t *list, char *err,
                           size_t errlen)
{
    if (!json_is_array(list) || json_array_size(list) != s->draw_end) {
        return input_fail(err, errlen, "record", NULL,
                          "a reshuffle has %zu cards, the discard pile %d",
                          json_is_array(list) ? json_array_size(list) : 0, s->draw_end);
    }
    uint64_t pile = 0;
    for (int i = 0; i < s->draw_end; i++)
        pile |= 1ULL << s->draw[i];
    if (codes_to_cards(list, pile, s->draw, "a reshuffle", err, errlen) < 0)
        return -1;
    s->market[slot] = s->draw[0];
    towerup_fix_derived(s);
    return 0;
}

/* A reshuffle made by move m: its new draw pile from the record. */
static int read_move(const json_t *rec, const void *before, void *state, move_t m, int *used,
                     char *err, size_t errlen)
{
    towerup_state_t *s = state;
    if (s->reshuffles == ((const towerup_state_t *)before)->reshuffles)
        return 0;
    const json_t *resh = json_object_get(rec, "reshuffles");
    if ((size_t)*used >= json_array_size(resh)) {
        return input_fail(err, errlen, "record", NULL,
                          "the draw pile must be refilled but the record has no reshuffle left");
    }
    return apply_reshuffle(s, towerup_move_slot(m), json_array_get(resh, (size_t)(*used)++), err,
                           errlen);
}

static int read_end(const json_t *rec, const void *state, int used, char *err, size_t errlen)
{
    (void)state;
    size_t listed = json_array_size(json_object_get(rec, "reshuffles"));
    if ((size_t)used != listed) {
        return input_fail(err, errlen, "record", NULL,
                          "reshuffles lists %zu reshuffles but the game made %d", listed, used);
    }
    return 0;
}

/* The record's first moves, if they place the starting floors as setup=random draws them
   from the record's seed; else 0 (players placed them). */
static int random_setup(const json_t *rec, const void *start)
{
    const json_t *moves = json_object_get(rec, "moves");
    towerup_state_t *drawn = malloc(sizeof *drawn), *played = malloc(sizeof *played);
    int n = 0;
    if (drawn && played && ((const towerup_state_t *)start)->phase == TOWERUP_PHASE_SETUP) {
        memcpy(drawn, start, sizeof *drawn);
        memcpy(played, start, sizeof *played);
        towerup_setup_seeded(drawn);
        n = drawn->setup_done;
        char err[GAME_ERR_MAX];
        for (int i = 0; i < drawn->setup_done; i++) {
            const json_t *jm = json_array_get(moves, (size_t)i);
            move_t m;
            towerup_undo_t u;
            if (!json_is_string(jm) || played->phase != TOWERUP_PHASE_SETUP ||
                towerup_move_from_text(played, json_string_value(jm), &m, err, sizeof err) ||
                m != towerup_move_place(drawn->setup_site[i], drawn->setup_floor[i])) {
                n = 0;
                break;
            }
            towerup_make(played, m, &u);
        }
    }
    free(drawn);
    free(played);
    return n;
}

const record_hooks_t towerup_record_hooks = {
    .first_player = first_player,
    .seed = seed,
    .head_keys = head_keys,
    .setup_keys = setup_keys,
    .write_start = write_start,
    .write_move = write_move,
    .result = result,
    .read_start = read_start,
    .read_move = read_move,
    .read_end = read_end,
    .random_setup = random_setup,
};
