/*
 * Tower Up take moves against a slow, obvious enumeration: every choice sequence of wild
 * and substitute colours, then every order of returning floors one at a time down to 10;
 * the distinct net changes must be exactly the engine's take moves, each listed once.
 * Positions: random games, and edited positions with nearly empty reserves.
 */
#include <string.h>

#include "core/towerup/towerup.h"
#include "tests/test.h"

#define NET_INDEX(d) (((d)[0] + 4) * 729 + ((d)[1] + 4) * 81 + ((d)[2] + 4) * 9 + ((d)[3] + 4))

/* State of the slow enumeration. */
typedef struct brute {
    const towerup_card_t *card; /* the card taken */
    int start[4];               /* supply before the take */
    bool seen[6561];            /* nets reached, by NET_INDEX */
    int count;                  /* distinct nets reached */
} brute_t;

static void brute_return(brute_t *bt, int *sup)
{
    int total = sup[0] + sup[1] + sup[2] + sup[3];
    if (total <= TOWERUP_SUPPLY_MAX) {
        int d[4];
        for (int c = 0; c < 4; c++)
            d[c] = sup[c] - bt->start[c];
        int i = NET_INDEX(d);
        if (!bt->seen[i]) {
            bt->seen[i] = true;
            bt->count++;
        }
        return;
    }
    for (int c = 0; c < 4; c++)
        if (sup[c]) {
            sup[c]--;
            brute_return(bt, sup);
            sup[c]++;
        }
}

static void brute_gain(brute_t *bt, int i, int *reserve, int *sup)
{
    if (i == bt->card->icon_count) {
        brute_return(bt, sup);
        return;
    }
    int icon = bt->card->icons[i], any = 0;
    for (int c = 0; c < 4; c++) {
        /* The icon's own colour if the reserve has it; else (or for a wild) any it has. */
        bool ok = icon != TOWERUP_WILD && reserve[icon] ? c == icon : reserve[c] > 0;
        if (!ok)
            continue;
        any = 1;
        reserve[c]--, sup[c]++;
        brute_gain(bt, i + 1, reserve, sup);
        reserve[c]++, sup[c]--;
    }
    if (!any)
        brute_gain(bt, i + 1, reserve, sup);
}

/* Compares one position's takes, slot by slot. */
static void compare_takes(const towerup_state_t *s)
{
    static move_t moves[GAME_MAX_MOVES];
    int n = towerup_gen_moves(s, moves), p = s->to_move;
    /* The counting sampler agrees with the list (it counts takes without listing them). */
    for (uint64_t seq = 0; seq < 12; seq++) {
        pcg32_t a, b;
        pcg32_seed(&a, 99, seq);
        b = a;
        move_t m = towerup_random_move(s, &a);
        CHECK(m == moves[pcg32_bounded(&b, (uint32_t)n)]);
    }
    for (int slot = 0; slot < TOWERUP_MARKET; slot++) {
        static brute_t bt;
        memset(&bt, 0, sizeof bt);
        bt.card = &towerup_cards()[s->market[slot]];
        int reserve[4], sup[4];
        for (int c = 0; c < 4; c++) {
            bt.start[c] = sup[c] = s->supply[p][c];
            reserve[c] = s->reserve[c];
        }
        brute_gain(&bt, 0, reserve, sup);
        int listed = 0;
        for (int i = 0; i < n; i++) {
            if (towerup_move_kind(moves[i]) != TOWERUP_MOVE_TAKE ||
                towerup_move_slot(moves[i]) != slot)
                continue;
            listed++;
            int d[4];
            for (int c = 0; c < 4; c++)
                d[c] = towerup_move_net(moves[i], c);
            char text[GAME_MOVE_TEXT_MAX];
            towerup_move_to_text(s, moves[i], text);
            CHECK_MSG(bt.seen[NET_INDEX(d)], "%s (card %s) is not reachable", text, bt.card->code);
        }
        CHECK_MSG(listed == bt.count, "card %s, reserve %d %d %d %d: engine %d takes, slow %d",
                  bt.card->code, s->reserve[0], s->reserve[1], s->reserve[2], s->reserve[3], listed,
                  bt.count);
    }
}

static void random_games(void)
{
    pcg32_t rng;
    pcg32_seed(&rng, 31, 4);
    move_t moves[GAME_MAX_MOVES];
    towerup_undo_t u;
    for (int g = 0; g < 150; g++) {
        game_options_t o;
        game_options_default(&o);
        o.players = 3 + g % 2;
        o.seed = 500 + (uint64_t)g;
        test_option(&o, "setup=random");
        towerup_state_t s;
        char err[GAME_ERR_MAX];
        CHECK(towerup_new_game(&s, &o, err, sizeof err) == 0);
        while (!towerup_is_over(&s)) {
            compare_takes(&s);
            int n = towerup_gen_moves(&s, moves);
            towerup_make(&s, moves[pcg32_bounded(&rng, (uint32_t)n)], &u);
        }
    }
}

/* Edited positions: reserves of 0..2 per colour, every card, several supplies. */
static void scarce_reserves(void)
{
    static const int reserves[][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 2, 0}, {1, 1, 1, 1},
                                      {2, 0, 1, 0}, {0, 0, 0, 2}, {2, 2, 0, 1}, {3, 0, 0, 0}};
    static const int supplies[][4] = {
        {1, 1, 1, 1}, {4, 2, 2, 2}, {0, 0, 9, 0}, {3, 3, 2, 0}, {10, 0, 0, 0}};
    for (size_t r = 0; r < sizeof reserves / sizeof reserves[0]; r++)
        for (size_t q = 0; q < sizeof supplies / sizeof supplies[0]; q++) {
            game_options_t o;
            game_options_default(&o);
            o.players = 2;
            o.seed = 3;
            o.first_player = 0;
            test_option(&o, "board=standard");
            towerup_state_t s;
            char err[GAME_ERR_MAX];
            CHECK(towerup_new_game(&s, &o, err, sizeof err) == 0);
            s.phase = TOWERUP_PHASE_PLAY;
            s.setup_done = s.setup_count;
            s.to_move = 0;
            int site = 0;
            for (int c = 0; c < 4; c++) {
                s.supply[0][c] = (uint8_t)supplies[q][c];
                s.supply[1][c] = 1;
                int floors = 30 - supplies[q][c] - 1 - reserves[r][c];
                for (; floors > 0; floors -= 6)
                    s.site[site++] = (uint8_t)((floors < 6 ? floors : 6) | c << 4);
            }
            towerup_fix_derived(&s);
            for (int c = 0; c < 4; c++)
                CHECK_EQ_INT(s.reserve[c], reserves[r][c]);
            for (int card = 0; card < TOWERUP_CARD_COUNT; card++) {
                /* Card `card` into slot 1 (its old place gets slot 1's card). */
                for (int i = s.draw_pos; i < s.draw_end; i++)
                    if (s.draw[i] == card) {
                        s.draw[i] = s.market[0];
                        s.market[0] = (uint8_t)card;
                    }
                for (int i = 1; i < TOWERUP_MARKET; i++)
                    if (s.market[i] == card) {
                        s.market[i] = s.market[0];
                        s.market[0] = (uint8_t)card;
                    }
                towerup_fix_derived(&s);
                compare_takes(&s);
            }
        }
}

int main(void)
{
    scarce_reserves();
    random_games();
    return test_finish("test_towerup_takes");
}
