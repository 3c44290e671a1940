/*
 * Connect Four (core/connect4/): perft from the empty board to depth 8 (the published move
 * sequence counts), the shift-based win test against a scan of every line, random-game fuzz
 * (make/undo restores the exact bytes, the incremental key equals the key from scratch,
 * c4_check passes after every make and undo, move texts round-trip), the playout's final
 * states, records written by matches that replay and broken records that are refused with
 * the move named, the text diagram, and who starts (the first seat, whatever the seed,
 * unless first_player names the other).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "arena/match.h"
#include "core/connect4/connect4.h"
#include "core/record.h"
#include "tests/test.h"

/* Leaves of the move tree when a won position counts as a leaf wherever it is. */
static uint64_t walk(c4_state_t *s, int depth)
{
    if (depth == 0 || c4_is_over(s))
        return 1;
    move_t moves[C4_COLUMNS];
    c4_undo_t u;
    uint64_t total = 0;
    int n = c4_gen_moves(s, moves);
    for (int i = 0; i < n; i++) {
        c4_make(s, moves[i], &u);
        total += walk(s, depth - 1);
        c4_undo(s, moves[i], &u);
    }
    return total;
}

static void test_perft(void)
{
    static const uint64_t want[8] = {7, 49, 343, 2401, 16807, 117649, 823536, 5673234};
    const game_api_t *api = game_find("connect4");
    CHECK(api == &connect4_api);
    c4_state_t s, start;
    game_options_t opt;
    game_options_default(&opt);
    opt.players = 2;
    char err[GAME_ERR_MAX];
    CHECK(api->new_game(&s, &opt, err, sizeof err) == 0);
    start = s;
    for (int d = 1; d <= 8; d++)
        CHECK_MSG(game_perft(api, &s, d) == want[d - 1], "depth %d: %llu", d,
                  (unsigned long long)game_perft(api, &s, d));
    CHECK(game_perft_full(api, &s, 7) == want[6]);
    CHECK_EQ_INT(walk(&s, 8), 5686266);
    CHECK(!memcmp(&s, &start, sizeof s));
}

/* The first seat starts unless first_player says otherwise: the seed draws nothing. */
static void test_first_player(void)
{
    char err[GAME_ERR_MAX];
    game_options_t opt;
    game_options_default(&opt);
    opt.players = 2;
    for (uint64_t seed = 0; seed < 32; seed++) {
        c4_state_t s;
        opt.seed = seed;
        opt.first_player = -1;
        CHECK(connect4_api.new_game(&s, &opt, err, sizeof err) == 0);
        CHECK_MSG(s.first_player == 0 && connect4_api.to_move(&s) == 0, "seed %llu: seat %d starts",
                  (unsigned long long)seed, s.first_player);
        opt.first_player = 1;
        CHECK(connect4_api.new_game(&s, &opt, err, sizeof err) == 0);
        CHECK(s.first_player == 1 && connect4_api.to_move(&s) == 1);
    }
}

/* Four in a line by scanning every line of four cells. */
static bool naive_four(uint64_t p)
{
    static const int dir[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (int c = 0; c < C4_COLUMNS; c++)
        for (int r = 0; r < C4_ROWS; r++)
            for (int d = 0; d < 4; d++) {
                int k = 0;
                for (; k < 4; k++) {
                    int cc = c + k * dir[d][0], rr = r + k * dir[d][1];
                    if (cc < 0 || cc >= C4_COLUMNS || rr < 0 || rr >= C4_ROWS ||
                        !(p >> (7 * cc + rr) & 1))
                        break;
                }
                if (k == 4)
                    return true;
            }
    return false;
}

static void test_four(void)
{
    pcg32_t rng;
    pcg32_seed(&rng, 4, 4);
    int fours = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t p = ((uint64_t)pcg32_next(&rng) << 32 | pcg32_next(&rng)) & C4_BOARD;
        p &= (uint64_t)pcg32_next(&rng) << 32 | pcg32_next(&rng); /* sparser boards too */
        if (i & 1)
            p |= (uint64_t)pcg32_next(&rng) << 20 & C4_BOARD;
        bool want = naive_four(p);
        fours += want;
        CHECK_MSG(c4_has_four(p) == want, "board %016llx", (unsigned long long)p);
    }
    CHECK(fours > 1000 && fours < 199000);
}

/* Every legal move of s made, checked and undone; texts round-trip. */
static void check_position(c4_state_t *s)
{
    move_t moves[C4_COLUMNS];
    char err[GAME_ERR_MAX], text[GAME_MOVE_TEXT_MAX];
    c4_state_t before = *s;
    c4_undo_t u;
    int n = c4_gen_moves(s, moves);
    CHECK(n > 0);
    for (int i = 0; i < n; i++) {
        move_t back;
        connect4_api.move_to_text(s, moves[i], text);
        CHECK_MSG(c4_move_from_text(s, text, &back, err, sizeof err) == 0 && back == moves[i],
                  "%s does not round-trip", text);
        c4_make(s, moves[i], &u);
        CHECK_MSG(c4_check(s, err, sizeof err) == 0, "after %s: %s", text, err);
        CHECK(s->hash == c4_hash_full(s));
        c4_undo(s, moves[i], &u);
        CHECK_MSG(!memcmp(s, &before, sizeof before), "undo %s changed the state", text);
    }
}

static void test_fuzz(void)
{
    pcg32_t rng;
    pcg32_seed(&rng, 44, 1);
    char err[GAME_ERR_MAX];
    int wins[3] = {0};
    for (int g = 0; g < 2000; g++) {
        c4_state_t s;
        c4_init(&s, g & 1);
        CHECK(c4_check(&s, err, sizeof err) == 0);
        move_t moves[C4_COLUMNS];
        c4_undo_t u;
        int n;
        while ((n = c4_gen_moves(&s, moves)) > 0) {
            check_position(&s);
            /* A playout from here ends in a consistent, finished position. */
            if (pcg32_bounded(&rng, 4) == 0) {
                c4_state_t t = s;
                pcg32_t r2 = rng;
                c4_playout(&t, &r2);
                CHECK(c4_is_over(&t));
                CHECK_MSG(c4_check(&t, err, sizeof err) == 0, "after a playout: %s", err);
                CHECK((t.stones[s.to_move] & s.mask) == s.stones[s.to_move]);
            }
            c4_make(&s, moves[pcg32_bounded(&rng, (uint32_t)n)], &u);
        }
        CHECK(c4_is_over(&s) && c4_check(&s, err, sizeof err) == 0);
        wins[s.winner + 1]++;
    }
    /* Random play: both sides win often, draws are rare but happen. */
    CHECK_MSG(wins[1] > 700 && wins[2] > 600 && wins[0] < 100, "draws %d, wins %d %d", wins[0],
              wins[1], wins[2]);
    /* Playouts alone: the same spread. */
    int pw[3] = {0};
    for (int g = 0; g < 20000; g++) {
        c4_state_t s;
        c4_init(&s, 0);
        pcg32_seed(&rng, 7, (uint64_t)g);
        c4_playout(&s, &rng);
        pw[s.winner + 1]++;
    }
    CHECK_MSG(pw[1] > 10000 && pw[2] > 7000 && pw[0] > 0 && pw[0] < 1000, "%d %d %d", pw[0], pw[1],
              pw[2]);
}

/* Plays texts from the empty board, first player 0; the state. */
static c4_state_t play_texts(const char *const *texts, int n)
{
    c4_state_t s;
    c4_init(&s, 0);
    c4_undo_t u;
    char err[GAME_ERR_MAX];
    for (int i = 0; i < n; i++) {
        move_t m;
        CHECK_MSG(c4_move_from_text(&s, texts[i], &m, err, sizeof err) == 0, "%s: %s", texts[i],
                  err);
        c4_make(&s, m, &u);
    }
    return s;
}

static void test_lines(void)
{
    const char *row[] = {"1", "1", "2", "2", "3", "3", "4"};
    c4_state_t s = play_texts(row, 7);
    CHECK(s.winner == 0 && c4_is_over(&s));
    const char *column[] = {"7", "1", "7", "1", "7", "1", "3", "1"};
    s = play_texts(column, 8);
    CHECK(s.winner == 1);
    const char *diagonal[] = {"1", "2", "2", "3", "3", "4", "3", "4", "4", "7", "4"};
    s = play_texts(diagonal, 11);
    CHECK(s.winner == 0);
    const char *none[] = {"1", "2", "3", "5", "6", "7", "4"};
    s = play_texts(none, 7);
    CHECK(s.winner == -1 && !c4_is_over(&s));
    char err[GAME_ERR_MAX], buf[GAME_TEXT_MAX];
    move_t m;
    CHECK(c4_move_from_text(&s, "8", &m, err, sizeof err) == -1 && strstr(err, "1 to 7"));
    /* One error style (core/input.h): the field first, then the bad input quoted. */
    CHECK_MSG(!strncmp(err, "move '8': ", 10), "%s", err);
    CHECK(c4_move_from_text(&s, "0", &m, err, sizeof err) == -1);
    CHECK(c4_move_from_text(&s, "44", &m, err, sizeof err) == -1);
    CHECK(c4_move_from_text(&s, "", &m, err, sizeof err) == -1);
    const char *full[] = {"5", "5", "5", "5", "5", "5"};
    s = play_texts(full, 6);
    CHECK(c4_move_from_text(&s, "5", &m, err, sizeof err) == -1 && strstr(err, "full"));
    CHECK_MSG(!strncmp(err, "move '5': ", 10), "%s", err);
    game_options_t opt;
    game_options_default(&opt);
    opt.players = 3;
    c4_state_t t;
    CHECK(connect4_api.new_game(&t, &opt, err, sizeof err) == -1);
    CHECK_MSG(!strcmp(err, "players '3': connect4 is played by 2 players"), "%s", err);
    opt.players = 2;
    opt.first_player = 2;
    CHECK(connect4_api.new_game(&t, &opt, err, sizeof err) == -1);
    CHECK_MSG(!strcmp(err, "first_player '2': connect4 has seats 0 and 1"), "%s", err);
    connect4_api.board_text(&s, buf, sizeof buf);
    CHECK_MSG(!strcmp(buf, "....O..\n....X..\n....O..\n....X..\n....O..\n....X..\n1234567\n"), "%s",
              buf);
    /* A full board without four in a line is a draw: both rank 1. */
    const char *draw[] = {"1", "2", "1", "2", "1", "2", "2", "1", "2", "1", "2", "1", "3", "4",
                          "3", "4", "3", "4", "4", "3", "4", "3", "4", "3", "5", "6", "5", "6",
                          "5", "6", "6", "5", "6", "5", "6", "5", "7", "7", "7", "7", "7", "7"};
    s = play_texts(draw, 42);
    CHECK(c4_is_over(&s) && s.winner == -1);
    int ranks[2];
    c4_ranks(&s, ranks);
    CHECK(ranks[0] == 1 && ranks[1] == 1);
}

/* Replays rec after edit(rec); 0 or -1 and err. */
static int replay_edited(const json_t *rec, const char *key, json_t *value, char *err)
{
    json_t *copy = json_deep_copy(rec);
    if (value)
        json_object_set_new(copy, key, value);
    else
        json_object_del(copy, key);
    int rc = record_replay(&connect4_api, copy, err, GAME_ERR_MAX);
    json_decref(copy);
    return rc;
}

static void test_records(void)
{
    const game_api_t *api = &connect4_api;
    char err[GAME_ERR_MAX];
    bot_t *bots[2];
    bots[0] = bot_new(api, "mcts:iters=200", 1, err, sizeof err);
    bots[1] = bot_new(api, "random", 2, err, sizeof err);
    CHECK(bots[0] && bots[1]);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        game_options_t opt;
        game_options_default(&opt);
        opt.players = 2;
        opt.seed = seed;
        match_result_t r;
        CHECK(match_play(api, &opt, bots, true, &r, err, sizeof err) == 0);
        CHECK_MSG(record_replay(api, r.record, err, sizeof err) == 0, "seed %llu: %s",
                  (unsigned long long)seed, err);
        json_t *moves = json_object_get(r.record, "moves");
        CHECK((int)json_array_size(moves) == r.moves);
        if (seed == 1) {
            json_object_del(r.record, "legal_counts"); /* optional: the record replays */
            CHECK(record_replay(api, r.record, err, sizeof err) == 0);
            json_t *bad = json_deep_copy(moves);
            json_array_set_new(bad, 0, json_string("9"));
            CHECK(replay_edited(r.record, "moves", bad, err) == -1 &&
                  !strncmp(err, "move 0: move '9'", 15));
            bad = json_deep_copy(moves);
            json_array_append_new(bad, json_string("1"));
            CHECK_MSG(replay_edited(r.record, "moves", bad, err) == -1 && strstr(err, "ended"),
                      "%s", err);
            bad = json_deep_copy(moves);
            json_array_remove(bad, json_array_size(bad) - 1);
            CHECK(replay_edited(r.record, "moves", bad, err) == -1 &&
                  strstr(err, "before the game is over"));
            CHECK(replay_edited(r.record, "result", NULL, err) == -1 && strstr(err, "result"));
            CHECK(replay_edited(
                      r.record, "result",
                      json_pack("{s:[ii],s:i}", "ranks", r.ranks[1], r.ranks[0], "turns", r.moves),
                      err) == -1 &&
                  strstr(err, "ranks"));
            CHECK(replay_edited(r.record, "players", json_integer(3), err) == -1);
            CHECK(replay_edited(r.record, "first_player", json_integer(2), err) == -1);
            CHECK(replay_edited(r.record, "game", json_string("uptown"), err) == -1);
            CHECK(replay_edited(r.record, "seats", json_pack("[s]", "random"), err) == -1);
            CHECK(replay_edited(r.record, "seats", NULL, err) == -1 && strstr(err, "seats"));
            CHECK(replay_edited(r.record, "seed", json_integer(-1), err) == -1 &&
                  strstr(err, "seed"));
            CHECK(replay_edited(r.record, "seed", NULL, err) == -1 && strstr(err, "seed"));
            CHECK(replay_edited(r.record, "format", NULL, err) == -1 && strstr(err, "format"));
            CHECK(replay_edited(r.record, "format", json_integer(2), err) == -1 &&
                  strstr(err, "format"));
            json_t *bin = json_deep_copy(moves);
            json_array_set_new(bin, 0, json_string("\x10\x01"));
            CHECK_MSG(replay_edited(r.record, "moves", bin, err) == -1 &&
                          strstr(err, "move 0: move '\\x10\\x01': ") == err,
                      "%s", err);
        }
        if (seed == 2) {
            json_t *lc = json_deep_copy(json_object_get(r.record, "legal_counts"));
            CHECK(json_array_size(lc) == json_array_size(moves));
            json_array_set_new(lc, 0, json_integer(6));
            CHECK(replay_edited(r.record, "legal_counts", lc, err) == -1 &&
                  strstr(err, "legal_counts"));
        }
        json_decref(r.record);
    }
    bot_free(bots[0]);
    bot_free(bots[1]);
}

int main(void)
{
    test_perft();
    test_first_player();
    test_four();
    test_fuzz();
    test_lines();
    test_records();
    return test_finish("test_connect4");
}
