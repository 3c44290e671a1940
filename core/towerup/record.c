/* Tower Up game records (FORMATS.md §4): writing and replaying. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/forfeit.h"
#include "core/input.h"
#include "core/version.h"
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

json_t *towerup_record_new(const void *initial, const game_options_t *opt, const move_t *moves,
                           int move_count, const int *legal_counts, const char *const *seats)
{
    const towerup_state_t *ini = initial;
    const towerup_card_t *cards = towerup_cards();
    /* The board as the options named it (a file path stays a path), else its name. */
    const char *board_option = game_options_get(opt, "board");
    char err[GAME_ERR_MAX];
    uint8_t deck[TOWERUP_CARD_COUNT];
    memcpy(deck, ini->market, TOWERUP_MARKET);
    memcpy(deck + TOWERUP_MARKET, ini->draw + ini->draw_pos, (size_t)towerup_draw_count(ini));
    towerup_state_t s;
    if (ini->draw_pos != 0 || ini->reshuffles ||
        towerup_new_from(&s, ini->board, ini->players, ini->first_player, ini->objectives, deck,
                         ini->setup_colour, ini->setup_count, ini->seed, err, sizeof err) < 0)
        return NULL;
    json_t *rec = json_object(), *seat_list = json_array(), *objs = json_array();
    json_t *start = json_array(), *deck_list = json_array(), *resh = json_array();
    json_t *move_list = json_array(), *lc = legal_counts ? json_array() : NULL;
    char text[GAME_MOVE_TEXT_MAX];
    move_t buf[GAME_MAX_MOVES];
    towerup_undo_t u;
    int setup_moves = ini->setup_random ? ini->setup_done : 0, total = setup_moves + move_count;
    for (int i = 0; i < total; i++) {
        move_t m = i < setup_moves ? towerup_move_place(ini->setup_site[i], ini->setup_floor[i])
                                   : moves[i - setup_moves];
        int n = towerup_gen_moves(&s, buf), j = 0;
        while (j < n && buf[j] != m)
            j++;
        if (j == n) {
            json_decref(rec);
            json_decref(seat_list);
            json_decref(objs);
            json_decref(start);
            json_decref(deck_list);
            json_decref(resh);
            json_decref(move_list);
            json_decref(lc);
            return NULL;
        }
        if (lc)
            json_array_append_new(
                lc, json_integer(i < setup_moves ? n : legal_counts[i - setup_moves]));
        towerup_move_to_text(&s, m, text);
        json_array_append_new(move_list, json_string(text));
        int before = s.reshuffles;
        towerup_make(&s, m, &u);
        if (s.reshuffles != before)
            json_array_append_new(resh, pile_json(&s));
    }
    for (int p = 0; p < ini->players; p++)
        json_array_append_new(seat_list, json_string(seats && seats[p] ? seats[p] : ""));
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
        json_array_append_new(objs, json_string(towerup_objective_id[ini->objectives[i]]));
    for (int i = 0; i < ini->setup_count; i++)
        json_array_append_new(start, letter_json(ini->setup_colour[i]));
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++)
        json_array_append_new(deck_list, json_string(cards[deck[i]].code));
    json_object_set_new(rec, "game", json_string("towerup"));
    json_object_set_new(rec, "format", json_integer(1));
    json_object_set_new(rec, "board", json_string(board_option ? board_option : ini->board->name));
    json_object_set_new(rec, "players", json_integer(ini->players));
    json_object_set_new(rec, "seats", seat_list);
    json_object_set_new(rec, "seed", json_integer((json_int_t)ini->seed));
    json_object_set_new(rec, "first_player", json_integer(ini->first_player));
    json_object_set_new(rec, "objectives", objs);
    json_object_set_new(rec, "start_floors", start);
    json_object_set_new(rec, "deck", deck_list);
    json_object_set_new(rec, "reshuffles", resh);
    json_object_set_new(rec, "moves", move_list);
    if (lc)
        json_object_set_new(rec, "legal_counts", lc);
    if (towerup_is_over(&s))
        json_object_set_new(rec, "result", result_json(&s));
    /* A key after FORMATS.md's (readers ignore unknown keys): the engine that wrote it. */
    json_object_set_new(rec, "engine", json_string(skyline_engine()));
    return rec;
}

/* ---- replay ---- */

static const json_t *get_key(const json_t *rec, const char *key, json_type type, char *err,
                             size_t errlen)
{
    const json_t *v = json_object_get(rec, key);
    if (!v) {
        tu_errf(err, errlen, "the record has no \"%s\" key", key);
        return NULL;
    }
    if (json_typeof(v) != type) {
        tu_errf(err, errlen, "the record's \"%s\" has the wrong type", key);
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
            tu_errf(err, errlen, "%s entry %zu is not a string", what, i);
            return -1;
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
            tu_errf(err, errlen, "%s entry %zu '%s' is not a Tower Up card code", what, i,
                    input_escape(code, shown, sizeof shown));
            return -1;
        }
        if (found < 0) {
            tu_errf(err, errlen, "%s has too many '%s' cards", what, code);
            return -1;
        }
        allowed &= ~(1ULL << found);
        out[i] = (uint8_t)found;
    }
    return 0;
}

/* Compares the record's result with the replayed game's. */
static int compare_result(const towerup_state_t *s, const json_t *want, char *err, size_t errlen)
{
    if (!json_is_object(want)) {
        tu_errf(err, errlen, "the record's \"result\" is not an object");
        return -1;
    }
    json_t *got = result_json(s);
    const char *keys[] = {"scores", "ranks", "markers", "cones", "chips", "supply", "turns"};
    for (int i = 0; i < 7; i++) {
        const json_t *w = json_object_get(want, keys[i]);
        if (!w) {
            tu_errf(err, errlen, "the record's \"result\" has no \"%s\" key", keys[i]);
            json_decref(got);
            return -1;
        }
        if (!json_equal(w, json_object_get(got, keys[i]))) {
            char *g = json_dumps(json_object_get(got, keys[i]), JSON_COMPACT | JSON_ENCODE_ANY);
            tu_errf(err, errlen, "result: the record's %s differ from the replay's %s", keys[i],
                    g ? g : "?");
            free(g);
            json_decref(got);
            return -1;
        }
    }
    json_decref(got);
    return 0;
}

/* The game of a record before its first move. */
static int replay_setup(const json_t *rec, towerup_state_t *s, char *err, size_t errlen)
{
    const json_t *v;
    if (!(v = get_key(rec, "game", JSON_STRING, err, errlen)))
        return -1;
    if (strcmp(json_string_value(v), "towerup")) {
        char shown[INPUT_EXCERPT_MAX];
        tu_errf(err, errlen, "the record is a game of %s, not towerup",
                input_escape(json_string_value(v), shown, sizeof shown));
        return -1;
    }
    if (!(v = get_key(rec, "format", JSON_INTEGER, err, errlen)))
        return -1;
    if (json_integer_value(v) != 1) {
        tu_errf(err, errlen, "the record's \"format\" is %lld (only 1 is supported)",
                (long long)json_integer_value(v));
        return -1;
    }
    const json_t *board_v, *players_v, *seats_v, *seed_v, *first_v, *objs_v, *start_v, *deck_v;
    if (!(board_v = get_key(rec, "board", JSON_STRING, err, errlen)) ||
        !(players_v = get_key(rec, "players", JSON_INTEGER, err, errlen)) ||
        !(seats_v = get_key(rec, "seats", JSON_ARRAY, err, errlen)) ||
        !(seed_v = get_key(rec, "seed", JSON_INTEGER, err, errlen)) ||
        !(first_v = get_key(rec, "first_player", JSON_INTEGER, err, errlen)) ||
        !(objs_v = get_key(rec, "objectives", JSON_ARRAY, err, errlen)) ||
        !(start_v = get_key(rec, "start_floors", JSON_ARRAY, err, errlen)) ||
        !(deck_v = get_key(rec, "deck", JSON_ARRAY, err, errlen)))
        return -1;
    json_int_t players = json_integer_value(players_v);
    if (players < 2 || players > TOWERUP_MAX_PLAYERS) {
        tu_errf(err, errlen, "the record's \"players\" is %lld, not 2 to %d", (long long)players,
                TOWERUP_MAX_PLAYERS);
        return -1;
    }
    if ((json_int_t)json_array_size(seats_v) != players) {
        tu_errf(err, errlen, "the record's \"seats\" lists %zu bot specs for %lld players",
                json_array_size(seats_v), (long long)players);
        return -1;
    }
    for (size_t i = 0; i < json_array_size(seats_v); i++)
        if (!json_is_string(json_array_get(seats_v, i))) {
            tu_errf(err, errlen, "the record's \"seats\" entry %zu is not a string", i);
            return -1;
        }
    if (json_integer_value(seed_v) < 0) {
        tu_errf(err, errlen, "the record's \"seed\" is %lld, not a non-negative integer",
                (long long)json_integer_value(seed_v));
        return -1;
    }
    json_int_t first = json_integer_value(first_v);
    if (first < 0 || first >= players) {
        tu_errf(err, errlen, "the record's \"first_player\" is %lld, not 0 to %lld",
                (long long)first, (long long)players - 1);
        return -1;
    }
    const towerup_board_t *board = towerup_board_get(json_string_value(board_v), err, errlen);
    if (!board)
        return -1;
    uint8_t objectives[TOWERUP_GAME_OBJECTIVES], deck[TOWERUP_CARD_COUNT];
    uint8_t start[TOWERUP_MAX_START_FLOORS];
    if (json_array_size(objs_v) != TOWERUP_GAME_OBJECTIVES) {
        tu_errf(err, errlen, "the record's objectives are not three ids");
        return -1;
    }
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++) {
        const char *id = json_string_value(json_array_get(objs_v, (size_t)i));
        int o = id ? towerup_objective_find(id) : -1;
        if (o < 0) {
            char shown[INPUT_EXCERPT_MAX], names[128];
            towerup_objective_names(names, sizeof names);
            tu_errf(err, errlen, "the record's \"objectives\" entry %d '%s' is not one of %s", i,
                    id ? input_escape(id, shown, sizeof shown) : "(not a string)", names);
            return -1;
        }
        objectives[i] = (uint8_t)o;
    }
    size_t ns = json_array_size(start_v);
    if (ns < 3 || ns > TOWERUP_MAX_START_FLOORS) {
        tu_errf(err, errlen, "the record lists %zu starting floors (3 to 7 allowed)", ns);
        return -1;
    }
    for (size_t i = 0; i < ns; i++) {
        const char *t = json_string_value(json_array_get(start_v, i));
        int c = t && t[0] && !t[1] ? towerup_colour_from_letter(t[0], true) : -1;
        if (c < 0) {
            tu_errf(err, errlen, "starting floor %zu is not one of K G W B *", i);
            return -1;
        }
        start[i] = (uint8_t)c;
    }
    if (json_array_size(deck_v) != TOWERUP_CARD_COUNT) {
        tu_errf(err, errlen, "the record's deck has %zu cards, not 44", json_array_size(deck_v));
        return -1;
    }
    if (codes_to_cards(deck_v, (1ULL << TOWERUP_CARD_COUNT) - 1, deck, "the deck", err, errlen) < 0)
        return -1;
    return towerup_new_from(s, board, (int)players, (int)first, objectives, deck, start, (int)ns,
                            (uint64_t)json_integer_value(seed_v), err, errlen);
}

/* After a reshuffle: the record's list becomes the draw pile (one card already drawn). */
static int apply_reshuffle(towerup_state_t *s, int slot, const json_t *list, char *err,
                           size_t errlen)
{
    if (!json_is_array(list) || json_array_size(list) != s->draw_end) {
        tu_errf(err, errlen, "the record's reshuffle has %zu cards, the discard pile %d",
                json_is_array(list) ? json_array_size(list) : 0, s->draw_end);
        return -1;
    }
    uint64_t pile = 0;
    for (int i = 0; i < s->draw_end; i++)
        pile |= 1ULL << s->draw[i];
    if (codes_to_cards(list, pile, s->draw, "the reshuffle", err, errlen) < 0)
        return -1;
    s->market[slot] = s->draw[0];
    towerup_fix_derived(s);
    return 0;
}

/* The record's game after its first ply moves (-1: all) into *out; the move count, or -1
   with err filled. */
static int replay_moves(const json_t *rec, int ply, towerup_state_t *out, char *err, size_t errlen)
{
    char why[GAME_ERR_MAX];
    towerup_state_t s;
    if (!json_is_object(rec)) {
        tu_errf(err, errlen, "the record is not a JSON object");
        return -1;
    }
    if (replay_setup(rec, &s, err, errlen) < 0)
        return -1;
    const json_t *moves, *resh, *result;
    if (!(resh = get_key(rec, "reshuffles", JSON_ARRAY, err, errlen)) ||
        !(moves = get_key(rec, "moves", JSON_ARRAY, err, errlen)) ||
        !(result = get_key(rec, "result", JSON_OBJECT, err, errlen)))
        return -1;
    const json_t *counts = json_object_get(rec, "legal_counts");
    if (counts && (!json_is_array(counts) || json_array_size(counts) != json_array_size(moves))) {
        tu_errf(err, errlen, "the record's legal_counts is not a list as long as its moves");
        return -1;
    }
    int move_count = (int)json_array_size(moves);
    if (ply > move_count) {
        tu_errf(err, errlen, "ply %d is beyond the game's %d moves", ply, move_count);
        return -1;
    }
    size_t used = 0, i;
    const json_t *mv;
    move_t buf[GAME_MAX_MOVES];
    towerup_undo_t u;
    char text[INPUT_EXCERPT_MAX];
    json_array_foreach(moves, i, mv)
    {
        if (ply >= 0 && i == (size_t)ply)
            break;
        if (!json_is_string(mv)) {
            tu_errf(err, errlen, "move %zu is not a string", i);
            return -1;
        }
        input_escape(json_string_value(mv), text, sizeof text);
        if (towerup_is_over(&s)) {
            if (i == 0)
                tu_errf(err, errlen, "move 0 (%s): the game is over before any move", text);
            else
                tu_errf(err, errlen,
                        "move %zu (%s): the game ended with move %zu, the record goes on", i, text,
                        i - 1);
            return -1;
        }
        if (counts) {
            const json_t *c = json_array_get(counts, i);
            int n = towerup_gen_moves(&s, buf);
            if (!json_is_integer(c) || json_integer_value(c) != n) {
                tu_errf(err, errlen,
                        "move %zu (%s): legal_counts says %lld legal moves, the engine finds %d", i,
                        text, json_is_integer(c) ? (long long)json_integer_value(c) : -1LL, n);
                return -1;
            }
        }
        move_t m;
        if (towerup_move_from_text(&s, json_string_value(mv), &m, why, sizeof why) < 0) {
            tu_errf(err, errlen, "move %zu (%s): %s", i, text, why);
            return -1;
        }
        int before = s.reshuffles;
        towerup_make(&s, m, &u);
        if (s.reshuffles != before) {
            if (used >= json_array_size(resh)) {
                tu_errf(
                    err, errlen,
                    "move %zu (%s): the draw pile must be refilled but the record has no reshuffle left",
                    i, text);
                return -1;
            }
            if (apply_reshuffle(&s, towerup_move_slot(m), json_array_get(resh, used++), why,
                                sizeof why) < 0) {
                tu_errf(err, errlen, "move %zu (%s): %s", i, text, why);
                return -1;
            }
        }
    }
    if (ply < 0 && used != json_array_size(resh)) {
        tu_errf(err, errlen, "the record lists %zu reshuffles but the game made %zu",
                json_array_size(resh), used);
        return -1;
    }
    *out = s;
    return move_count;
}

int towerup_record_position(const json_t *rec, int ply, void *state, char *err, size_t errlen)
{
    return replay_moves(rec, ply, state, err, errlen);
}

int towerup_record_replay(const json_t *rec, char *err, size_t errlen)
{
    towerup_state_t s;
    int move_count = replay_moves(rec, -1, &s, err, errlen);
    if (move_count < 0)
        return -1;
    if (forfeit_record_has(rec))
        return forfeit_record_check(rec, s.players, move_count, towerup_is_over(&s), err, errlen);
    if (!towerup_is_over(&s)) {
        if (move_count == 0)
            tu_errf(err, errlen, "the record has no moves but a game needs some");
        else
            tu_errf(err, errlen, "the record's moves end with move %d, before the game is over",
                    move_count - 1);
        return -1;
    }
    return compare_result(&s, json_object_get(rec, "result"), err, errlen);
}
