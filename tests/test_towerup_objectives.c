/*
 * Tower Up objectives (RULES.md 1.8, rules-notes 8): each one just met and just not met by
 * a founding, chips by player count, and several objectives settled in the game's order.
 * Positions are made by editing a state and calling towerup_fix_derived.
 */
#include <string.h>

#include "core/towerup/towerup.h"
#include "tests/test.h"

enum { K, G, W, B };

/* A position on the default board with no buildings, player 0 to move. */
static void blank(towerup_state_t *s, int players, const char *objectives)
{
    game_options_t o;
    game_options_default(&o);
    o.players = players;
    o.seed = 5;
    o.first_player = 0;
    if (objectives)
        test_option(&o, "objectives=%s", objectives);
    char err[GAME_ERR_MAX];
    int rc = towerup_new_game(s, &o, err, sizeof err);
    CHECK_MSG(rc == 0, "%s", err);
    s->phase = TOWERUP_PHASE_PLAY;
    s->setup_done = s->setup_count;
    s->to_move = 0;
    for (int p = 0; p < players; p++) {
        static const uint8_t sup[4] = {4, 2, 2, 2};
        memcpy(s->supply[p], sup, 4);
    }
    towerup_fix_derived(s);
}

/* A building of a colour and height; owner's roofs at the levels in level_bits (bit 1 =
   level 1). Call towerup_fix_derived after the last one. */
static void put(towerup_state_t *s, int site, int colour, int height, int level_bits, int owner)
{
    s->site[site] = (uint8_t)(height | colour << 4);
    s->roofs[site] = 0;
    for (int l = 1; l <= height; l++)
        if (level_bits >> l & 1)
            s->roofs[site] |= (uint32_t)(owner + 1) << (3 * (l - 1));
}

/* Plays a build that must be legal; checks the state afterwards. */
static void build(towerup_state_t *s, int site, int colour, int roof)
{
    move_t moves[GAME_MAX_MOVES], m = towerup_move_build(site, colour, roof);
    int n = towerup_gen_moves(s, moves), found = 0;
    for (int i = 0; i < n; i++)
        found |= moves[i] == m;
    CHECK_MSG(found, "B%d%c^%d is not legal", site, "KGWB"[colour], roof);
    towerup_undo_t u;
    towerup_make(s, m, &u);
    char err[GAME_ERR_MAX];
    CHECK_MSG(towerup_check(s, err, sizeof err) == 0, "%s", err);
}

static int pick(const towerup_board_t *b, uint64_t allowed, uint64_t avoid, int skip)
{
    uint64_t m = allowed & ~avoid & b->all_sites;
    for (; m && skip > 0; skip--)
        m &= m - 1;
    CHECK(m != 0);
    return m ? __builtin_ctzll(m) : 0;
}

/*
 * Player 0 holds one roof (level 1) on each pre[i] (colour cols[i]); a roofless black
 * building stands at N unless N is a pre site; player 0 founds colour c at T, roof on T.
 * `others` other players met the game's first objective before. Returns s after.
 */
static void found_case(towerup_state_t *s, int players, const char *objs, const int *pre,
                       const int *cols, int npre, int T, int c, int N, int others)
{
    blank(s, players, objs);
    const towerup_board_t *b = s->board;
    CHECK(b->nbr[T] >> N & 1);
    bool n_pre = false;
    for (int i = 0; i < npre; i++) {
        CHECK(pre[i] != T && (pre[i] == N || !(b->nbr[T] >> pre[i] & 1)));
        n_pre |= pre[i] == N;
        put(s, pre[i], cols[i], 1, 2, 0);
    }
    if (!n_pre)
        put(s, N, K, 1, 0, 0);
    for (int p = 1; p <= others; p++) {
        s->met[p] = 1;
        s->chips[p][0] = towerup_chip_values(players)[p - 1];
        s->chip_count[p] = 1;
    }
    towerup_fix_derived(s);
    build(s, T, c, T);
}

static bool met_first(const towerup_state_t *s) { return s->met[0] & 1; }

/* A counting objective over a site mask (park, lake): 4 sites met, 3 not. */
static void check_mask_objective(const char *objs, uint64_t mask_of(const towerup_board_t *))
{
    towerup_state_t s;
    blank(&s, 3, objs);
    const towerup_board_t *b = s.board;
    uint64_t mask = mask_of(b);
    int T = pick(b, mask, 0, 0), N = __builtin_ctzll(b->nbr[T]);
    uint64_t avoid = 1ULL << T | 1ULL << N | b->nbr[T];
    int pre[3] = {pick(b, mask, avoid, 0), pick(b, mask, avoid, 1), pick(b, mask, avoid, 2)};
    int cols[3] = {K, K, K};
    found_case(&s, 3, objs, pre, cols, 3, T, G, N, 0);
    CHECK_MSG(met_first(&s), "%s with 4 sites", objs);
    CHECK_EQ_INT(s.chip_count[0], 1);
    CHECK_EQ_INT(s.chips[0][0], 7);
    pre[2] = pick(b, ~mask, avoid, 0);
    found_case(&s, 3, objs, pre, cols, 3, T, G, N, 0);
    CHECK_MSG(!met_first(&s), "%s with 3 sites", objs);
    CHECK_EQ_INT(s.chip_count[0], 0);
}

static uint64_t park_of(const towerup_board_t *b) { return b->park; }
static uint64_t lake_of(const towerup_board_t *b) { return b->lake; }

static void check_colours_and_brown(void)
{
    towerup_state_t s;
    blank(&s, 3, NULL);
    const towerup_board_t *b = s.board;
    int T = 25, N = __builtin_ctzll(b->nbr[T]);
    uint64_t avoid = 1ULL << T | 1ULL << N | b->nbr[T];
    int pre[3] = {pick(b, ~0ULL, avoid, 0), pick(b, ~0ULL, avoid, 1), pick(b, ~0ULL, avoid, 2)};
    int cols[3] = {K, G, W};
    found_case(&s, 3, "colors,park,areas", pre, cols, 3, T, B, N, 0);
    CHECK(met_first(&s));
    found_case(&s, 3, "colors,park,areas", pre, cols, 3, T, W, N, 0);
    CHECK(!met_first(&s));
    /* The black neighbour N holds no roof of the player: it does not count. */
    int cols2[3] = {G, W, B};
    found_case(&s, 3, "colors,park,areas", pre, cols2, 3, T, G, N, 0);
    CHECK(!met_first(&s));

    int brown[3] = {B, B, B};
    found_case(&s, 3, "brown,park,areas", pre, brown, 3, T, B, N, 0);
    CHECK(met_first(&s));
    found_case(&s, 3, "brown,park,areas", pre, brown, 3, T, G, N, 0);
    CHECK(!met_first(&s));
}

static void check_areas_and_grey(void)
{
    towerup_state_t s;
    blank(&s, 3, NULL);
    const towerup_board_t *b = s.board;
    int T = pick(b, b->area_mask[4], 0, 3), N = __builtin_ctzll(b->nbr[T]);
    uint64_t avoid = 1ULL << T | 1ULL << N | b->nbr[T];
    int pre[4], cols[4] = {K, K, K, K};
    for (int a = 0; a < 4; a++)
        pre[a] = pick(b, b->area_mask[a], avoid, 0);
    found_case(&s, 3, "areas,park,colors", pre, cols, 4, T, G, N, 0);
    CHECK(met_first(&s));
    pre[3] = pick(b, b->area_mask[2], avoid, 1);
    found_case(&s, 3, "areas,park,colors", pre, cols, 4, T, G, N, 0);
    CHECK(!met_first(&s));

    /* grey: 3 in one grey area and 2 in the other. */
    uint64_t g0 = b->area_mask[b->grey[0]], g1 = b->area_mask[b->grey[1]];
    int gpre[4] = {pick(b, g0, avoid, 0), pick(b, g0, avoid, 1), pick(b, g0, avoid, 2),
                   pick(b, g1, avoid, 0)};
    found_case(&s, 3, "grey,park,colors", gpre, cols, 4, T, G, N, 0);
    CHECK(met_first(&s));
    int T2 = pick(b, b->area_mask[2], g0 | g1, 2), N2 = __builtin_ctzll(b->nbr[T2]);
    uint64_t avoid2 = 1ULL << T2 | 1ULL << N2 | b->nbr[T2];
    int gpre2[4] = {pick(b, g0, avoid2, 0), pick(b, g0, avoid2, 1), pick(b, g0, avoid2, 2),
                    pick(b, g1, avoid2, 0)};
    found_case(&s, 3, "grey,park,colors", gpre2, cols, 4, T2, G, N2, 0);
    CHECK(!met_first(&s));
    /* 2 and 2 then a third in the second grey area: met the other way round. */
    int gpre3[4] = {pick(b, g0, avoid, 0), pick(b, g0, avoid, 1), pick(b, g1, avoid, 0),
                    pick(b, g1, avoid, 1)};
    found_case(&s, 3, "grey,park,colors", gpre3, cols, 4, T, G, N, 0);
    CHECK(met_first(&s));
}

/* A shortest path from site 0 to a site at distance 4: path[0..4]. */
static void shortest_path(const towerup_board_t *b, int *path)
{
    int dist[TOWERUP_MAX_SITES], from[TOWERUP_MAX_SITES], queue[TOWERUP_MAX_SITES];
    for (int i = 0; i < b->site_count; i++)
        dist[i] = -1;
    int head = 0, tail = 0, end = -1;
    dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail && end < 0) {
        int x = queue[head++];
        for (uint64_t n = b->nbr[x]; n; n &= n - 1) {
            int y = __builtin_ctzll(n);
            if (dist[y] >= 0)
                continue;
            dist[y] = dist[x] + 1;
            from[y] = x;
            queue[tail++] = y;
            if (dist[y] == 4) {
                end = y;
                break;
            }
        }
    }
    for (int i = 4; i >= 0; i--) {
        path[i] = end;
        end = i ? from[end] : end;
    }
}

static void check_connected(void)
{
    towerup_state_t s;
    blank(&s, 3, NULL);
    const towerup_board_t *b = s.board;
    int path[5];
    shortest_path(b, path);
    int cols[4] = {K, K, K, K};
    const char *objs = "connected,park,areas";
    found_case(&s, 3, objs, path, cols, 4, path[4], G, path[3], 0);
    CHECK(met_first(&s));
    found_case(&s, 3, objs, path, cols, 3, path[4], G, path[3], 0);
    CHECK(!met_first(&s));
    /* Five present buildings, but not connected. */
    uint64_t near = 0;
    for (int i = 0; i < 5; i++)
        near |= 1ULL << path[i] | b->nbr[path[i]];
    int pre[4] = {path[0], path[1], path[2], pick(b, ~0ULL, near, 0)};
    found_case(&s, 3, objs, pre, cols, 4, path[4], G, path[3], 0);
    CHECK_EQ_INT(towerup_popcount(s.present[0]), 5);
    CHECK(!met_first(&s));
}

/* Border streets x, y with both ends apart from each other; same: same area pair. */
static bool find_borders(const towerup_board_t *b, bool same, int *sx, int *sy, int *T, int *c)
{
    for (int x = 0; x < b->street_count; x++) {
        if (!b->street_border[x])
            continue;
        int a = b->street_a[x], bb = b->street_b[x];
        uint64_t ab = 1ULL << a | 1ULL << bb;
        for (int y = 0; y < b->street_count; y++) {
            if (!b->street_border[y] || (b->street_pair[x] == b->street_pair[y]) != same)
                continue;
            for (int o = 0; o < 2; o++) {
                int t = o ? b->street_a[y] : b->street_b[y],
                    cc = o ? b->street_b[y] : b->street_a[y];
                if ((ab >> t & 1) || (ab >> cc & 1) || (b->nbr[t] & ab))
                    continue;
                *sx = x, *sy = y, *T = t, *c = cc;
                return true;
            }
        }
    }
    return false;
}

static void check_borders(void)
{
    towerup_state_t s;
    blank(&s, 3, NULL);
    const towerup_board_t *b = s.board;
    int x, y, T, c;
    int cols[3] = {K, K, K};
    const char *objs = "borders,park,areas";
    CHECK(find_borders(b, false, &x, &y, &T, &c));
    int pre[3] = {b->street_a[x], b->street_b[x], c};
    found_case(&s, 3, objs, pre, cols, 3, T, G, c, 0);
    CHECK(met_first(&s));
    CHECK(find_borders(b, true, &x, &y, &T, &c));
    int pre2[3] = {b->street_a[x], b->street_b[x], c};
    found_case(&s, 3, objs, pre2, cols, 3, T, G, c, 0);
    CHECK_EQ_INT(towerup_popcount(s.present[0]), 4);
    CHECK(!met_first(&s));
}

static void check_doubles_heights(void)
{
    towerup_state_t s;
    for (int roof_on_y = 0; roof_on_y < 2; roof_on_y++) {
        /* doubles: X holds two roofs; Y one; a roof on Y's new floor makes two. */
        blank(&s, 3, "doubles,park,areas");
        const towerup_board_t *b = s.board;
        int T = 25, Y = __builtin_ctzll(b->nbr[T]);
        int X = pick(b, ~0ULL, 1ULL << T | b->nbr[T] | b->nbr[Y], 0);
        put(&s, X, W, 2, 6, 0);
        put(&s, Y, K, 1, 2, 0);
        towerup_fix_derived(&s);
        build(&s, T, G, roof_on_y ? Y : T);
        CHECK_EQ_INT(met_first(&s), roof_on_y);
        CHECK_EQ_INT(s.markers[0][roof_on_y ? K : G], roof_on_y ? 2 : 1);

        /* heights: roofs at levels 1, 2, 3; a roof on Z's 4th floor completes them. */
        blank(&s, 3, "heights,park,areas");
        int Z = Y;
        uint64_t avoid = 1ULL << T | b->nbr[T] | b->nbr[Z];
        put(&s, pick(b, ~0ULL, avoid, 0), K, 1, 2, 0);
        put(&s, pick(b, ~0ULL, avoid, 1), K, 2, 4, 0);
        put(&s, pick(b, ~0ULL, avoid, 2), K, 3, 8, 0);
        put(&s, Z, B, 3, 0, 0);
        towerup_fix_derived(&s);
        build(&s, T, G, roof_on_y ? Z : T);
        CHECK_EQ_INT(met_first(&s), roof_on_y);
        CHECK_EQ_INT(s.markers[0][roof_on_y ? B : G], roof_on_y ? 4 : 1);
        CHECK_EQ_INT(s.level_mask[0], roof_on_y ? 0x1e : 0x0e);
    }
}

/* Chips: the highest left goes to the next player to meet an objective. */
static void check_chips(void)
{
    towerup_state_t s;
    blank(&s, 3, NULL);
    const towerup_board_t *b = s.board;
    int T = 25, N = __builtin_ctzll(b->nbr[T]);
    uint64_t avoid = 1ULL << T | 1ULL << N | b->nbr[T];
    int pre[3] = {pick(b, ~0ULL, avoid, 0), pick(b, ~0ULL, avoid, 1), pick(b, ~0ULL, avoid, 2)};
    int cols[3] = {K, G, W};
    static const int want[3][4] = {{7, 3, -1, -1}, {7, 5, 3, -1}, {7, 5, 3, 3}};
    for (int players = 2; players <= 4; players++)
        for (int others = 0; others < players; others++) {
            found_case(&s, players, "colors,park,areas", pre, cols, 3, T, B, N, others);
            CHECK(met_first(&s));
            CHECK_EQ_INT(s.chip_count[0], 1);
            CHECK_EQ_INT(s.chips[0][0], want[players - 2][others]);
            CHECK_EQ_INT(s.chip_next[0], others + 1);
        }
    /* One roof meets two objectives: settled in the game's objective order. */
    int mixed[6] = {B, B, B, K, G, W};
    int pre5[6] = {pre[0],
                   pre[1],
                   pre[2],
                   pick(b, ~0ULL, avoid, 3),
                   pick(b, ~0ULL, avoid, 4),
                   pick(b, ~0ULL, avoid, 5)};
    for (int order = 0; order < 2; order++) {
        const char *objs = order ? "brown,colors,park" : "colors,brown,park";
        found_case(&s, 3, objs, pre5, mixed, 6, T, B, N, 0);
        CHECK_EQ_INT(s.met[0], 3);
        CHECK_EQ_INT(s.chip_count[0], 2);
        /* Another player met "colors" before: 5 for colors, 7 for brown. */
        blank(&s, 3, objs);
        for (int i = 0; i < 6; i++)
            put(&s, pre5[i], mixed[i], 1, 2, 0);
        put(&s, N, K, 1, 0, 0);
        s.met[1] = (uint8_t)(order ? 2 : 1);
        s.chips[1][0] = 7;
        s.chip_count[1] = 1;
        towerup_fix_derived(&s);
        build(&s, T, B, T);
        CHECK_EQ_INT(s.chips[0][0], order ? 7 : 5);
        CHECK_EQ_INT(s.chips[0][1], order ? 5 : 7);
        CHECK_EQ_INT(towerup_score(&s, 0), 12 + 1);
    }
}

int main(void)
{
    check_mask_objective("park,colors,areas", park_of);
    check_mask_objective("lake,colors,areas", lake_of);
    check_colours_and_brown();
    check_areas_and_grey();
    check_connected();
    check_borders();
    check_doubles_heights();
    check_chips();
    return test_finish("test_towerup_objectives");
}
