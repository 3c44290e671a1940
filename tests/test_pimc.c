/*
 * The pimc bot (bots/pimc.c): the vote rules on crafted root statistics (ties included);
 * with one determinization in a game without hidden information (Connect Four) it plays
 * and searches exactly as `mcts:cheat=1,reuse=0` with the same budget and seed; no
 * peeking (two states of one information set, Tower Up and Uptown at 2 and 3 players, give
 * the same move and the same summed root statistics for one seed); the summed statistics
 * it reports; bad keys refused with an error naming them.
 */
#include <stdalign.h>
#include <string.h>

#include "bots/bot.h"
#include "bots/pimc.h"
#include "core/connect4/connect4.h"
#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "tests/test.h"

/* Room for a state of any game, aligned for any field. */
typedef struct any_state {
    alignas(16) unsigned char bytes[2048]; /* the state's bytes */
} any_state_t;

static bot_t *make_bot(const game_api_t *api, const char *spec, uint64_t seed)
{
    char err[GAME_ERR_MAX];
    bot_t *b = bot_new(api, spec, seed, err, sizeof err);
    CHECK_MSG(b != NULL, "%s: %s", spec, err);
    return b;
}

/* Root statistics of one crafted search: moves with their visits (mean 0.5). */
static int craft(mcts_move_stat_t *root, const move_t *moves, const long *visits, int n)
{
    for (int i = 0; i < n; i++)
        root[i] = (mcts_move_stat_t){.move = moves[i], .visits = visits[i], .mean = 0.5};
    return n;
}

static void test_vote(void)
{
    static pimc_tally_t t; /* large: not on the stack */
    const move_t legal[3] = {7, 3, 9};
    mcts_move_stat_t root[4];
    /* Three searches where the rules differ: move 7 has the larger sum of visit shares
       (0.9 + 0.4 + 0.45 = 1.75 against 1.2), move 3 the most votes (2 of 3). Root
       statistics come in any order; move 9 is never visited. */
    pimc_tally_init(&t, legal, 3);
    craft(root, (move_t[]){7, 3, 9}, (long[]){90, 5, 5}, 3);
    pimc_tally_add(&t, root, 3, 7);
    craft(root, (move_t[]){3, 7, 9}, (long[]){60, 40, 0}, 3);
    pimc_tally_add(&t, root, 3, 3);
    craft(root, (move_t[]){3, 7}, (long[]){55, 45}, 2);
    pimc_tally_add(&t, root, 2, 3);
    CHECK_EQ_INT(pimc_tally_winner(&t, PIMC_VOTE_VISITS), 7);
    CHECK_EQ_INT(pimc_tally_winner(&t, PIMC_VOTE_PLURALITY), 3);
    CHECK_EQ_INT(t.dets, 3);
    CHECK_EQ_INT(t.visits[0], 90 + 40 + 45);
    CHECK_EQ_INT(t.votes[1], 2);

    /* Plurality tie (one vote each): the visit shares decide (0.7 + 0.4 for 7). */
    pimc_tally_init(&t, legal, 3);
    craft(root, (move_t[]){7, 3}, (long[]){70, 30}, 2);
    pimc_tally_add(&t, root, 2, 7);
    craft(root, (move_t[]){7, 3}, (long[]){40, 60}, 2);
    pimc_tally_add(&t, root, 2, 3);
    CHECK_EQ_INT(pimc_tally_winner(&t, PIMC_VOTE_PLURALITY), 7);
    /* ... and the other way round when the shares favour the later move. */
    pimc_tally_init(&t, legal, 3);
    craft(root, (move_t[]){7, 3}, (long[]){55, 45}, 2);
    pimc_tally_add(&t, root, 2, 7);
    craft(root, (move_t[]){7, 3}, (long[]){20, 80}, 2);
    pimc_tally_add(&t, root, 2, 3);
    CHECK_EQ_INT(pimc_tally_winner(&t, PIMC_VOTE_PLURALITY), 3);

    /* Visit-share tie: the votes decide (a search may choose by mean, final=mean). */
    pimc_tally_init(&t, legal, 3);
    craft(root, (move_t[]){7, 3, 9}, (long[]){50, 50, 0}, 3);
    pimc_tally_add(&t, root, 3, 3);
    CHECK_EQ_INT(pimc_tally_winner(&t, PIMC_VOTE_VISITS), 3);
    /* Full tie: the earlier move in legal order, whatever the order of the statistics;
       a move that is not legal in the real state counts for nothing. */
    pimc_tally_init(&t, legal, 3);
    craft(root, (move_t[]){9, 3, 42}, (long[]){50, 50, 900}, 3);
    pimc_tally_add(&t, root, 3, 42);
    CHECK_EQ_INT(pimc_tally_winner(&t, PIMC_VOTE_VISITS), 3);
    CHECK_EQ_INT(pimc_tally_winner(&t, PIMC_VOTE_PLURALITY), 3);
    pimc_tally_init(&t, legal, 3);
    CHECK_EQ_INT(pimc_tally_winner(&t, PIMC_VOTE_VISITS), 7);
    /* A search without visits (one legal move) gives its move the whole share. */
    pimc_tally_add(&t, NULL, 0, 9);
    CHECK_EQ_INT(pimc_tally_winner(&t, PIMC_VOTE_VISITS), 9);
    CHECK_EQ_INT(pimc_tally_winner(&t, PIMC_VOTE_PLURALITY), 9);
}

/* Connect Four hides nothing: pimc with one determinization is mcts searching the state
   itself, search for search (moves and root visits), over a whole game. */
static void test_one_det_is_mcts(void)
{
    const char *const budgets[] = {"iters=300", "iters=200,preset=plain,c=1"};
    for (int k = 0; k < 2; k++) {
        char pspec[128], mspec[128];
        snprintf(pspec, sizeof pspec, "pimc:dets=1,%s", budgets[k]);
        snprintf(mspec, sizeof mspec, "mcts:cheat=1,reuse=0,%s", budgets[k]);
        uint64_t seed = 11 + (uint64_t)k;
        bot_t *p = make_bot(&connect4_api, pspec, seed);
        bot_t *m = make_bot(&connect4_api, mspec, seed);
        if (!p || !m)
            return;
        game_options_t o;
        game_options_default(&o);
        o.players = 2;
        any_state_t s;
        char err[GAME_ERR_MAX];
        CHECK(connect4_api.new_game(&s, &o, err, sizeof err) == 0);
        alignas(16) unsigned char undo[GAME_UNDO_MAX];
        int plies = 0, same = 0;
        while (!connect4_api.is_terminal(&s)) {
            move_t a = bot_choose(p, &s), b = bot_choose(m, &s);
            const mcts_stats_t *sa = bot_last_search(p), *sb = bot_last_search(m);
            bool eq = a == b && sa && sb && sa->iterations == sb->iterations &&
                      sa->root_move_count == sb->root_move_count;
            for (int i = 0; eq && i < sa->root_move_count; i++)
                eq = sa->root_moves[i].move == sb->root_moves[i].move &&
                     sa->root_moves[i].visits == sb->root_moves[i].visits;
            CHECK_MSG(eq, "%s ply %d: pimc plays %u, mcts %u", budgets[k], plies, a, b);
            same += eq;
            connect4_api.make(&s, a, undo);
            plies++;
        }
        CHECK_MSG(plies >= 7 && same == plies, "%d plies, %d alike", plies, same);
        bot_free(p);
        bot_free(m);
    }
}

/* A position of a seeded game after about plies random moves: 0, or -1. */
static int random_position(const game_api_t *api, int players, uint64_t seed, int plies,
                           any_state_t *s)
{
    game_options_t o;
    game_options_default(&o);
    o.players = players;
    o.seed = seed;
    char err[GAME_ERR_MAX];
    if (api->new_game(s, &o, err, sizeof err)) {
        CHECK_MSG(false, "%s %dp: %s", api->name, players, err);
        return -1;
    }
    pcg32_t rng;
    pcg32_seed(&rng, seed, 78);
    any_state_t next;
    alignas(16) unsigned char undo[GAME_UNDO_MAX];
    move_t moves[GAME_MAX_MOVES];
    for (int k = 0; k < plies; k++) {
        api->copy(&next, s);
        int n = api->gen_moves(&next, moves);
        api->make(&next, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
        if (api->is_terminal(&next))
            break;
        api->copy(s, &next);
    }
    return 0;
}

/*
 * Two states of one information set for the mover (two determinizations of a position:
 * Uptown's other racks and bag, Tower Up's draw pile) give the same move and the same
 * summed root statistics for one seed, for both vote rules.
 */
static void test_no_peeking(void)
{
    const game_api_t *const games[] = {&towerup_api, &uptown_api};
    const char *const specs[] = {"pimc:dets=4,iters=160",
                                 "pimc:dets=3,iters=150,vote=plurality,preset=plain"};
    for (int g = 0; g < 2; g++) {
        const game_api_t *api = games[g];
        int differ = 0, searched = 0;
        for (int players = 2; players <= 3; players++) {
            for (int k = 0; k < 3; k++) {
                any_state_t s, a, b;
                uint64_t seed = 700u + 10u * (uint64_t)players + (uint64_t)k;
                if (random_position(api, players, seed, 6 + 15 * k, &s))
                    continue;
                int me = api->to_move(&s);
                pcg32_t ra, rb;
                pcg32_seed(&ra, seed, 1);
                pcg32_seed(&rb, seed, 2);
                api->copy(&a, &s);
                api->copy(&b, &s);
                api->determinize(&a, me, &ra);
                api->determinize(&b, me, &rb);
                differ += memcmp(&a, &b, api->state_size) != 0;
                for (int i = 0; i < 2; i++) {
                    bot_t *ba = make_bot(api, specs[i], seed), *bb = make_bot(api, specs[i], seed);
                    if (!ba || !bb)
                        return;
                    move_t ma = bot_choose(ba, &a), mb = bot_choose(bb, &b);
                    const mcts_stats_t *sa = bot_last_search(ba), *sb = bot_last_search(bb);
                    bool eq = ma == mb && sa && sb && sa->iterations == sb->iterations &&
                              sa->root_move_count == sb->root_move_count;
                    for (int j = 0; eq && j < sa->root_move_count; j++)
                        eq = sa->root_moves[j].move == sb->root_moves[j].move &&
                             sa->root_moves[j].visits == sb->root_moves[j].visits;
                    CHECK_MSG(eq, "%s %dp seed %llu: %s peeks (%u vs %u)", api->name, players,
                              (unsigned long long)seed, specs[i], ma, mb);
                    searched += sa && sa->root_move_count > 1;
                    bot_free(ba);
                    bot_free(bb);
                }
            }
        }
        /* Otherwise the test would show nothing. */
        CHECK_MSG(differ >= 4 && searched >= 8, "%s: %d positions with hidden parts, %d searched",
                  api->name, differ, searched);
    }
}

/* The statistics of a move: iterations split over the determinizations, the root visits
   summed over them, most visits first; the searcher is told what it reads. */
static void test_stats(void)
{
    any_state_t s;
    if (random_position(&uptown_api, 2, 5, 10, &s))
        return;
    bot_t *p = make_bot(&uptown_api, "pimc:dets=3,iters=100", 4);
    if (!p)
        return;
    CHECK(bot_last_search(p) == NULL);
    move_t mv = bot_choose(p, &s);
    const mcts_stats_t *st = bot_last_search(p);
    CHECK(st != NULL);
    if (!st)
        return;
    CHECK_EQ_INT(st->iterations, 3 * 33);
    long visits = 0;
    for (int i = 0; i < st->root_move_count; i++) {
        visits += st->root_moves[i].visits;
        CHECK(i == 0 || st->root_moves[i].visits <= st->root_moves[i - 1].visits);
    }
    /* Each search's root visits are its iterations (every move was tried: fpu). */
    CHECK_EQ_INT(visits, 3 * 33);
    move_t legal[GAME_MAX_MOVES];
    int n = uptown_api.gen_moves(&s, legal);
    CHECK_EQ_INT(st->root_move_count, n);
    bool found = false;
    for (int i = 0; i < n; i++)
        found |= legal[i] == mv;
    CHECK(found);
    CHECK_EQ_INT(p->threads, 1);
    bot_free(p);
    p = make_bot(&uptown_api, "pimc:threads=2,dets=2", 4);
    CHECK(p && p->threads == 2);
    bot_free(p);
}

/* Bad specs: the error names the key or value; pimc refuses the keys it sets itself. */
static void test_bad_keys(void)
{
    static const char *const bad[][2] = {
        {"pimc:dets=0", "bad value '0' for key 'dets'"},
        {"pimc:dets=x", "bad value 'x' for key 'dets'"},
        {"pimc:vote=majority", "bad value 'majority' for key 'vote'"},
        {"pimc:depth=3", "unknown key 'depth' (pimc takes"},
        {"pimc:cheat=1", "key 'cheat' is not a pimc key"},
        {"pimc:reuse=1", "key 'reuse' is not a pimc key"},
        {"pimc:clock=1000", "key 'clock' is not a pimc key"},
        {"pimc:iters=5,dets=10", "iters=5 is below dets=10"},
        {"pimc:time=5,dets=10", "time=5 is below dets=10"},
        {"pimc:iters=0", "bad value '0' for key 'iters'"},
        {"pimc:fpu=hot", "bad value 'hot' for key 'fpu'"},
        {"pimc:eps=0.5", "'eps' needs rollout=heuristic"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[GAME_ERR_MAX] = "";
        bot_t *b = bot_new(&uptown_api, bad[i][0], 1, err, sizeof err);
        CHECK_MSG(b == NULL && strstr(err, bad[i][1]) && !strchr(err, '\n'), "%s: '%s'", bad[i][0],
                  err);
        bot_free(b);
    }
    /* Heuristic weights and mcts keys pass to the search. */
    bot_free(make_bot(&uptown_api, "pimc:dets=2,iters=20,rollout=heuristic,eps=0.2", 1));
    bot_free(make_bot(&towerup_api, "pimc:dets=2,time=20,backup=paranoid,final=mean", 1));
}

int main(void)
{
    test_vote();
    test_one_det_is_mcts();
    test_no_peeking();
    test_stats();
    test_bad_keys();
    return test_finish("test_pimc");
}
