/*
 * Position notation (docs/NOTATION.md) of every registered game with one, on every
 * position of random games of every player count and for every observer:
 * text -> state -> text gives the same text, the parsed state passes check and (for the
 * player to move) has the same legal moves as text; resampling what an observer cannot see
 * never changes its text; bad texts give one-line errors naming the field.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/towerup/towerup.h"
#include "tests/test.h"

#define MAX_PLIES 2000

static char texts_a[GAME_MAX_MOVES][32], texts_b[GAME_MAX_MOVES][32];

/* Texts one character away from a valid one: refused in one line, or read into a state
   that has legal moves unless over and stays consistent for a few random moves. */
static void check_mutants(const char *text, uint64_t seed)
{
    static const char alphabet[] = "0123456789-./,:?*$sKGWB ";
    pcg32_t rng;
    pcg32_seed(&rng, seed, 13);
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    unsigned char undo[GAME_UNDO_MAX];
    for (int k = 0; k < 3 && moves; k++) {
        char m[GAME_POSITION_MAX], err[GAME_ERR_MAX] = "";
        snprintf(m, sizeof m, "%s", text);
        size_t len = strlen(m);
        m[pcg32_bounded(&rng, (uint32_t)len)] =
            alphabet[pcg32_bounded(&rng, (uint32_t)(sizeof alphabet - 1))];
        const game_api_t *api;
        void *t = game_position_read(m, NULL, seed, &api, NULL, err, sizeof err);
        if (!t) {
            CHECK_MSG(err[0] && !strchr(err, '\n'), "no one-line error for %s", m);
            continue;
        }
        for (int i = 0; i < 8; i++) {
            int n = api->gen_moves(t, moves);
            CHECK_MSG((n > 0) != api->is_terminal(t), "dead end after %d moves from %s", i, m);
            if (n <= 0)
                break;
            api->make(t, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
            CHECK_MSG(api->check(t, err, sizeof err) == 0, "%s after %d moves from %s", err, i + 1,
                      m);
        }
        free(t);
    }
    free(moves);
}

/* One position seen by observer: round trip, moves, and the text's independence from what
   the observer cannot see. */
static void check_view(const game_api_t *api, const void *s, int observer, uint64_t seed)
{
    char text[GAME_POSITION_MAX], again[GAME_POSITION_MAX], err[GAME_ERR_MAX];
    api->position_write(s, observer, text, sizeof text);
    CHECK_MSG(strlen(text) < sizeof text - 1 && !strchr(text, '\n'), "%s", text);
    const game_api_t *back_api = NULL;
    int view = -2;
    void *t = game_position_read(text, NULL, seed, &back_api, &view, err, sizeof err);
    CHECK_MSG(t != NULL, "%s: %s", text, err);
    if (!t)
        return;
    CHECK(back_api == api);
    api->position_write(t, observer, again, sizeof again);
    CHECK_MSG(!strcmp(text, again), "round trip\n  %s\n  %s", text, again);
    if (seed % 5 == 0)
        check_mutants(text, seed);
    CHECK(api->to_move(t) == api->to_move(s));
    CHECK(api->is_terminal(t) == api->is_terminal(s));
    if (observer == api->to_move(s) || observer < 0) {
        /* The mover's own view (or a game where the mover hides nothing from the public
           view, which shows as equal lists) gives the same moves. */
        int na = test_move_texts(api, s, texts_a), nb = test_move_texts(api, t, texts_b);
        if (observer == api->to_move(s))
            CHECK_MSG(test_same_moves("original", texts_a, na, "parsed", texts_b, nb),
                      "moves differ after %s", text);
    }
    /* What the observer cannot see, resampled twice: the same text. */
    unsigned char *d = malloc(api->state_size);
    for (int k = 0; k < 2 && d; k++) {
        api->copy(d, s);
        pcg32_t rng;
        pcg32_seed(&rng, seed + (uint64_t)k, 77);
        /* The public view sees less than any player: what player k % n cannot see is
           hidden from it too. */
        api->determinize(d, observer >= 0 ? observer : k % api->player_count(s), &rng);
        api->position_write(d, observer, again, sizeof again);
        CHECK_MSG(!strcmp(text, again), "hidden information shows\n  %s\n  %s", text, again);
    }
    free(d);
    free(t);
}

/* Tower Up games biased to takes (3 in 4 non-take picks redrawn), which reach shortages,
   final rounds and reshuffles that uniform play seldom does. */
static bool take_heavy;

static move_t pick_move(const game_api_t *api, const move_t *moves, int n, pcg32_t *rng)
{
    move_t m = moves[pcg32_bounded(rng, (uint32_t)n)];
    for (int k = 0;
         take_heavy && api == &towerup_api && k < 3 && towerup_move_kind(m) != TOWERUP_MOVE_TAKE;
         k++)
        m = moves[pcg32_bounded(rng, (uint32_t)n)];
    return m;
}

/* Texts seen with a shortage end and after a reshuffle (Tower Up coverage). */
static int shortage_texts, reshuffled_texts;

static int round_trips(const game_api_t *api, int players, int games, int every)
{
    int positions = 0;
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    unsigned char *s = malloc(api->state_size), undo[GAME_UNDO_MAX];
    for (int g = 0; g < games; g++) {
        game_options_t opt;
        game_options_default(&opt);
        opt.players = players;
        opt.seed = 1000u * (unsigned)players + (unsigned)g;
        char err[GAME_ERR_MAX];
        if (api->new_game(s, &opt, err, sizeof err) < 0) {
            CHECK_MSG(0, "%s", err);
            break;
        }
        pcg32_t rng;
        pcg32_seed(&rng, opt.seed, 5);
        for (int ply = 0; ply < MAX_PLIES; ply++) {
            bool over = api->is_terminal(s);
            if (ply % every == 0 || over) {
                for (int o = -1; o < players; o++)
                    check_view(api, s, o, opt.seed * 7919u + (unsigned)ply);
                positions++;
                if (api == &towerup_api) {
                    const towerup_state_t *t = (const towerup_state_t *)s;
                    shortage_texts += t->end_trigger == TOWERUP_END_SHORTAGE;
                    reshuffled_texts += towerup_reshuffle_count(t) > 0;
                }
            }
            if (over)
                break;
            int n = api->gen_moves(s, moves);
            api->make(s, pick_move(api, moves, n, &rng), undo);
        }
    }
    free(s);
    free(moves);
    return positions;
}

/* A text that must be refused, with an error of one line that names field. */
static void check_bad(const char *text, const char *field)
{
    char err[GAME_ERR_MAX] = "";
    void *t = game_position_read(text, NULL, 1, NULL, NULL, err, sizeof err);
    CHECK_MSG(t == NULL, "accepted: %s", text);
    free(t);
    CHECK_MSG(strstr(err, field) != NULL && !strchr(err, '\n'), "'%s' -> '%s' (want %s)", text, err,
              field);
}

/* base with field i (0 = the game's name) replaced by value must be refused naming field. */
static void check_bad_field(const char *base, int i, const char *value, const char *field)
{
    char text[GAME_POSITION_MAX], copy[GAME_POSITION_MAX], *f[32];
    snprintf(copy, sizeof copy, "%s", base);
    char err[GAME_ERR_MAX];
    int n = game_position_split(copy, f, 32, err, sizeof err);
    CHECK(n > i);
    text[0] = '\0';
    for (int k = 0; k < n; k++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", k ? " " : "",
                 k == i ? value : f[k]);
    check_bad(text, field);
}

static const char *towerup_base =
    "towerup duo 2 1 colors,park,areas 0 1 play 27 - "
    "..B-0....B-G--..G1G--0.W-K0G--B00-W1B-1K1-1..W-1-.K00W---..W1G-- WB:K1,BBWW,GB:K1 28 "
    "BBKK,GGWW,WWGG,WKG,KWB,GWB,WBG,**,**,*:G2,GW:K1,KG:W1,GW:B1 "
    "1,1,2,0/5,5,1,5/-/-/- 1,2,5,1/4,1,4,3/-/1/7";
static const char *uptown_base =
    "uptown 3 1 1 20 .2A......./1B.....07../.2$..2C..18./........./..23.0E...2s6/"
    ".12.0F.2F.../1G.....0G1s9./1H.03...0s92H./.02....... 0,0,0 "
    "145689ABCDHIs1s2s3s4s5s6s7s8$/????? 1345679ACDEFIs1s2s3s4s5s6s7s8$/35s3s5s7 "
    "12456789BDEGIs1s2s3s4s5s7s8s9/?????";

static void bad_towerup(void)
{
    char err[GAME_ERR_MAX];
    void *ok = game_position_read(towerup_base, NULL, 1, NULL, NULL, err, sizeof err);
    CHECK_MSG(ok != NULL, "%s", err);
    free(ok);
    check_bad_field(towerup_base, 1, "mars", "board 'mars': not a built-in board");
    check_bad_field(towerup_base, 2, "5", "players");
    check_bad_field(towerup_base, 2, "3", "position: towerup with 3 players takes 17");
    check_bad_field(towerup_base, 3, "2", "view");
    check_bad_field(towerup_base, 4, "colors,park", "objectives");
    check_bad_field(towerup_base, 4, "colors,park,colors", "objectives");
    check_bad_field(towerup_base, 5, "x", "turn");
    check_bad_field(towerup_base, 6, "2", "first");
    check_bad_field(towerup_base, 7, "setup:KG", "phase");
    check_bad_field(towerup_base, 7, "setup:Q", "phase");
    check_bad_field(towerup_base, 7, "middle", "phase");
    check_bad_field(towerup_base, 8, "401", "turns");
    check_bad_field(towerup_base, 9, "roof", "end");
    check_bad_field(towerup_base, 9, "roof:1", "end 'roof:1': player 1's trigger turn goes on");
    check_bad_field(towerup_base, 9, "fire:0/1", "end");
    check_bad_field(towerup_base, 10, "..B-0", "city '..B-0': 3 sites given, the board has 31");
    check_bad_field(towerup_base, 10,
                    "..B-0....B-G--..G1G--0.W-K0G--B00-W1B-1K1-1..W-1-.K00W---..W1G--.", "city");
    check_bad_field(towerup_base, 10,
                    "..X-0....B-G--..G1G--0.W-K0G--B00-W1B-1K1-1..W-1-.K00W---..W1G--", "city");
    check_bad_field(towerup_base, 10,
                    "..B-5....B-G--..G1G--0.W-K0G--B00-W1B-1K1-1..W-1-.K00W---..W1G--", "city");
    check_bad_field(towerup_base, 11, "WB:K1,BBWW", "market");
    check_bad_field(towerup_base, 11, "WB:K1,BBWW,ZZ", "market");
    check_bad_field(towerup_base, 12, "29", "pile");
    check_bad_field(towerup_base, 13, "**,**,**,**,**", "discard");
    check_bad_field(towerup_base, 14, "1,1,2/5,5,1,5/-/-/-",
                    "player 0 '1,1,2/5,5,1,5/-/-/-': the supply");
    check_bad_field(towerup_base, 14, "9,1,2,0/5,5,1,5/-/-/-",
                    "player 0 '9,1,2,0/5,5,1,5/-/-/-': the supply holds");
    check_bad_field(towerup_base, 14, "1,1,2,0/5,5,1,16/-/-/-",
                    "player 0 '1,1,2,0/5,5,1,16/-/-/-': the markers");
    check_bad_field(towerup_base, 14, "1,1,2,0/5,5,1,5/8/-/-",
                    "player 0 '1,1,2,0/5,5,1,5/8/-/-': the cone");
    check_bad_field(towerup_base, 14, "1,1,2,0/5,5,1,5/-/4/-",
                    "player 0 '1,1,2,0/5,5,1,5/-/4/-': objectives");
    check_bad_field(towerup_base, 14, "1,1,2,0/5,5,1,5/-/21/7,5",
                    "player 0 '1,1,2,0/5,5,1,5/-/21/7,5': objectives");
    check_bad_field(towerup_base, 14, "1,1,2,0/5,5,1,5/-/1/-",
                    "player 0 '1,1,2,0/5,5,1,5/-/1/-': the chips");
    check_bad_field(towerup_base, 14, "1,1,2,0/5,5,1,5/-/1/4",
                    "player 0 '1,1,2,0/5,5,1,5/-/1/4': chip 4 is not");
    check_bad_field(towerup_base, 14, "1,1,2,0/5,5,1,5/-/-",
                    "player 0 '1,1,2,0/5,5,1,5/-/-': must be");
    check_bad_field(towerup_base, 14, "1,1,2,0/5,5,1,5/-//-",
                    "player 0 '1,1,2,0/5,5,1,5/-//-': objectives");
    const char *setup = "towerup duo 2 - colors,park,areas 0 1 setup:B 0 - "
                        "K-K-............................. BBKK,WKG,** 41 - "
                        "1,1,1,1/0,0,0,0/-/-/- 1,1,1,1/0,0,0,0/-/-/-";
    check_bad(setup, "city: starting floors stand one floor high, never next to their colour");
    check_bad_field(setup, 8, "3", "turns '3': no turn is played during the set-up");
    check_bad_field(setup, 9, "roof:0", "end 'roof:0': no end is triggered during the set-up");
    check_bad_field(setup, 10, "K-.K0............................", "phase: no roof");
    check_bad_field(setup, 5, "1", "turn '1': the last player before the first");
    /* Impossible histories (issue 29): nothing moves before turn 1, a cone needs an end,
       the objectives met are what the roofs meet, and one way to write each field. */
    const char *fresh = "towerup duo 2 - colors,park,areas 0 1 setup:W* 0 - "
                        "..........B-.................... BBKK,WKG,** 41 - "
                        "1,1,1,1/0,0,0,0/-/-/- 1,1,1,1/0,0,0,0/-/-/-";
    ok = game_position_read(fresh, NULL, 1, NULL, NULL, err, sizeof err);
    CHECK_MSG(ok != NULL, "%s", err);
    free(ok);
    check_bad_field(fresh, 14, "1,1,1,1/1,0,0,0/-/-/-", "player 0: the markers stand in column 0");
    check_bad_field(fresh, 15, "1,1,1,1/0,0,0,0/0/-/-", "player 1: no cone is set");
    check_bad_field(fresh, 14, "1,1,1,1/0,0,0,0/-/1/7", "player 0: no objective is met");
    check_bad_field(fresh, 14, "2,1,1,1/0,0,0,0/-/-/-", "player 0: the supply is one floor");
    /* The first starting floors are the market's bottoms (B, W, * here), in order. */
    check_bad_field(fresh, 7, "setup:K*", "phase: starting floor 2 is 'K', but market slot 2's");
    check_bad_field(fresh, 10, "..........G-....................",
                    "city: 0 starting floors of B, but market slots 1-1 show 1 B");
    check_bad("towerup duo 2 - colors,park,areas 0 1 setup:BW* 0 - "
              "............................... BBKK,WKG,** 40 ** "
              "1,1,1,1/0,0,0,0/-/-/- 1,1,1,1/0,0,0,0/-/-/-",
              "discard '**': no card is taken during the set-up");
    check_bad_field(towerup_base, 8, "0", "phase: no roof is placed before turn 1");
    check_bad_field(towerup_base, 14, "1,1,2,0/5,5,1,5/3/-/-", "player 0: a cone is set only");
    check_bad_field(towerup_base, 7, "over", "phase: over only once the final round is done");
    check_bad_field(towerup_base, 9, "roof:0", "end: roof:0, but player 0 has");
    check_bad_field(towerup_base, 9, "shortage:0/2", "turn: player 1 plays the next final turn");
    check_bad_field(towerup_base, 14, "1,1,2,0/5,5,1,5/-/1/3", "player 0: objective 1 (colors)");
    check_bad_field(towerup_base, 15, "1,2,5,1/4,1,4,3/-/1/3", "chips: 0 chips of 7");
    check_bad_field(towerup_base, 15, "1,2,5,1/4,1,4,3/-/-/-", "player 1: the roofs meet");
    check_bad_field(
        towerup_base, 13, "GGWW,BBKK,WWGG,WKG,KWB,GWB,WBG,**,**,*:G2,GW:K1,KG:W1,GW:B1",
        "discard 'GGWW,BBKK,WWGG,WKG,KWB,GWB,WBG,**,**,*:G2,GW...': 'BBKK' is out of order");
    check_bad_field(towerup_base, 8, "027", "turns");
    check_bad_field(towerup_base, 12, "028", "pile");
    check_bad_field(towerup_base, 14, "01,1,2,0/5,5,1,5/-/-/-",
                    "player 0 '01,1,2,0/5,5,1,5/-/-/-': the supply");
    check_bad_field(towerup_base, 15, "1,2,5,1/4,1,4,3/-/1/07",
                    "player 1 '1,2,5,1/4,1,4,3/-/1/07': the chips");
}

static void bad_uptown(void)
{
    char err[GAME_ERR_MAX];
    void *ok = game_position_read(uptown_base, NULL, 1, NULL, NULL, err, sizeof err);
    CHECK_MSG(ok != NULL, "%s", err);
    free(ok);
    check_bad_field(uptown_base, 1, "6", "players");
    check_bad_field(uptown_base, 1, "2", "position: uptown with 2 players takes 11");
    check_bad_field(uptown_base, 2, "3", "view");
    check_bad_field(uptown_base, 3, "3", "turn");
    check_bad_field(uptown_base, 4, "x", "moves");
    check_bad_field(uptown_base, 4, "21", "moves '21': player");
    check_bad_field(uptown_base, 5,
                    "........./........./........./........./........./"
                    "........./........./........./........",
                    "grid '........./........./........./........./.......': cell I9 is not");
    check_bad_field(uptown_base, 5,
                    ".2A......./1B.....07../.2$..2C..18./........./..23.0E...2s6/"
                    ".12.0F.2F.../1G.....0G1s9./1H.03...0s92H./.51.......",
                    "grid '.2A......./1B.....07../.2$..2C..18./...........': cell I2 is not");
    check_bad_field(
        uptown_base, 5,
        ".2B......./1B.....07../.2$..2C..18./........./..23.0E...2s6/"
        ".12.0F.2F.../1G.....0G1s9./1H.03...0s92H./.02.......",
        "grid '.2B......./1B.....07../.2$..2C..18./...........': tile B may not stand on A2");
    check_bad_field(uptown_base, 6, "0,0", "captures");
    check_bad_field(uptown_base, 6, "00,0,0", "captures '00,0,0': '00'");
    check_bad_field(uptown_base, 4, "020", "moves");
    check_bad_field(uptown_base, 3, "01", "turn");
    check_bad_field(uptown_base, 6, "0,9,0", "captures: 9 captures");
    check_bad_field(uptown_base, 7, "145689ABCDHIs1s2s3s4s5s6s7s8$",
                    "colour 0 '145689ABCDHIs1s2s3s4s5s6s7s8$': must be");
    check_bad_field(uptown_base, 7, "6s7s8$/?????",
                    "colour 0 '6s7s8$/????\?': a rack of 5 tiles, but only 4");
    check_bad_field(uptown_base, 7, "145689ABCDHIs1s2s3s4s5s6s7s8$/14568",
                    "colour 0 '145689ABCDHIs1s2s3s4s5s6s7s8$/14568': this view");
    check_bad_field(uptown_base, 7, "541689ABCDHIs1s2s3s4s5s6s7s8$/?????",
                    "colour 0 '541689ABCDHIs1s2s3s4s5s6s7s8$/????\?': tiles");
    check_bad_field(uptown_base, 7, "145689ABCDHIs1s2s3s4s5s6s7s8$/????",
                    "colour 0 '145689ABCDHIs1s2s3s4s5s6s7s8$/???\?': the rack");
    check_bad_field(uptown_base, 7, "145689ABCDHIs1s2s3s4s5s6s7s8s0/?????",
                    "colour 0 '145689ABCDHIs1s2s3s4s5s6s7s8s0/????\?': not");
    check_bad_field(uptown_base, 8, "1345679ACDEFIs1s2s3s4s5s6s7s8$/?????",
                    "colour 1 '1345679ACDEFIs1s2s3s4s5s6s7s8$/????\?': the rack is seen");
    check_bad_field(uptown_base, 8, "1345679ACDEFIs1s2s3s4s5s6s7s8$/235s3s5",
                    "colour 1 '1345679ACDEFIs1s2s3s4s5s6s7s8$/235s3s5': a rack tile");
    check_bad_field(uptown_base, 8, "12345679ACDEFIs1s2s3s4s5s6s7s8$/35s3s5s7",
                    "colour 1 '12345679ACDEFIs1s2s3s4s5s6s7s8$/35s3s5s7': a tile on the board");
}

static void bad_texts(void)
{
    bad_towerup();
    bad_uptown();
    check_bad("", "position");
    check_bad("chess rnbqkbnr/pppppppp 0", "position: the first word 'chess' is not a game");
    check_bad("connect4  ......./......./......./......./......./....... 0", "empty");
    check_bad("connect4 ......./......./......./......./......./....... 0 x", "position");
    check_bad("connect4 ......./......./......./......./......./...... 0",
              "grid '......./......./......./......./......./......': must be 6 rows");
    check_bad("connect4 ......./......./......./......./.......-....... 0",
              "grid '......./......./......./......./.......-.......': row 5");
    check_bad("connect4 ......./......./......./......./0....../....... 1",
              "grid '......./......./......./......./0....../.......': a stone floats");
    check_bad("connect4 ......./......./......./......./......./.....2. 0", "grid");
    check_bad("connect4 ......./......./......./......./......./00..... 1",
              "grid '......./......./......./......./......./00.....': player 0 has 2");
    check_bad("connect4 ......./......./......./......./......./0...... 0", "turn");
    check_bad("connect4 ......./......./......./......./......./....... 2", "turn");
    check_bad("connect4 ......./......./0....../0....../0....../01111.. 0", "four in a line");
    check_bad("connect4 ......./......./......./......./......./......\t 0", "printable");
    /* A game ends at its first line of four: two lines apart are never both the last
       move's (one stone finishing two lines is, below), and the stones must drop in turn. */
    check_bad("connect4 ......./......./......./11...../1110000/0000111 1",
              "grid: player 0 has lines of four that no single last stone made");
    check_bad("connect4 ......./......./1....../1....../0....../0...... 0",
              "grid: no game reaches it");
    check_bad("connect4 ......./......./......./1....../0....../0...... 1",
              "grid: no game reaches it");
    char err[GAME_ERR_MAX];
    void *two = game_position_read("connect4 ......./......./......1/.....10/10..100/1111000 0",
                                   NULL, 1, NULL, NULL, err, sizeof err);
    CHECK_MSG(two != NULL, "a stone finishing two lines: %s", err);
    free(two);
}

/* Every example line of docs/NOTATION.md (a line that starts with a game's name in a code
   block) reads and writes back unchanged from its own view. */
static void doc_examples(void)
{
    char *doc = test_read_file(SKYLINE_SOURCE_DIR "/docs/NOTATION.md");
    int examples = 0;
    bool code = false;
    for (char *line = strtok(doc, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "```", 3)) {
            code = !code;
            continue;
        }
        char err[GAME_ERR_MAX], again[GAME_POSITION_MAX];
        if (!code || !game_position_game(line, err, sizeof err))
            continue;
        const game_api_t *api;
        int view;
        void *s = game_position_read(line, NULL, 3, &api, &view, err, sizeof err);
        CHECK_MSG(s != NULL, "docs/NOTATION.md: %s: %s", line, err);
        if (!s)
            continue;
        api->position_write(s, view, again, sizeof again);
        CHECK_MSG(!strcmp(line, again), "docs/NOTATION.md example\n  %s\n  %s", line, again);
        free(s);
        examples++;
    }
    CHECK_MSG(examples >= 3, "only %d examples in docs/NOTATION.md", examples);
    free(doc);
}

int main(void)
{
    doc_examples();
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        if (!api->position_write)
            continue;
        for (int p = api->min_players; p <= api->max_players; p++) {
            int n = round_trips(api, p, 12, 1);
            CHECK_MSG(n > 100, "%s %d players: only %d positions", api->name, p, n);
        }
    }
    take_heavy = true;
    for (int p = 2; p <= TOWERUP_MAX_PLAYERS; p++)
        round_trips(&towerup_api, p, 12, 1);
    CHECK_MSG(shortage_texts > 0 && reshuffled_texts > 0,
              "take-heavy Tower Up games: %d shortage and %d reshuffled positions", shortage_texts,
              reshuffled_texts);
    printf("take-heavy Tower Up: %d shortage, %d reshuffled positions\n", shortage_texts,
           reshuffled_texts);
    bad_texts();
    return test_finish("test_position");
}
