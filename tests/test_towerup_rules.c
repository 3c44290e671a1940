/*
 * Tower Up rule scenarios: extra turns, the 10-floor limit, both end triggers with their
 * final rounds, cones, the safeguard, ranks, reshuffles, set-up and options. Positions are
 * made by editing a state and calling towerup_fix_derived.
 */
#include <string.h>

#include "core/towerup/towerup.h"
#include "tests/test.h"

enum { K, G, W, B };
enum { CARD_KKGG = 0, CARD_KGW = 12, CARD_WILDS = 24, CARD_WILD_B2 = 31, CARD_GW_K1 = 32 };

static void blank(towerup_state_t *s, int players)
{
    game_options_t o;
    game_options_default(&o);
    o.players = players;
    o.seed = 9;
    o.first_player = 0;
    char err[GAME_ERR_MAX];
    int rc = towerup_new_game(s, &o, err, sizeof err);
    CHECK_MSG(rc == 0, "%s", err);
    s->phase = TOWERUP_PHASE_PLAY;
    s->setup_done = s->setup_count;
    s->to_move = 0;
    for (int p = 0; p < players; p++) {
        static const uint8_t sup[4] = {4, 2, 2, 2};
        memcpy(s->supply[p], sup, 4);
    }
    towerup_fix_derived(s);
}

static void put(towerup_state_t *s, int site, int colour, int height, int level_bits, int owner)
{
    s->site[site] = (uint8_t)(height | colour << 4);
    s->roofs[site] = 0;
    for (int l = 1; l <= height; l++)
        if (level_bits >> l & 1)
            s->roofs[site] |= (uint32_t)(owner + 1) << (3 * (l - 1));
}

/* Puts card into a market slot (swapping it with wherever it was). */
static void set_market(towerup_state_t *s, int slot, int card)
{
    for (int i = 0; i < TOWERUP_MARKET; i++)
        if (s->market[i] == card) {
            s->market[i] = s->market[slot];
            s->market[slot] = (uint8_t)card;
            return;
        }
    for (int i = s->draw_pos; i < s->draw_end; i++)
        if (s->draw[i] == card) {
            s->draw[i] = s->market[slot];
            s->market[slot] = (uint8_t)card;
            return;
        }
    s->market[slot] = (uint8_t)card; /* from the discard pile; the old card goes there */
}

static void set_markers(towerup_state_t *s, int p, int k, int g, int w, int b)
{
    s->markers[p][0] = (uint8_t)k, s->markers[p][1] = (uint8_t)g;
    s->markers[p][2] = (uint8_t)w, s->markers[p][3] = (uint8_t)b;
}

static void play(towerup_state_t *s, move_t m)
{
    move_t moves[GAME_MAX_MOVES];
    char text[GAME_MOVE_TEXT_MAX], err[GAME_ERR_MAX];
    int n = towerup_gen_moves(s, moves), found = 0;
    for (int i = 0; i < n; i++)
        found |= moves[i] == m;
    towerup_move_to_text(s, m, text);
    CHECK_MSG(found, "%s is not legal", text);
    towerup_state_t before = *s;
    towerup_undo_t u;
    towerup_make(s, m, &u);
    CHECK_MSG(towerup_check(s, err, sizeof err) == 0, "after %s: %s", text, err);
    towerup_state_t after = *s;
    towerup_undo(s, m, &u);
    CHECK(!memcmp(s, &before, sizeof before));
    *s = after;
}

/* The first legal take from a slot. */
static move_t first_take(const towerup_state_t *s, int slot)
{
    move_t moves[GAME_MAX_MOVES];
    int n = towerup_gen_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (towerup_move_kind(moves[i]) == TOWERUP_MOVE_TAKE && towerup_move_slot(moves[i]) == slot)
            return moves[i];
    CHECK_MSG(0, "no take from slot %d", slot + 1);
    return 0;
}

/* The take from a slot that keeps the most floors of a colour. */
static move_t take_max(const towerup_state_t *s, int slot, int colour)
{
    move_t moves[GAME_MAX_MOVES], best = 0;
    int n = towerup_gen_moves(s, moves), most = -99;
    for (int i = 0; i < n; i++)
        if (towerup_move_kind(moves[i]) == TOWERUP_MOVE_TAKE &&
            towerup_move_slot(moves[i]) == slot && towerup_move_net(moves[i], colour) > most) {
            most = towerup_move_net(moves[i], colour);
            best = moves[i];
        }
    return best;
}

static void check_extra_turns(void)
{
    towerup_state_t s;
    const int T = 25;
    for (int colour = G; colour <= B; colour += B - G) {
        /* A roof moving the lowest marker past a star column: the same player again. */
        blank(&s, 3);
        int N = __builtin_ctzll(s.board->nbr[T]);
        put(&s, N, K, 1, 0, 0);
        set_markers(&s, 0, 2, 2, 2, 1);
        towerup_fix_derived(&s);
        play(&s, towerup_move_build(T, colour, T));
        CHECK_EQ_INT(s.to_move, colour == B ? 0 : 1);
        CHECK_EQ_INT(s.turns, 1);
    }
    /* A card's vehicle moving the lowest marker past a star column. */
    blank(&s, 3);
    set_markers(&s, 0, 2, 2, 2, 1);
    set_market(&s, 0, CARD_WILD_B2);
    set_market(&s, 1, CARD_GW_K1);
    towerup_fix_derived(&s);
    towerup_state_t keep = s;
    play(&s, first_take(&s, 0));
    CHECK_EQ_INT(s.markers[0][B], 3);
    CHECK_EQ_INT(s.to_move, 0);
    /* The extra turn can itself earn another... but not without a rise. */
    play(&s, first_take(&s, 2));
    CHECK_EQ_INT(s.to_move, 1);
    /* A vehicle moving a marker that is not the lowest: no extra turn. */
    s = keep;
    play(&s, first_take(&s, 1));
    CHECK_EQ_INT(s.markers[0][K], 3);
    CHECK_EQ_INT(s.to_move, 1);

    /* Two star columns passed at once (lowest 1 -> 4): one extra turn only. */
    blank(&s, 3);
    int N = __builtin_ctzll(s.board->nbr[T]);
    put(&s, N, B, 2, 0, 0);
    set_markers(&s, 0, 4, 4, 4, 1);
    set_market(&s, 0, CARD_KGW);
    towerup_fix_derived(&s);
    play(&s, towerup_move_build(T, G, N));
    CHECK_EQ_INT(s.markers[0][B], 4);
    CHECK_EQ_INT(s.to_move, 0);
    play(&s, first_take(&s, 0));
    CHECK_EQ_INT(s.to_move, 1);
    CHECK_EQ_INT(s.turns, 2);
}

/* The 10-floor limit is applied inside the take, before the extra turn. */
static void check_limit_before_extra(void)
{
    towerup_state_t s;
    blank(&s, 3);
    set_markers(&s, 0, 2, 2, 2, 1);
    set_market(&s, 0, CARD_WILD_B2);
    towerup_fix_derived(&s);
    move_t moves[GAME_MAX_MOVES];
    int n = towerup_gen_moves(&s, moves), takes = 0;
    for (int i = 0; i < n; i++) {
        if (towerup_move_kind(moves[i]) != TOWERUP_MOVE_TAKE || towerup_move_slot(moves[i]))
            continue;
        takes++;
        int sum = 0;
        for (int c = 0; c < 4; c++)
            sum += towerup_move_net(moves[i], c);
        CHECK_EQ_INT(sum, 0);
    }
    CHECK_EQ_INT(takes, 13); /* keep the gain, or swap it for one of 4 x 3 other floors */
    play(&s, first_take(&s, 0));
    CHECK_EQ_INT(towerup_supply_total(&s, 0), 10);
    CHECK_EQ_INT(s.to_move, 0);
}

static void check_shortage_end(void)
{
    towerup_state_t s;
    blank(&s, 3);
    /* 17 black floors on the board, 12 in supplies: one left in the reserve. */
    put(&s, 0, K, 6, 0, 0);
    put(&s, 10, K, 6, 0, 0);
    put(&s, 40, K, 5, 0, 0);
    set_market(&s, 0, CARD_KKGG);
    set_market(&s, 1, CARD_KGW);
    set_market(&s, 2, 13);
    towerup_fix_derived(&s);
    CHECK_EQ_INT(s.reserve[K], 1);
    play(&s, take_max(&s, 0, K));
    CHECK_EQ_INT(s.end_trigger, TOWERUP_END_SHORTAGE);
    CHECK_EQ_INT(s.trigger_player, 0);
    CHECK_EQ_INT(s.final_round, 1);
    CHECK_EQ_INT(s.to_move, 1);
    CHECK(s.cone[0] < 0 && s.cone[1] < 0 && s.cone[2] < 0);
    /* Player 1's final turn triggers again (no black left): nothing changes. */
    CHECK_EQ_INT(s.reserve[K], 0);
    play(&s, first_take(&s, 1));
    CHECK_EQ_INT(s.trigger_player, 0);
    CHECK(s.cone[1] == 0 && s.cone[2] < 0 && s.cone[0] < 0);
    CHECK_EQ_INT(s.to_move, 2);
    play(&s, first_take(&s, 2));
    CHECK(s.cone[2] == 0 && s.cone[0] < 0);
    CHECK_EQ_INT(s.to_move, 0);
    CHECK(!towerup_is_over(&s));
    play(&s, first_take(&s, 2));
    CHECK(towerup_is_over(&s));
    CHECK_EQ_INT(s.cone[0], 0);
    move_t moves[GAME_MAX_MOVES];
    CHECK_EQ_INT(towerup_gen_moves(&s, moves), 0);
    CHECK_EQ_INT(s.turns, 4);
}

/* RULES.md 1.6: a wild icon never triggers the shortage, not even with the reserve empty
   of every colour (it then gives nothing); a colour icon does. */
static void check_wild_no_shortage(void)
{
    towerup_state_t s;
    blank(&s, 2);
    static const uint8_t sup[2][4] = {{3, 3, 2, 2}, {2, 2, 3, 3}};
    for (int p = 0; p < 2; p++)
        memcpy(s.supply[p], sup[p], 4);
    /* The other 25 floors of each colour on the board: the reserve is empty. */
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 5; i++)
            put(&s, 5 * c + i, c, i < 4 ? 6 : 1, 0, 0);
    set_market(&s, 0, CARD_WILDS);
    set_market(&s, 1, CARD_WILD_B2);
    set_market(&s, 2, CARD_KKGG);
    towerup_fix_derived(&s);
    for (int c = 0; c < 4; c++)
        CHECK_EQ_INT(s.reserve[c], 0);
    move_t moves[GAME_MAX_MOVES];
    int n = towerup_gen_moves(&s, moves), from_slot[3] = {0};
    for (int i = 0; i < n; i++)
        if (towerup_move_kind(moves[i]) == TOWERUP_MOVE_TAKE)
            from_slot[towerup_move_slot(moves[i])]++;
    CHECK(from_slot[0] == 1 && from_slot[1] == 1 && from_slot[2] == 1);
    play(&s, first_take(&s, 0));
    CHECK_EQ_INT(s.end_trigger, TOWERUP_END_NONE);
    CHECK(!memcmp(s.supply[0], sup[0], 4));
    CHECK_EQ_INT(s.to_move, 1);
    play(&s, first_take(&s, 1));
    CHECK_EQ_INT(s.end_trigger, TOWERUP_END_NONE);
    CHECK(!memcmp(s.supply[1], sup[1], 4));
    CHECK_EQ_INT(s.markers[1][B], 2);
    CHECK_EQ_INT(s.final_round, 0);
    /* The same empty reserve and a card of colour icons: the shortage. */
    CHECK_EQ_INT(s.market[2], CARD_KKGG);
    play(&s, first_take(&s, 2));
    CHECK_EQ_INT(s.end_trigger, TOWERUP_END_SHORTAGE);
    CHECK(!memcmp(s.supply[0], sup[0], 4));
}

/* Extra turns are played in the final round too; the cone waits for the last of them. */
static void check_final_round_extra(void)
{
    towerup_state_t s;
    blank(&s, 3);
    put(&s, 0, K, 6, 0, 0);
    put(&s, 10, K, 6, 0, 0);
    put(&s, 40, K, 5, 0, 0);
    put(&s, 47, G, 1, 2, 1); /* one visible roof of player 1 */
    set_markers(&s, 1, 2, 2, 2, 1);
    set_market(&s, 0, CARD_KKGG);
    set_market(&s, 1, CARD_WILD_B2);
    set_market(&s, 2, CARD_KGW);
    towerup_fix_derived(&s);
    play(&s, take_max(&s, 0, K));
    CHECK_EQ_INT(s.end_trigger, TOWERUP_END_SHORTAGE);
    CHECK_EQ_INT(s.to_move, 1);
    play(&s, first_take(&s, 1));
    CHECK_EQ_INT(s.to_move, 1); /* extra turn */
    CHECK(s.cone[1] < 0);
    CHECK_EQ_INT(s.final_left, 3);
    play(&s, first_take(&s, 2));
    CHECK_EQ_INT(s.to_move, 2);
    CHECK_EQ_INT(s.cone[1], 1);
    CHECK_EQ_INT(s.final_left, 2);
}

static void check_last_roof_end(void)
{
    towerup_state_t s;
    blank(&s, 3);
    /* Nine roofs of player 0 on three buildings (3 visible), player 1 one covered roof. */
    put(&s, 0, W, 3, 0xe, 0);
    put(&s, 10, W, 3, 0xe, 0);
    put(&s, 40, W, 3, 0xe, 0);
    put(&s, 47, G, 2, 2, 1);
    const int T = 25;
    int N = __builtin_ctzll(s.board->nbr[T]);
    put(&s, N, K, 1, 0, 0);
    set_markers(&s, 0, 2, 2, 2, 1);
    set_market(&s, 0, CARD_KGW);
    set_market(&s, 1, 13);
    set_market(&s, 2, 14);
    towerup_fix_derived(&s);
    CHECK_EQ_INT(s.roofs_left[0], 1);
    play(&s, towerup_move_build(T, B, T));
    CHECK_EQ_INT(s.end_trigger, TOWERUP_END_LAST_ROOF);
    CHECK_EQ_INT(s.to_move, 0); /* the extra turn comes first */
    CHECK_EQ_INT(s.final_round, 0);
    CHECK(s.cone[0] < 0);
    move_t moves[GAME_MAX_MOVES];
    int n = towerup_gen_moves(&s, moves);
    for (int i = 0; i < n; i++)
        CHECK(towerup_move_kind(moves[i]) == TOWERUP_MOVE_TAKE);
    char err[GAME_ERR_MAX];
    move_t m;
    CHECK(towerup_move_from_text(&s, "B26K^26", &m, err, sizeof err) < 0);
    CHECK_MSG(!strcmp(err, "move 'B26K^26': illegal: no roofs left"), "%s", err);
    play(&s, first_take(&s, 0));
    CHECK_EQ_INT(s.cone[0], 4);
    CHECK_EQ_INT(s.to_move, 1);
    CHECK_EQ_INT(s.final_left, 2);
    play(&s, first_take(&s, 1));
    CHECK_EQ_INT(s.cone[1], 0); /* a covered roof is not visible */
    CHECK(!towerup_is_over(&s));
    play(&s, first_take(&s, 2));
    CHECK(towerup_is_over(&s));
    CHECK_EQ_INT(towerup_gen_moves(&s, moves), 0);
}

static void check_cones_safeguard_ranks(void)
{
    towerup_state_t s;
    blank(&s, 3);
    static const int sites[8] = {0, 3, 6, 20, 30, 37, 44, 51};
    for (int i = 0; i < 8; i++)
        put(&s, sites[i], i % 4, 1, 2, 0);
    s.turns = TOWERUP_MAX_TURNS - 1;
    towerup_fix_derived(&s);
    CHECK_EQ_INT(towerup_visible_roofs(&s, 0), 8);
    play(&s, first_take(&s, 0));
    CHECK(towerup_is_over(&s));
    CHECK_EQ_INT(s.cone[0], 7);
    CHECK_EQ_INT(s.cone[1], 0);
    CHECK_EQ_INT(s.cone[2], 0);
    CHECK_EQ_INT(s.turns, TOWERUP_MAX_TURNS);

    /* Score: markers + cone + chips; ties broken by supply, then shared. */
    set_markers(&s, 0, 0, 0, 0, 0);
    set_markers(&s, 1, 7, 0, 0, 0);  /* 8 */
    set_markers(&s, 2, 15, 0, 0, 0); /* 25 */
    s.cone[0] = 5, s.cone[1] = 1, s.cone[2] = 0;
    memset(s.supply, 0, sizeof s.supply);
    s.supply[0][K] = 3;
    s.supply[1][G] = 5;
    s.chips[0][0] = 3;
    s.met[0] = 1;
    s.chip_count[0] = 1;
    towerup_fix_derived(&s);
    CHECK_EQ_INT(towerup_score(&s, 0), 5 + 3);
    CHECK_EQ_INT(towerup_score(&s, 1), 8 + 1);
    CHECK_EQ_INT(towerup_score(&s, 2), 25);
    int ranks[4];
    towerup_ranks(&s, ranks);
    CHECK(ranks[0] == 3 && ranks[1] == 2 && ranks[2] == 1);
    s.cone[0] = 6; /* 9 each for players 0 and 1: player 1 has more floors */
    towerup_ranks(&s, ranks);
    CHECK(ranks[0] == 3 && ranks[1] == 2 && ranks[2] == 1);
    s.supply[0][W] = 2;
    towerup_ranks(&s, ranks);
    CHECK(ranks[0] == 2 && ranks[1] == 2 && ranks[2] == 1);
    double res[4];
    towerup_fix_derived(&s);
    towerup_api.result(&s, res);
    CHECK(res[2] == 1.0 && res[0] == 0.25 && res[1] == 0.25);
}

/* A wild card with a full supply of black: the ten net changes, each once. */
static void check_take_listing(void)
{
    towerup_state_t s;
    blank(&s, 3);
    memset(s.supply[0], 0, 4);
    s.supply[0][K] = 10;
    set_market(&s, 0, CARD_WILDS);
    towerup_fix_derived(&s);
    static const char *const want[] = {"T1",       "T1+G-K",   "T1+W-K",   "T1+B-K",   "T1+GG-KK",
                                       "T1+GW-KK", "T1+GB-KK", "T1+WW-KK", "T1+WB-KK", "T1+BB-KK"};
    move_t moves[GAME_MAX_MOVES];
    int n = towerup_gen_moves(&s, moves), found[10] = {0}, takes = 0;
    for (int i = 0; i < n; i++) {
        if (towerup_move_kind(moves[i]) != TOWERUP_MOVE_TAKE || towerup_move_slot(moves[i]))
            continue;
        char text[GAME_MOVE_TEXT_MAX];
        towerup_move_to_text(&s, moves[i], text);
        takes++;
        for (int j = 0; j < 10; j++)
            found[j] += !strcmp(text, want[j]);
    }
    CHECK_EQ_INT(takes, 10);
    for (int j = 0; j < 10; j++)
        CHECK_MSG(found[j] == 1, "%s listed %d times", want[j], found[j]);
    /* With room for both floors: the 10 multisets of two colours. */
    s.supply[0][K] = 8;
    towerup_fix_derived(&s);
    n = towerup_gen_moves(&s, moves);
    takes = 0;
    for (int i = 0; i < n; i++)
        takes += towerup_move_kind(moves[i]) == TOWERUP_MOVE_TAKE && !towerup_move_slot(moves[i]);
    CHECK_EQ_INT(takes, 10);
}

static void check_reshuffle(void)
{
    towerup_state_t s;
    blank(&s, 2);
    s.draw_pos = s.draw_end; /* every other card in the discard pile */
    towerup_fix_derived(&s);
    CHECK_EQ_INT(towerup_popcount(s.discard), 41);
    towerup_state_t before = s;
    play(&s, first_take(&s, 1));
    CHECK_EQ_INT(s.reshuffles, 1);
    CHECK_EQ_INT(s.discard, 0);
    CHECK_EQ_INT(towerup_draw_count(&s), 41);
    CHECK(s.market[1] == s.draw[0]);
    CHECK(memcmp(&s.rng, &before.rng, sizeof s.rng));
}

int main(void)
{
    check_extra_turns();
    check_limit_before_extra();
    check_shortage_end();
    check_wild_no_shortage();
    check_final_round_extra();
    check_last_roof_end();
    check_cones_safeguard_ranks();
    check_take_listing();
    check_reshuffle();
    return test_finish("test_towerup_rules");
}
