/*
 * The search variants that learn from every move of an iteration (search/amaf.h):
 *  - RAVE's AMAF statistics equal a brute-force count: a tiny fixed-length game logs the
 *    whole move sequence of every iteration (its result function sees the final state),
 *    the test rebuilds the tree from those sequences by the expansion rule (one new node,
 *    the first missing one along the sequence) and counts, for each node on each path,
 *    the children whose move the child's mover played at that node or later;
 *  - on a game where move values do not depend on the order (taking items), RAVE finds
 *    the best root move on more seeds than plain UCT at the same small budget;
 *  - MAST: where one move is good in every position, the table ranks it first for both
 *    players and its playouts pick it far more often than uniformly;
 *  - NST: where one move is good right after a given move, its 2-gram lifts its score
 *    after that move, and the playout picks it there;
 *  - every variant plays whole games of Tower Up, Uptown and Connect Four with two threads
 *    on one tree (mcts_check after every search, tree reuse included), and one thread
 *    searches deterministically.
 */
#include <math.h>
#include <stdalign.h>
#include <string.h>

#include "bots/bot.h"
#include "bots/heuristic.h"
#include "bots/mcts_bot.h"
#include "core/connect4/connect4.h"
#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "search/amaf.h"
#include "search/internal.h"
#include "tests/test.h"

/* ---- seq: a fixed-length 2-player game whose moves are numbers ---- */

#define SEQ_MAX 16

typedef enum seq_kind {
    SEQ_AMAF, /* width 3, 4 plies: points by (move + ply) % 3 */
    SEQ_MAST, /* width 8, 10 plies: a point for each own 3 */
    SEQ_NST,  /* width 8, 10 plies: a point for each own 5 right after the other's 2 */
    SEQ_PICK  /* 8 items of distinct values, 3 taken by each: the greater sum wins */
} seq_kind_t;

typedef struct seq_state {
    seq_kind_t kind;      /* the rules */
    int ply;              /* moves made */
    int len;              /* moves in a game */
    int width;            /* moves per ply (items in SEQ_PICK) */
    unsigned taken;       /* SEQ_PICK: items taken, bit per item */
    move_t hist[SEQ_MAX]; /* the moves made */
} seq_state_t;

/* SEQ_PICK: the items' values (item 1 is the best). */
static const int pick_value[12] = {3, 12, 1, 7, 10, 4, 8, 2, 11, 6, 9, 5};

static void seq_init(seq_state_t *s, seq_kind_t kind)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->len = kind == SEQ_AMAF ? 4 : kind == SEQ_PICK ? 8 : 10;
    s->width = kind == SEQ_AMAF ? 3 : kind == SEQ_PICK ? 12 : 8;
}

static void seq_copy(void *dst, const void *src) { memcpy(dst, src, sizeof(seq_state_t)); }

static int seq_gen_moves(const void *state, move_t *moves)
{
    const seq_state_t *s = state;
    int n = 0;
    if (s->ply >= s->len)
        return 0;
    for (int i = 0; i < s->width; i++)
        if (!(s->taken >> i & 1u))
            moves[n++] = (move_t)i;
    return n;
}

static void seq_make(void *state, move_t m, void *undo)
{
    seq_state_t *s = state;
    (void)undo;
    s->hist[s->ply++] = m;
    if (s->kind == SEQ_PICK)
        s->taken |= 1u << m;
}

static bool seq_is_terminal(const void *state)
{
    const seq_state_t *s = state;
    return s->ply >= s->len;
}

static int seq_to_move(const void *state) { return ((const seq_state_t *)state)->ply % 2; }

static int seq_player_count(const void *state)
{
    (void)state;
    return 2;
}

/* Points of both players of a finished sequence. */
static void seq_points(const seq_state_t *s, int *pts)
{
    pts[0] = pts[1] = 0;
    for (int k = 0; k < s->len; k++) {
        move_t m = s->hist[k];
        int p = k % 2;
        switch (s->kind) {
        case SEQ_AMAF: pts[p] += (int)(m + (move_t)k) % 3; break;
        case SEQ_MAST: pts[p] += m == 3; break;
        case SEQ_NST: pts[p] += m == 5 && k > 0 && s->hist[k - 1] == 2; break;
        case SEQ_PICK: pts[p] += pick_value[m]; break;
        }
    }
}

/* The iterations' sequences, logged by seq_result while seq_logging (one thread). */
#define LOG_MAX 4096
static bool seq_logging;
static int log_count;
static move_t log_hist[LOG_MAX][SEQ_MAX];
static double log_value[LOG_MAX][2];

static void seq_result(const void *state, double *res)
{
    const seq_state_t *s = state;
    int pts[2];
    seq_points(s, pts);
    if (s->kind == SEQ_PICK) /* the margin: sums differ by at most 26 */
        res[0] = 0.5 + (pts[0] - pts[1]) / 52.0;
    else
        res[0] = pts[0] > pts[1] ? 1.0 : pts[0] < pts[1] ? 0.0 : 0.5;
    res[1] = 1.0 - res[0];
    if (seq_logging && log_count < LOG_MAX) {
        memcpy(log_hist[log_count], s->hist, sizeof s->hist);
        log_value[log_count][0] = res[0];
        log_value[log_count][1] = res[1];
        log_count++;
    }
}

static const game_api_t seq_api = {
    .name = "seq",
    .min_players = 2,
    .max_players = 2,
    .state_size = sizeof(seq_state_t),
    .undo_size = 16,
    .copy = seq_copy,
    .gen_moves = seq_gen_moves,
    .make = seq_make,
    .is_terminal = seq_is_terminal,
    .to_move = seq_to_move,
    .player_count = seq_player_count,
    .result = seq_result,
};

/* ---- RAVE: AMAF statistics against a brute-force count ---- */

#define BF_W 3
#define BF_L 4

/* Prefix tree of the brute force: bf_exists[len][code], code the prefix in base BF_W. */
static bool bf_exists[BF_L + 1][81];
static long bf_count[BF_L + 1][81];
static double bf_sum[BF_L + 1][81];

static int prefix_code(const move_t *h, int len)
{
    int c = 0;
    for (int k = 0; k < len; k++)
        c = c * BF_W + (int)h[k];
    return c;
}

/* Replays the logged iterations: the tree grows by the expansion rule, and each path
   node's children whose move their mover played there or later are counted. */
static void bf_replay(void)
{
    memset(bf_exists, 0, sizeof bf_exists);
    memset(bf_count, 0, sizeof bf_count);
    memset(bf_sum, 0, sizeof bf_sum);
    bf_exists[0][0] = true;
    for (int it = 0; it < log_count; it++) {
        const move_t *h = log_hist[it];
        int d = 0;
        while (d < BF_L && bf_exists[d + 1][prefix_code(h, d + 1)])
            d++;
        if (d < BF_L) {
            d++;
            bf_exists[d][prefix_code(h, d)] = true;
        }
        for (int i = 0; i <= d && i < BF_L; i++) {
            int mover = i % 2, base = prefix_code(h, i);
            for (int mv = 0; mv < BF_W; mv++) {
                int c = base * BF_W + mv;
                if (!bf_exists[i + 1][c])
                    continue;
                bool played = false;
                for (int k = i; k < BF_L; k += 2)
                    played |= h[k] == (move_t)mv;
                if (played) {
                    bf_count[i + 1][c]++;
                    bf_sum[i + 1][c] += log_value[it][mover];
                }
            }
        }
    }
}

/* The search's node for prefix code c of length len, or 0. */
static uint32_t node_of(const mcts_t *m, int len, int c)
{
    move_t h[BF_L];
    for (int k = len - 1; k >= 0; k--) {
        h[k] = (move_t)(c % BF_W);
        c /= BF_W;
    }
    uint32_t n = m->roots[0];
    for (int k = 0; k < len && n; k++)
        n = mcts_tree_find_child(m, n, h[k]);
    return n;
}

static void test_amaf_exact(const char *what, mcts_playout_t playout, int grave, int iters)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = iters;
    opt.rave_k = 50.0;
    opt.grave_ref = grave;
    opt.playout = playout;
    opt.seed = 7;
    mcts_t *m = mcts_new(&seq_api, &opt);
    CHECK(m != NULL);
    if (!m)
        return;
    seq_state_t s;
    seq_init(&s, SEQ_AMAF);
    log_count = 0;
    seq_logging = true;
    mcts_stats_t st;
    mcts_search(m, &s, &st);
    seq_logging = false;
    CHECK_EQ_INT(log_count, iters);
    bf_replay();
    long nodes = 0, counted = 0, mismatches = 0;
    for (int len = 1; len <= BF_L; len++) {
        int codes = 1;
        for (int k = 0; k < len; k++)
            codes *= BF_W;
        for (int c = 0; c < codes; c++) {
            uint32_t n = node_of(m, len, c);
            CHECK_MSG((n != 0) == bf_exists[len][c], "%s: node %d/%d in the tree: %d, brute: %d",
                      what, len, c, n != 0, bf_exists[len][c]);
            if (!n || !bf_exists[len][c])
                continue;
            nodes++;
            int32_t v = atomic_load_explicit(&m->amaf[n].visits, memory_order_relaxed);
            double sum = (double)atomic_load_explicit(&m->amaf[n].sum, memory_order_relaxed) /
                         MCTS_VALUE_ONE;
            counted += v;
            if (v != bf_count[len][c] || fabs(sum - bf_sum[len][c]) > 1e-6) {
                mismatches++;
                CHECK_MSG(false, "%s: node %d/%d: AMAF %d visits %.3f, brute force %ld %.3f", what,
                          len, c, v, sum, bf_count[len][c], bf_sum[len][c]);
            }
        }
    }
    CHECK_EQ_INT(nodes, mcts_tree_nodes(m) - 1);
    CHECK_EQ_INT(mismatches, 0);
    /* Moves recur, so AMAF counts well beyond the visits. */
    CHECK_MSG(counted > 2L * iters, "%s: %ld AMAF visits in all", what, counted);
    char err[256];
    CHECK_MSG(mcts_check(m, err, sizeof err) == 0, "%s: %s", what, err);
    mcts_free(m);
}

/* ---- RAVE against plain UCT where move values do not depend on the order ---- */

/* Seeds (of 1..seeds) whose search of the initial SEQ_PICK position plays the best item. */
static int pick_best_count(double rave_k, int grave, long iters, int seeds)
{
    int right = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        mcts_options_t opt;
        mcts_options_default(&opt);
        opt.iterations = iters;
        opt.rave_k = rave_k;
        opt.grave_ref = grave;
        opt.seed = (uint64_t)seed;
        mcts_t *m = mcts_new(&seq_api, &opt);
        CHECK(m != NULL);
        if (!m)
            continue;
        seq_state_t s;
        seq_init(&s, SEQ_PICK);
        right += mcts_search(m, &s, NULL) == 1;
        mcts_free(m);
    }
    return right;
}

static void test_rave_faster(void)
{
    /* With K = 300 (seeds 1 to 20, 2026-11-26): UCT 8 and 13 right, RAVE 15 and 18. */
    enum { SEEDS = 20 };
    int plain = 0, rave = 0, grave = 0;
    for (long iters = 100; iters <= 200; iters += 100) {
        plain += pick_best_count(0.0, 0, iters, SEEDS);
        rave += pick_best_count(300.0, 0, iters, SEEDS);
        grave += pick_best_count(300.0, 20, iters, SEEDS);
    }
    printf("best item at 100 and 200 iterations, %d seeds each: UCT %d, RAVE %d, GRAVE %d\n", SEEDS,
           plain, rave, grave);
    CHECK_MSG(rave >= plain + 8, "RAVE %d, UCT %d", rave, plain);
    CHECK_MSG(grave >= plain + 8, "GRAVE %d, UCT %d", grave, plain);
    /* Plain UCT gets there with more iterations. */
    CHECK(pick_best_count(0.0, 0, 3000, 4) == 4);
}

/* GRAVE's reference: at a node of the tiny game two moves deep (the root's player to move
   again), the AMAF statistics come from the node's own children while it has REF visits,
   else from the root's (the closest node with that player to move). */
static void test_grave_ref(void)
{
    for (int ref = 0; ref <= 2; ref++) {
        mcts_options_t opt;
        mcts_options_default(&opt);
        opt.iterations = 300;
        opt.rave_k = 50.0;
        opt.grave_ref = 1;
        mcts_t *m = mcts_new(&seq_api, &opt);
        CHECK(m != NULL);
        if (!m)
            return;
        seq_state_t s;
        seq_init(&s, SEQ_AMAF);
        mcts_search(m, &s, NULL);
        uint32_t root = m->roots[0];
        uint32_t c1 = mcts_tree_find_child(m, root, 0);
        uint32_t c2 = c1 ? mcts_tree_find_child(m, c1, 1) : 0;
        CHECK(c2 != 0);
        if (!c2) {
            mcts_free(m);
            return;
        }
        int32_t visits = atomic_load_explicit(&m->nodes[c2].visits, memory_order_relaxed);
        /* ref 0: the node's own (REF 1); 1: exactly its visits, own; 2: one more, the root. */
        m->opt.grave_ref = ref == 0 ? 1 : ref == 1 ? visits : visits + 1;
        mcts_thread_t *th = m->threads[0];
        th->path[0] = root;
        th->path[1] = c1;
        th->path[2] = c2;
        th->path_player[0] = -1;
        th->path_player[1] = 0;
        th->path_player[2] = 1;
        th->path_len = 3;
        for (int i = 0; i < 3; i++)
            th->moves[i] = (move_t)i;
        mcts_moves_index(th, 3);
        for (int i = 0; i < 3; i++)
            th->child_of[i] = mcts_tree_find_child(m, c2, (move_t)i);
        mcts_grave_prepare(m, th, c2, 3, 0);
        for (int i = 0; i < 3; i++) {
            if (!th->child_of[i])
                continue;
            uint32_t want = ref < 2 ? th->child_of[i] : mcts_tree_find_child(m, root, (move_t)i);
            CHECK_MSG(th->trace->src[i] == want, "REF case %d, move %d: source %u, not %u", ref, i,
                      th->trace->src[i], want);
        }
        mcts_free(m);
    }
}

/* ---- MAST and NST ---- */

/* A one-thread search of the initial position of kind with playout policy pl. */
static mcts_t *search_seq(seq_kind_t kind, mcts_playout_t pl, long iters)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.iterations = iters;
    opt.playout = pl;
    opt.seed = 3;
    mcts_t *m = mcts_new(&seq_api, &opt);
    CHECK(m != NULL);
    if (!m)
        return NULL;
    seq_state_t s;
    seq_init(&s, kind);
    mcts_search(m, &s, NULL);
    return m;
}

static void test_mast(void)
{
    mcts_t *m = search_seq(SEQ_MAST, MCTS_PLAYOUT_MAST, 3000);
    if (!m)
        return;
    mcts_thread_t *th = m->threads[0];
    for (int p = 0; p < 2; p++) {
        double best = -1.0;
        move_t best_mv = 0;
        for (move_t mv = 0; mv < 8; mv++) {
            int32_t count;
            double mean = mcts_mast_mean(th->trace, p, mv, &count);
            CHECK_MSG(count > 100, "player %d move %u: MAST count %d", p, (unsigned)mv, count);
            if (mean > best) {
                best = mean;
                best_mv = mv;
            }
        }
        CHECK_MSG(best_mv == 3, "player %d: MAST ranks %u first", p, (unsigned)best_mv);
        /* Its playouts pick 3 far more often than 1 in 8. */
        int picks = 0, draws = 4000;
        for (int k = 0; k < draws; k++) {
            for (int i = 0; i < 8; i++)
                th->moves[i] = (move_t)i;
            picks += th->moves[mcts_playout_pick(m, th, 8, p)] == 3;
        }
        printf("MAST, player %d: move 3 picked %d of %d times\n", p, picks, draws);
        CHECK_MSG(picks > draws / 4, "player %d: 3 picked %d of %d times", p, picks, draws);
    }
    mcts_free(m);
}

static void test_nst(void)
{
    mcts_t *m = search_seq(SEQ_NST, MCTS_PLAYOUT_NST, 3000);
    if (!m)
        return;
    mcts_thread_t *th = m->threads[0];
    int min = m->opt.nst_min;
    for (int p = 0; p < 2; p++) {
        move_t after2[2] = {2, 0}, after0[2] = {0, 0};
        double s5_2 = mcts_nst_score(th->trace, p, 5, after2, 1, min);
        double s5_0 = mcts_nst_score(th->trace, p, 5, after0, 1, min);
        printf("NST, player %d: score of 5 after 2 %.3f, after 0 %.3f\n", p, s5_2, s5_0);
        CHECK_MSG(s5_2 > s5_0 + 0.1, "player %d: 5 after 2 %.3f, after 0 %.3f", p, s5_2, s5_0);
        for (move_t mv = 0; mv < 8; mv++)
            if (mv != 5)
                CHECK_MSG(mcts_nst_score(th->trace, p, mv, after2, 1, min) < s5_2,
                          "player %d: %u after 2 scores as well as 5", p, (unsigned)mv);
        /* The playout, right after a 2, picks 5 (greedy but for nst_eps). */
        int picks = 0, draws = 2000;
        for (int k = 0; k < draws; k++) {
            th->trace->prev[0] = 2;
            th->trace->prev[1] = 0;
            th->trace->played = 5;
            for (int i = 0; i < 8; i++)
                th->moves[i] = (move_t)i;
            picks += th->moves[mcts_playout_pick(m, th, 8, p)] == 5;
        }
        CHECK_MSG(picks > draws * 8 / 10, "player %d: 5 picked %d of %d times after 2", p, picks,
                  draws);
    }
    mcts_free(m);
}

/* ---- Whole games with two threads ---- */

typedef struct any_state {
    alignas(16) unsigned char bytes[2048]; /* the state's bytes */
} any_state_t;

/* The heuristic's evaluate as the search's hook (the mcts bot's cutoff). */
static void eval_hook(const game_api_t *api, const void *state, double *values, void *ctx)
{
    const heuristic_t *h = heuristic_for(api);
    h->evaluate(state, ctx, values);
}

typedef struct variant {
    const char *name;       /* for messages */
    mcts_playout_t playout; /* playout policy */
    double rave_k;          /* RAVE */
    int grave_ref;          /* GRAVE */
    int cutoff;             /* > 0: that many moves, then the heuristic's evaluate */
} variant_t;

static const variant_t variants[] = {
    {"mast", MCTS_PLAYOUT_MAST, 0.0, 0, 0},
    {"nst", MCTS_PLAYOUT_NST, 0.0, 0, 0},
    {"rave", MCTS_PLAYOUT_HOOK, 200.0, 0, 0},
    {"grave", MCTS_PLAYOUT_HOOK, 200.0, 10, 0},
    {"mast+rave", MCTS_PLAYOUT_MAST, 200.0, 0, 0},
    {"nst+cutoff", MCTS_PLAYOUT_NST, 0.0, 0, 4},
    {"grave+cutoff", MCTS_PLAYOUT_HOOK, 200.0, 10, 4},
};

static void play_game(const game_api_t *api, int players, const variant_t *v, uint64_t seed)
{
    any_state_t s, undo;
    game_options_t o;
    game_options_default(&o);
    o.players = players;
    o.seed = seed;
    char err[256];
    CHECK_MSG(api->new_game(&s, &o, err, sizeof err) == 0, "%s", err);
    heur_params_t w;
    const heuristic_t *h = heuristic_for(api);
    if (v->cutoff && !h)
        return;
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.threads = 2;
    opt.iterations = 40;
    opt.seed = seed;
    opt.playout = v->playout;
    opt.rave_k = v->rave_k;
    opt.grave_ref = v->grave_ref;
    if (v->cutoff) {
        heur_params_default(h, &w);
        opt.cutoff_depth = v->cutoff;
        opt.evaluate = eval_hook;
        opt.evaluate_ctx = &w;
    }
    mcts_t *m = mcts_new(api, &opt);
    CHECK(m != NULL);
    if (!m)
        return;
    move_t moves[GAME_MAX_MOVES];
    int plies = 0;
    while (!api->is_terminal(&s) && plies < 2000) {
        move_t mv = mcts_search(m, &s, NULL);
        int rc = mcts_check(m, err, sizeof err);
        CHECK_MSG(rc == 0, "%s %s, ply %d: %s", api->name, v->name, plies, err);
        int n = api->gen_moves(&s, moves), legal = 0;
        for (int i = 0; i < n; i++)
            legal |= moves[i] == mv;
        CHECK_MSG(legal, "%s %s, ply %d: illegal move", api->name, v->name, plies);
        if (rc || !legal)
            break;
        api->make(&s, mv, &undo);
        mcts_advance(m, mv);
        plies++;
    }
    CHECK_MSG(api->is_terminal(&s), "%s %s: game not finished", api->name, v->name);
    mcts_free(m);
}

static void test_games(void)
{
    for (size_t k = 0; k < sizeof variants / sizeof *variants; k++) {
        play_game(&towerup_api, 2, &variants[k], 1 + k);
        play_game(&uptown_api, 2, &variants[k], 1 + k);
        play_game(&connect4_api, 2, &variants[k], 1 + k);
    }
}

/* One thread with a fixed seed: the same search twice, every variant. */
static void test_deterministic(void)
{
    for (size_t k = 0; k < sizeof variants / sizeof *variants; k++) {
        if (variants[k].cutoff)
            continue;
        long visits[2][12] = {{0}};
        move_t mv[2] = {0, 0};
        for (int r = 0; r < 2; r++) {
            mcts_options_t opt;
            mcts_options_default(&opt);
            opt.iterations = 500;
            opt.playout = variants[k].playout;
            opt.rave_k = variants[k].rave_k;
            opt.grave_ref = variants[k].grave_ref;
            mcts_t *m = mcts_new(&seq_api, &opt);
            CHECK(m != NULL);
            if (!m)
                return;
            seq_state_t s;
            seq_init(&s, SEQ_PICK);
            mcts_stats_t st;
            mv[r] = mcts_search(m, &s, &st);
            for (int i = 0; i < st.root_move_count && i < 12; i++)
                visits[r][st.root_moves[i].move] = st.root_moves[i].visits;
            mcts_free(m);
        }
        CHECK_MSG(mv[0] == mv[1] && !memcmp(visits[0], visits[1], sizeof visits[0]),
                  "%s: two searches differ", variants[k].name);
    }
}

/* A rollout hook (its moves are not seen by the search). */
static void some_rollout(const game_api_t *api, void *state, pcg32_t *rng, void *ctx)
{
    (void)ctx;
    api->playout(state, rng);
}

/* Options that cannot work together are refused. */
static void test_refused(void)
{
    mcts_options_t opt;
    mcts_options_default(&opt);
    opt.grave_ref = 5; /* without RAVE */
    CHECK(mcts_new(&seq_api, &opt) == NULL);
    mcts_options_default(&opt);
    opt.rave_k = 10.0;
    opt.rollout = some_rollout;
    CHECK(mcts_new(&seq_api, &opt) == NULL);
    mcts_options_default(&opt);
    opt.mast_temp = 0.0;
    CHECK(mcts_new(&seq_api, &opt) == NULL);
}

/* The mcts bot's keys: what each sets, and the combinations refused in one line. */
static void test_bot_keys(void)
{
    static const struct {
        const char *spec;  /* the bot */
        mcts_playout_t pl; /* expected playout policy */
        double rave_k;     /* expected K */
        int grave_ref;     /* expected REF */
        int cutoff;        /* expected cutoff, -1: none */
    } ok[] = {
        {"mcts:rollout=mast", MCTS_PLAYOUT_MAST, 0.0, 0, -1},
        {"mcts:rollout=nst,nst_eps=0.2,nst_min=3", MCTS_PLAYOUT_NST, 0.0, 0, -1},
        {"mcts:rollout=mast,mast_temp=0.5,cutoff=4", MCTS_PLAYOUT_MAST, 0.0, 0, 4},
        {"mcts:rave=100", MCTS_PLAYOUT_HOOK, 100.0, 0, 8},
        {"mcts:grave=10", MCTS_PLAYOUT_HOOK, 300.0, 10, 8},
        {"mcts:rave=50,grave=10,rollout=nst", MCTS_PLAYOUT_NST, 50.0, 10, -1},
    };
    char err[GAME_ERR_MAX];
    for (size_t k = 0; k < sizeof ok / sizeof *ok; k++) {
        bot_t *b = bot_new(&towerup_api, ok[k].spec, 1, err, sizeof err);
        CHECK_MSG(b != NULL, "%s: %s", ok[k].spec, err);
        if (!b)
            continue;
        const mcts_options_t *o = mcts_bot_options(b);
        CHECK_MSG(o->playout == ok[k].pl && o->rave_k == ok[k].rave_k &&
                      o->grave_ref == ok[k].grave_ref &&
                      (o->evaluate ? o->cutoff_depth : -1) == ok[k].cutoff,
                  "%s: options", ok[k].spec);
        bot_free(b);
    }
    static const char *const refused[][2] = {
        {"mcts:rave=0,grave=5", "needs rave"},
        {"mcts:rave=10,rollout=heuristic", "exclude"},
        {"mcts:grave=3,rollout=heuristic", "exclude"},
        {"mcts:mast_temp=0.2", "rollout=mast"},
        {"mcts:rollout=mast,nst_min=3", "rollout=nst"},
        {"mcts:rollout=mast,mast_temp=0", "mast_temp"},
        {"mcts:rave=10,backup=brs", "excludes"},
        {"mcts:rollout=nst,backup=brs", "excludes"},
        {"mcts:rave=10,tree=multi", "excludes"},
        {"mcts:rollout=mast,tree=multi", "excludes"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof *refused; k++) {
        bot_t *b = bot_new(&towerup_api, refused[k][0], 1, err, sizeof err);
        CHECK_MSG(b == NULL && strstr(err, refused[k][1]) && !strchr(err, '\n'),
                  "%s: accepted or unclear: %s", refused[k][0], err);
        bot_free(b);
    }
}

int main(void)
{
    test_bot_keys();
    test_amaf_exact("rave", MCTS_PLAYOUT_HOOK, 0, 300);
    test_amaf_exact("grave+mast", MCTS_PLAYOUT_MAST, 10, 300);
    test_amaf_exact("rave+nst", MCTS_PLAYOUT_NST, 0, 200);
    test_rave_faster();
    test_grave_ref();
    test_mast();
    test_nst();
    test_deterministic();
    test_refused();
    test_games();
    return test_finish("test_search_amaf");
}
