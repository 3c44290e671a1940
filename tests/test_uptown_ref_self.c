/* Self-tests of the slow Uptown reference (ref/uptown_ref.c): hand-drawn boards,
   hand-checked captures, and random games for 2-5 players checked for conservation,
   length, unsplit groups and consistent ranks. */
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "ref/uptown_ref.h"
#include "tests/test.h"

static const char *const TILE_NAMES[28] = {
    "1", "2", "3", "4", "5",  "6",  "7",  "8",  "9",  "A",  "B",  "C",  "D",  "E",
    "F", "G", "H", "I", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "$"};

/* Whether text is in the list of n moves. */
static int list_has(char (*list)[32], int n, const char *text)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], text) == 0)
            return 1;
    return 0;
}

/* A pile beginning with the given tiles, then the others in TILE_NAMES order. */
static void pile_fill(const char *pile[28], const char *const *first, int k)
{
    int n = 0;
    for (int i = 0; i < k; i++)
        pile[n++] = first[i];
    for (int t = 0; t < 28; t++) {
        int used = 0;
        for (int i = 0; i < k; i++)
            used |= strcmp(first[i], TILE_NAMES[t]) == 0;
        if (!used)
            pile[n++] = TILE_NAMES[t];
    }
}

/* Groups of a colour on hand-drawn boards. */
static void test_count_groups(void)
{
    static const char *const empty[9] = {".........", ".........", ".........",
                                         ".........", ".........", ".........",
                                         ".........", ".........", "........."};
    static const char *const shapes[9] = {"0.0.00000",  /* A: a lone tile, a bar */
                                          ".0.....0.",  /* B: diagonals are apart */
                                          "0..11..0.",  /* C */
                                          "0..1...00",  /* D: the bar's tail */
                                          "00011....",  /* E: an L joining C1-E3 */
                                          ".....0000",  /* F */
                                          "0...0...0",  /* G: a U through F, G */
                                          "0.1.00000",  /* H */
                                          "000.....2"}; /* I */
    static const char *const full[9] = {"000000000", "000000000", "000000000",
                                        "000000000", "000000000", "000000000",
                                        "000000000", "000000000", "000000000"};
    static const char *const checker[9] = {"010101010", "101010101", "010101010",
                                           "101010101", "010101010", "101010101",
                                           "010101010", "101010101", "010101010"};
    static const char *const ring[9] = {"333333333", "3.......3", "3.44444.3",
                                        "3.4...4.3", "3.4.4.4.3", "3.4...4.3",
                                        "3.44444.3", "3.......3", "333333333"};
    CHECK_EQ_INT(ut_ref_count_groups(empty, '0'), 0);
    /* '0': A1; A3; B2; A5-A9 with B8-D8-D9; C1-D1-E1-E3; G1-I1-I3 (F1 is empty);
       F6-F9 with G9, H5-H9 and G5. */
    CHECK_EQ_INT(ut_ref_count_groups(shapes, '0'), 7);
    /* '1': C4-C5-D4-E4-E5, and H3 alone. */
    CHECK_EQ_INT(ut_ref_count_groups(shapes, '1'), 2);
    CHECK_EQ_INT(ut_ref_count_groups(shapes, '2'), 1);
    CHECK_EQ_INT(ut_ref_count_groups(shapes, '3'), 0);
    CHECK_EQ_INT(ut_ref_count_groups(full, '0'), 1);
    CHECK_EQ_INT(ut_ref_count_groups(full, '1'), 0);
    CHECK_EQ_INT(ut_ref_count_groups(checker, '0'), 41);
    CHECK_EQ_INT(ut_ref_count_groups(checker, '1'), 40);
    CHECK_EQ_INT(ut_ref_count_groups(ring, '3'), 1);
    CHECK_EQ_INT(ut_ref_count_groups(ring, '4'), 2);
}

/* Plays a move that must be legal, with a message naming it. */
static void play_ok(ut_ref_t *g, const char *move)
{
    CHECK_MSG(ut_ref_play(g, move) == 0, "move %s refused", move);
    CHECK(ut_ref_check(g) == 0);
}

/* 3 players: a singleton is captured; the middle of a line of three is refused. */
static void test_captures_3p(void)
{
    static const char *const r0[] = {"1", "5", "2", "3", "4"};
    static const char *const r1[] = {"E", "F", "G", "6", "7"};
    static const char *const r2[] = {"A", "B", "C", "8", "9"};
    const char *piles[3][28];
    char moves[UT_REF_MAX_MOVES][32];
    pile_fill(piles[0], r0, 5);
    pile_fill(piles[1], r1, 5);
    pile_fill(piles[2], r2, 5);
    ut_ref_t *g = ut_ref_new(3, 0, piles);
    CHECK(g != NULL);
    if (!g)
        return;
    static const char *const opening[] = {"1@A1", "E@E5", "9@I9", "2@I2",
                                          "F@F5", "8@H8", "3@I3", "G@G5"};
    for (int i = 0; i < 8; i++) {
        CHECK_EQ_INT(ut_ref_to_move(g), i % 3);
        play_ok(g, opening[i]);
    }
    /* Player 2 may take the lone colour-0 tile on A1, only as a capture. */
    int n = ut_ref_moves(g, moves, UT_REF_MAX_MOVES);
    CHECK(list_has(moves, n, "A@A1x"));
    CHECK(!list_has(moves, n, "A@A1"));
    CHECK(list_has(moves, n, "A@A2"));
    CHECK(!list_has(moves, n, "9@I9x")); /* already played; own tiles are never captured */
    CHECK(!list_has(moves, n, "8@H8x"));
    play_ok(g, "A@A1x");
    int groups[3], captures[3], ranks[3], turns;
    ut_ref_result(g, groups, captures, ranks, &turns);
    CHECK_EQ_INT(captures[2], 1);
    CHECK_EQ_INT(captures[0], 0);
    CHECK_EQ_INT(groups[0], 1); /* I2-I3 */
    CHECK_EQ_INT(groups[1], 1); /* E5-F5-G5 */
    CHECK_EQ_INT(groups[2], 3); /* A1, H8, I9 */
    CHECK_EQ_INT(turns, 9);
    /* Player 0 holds the 5: F5 would split E5 from G5, the ends are fine. */
    n = ut_ref_moves(g, moves, UT_REF_MAX_MOVES);
    CHECK(!list_has(moves, n, "5@F5x"));
    CHECK(!list_has(moves, n, "5@F5"));
    CHECK(list_has(moves, n, "5@E5x"));
    CHECK(list_has(moves, n, "5@G5x"));
    CHECK(list_has(moves, n, "5@H5"));
    CHECK(!list_has(moves, n, "5@I5x"));
    CHECK_EQ_INT(ut_ref_play(g, "5@F5x"), -1);
    CHECK_EQ_INT(ut_ref_play(g, "5@F5"), -1);
    CHECK_EQ_INT(ut_ref_play(g, "0:5@H5"), -1); /* no prefix with 3 players */
    CHECK_EQ_INT(ut_ref_play(g, "5@H5 "), -1);
    CHECK_EQ_INT(ut_ref_play(g, "1@A1"), -1); /* tile not in the rack */
    CHECK_EQ_INT(ut_ref_to_move(g), 0);
    char again[UT_REF_MAX_MOVES][32];
    CHECK_EQ_INT(ut_ref_moves(g, again, UT_REF_MAX_MOVES), n);
    for (int k = 0; k < n; k++)
        CHECK(strcmp(again[k], moves[k]) == 0);
    play_ok(g, "5@E5x");
    ut_ref_result(g, groups, captures, ranks, &turns);
    CHECK_EQ_INT(captures[0], 1);
    CHECK_EQ_INT(groups[1], 1); /* F5-G5 still one */
    CHECK_EQ_INT(groups[0], 2); /* I2-I3, E5 */
    /* Ranks: 0 has 2 groups, 1 has 1, 2 has 3. */
    CHECK_EQ_INT(ranks[1], 1);
    CHECK_EQ_INT(ranks[0], 2);
    CHECK_EQ_INT(ranks[2], 3);
    ut_ref_free(g);
}

/* 2 players: prefixes, and neither of a player's two colours is ever captured by them. */
static void test_captures_2p(void)
{
    static const char *const r0[] = {"1"};
    static const char *const r1[] = {"2"};
    static const char *const r2[] = {"s1"};
    static const char *const r3[] = {"$"};
    const char *piles[4][28];
    char moves[UT_REF_MAX_MOVES][32];
    pile_fill(piles[0], r0, 1);
    pile_fill(piles[1], r1, 1);
    pile_fill(piles[2], r2, 1);
    pile_fill(piles[3], r3, 1);
    ut_ref_t *g = ut_ref_new(2, 0, piles);
    CHECK(g != NULL);
    if (!g)
        return;
    play_ok(g, "0:1@A1"); /* colour 0 */
    play_ok(g, "0:2@A2"); /* player 1's first colour: colour 1 */
    int n = ut_ref_moves(g, moves, UT_REF_MAX_MOVES);
    CHECK(!list_has(moves, n, "1:s1@A1x")); /* own colour 0 */
    CHECK(list_has(moves, n, "1:s1@A2x"));  /* colour 1, a singleton */
    CHECK(list_has(moves, n, "1:s1@B2"));
    CHECK(!list_has(moves, n, "0:s1@B2")); /* colour 0 holds no s1 */
    play_ok(g, "1:s1@B2");                 /* colour 2 */
    n = ut_ref_moves(g, moves, UT_REF_MAX_MOVES);
    CHECK(list_has(moves, n, "1:$@A1x"));  /* colour 3 takes colour 0 */
    CHECK(list_has(moves, n, "1:$@B2x"));  /* and colour 2 */
    CHECK(!list_has(moves, n, "1:$@A2x")); /* never its own colour 1 */
    CHECK(!list_has(moves, n, "0:$@A3"));
    play_ok(g, "1:$@B2x");
    int captures[2], turns;
    ut_ref_result(g, NULL, captures, NULL, &turns);
    CHECK_EQ_INT(captures[1], 1);
    CHECK_EQ_INT(captures[0], 0);
    CHECK_EQ_INT(turns, 4);
    ut_ref_free(g);
}

/* 2 players, built so that player 0 gets stuck: colour 0 fills 16 cells of columns 1-3
   and retires, colour 2 fills the other 11, and colour 2's rack is left holding 1, 2, 3,
   s1 and s4, which fit only in columns 1-3. Player 1 keeps to rows C-I, columns 4-9. */
static void test_stuck_2p(void)
{
    static const char *const c0[] = {"1", "2", "s1", "3", "s4", "$", "s7", "A",
                                     "B", "C", "D",  "E", "F",  "G", "H",  "I",
                                     "4", "5", "6",  "7", "8",  "9", "s2", "s3"};
    static const char *const c2[] = {"s7", "$", "A", "B", "C", "D", "E",  "F",
                                     "G",  "H", "I", "1", "2", "3", "s1", "s4"};
    /* Player 1's tiles, those that fit most cells of its zone first. */
    static const char *const c13[] = {"$", "s5", "s6", "s8", "s9", "4", "5", "6", "7",  "8",
                                      "9", "C",  "D",  "E",  "F",  "G", "H", "I", "s2", "s3"};
    static const char *const script[35] = {
        "0:1@A1", "0:2@B2",  "0:s1@C3", "0:3@D3",  "0:s4@E1", "0:$@F2", "0:s7@G1",
        "0:A@A2", "0:B@B1",  "0:C@C1",  "0:D@D1",  "0:E@E2",  "0:F@F1", "0:G@G2",
        "0:H@H1", "0:I@I1",  "0:4@A4",  "0:5@A5",  "0:6@A6",  "0:7@A7", "0:8@A8",
        "0:9@A9", "0:s2@B4", "0:s3@B7", "1:s7@H2", "1:$@I3",  "1:A@A3", "1:B@B3",
        "1:C@C2", "1:D@D2",  "1:E@E3",  "1:F@F3",  "1:G@G3",  "1:H@H3", "1:I@I2"};
    const char *piles[4][28];
    char moves[UT_REF_MAX_MOVES][32];
    pile_fill(piles[0], c0, 24);
    pile_fill(piles[1], c13, 20);
    pile_fill(piles[2], c2, 16);
    pile_fill(piles[3], c13, 20);
    ut_ref_t *g = ut_ref_new(2, 0, piles);
    CHECK(g != NULL);
    if (!g)
        return;
    for (int i = 0; i < 35; i++) {
        if (i == 24) {
            /* Colour 0 played its 24th tile on an empty pile: retired. */
            int n = ut_ref_moves(g, moves, UT_REF_MAX_MOVES);
            CHECK(n > 0);
            for (int k = 0; k < n; k++)
                CHECK_MSG(strncmp(moves[k], "1:", 2) == 0, "retired colour moves: %s", moves[k]);
        }
        play_ok(g, script[i]);
        int n = ut_ref_moves(g, moves, UT_REF_MAX_MOVES);
        /* Player 1 alternates its colours and fills its zone from the bottom (the last
           fitting move listed), so that neither colour runs out of tiles that fit. */
        int pick = -1;
        for (int pass = 0; pass < 2 && pick < 0; pass++) {
            char prefix = (char)('0' + ((i + pass) % 2));
            for (int k = n - 1; k >= 0 && pick < 0; k--) {
                const char *at = strchr(moves[k], '@');
                if (moves[k][0] == prefix && at && at[1] >= 'C' && at[2] >= '4' && at[3] == 0)
                    pick = k;
            }
        }
        CHECK_MSG(pick >= 0, "player 1 found no move at turn %d", 2 * i + 1);
        if (pick < 0)
            break;
        play_ok(g, moves[pick]);
    }
    int n = ut_ref_moves(g, moves, UT_REF_MAX_MOVES);
    CHECK_EQ_INT(ut_ref_to_move(g), 0);
    CHECK_EQ_INT(n, 5);
    static const char *const discards[5] = {"1:-1", "1:-2", "1:-3", "1:-s1", "1:-s4"};
    for (int k = 0; k < 5; k++)
        CHECK_MSG(list_has(moves, n, discards[k]), "%s not listed", discards[k]);
    CHECK_EQ_INT(ut_ref_play(g, "0:-1"), -1);
    CHECK_EQ_INT(ut_ref_play(g, "-1"), -1);
    char before[9][10], after[9][10];
    ut_ref_board(g, before);
    play_ok(g, "1:-s1");
    ut_ref_board(g, after);
    CHECK(memcmp(before, after, sizeof before) == 0);
    int captures[2], turns;
    ut_ref_result(g, NULL, captures, NULL, &turns);
    CHECK_EQ_INT(captures[0], 0);
    CHECK_EQ_INT(captures[1], 0);
    CHECK_EQ_INT(turns, 71);
    CHECK_EQ_INT(ut_ref_to_move(g), 1);
    /* Player 1 moves; player 0 drew the 4 after the discard and is no longer stuck. */
    n = ut_ref_moves(g, moves, UT_REF_MAX_MOVES);
    int pick = -1; /* a placement on an empty cell of columns 4-9 */
    for (int k = 0; k < n; k++) {
        const char *at = strchr(moves[k], '@');
        if (at && at[2] >= '4' && at[3] == 0)
            pick = k;
    }
    CHECK(pick >= 0);
    if (pick >= 0)
        play_ok(g, moves[pick]);
    n = ut_ref_moves(g, moves, UT_REF_MAX_MOVES);
    CHECK(n > 0);
    for (int k = 0; k < n; k++)
        CHECK_MSG(strncmp(moves[k], "1:4@", 4) == 0, "unexpected move %s", moves[k]);
    ut_ref_free(g);
}

/* Bad input is refused. */
static void test_bad_input(void)
{
    const char *piles[5][28];
    for (int c = 0; c < 5; c++)
        pile_fill(piles[c], NULL, 0);
    CHECK(ut_ref_new(1, 0, piles) == NULL);
    CHECK(ut_ref_new(6, 0, piles) == NULL);
    CHECK(ut_ref_new(3, 3, piles) == NULL);
    CHECK(ut_ref_new(3, -1, piles) == NULL);
    piles[1][7] = "s0";
    CHECK(ut_ref_new(3, 0, piles) == NULL);
    piles[1][7] = "9";
    CHECK(ut_ref_new(3, 0, piles) == NULL); /* "9" twice */
    piles[1][7] = "8";
    ut_ref_t *g = ut_ref_new(5, 4, piles);
    CHECK(g != NULL);
    if (g) {
        /* A short buffer gets the first moves; the count is still the whole count. */
        char few[3][32], all[UT_REF_MAX_MOVES][32];
        int n = ut_ref_moves(g, all, UT_REF_MAX_MOVES);
        CHECK(n > 3);
        CHECK_EQ_INT(ut_ref_moves(g, few, 3), n);
        for (int k = 0; k < 3; k++)
            CHECK(strcmp(few[k], all[k]) == 0);
        CHECK_EQ_INT(ut_ref_moves(g, NULL, 0), n);
        CHECK_EQ_INT(ut_ref_to_move(g), 4);
        ut_ref_free(g);
    }
}

/* What the random games met, so the test can insist the rare cases were exercised. */
typedef struct game_stats {
    int games;       /* games played */
    int captures;    /* capture moves played */
    int stuck;       /* positions where only discards were legal */
    int split_cells; /* positions x cells whose capture would split a group */
    int moves_tried; /* listed moves played on a clone */
} game_stats_t;

/* Whether the player owns the colour (2 players: colours p and p+2). */
static int owns(int players, int player, int colour)
{
    return players == 2 ? colour == player || colour == player + 2 : colour == player;
}

static int text_compare(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Groups of one colour on an exported board. */
static int board_groups(char rows[9][10], int colour)
{
    const char *r[9];
    for (int i = 0; i < 9; i++)
        r[i] = rows[i];
    return ut_ref_count_groups(r, (char)('0' + colour));
}

/* Checks one position's move list: counts, uniqueness, discards only when stuck, and
   that no move targets a cell whose capture would split a group or that the player owns. */
static void check_move_list(char (*moves)[32], int n, char before[9][10], int players, int p,
                            game_stats_t *st)
{
    static char sorted[UT_REF_MAX_MOVES][32];
    memcpy(sorted, moves, (size_t)n * sizeof sorted[0]);
    qsort(sorted, (size_t)n, sizeof sorted[0], text_compare);
    for (int i = 1; i < n; i++)
        CHECK_MSG(strcmp(sorted[i - 1], sorted[i]) != 0, "move %s listed twice", sorted[i]);
    int discards = 0;
    for (int i = 0; i < n; i++)
        discards += strchr(moves[i], '-') != NULL;
    CHECK_MSG(discards == 0 || discards == n, "%d discards among %d moves", discards, n);
    if (discards)
        st->stuck++;
    /* Cells that may not be targeted: own tiles and tiles whose removal splits a group. */
    int banned[9][9];
    for (int r = 0; r < 9; r++) {
        for (int c = 0; c < 9; c++) {
            banned[r][c] = 0;
            if (before[r][c] == '.')
                continue;
            int colour = before[r][c] - '0';
            if (owns(players, p, colour)) {
                banned[r][c] = 1;
                continue;
            }
            int was = board_groups(before, colour);
            before[r][c] = '.';
            banned[r][c] = board_groups(before, colour) > was;
            before[r][c] = (char)('0' + colour);
            st->split_cells += banned[r][c];
        }
    }
    for (int i = 0; i < n; i++) {
        const char *at = strchr(moves[i], '@');
        if (!at)
            continue;
        int r = at[1] - 'A', c = at[2] - '1';
        CHECK_MSG(r >= 0 && r < 9 && c >= 0 && c < 9, "bad cell in %s", moves[i]);
        if (r < 0 || r >= 9 || c < 0 || c >= 9)
            continue;
        CHECK_MSG(!banned[r][c], "move %s targets a protected cell", moves[i]);
        int capture = at[3] == 'x';
        CHECK_MSG(capture == (before[r][c] != '.'), "capture mark wrong in %s", moves[i]);
    }
}

/* Checks what one played move changed on the board. */
static void check_board_change(const char *move, char before[9][10], char after[9][10], int players,
                               int p, int *captured)
{
    const char *at = strchr(move, '@');
    int changed = 0;
    *captured = 0;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            changed += before[r][c] != after[r][c];
    if (!at) {
        CHECK_MSG(changed == 0, "discard %s changed the board", move);
        return;
    }
    int r = at[1] - 'A', c = at[2] - '1';
    CHECK_EQ_INT(changed, 1);
    CHECK_MSG(after[r][c] != '.' && owns(players, p, after[r][c] - '0'),
              "move %s did not put the player's tile", move);
    /* A 2-player move names the colour: 0: is colour p, 1: colour p+2. */
    if (players == 2)
        CHECK_EQ_INT(after[r][c] - '0', p + 2 * (move[0] - '0'));
    if (at[3] == 'x') {
        int colour = before[r][c] - '0';
        *captured = 1;
        CHECK_MSG(before[r][c] != '.' && !owns(players, p, colour), "bad capture %s", move);
        /* The capturer's tile now stands there: for the captured colour it is removed. */
        CHECK_MSG(board_groups(after, colour) <= board_groups(before, colour),
                  "capture %s split a group", move);
    } else {
        CHECK_MSG(before[r][c] == '.', "placement %s on a full cell", move);
    }
}

/* Checks the result of a finished game against recounts from outside. */
static void check_result(const ut_ref_t *g, int players, const int *my_captures, int turns)
{
    int groups[5], captures[5], ranks[5], t;
    char rows[9][10];
    ut_ref_result(g, groups, captures, ranks, &t);
    ut_ref_board(g, rows);
    CHECK_EQ_INT(t, turns);
    int best = players;
    for (int p = 0; p < players; p++) {
        int mine = 0;
        for (int colour = 0; colour < (players == 2 ? 4 : players); colour++)
            if (owns(players, p, colour))
                mine += board_groups(rows, colour);
        CHECK_EQ_INT(groups[p], mine);
        CHECK_EQ_INT(captures[p], my_captures[p]);
        CHECK(ranks[p] >= 1 && ranks[p] <= players);
        best = ranks[p] < best ? ranks[p] : best;
        int better = 0;
        for (int q = 0; q < players; q++) {
            int q_better =
                groups[q] < groups[p] || (groups[q] == groups[p] && captures[q] < captures[p]);
            int same = groups[q] == groups[p] && captures[q] == captures[p];
            better += q_better;
            if (q_better)
                CHECK(ranks[q] < ranks[p]);
            if (same)
                CHECK_EQ_INT(ranks[q], ranks[p]);
        }
        CHECK_EQ_INT(ranks[p], 1 + better);
    }
    CHECK_EQ_INT(best, 1);
}

/* One random game: shuffled piles, moves picked at random (greedy for captures when
   asked), every rule the reference must keep checked after each move. */
static void run_random_game(int players, uint64_t seed, int try_all, int greedy, game_stats_t *st)
{
    pcg32_t rng;
    const char *piles[5][28];
    static char moves[UT_REF_MAX_MOVES][32];
    int colours = players == 2 ? 4 : players;
    pcg32_seed(&rng, seed, 0x75707477ULL + (uint64_t)players);
    for (int c = 0; c < colours; c++) {
        uint8_t order[28];
        for (int i = 0; i < 28; i++)
            order[i] = (uint8_t)i;
        pcg32_shuffle_u8(&rng, order, 28);
        for (int i = 0; i < 28; i++)
            piles[c][i] = TILE_NAMES[order[i]];
    }
    int first = (int)pcg32_bounded(&rng, (uint32_t)players);
    ut_ref_t *g = ut_ref_new(players, first, piles);
    CHECK(g != NULL);
    if (!g)
        return;
    int turn = 0, discards = 0, on_board = 0;
    int my_turns[5] = {0}, my_captures[5] = {0};
    char last[32] = "";
    for (;;) {
        int n = ut_ref_moves(g, moves, UT_REF_MAX_MOVES);
        CHECK(n >= 0);
        if (n <= 0)
            break;
        CHECK(!ut_ref_over(g));
        CHECK(ut_ref_check(g) == 0);
        if (turn == 0) {
            /* Empty board: each starting rack tile fits its 9 cells, the $ all 81. */
            int expect = 0;
            for (int c = 0; c < colours; c++)
                for (int i = 0; i < 5; i++)
                    if (owns(players, first, c))
                        expect += strcmp(piles[c][i], "$") == 0 ? 81 : 9;
            CHECK_EQ_INT(n, expect);
        }
        int p = ut_ref_to_move(g);
        CHECK_EQ_INT(p, (first + turn) % players);
        char before[9][10], after[9][10];
        ut_ref_board(g, before);
        check_move_list(moves, n, before, players, p, st);
        if (try_all) {
            for (int i = 0; i < n; i++) {
                ut_ref_t *copy = ut_ref_clone(g);
                CHECK_MSG(ut_ref_play(copy, moves[i]) == 0, "listed move %s refused", moves[i]);
                CHECK_EQ_INT(ut_ref_to_move(copy), (p + 1) % players);
                CHECK(ut_ref_check(copy) == 0);
                ut_ref_free(copy);
                st->moves_tried++;
            }
        }
        int pick = (int)pcg32_bounded(&rng, (uint32_t)n);
        if (greedy && pcg32_bounded(&rng, 2) == 0)
            for (int i = 0; i < n; i++)
                if (strchr(moves[i], 'x'))
                    pick = i;
        CHECK_MSG(ut_ref_play(g, moves[pick]) == 0, "listed move %s refused", moves[pick]);
        ut_ref_board(g, after);
        int captured;
        check_board_change(moves[pick], before, after, players, p, &captured);
        my_captures[p] += captured;
        st->captures += captured;
        discards += strchr(moves[pick], '@') == NULL;
        on_board += strchr(moves[pick], '@') != NULL && !captured;
        strcpy(last, moves[pick]);
        my_turns[p]++;
        turn++;
        CHECK(turn <= 96 + 24 * 5);
        if (turn > 96 + 24 * 5)
            break;
    }
    CHECK(ut_ref_over(g));
    CHECK(ut_ref_check(g) == 0);
    CHECK_EQ_INT(turn, players == 2 ? 96 : 24 * players);
    for (int p = 0; p < players; p++)
        CHECK_EQ_INT(my_turns[p], players == 2 ? 48 : 24);
    /* Tiles on the board: one per placement that was not a capture. */
    char rows[9][10];
    int filled = 0;
    ut_ref_board(g, rows);
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            filled += rows[r][c] != '.';
    CHECK_EQ_INT(filled, on_board);
    /* Every turn put a tile on an empty cell, captured one, or discarded one. */
    int captured_total = 0;
    for (int p = 0; p < players; p++)
        captured_total += my_captures[p];
    CHECK_EQ_INT(on_board + captured_total + discards, turn);
    CHECK_EQ_INT(ut_ref_play(g, last), -1);
    check_result(g, players, my_captures, turn);
    st->games++;
    ut_ref_free(g);
}

int main(void)
{
    test_count_groups();
    test_captures_3p();
    test_captures_2p();
    test_stuck_2p();
    test_bad_input();
    game_stats_t st = {0};
    for (int players = 2; players <= 5; players++)
        for (int k = 0; k < 12; k++)
            run_random_game(players, 1000 + (uint64_t)k, k < 2, k % 2, &st);
    printf("random games %d, captures %d, stuck positions %d, split cells %d, moves tried %d\n",
           st.games, st.captures, st.stuck, st.split_cells, st.moves_tried);
    CHECK_EQ_INT(st.games, 48);
    CHECK(st.captures > 0);
    CHECK(st.split_cells > 0);
    return test_finish("test_uptown_ref_self");
}
