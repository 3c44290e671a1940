/*
 * Progressive widening (mcts_options_t.pw, pw_alpha), white-box: after a search every node
 * of the tree has at most max(1, ceil(pw * visits^pw_alpha)) children (a perfect-information
 * game, where every child's move is legal at every visit), with one thread and with two on
 * one tree; without widening a node has a child per legal move; and with a prior that
 * ranks the best move second among many, widening finds it with a budget too small to try
 * every move once.
 */
#include <math.h>
#include <stdalign.h>

#include "bots/bot.h"
#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "search/internal.h"
#include "tests/test.h"
#include "tests/test_search_toy.h"

/* ---- wide: 2 players, `plies` moves of `n` choices each, one hidden number ----
 * Player 0 wins iff the hidden luck (resampled by determinize, seen by nobody) is below
 * the quality of its first move, less 0.1 when player 1 answered with the same number.
 */
#define WIDE_MAX_PLIES 4
#define WIDE_BEST      37  /* the move of quality 0.9 */
#define WIDE_DECOY     5   /* the move of quality 0.6, the prior's favourite */
#define WIDE_MOVES     240 /* moves per ply in the bandit test */

typedef struct wide_state {
    int ply;                     /* moves made */
    int plies;                   /* moves in a game */
    int n;                       /* choices per move */
    move_t pick[WIDE_MAX_PLIES]; /* the moves made */
    uint32_t luck;               /* hidden, uniform */
} wide_state_t;

static double wide_quality(move_t m) { return m == WIDE_BEST ? 0.9 : m == WIDE_DECOY ? 0.6 : 0.3; }

static void wide_set(wide_state_t *s, int plies, int n)
{
    *s = (wide_state_t){.plies = plies, .n = n, .luck = 12345};
}

static void wide_copy(void *dst, const void *src) { memcpy(dst, src, sizeof(wide_state_t)); }

static int wide_gen_moves(const void *state, move_t *moves)
{
    const wide_state_t *s = state;
    if (s->ply >= s->plies)
        return 0;
    for (int k = 0; k < s->n; k++)
        moves[k] = (move_t)k;
    return s->n;
}

static void wide_make(void *state, move_t m, void *undo)
{
    wide_state_t *s = state;
    memcpy(undo, s, sizeof *s);
    s->pick[s->ply++] = m;
}

static void wide_undo(void *state, move_t m, const void *undo)
{
    (void)m;
    memcpy(state, undo, sizeof(wide_state_t));
}

static bool wide_is_terminal(const void *state)
{
    const wide_state_t *s = state;
    return s->ply >= s->plies;
}

static int wide_to_move(const void *state) { return ((const wide_state_t *)state)->ply % 2; }

static int wide_player_count(const void *state)
{
    (void)state;
    return 2;
}

static void wide_result(const void *state, double *res)
{
    const wide_state_t *s = state;
    double q = wide_quality(s->pick[0]) - (s->plies > 1 && s->pick[1] == s->pick[0] ? 0.1 : 0.0);
    bool win = (double)s->luck / 4294967296.0 < q;
    res[0] = win ? 1.0 : 0.0;
    res[1] = 1.0 - res[0];
}

static uint64_t wide_hash(const void *state)
{
    const wide_state_t *s = state;
    uint64_t h = (uint64_t)s->ply;
    for (int i = 0; i < s->ply; i++)
        h = rng_mix64(h * 1000 + s->pick[i]);
    return h;
}

static void wide_move_to_text(const void *state, move_t m, char *buf)
{
    (void)state;
    snprintf(buf, GAME_MOVE_TEXT_MAX, "%u", (unsigned)m);
}

static void wide_determinize(void *state, int observer, pcg32_t *rng)
{
    (void)observer;
    ((wide_state_t *)state)->luck = pcg32_next(rng);
}

static const game_api_t wide_api = {
    .name = "wide",
    .min_players = 2,
    .max_players = 2,
    .state_size = sizeof(wide_state_t),
    .undo_size = sizeof(wide_state_t),
    .copy = wide_copy,
    .gen_moves = wide_gen_moves,
    .make = wide_make,
    .undo = wide_undo,
    .is_terminal = wide_is_terminal,
    .to_move = wide_to_move,
    .player_count = wide_player_count,
    .result = wide_result,
    .hash = wide_hash,
    .hash_full = wide_hash,
    .move_to_text = wide_move_to_text,
    .determinize = wide_determinize,
};

/* The decoy first, the best move second, then the others in move order. */
static void wide_prior(const game_api_t *api, const void *state, const move_t *moves, int n,
                       double *priors, void *ctx)
{
    (void)api;
    (void)state;
    (void)ctx;
    for (int i = 0; i < n; i++)
        priors[i] = moves[i] == WIDE_DECOY ? 0.5 : moves[i] == WIDE_BEST ? 0.3 : 0.2 / n;
}

/* ---- the tree walk ---- */

/* What the walk found: nodes, the most children of one node, limits reached. */
typedef struct walk {
    long nodes;         /* nodes walked */
    long over;          /* nodes with more children than the limit allows */
    long at_limit;      /* nodes whose children reached the limit with moves left untried */
    uint32_t root_kids; /* children of the root */
} walk_t;

/* The limit as the options document it, computed here on its own. */
static long limit_of(double pw, double alpha, long visits)
{
    double l = ceil(pw * pow((double)visits, alpha) - 1e-9);
    return l < 1.0 ? 1 : (long)l;
}

/* Walks the tree under node (a wide game: every node's moves are all n, always legal). */
static void walk_node(const mcts_t *m, uint32_t node, double pw, double alpha, int n, walk_t *w)
{
    uint32_t count;
    const mcts_edge_t *kids = mcts_kids(m, node, &count);
    long visits = atomic_load_explicit(&m->nodes[node].visits, memory_order_relaxed);
    w->nodes++;
    if (pw > 0.0) {
        long limit = limit_of(pw, alpha, visits);
        if ((long)count > limit) {
            w->over++;
            fprintf(stderr, "node %u: %u children, %ld visits, limit %ld\n", (unsigned)node,
                    (unsigned)count, visits, limit);
        }
        if ((long)count == limit && (int)count < n)
            w->at_limit++;
    }
    for (uint32_t j = 0; j < count; j++)
        walk_node(m, kids[j].child, pw, alpha, n, w);
}

static walk_t walk_tree(const mcts_t *m, double pw, double alpha, int n)
{
    walk_t w = {0};
    uint32_t root = m->roots[0];
    (void)mcts_kids(m, root, &w.root_kids);
    walk_node(m, root, pw, alpha, n, &w);
    return w;
}

static void check_tree(const mcts_t *m, const char *what)
{
    char err[256];
    int rc = mcts_check(m, err, sizeof err);
    CHECK_MSG(rc == 0, "%s: %s", what, err);
}

/* A search of a 3-ply wide game with n = 60: the limit holds at every node. */
static void test_limit(void)
{
    const double cases[][2] = {{1.0, 0.5}, {2.0, 0.4}, {0.5, 0.7}};
    for (int threads = 1; threads <= 2; threads++) {
        for (int k = 0; k < 3; k++) {
            for (int with_prior = 0; with_prior < 2; with_prior++) {
                wide_state_t s;
                wide_set(&s, 3, 60);
                mcts_options_t opt;
                mcts_options_default(&opt);
                opt.iterations = 1500;
                opt.threads = threads;
                opt.seed = 7;
                opt.pw = cases[k][0];
                opt.pw_alpha = cases[k][1];
                if (with_prior) {
                    opt.prior = wide_prior;
                    opt.fpu = 0.3;
                }
                mcts_t *m = mcts_new(&wide_api, &opt);
                CHECK(m != NULL);
                if (!m)
                    continue;
                mcts_stats_t st;
                move_t mv = mcts_search(m, &s, &st);
                CHECK(mv < 60);
                char what[96];
                snprintf(what, sizeof what, "%d thread(s), pw %g, alpha %g, prior %d", threads,
                         opt.pw, opt.pw_alpha, with_prior);
                check_tree(m, what);
                walk_t w = walk_tree(m, opt.pw, opt.pw_alpha, 60);
                CHECK_MSG(w.over == 0, "%s: %ld nodes over the limit", what, w.over);
                long root_limit = limit_of(opt.pw, opt.pw_alpha, st.iterations);
                CHECK_MSG((long)w.root_kids <= root_limit, "%s: root %u > %ld", what,
                          (unsigned)w.root_kids, root_limit);
                /* With fpu 10 a move is expanded whenever the limit lets it: the limit is
                   what stops the growth (fpu 0.3 with the prior expands more rarely). */
                /* With two threads a thread sees the other's results up to a batch of
                   iterations late (sync 64), so its last limit may be that much lower. */
                if (!with_prior) {
                    CHECK_MSG(w.at_limit > 0, "%s: no node at its limit", what);
                    long lag = threads > 1 ? 2 * 64 : 0;
                    long low = limit_of(opt.pw, opt.pw_alpha, st.iterations - lag);
                    long want = root_limit < 60 ? root_limit : 60;
                    long least = low < 60 ? low : 60;
                    CHECK_MSG((long)w.root_kids >= least && (long)w.root_kids <= want,
                              "%s: root %u, limit %ld", what, (unsigned)w.root_kids, root_limit);
                }
                int visited = 0;
                for (int i = 0; i < st.root_move_count; i++)
                    visited += st.root_moves[i].visits > 0;
                CHECK_EQ_INT(visited, w.root_kids);
                mcts_free(m);
            }
        }
    }
}

/* Without widening (pw 0, the default) every legal move of the root gets a child. */
static void test_off(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        wide_state_t s;
        wide_set(&s, 3, 60);
        mcts_options_t opt;
        mcts_options_default(&opt);
        CHECK(opt.pw == 0.0);
        opt.iterations = 1500;
        opt.threads = threads;
        mcts_t *m = mcts_new(&wide_api, &opt);
        mcts_stats_t st;
        mcts_search(m, &s, &st);
        walk_t w = walk_tree(m, 0.0, 0.5, 60);
        CHECK_EQ_INT(w.root_kids, 60);
        /* Below the root too, nodes with more visits than moves have every move. */
        check_tree(m, "pw off");
        mcts_free(m);
    }
}

/* The best of 240 moves, with 300 iterations and a prior that puts it second. */
static move_t bandit(double pw, bool prior, double fpu)
{
    wide_state_t s;
    wide_set(&s, 1, WIDE_MOVES);
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = 300;
    opt.seed = 3;
    opt.pw = pw;
    opt.fpu = fpu;
    if (prior)
        opt.prior = wide_prior;
    mcts_t *m = mcts_new(&wide_api, &opt);
    move_t mv = mcts_search(m, &s, NULL);
    check_tree(m, "bandit");
    mcts_free(m);
    return mv;
}

static void test_bandit(void)
{
    /* Widening with the prior's order: the decoy and the best move come first, and the
       search has the visits to tell them apart. */
    CHECK_EQ_INT(bandit(1.0, true, 10.0), WIDE_BEST);
    CHECK_EQ_INT(bandit(0.5, true, 10.0), WIDE_BEST);
    /* The same prior without widening: 240 moves tried once each leave 60 iterations. */
    CHECK(bandit(0.0, true, 10.0) != WIDE_BEST);
    /* Widening without a prior adds moves in random order: 18 of 240 rarely hold it. */
    CHECK(bandit(1.0, false, 10.0) != WIDE_BEST);
}

/* Hidden information (trick: the other hands differ per determinization) and two threads:
   the tree stays sound and the moves legal over whole games. */
static void test_hidden(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        trick_state_t s;
        trick_deal(&s, 5);
        mcts_options_t opt;
        mcts_options_default(&opt);
        opt.iterations = 600;
        opt.threads = threads;
        opt.pw = 1.0;
        mcts_t *m = mcts_new(&trick_api, &opt);
        trick_state_t undo;
        while (!trick_is_terminal(&s)) {
            move_t mv = mcts_search(m, &s, NULL);
            CHECK(toy_is_legal(&trick_api, &s, mv));
            check_tree(m, "trick");
            trick_make(&s, mv, &undo);
            mcts_advance(m, mv);
        }
        mcts_free(m);
    }
}

/* Nim still solved with widening on (3 moves: the limit binds only for a few visits). */
static void test_nim(void)
{
    for (int pile = 9; pile <= 14; pile++) {
        if (!nim_wins(pile))
            continue;
        nim_state_t s;
        nim_set(&s, pile, 0);
        mcts_options_t opt;
        mcts_options_default(&opt);
        opt.iterations = 4000;
        opt.pw = 1.0;
        mcts_t *m = mcts_new(&nim_api, &opt);
        move_t mv = mcts_search(m, &s, NULL);
        CHECK_MSG(nim_move_wins(pile, mv), "pile %d: move %u", pile, (unsigned)mv);
        check_tree(m, "nim");
        mcts_free(m);
    }
}

/*
 * The real games, 3 players, two threads on one tree: searches with widening leave a sound
 * tree, and whole games of bots with `pw=` (the best preset: heuristic prior) play only
 * legal moves.
 */
static void test_games(void)
{
    for (int g = 0; g < 2; g++) {
        const game_api_t *api = g ? &uptown_api : &towerup_api;
        alignas(16) unsigned char s[2048], undo[GAME_UNDO_MAX];
        game_options_t o;
        game_options_default(&o);
        o.players = 3;
        o.seed = 17;
        char err[256];
        CHECK(api->new_game(s, &o, err, sizeof err) == 0);
        mcts_options_t opt;
        mcts_options_default(&opt);
        opt.iterations = 800;
        opt.threads = 2;
        opt.pw = 1.0;
        mcts_t *m = mcts_new(api, &opt);
        for (int k = 0; k < 3; k++) {
            mcts_stats_t st;
            move_t mv = mcts_search(m, s, &st);
            CHECK(toy_is_legal(api, s, mv));
            check_tree(m, api->name);
            int visited = 0;
            for (int i = 0; i < st.root_move_count; i++)
                visited += st.root_moves[i].visits > 0;
            CHECK_MSG(visited <= limit_of(1.0, 0.5, st.iterations + st.reused_visits),
                      "%s: %d root moves visited", api->name, visited);
            api->make(s, mv, undo);
            mcts_advance(m, mv);
        }
        mcts_free(m);

        CHECK(api->new_game(s, &o, err, sizeof err) == 0);
        bot_t *bots[3];
        for (int p = 0; p < 3; p++) {
            bots[p] = bot_new(api, "mcts:iters=150,threads=2,pw=2,pw_a=0.4", (uint64_t)p + 1, err,
                              sizeof err);
            CHECK_MSG(bots[p] != NULL, "%s", err);
            if (bots[p])
                bot_begin(bots[p], s, &o, p);
        }
        int plies = 0;
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

/* The bot's keys: pw_a alone would change nothing and is refused. */
static void test_keys(void)
{
    static const struct {
        const char *spec; /* the bot spec */
        bool ok;          /* accepted */
    } cases[] = {
        {"mcts:pw=1", true},           {"mcts:pw=0.5,pw_a=0.3", true}, {"mcts:pw_a=0.3", false},
        {"mcts:pw=0,pw_a=0.3", false}, {"mcts:pw=-1", false},          {"mcts:pw=1,pw_a=2", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256] = "";
        bot_t *b = bot_new(&towerup_api, cases[i].spec, 1, err, sizeof err);
        CHECK_MSG((b != NULL) == cases[i].ok, "%s: %s", cases[i].spec, err);
        if (!cases[i].ok)
            CHECK_MSG(strstr(err, "pw") != NULL, "%s: %s", cases[i].spec, err);
        bot_free(b);
    }
}

/* Out-of-range options are refused. */
static void test_options(void)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    CHECK_EQ_INT((long)(opt.pw_alpha * 100), 50);
    opt.pw = -1.0;
    CHECK(mcts_new(&wide_api, &opt) == NULL);
    opt.pw = NAN;
    CHECK(mcts_new(&wide_api, &opt) == NULL);
    opt.pw = 1.0;
    opt.pw_alpha = 1.5;
    CHECK(mcts_new(&wide_api, &opt) == NULL);
    opt.pw_alpha = 0.0; /* a fixed number of children: ceil(pw) */
    mcts_t *m = mcts_new(&wide_api, &opt);
    CHECK(m != NULL);
    wide_state_t s;
    wide_set(&s, 2, 30);
    mcts_search(m, &s, NULL);
    walk_t w = walk_tree(m, 1.0, 0.0, 30);
    CHECK_EQ_INT(w.root_kids, 1);
    CHECK_EQ_INT(w.over, 0);
    mcts_free(m);
}

int main(void)
{
    test_limit();
    test_off();
    test_bandit();
    test_hidden();
    test_nim();
    test_games();
    test_keys();
    test_options();
    return test_finish("test_search_pw");
}
