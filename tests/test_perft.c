/*
 * Perft counts stored in tests/perft.txt (Ethereal/Stockfish style), checked for both games:
 * any change to move generation, make/undo or the seeded set-up shows up here. Each line:
 *   GAME PLAYERS SEED SETUP D1 D2 D3 D4
 * SETUP is Tower Up's set-up (placed or random: with random the counts start after the
 * starting floors, in the first turns), - for Uptown.
 * Also checks that bulk counting and full make/undo agree, that perft leaves the
 * state's bytes unchanged, and that a position not over but without moves (a broken game
 * table stands in for a broken engine) is reported with the moves that lead to it.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/lines.h"
#include "core/towerup/towerup.h"
#include "tests/test.h"

/* Tower Up, except that set-up is stuck once site 0 holds a floor and `placed` are down. */
static int stuck_placed;
static int gen_stuck(const void *state, move_t *moves)
{
    const towerup_state_t *s = state;
    if (s->phase == TOWERUP_PHASE_SETUP && s->site[0] && s->setup_done == stuck_placed)
        return 0;
    return towerup_gen_moves(s, moves);
}

static void check_dead_end(void)
{
    game_api_t broken = towerup_api;
    broken.gen_moves = gen_stuck;
    game_options_t opt;
    game_options_default(&opt);
    opt.players = 2;
    opt.seed = 1;
    towerup_state_t s, copy;
    char err[GAME_ERR_MAX];
    CHECK(towerup_new_game(&s, &opt, err, sizeof err) == 0);
    copy = s;
    uint64_t n;
    stuck_placed = 1;
    CHECK(game_perft_checked(&broken, &s, 1, false, &n, err, sizeof err) == 0 && n == 31);
    for (int full = 0; full < 2; full++) {
        CHECK(game_perft_checked(&broken, &s, 2, full, &n, err, sizeof err) < 0);
        CHECK_MSG(strstr(err, "position after 'P0") && strstr(err, "not over but has no legal"),
                  "%s", err);
        CHECK(memcmp(&s, &copy, sizeof s) == 0);
    }
    stuck_placed = 2;
    CHECK(game_perft_checked(&broken, &s, 4, false, &n, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "position after 'P0") && strchr(err, ' ') && strstr(err, "' is not over"),
              "%s", err);
    char a[8], b[8];
    CHECK_MSG(sscanf(err, "the position after '%7s %7[^']'", a, b) == 2, "%s", err);
    CHECK(memcmp(&s, &copy, sizeof s) == 0);
    CHECK(game_perft_checked(&towerup_api, &s, 3, false, &n, err, sizeof err) == 0);
    CHECK(n == game_perft(&towerup_api, &s, 3));
}

int main(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/perft.txt", SKYLINE_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return test_finish("test_perft");
    lines_reader_t lr;
    lines_init(&lr, f);
    int cases = 0;
    while (lines_next(&lr) > 0) {
        const char *line = lr.text;
        if (line[0] == '#' || line[0] == 0)
            continue;
        char game[32], setup[16];
        int players;
        unsigned long long seed, want[4];
        if (sscanf(line, "%31s %d %llu %15s %llu %llu %llu %llu", game, &players, &seed, setup,
                   &want[0], &want[1], &want[2], &want[3]) != 8) {
            CHECK_MSG(0, "bad line in perft.txt: %s", line);
            continue;
        }
        const game_api_t *api = game_find(game);
        CHECK(api != NULL);
        if (!api)
            continue;
        game_options_t opt;
        game_options_default(&opt);
        opt.players = players;
        opt.seed = seed;
        if (!strcmp(setup, "random"))
            test_option(&opt, "setup=random");
        void *state = malloc(api->state_size), *copy = malloc(api->state_size);
        char err[GAME_ERR_MAX];
        CHECK(api->new_game(state, &opt, err, sizeof err) == 0);
        memcpy(copy, state, api->state_size);
        for (int d = 1; d <= 4; d++) {
            uint64_t n = game_perft(api, state, d);
            CHECK_MSG(n == want[d - 1], "%s %d players seed %llu %s depth %d: %llu, stored %llu",
                      game, players, seed, setup, d, (unsigned long long)n, want[d - 1]);
        }
        CHECK(game_perft_full(api, state, 3) == want[2]);
        CHECK(memcmp(state, copy, api->state_size) == 0);
        free(state);
        free(copy);
        cases++;
    }
    lines_free(&lr);
    fclose(f);
    CHECK(cases >= 8);
    check_dead_end();
    return test_finish("test_perft");
}
