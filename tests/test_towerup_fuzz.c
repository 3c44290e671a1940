/*
 * Tower Up random-game fuzz: make/undo restores the exact bytes and key, the incremental
 * key equals the key from scratch, towerup_check passes after every make and undo, move
 * texts are distinct and round-trip, and every game's record replays.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "core/towerup/towerup.h"
#include "tests/test.h"

#define MAX_GAME_MOVES 1024

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

/* Checks every move of one position; full: make/undo each move, else a sample. */
static void check_position(towerup_state_t *s, bool full, pcg32_t *rng)
{
    static move_t moves[GAME_MAX_MOVES];
    static char texts[GAME_MAX_MOVES][GAME_MOVE_TEXT_MAX];
    char err[GAME_ERR_MAX];
    int n = towerup_gen_moves(s, moves);
    CHECK_MSG(n > 0, "no moves in a running game");
    towerup_state_t before = *s;
    towerup_undo_t u;
    for (int i = 0; i < n; i++) {
        move_t back;
        towerup_move_to_text(s, moves[i], texts[i]);
        /* A sample of the moves (all of them in the first games): text round trip (each
           parse generates the moves again), make, check, undo. */
        if (!full && pcg32_bounded(rng, 8))
            continue;
        int rc = towerup_move_from_text(s, texts[i], &back, err, sizeof err);
        CHECK_MSG(rc == 0 && back == moves[i], "%s does not round-trip: %s", texts[i],
                  rc ? err : "other move");
        towerup_make(s, moves[i], &u);
        if (towerup_check(s, err, sizeof err) < 0)
            CHECK_MSG(0, "after make %s: %s", texts[i], err);
        CHECK_MSG(s->key == towerup_hash_full(s), "key after %s", texts[i]);
        towerup_undo(s, moves[i], &u);
        CHECK_MSG(!memcmp(s, &before, sizeof before), "undo %s changed the state", texts[i]);
        if (towerup_check(s, err, sizeof err) < 0)
            CHECK_MSG(0, "after undo %s: %s", texts[i], err);
    }
    qsort(texts, (size_t)n, GAME_MOVE_TEXT_MAX, cmp_text);
    for (int i = 1; i < n; i++)
        CHECK_MSG(strcmp(texts[i - 1], texts[i]), "move %s listed twice", texts[i]);
}

/* Plays one random game with checks; returns its number of turns. */
static int fuzz_game(const game_options_t *opt, pcg32_t *rng, bool full)
{
    static move_t moves[GAME_MAX_MOVES], played[MAX_GAME_MOVES];
    static int counts[MAX_GAME_MOVES];
    char err[GAME_ERR_MAX];
    towerup_state_t s, initial;
    if (towerup_new_game(&s, opt, err, sizeof err) < 0) {
        CHECK_MSG(0, "new game: %s", err);
        return 0;
    }
    CHECK_MSG(towerup_check(&s, err, sizeof err) == 0, "new game: %s", err);
    initial = s;
    int k = 0;
    towerup_undo_t u;
    while (!towerup_is_over(&s) && k < MAX_GAME_MOVES) {
        check_position(&s, full, rng);
        int n = towerup_gen_moves(&s, moves);
        counts[k] = n;
        /* The playout's sampler picks the same move without listing them. */
        pcg32_t twin = *rng;
        move_t sampled = towerup_random_move(&s, &twin);
        played[k] = moves[pcg32_bounded(rng, (uint32_t)n)];
        CHECK_MSG(sampled == played[k] && twin.state == rng->state,
                  "towerup_random_move differs from the listed move");
        towerup_make(&s, played[k++], &u);
        if (towerup_check(&s, err, sizeof err) < 0)
            CHECK_MSG(0, "after move %d: %s", k - 1, err);
    }
    CHECK(towerup_is_over(&s));
    CHECK_EQ_INT(towerup_gen_moves(&s, moves), 0);
    for (int p = 0; p < s.players; p++)
        CHECK(s.cone[p] >= 0 && s.cone[p] <= TOWERUP_CONE_MAX);
    json_t *rec = record_new(&towerup_api, &initial, opt, played, k, counts, NULL);
    CHECK_MSG(rec != NULL, "record_new failed");
    if (rec) {
        /* Through text, as a file would carry it. */
        char *text = json_dumps(rec, JSON_COMPACT);
        json_t *back = json_loads(text, 0, NULL);
        int rc = record_replay(&towerup_api, back, err, sizeof err);
        CHECK_MSG(rc == 0, "replay (seed %llu): %s", (unsigned long long)opt->seed, err);
        free(text);
        json_decref(back);
        json_decref(rec);
    }
    return s.turns;
}

/* check must catch a corrupted derived field, and the key must see each primary field. */
static void check_catches_corruption(void)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = 3;
    opt.seed = 5;
    test_option(&opt, "setup=random");
    towerup_state_t s, t;
    char err[GAME_ERR_MAX];
    CHECK(towerup_new_game(&s, &opt, err, sizeof err) == 0);
    pcg32_t rng;
    pcg32_seed(&rng, 1, 1);
    move_t moves[GAME_MAX_MOVES];
    towerup_undo_t u;
    for (int i = 0; i < 12; i++) {
        int n = towerup_gen_moves(&s, moves);
        towerup_make(&s, moves[pcg32_bounded(&rng, (uint32_t)n)], &u);
    }
    CHECK(towerup_check(&s, err, sizeof err) == 0);
    int site = __builtin_ctzll(s.occupied);
#define CORRUPT(stmt)                                                                              \
    do {                                                                                           \
        t = s;                                                                                     \
        stmt;                                                                                      \
        CHECK_MSG(towerup_check(&t, err, sizeof err) < 0, "not caught: %s", #stmt);                \
    } while (0)
    CORRUPT(t.occupied ^= 1ULL << 50);
    CORRUPT(t.frontier = 0);
    CORRUPT(t.colour_mask[0] ^= t.colour_mask[1]);
    CORRUPT(t.present[1] ^= 1);
    CORRUPT(t.visible[0] = ~0ULL);
    CORRUPT(t.reserve[2]++);
    CORRUPT(t.roofs_left[1]--);
    CORRUPT(t.discard ^= 1);
    CORRUPT(t.market[0] = t.market[1]);
    CORRUPT(t.key ^= 1);
    CORRUPT(t.site[site]++);
    CORRUPT(t.supply[0][0] = 11);
    CORRUPT(t.markers[1][2] = 16);
    CORRUPT(t.chip_count[0] = 2);
    /* Primary fields that only the key sees. */
    CORRUPT(t.supply[1][3] ^= 1);
    CORRUPT(t.markers[2][1] ^= 1);
    CORRUPT(t.to_move = (uint8_t)((t.to_move + 1) % 3));
    CORRUPT(t.turns++);
    CORRUPT(uint8_t c = t.draw[t.draw_pos]; t.draw[t.draw_pos] = t.draw[t.draw_pos + 1];
            t.draw[t.draw_pos + 1] = c);
    CORRUPT(t.rng.state++);
#undef CORRUPT
}

int main(void)
{
    check_catches_corruption();
    pcg32_t rng;
    pcg32_seed(&rng, 2024, 7);
    game_options_t opt;
    long turns = 0;
    int games = 0;
    static const char *const objs[] = {NULL, "random", "lake,connected,borders",
                                       "doubles,heights,grey", "brown,colors,areas"};
    /* Release builds afford more games; debug and sanitizer builds check inside make. */
#ifdef NDEBUG
    const int game_count = 4000;
#else
    const int game_count = 900;
#endif
    for (int i = 0; i < game_count; i++) {
        game_options_default(&opt);
        opt.players = 2 + i % 3;
        opt.seed = 1000 + (uint64_t)i;
        if ((i / 3) % 2)
            test_option(&opt, "setup=random");
        if (objs[(i / 6) % 5])
            test_option(&opt, "objectives=%s", objs[(i / 6) % 5]);
        if (i % 7 == 3)
            test_option(&opt, "start_floors=5");
        if (i % 7 == 5 && opt.players < 4)
            test_option(&opt, "start_floors=7");
        if (i % 11 == 4)
            opt.first_player = i % opt.players;
        turns += fuzz_game(&opt, &rng, i < 30);
        games++;
    }
    printf("%d games, %ld turns\n", games, turns);
    return test_finish("test_towerup_fuzz");
}
