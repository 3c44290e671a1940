/*
 * Best-reply search (backup = MCTS_BACKUP_BRS, search/brs.h): a 3-player toy game where
 * one opponent alone can hurt the searcher after one move and only both together after the
 * other (BRS, max^n and paranoid choose differently, and the default policy shows in the
 * values); the tree's replier choice (white-box); with 2 players the very search of
 * paranoid; whole 3-player games of Tower Up and Uptown with two threads on one tree, the
 * tree checked after every search.
 */
#include <stdalign.h>

#include "bots/bot.h"
#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "search/brs.h"
#include "tests/test.h"
#include "tests/test_search_toy.h"

/* ---- bully: 3 players, perfect information ----
 * Player 0 plays A or B, then player 1 and player 2 each play NICE or HURT. After A, player
 * 1's HURT alone leaves player 0 with 0.1 (else 0.8), though it costs player 1; after B,
 * player 0 gets 0 only if both play HURT, else 0.7. max^n: player 1 answers A with NICE
 * (0.5 > 0.2 for it), and both hurt after B, so A (0.8 against 0). Paranoid: A 0.1,
 * B 0, so A. BRS: after A the best replier (player 1) hurts: 0.1; after B one replier hurts
 * and the other plays the default policy: 0.35 with random moves, 0.7 with a prior that
 * prefers NICE; so B.
 */
#define BULLY_A    10
#define BULLY_B    11
#define BULLY_NICE 20
#define BULLY_HURT 21

typedef struct bully_state {
    int ply;        /* moves made, 0 to 3 */
    move_t pick[3]; /* the moves made, one per player */
} bully_state_t;

static void bully_copy(void *dst, const void *src) { memcpy(dst, src, sizeof(bully_state_t)); }

static int bully_gen_moves(const void *state, move_t *moves)
{
    const bully_state_t *s = state;
    if (s->ply >= 3)
        return 0;
    moves[0] = s->ply == 0 ? BULLY_A : BULLY_NICE;
    moves[1] = s->ply == 0 ? BULLY_B : BULLY_HURT;
    return 2;
}

static void bully_make(void *state, move_t m, void *undo)
{
    bully_state_t *s = state;
    memcpy(undo, s, sizeof *s);
    s->pick[s->ply++] = m;
}

static void bully_undo(void *state, move_t m, const void *undo)
{
    (void)m;
    memcpy(state, undo, sizeof(bully_state_t));
}

static bool bully_is_terminal(const void *state)
{
    return ((const bully_state_t *)state)->ply >= 3;
}

static int bully_to_move(const void *state) { return ((const bully_state_t *)state)->ply; }

static int bully_player_count(const void *state)
{
    (void)state;
    return 3;
}

static void bully_result(const void *state, double *res)
{
    const bully_state_t *s = state;
    bool hurt1 = s->pick[1] == BULLY_HURT, hurt2 = s->pick[2] == BULLY_HURT;
    if (s->pick[0] == BULLY_A) {
        res[0] = hurt1 ? 0.1 : 0.8;
        res[1] = hurt1 ? 0.2 : 0.5;
        res[2] = hurt1 ? 0.7 : 0.2;
    } else {
        res[0] = hurt1 && hurt2 ? 0.0 : 0.7;
        res[1] = hurt1 && hurt2 ? 0.3 : 0.2;
        res[2] = hurt1 && hurt2 ? 0.3 : 0.1;
    }
}

static uint64_t bully_hash(const void *state)
{
    const bully_state_t *s = state;
    uint64_t h = (uint64_t)s->ply;
    for (int i = 0; i < s->ply; i++)
        h = h * 64 + s->pick[i];
    return h;
}

static void bully_move_to_text(const void *state, move_t m, char *buf)
{
    (void)state;
    snprintf(buf, GAME_MOVE_TEXT_MAX, "%u", (unsigned)m);
}

static const game_api_t bully_api = {
    .name = "bully",
    .min_players = 3,
    .max_players = 3,
    .state_size = sizeof(bully_state_t),
    .undo_size = sizeof(bully_state_t),
    .copy = bully_copy,
    .gen_moves = bully_gen_moves,
    .make = bully_make,
    .undo = bully_undo,
    .is_terminal = bully_is_terminal,
    .to_move = bully_to_move,
    .player_count = bully_player_count,
    .result = bully_result,
    .hash = bully_hash,
    .hash_full = bully_hash,
    .move_to_text = bully_move_to_text,
};

/* NICE is the likely move (the default policy's with this prior). */
static void prefer_nice(const game_api_t *api, const void *state, const move_t *moves, int n,
                        double *priors, void *ctx)
{
    (void)api;
    (void)state;
    (void)ctx;
    for (int i = 0; i < n; i++)
        priors[i] = moves[i] == BULLY_NICE ? 0.9 : moves[i] == BULLY_HURT ? 0.1 : 0.5;
}

static void check_tree(const mcts_t *m, const char *what)
{
    char err[256];
    int rc = mcts_check(m, err, sizeof err);
    CHECK_MSG(rc == 0, "%s: %s", what, err);
}

static mcts_options_t options(mcts_backup_t backup, int threads, long iterations)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.backup = backup;
    opt.threads = threads;
    opt.iterations = iterations;
    opt.seed = 5;
    return opt;
}

/* The root statistics of move mv. */
static const mcts_move_stat_t *root_stat(const mcts_stats_t *st, move_t mv)
{
    for (int i = 0; i < st->root_move_count; i++)
        if (st->root_moves[i].move == mv)
            return &st->root_moves[i];
    return NULL;
}

static void test_bully(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        bully_state_t s = {0};
        mcts_stats_t st;
        mcts_options_t opt = options(MCTS_BACKUP_MAXN, threads, 3000);
        mcts_t *m = mcts_new(&bully_api, &opt);
        CHECK_EQ_INT(mcts_search(m, &s, NULL), BULLY_A);
        mcts_free(m);
        opt = options(MCTS_BACKUP_PARANOID, threads, 3000);
        m = mcts_new(&bully_api, &opt);
        CHECK_EQ_INT(mcts_search(m, &s, NULL), BULLY_A);
        mcts_free(m);

        opt = options(MCTS_BACKUP_BRS, threads, 3000);
        m = mcts_new(&bully_api, &opt);
        CHECK_EQ_INT(mcts_search(m, &s, &st), BULLY_B);
        check_tree(m, "bully");
        const mcts_move_stat_t *a = root_stat(&st, BULLY_A), *b = root_stat(&st, BULLY_B);
        CHECK(a && b);
        if (a && b) {
            CHECK_MSG(a->mean < 0.3, "A %.3f", a->mean);                   /* 0.1 */
            CHECK_MSG(b->mean > 0.25 && b->mean < 0.5, "B %.3f", b->mean); /* 0.35 */
        }
        if (threads == 1) {
            /* White-box: below each move of the root, one child per opponent, keyed by its
               replier edge, each tried; below a replier, that replier's two moves. */
            uint32_t count;
            const mcts_edge_t *kids = mcts_kids(m, m->roots[0], &count);
            CHECK_EQ_INT(count, 2);
            for (uint32_t j = 0; j < count; j++) {
                uint32_t rc;
                const mcts_edge_t *rk = mcts_kids(m, kids[j].child, &rc);
                CHECK_EQ_INT(rc, 2);
                for (uint32_t r = 0; r < rc; r++) {
                    CHECK(mcts_brs_is_edge(rk[r].move));
                    CHECK(rk[r].move == MCTS_BRS_EDGE_BASE + 1 ||
                          rk[r].move == MCTS_BRS_EDGE_BASE + 2);
                    CHECK(atomic_load_explicit(&m->nodes[rk[r].child].visits,
                                               memory_order_relaxed) > 0);
                    uint32_t mc;
                    const mcts_edge_t *mk = mcts_kids(m, rk[r].child, &mc);
                    CHECK_EQ_INT(mc, 2);
                    for (uint32_t k = 0; k < mc; k++)
                        CHECK(mk[k].move == BULLY_NICE || mk[k].move == BULLY_HURT);
                }
            }
        }
        mcts_free(m);

        /* The default policy with a prior: the opponent that does not reply plays NICE,
           so B is worth 0.7. */
        opt = options(MCTS_BACKUP_BRS, threads, 3000);
        opt.prior = prefer_nice;
        m = mcts_new(&bully_api, &opt);
        CHECK_EQ_INT(mcts_search(m, &s, &st), BULLY_B);
        b = root_stat(&st, BULLY_B);
        CHECK(b && b->mean > 0.65);
        check_tree(m, "bully, prior");
        mcts_free(m);
    }
}

/* Coalition (player 2 never moves): with player 2 as replier the search stops at the
   choice, player 1 playing at random; BRS sees player 1's reply Y to A, as paranoid. */
static void test_coalition(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        coalition_state_t s = {0};
        mcts_options_t opt = options(MCTS_BACKUP_BRS, threads, 2000);
        mcts_t *m = mcts_new(&coalition_api, &opt);
        mcts_stats_t st;
        CHECK_EQ_INT(mcts_search(m, &s, &st), 1);
        check_tree(m, "coalition");
        mcts_free(m);
    }
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

/* With 2 players BRS is paranoid: the same moves and statistics, search by search, over
   whole games (nim gives extra turns: an opponent moving twice in a row). */
static void test_two_players(void)
{
    for (int g = 0; g < 2; g++) {
        const game_api_t *api = g ? &towerup_api : &nim_api;
        alignas(16) unsigned char s[2048], undo[GAME_UNDO_MAX];
        game_options_t o;
        game_options_default(&o);
        o.players = 2;
        o.seed = 3;
        char err[256];
        if (g)
            CHECK(api->new_game(s, &o, err, sizeof err) == 0);
        else
            nim_set((nim_state_t *)s, 14, 0);
        mcts_options_t pa = options(MCTS_BACKUP_PARANOID, 1, g ? 300 : 2000);
        mcts_options_t br = options(MCTS_BACKUP_BRS, 1, g ? 300 : 2000);
        mcts_t *a = mcts_new(api, &pa), *b = mcts_new(api, &br);
        int plies = 0;
        while (!api->is_terminal(s) && plies < (g ? 12 : 100)) {
            mcts_stats_t sa, sb;
            move_t ma = mcts_search(a, s, &sa);
            move_t mb = mcts_search(b, s, &sb);
            CHECK_EQ_INT(ma, mb);
            if (!g && plies == 0)
                CHECK(!nim_wins(14) || nim_move_wins(14, mb));
            CHECK_MSG(stats_equal(&sa, &sb), "%s ply %d", api->name, plies);
            api->make(s, ma, undo);
            mcts_advance(a, ma);
            mcts_advance(b, ma);
            plies++;
        }
        mcts_free(a);
        mcts_free(b);
    }
}

/*
 * Whole 3-player games of Tower Up and Uptown, two threads on one tree: a searcher without
 * a prior (random default policy) checked after every search, and bots with `backup=brs`
 * (the best preset: the heuristic's best move as default policy).
 */
static void test_games(void)
{
    for (int g = 0; g < 2; g++) {
        const game_api_t *api = g ? &uptown_api : &towerup_api;
        alignas(16) unsigned char s[2048], undo[GAME_UNDO_MAX];
        game_options_t o;
        game_options_default(&o);
        o.players = 3;
        o.seed = 23;
        char err[256];
        CHECK(api->new_game(s, &o, err, sizeof err) == 0);
        mcts_options_t opt = options(MCTS_BACKUP_BRS, 2, 150);
        mcts_t *m = mcts_new(api, &opt);
        int plies = 0;
        while (!api->is_terminal(s) && plies < 1000) {
            mcts_stats_t st;
            move_t mv = mcts_search(m, s, &st);
            CHECK(toy_is_legal(api, s, mv));
            char what[64];
            snprintf(what, sizeof what, "%s ply %d", api->name, plies);
            check_tree(m, what);
            api->make(s, mv, undo);
            mcts_advance(m, mv);
            plies++;
        }
        CHECK(api->is_terminal(s));
        mcts_free(m);

        CHECK(api->new_game(s, &o, err, sizeof err) == 0);
        bot_t *bots[3];
        for (int p = 0; p < 3; p++) {
            bots[p] = bot_new(api, "mcts:iters=100,threads=2,backup=brs", (uint64_t)p + 1, err,
                              sizeof err);
            CHECK_MSG(bots[p] != NULL, "%s", err);
            if (bots[p])
                bot_begin(bots[p], s, &o, p);
        }
        plies = 0;
        while (bots[0] && bots[1] && bots[2] && !api->is_terminal(s) && plies < 1000) {
            move_t mv = bot_choose(bots[api->to_move(s)], s);
            CHECK(toy_is_legal(api, s, mv));
            for (int p = 0; p < 3; p++)
                bot_observe(bots[p], s, mv);
            api->make(s, mv, undo);
            plies++;
        }
        CHECK(api->is_terminal(s));
        for (int p = 0; p < 3; p++)
            bot_free(bots[p]);
    }
}

/* The games' moves stay below the replier edges (the descent would stop at a collision). */
static void test_move_range(void)
{
    for (int g = 0; g < 2; g++) {
        const game_api_t *api = g ? &uptown_api : &towerup_api;
        alignas(16) unsigned char s[2048], undo[GAME_UNDO_MAX];
        game_options_t o;
        game_options_default(&o);
        o.players = 4;
        o.seed = 41;
        char err[256];
        CHECK(api->new_game(s, &o, err, sizeof err) == 0);
        pcg32_t rng;
        pcg32_seed(&rng, 9, 1);
        move_t moves[GAME_MAX_MOVES];
        int n, over = 0;
        while ((n = api->gen_moves(s, moves)) > 0) {
            for (int i = 0; i < n; i++)
                over += moves[i] >= MCTS_BRS_EDGE_BASE;
            api->make(s, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
        }
        CHECK_EQ_INT(over, 0);
    }
}

int main(void)
{
    test_bully();
    test_coalition();
    test_two_players();
    test_games();
    test_move_range();
    return test_finish("test_search_brs");
}
