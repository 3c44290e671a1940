/*
 * Scenario tests of every Uptown rule (RULES.md Part 2, core/rules-notes.md), on positions
 * drawn by hand: 9 strings of 9 characters, '.' empty, '0'..'4' a tile of that colour.
 */
#include <string.h>

#include "core/uptown/uptown.h"
#include "tests/test.h"

/* A hand-made position. */
typedef struct setup {
    int players;                          /* number of players */
    int move_count;                       /* moves played (first player 0) */
    const char *rows[9];                  /* the board, row A first */
    const char *racks[UPTOWN_COLOUR_MAX]; /* each colour's rack, tile names separated by
                                             blanks; NULL: five tiles chosen by the helper */
    int plays[UPTOWN_COLOUR_MAX];         /* 2 players: plays per colour (24: retired) */
} setup_t;

static uint32_t parse_rack(const char *text)
{
    uint32_t rack = 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        int t = uptown_tile_parse(tok);
        CHECK_MSG(t >= 0, "bad tile %s in a test rack", tok);
        if (t >= 0)
            rack |= 1u << t;
    }
    return rack;
}

/* Kuhn's augmenting path: gives cell i a tile kind allowed there, distinct per colour. */
static bool match_cell(int i, const int *cells, uint32_t avail, int *kind_of_cell,
                       int *cell_of_kind, uint32_t *visited)
{
    for (int t = 0; t < UPTOWN_TILE_COUNT; t++) {
        if (!(avail >> t & 1) || !(uptown_tile_cells[t] >> cells[i] & 1) || (*visited >> t & 1))
            continue;
        *visited |= 1u << t;
        if (cell_of_kind[t] < 0 ||
            match_cell(cell_of_kind[t], cells, avail, kind_of_cell, cell_of_kind, visited)) {
            cell_of_kind[t] = i;
            kind_of_cell[i] = t;
            return true;
        }
    }
    return false;
}

/* Builds a consistent state from a setup (uptown_check must accept it). */
static void setup_state(uptown_state_t *s, const setup_t *su)
{
    memset(s, 0, sizeof *s);
    s->players = (uint8_t)su->players;
    s->colours = (uint8_t)(su->players == 2 ? 4 : su->players);
    s->move_count = (uint8_t)su->move_count;
    s->to_move = (uint8_t)(su->move_count % su->players);
    for (int p = 0; p < su->players; p++)
        s->turns[p] = (uint8_t)(su->move_count / su->players + (p < su->move_count % su->players));
    memset(s->cell, UPTOWN_EMPTY, sizeof s->cell);
    for (int c = 0; c < s->colours; c++) {
        int cells[UPTOWN_CELL_COUNT], n = 0;
        for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++)
            if (su->rows[cell / 9][cell % 9] == '0' + c)
                cells[n++] = cell;
        int plays = su->players == 2 ? su->plays[c] : s->turns[c];
        int rack_size = plays == UPTOWN_TURNS ? 4 : 5;
        uint32_t rack = su->racks[c] ? parse_rack(su->racks[c]) : 0;
        int kind_of_cell[UPTOWN_CELL_COUNT], cell_of_kind[UPTOWN_TILE_COUNT];
        memset(cell_of_kind, -1, sizeof cell_of_kind);
        for (int i = 0; i < n; i++) {
            uint32_t visited = 0;
            bool ok = match_cell(i, cells, UPTOWN_ALL_TILES & ~rack, kind_of_cell, cell_of_kind,
                                 &visited);
            CHECK_MSG(ok, "colour %d: no tile kind left for cell %d", c, cells[i]);
            if (!ok)
                return;
            s->cell[cells[i]] = (uint8_t)(c << 5);
        }
        uint32_t used = 0;
        for (int i = 0; i < n; i++) {
            s->cell[cells[i]] |= (uint8_t)kind_of_cell[i];
            used |= 1u << kind_of_cell[i];
        }
        /* Without a given rack, the highest free tiles. */
        for (int t = UPTOWN_TILE_COUNT - 1; t >= 0 && bits_count64(rack) < rack_size; t--)
            if (!su->racks[c] && !(used >> t & 1))
                rack |= 1u << t;
        CHECK_EQ_INT(bits_count64(rack), rack_size);
        int pos = plays + 5 > UPTOWN_TILE_COUNT ? UPTOWN_TILE_COUNT : plays + 5;
        /* Pile: drawn tiles first (played, then rack), then the rest, highest last. */
        uint32_t free_tiles = UPTOWN_ALL_TILES & ~used & ~rack, rest = 0;
        for (int t = UPTOWN_TILE_COUNT - 1; t >= 0 && bits_count64(rest) < 28 - pos; t--)
            if (free_tiles >> t & 1)
                rest |= 1u << t;
        CHECK_EQ_INT(bits_count64(rest), 28 - pos);
        int k = 0;
        uint32_t order[3] = {UPTOWN_ALL_TILES & ~rack & ~rest, rack, rest};
        for (int part = 0; part < 3; part++)
            for (int t = 0; t < UPTOWN_TILE_COUNT; t++)
                if (order[part] >> t & 1)
                    s->pile[c][k++] = (uint8_t)t;
        s->pile_pos[c] = (uint8_t)pos;
        s->rack[c] = rack;
        if (su->players == 2 && plays == UPTOWN_TURNS)
            s->retired |= (uint8_t)(1u << c);
    }
    uptown_recompute(s);
    char err[GAME_ERR_MAX];
    CHECK_MSG(uptown_check(s, err, sizeof err) == 0, "setup: %s", err);
    char board[UPTOWN_BOARD_TEXT_MAX];
    uptown_board_to_text(s, board);
    for (int r = 0; r < 9; r++)
        CHECK(strncmp(board + 10 * r, su->rows[r], 9) == 0 && board[10 * r + 9] == '\n');
}

/* Whether text is legal here; if not, err holds the reason. */
static bool legal(const uptown_state_t *s, const char *text, char *err)
{
    move_t m;
    return uptown_move_from_text(s, text, &m, err, GAME_ERR_MAX) == 0;
}

static void play_text(uptown_state_t *s, const char *text)
{
    move_t m;
    char err[GAME_ERR_MAX];
    int rc = uptown_move_from_text(s, text, &m, err, sizeof err);
    CHECK_MSG(rc == 0, "%s: %s", text, err);
    if (rc == 0) {
        uptown_undo_t u;
        uptown_make(s, m, &u);
    }
}

/* Sorted-by-generation texts of the legal moves that use tile name. */
static int moves_of_tile(const uptown_state_t *s, const char *tile, char out[][GAME_MOVE_TEXT_MAX])
{
    move_t moves[GAME_MAX_MOVES];
    int n = uptown_gen_moves(s, moves), k = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(uptown_tile_name(uptown_move_tile(moves[i])), tile))
            uptown_move_to_text(s, moves[i], out[k++]);
    return k;
}

static const setup_t EMPTY3 = {.players = 3,
                               .rows = {".........", ".........", ".........", ".........",
                                        ".........", ".........", ".........", ".........",
                                        "........."},
                               .racks = {"7 C s4 $ 1"}};

static void test_placement(void)
{
    uptown_state_t s;
    setup_state(&s, &EMPTY3);
    char texts[GAME_MAX_MOVES][GAME_MOVE_TEXT_MAX], err[GAME_ERR_MAX];
    CHECK_EQ_INT(uptown_count_moves(&s), 9 + 9 + 9 + 81 + 9);
    int n = moves_of_tile(&s, "7", texts);
    CHECK_EQ_INT(n, 9);
    CHECK(!strcmp(texts[0], "7@A7") && !strcmp(texts[8], "7@I7"));
    n = moves_of_tile(&s, "C", texts);
    CHECK(n == 9 && !strcmp(texts[0], "C@C1") && !strcmp(texts[8], "C@C9"));
    n = moves_of_tile(&s, "s4", texts);
    CHECK(n == 9 && !strcmp(texts[0], "s4@D1") && !strcmp(texts[4], "s4@E2") &&
          !strcmp(texts[8], "s4@F3"));
    CHECK_EQ_INT(moves_of_tile(&s, "$", texts), 81);
    CHECK(legal(&s, "7@C7", err) && legal(&s, "$@I9", err) && legal(&s, "s4@E2", err));
    CHECK(!legal(&s, "7@C6", err) && strstr(err, "cannot go on C6"));
    CHECK(!legal(&s, "C@D1", err) && strstr(err, "cannot go on"));
    CHECK(!legal(&s, "s4@D4", err) && strstr(err, "cannot go on"));
    CHECK(!legal(&s, "8@C8", err) && strstr(err, "not in the rack"));
    CHECK(!legal(&s, "7@C7x", err) && strstr(err, "empty"));
    /* Only the canonical text is accepted. */
    const char *bad[] = {"7@c7", "7@C7 ", " 7@C7", "S4@E2", "0:7@C7", "7C7",   "7@C",   "7@J1",
                         "7@C0", "7@C7X", "-",     "$@",    "@C7",    "10@C1", "7@C7xx"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(!legal(&s, bad[i], err), "%s accepted", bad[i]);
    /* A play puts the tile on the board, draws one, and passes the turn. */
    play_text(&s, "s4@E2");
    CHECK_EQ_INT(uptown_cell_colour(&s, 4 * 9 + 1), 0);
    CHECK_EQ_INT(uptown_cell_tile(&s, 4 * 9 + 1), uptown_tile_parse("s4"));
    CHECK_EQ_INT(bits_count64(s.rack[0]), 5);
    CHECK(!(s.rack[0] >> uptown_tile_parse("s4") & 1));
    CHECK_EQ_INT(s.to_move, 1);
    CHECK(!legal(&s, "7@E2x", err)); /* player 1 has no 7 of its own here, or E2 is taken */
}

static void test_captures(void)
{
    setup_t su = {.players = 3,
                  .move_count = 45,
                  .rows = {".........", ".........", ".........", "...111...", "...1.1...",
                           "...111...", "111......", "0....2...", "........1"},
                  .racks = {"$ 1 2 5 E"}};
    uptown_state_t s;
    char err[GAME_ERR_MAX];
    setup_state(&s, &su);
    CHECK_EQ_INT(uptown_group_count(s.colour_bb[1]), 3);
    /* A singleton, an end tile, a middle tile (split), ring tiles whose two neighbours
       meet only through a longer path. */
    CHECK(legal(&s, "$@I9x", err));
    CHECK(legal(&s, "$@G1x", err) && legal(&s, "1@G1x", err));
    CHECK(!legal(&s, "$@G2x", err) &&
          !strcmp(err, "move '$@G2x': illegal: capture would split a group"));
    CHECK(!legal(&s, "2@G2x", err) &&
          !strcmp(err, "move '2@G2x': illegal: capture would split a group"));
    CHECK(legal(&s, "$@D5x", err) && legal(&s, "5@D5x", err) && legal(&s, "E@E6x", err));
    CHECK(legal(&s, "$@F5x", err) && legal(&s, "$@H6x", err));
    CHECK(!legal(&s, "$@H1x", err) && strstr(err, "own"));
    CHECK(!legal(&s, "$@H1", err) && strstr(err, "occupied"));
    CHECK(!legal(&s, "$@G1", err) && strstr(err, "occupied"));
    /* The generator agrees: no move on H1 or G2, two captures on G1. */
    move_t moves[GAME_MAX_MOVES];
    int n = uptown_gen_moves(&s, moves);
    int on_h1 = 0, on_g2 = 0, on_g1 = 0;
    for (int i = 0; i < n; i++) {
        int cell = uptown_move_cell(moves[i]);
        on_h1 += cell == 7 * 9 + 0;
        on_g2 += cell == 6 * 9 + 1;
        on_g1 += cell == 6 * 9 + 0 && uptown_move_is_capture(moves[i]);
    }
    CHECK(on_h1 == 0 && on_g2 == 0 && on_g1 == 2);
    /* Once D5 is gone the ring is a path D4-E4-F4-F5-F6-E6-D6: only its ends may go. */
    uptown_state_t path = s;
    path.cell[3 * 9 + 4] = UPTOWN_EMPTY;
    path.colour_bb[1] &= ~UPTOWN_BIT(3 * 9 + 4);
    CHECK(uptown_can_remove(&path, 3 * 9 + 3) && uptown_can_remove(&path, 3 * 9 + 5));
    CHECK(!uptown_can_remove(&path, 4 * 9 + 5) && !uptown_can_remove(&path, 5 * 9 + 4));
    CHECK(!uptown_can_remove(&path, 4 * 9 + 3) && !uptown_can_remove(&path, 5 * 9 + 3));
    /* The capture takes the tile: the capturer counts it, its colour loses a tile. */
    int groups_before = uptown_group_count(s.colour_bb[1]);
    play_text(&s, "$@I9x");
    CHECK_EQ_INT(s.captures[0], 1);
    CHECK_EQ_INT(uptown_cell_colour(&s, 80), 0);
    CHECK_EQ_INT(uptown_group_count(s.colour_bb[1]), groups_before - 1);
    /* Player 1 cannot capture its own tile either. */
    CHECK(s.to_move == 1);
}

static void test_two_player_colours(void)
{
    setup_t su = {.players = 2,
                  .move_count = 8,
                  .rows = {".........", ".........", ".........", ".........", "....2....",
                           "....1....", ".........", ".........", "........."},
                  .racks = {"$ 1 2 3 4", "$ 1 2 3 4", "$ 5 6 7 8", "$ 5 6 7 8"},
                  .plays = {2, 2, 2, 2}};
    uptown_state_t s;
    char err[GAME_ERR_MAX];
    setup_state(&s, &su);
    CHECK_EQ_INT(s.to_move, 0);
    /* Player 0 owns colours 0 and 2: E5 (colour 2) is its own, F5 (colour 1) is not. */
    CHECK(!legal(&s, "0:$@E5x", err) && strstr(err, "own"));
    CHECK(!legal(&s, "1:$@E5x", err) && strstr(err, "own"));
    CHECK(legal(&s, "0:$@F5x", err) && legal(&s, "1:$@F5x", err));
    CHECK(legal(&s, "1:5@A5", err) && !legal(&s, "0:5@A5", err));
    CHECK(!legal(&s, "$@A1", err) && strstr(err, "0: or 1:"));
    CHECK(!legal(&s, "2:$@A1", err));
    /* Colour 0: $ on 79 empty cells + F5, columns 1-4; colour 2: the same less its own E5. */
    CHECK_EQ_INT(uptown_count_moves(&s), (80 + 36) + (80 + 35));
    play_text(&s, "1:$@F5x");
    CHECK_EQ_INT(s.captures[0], 1);
    CHECK_EQ_INT(uptown_cell_colour(&s, 5 * 9 + 4), 2);
    /* Player 1 (colours 1 and 3) may take colour 2's tiles back, not colour 1's. */
    CHECK(legal(&s, "0:$@F5x", err) && legal(&s, "1:$@E5x", err));
    CHECK_EQ_INT(uptown_player_groups(&s, 0), 1);
    CHECK_EQ_INT(uptown_player_groups(&s, 1), 0);
}

/* Player 0 (colours 0 and 2, colour 2 retired) has every rack tile blocked: it discards. */
static void test_stuck_and_retire(void)
{
    /* Columns 1-3 are full of player 0's tiles; its colour 0 rack only reaches them. */
    setup_t su = {.players = 2,
                  .move_count = 94,
                  .rows = {"022......", "022......", "022......", "022......", "022......",
                           "002......", "200......", "202......", "022......"},
                  .racks = {"1 2 3 s1 s4"},
                  .plays = {23, 24, 24, 23}};
    uptown_state_t s;
    char err[GAME_ERR_MAX];
    setup_state(&s, &su);
    CHECK(s.retired == (1u << 2 | 1u << 1));
    move_t moves[GAME_MAX_MOVES];
    int n = uptown_gen_moves(&s, moves);
    CHECK_EQ_INT(n, 5);
    for (int i = 0; i < n; i++)
        CHECK(uptown_move_is_discard(moves[i]) && uptown_move_colour(moves[i]) == 0);
    char text[GAME_MOVE_TEXT_MAX];
    uptown_move_to_text(&s, moves[0], text);
    CHECK(!strcmp(text, "0:-1"));
    /* The fast random pick (playouts) picks discards exactly as the list does. */
    for (uint64_t seed = 0; seed < 20; seed++) {
        pcg32_t r1, r2;
        pcg32_seed(&r1, seed, 1);
        r2 = r1;
        CHECK(uptown_random_move(&s, &r1) == moves[pcg32_bounded(&r2, (uint32_t)n)]);
    }
    CHECK(!legal(&s, "1:-1", err) && strstr(err, "retired"));
    CHECK(!legal(&s, "0:-5", err) && strstr(err, "not in the rack"));
    /* Colour 0 has played 23 times: its pile is empty, so this discard retires it. */
    uint32_t left_before = s.left[0];
    play_text(&s, "0:-s4");
    CHECK_EQ_INT(s.captures[0], 0);
    CHECK(s.left[0] == (left_before & ~(1u << uptown_tile_parse("s4"))));
    CHECK_EQ_INT(bits_count64(s.rack[0]), 4);
    CHECK(s.retired >> 0 & 1);
    /* Player 1 has only colour 3 left, and placements: it may not discard. */
    n = uptown_gen_moves(&s, moves);
    CHECK(n > 0);
    for (int i = 0; i < n; i++)
        CHECK(uptown_move_colour(moves[i]) == 3 && !uptown_move_is_discard(moves[i]));
    char dis[GAME_MOVE_TEXT_MAX];
    snprintf(dis, sizeof dis, "1:-%s", uptown_tile_name(__builtin_ctz(s.rack[3])));
    CHECK(!legal(&s, dis, err) && strstr(err, "discarded only when"));
}

/* The last moves: 3 players end after 24 turns each, 2 players when all colours retire. */
static void test_game_end(void)
{
    setup_t su = {.players = 3,
                  .move_count = 71,
                  .rows = {".........", ".........", ".........", ".........", ".........",
                           ".........", ".........", ".........", "........."}};
    uptown_state_t s;
    setup_state(&s, &su);
    CHECK_EQ_INT(s.to_move, 2);
    CHECK(!uptown_is_terminal(&s));
    move_t moves[GAME_MAX_MOVES];
    int n = uptown_gen_moves(&s, moves);
    CHECK(n > 0);
    uptown_undo_t u;
    uptown_make(&s, moves[0], &u);
    CHECK(uptown_is_terminal(&s));
    CHECK_EQ_INT(uptown_gen_moves(&s, moves), 0);
    CHECK_EQ_INT(bits_count64(s.rack[2]), 4);
    char err[GAME_ERR_MAX];
    CHECK(!legal(&s, "$@A1", err) && strstr(err, "over"));

    setup_t su2 = {.players = 2,
                   .move_count = 95,
                   .rows = {".........", ".........", ".........", ".........", ".........",
                            ".........", ".........", ".........", "........."},
                   .plays = {24, 24, 24, 23}};
    setup_state(&s, &su2);
    CHECK_EQ_INT(s.to_move, 1);
    CHECK(!uptown_is_terminal(&s));
    n = uptown_gen_moves(&s, moves);
    CHECK(n > 0);
    for (int i = 0; i < n; i++)
        CHECK_EQ_INT(uptown_move_colour(moves[i]), 3);
    uptown_make(&s, moves[n - 1], &u);
    CHECK(uptown_is_terminal(&s) && s.retired == 0xF);
    CHECK_EQ_INT(uptown_gen_moves(&s, moves), 0);
}

static void test_group_counting(void)
{
    static const struct {
        const char *rows[9];
        int groups[3];
    } boards[] = {
        {{".........", ".........", ".........", ".........", ".........", ".........", ".........",
          ".........", "........."},
         {0, 0, 0}},
        {{"0.0.0.0.0", ".0.0.0.0.", "0.0.0.0.0", ".........", "111111111", "1.......1", "1.22222.1",
          "1.2...2.1", "111.2.111"},
         {14, 1, 2}},
        {{"000000000", "0.......0", "0.11111.0", "0.1...1.0", "0.1.2.1.0", "0.1...1.0", "0.11111.0",
          "0.......0", "000000000"},
         {1, 1, 1}},
        {{"01.......", "10.......", ".........", "....2....", "...2.2...", "....2....", ".........",
          ".......00", ".......0."},
         {3, 2, 4}},
    };
    for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        u128_t bb[3] = {0, 0, 0};
        for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++) {
            char ch = boards[b].rows[cell / 9][cell % 9];
            if (ch >= '0' && ch <= '2')
                bb[ch - '0'] |= UPTOWN_BIT(cell);
        }
        for (int c = 0; c < 3; c++)
            CHECK_MSG(uptown_group_count(bb[c]) == boards[b].groups[c], "board %d colour %d: %d",
                      (int)b, c, uptown_group_count(bb[c]));
    }
    /* Row ends do not wrap around to the next row. */
    CHECK_EQ_INT(uptown_group_count(UPTOWN_BIT(8) | UPTOWN_BIT(9)), 2);
    CHECK_EQ_INT(uptown_group_count(UPTOWN_BIT(8) | UPTOWN_BIT(17)), 1);
    CHECK_EQ_INT(uptown_group_count(UPTOWN_BOARD), 1);
}

/* Fewest groups first, then fewest captures; full ties share the best rank. */
static void test_tie_break(void)
{
    setup_t su = {.players = 4,
                  .move_count = 20,
                  .rows = {"0.0......", ".........", "11.......", ".........", "2.2......",
                           ".........", "3.3......", ".........", "........."}};
    uptown_state_t s;
    setup_state(&s, &su);
    s.captures[0] = 2;
    s.captures[1] = 1;
    s.captures[2] = 2;
    s.captures[3] = 0;
    uptown_recompute(&s);
    int groups[GAME_MAX_PLAYERS], captures[GAME_MAX_PLAYERS], ranks[GAME_MAX_PLAYERS];
    uptown_ranks(&s, groups, captures, ranks);
    CHECK(groups[0] == 2 && groups[1] == 1 && groups[2] == 2 && groups[3] == 2);
    CHECK(ranks[1] == 1 && ranks[3] == 2 && ranks[0] == 3 && ranks[2] == 3);
    double res[GAME_MAX_PLAYERS];
    uptown_result(&s, res);
    CHECK(res[1] == 1.0 && res[3] == 2.0 / 3 && res[0] == 0.5 / 3 && res[2] == 0.5 / 3);
}

static void test_new_game(void)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = 3;
    opt.seed = 42;
    uptown_state_t a, b;
    char err[GAME_ERR_MAX];
    CHECK(uptown_new_game(&a, &opt, err, sizeof err) == 0);
    CHECK(uptown_new_game(&b, &opt, err, sizeof err) == 0);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    for (int c = 0; c < 3; c++) {
        uint32_t first5 = 0;
        for (int i = 0; i < 5; i++)
            first5 |= 1u << a.pile[c][i];
        CHECK(a.rack[c] == first5 && a.pile_pos[c] == 5 && a.left[c] == UPTOWN_ALL_TILES);
    }
    /* A given first player changes nothing else: the seed deals the same piles. */
    opt.first_player = (b.first_player + 1) % 3;
    CHECK(uptown_new_game(&a, &opt, err, sizeof err) == 0 && a.to_move == opt.first_player);
    CHECK(memcmp(a.pile, b.pile, sizeof a.pile) == 0);
    opt.first_player = 3;
    CHECK(uptown_new_game(&a, &opt, err, sizeof err) != 0);
    opt.players = 6;
    CHECK(uptown_new_game(&a, &opt, err, sizeof err) != 0 && strstr(err, "2 to 5"));
    opt.players = 1;
    CHECK(uptown_new_game(&a, &opt, err, sizeof err) != 0);
}

/* uptown_check catches each kind of corruption. */
static void test_check_detects(void)
{
    uptown_state_t good, s;
    setup_state(&good, &EMPTY3);
    play_text(&good, "s4@E2");
    char err[GAME_ERR_MAX];
    CHECK(uptown_check(&good, err, sizeof err) == 0);
    s = good;
    s.colour_bb[1] |= UPTOWN_BIT(0);
    CHECK(uptown_check(&s, err, sizeof err) != 0 && strstr(err, "bitboard"));
    s = good;
    s.hash ^= 1;
    CHECK(uptown_check(&s, err, sizeof err) != 0 && strstr(err, "hash"));
    s = good;
    s.left[0] |= 1u << uptown_tile_parse("s4");
    CHECK(uptown_check(&s, err, sizeof err) != 0);
    s = good;
    s.pile[2][20] = s.pile[2][21];
    CHECK(uptown_check(&s, err, sizeof err) != 0 && strstr(err, "permutation"));
    s = good;
    s.rack[1] &= s.rack[1] - 1;
    CHECK(uptown_check(&s, err, sizeof err) != 0);
    s = good;
    s.cell[0] = (uint8_t)(0 << 5 | uptown_tile_parse("9"));
    CHECK(uptown_check(&s, err, sizeof err) != 0);
    s = good;
    s.turns[0]++;
    CHECK(uptown_check(&s, err, sizeof err) != 0 && strstr(err, "turns"));
    s = good;
    s.occupied |= UPTOWN_BIT(80);
    CHECK(uptown_check(&s, err, sizeof err) != 0 && strstr(err, "occupied"));
}

int main(void)
{
    test_check_detects();
    test_placement();
    test_captures();
    test_two_player_colours();
    test_stuck_and_retire();
    test_game_end();
    test_group_counting();
    test_tie_break();
    test_new_game();
    return test_finish("test_uptown_rules");
}
