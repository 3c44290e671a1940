/*
 * game_api_t.chance_outcomes against the rules: in random Tower Up and Uptown games, every
 * legal move's outcomes sum to 1, the card or tile the move then draws is one of them (and
 * a move that draws nothing has none), and over determinizations for the player to move
 * (the hidden order redrawn) each outcome is drawn about as often as its probability says.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "test.h"

#define MAXO 64

/* What move m of s drew, as an outcome text (into out), or 0 if it drew nothing. */
static int drawn(const game_api_t *api, const void *s, move_t m, char *out)
{
    _Alignas(16) unsigned char after[sizeof(towerup_state_t) > sizeof(uptown_state_t)
                                         ? sizeof(towerup_state_t)
                                         : sizeof(uptown_state_t)];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    api->copy(after, s);
    api->make(after, m, undo);
    if (api == &towerup_api) {
        if (towerup_move_kind(m) != TOWERUP_MOVE_TAKE)
            return 0;
        const towerup_state_t *t = (const void *)after;
        strcpy(out, towerup_cards()[t->market[towerup_move_slot(m)]].code);
        return 1;
    }
    const uptown_state_t *u0 = s, *u1 = (const void *)after;
    int c = uptown_move_colour(m);
    uint32_t got = u1->rack[c] & ~u0->rack[c];
    if (!got)
        return 0;
    strcpy(out, uptown_tile_name(__builtin_ctz(got)));
    return 1;
}

static int find(char (*text)[GAME_MOVE_TEXT_MAX], int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(text[i], what))
            return i;
    return -1;
}

/* Every legal move of s: outcomes summing to 1 that hold what the move draws. */
static void check_moves(const game_api_t *api, const void *s)
{
    move_t moves[GAME_MAX_MOVES];
    int nm = api->gen_moves(s, moves);
    for (int i = 0; i < nm; i += 1 + nm / 40) {
        char text[MAXO][GAME_MOVE_TEXT_MAX], got[GAME_MOVE_TEXT_MAX], err[GAME_ERR_MAX];
        double prob[MAXO], sum = 0;
        int n = api->chance_outcomes(s, &moves[i], text, prob, MAXO, err, sizeof err);
        CHECK_MSG(n >= 0, "%s: %s", api->name, err);
        for (int k = 0; k < n; k++)
            sum += prob[k];
        int d = drawn(api, s, moves[i], got);
        CHECK_MSG(d == (n > 0), "%s: the move draws %d, %d outcomes", api->name, d, n);
        if (d && n > 0) {
            CHECK(fabs(sum - 1) < 1e-9);
            CHECK_MSG(find(text, n, got) >= 0, "%s: drew %s, not an outcome", api->name, got);
        }
    }
}

/* Over determinizations of s for the mover, move m draws each outcome about as often as
   its probability (4000 draws: within 0.035 of it). */
static void check_frequencies(const game_api_t *api, const void *s, move_t m)
{
    char text[MAXO][GAME_MOVE_TEXT_MAX], got[GAME_MOVE_TEXT_MAX], err[GAME_ERR_MAX];
    double prob[MAXO];
    int n = api->chance_outcomes(s, &m, text, prob, MAXO, err, sizeof err);
    CHECK(n > 1);
    int seen[MAXO] = {0}, draws = 4000;
    void *d = malloc(api->state_size);
    pcg32_t rng;
    pcg32_seed(&rng, 77, 1);
    for (int k = 0; k < draws; k++) {
        api->copy(d, s);
        api->determinize(d, api->to_move(s), &rng);
        if (drawn(api, d, m, got)) {
            int at = find(text, n, got);
            CHECK(at >= 0);
            seen[at < 0 ? 0 : at]++;
        }
    }
    for (int i = 0; i < n; i++)
        CHECK_MSG(fabs((double)seen[i] / draws - prob[i]) < 0.035, "%s: %s drawn %d of %d, p %.3f",
                  api->name, text[i], seen[i], draws, prob[i]);
    free(d);
}

static void run_game(const game_api_t *api, int players, uint64_t seed)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = players;
    opt.seed = seed;
    char err[GAME_ERR_MAX];
    void *s = malloc(api->state_size);
    CHECK(api->new_game(s, &opt, err, sizeof err) == 0);
    pcg32_t rng;
    pcg32_seed(&rng, seed, 3);
    move_t moves[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    bool freq = false;
    for (int ply = 0; !api->is_terminal(s); ply++) {
        if (ply % 3 == 0)
            check_moves(api, s);
        int n = api->gen_moves(s, moves);
        move_t m = moves[pcg32_bounded(&rng, (uint32_t)n)];
        char text[MAXO][GAME_MOVE_TEXT_MAX];
        double prob[MAXO];
        if (!freq && ply > 20 &&
            api->chance_outcomes(s, &m, text, prob, MAXO, err, sizeof err) > 1) {
            check_frequencies(api, s, m);
            freq = true;
        }
        api->make(s, m, undo);
    }
    char text[MAXO][GAME_MOVE_TEXT_MAX];
    double prob[MAXO];
    CHECK_EQ_INT(api->chance_outcomes(s, NULL, text, prob, MAXO, err, sizeof err), 0);
    free(s);
}

int main(void)
{
    for (int players = 2; players <= 4; players++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            run_game(&towerup_api, players, seed);
    for (int players = 2; players <= 5; players++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            run_game(&uptown_api, players, seed);
    CHECK(game_find("connect4")->chance_outcomes == NULL);
    return test_finish("test_chance");
}
