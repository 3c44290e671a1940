/*
 * Tournament scheduling: blocks share a deal and rotate the line-up over every seat, every
 * pair of bots meets equally often per cycle (round robin and gauntlet, more or fewer bots
 * than seats), seeds and seats depend only on the seed and the index; the configuration
 * hash covers what changes the games and nothing else.
 */
#include <string.h>

#include "arena/tournament.h"
#include "tests/test.h"

/* Checks one cycle of line-ups (cycles blocks, starting at block first). */
static void check_cycle(int bot_count, int players, tournament_format_t format, uint64_t seed,
                        long first, long cycles)
{
    char err[256];
    tournament_schedule_t s;
    CHECK(tournament_schedule_init(&s, bot_count, players, format, seed, err, sizeof err) == 0);
    long blocks = s.lineup_count * cycles;
    long meet[TOURNAMENT_MAX_BOTS][TOURNAMENT_MAX_BOTS] = {{0}};
    long seat_count[TOURNAMENT_MAX_BOTS][GAME_MAX_PLAYERS] = {{0}};
    for (long b = first; b < first + blocks; b++) {
        uint64_t seed0 = 0;
        int block_seats[GAME_MAX_PLAYERS][GAME_MAX_PLAYERS];
        for (int r = 0; r < players; r++) {
            uint64_t gs;
            int bots[GAME_MAX_PLAYERS] = {0}, again[GAME_MAX_PLAYERS] = {0};
            tournament_schedule_game(&s, b * players + r, &gs, bots);
            /* The same answer every time. */
            uint64_t gs2;
            tournament_schedule_game(&s, b * players + r, &gs2, again);
            CHECK(gs == gs2 && !memcmp(bots, again, sizeof bots));
            if (r == 0)
                seed0 = gs;
            CHECK(gs == seed0); /* one deal per block */
            for (int p = 0; p < players; p++) {
                block_seats[r][p] = bots[p];
                seat_count[bots[p]][p]++;
                for (int q = 0; q < players; q++)
                    if (q != p)
                        meet[bots[p]][bots[q]]++;
            }
        }
        /* Rotations: seat p of rotation r holds what seat p+1 held in rotation r-1. */
        for (int r = 1; r < players; r++)
            for (int p = 0; p < players; p++)
                CHECK(block_seats[r][p] == block_seats[r - 1][(p + 1) % players]);
        uint64_t next_seed;
        int bots[GAME_MAX_PLAYERS];
        tournament_schedule_game(&s, (b + 1) * players, &next_seed, bots);
        CHECK(next_seed != seed0);
    }
    /* Every pair among the round-robin bots (or every bot with bot 0 in a gauntlet) meets
       equally often, and every bot sits in every seat equally often. */
    bool gauntlet = format == TOURNAMENT_GAUNTLET && bot_count >= players;
    long ref = -1;
    for (int a = 0; a < bot_count; a++)
        for (int b = 0; b < bot_count; b++) {
            if (a == b || (gauntlet && a != 0 && b != 0))
                continue;
            if (ref < 0)
                ref = meet[a][b];
            CHECK_MSG(meet[a][b] == ref && ref > 0, "%d bots %d players: %d-%d meet %ld, not %ld",
                      bot_count, players, a, b, meet[a][b], ref);
        }
    for (int a = 0; a < bot_count; a++)
        for (int p = 1; p < players; p++)
            CHECK(seat_count[a][p] == seat_count[a][0]);
    if (gauntlet)
        CHECK(seat_count[0][0] == blocks);
    tournament_schedule_free(&s);
}

static void check_hash(void)
{
    tournament_config_t a;
    memset(&a, 0, sizeof a);
    a.api = game_find("towerup");
    game_options_default(&a.opt);
    a.opt.players = 3;
    a.opt.seed = 7;
    a.bot_count = 2;
    a.specs[0] = "random";
    a.specs[1] = "mcts:iters=100";
    a.games = 30;
    a.shard_count = 1;
    char h0[TOURNAMENT_HASH_LEN + 1], h1[TOURNAMENT_HASH_LEN + 1];
    tournament_config_hash(&a, h0);
    CHECK(strlen(h0) == TOURNAMENT_HASH_LEN);
    tournament_config_t b = a;
    b.games = 300;
    b.workers = 4;
    b.shard_count = 3;
    b.shard_index = 1;
    tournament_config_hash(&b, h1);
    CHECK(!strcmp(h0, h1));
    b = a;
    b.opt.seed = 8;
    tournament_config_hash(&b, h1);
    CHECK(strcmp(h0, h1));
    b = a;
    b.specs[1] = "mcts:iters=101";
    tournament_config_hash(&b, h1);
    CHECK(strcmp(h0, h1));
    b = a;
    b.format = TOURNAMENT_GAUNTLET;
    tournament_config_hash(&b, h1);
    CHECK(strcmp(h0, h1));
    b = a;
    test_option(&b.opt, "board=duo");
    tournament_config_hash(&b, h1);
    CHECK(strcmp(h0, h1));
    b = a;
    b.api = game_find("uptown");
    tournament_config_hash(&b, h1);
    CHECK(strcmp(h0, h1));
    /* Field boundaries count: "ab","c" is not "a","bc". */
    b = a;
    b.specs[0] = "randomm";
    b.specs[1] = "cts:iters=100";
    tournament_config_hash(&b, h1);
    CHECK(strcmp(h0, h1));
}

int main(void)
{
    check_cycle(3, 3, TOURNAMENT_ROUNDROBIN, 1, 0, 4);
    check_cycle(5, 3, TOURNAMENT_ROUNDROBIN, 2, 0, 2);
    check_cycle(5, 3, TOURNAMENT_ROUNDROBIN, 2, 10, 1); /* the second cycle alone */
    check_cycle(6, 4, TOURNAMENT_ROUNDROBIN, 3, 0, 1);
    check_cycle(7, 5, TOURNAMENT_ROUNDROBIN, 4, 0, 1);
    check_cycle(4, 2, TOURNAMENT_ROUNDROBIN, 5, 0, 3);
    check_cycle(5, 3, TOURNAMENT_GAUNTLET, 6, 0, 2);
    check_cycle(6, 4, TOURNAMENT_GAUNTLET, 7, 0, 1);
    check_cycle(2, 3, TOURNAMENT_ROUNDROBIN, 8, 0, 5);
    check_cycle(3, 5, TOURNAMENT_ROUNDROBIN, 9, 0, 4);
    check_cycle(2, 4, TOURNAMENT_GAUNTLET, 10, 0, 2);
    char err[256];
    tournament_schedule_t s;
    CHECK(tournament_schedule_init(&s, 32, 5, TOURNAMENT_ROUNDROBIN, 1, err, sizeof err) == 0);
    CHECK(s.lineup_count == 201376);
    tournament_schedule_free(&s);
    check_hash();
    CHECK(tournament_default_workers(1) >= 1);
    CHECK(tournament_default_workers(100000) == 1);
    return test_finish("test_tournament_schedule");
}
