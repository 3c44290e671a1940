/*
 * Random-game fuzz of the Uptown engine for 2 to 5 players (fixed seeds): make/undo restore
 * the exact bytes and hash, the incremental hash equals the full one, check passes, move
 * texts round-trip, records replay, and determinization keeps the observer's view.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "core/uptown/uptown.h"
#include "tests/test.h"

#define MAX_GAME_MOVES 128

static int cmp_move(const void *a, const void *b)
{
    move_t x = *(const move_t *)a, y = *(const move_t *)b;
    return x < y ? -1 : x > y;
}

/* Make and undo m on s: the exact bytes and hash come back, and check passes in between. */
static void check_make_undo(uptown_state_t *s, move_t m)
{
    uptown_state_t before = *s;
    uptown_undo_t u;
    char err[GAME_ERR_MAX];
    uptown_make(s, m, &u);
    CHECK_MSG(uptown_check(s, err, sizeof err) == 0, "after make: %s", err);
    CHECK(s->hash == uptown_hash_full(s));
    uptown_undo(s, m, &u);
    CHECK(memcmp(s, &before, sizeof before) == 0);
    CHECK(s->hash == before.hash);
}

/* Every move's text parses back to the same move; the list holds no duplicate. */
static void check_moves(const uptown_state_t *s, const move_t *moves, int n)
{
    move_t sorted[GAME_MAX_MOVES];
    if (n <= 0 || n > GAME_MAX_MOVES)
        return;
    memcpy(sorted, moves, sizeof(move_t) * (size_t)n);
    qsort(sorted, (size_t)n, sizeof(move_t), cmp_move);
    for (int i = 1; i < n; i++)
        CHECK(sorted[i] != sorted[i - 1]);
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX], err[GAME_ERR_MAX];
        move_t back = 0;
        uptown_move_to_text(s, moves[i], text);
        int rc = uptown_move_from_text(s, text, &back, err, sizeof err);
        CHECK_MSG(rc == 0 && back == moves[i], "move text %s: %s", text, rc ? err : "other");
    }
}

/* The capture test agrees with counting groups before and after removing the tile. */
static void check_can_remove(const uptown_state_t *s)
{
    for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++) {
        int c = uptown_cell_colour(s, cell);
        if (c < 0)
            continue;
        u128_t bb = s->colour_bb[c], rest = bb & ~UPTOWN_BIT(cell);
        bool singleton = uptown_flood(UPTOWN_BIT(cell), bb) == UPTOWN_BIT(cell);
        bool keeps = uptown_group_count(rest) == uptown_group_count(bb) - singleton;
        CHECK_MSG(uptown_can_remove(s, cell) == keeps, "cell %d", cell);
    }
}

/* Determinize for observer: the view is kept, the state stays consistent. */
static int check_determinize(const uptown_state_t *s, int observer, pcg32_t *rng)
{
    uptown_state_t d = *s;
    char err[GAME_ERR_MAX];
    uptown_determinize(&d, observer, rng);
    CHECK(uptown_observation_equal(s, &d, observer));
    CHECK_MSG(uptown_check(&d, err, sizeof err) == 0, "after determinize: %s", err);
    if (s->to_move == observer) {
        /* The observer's own moves depend only on what it sees. */
        move_t a[GAME_MAX_MOVES], b[GAME_MAX_MOVES];
        int na = uptown_gen_moves(s, a), nb = uptown_gen_moves(&d, b);
        CHECK(na == nb && memcmp(a, b, sizeof(move_t) * (size_t)na) == 0);
    }
    int changed = 0;
    for (int c = 0; c < s->colours; c++)
        if (d.rack[c] != s->rack[c])
            changed++;
    /* Another observer sees a difference whenever an opponent rack changed. */
    return changed;
}

static void check_record(const uptown_state_t *initial, const game_options_t *opt,
                         const move_t *moves, int n, const int *counts)
{
    char err[GAME_ERR_MAX];
    const char *seats[GAME_MAX_PLAYERS] = {"random", "random", "random", "random", "random"};
    json_t *rec = record_new(&uptown_api, initial, opt, moves, n, counts, seats);
    CHECK(rec != NULL);
    if (!rec)
        return;
    CHECK_MSG(record_replay(&uptown_api, rec, err, sizeof err) == 0, "replay: %s", err);
    char *text = json_dumps(rec, JSON_COMPACT);
    json_t *back = json_loads(text, 0, NULL);
    CHECK(back && record_replay(&uptown_api, back, err, sizeof err) == 0);
    /* Key order is the documented one. */
    static const char *const keys[] = {"game",         "format",       "players", "seats",
                                       "seed",         "first_player", "piles",   "moves",
                                       "legal_counts", "result"};
    const char *prev = text;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char quoted[32];
        snprintf(quoted, sizeof quoted, "\"%s\":", keys[i]);
        const char *at = strstr(text, quoted);
        if (!at && !strcmp(keys[i], "legal_counts") && !counts)
            continue;
        CHECK_MSG(at && at >= prev, "key %s out of order", keys[i]);
        if (at)
            prev = at;
    }
    /* A tampered move is refused with its index. */
    json_t *mv = json_object_get(back, "moves");
    json_array_set_new(mv, (size_t)(n / 2), json_string("Z@E5"));
    int rc = record_replay(&uptown_api, back, err, sizeof err);
    char want[32];
    snprintf(want, sizeof want, "move %d: ", n / 2);
    CHECK(rc != 0 && strstr(err, want) == err);
    json_decref(back);
    free(text);
    json_decref(rec);
}

static void fuzz_game(int players, uint64_t seed, int *hidden_changes)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = players;
    opt.seed = seed;
    uptown_state_t s, initial;
    char err[GAME_ERR_MAX];
    CHECK(uptown_new_game(&s, &opt, err, sizeof err) == 0);
    initial = s;
    CHECK_MSG(uptown_check(&s, err, sizeof err) == 0, "initial: %s", err);
    pcg32_t rng;
    pcg32_seed(&rng, seed, 99);
    move_t played[MAX_GAME_MOVES];
    int counts[MAX_GAME_MOVES];
    int n_played = 0;
    move_t moves[GAME_MAX_MOVES];
    for (;;) {
        int n = uptown_gen_moves(&s, moves);
        CHECK(n > 0 || uptown_is_terminal(&s));
        if (n == 0)
            break;
        if (n_played % 9 == 0) {
            check_moves(&s, moves, n);
            check_can_remove(&s);
        }
        pcg32_t r1 = rng, r2 = rng;
        CHECK(uptown_random_move(&s, &r1) == moves[pcg32_bounded(&r2, (uint32_t)n)]);
        for (int k = 0; k < 2; k++)
            check_make_undo(&s, moves[pcg32_bounded(&rng, (uint32_t)n)]);
        if (n_played % 6 == 0)
            *hidden_changes +=
                check_determinize(&s, (int)pcg32_bounded(&rng, (uint32_t)players), &rng);
        move_t m = moves[pcg32_bounded(&rng, (uint32_t)n)];
        counts[n_played] = n;
        played[n_played++] = m;
        uptown_undo_t u;
        uptown_make(&s, m, &u);
        CHECK(s.hash == uptown_hash_full(&s));
    }
    CHECK_MSG(uptown_check(&s, err, sizeof err) == 0, "final: %s", err);
    if (players == 2) {
        CHECK_EQ_INT(n_played, 96);
        CHECK_EQ_INT(s.retired, 0xF);
    } else {
        CHECK_EQ_INT(n_played, 24 * players);
    }
    for (int c = 0; c < s.colours; c++)
        CHECK_EQ_INT(bits_count64(s.rack[c]), 4);
    for (int p = 0; p < players; p++)
        CHECK_EQ_INT(s.turns[p], n_played / players);
    check_record(&initial, &opt, played, n_played, (seed & 1) ? counts : NULL);
}

int main(void)
{
    static const int games[6] = {0, 0, 400, 400, 300, 300};
    for (int players = 2; players <= 5; players++) {
        int hidden_changes = 0;
        for (int g = 0; g < games[players]; g++)
            fuzz_game(players, 1000u * (uint64_t)players + (uint64_t)g, &hidden_changes);
        CHECK_MSG(hidden_changes > 0, "determinize never changed a hidden rack (%d players)",
                  players);
    }
    return test_finish("test_uptown_fuzz");
}
