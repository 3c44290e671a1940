/* The slow Tower Up reference checked on its own: invariants over many random games
   (fixed seeds) and a few positions worked out by hand from RULES.md. */
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "ref/towerup_ref.h"
#include "tests/test.h"

#define MOVES_MAX 4096

static const char *const DECK[44] = {
    "KKGG",  "GGKK",  "KKWW",  "WWKK",  "KKBB",  "BBKK",  "GGWW",  "WWGG",  "GGBB",
    "BBGG",  "WWBB",  "BBWW",  "KGW",   "GWK",   "WKG",   "KGB",   "GBK",   "BKG",
    "KWB",   "WBK",   "BKW",   "GWB",   "WBG",   "BGW",   "**",    "**",    "**",
    "**",    "*:K2",  "*:G2",  "*:W2",  "*:B2",  "GW:K1", "GB:K1", "WB:K1", "KW:G1",
    "KB:G1", "WB:G1", "KG:W1", "KB:W1", "GB:W1", "KG:B1", "KW:B1", "GW:B1"};

static const char *const OBJECTIVES[10] = {"colors", "park", "areas",   "lake",    "connected",
                                           "brown",  "grey", "borders", "doubles", "heights"};

static char moves[MOVES_MAX][32];

/* What the random games went through, so that the test knows they covered the rules. */
static struct {
    long extra_turns;   /* a player moved again right after a turn */
    long chips;         /* chips won */
    long reshuffles;    /* draw piles remade */
    int last_roof_ends; /* games that ended with a player out of roofs */
    int shortage_ends;  /* games that ended early with roofs left to all: the shortage */
    int safeguard_ends; /* games stopped after 400 turns */
} seen;
static char *board_standard, *board_duo;

/* The bottom floor of a card code as a one-letter string. */
static const char *bottom_of(const char *code)
{
    static const char *const letters[] = {"K", "G", "W", "B", "*"};
    return letters[strchr("KGWB*", code[0]) - "KGWB*"];
}

static int has_move(const char (*list)[32], int n, const char *move)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], move) == 0)
            return 1;
    return 0;
}

static int count_prefix(const char (*list)[32], int n, const char *prefix)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += strncmp(list[i], prefix, strlen(prefix)) == 0;
    return c;
}

/* A game with the given deck (market first), start floors from the deck's first cards. */
static tu_ref_t *game_make(const char *board, int players, int first,
                           const char *const objectives[3], const char *const deck[44], int starts)
{
    const char *start[7];
    for (int k = 0; k < starts; k++)
        start[k] = bottom_of(deck[k]);
    return tu_ref_new(board, players, first, objectives, deck, starts, start, 0, NULL, NULL);
}

/* Invariants that hold in every position of an undoctored game. */
static void check_invariants(const tu_ref_t *g, int players)
{
    int reserve[4], built, placed[4], left[4], supply[4], cones[4], markers[4][4], turns;
    int scores[4], ranks[4];
    tu_ref_counts(g, reserve, &built, placed, left);
    tu_ref_result(g, scores, ranks, supply, cones, markers, &turns);
    int floors = built;
    for (int c = 0; c < 4; c++) {
        CHECK(reserve[c] >= 0);
        floors += reserve[c];
    }
    for (int p = 0; p < players; p++) {
        floors += supply[p];
        CHECK(supply[p] >= 0 && supply[p] <= 10);
        CHECK_EQ_INT(placed[p] + left[p], 10);
        CHECK(cones[p] >= 0 && cones[p] <= 7);
        for (int c = 0; c < 4; c++)
            CHECK(markers[p][c] >= 0 && markers[p][c] <= 15);
        for (int q = 0; q < players; q++) {
            if (scores[p] > scores[q] || (scores[p] == scores[q] && supply[p] > supply[q]))
                CHECK(ranks[p] < ranks[q]);
            if (scores[p] == scores[q] && supply[p] == supply[q])
                CHECK_EQ_INT(ranks[p], ranks[q]);
        }
    }
    CHECK_EQ_INT(floors, 120);
    CHECK(turns <= 400);
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Each move listed once. */
static void check_distinct(int n)
{
    static char sorted[MOVES_MAX][32];
    if (n > MOVES_MAX)
        n = MOVES_MAX;
    memcpy(sorted, moves, sizeof sorted[0] * (size_t)n);
    qsort(sorted, (size_t)n, sizeof sorted[0], cmp_text);
    for (int i = 1; i < n; i++)
        CHECK_MSG(strcmp(sorted[i - 1], sorted[i]) != 0, "%s listed twice", sorted[i]);
}

/* Every listed move is legal; an unlisted one is refused and changes nothing. */
static void check_all_moves_play(const tu_ref_t *g, int n, int players)
{
    static char list[MOVES_MAX][32], again[MOVES_MAX][32];
    if (n > MOVES_MAX)
        n = MOVES_MAX;
    memcpy(list, moves, sizeof list[0] * (size_t)n);
    for (int i = 0; i < n; i++) {
        tu_ref_t *c = tu_ref_copy(g);
        CHECK_MSG(tu_ref_play(c, list[i]) == 0, "listed move %s refused", list[i]);
        check_invariants(c, players);
        tu_ref_free(c);
    }
    static const char *const bogus[] = {"T4", "T1+KKKKKK", "B99K^99", "P0X", "", "T1 "};
    tu_ref_t *c = tu_ref_copy(g);
    for (int i = 0; i < 6; i++)
        CHECK_MSG(tu_ref_play(c, bogus[i]) == -1, "bogus move %s accepted", bogus[i]);
    CHECK_EQ_INT(tu_ref_moves(c, again, MOVES_MAX), n);
    for (int i = 0; i < n; i++)
        CHECK(strcmp(list[i], again[i]) == 0);
    tu_ref_free(c);
}

/* One random game; returns its turn count. Odd seeds reshuffle at random (and the game is
   then replayed from the reshuffles it made, given as lists); even seeds give lists of
   random permutations up front. */
static int random_game(const char *board, int players, uint64_t seed)
{
    pcg32_t rng, shuffle_rng;
    pcg32_seed(&rng, seed, 7);
    pcg32_seed(&shuffle_rng, seed, 8);
    uint8_t order[44];
    for (int i = 0; i < 44; i++)
        order[i] = (uint8_t)i;
    pcg32_shuffle_u8(&rng, order, 44);
    const char *deck[44];
    for (int i = 0; i < 44; i++)
        deck[i] = DECK[order[i]];
    uint8_t obj[10];
    for (int i = 0; i < 10; i++)
        obj[i] = (uint8_t)i;
    pcg32_shuffle_u8(&rng, obj, 10);
    const char *objectives[3] = {OBJECTIVES[obj[0]], OBJECTIVES[obj[1]], OBJECTIVES[obj[2]]};
    int max_start = players == 4 ? 5 : 7;
    int starts = 3 + (int)pcg32_bounded(&rng, (uint32_t)(max_start - 2));
    int first = (int)pcg32_bounded(&rng, (uint32_t)players);

    static const char *lists[20][44];
    const char *const *list_ptr[20];
    int lens[20], list_count = 0;
    if (seed % 2 == 0) {
        list_count = 20;
        for (int k = 0; k < 20; k++) {
            uint8_t perm[44];
            for (int i = 0; i < 44; i++)
                perm[i] = (uint8_t)i;
            pcg32_shuffle_u8(&rng, perm, 44);
            for (int i = 0; i < 44; i++)
                lists[k][i] = DECK[perm[i]];
            list_ptr[k] = lists[k];
            lens[k] = 44;
        }
    }
    const char *start[7];
    for (int k = 0; k < starts; k++)
        start[k] = bottom_of(deck[k]);
    tu_ref_t *g = tu_ref_new(board, players, first, objectives, deck, starts, start, list_count,
                             list_ptr, lens);
    CHECK(g != NULL);
    if (!g)
        return 0;
    tu_ref_set_next_reshuffle_random(g, &shuffle_rng);

    static char history[2000][32];
    int played = 0, n;
    while ((n = tu_ref_moves(g, moves, MOVES_MAX)) > 0 && played < 2000) {
        CHECK(n <= MOVES_MAX);
        CHECK(!tu_ref_over(g));
        check_distinct(n);
        if (played % 37 == (int)(seed % 37) && seed % 5 == 0)
            check_all_moves_play(g, n, players);
        int pick = (int)pcg32_bounded(&rng, (uint32_t)n);
        if (seed % 3 == 0 && pcg32_bounded(&rng, 5) < 4) {
            /* every third game prefers takes: longer games, reshuffles, shortages */
            int takes = count_prefix(moves, n, "T");
            for (int i = 0, k = takes ? (int)pcg32_bounded(&rng, (uint32_t)takes) : -1;
                 i < n && k >= 0; i++)
                if (moves[i][0] == 'T' && k-- == 0)
                    pick = i;
        }
        strcpy(history[played++], moves[pick]);
        int mover = tu_ref_to_move(g);
        CHECK_MSG(tu_ref_play(g, moves[pick]) == 0, "%s refused", moves[pick]);
        if (moves[pick][0] != 'P' && !tu_ref_over(g) && tu_ref_to_move(g) == mover)
            seen.extra_turns++;
        check_invariants(g, players);
    }
    CHECK(tu_ref_over(g));
    int turns, scores[4], again_scores[4], again_turns;
    tu_ref_result(g, scores, NULL, NULL, NULL, NULL, &turns);
    CHECK(turns <= 400);
    CHECK_EQ_INT(played, turns + starts);
    int left[4], out_of_roofs = 0, chips[10];
    tu_ref_counts(g, NULL, NULL, NULL, left);
    for (int p = 0; p < players; p++) {
        out_of_roofs |= left[p] == 0;
        seen.chips += tu_ref_chips(g, p, chips);
    }
    seen.reshuffles += tu_ref_reshuffles_made(g);
    seen.safeguard_ends += turns == 400;
    seen.last_roof_ends += turns < 400 && out_of_roofs;
    seen.shortage_ends += turns < 400 && !out_of_roofs;

    if (seed % 2 == 1) {
        /* a random reshuffle shuffles the discard pile: 44 cards less 2 in the market */
        int made = tu_ref_reshuffles_made(g);
        static char made_text[20][88][8];
        static const char *made_lists[20][88];
        const char *const *made_ptr[20];
        int made_lens[20];
        CHECK(made <= 20);
        for (int k = 0; k < made && k < 20; k++) {
            made_lens[k] = tu_ref_reshuffle_get(g, k, made_text[k], 88);
            CHECK_EQ_INT(made_lens[k], 42);
            for (int i = 0; i < made_lens[k]; i++)
                made_lists[k][i] = made_text[k][i];
            made_ptr[k] = made_lists[k];
        }
        tu_ref_t *r = tu_ref_new(board, players, first, objectives, deck, starts, start,
                                 made < 20 ? made : 20, made_ptr, made_lens);
        CHECK(r != NULL);
        for (int i = 0; r && i < played; i++)
            CHECK_MSG(tu_ref_play(r, history[i]) == 0, "replay refuses %s", history[i]);
        if (r) {
            CHECK(tu_ref_over(r));
            tu_ref_result(r, again_scores, NULL, NULL, NULL, NULL, &again_turns);
            CHECK_EQ_INT(again_turns, turns);
            for (int p = 0; p < players; p++)
                CHECK_EQ_INT(again_scores[p], scores[p]);
        }
        tu_ref_free(r);
    }
    tu_ref_free(g);
    return turns;
}

/* Plays the first listed take (the other player's filler turn in hand-made games). */
static void play_first_take(tu_ref_t *g)
{
    int n = tu_ref_moves(g, moves, MOVES_MAX);
    for (int i = 0; i < n; i++)
        if (moves[i][0] == 'T') {
            CHECK(tu_ref_play(g, moves[i]) == 0);
            return;
        }
    CHECK_MSG(0, "no take listed");
}

/* The standard deck with the given codes moved to the front, in that order. */
static void deck_front(const char **deck, const char *const *codes, int count)
{
    memcpy(deck, DECK, sizeof DECK);
    for (int i = 0; i < count; i++)
        for (int j = i; j < 44; j++)
            if (strcmp(deck[j], codes[i]) == 0) {
                const char *t = deck[i];
                deck[i] = deck[j];
                deck[j] = t;
                break;
            }
}

static const char *const START_OBJECTIVES[3] = {"colors", "park", "areas"};

/* Takes: wilds, the 10-floor limit, shortage substitutions, an empty reserve. */
static void check_takes(void)
{
    static const char *const front[4] = {"**", "KKGG", "KGW", "GGKK"};
    const char *deck[44];
    deck_front(deck, front, 4); /* market **, KKGG, KGW; the draw pile starts with GGKK */
    tu_ref_t *g = game_make(board_duo, 2, 0, START_OBJECTIVES, deck, 3);
    CHECK(g != NULL);
    if (!g)
        return;
    CHECK_EQ_INT(tu_ref_to_move(g), 1); /* the player before the first places */
    int n = tu_ref_moves(g, moves, MOVES_MAX);
    CHECK_EQ_INT(n, 31 * 4); /* a wild start floor: any site, any colour */
    CHECK(tu_ref_play(g, "P0K") == 0);
    CHECK(tu_ref_play(g, "P1K") == -1); /* next to a K building */
    n = tu_ref_moves(g, moves, MOVES_MAX);
    CHECK_EQ_INT(n, 31 - 3); /* K only: not on 0, 1 or 7 */
    CHECK(tu_ref_play(g, "P30K") == 0);
    CHECK(tu_ref_play(g, "P20G") == -1); /* the third start floor is K */
    CHECK(tu_ref_play(g, "P20K") == 0);
    CHECK_EQ_INT(tu_ref_to_move(g), 0);

    /* 9 floors; ** brings 11: one goes back. Nets e_a + e_b - e_r: 4 single gains (r among
       the two gained) and, for r in K G W, 6 pairs from the other three colours: 22. */
    tu_ref_t *h = tu_ref_copy(g);
    tu_ref_debug_set(h, 0, (const int[4]){3, 3, 3, 0}, NULL, NULL, -1);
    n = tu_ref_moves(h, moves, MOVES_MAX);
    CHECK_EQ_INT(count_prefix(moves, n, "T1"), 22);
    CHECK(has_move(moves, n, "T1+B") && has_move(moves, n, "T1+BB-K"));
    CHECK(has_move(moves, n, "T1+KB-G") && has_move(moves, n, "T1+K"));
    CHECK(!has_move(moves, n, "T1+KK") && !has_move(moves, n, "T1+BB-B"));
    /* KKGG: 13 floors, 3 go back from K5 G5 W3: C(5,2) = 10 ways, all different nets */
    CHECK_EQ_INT(count_prefix(moves, n, "T2"), 10);
    CHECK(has_move(moves, n, "T2+KKGG-WWW") && has_move(moves, n, "T2+K"));
    CHECK(!has_move(moves, n, "T2-W")); /* 4 gained, 3 back: the net sum is 1 */
    CHECK(has_move(moves, n, "T2+G") && has_move(moves, n, "T2+KG-W"));
    /* KGW: 12 floors from K4 G4 W4, 2 go back: 6 */
    CHECK_EQ_INT(count_prefix(moves, n, "T3"), 6);
    CHECK(has_move(moves, n, "T3+K") && has_move(moves, n, "T3+KG-W"));
    CHECK(!has_move(moves, n, "T3")); /* 3 gained, 2 back: the net is never zero */
    CHECK(tu_ref_play(h, "T1+BB-K") == 0);
    int reserve[4], supply[2];
    char market[3][8];
    tu_ref_counts(h, reserve, NULL, NULL, NULL);
    tu_ref_result(h, NULL, NULL, supply, NULL, NULL, NULL);
    CHECK_EQ_INT(supply[0], 10);
    CHECK_EQ_INT(reserve[0], 28 - 3 + 1);
    CHECK_EQ_INT(reserve[3], 28 - 2);
    CHECK_EQ_INT(tu_ref_market(h, market), 40);
    CHECK(strcmp(market[0], "GGKK") == 0 && strcmp(market[1], "KKGG") == 0);
    CHECK_EQ_INT(tu_ref_to_move(h), 1);
    tu_ref_free(h);

    /* No K in the reserve: every K icon becomes G, W or B and triggers the shortage. */
    h = tu_ref_copy(g);
    tu_ref_debug_set(h, 0, NULL, (const int[4]){0, 20, 20, 20}, NULL, -1);
    n = tu_ref_moves(h, moves, MOVES_MAX);
    CHECK_EQ_INT(count_prefix(moves, n, "T1"), 6); /* two wilds among G W B */
    CHECK_EQ_INT(count_prefix(moves, n, "T2"), 6); /* GG plus two substitutes */
    CHECK(has_move(moves, n, "T2+GGGG") && has_move(moves, n, "T2+GGWB"));
    CHECK_EQ_INT(count_prefix(moves, n, "T3"), 3);
    CHECK(has_move(moves, n, "T3+GGW") && has_move(moves, n, "T3+GWB"));
    /* ** never triggers: the game goes on normally after it */
    tu_ref_t *w = tu_ref_copy(h);
    CHECK(tu_ref_play(w, "T1+GW") == 0);
    tu_ref_debug_set(w, 0, NULL, (const int[4]){20, 20, 20, 20}, NULL, -1);
    play_first_take(w);
    play_first_take(w);
    play_first_take(w);
    CHECK(!tu_ref_over(w));
    tu_ref_free(w);
    /* the shortage: player 1 then player 0 (the trigger player, last) play a final turn */
    CHECK(tu_ref_play(h, "T2+GGWB") == 0);
    CHECK(!tu_ref_over(h));
    CHECK_EQ_INT(tu_ref_to_move(h), 1);
    play_first_take(h);
    CHECK(!tu_ref_over(h));
    CHECK_EQ_INT(tu_ref_to_move(h), 0);
    play_first_take(h);
    CHECK(tu_ref_over(h));
    CHECK_EQ_INT(tu_ref_moves(h, moves, MOVES_MAX), 0);
    int turns;
    tu_ref_result(h, NULL, NULL, NULL, NULL, NULL, &turns);
    CHECK_EQ_INT(turns, 3);
    tu_ref_free(h);

    /* An empty reserve: icons give nothing, one take per slot. */
    h = tu_ref_copy(g);
    tu_ref_debug_set(h, 0, NULL, (const int[4]){0, 0, 0, 0}, NULL, -1);
    n = tu_ref_moves(h, moves, MOVES_MAX);
    CHECK_EQ_INT(count_prefix(moves, n, "T"), 3);
    CHECK(has_move(moves, n, "T1") && has_move(moves, n, "T2") && has_move(moves, n, "T3"));
    tu_ref_free(h);
    tu_ref_free(g);
}

/* Duo board, start floors K on 1, G on 7, W on 30 (site 0 touches 1 and 7). */
static tu_ref_t *builds_game(void)
{
    static const char *const front[3] = {"KKGG", "GGKK", "WWKK"};
    const char *deck[44];
    deck_front(deck, front, 3);
    tu_ref_t *g = game_make(board_duo, 2, 0, START_OBJECTIVES, deck, 3);
    CHECK(g != NULL);
    if (!g)
        return NULL;
    CHECK(tu_ref_play(g, "P1K") == 0);
    CHECK(tu_ref_play(g, "P7G") == 0);
    CHECK(tu_ref_play(g, "P30W") == 0);
    return g;
}

/* Build roof targets, the marker step, the last roof ending the game. */
static void check_builds(void)
{
    tu_ref_t *g = builds_game();
    if (!g)
        return;
    int n = tu_ref_moves(g, moves, MOVES_MAX);
    /* supply K G W B: site 0 (next to K and G) takes W or B, roof on 0, 1 or 7 */
    static const char *const on0[] = {"B0W^0", "B0W^1", "B0W^7", "B0B^0", "B0B^1", "B0B^7"};
    CHECK_EQ_INT(count_prefix(moves, n, "B0"), 6);
    for (int i = 0; i < 6; i++)
        CHECK_MSG(has_move(moves, n, on0[i]), "%s missing", on0[i]);
    /* sites 2 (next to 1), 12 (next to 7), 23 and 29 (next to 30): 3 colours, 2 roofs */
    CHECK_EQ_INT(count_prefix(moves, n, "B"), 30);
    CHECK(has_move(moves, n, "B2G^1") && !has_move(moves, n, "B2K^2"));
    CHECK(!has_move(moves, n, "B3K^3")); /* no neighbouring building */
    tu_ref_debug_set(g, 0, NULL, NULL, NULL, 1);
    CHECK(tu_ref_play(g, "B0W^1") == 0);
    int markers[2][4], supply[2], built, cones[2], scores[2], ranks[2], left[2];
    tu_ref_counts(g, NULL, &built, NULL, left);
    tu_ref_result(g, NULL, NULL, supply, NULL, markers, NULL);
    CHECK_EQ_INT(built, 6);
    CHECK_EQ_INT(left[0], 0);
    CHECK_EQ_INT(markers[0][0], 2); /* the roof sits at level 2 of the K building */
    CHECK_EQ_INT(supply[0], 1);
    /* the last roof: player 1 plays one final turn, then the game is over */
    CHECK(!tu_ref_over(g));
    CHECK_EQ_INT(tu_ref_to_move(g), 1);
    n = tu_ref_moves(g, moves, MOVES_MAX);
    CHECK(has_move(moves, n, "B2G^1")); /* would cover player 0's roof: after the cone */
    CHECK(tu_ref_play(g, "B2G^1") == 0);
    CHECK(tu_ref_over(g));
    tu_ref_result(g, scores, ranks, supply, cones, markers, NULL);
    CHECK_EQ_INT(cones[0], 1);
    CHECK_EQ_INT(cones[1], 1);
    CHECK_EQ_INT(markers[1][0], 3);
    CHECK_EQ_INT(scores[0], 2 + 1);
    CHECK_EQ_INT(scores[1], 3 + 1);
    CHECK_EQ_INT(ranks[0], 2);
    CHECK_EQ_INT(ranks[1], 1);
    tu_ref_free(g);
}

/* colors met on the fourth roof (K, G, W, then B buildings) and the chip; that roof also
   lifts the lowest marker to column 2, a star: an extra turn. */
static void check_objective(void)
{
    tu_ref_t *g = builds_game();
    if (!g)
        return;
    static const char *const mine[4] = {"B0W^1", "B12B^7", "B29K^30", "B18K^12"};
    for (int k = 0; k < 4; k++) {
        tu_ref_debug_set(g, 0, (const int[4]){3, 3, 3, 1}, NULL, NULL, -1);
        CHECK_EQ_INT(tu_ref_to_move(g), 0);
        CHECK_MSG(tu_ref_play(g, mine[k]) == 0, "%s refused", mine[k]);
        int chips[10];
        CHECK_EQ_INT(tu_ref_chips(g, 0, chips), k == 3);
        if (k < 3)
            play_first_take(g);
    }
    int chips[10], markers[2][4], scores[2];
    CHECK_EQ_INT(tu_ref_chips(g, 0, chips), 1);
    CHECK_EQ_INT(chips[0], 7);
    tu_ref_result(g, scores, NULL, NULL, NULL, markers, NULL);
    CHECK_EQ_INT(markers[0][0], 2);
    CHECK_EQ_INT(markers[0][1], 3);
    CHECK_EQ_INT(markers[0][2], 2);
    CHECK_EQ_INT(markers[0][3], 2);
    CHECK_EQ_INT(scores[0], 2 + 3 + 2 + 2 + 7);
    CHECK_EQ_INT(tu_ref_to_move(g), 0); /* the extra turn */
    play_first_take(g);
    /* player 1, present in the K, G and W buildings, roofs the B one: the chip left is 3 */
    CHECK_EQ_INT(tu_ref_to_move(g), 1);
    tu_ref_debug_put(g, 1, 0, -1, 1, 1);
    tu_ref_debug_put(g, 7, 0, -1, 1, 1);
    tu_ref_debug_put(g, 30, 0, -1, 1, 1);
    tu_ref_debug_set(g, 1, (const int[4]){3, 3, 3, 3}, NULL, NULL, -1);
    CHECK(tu_ref_play(g, "B19K^12") == 0);
    CHECK_EQ_INT(tu_ref_chips(g, 1, chips), 1);
    CHECK_EQ_INT(chips[0], 3);
    tu_ref_result(g, NULL, NULL, NULL, NULL, markers, NULL);
    CHECK_EQ_INT(markers[1][3], 3);
    tu_ref_free(g);
}

/* Only takes on the duo board: the reserve never runs out, so the safeguard ends it. */
static void check_safeguard(void)
{
    tu_ref_t *g = builds_game();
    if (!g)
        return;
    pcg32_t rng;
    pcg32_seed(&rng, 5, 5);
    tu_ref_set_next_reshuffle_random(g, &rng);
    int guard = 0;
    while (!tu_ref_over(g) && guard++ < 1000)
        play_first_take(g);
    int turns, cones[2];
    tu_ref_result(g, NULL, NULL, NULL, cones, NULL, &turns);
    CHECK_EQ_INT(turns, 400);
    CHECK(tu_ref_over(g));
    CHECK_EQ_INT(cones[0] + cones[1], 0);
    tu_ref_free(g);
}

/* Bad input is refused. */
static void check_bad_input(void)
{
    const char *bad_obj[3] = {"colors", "park", "nope"};
    const char *twice[3] = {"colors", "park", "colors"};
    CHECK(game_make(board_duo, 2, 0, bad_obj, DECK, 3) == NULL);
    CHECK(game_make(board_duo, 2, 0, twice, DECK, 3) == NULL);
    CHECK(game_make(board_duo, 5, 0, START_OBJECTIVES, DECK, 3) == NULL);
    CHECK(game_make(board_duo, 4, 0, START_OBJECTIVES, DECK, 6) == NULL);
    const char *deck[44];
    memcpy(deck, DECK, sizeof deck);
    deck[10] = "KKX";
    CHECK(game_make(board_duo, 2, 0, START_OBJECTIVES, deck, 3) == NULL);
    const char *start[3] = {"G", "G", "K"}; /* the first market card is KKGG */
    CHECK(tu_ref_new(board_duo, 2, 0, START_OBJECTIVES, DECK, 3, start, 0, NULL, NULL) == NULL);
    CHECK(game_make("board x\n", 2, 0, START_OBJECTIVES, DECK, 3) == NULL);
}

/* One player's roofs on the standard board, then whether objective id is met. Each entry
   of roofs is {site, colour, height, level}: the building is set first. */
static int objective_with(const char *id, const int (*roofs)[4], int count)
{
    static const char *const deck_objectives[3] = {"colors", "park", "areas"};
    tu_ref_t *g = game_make(board_standard, 3, 0, deck_objectives, DECK, 3);
    CHECK(g != NULL);
    if (!g)
        return -1;
    for (int i = 0; i < count; i++)
        tu_ref_debug_put(g, roofs[i][0], roofs[i][1], roofs[i][2], 0, roofs[i][3]);
    tu_ref_debug_put(g, 51, 0, 1, 1, 1); /* another player's roof counts for nothing */
    int met = tu_ref_debug_objective(g, 0, id);
    tu_ref_free(g);
    return met;
}

#define OBJECTIVE_IS(id, expect, ...)                                                              \
    do {                                                                                           \
        static const int roofs_[][4] = {__VA_ARGS__};                                              \
        CHECK_MSG(objective_with(id, roofs_, (int)(sizeof roofs_ / sizeof roofs_[0])) == (expect), \
                  "objective %s", id);                                                             \
    } while (0)

/* The ten objectives on the standard board (areas 0 and 4 grey; parks 6 13 14 20 31 37
   38 45; lakes 10 16 17 24 27 34 35 41). */
static void check_objective_cases(void)
{
    OBJECTIVE_IS("colors", 1, {0, 0, 1, 1}, {2, 1, 1, 1}, {5, 2, 1, 1}, {7, 3, 1, 1});
    OBJECTIVE_IS("colors", 0, {0, 0, 1, 1}, {2, 1, 1, 1}, {5, 2, 1, 1}, {7, 2, 1, 1});
    OBJECTIVE_IS("park", 1, {6, 0, 1, 1}, {13, 0, 1, 1}, {14, 0, 1, 1}, {20, 0, 1, 1});
    OBJECTIVE_IS("park", 0, {6, 0, 1, 1}, {13, 0, 1, 1}, {14, 0, 2, 1}, {14, 0, 2, 2});
    OBJECTIVE_IS("lake", 1, {10, 0, 1, 1}, {16, 0, 1, 1}, {17, 0, 1, 1}, {24, 0, 1, 1});
    OBJECTIVE_IS("lake", 0, {10, 0, 1, 1}, {16, 0, 1, 1}, {17, 0, 1, 1}, {25, 0, 1, 1});
    /* sites 0 (area 0), 4 (1), 17 (2), 15 (3), 20 (4) */
    OBJECTIVE_IS("areas", 1, {0, 0, 1, 1}, {4, 0, 1, 1}, {17, 0, 1, 1}, {15, 0, 1, 1},
                 {20, 0, 1, 1});
    OBJECTIVE_IS("areas", 0, {0, 0, 1, 1}, {4, 0, 1, 1}, {17, 0, 1, 1}, {15, 0, 1, 1},
                 {8, 0, 1, 1});
    /* 0-8, 8-9, 9-1, 1-2, 2-3 form a path; 3 is not next to 0, 8, 9 or 1 */
    OBJECTIVE_IS("connected", 1, {0, 0, 1, 1}, {8, 1, 1, 1}, {9, 0, 1, 1}, {1, 1, 1, 1},
                 {2, 0, 1, 1});
    OBJECTIVE_IS("connected", 0, {0, 0, 1, 1}, {8, 1, 1, 1}, {9, 0, 1, 1}, {1, 1, 1, 1},
                 {3, 0, 1, 1});
    OBJECTIVE_IS("brown", 1, {0, 3, 1, 1}, {2, 3, 1, 1}, {5, 3, 1, 1}, {7, 3, 1, 1});
    OBJECTIVE_IS("brown", 0, {0, 3, 1, 1}, {2, 3, 1, 1}, {5, 3, 1, 1}, {5, 3, 1, 1}, {7, 2, 1, 1});
    /* grey areas 0 (sites 0-3, 8-11) and 4 (sites 20, 21, 28, 29, ...) */
    OBJECTIVE_IS("grey", 1, {0, 0, 1, 1}, {1, 0, 1, 1}, {2, 0, 1, 1}, {20, 0, 1, 1}, {21, 0, 1, 1});
    OBJECTIVE_IS("grey", 1, {0, 0, 1, 1}, {1, 0, 1, 1}, {20, 0, 1, 1}, {21, 0, 1, 1},
                 {28, 0, 1, 1});
    OBJECTIVE_IS("grey", 0, {0, 0, 1, 1}, {1, 0, 1, 1}, {2, 0, 1, 1}, {3, 0, 1, 1}, {20, 0, 1, 1});
    OBJECTIVE_IS("grey", 0, {0, 0, 1, 1}, {1, 0, 1, 1}, {20, 0, 1, 1}, {21, 0, 1, 1},
                 {17, 0, 1, 1});
    /* 3-4 and 11-12 cross the same border 0|1; 11-18 crosses 0|2; 12-18 crosses 1|2 */
    OBJECTIVE_IS("borders", 1, {3, 0, 1, 1}, {4, 0, 1, 1}, {11, 0, 1, 1}, {18, 0, 1, 1});
    OBJECTIVE_IS("borders", 1, {3, 0, 1, 1}, {4, 0, 1, 1}, {12, 0, 1, 1}, {18, 0, 1, 1});
    OBJECTIVE_IS("borders", 0, {3, 0, 1, 1}, {4, 0, 1, 1}, {11, 0, 1, 1}, {12, 0, 1, 1});
    OBJECTIVE_IS("borders", 0, {11, 0, 1, 1}, {12, 0, 1, 1}, {18, 0, 1, 1}, {17, 0, 1, 1});
    OBJECTIVE_IS("doubles", 1, {0, 0, 2, 1}, {0, 0, 2, 2}, {5, 0, 2, 1}, {5, 0, 2, 2});
    OBJECTIVE_IS("doubles", 0, {0, 0, 2, 1}, {0, 0, 2, 2}, {5, 0, 2, 1}, {6, 0, 2, 2});
    OBJECTIVE_IS("heights", 1, {0, 0, 4, 1}, {0, 0, 4, 2}, {5, 0, 3, 3}, {7, 0, 5, 4});
    OBJECTIVE_IS("heights", 0, {0, 0, 5, 1}, {0, 0, 5, 2}, {0, 0, 5, 3}, {0, 0, 5, 5});
    int none[1][4] = {{0}};
    CHECK_EQ_INT(objective_with("nope", (const int(*)[4])none, 0), -1);
}

/* A card's vehicle lifts the lowest marker to a star: one extra turn, then play passes on;
   a marker stops at column 15. */
static void check_extra_turns(void)
{
    static const char *const front[3] = {"*:B2", "GW:K1", "KKGG"};
    const char *deck[44];
    deck_front(deck, front, 3);
    tu_ref_t *g = game_make(board_duo, 2, 1, START_OBJECTIVES, deck, 3);
    CHECK(g != NULL);
    if (!g)
        return;
    CHECK_EQ_INT(tu_ref_to_move(g), 0); /* the player before player 1 places */
    CHECK(tu_ref_play(g, "P0B") == 0);
    CHECK(tu_ref_play(g, "P30G") == 0);
    CHECK(tu_ref_play(g, "P20K") == 0);
    CHECK_EQ_INT(tu_ref_to_move(g), 1);
    tu_ref_debug_set(g, 1, NULL, NULL, (const int[4]){2, 2, 2, 1}, -1);
    CHECK(tu_ref_play(g, "T1+K") == 0); /* B 1 -> 3: the lowest marker reaches star 2 */
    CHECK_EQ_INT(tu_ref_to_move(g), 1);
    tu_ref_debug_set(g, 1, NULL, NULL, (const int[4]){15, 3, 3, 3}, -1);
    CHECK(tu_ref_play(g, "T2+GW") == 0); /* K stays at 15; the lowest stays at 3 */
    CHECK_EQ_INT(tu_ref_to_move(g), 0);
    int markers[2][4], turns;
    tu_ref_result(g, NULL, NULL, NULL, NULL, markers, &turns);
    CHECK_EQ_INT(markers[1][0], 15);
    CHECK_EQ_INT(turns, 2);
    tu_ref_free(g);
}

static void check_hand_positions(void)
{
    check_extra_turns();
    check_objective_cases();
    check_takes();
    check_builds();
    check_objective();
    check_safeguard();
    check_bad_input();
}

int main(void)
{
    board_standard = test_read_file(SKYLINE_SOURCE_DIR "/core/towerup/boards/standard.board");
    board_duo = test_read_file(SKYLINE_SOURCE_DIR "/core/towerup/boards/duo.board");
    check_hand_positions();
    long turns = 0;
    int games = 0;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        turns += random_game(board_duo, 2, seed);
        turns += random_game(board_standard, 3, seed + 1000);
        turns += random_game(board_standard, 4, seed + 2000);
        games += 3;
    }
    CHECK(seen.extra_turns > 0 && seen.chips > 0 && seen.reshuffles > 0);
    CHECK(seen.last_roof_ends > 0 && seen.shortage_ends > 0);
    printf("%d random games, %ld turns: %ld extra turns, %ld chips, %ld reshuffles; ends: "
           "%d last roof, %d shortage, %d safeguard\n",
           games, turns, seen.extra_turns, seen.chips, seen.reshuffles, seen.last_roof_ends,
           seen.shortage_ends, seen.safeguard_ends);
    free(board_standard);
    free(board_duo);
    return test_finish("test_towerup_ref_self");
}
