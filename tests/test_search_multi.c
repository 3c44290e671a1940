/*
 * The multiple-tree search (option tree multi, search/multi.c): one tree per player of its
 * own moves only.
 *  - plan: a toy game where the other player's moves do not matter to the searcher and only
 *    one sequence of its own four moves wins: its own tree finds the sequence with the
 *    iterations that leave the single tree (which branches on the other's moves too) far
 *    from it;
 *  - the root statistics come from the searcher's tree only; every tree passes mcts_check
 *    (only its owner's moves); one thread is deterministic and reads no hidden card;
 *  - backups: max^n and paranoid each give their answer in the coalition game;
 *  - legal full games of Tower Up, Uptown (2 and 3 players) and Connect Four with two
 *    threads, the trees checked after every search, and through the bot's keys;
 *  - refused with root parallelism and with best-reply search.
 */
#include <stdalign.h>
#include <string.h>

#include "bots/bot.h"
#include "core/connect4/connect4.h"
#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "search/mcts.h"
#include "tests/test.h"
#include "tests/test_search_toy.h"

/* ---- plan ----
 * 2 players alternate, PLAN_MOVES moves each, each move one of PLAN_CHOICES; player 0's
 * result is 1 if its own moves were exactly its plan (plan_target), else 0, whatever
 * player 1 did; player 1's is always 0.5 (indifferent, so a search spreads its moves over
 * all of them). A random sequence is right once in 4^5 = 1024. */
#define PLAN_MOVES   5
#define PLAN_CHOICES 4

static const int plan_target[PLAN_MOVES] = {2, 0, 3, 1, 1};

typedef struct plan_state {
    int ply;                     /* moves made */
    int8_t picks[2][PLAN_MOVES]; /* each player's moves so far */
} plan_state_t;

static int plan_new_game(void *state, const game_options_t *opt, char *err, size_t errlen)
{
    (void)opt;
    (void)err;
    (void)errlen;
    memset(state, 0, sizeof(plan_state_t));
    return 0;
}

static void plan_copy(void *dst, const void *src) { memcpy(dst, src, sizeof(plan_state_t)); }

static int plan_gen_moves(const void *state, move_t *moves)
{
    const plan_state_t *s = state;
    if (s->ply >= 2 * PLAN_MOVES)
        return 0;
    for (int k = 0; k < PLAN_CHOICES; k++)
        moves[k] = (move_t)k;
    return PLAN_CHOICES;
}

static void plan_make(void *state, move_t m, void *undo)
{
    plan_state_t *s = state;
    memcpy(undo, s, sizeof *s);
    s->picks[s->ply % 2][s->ply / 2] = (int8_t)m;
    s->ply++;
}

static void plan_undo(void *state, move_t m, const void *undo)
{
    (void)m;
    memcpy(state, undo, sizeof(plan_state_t));
}

static bool plan_is_terminal(const void *state)
{
    return ((const plan_state_t *)state)->ply >= 2 * PLAN_MOVES;
}

static int plan_to_move(const void *state) { return ((const plan_state_t *)state)->ply % 2; }

static int plan_player_count(const void *state)
{
    (void)state;
    return 2;
}

static void plan_result(const void *state, double *res)
{
    const plan_state_t *s = state;
    res[0] = 1.0;
    for (int k = 0; k < PLAN_MOVES; k++)
        if (s->picks[0][k] != plan_target[k])
            res[0] = 0.0;
    res[1] = 0.5;
}

static uint64_t plan_hash(const void *state)
{
    const plan_state_t *s = state;
    uint64_t h = (uint64_t)s->ply;
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < PLAN_MOVES; k++)
            h = h * 8 + (uint64_t)s->picks[p][k];
    return rng_mix64(h);
}

static void plan_move_to_text(const void *state, move_t m, char *buf)
{
    (void)state;
    snprintf(buf, GAME_MOVE_TEXT_MAX, "%u", (unsigned)m);
}

static const game_api_t plan_api = {
    .name = "plan",
    .min_players = 2,
    .max_players = 2,
    .state_size = sizeof(plan_state_t),
    .undo_size = sizeof(plan_state_t),
    .new_game = plan_new_game,
    .copy = plan_copy,
    .gen_moves = plan_gen_moves,
    .make = plan_make,
    .undo = plan_undo,
    .is_terminal = plan_is_terminal,
    .to_move = plan_to_move,
    .player_count = plan_player_count,
    .result = plan_result,
    .hash = plan_hash,
    .hash_full = plan_hash,
    .move_to_text = plan_move_to_text,
};

/* ---- helpers ---- */

/* Room for a state of any game here, aligned for any field. */
typedef struct any_state {
    alignas(16) unsigned char bytes[4096]; /* the state's bytes */
} any_state_t;

static void check_tree(const mcts_t *m, const char *what)
{
    char err[256];
    int rc = mcts_check(m, err, sizeof err);
    CHECK_MSG(rc == 0, "%s: %s", what, err);
}

static mcts_options_t multi_options(long iterations, uint64_t seed, int threads)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = iterations;
    opt.seed = seed;
    opt.threads = threads;
    opt.tree = MCTS_TREE_MULTI;
    return opt;
}

static long visit_sum(const mcts_stats_t *st)
{
    long sum = 0;
    for (int i = 0; i < st->root_move_count; i++)
        sum += st->root_moves[i].visits;
    return sum;
}

static bool stats_equal(const mcts_stats_t *a, const mcts_stats_t *b)
{
    if (a->iterations != b->iterations || a->nodes != b->nodes || a->max_depth != b->max_depth ||
        a->root_move_count != b->root_move_count)
        return false;
    for (int i = 0; i < a->root_move_count; i++)
        if (a->root_moves[i].move != b->root_moves[i].move ||
            a->root_moves[i].visits != b->root_moves[i].visits ||
            a->root_moves[i].mean != b->root_moves[i].mean)
            return false;
    return true;
}

/* ---- tests ---- */

/*
 * The plan game from the start, for player 0, on several seeds at equal iterations: its
 * own tree is 4^5 paths deep to the plan's end, so the multiple trees find the plan (first
 * move right, its mean high: the later moves are right too, 0.71 to 0.92 on these seeds);
 * the single tree branches on the other player's moves as well (4^9 paths) and does not
 * (means below 0.01, the first move wrong on 2 seeds of 8).
 */
static void test_plan_depth(void)
{
    enum { ITERS = 2000, SEEDS = 8 };
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        plan_state_t s;
        plan_new_game(&s, NULL, NULL, 0);
        for (int multi = 0; multi < 2; multi++) {
            mcts_options_t opt = multi_options(ITERS, seed, 1);
            opt.tree = multi ? MCTS_TREE_MULTI : MCTS_TREE_SINGLE;
            mcts_t *m = mcts_new(&plan_api, &opt);
            CHECK(m != NULL);
            if (!m)
                continue;
            mcts_stats_t st;
            move_t mv = mcts_search(m, &s, &st);
            check_tree(m, multi ? "plan multi" : "plan single");
            CHECK_EQ_INT(st.iterations, ITERS);
            /* Every iteration passes the searcher's root and one of its children there: the
               statistics are of its tree alone (the other tree has the same move numbers). */
            CHECK_EQ_INT(visit_sum(&st), ITERS);
            double mean = st.root_moves[0].mean;
            if (multi) {
                CHECK_MSG(mv == (move_t)plan_target[0] && mean > 0.5,
                          "seed %d: multi played %u, mean %.3f", (int)seed, (unsigned)mv, mean);
                /* Depth in own moves: the whole plan is in the tree. */
                CHECK_MSG(st.max_depth >= PLAN_MOVES, "seed %d: multi depth %d", (int)seed,
                          st.max_depth);
                /* Two trees, one node each an iteration at most (plus the roots). */
                CHECK(st.nodes <= 2L * ITERS + 2);
            } else {
                CHECK_MSG(mean < 0.1, "seed %d: single played %u with mean %.3f", (int)seed,
                          (unsigned)mv, mean);
                /* Its tree never held the plan's last move (ply 2 * PLAN_MOVES - 1). */
                CHECK_MSG(st.max_depth < 2 * PLAN_MOVES - 1, "seed %d: single depth %d", (int)seed,
                          st.max_depth);
            }
            mcts_free(m);
        }
    }
}

/* One thread: the same seed gives the same search, and hidden cards are not read. */
static void test_repeatable_no_peeking(void)
{
    for (int deal = 0; deal < 4; deal++) {
        trick_state_t s1, s2, undo;
        trick_deal(&s1, 700 + (uint64_t)deal);
        pcg32_t rng;
        pcg32_seed(&rng, (uint64_t)deal, 1);
        move_t moves[TRICK_CARDS];
        for (int k = 0; k < deal; k++) {
            int n = trick_gen_moves(&s1, moves);
            trick_make(&s1, moves[pcg32_bounded(&rng, (uint32_t)n)], &undo);
        }
        /* s2: the cards the player to move cannot see dealt anew. */
        s2 = s1;
        pcg32_t deal_rng;
        pcg32_seed(&deal_rng, 99 + (uint64_t)deal, 3);
        trick_determinize(&s2, s2.to_move, &deal_rng);
        mcts_options_t opt = multi_options(1500, 77, 1);
        mcts_t *a = mcts_new(&trick_api, &opt);
        mcts_t *b = mcts_new(&trick_api, &opt);
        mcts_t *c = mcts_new(&trick_api, &opt);
        mcts_stats_t sa, sb, sc;
        move_t ma = mcts_search(a, &s1, &sa);
        CHECK_EQ_INT(ma, mcts_search(b, &s1, &sb));
        CHECK_MSG(stats_equal(&sa, &sb), "deal %d: not repeatable", deal);
        CHECK_EQ_INT(ma, mcts_search(c, &s2, &sc));
        CHECK_MSG(stats_equal(&sa, &sc), "deal %d: hidden cards change the search", deal);
        CHECK(toy_is_legal(&trick_api, &s1, ma));
        CHECK_EQ_INT(visit_sum(&sa), 1500);
        check_tree(a, "trick");
        mcts_free(a);
        mcts_free(b);
        mcts_free(c);
    }
}

/* The crafted trick (test_search_toy.c): of {0, 11}, 11 is never worse. */
static void test_trick_best_card(void)
{
    trick_state_t s;
    memset(&s, 0, sizeof s);
    s.hand[0] = (1u << 0) | (1u << 11);
    s.hand[1] = (uint16_t)(1u << 7);
    s.hand[2] = (uint16_t)(1u << 8);
    s.trick[0] = -1;
    s.trick[1] = 10;
    s.trick[2] = 9;
    s.trick_count = 2;
    s.points[0] = 1;
    s.points[1] = 1;
    mcts_options_t opt = multi_options(2000, 3, 1);
    mcts_t *m = mcts_new(&trick_api, &opt);
    mcts_stats_t st;
    CHECK_EQ_INT(mcts_search(m, &s, &st), 11);
    check_tree(m, "crafted trick");
    mcts_free(m);
}

/*
 * Backups in each tree by its owner: in the coalition game player 1 answers in its own tree
 * without seeing player 0's move. Max^n: X is its better answer to A (0.4 against 0.3),
 * so player 0 plays A (0.6). Paranoid: player 1's tree keeps 1 minus player 0's result,
 * Y is the better answer to both, so player 0 plays B (0.5 against 0).
 */
static void test_backups(void)
{
    coalition_state_t s;
    coalition_new_game(&s, NULL, NULL, 0);
    for (int paranoid = 0; paranoid < 2; paranoid++) {
        mcts_options_t opt = multi_options(3000, 5, 1);
        opt.backup = paranoid ? MCTS_BACKUP_PARANOID : MCTS_BACKUP_MAXN;
        mcts_t *m = mcts_new(&coalition_api, &opt);
        mcts_stats_t st;
        CHECK_EQ_INT(mcts_search(m, &s, &st), paranoid ? 1 : 0);
        check_tree(m, paranoid ? "coalition paranoid" : "coalition maxn");
        /* Three trees: the one of player 2, who never moves, is a root alone. */
        CHECK(st.nodes <= 2L * 2 + 3);
        mcts_free(m);
    }
}

/* Nim gives extra turns (players do not alternate): a player's tree goes on through them.
   With 5 stones the winning move (take 1) is found: whatever the other takes next, the
   player's own tree then takes the rest. */
static void test_nim(void)
{
    nim_state_t s;
    nim_set(&s, 5, 0);
    mcts_options_t o5 = multi_options(2000, 9, 1);
    mcts_t *m5 = mcts_new(&nim_api, &o5);
    CHECK(nim_move_wins(5, mcts_search(m5, &s, NULL)));
    check_tree(m5, "nim 5");
    mcts_free(m5);
    nim_set(&s, 12, 0);
    mcts_options_t opt = multi_options(2000, 9, 1);
    mcts_t *m = mcts_new(&nim_api, &opt);
    mcts_stats_t st;
    move_t mv = mcts_search(m, &s, &st);
    CHECK(toy_is_legal(&nim_api, &s, mv));
    CHECK_EQ_INT(visit_sum(&st), 2000);
    CHECK(st.max_depth >= 2);
    check_tree(m, "nim");
    mcts_free(m);
}

/* Tree parallelism: the trees pass mcts_check with each way of sharing them. */
static void test_threads_trick(void)
{
    for (int variant = 0; variant < 3; variant++) {
        trick_state_t s;
        trick_deal(&s, 41 + (uint64_t)variant);
        mcts_options_t opt = multi_options(2000, 13, 2);
        opt.virtual_loss = variant == 1 ? 1 : 0;
        opt.unobserved = variant == 2;
        opt.sync = variant == 2 ? 1 : 0;
        mcts_t *m = mcts_new(&trick_api, &opt);
        CHECK(m != NULL);
        if (!m)
            continue;
        trick_state_t undo;
        while (!trick_is_terminal(&s)) {
            mcts_stats_t st;
            move_t mv = mcts_search(m, &s, &st);
            CHECK(toy_is_legal(&trick_api, &s, mv));
            CHECK(!st.reused);
            check_tree(m, "trick 2 threads");
            mcts_advance(m, mv);
            trick_make(&s, mv, &undo);
        }
        mcts_free(m);
    }
}

/* A whole game of api with players, every seat searched by tree multi with 2 threads. */
static void full_game(const game_api_t *api, int players, uint64_t seed, long iterations)
{
    game_options_t go;
    game_options_default(&go);
    go.players = players;
    go.seed = seed;
    char err[GAME_ERR_MAX];
    any_state_t s;
    CHECK_MSG(api->new_game(s.bytes, &go, err, sizeof err) == 0, "%s: %s", api->name, err);
    mcts_options_t opt = multi_options(iterations, seed, 2);
    mcts_t *m = mcts_new(api, &opt);
    CHECK(m != NULL);
    if (!m)
        return;
    alignas(16) unsigned char undo[GAME_UNDO_MAX];
    int plies = 0;
    while (!api->is_terminal(s.bytes) && plies < 1000) {
        mcts_stats_t st;
        move_t mv = mcts_search(m, s.bytes, &st);
        CHECK_MSG(toy_is_legal(api, s.bytes, mv), "%s %dp ply %d: illegal move", api->name, players,
                  plies);
        /* A thread may pass the root while the other adds its first child. */
        if (st.root_move_count > 1)
            CHECK(visit_sum(&st) <= st.iterations && visit_sum(&st) >= st.iterations - 2);
        /* At most one node added to each tree an iteration, beside the roots. */
        CHECK(st.nodes <= (long)players * (st.iterations + 1));
        char what[64];
        snprintf(what, sizeof what, "%s %dp ply %d", api->name, players, plies);
        check_tree(m, what);
        mcts_reset(m);
        api->make(s.bytes, mv, undo);
        plies++;
    }
    CHECK_MSG(api->is_terminal(s.bytes), "%s %dp: no end in %d plies", api->name, players, plies);
    mcts_free(m);
}

static void test_full_games(void)
{
    full_game(&towerup_api, 2, 3, 200);
    full_game(&uptown_api, 2, 4, 200);
    full_game(&uptown_api, 3, 5, 150);
    full_game(&connect4_api, 2, 6, 200);
}

/* The bot's key: a legal game with the default preset (prior and cut-off hooks) and two
   threads; refused with root parallelism and with best-reply search. */
static void test_bot_key(void)
{
    char err[GAME_ERR_MAX];
    const game_api_t *apis[2] = {&towerup_api, &uptown_api};
    for (int g = 0; g < 2; g++) {
        const game_api_t *api = apis[g];
        bot_t *b[3];
        for (int p = 0; p < 3; p++) {
            b[p] = bot_new(api, p == 2 ? "heuristic" : "mcts:tree=multi,iters=150,threads=2",
                           (uint64_t)(10 + p), err, sizeof err);
            CHECK_MSG(b[p] != NULL, "%s: %s", api->name, err);
            if (!b[p])
                return;
        }
        game_options_t go;
        game_options_default(&go);
        go.players = 3;
        go.seed = 21;
        any_state_t s;
        CHECK(api->new_game(s.bytes, &go, err, sizeof err) == 0);
        for (int p = 0; p < 3; p++)
            bot_begin(b[p], s.bytes, &go, p);
        alignas(16) unsigned char undo[GAME_UNDO_MAX];
        int plies = 0;
        while (!api->is_terminal(s.bytes) && plies < 1000) {
            move_t mv = bot_choose(b[api->to_move(s.bytes)], s.bytes);
            CHECK_MSG(toy_is_legal(api, s.bytes, mv), "%s bot ply %d", api->name, plies);
            for (int p = 0; p < 3; p++)
                bot_observe(b[p], s.bytes, mv);
            api->make(s.bytes, mv, undo);
            plies++;
        }
        CHECK(api->is_terminal(s.bytes));
        for (int p = 0; p < 3; p++)
            bot_free(b[p]);
    }
    bot_t *r = bot_new(&towerup_api, "mcts:tree=multi,parallel=root", 1, err, sizeof err);
    CHECK(r == NULL && strstr(err, "parallel=root") && !strchr(err, '\n'));
    bot_free(r);
    r = bot_new(&towerup_api, "mcts:backup=brs,tree=multi", 1, err, sizeof err);
    CHECK(r == NULL && strstr(err, "backup=brs") && !strchr(err, '\n'));
    bot_free(r);
    mcts_options_t opt = multi_options(100, 1, 2);
    opt.parallel = MCTS_PARALLEL_ROOT;
    CHECK(mcts_new(&towerup_api, &opt) == NULL);
    opt = multi_options(100, 1, 2);
    opt.backup = MCTS_BACKUP_BRS;
    CHECK(mcts_new(&towerup_api, &opt) == NULL);
}

int main(void)
{
    test_plan_depth();
    test_repeatable_no_peeking();
    test_trick_best_card();
    test_backups();
    test_nim();
    test_threads_trick();
    test_full_games();
    test_bot_key();
    return test_finish("test_search_multi");
}
