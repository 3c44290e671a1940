/*
 * The engines' invariant "no legal move if and only if the game is over", for every board
 * a Tower Up game accepts (core/rules-notes.md, Tower Up 2) and for Uptown: the board check
 * against an exhaustive search of set-ups on small boards, then random games on small and
 * odd boards, every player count and starting-floor count, checking every position; then
 * random games of every registered game.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/textbuf.h"
#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "tests/test.h"

/* A random connected board of n sites with at most 5 streets per site, as board text. */
static void random_board_text(pcg32_t *r, int n, int extra, char *text, size_t len)
{
    int deg[TOWERUP_MAX_SITES] = {0};
    uint64_t nbr[TOWERUP_MAX_SITES] = {0};
    textbuf_t t;
    textbuf_init(&t, text, len, 0);
    textbuf_printf(&t, "board r%d\narea 0 a grey\narea 1 b grey\narea 2 c\narea 3 d\narea 4 e\n",
                   n);
    for (int i = 0; i < n; i++)
        textbuf_printf(&t, "site %d %d 0 %d%s\n", i, i, i % 5, i % 3 ? "" : " park");
    for (int i = 1; i < n; i++) {
        int j;
        do
            j = (int)pcg32_bounded(r, (uint32_t)i);
        while (deg[j] >= TOWERUP_MAX_DEGREE);
        deg[i]++, deg[j]++;
        nbr[i] |= 1ULL << j;
        nbr[j] |= 1ULL << i;
        textbuf_printf(&t, "street %d %d\n", j, i);
    }
    for (int e = 0; e < extra; e++) {
        int a = (int)pcg32_bounded(r, (uint32_t)n), b = (int)pcg32_bounded(r, (uint32_t)n);
        if (a == b || (nbr[a] >> b & 1) || deg[a] >= TOWERUP_MAX_DEGREE ||
            deg[b] >= TOWERUP_MAX_DEGREE)
            continue;
        deg[a]++, deg[b]++;
        nbr[a] |= 1ULL << b;
        nbr[b] |= 1ULL << a;
        textbuf_printf(&t, "street %d %d\n", a, b);
    }
}

/*
 * Exhaustive: whether some set-up of k floors gets stuck. Placements are legal in any
 * order, so sets are listed once (sites increasing) with every colouring; at each set the
 * next floor may be any colour.
 */
static bool setup_can_stick(const towerup_board_t *b, int k, uint64_t colour_mask[4], int placed,
                            int next_site)
{
    uint64_t occupied = colour_mask[0] | colour_mask[1] | colour_mask[2] | colour_mask[3];
    for (int c = 0; c < 4; c++) {
        uint64_t open = b->all_sites & ~occupied;
        for (uint64_t x = colour_mask[c]; x; x &= x - 1)
            open &= ~b->nbr[__builtin_ctzll(x)];
        if (!open)
            return true;
    }
    if (placed + 1 == k)
        return false;
    for (int site = next_site; site < b->site_count; site++)
        for (int c = 0; c < 4; c++) {
            uint64_t bit = 1ULL << site;
            bool near_same = false;
            for (uint64_t x = colour_mask[c]; x; x &= x - 1)
                near_same |= (b->nbr[__builtin_ctzll(x)] & bit) != 0;
            if (near_same)
                continue;
            colour_mask[c] |= bit;
            bool stuck = setup_can_stick(b, k, colour_mask, placed + 1, site + 1);
            colour_mask[c] &= ~bit;
            if (stuck)
                return true;
        }
    return false;
}

static void check_fits_exhaustive(void)
{
    static char text[8192];
    towerup_board_t *b = malloc(sizeof *b);
    char err[GAME_ERR_MAX];
    pcg32_t r;
    pcg32_seed(&r, 18, 1);
    int accepted = 0, refused = 0;
    for (int t = 0; t < 300; t++) {
        int n = 2 + (int)pcg32_bounded(&r, 10);
        random_board_text(&r, n, (int)pcg32_bounded(&r, (uint32_t)(2 * n)), text, sizeof text);
        CHECK_MSG(towerup_board_load_text(b, text, "r", err, sizeof err) == 0, "%s", err);
        for (int k = 3; k <= (n <= 7 ? 5 : 4); k++) {
            uint64_t cm[4] = {0};
            bool stick = setup_can_stick(b, k, cm, 0, 0);
            int rc = towerup_setup_fits(b, k, err, sizeof err);
            CHECK_MSG((rc < 0) == stick, "board %d sites, %d floors: %s", n, k,
                      rc < 0 ? err : "accepted");
            accepted += rc == 0;
            refused += rc < 0;
        }
    }
    CHECK(accepted > 50 && refused > 50);
    free(b);
}

/* Random games from one board: every position has a move iff it is not over. */
static int play_towerup(const towerup_board_t *b, int players, int start, uint64_t seed,
                        bool setup_random)
{
    pcg32_t r;
    pcg32_seed(&r, seed, 3);
    uint8_t deck[TOWERUP_CARD_COUNT], start_col[TOWERUP_MAX_START_FLOORS];
    uint8_t objectives[3] = {TOWERUP_OBJ_COLORS, TOWERUP_OBJ_PARK, TOWERUP_OBJ_AREAS};
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++)
        deck[i] = (uint8_t)i;
    pcg32_shuffle_u8(&r, deck, TOWERUP_CARD_COUNT);
    const towerup_card_t *cards = towerup_cards();
    for (int i = 0; i < start; i++)
        start_col[i] = cards[deck[i]].bottom;
    towerup_state_t s;
    char err[GAME_ERR_MAX];
    int rc = towerup_new_from(&s, b, players, (int)(seed % (uint64_t)players), objectives, deck,
                              start_col, start, seed, err, sizeof err);
    if (rc < 0)
        return -1;
    move_t moves[GAME_MAX_MOVES];
    towerup_undo_t u;
    int plies = 0;
    for (;;) {
        int n = towerup_gen_moves(&s, moves);
        bool over = towerup_api.is_terminal(&s);
        CHECK_MSG((n == 0) == over,
                  "%d sites, %d players, %d floors, seed %llu, ply %d: "
                  "%d moves, over %d",
                  b->site_count, players, start, (unsigned long long)seed, plies, n, over);
        if (!n || over)
            break;
        /* Set-up: the placer, or like --setup random; later mostly builds, to fill the
           board and run the supply and the roofs down. */
        move_t m = moves[pcg32_bounded(&r, (uint32_t)n)];
        int first_build = 0;
        while (first_build < n && towerup_move_kind(moves[first_build]) != TOWERUP_MOVE_BUILD)
            first_build++;
        if (!setup_random && first_build < n && pcg32_bounded(&r, 4))
            m = moves[first_build + (int)pcg32_bounded(&r, (uint32_t)(n - first_build))];
        towerup_make(&s, m, &u);
        plies++;
    }
    return 0;
}

static void check_towerup_games(void)
{
    static char text[8192];
    towerup_board_t *b = malloc(sizeof *b);
    char err[GAME_ERR_MAX];
    pcg32_t r;
    pcg32_seed(&r, 18, 2);
    int games = 0, refused = 0;
    for (int t = 0; t < 60; t++) {
        int n = 3 + (int)pcg32_bounded(&r, 30);
        random_board_text(&r, n, (int)pcg32_bounded(&r, (uint32_t)(3 * n)), text, sizeof text);
        CHECK_MSG(towerup_board_load_text(b, text, "r", err, sizeof err) == 0, "%s", err);
        for (int players = 2; players <= 4; players++)
            for (int start = 3; start <= (players == 4 ? 5 : 7); start += 2) {
                uint64_t seed = (uint64_t)t * 100 + (uint64_t)players * 10 + (uint64_t)start;
                if (play_towerup(b, players, start, seed, t % 2) < 0)
                    refused++;
                else
                    games++;
            }
    }
    CHECK(games > 200 && refused > 50);
    const char *builtin[] = {"duo", "standard"};
    for (int i = 0; i < 2; i++)
        for (int players = 2; players <= 4; players++)
            for (uint64_t seed = 0; seed < 4; seed++)
                CHECK(play_towerup(towerup_board_builtin(builtin[i]), players, players == 4 ? 5 : 7,
                                   seed, seed % 2) == 0);
    free(b);
}

static void check_uptown_games(void)
{
    for (int players = 2; players <= 5; players++)
        for (uint64_t seed = 0; seed < 30; seed++) {
            game_options_t o;
            game_options_default(&o);
            o.players = players;
            o.seed = seed;
            uptown_state_t s;
            char err[GAME_ERR_MAX];
            CHECK_MSG(uptown_new_game(&s, &o, err, sizeof err) == 0, "%s", err);
            pcg32_t r;
            pcg32_seed(&r, seed, 4);
            move_t moves[GAME_MAX_MOVES];
            _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
            for (;;) {
                int n = uptown_gen_moves(&s, moves);
                bool over = uptown_api.is_terminal(&s);
                CHECK_MSG((n == 0) == over, "%d players, seed %llu: %d moves, over %d", players,
                          (unsigned long long)seed, n, over);
                if (!n || over)
                    break;
                uptown_api.make(&s, moves[pcg32_bounded(&r, (uint32_t)n)], undo);
            }
        }
}

/* Every registered game through its table: random games, every player count. */
/* Each option of the game whose values are a list of words ("placed|random") set to the
   second word: the registry games played with their other set-ups too, no game named. */
static void set_other_choices(const game_api_t *api, game_options_t *o)
{
    for (int i = 0; i < api->option_count; i++) {
        const game_option_spec_t *spec = &api->options[i];
        const char *bar = strchr(spec->value, '|');
        size_t n = bar ? strcspn(bar + 1, "|") : 0;
        bool words = n > 0 && islower((unsigned char)spec->value[0]);
        for (size_t k = 0; words && k < n; k++)
            words = islower((unsigned char)bar[1 + k]);
        if (!words)
            continue;
        test_option(o, "%s=%.*s", spec->key, (int)n, bar + 1);
    }
}

static void check_registry_games(void)
{
    for (int g = 0; g < game_count(); g++) {
        const game_api_t *api = game_at(g);
        void *s = malloc(api->state_size);
        _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
        move_t moves[GAME_MAX_MOVES];
        for (int players = api->min_players; players <= api->max_players; players++)
            for (uint64_t seed = 0; seed < 10; seed++) {
                game_options_t o;
                game_options_default(&o);
                o.players = players;
                o.seed = seed;
                if (seed % 2)
                    set_other_choices(api, &o);
                char err[GAME_ERR_MAX];
                CHECK_MSG(api->new_game(s, &o, err, sizeof err) == 0, "%s: %s", api->name, err);
                pcg32_t r;
                pcg32_seed(&r, seed, 5);
                for (int ply = 0;; ply++) {
                    int n = api->gen_moves(s, moves);
                    bool over = api->is_terminal(s);
                    CHECK_MSG((n == 0) == over, "%s, %d players, seed %llu, ply %d: %d moves",
                              api->name, players, (unsigned long long)seed, ply, n);
                    if (!n || over)
                        break;
                    api->make(s, moves[pcg32_bounded(&r, (uint32_t)n)], undo);
                }
            }
        free(s);
    }
}

int main(void)
{
    check_fits_exhaustive();
    check_towerup_games();
    check_uptown_games();
    check_registry_games();
    return test_finish("test_no_dead_end");
}
