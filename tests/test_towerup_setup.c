/*
 * Tower Up options, set-up, move text and determinization: what new_game accepts and
 * refuses, who places the starting floors and where, exact canonical text, clear errors.
 */
#include <string.h>

#include "core/towerup/towerup.h"
#include "tests/test.h"

static int make_game(towerup_state_t *s, int players, uint64_t seed, int start, const char *objs,
                     int first, char *err)
{
    game_options_t o;
    game_options_default(&o);
    o.players = players;
    o.seed = seed;
    test_option(&o, "start_floors=%d", start);
    if (objs)
        test_option(&o, "objectives=%s", objs);
    o.first_player = first;
    return towerup_new_game(s, &o, err, GAME_ERR_MAX);
}

static void check_options(void)
{
    towerup_state_t s;
    char err[GAME_ERR_MAX];
    CHECK(make_game(&s, 1, 1, 3, NULL, -1, err) < 0);
    CHECK(make_game(&s, 5, 1, 3, NULL, -1, err) < 0);
    CHECK(make_game(&s, 4, 1, 5, NULL, -1, err) == 0);
    CHECK(make_game(&s, 4, 1, 6, NULL, -1, err) < 0);
    CHECK_MSG(strstr(err, "3 to 5") != NULL, "%s", err);
    CHECK(make_game(&s, 3, 1, 7, NULL, -1, err) == 0);
    CHECK(make_game(&s, 2, 1, 7, NULL, -1, err) == 0);
    CHECK(make_game(&s, 3, 1, 8, NULL, -1, err) < 0);
    CHECK(make_game(&s, 3, 1, 2, NULL, -1, err) < 0);

    CHECK(make_game(&s, 3, 1, 3, "start", -1, err) == 0);
    CHECK(s.objectives[0] == TOWERUP_OBJ_COLORS && s.objectives[1] == TOWERUP_OBJ_PARK &&
          s.objectives[2] == TOWERUP_OBJ_AREAS);
    CHECK(make_game(&s, 3, 1, 3, "lake,doubles,heights", -1, err) == 0);
    CHECK(s.objectives[0] == TOWERUP_OBJ_LAKE && s.objectives[1] == TOWERUP_OBJ_DOUBLES &&
          s.objectives[2] == TOWERUP_OBJ_HEIGHTS);
    CHECK(make_game(&s, 3, 1, 3, "colors,park", -1, err) < 0);
    CHECK(make_game(&s, 3, 1, 3, "colors,park,areas,lake", -1, err) < 0);
    CHECK(make_game(&s, 3, 1, 3, "colors,colors,park", -1, err) < 0);
    CHECK_MSG(strstr(err, "twice") != NULL, "%s", err);
    CHECK(make_game(&s, 3, 1, 3, "colors,park,nope", -1, err) < 0);
    CHECK_MSG(strstr(err, "unknown objective 'nope'") != NULL, "%s", err);
    int differ = 0;
    for (uint64_t seed = 0; seed < 20; seed++) {
        towerup_state_t t;
        CHECK(make_game(&s, 3, seed, 3, "random", -1, err) == 0);
        CHECK(make_game(&t, 3, seed, 3, "random", -1, err) == 0);
        CHECK(!memcmp(&s, &t, sizeof s));
        CHECK(s.objectives[0] != s.objectives[1] && s.objectives[1] != s.objectives[2] &&
              s.objectives[0] != s.objectives[2]);
        differ += s.objectives[0] != TOWERUP_OBJ_COLORS;
    }
    CHECK(differ > 0);

    CHECK(make_game(&s, 3, 1, 3, NULL, 2, err) == 0);
    CHECK_EQ_INT(s.first_player, 2);
    CHECK(make_game(&s, 3, 1, 3, NULL, 3, err) < 0);
    int firsts[4] = {0};
    for (uint64_t seed = 0; seed < 40; seed++) {
        CHECK(make_game(&s, 4, seed, 3, NULL, -1, err) == 0);
        firsts[s.first_player]++;
    }
    CHECK(firsts[0] && firsts[1] && firsts[2] && firsts[3]);

    CHECK(make_game(&s, 2, 1, 3, NULL, -1, err) == 0);
    CHECK_EQ_INT(s.board->site_count, 31);
    CHECK(make_game(&s, 4, 1, 3, NULL, -1, err) == 0);
    CHECK_EQ_INT(s.board->site_count, 52);
    game_options_t o;
    game_options_default(&o);
    o.players = 3;
    test_option(&o, "board=duo");
    CHECK(towerup_new_game(&s, &o, err, sizeof err) == 0);
    CHECK_EQ_INT(s.board->site_count, 31);
    test_option(&o, "board=/nonexistent.board");
    CHECK(towerup_new_game(&s, &o, err, sizeof err) < 0);
}

static void check_setup(void)
{
    towerup_state_t s;
    char err[GAME_ERR_MAX];
    const towerup_card_t *cards = towerup_cards();
    CHECK(make_game(&s, 4, 77, 5, NULL, 1, err) == 0);
    CHECK_EQ_INT(s.phase, TOWERUP_PHASE_SETUP);
    CHECK_EQ_INT(s.to_move, 0); /* the player before the first */
    CHECK_EQ_INT(s.setup_count, 5);
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(s.setup_colour[i], cards[s.market[i]].bottom);
    CHECK_EQ_INT(towerup_draw_count(&s), 41);
    for (int c = 0; c < 4; c++)
        CHECK_EQ_INT(s.reserve[c], 26);
    move_t moves[GAME_MAX_MOVES];
    towerup_undo_t u;
    for (int k = 0; k < 5; k++) {
        int n = towerup_gen_moves(&s, moves), want = s.setup_colour[k];
        CHECK(n > 0);
        for (int i = 0; i < n; i++) {
            int site = towerup_move_site(moves[i]), c = towerup_move_colour(moves[i]);
            CHECK(towerup_move_kind(moves[i]) == TOWERUP_MOVE_PLACE);
            CHECK(want == TOWERUP_WILD || c == want);
            CHECK(!s.site[site] && !(s.board->nbr[site] & s.colour_mask[c]));
        }
        int empty_ok = 0;
        for (int site = 0; site < s.board->site_count; site++)
            for (int c = 0; c < 4; c++)
                empty_ok += (want == TOWERUP_WILD || c == want) && !s.site[site] &&
                            !(s.board->nbr[site] & s.colour_mask[c]);
        CHECK_EQ_INT(n, empty_ok);
        /* Place next to the previous floor when allowed, to exercise the colour rule. */
        towerup_make(&s, moves[n - 1], &u);
        CHECK_EQ_INT(s.turns, 0);
    }
    CHECK_EQ_INT(s.phase, TOWERUP_PHASE_PLAY);
    CHECK_EQ_INT(s.to_move, 1);
    CHECK_EQ_INT(s.reserve[0] + s.reserve[1] + s.reserve[2] + s.reserve[3], 4 * 26 - 5);

    /* Random set-up: the remembered placements replay to the same position. */
    game_options_t o;
    game_options_default(&o);
    o.players = 3;
    o.seed = 4242;
    test_option(&o, "start_floors=7");
    test_option(&o, "setup=random");
    towerup_state_t r, p;
    CHECK(towerup_new_game(&r, &o, err, sizeof err) == 0);
    CHECK_EQ_INT(r.phase, TOWERUP_PHASE_PLAY);
    CHECK_EQ_INT(r.setup_done, 7);
    CHECK_EQ_INT(r.to_move, r.first_player);
    test_option(&o, "setup=placed");
    CHECK(towerup_new_game(&p, &o, err, sizeof err) == 0);
    for (int k = 0; k < 7; k++)
        towerup_make(&p, towerup_move_place(r.setup_site[k], r.setup_floor[k]), &u);
    CHECK(!memcmp(p.site, r.site, sizeof p.site));
    CHECK(p.key == r.key);
}

static void expect_text_error(const towerup_state_t *s, const char *text, const char *what)
{
    move_t m;
    char err[GAME_ERR_MAX];
    int rc = towerup_move_from_text(s, text, &m, err, sizeof err);
    CHECK_MSG(rc < 0, "'%s' accepted", text);
    if (rc < 0)
        CHECK_MSG(strstr(err, what) != NULL, "'%s': wanted '%s', got '%s'", text, what, err);
}

static void check_text(void)
{
    towerup_state_t s;
    char err[GAME_ERR_MAX];
    CHECK(make_game(&s, 3, 5, 3, NULL, 0, err) == 0);
    static const char *const bad[] = {"P05K", "P5k", "P5",   "P64K",     "T1+GK",  "T1+K-K",
                                      "T4",   "T0",  "T1+",  "T1-",      "B5K^",   "B5K5",
                                      "x",    "",    "P5K ", "T1+KKKKK", "B5K^5^5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_text_error(&s, bad[i], "not a canonical Tower Up move");
    expect_text_error(&s, "B5K^5", "illegal: the starting floors must be placed first");
    expect_text_error(&s, "T1", "illegal: the starting floors must be placed first");
    expect_text_error(&s, "P60K", "illegal: there is no site 60");
    int want = s.setup_colour[0];
    if (want != TOWERUP_WILD) {
        char t[16];
        snprintf(t, sizeof t, "P5%c", "KGWB"[(want + 1) % 4]);
        expect_text_error(&s, t, "illegal: starting floor 1 must be");
    }
    /* Play the set-up, then check each build error. */
    move_t moves[GAME_MAX_MOVES];
    towerup_undo_t u;
    while (s.phase == TOWERUP_PHASE_SETUP) {
        towerup_gen_moves(&s, moves);
        towerup_make(&s, moves[0], &u);
    }
    expect_text_error(&s, "P7K", "illegal: the set-up is over");
    int built = __builtin_ctzll(s.occupied);
    char t[32];
    snprintf(t, sizeof t, "B%dK^%d", built, built);
    expect_text_error(&s, t, "is not empty");
    uint64_t lonely = s.board->all_sites & ~s.occupied & ~s.frontier;
    int far = __builtin_ctzll(lonely);
    snprintf(t, sizeof t, "B%dK^%d", far, far);
    expect_text_error(&s, t, "has no neighbouring building");
    int front = __builtin_ctzll(s.frontier), nc = -1;
    uint64_t nb = s.board->nbr[front] & s.occupied;
    nc = towerup_site_colour(&s, __builtin_ctzll(nb));
    snprintf(t, sizeof t, "B%d%c^%d", front, "KGWB"[nc], front);
    expect_text_error(&s, t, "neighbouring building of colour");
    for (int c = 0; c < 4; c++)
        if (!(nb & s.colour_mask[c])) {
            int away =
                __builtin_ctzll(s.board->all_sites & ~s.board->nbr[front] & ~(1ULL << front));
            snprintf(t, sizeof t, "B%d%c^%d", front, "KGWB"[c], away);
            expect_text_error(&s, t, "the roof must go on site");
            break;
        }
    expect_text_error(&s, "T1+KKKK", "illegal: the card in slot 1");
}

static void check_determinize(void)
{
    game_options_t o;
    game_options_default(&o);
    o.players = 4;
    o.seed = 99;
    test_option(&o, "setup=random");
    towerup_state_t s, t;
    char err[GAME_ERR_MAX];
    CHECK(towerup_new_game(&s, &o, err, sizeof err) == 0);
    pcg32_t rng;
    pcg32_seed(&rng, 8, 8);
    move_t moves[GAME_MAX_MOVES];
    towerup_undo_t u;
    for (int i = 0; i < 20; i++) {
        int n = towerup_gen_moves(&s, moves);
        towerup_make(&s, moves[pcg32_bounded(&rng, (uint32_t)n)], &u);
    }
    int changed = 0;
    for (int k = 0; k < 10; k++) {
        t = s;
        towerup_determinize(&t, t.to_move, &rng);
        CHECK_MSG(towerup_check(&t, err, sizeof err) == 0, "%s", err);
        CHECK(!memcmp(t.market, s.market, sizeof s.market));
        CHECK(t.discard == s.discard);
        CHECK(!memcmp(t.site, s.site, sizeof s.site));
        CHECK(!memcmp(t.supply, s.supply, sizeof s.supply));
        CHECK(t.draw_pos == s.draw_pos && t.draw_end == s.draw_end);
        uint64_t a = 0, b = 0;
        for (int i = s.draw_pos; i < s.draw_end; i++) {
            a |= 1ULL << s.draw[i];
            b |= 1ULL << t.draw[i];
        }
        CHECK(a == b);
        changed += memcmp(t.draw, s.draw, sizeof s.draw) != 0;
        CHECK_EQ_INT(towerup_gen_moves(&t, moves), towerup_gen_moves(&s, moves));
        /* The result depends only on rng, not on the hidden order it replaces. */
        towerup_state_t da = t, db = s;
        pcg32_t r1, r2;
        pcg32_seed(&r1, 5, (uint64_t)k);
        r2 = r1;
        towerup_determinize(&da, da.to_move, &r1);
        towerup_determinize(&db, db.to_move, &r2);
        CHECK(!memcmp(&da, &db, sizeof da));
    }
    CHECK(changed > 0);
}

/* The card table is the parse of its codes, and is the deck of RULES.md 1.4. */
static void check_cards(void)
{
    const towerup_card_t *cards = towerup_cards();
    int wild = 0, vehicle = 0, icons = 0;
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++) {
        towerup_card_t k;
        CHECK(towerup_card_parse(cards[i].code, &k) == 0);
        CHECK_MSG(!memcmp(&k, &cards[i], sizeof k), "card %d (%s)", i, cards[i].code);
        wild += cards[i].wild_icons;
        vehicle += cards[i].vehicle >= 0 ? cards[i].steps : 0;
        icons += cards[i].icon_count;
    }
    CHECK_EQ_INT(wild, 12);
    CHECK_EQ_INT(vehicle, 20);
    CHECK_EQ_INT(icons, 48 + 36 + 8 + 4 + 24);
    towerup_card_t k;
    CHECK(towerup_card_parse("KX", &k) < 0);
    CHECK(towerup_card_parse("K:K3", &k) < 0);
    CHECK(towerup_card_parse("", &k) < 0);
}

int main(void)
{
    check_cards();
    check_options();
    check_setup();
    check_text();
    check_determinize();
    return test_finish("test_towerup_setup");
}
