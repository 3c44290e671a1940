/*
 * Uptown heuristic (core/heuristic.h). Fewest groups wins, so a move is scored by what it
 * does to the mover's group count now (joins, new groups) and later (empty cells next to
 * two of its groups that its tiles can reach, lines its tiles can still extend along),
 * what it takes from the opponents (blocked joins, weaker captures) and what it costs
 * (exposure to capture, the tie-break, a spent `$`). Scores come from the move encoding
 * and a per-position context built once; no move is made.
 *
 * Only what the player to move sees is read: the board, its own racks, captures, turns
 * and every colour's unplayed set (`left`). Opponents' racks and all pile orders are not.
 */
#include <math.h>
#include <string.h>

#include "core/heuristic.h"
#include "core/uptown/uptown.h"

/* Weight indices, in the order of the table below. */
enum {
    W_JOIN,
    W_ISOLATED,
    W_SAVE,
    W_POT_RACK,
    W_POT_PILE,
    W_COV_RACK,
    W_COV_PILE,
    W_HORIZON,
    W_DENY,
    W_DENY_COV,
    W_OPP_JOIN,
    W_CAPTURE,
    W_CAPTURE_MULTI,
    W_EXPOSE,
    W_FLEX,
    W_DOLLAR,
    W_DOLLAR_BASE,
    W_EVAL_GROWTH,
    W_EVAL_UNCOVERED,
    W_EVAL_POT,
    W_EVAL_SCALE,
    W_EVAL_SPREAD,
    W_EVAL_CAPTURE,
    W_COUNT
};

static const heur_param_def_t uptown_params[W_COUNT] = {
    {"join", 1.0, 0.3, 3.0, 0.1, "per own group joined into another by the move"},
    {"isolated", 1.0, 0.3, 3.0, 0.1, "penalty for a tile next to none of its colour (new group)"},
    {"save", 0.1, 0.0, 1.5, 0.05,
     "per own group single tiles could still save (pairs counted once)"},
    {"pot_rack", 0.15, 0.0, 1.0, 0.03,
     "per join cell (empty, next to 2 own groups) per rack tile reaching"},
    {"pot_pile", 0.08, 0.0, 0.5, 0.01, "per join cell per unplayed tile (not in rack) reaching it"},
    {"cov_rack", 0.075, 0.0, 1.0, 0.03, "per rack tile kind that can extend a group of its colour"},
    {"cov_pile", 0.04, 0.0, 0.5, 0.01, "per pile tile kind that can extend a group of its colour"},
    {"horizon", 6.0, 1.0, 20.0, 1.0,
     "plays left under which potential and coverage shrink linearly"},
    {"deny", 0.1, 0.0, 1.0, 0.03,
     "per opponent join cell blocked or broken, per their tile reaching"},
    {"deny_cov", 0.05, 0.0, 0.5, 0.02,
     "per opponent kind whose last extension cell the move takes"},
    {"opp_join", 1.0, 0.0, 3.0, 0.1, "penalty per opponent group removed by capturing a singleton"},
    {"capture", 0.02, 0.0, 1.0, 0.02, "penalty per capture (counts against the capturer in ties)"},
    {"capture_multi", 0.12, 0.0, 1.0, 0.03,
     "extra capture penalty with 3-5 players (ties likelier)"},
    {"expose", 0.0, 0.0, 0.3, 0.01, "penalty per opponent tile reaching a capturable new tile"},
    {"flex", 0.1, 0.0, 1.0, 0.03, "penalty for playing a tile with many extension cells"},
    {"dollar", 0.4, 0.0, 2.0, 0.1, "penalty for `$` when a non-`$` move scores as well"},
    {"dollar_base", 0.1, 0.0, 1.0, 0.05, "penalty for every `$` play"},
    {"eval_growth", 0.05, 0.0, 1.0, 0.05, "evaluate: expected new groups per play left"},
    {"eval_uncovered", 0.15, 0.0, 1.5, 0.05,
     "evaluate: new groups per play per share of kinds unable to extend"},
    {"eval_pot", 0.7, 0.0, 1.0, 0.05,
     "evaluate: groups saved per pair of groups one tile could join"},
    {"eval_scale", 0.2, 0.05, 3.0, 0.05,
     "evaluate: logistic scale of group differences at the end"},
    {"eval_spread", 0.2, 0.0, 2.0, 0.05, "evaluate: extra scale per square root of plays left"},
    {"eval_capture", 0.1, 0.0, 0.5, 0.02, "evaluate: groups per capture (tie-break)"},
};

#define NO_GROUP     0xFF
#define MERGED_GROUP 0xFE /* label of the group a placement forms */

/* What one colour's groups look like, and what its owner may still play. */
typedef struct colour_info {
    u128_t lib;      /* empty cells next to a group of the colour */
    u128_t join2;    /* empty cells next to at least 2 of its groups */
    u128_t join3;    /* ... at least 3 */
    u128_t join4;    /* ... 4 */
    uint32_t rack;   /* rack tiles (only for the mover's colours, else 0) */
    uint32_t pile;   /* other unplayed tiles (all unplayed for opponents' colours) */
    uint32_t cover;  /* unplayed kinds (not `$`) reaching a cell of lib */
    int groups;      /* number of groups */
    int plays_left;  /* plays the colour still has (0 when retired or done) */
    double horizon;  /* factor of potential in [0, 1] from plays_left */
    uint32_t reach1; /* kinds (any, `$` too) reaching a cell of lib (ctx_moves only) */
    uint32_t reach2; /* ... at least 2 cells of lib */
} colour_info_t;

/* Per-position context shared by every move's score. */
typedef struct uptown_ctx {
    const uptown_state_t *s;              /* the position */
    uint8_t gid[UPTOWN_CELL_COUNT];       /* group label of each occupied cell, NO_GROUP if empty */
    uint8_t gsize[UPTOWN_CELL_COUNT];     /* number of cells of each group label */
    u128_t group[UPTOWN_CELL_COUNT];      /* cells of each group label */
    int group_count;                      /* number of labels in use */
    colour_info_t col[UPTOWN_COLOUR_MAX]; /* each colour */
    unsigned own;                         /* colours of the player to move (bit per colour) */
    unsigned opp;                         /* active colours of the other players */
    double opp_scale;                     /* weight of one opponent's gain against the mover's */
    /* Groups beyond the first that each colour's join cells touch (0 elsewhere: join_extra),
       made by ctx_moves for move scores only. */
    uint8_t jx[UPTOWN_COLOUR_MAX][UPTOWN_CELL_COUNT];
    double cw[UPTOWN_COLOUR_MAX][UPTOWN_TILE_DOLLAR]; /* cover_weight of each colour and kind */
} uptown_ctx_t;

/* Constant tables of every cell, written out by the macros below (i: the cell). */
#define FOR3(M, i)  M(i), M((i) + 1), M((i) + 2)
#define FOR9(M, i)  FOR3(M, i), FOR3(M, (i) + 3), FOR3(M, (i) + 6)
#define FOR27(M, i) FOR9(M, i), FOR9(M, (i) + 9), FOR9(M, (i) + 18)
#define FOR81(M)    FOR27(M, 0), FOR27(M, 27), FOR27(M, 54)

/* The 4 tile kinds (column, row, box, `$`) that may stand on a cell. */
#define KINDS(i)                                                                                   \
    (1u << (i) % 9 | 1u << (9 + (i) / 9) | 1u << (18 + (i) / 27 * 3 + (i) % 9 / 3) |               \
     1u << UPTOWN_TILE_DOLLAR)
static const uint32_t cell_kinds_table[UPTOWN_CELL_COUNT] = {FOR81(KINDS)};

static inline uint32_t cell_kinds(int cell) { return cell_kinds_table[cell]; }

/* Orthogonal neighbours of a cell: up, down (the rows' part), left, right (the columns'
   part), those on the board, in that order. */
typedef struct cell_nbrs {
    uint8_t n;     /* how many */
    uint8_t at[4]; /* the cells */
} cell_nbrs_t;
#define NB_ROWS(i)   (((i) >= 9) + ((i) < 72))
#define NB_COLS(i)   (((i) % 9 > 0) + ((i) % 9 < 8))
#define NB_ROW(i, j) ((j) == 0 && (i) >= 9 ? (i)-9 : (i) + 9)
#define NB_COL(i, j) ((j) == 0 && (i) % 9 > 0 ? (i)-1 : (i) + 1)
#define NB_AT(i, j)                                                                                \
    ((j) < NB_ROWS(i) ? NB_ROW(i, j) : (j)-NB_ROWS(i) < NB_COLS(i) ? NB_COL(i, (j)-NB_ROWS(i)) : 0)
#define NBRS(i)                                                                                    \
    {                                                                                              \
        NB_ROWS(i) + NB_COLS(i), { NB_AT(i, 0), NB_AT(i, 1), NB_AT(i, 2), NB_AT(i, 3) }            \
    }
static const cell_nbrs_t cell_nbrs[UPTOWN_CELL_COUNT] = {FOR81(NBRS)};

/* 0, 1, ..., 81: a union-find forest of single labels. */
#define SAME(i) (i)
static const uint8_t identity[UPTOWN_CELL_COUNT + 1] = {FOR81(SAME), UPTOWN_CELL_COUNT};

/* Bit counts without the library call a plain x86-64 build makes of __builtin_popcount. */
static inline int popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int popcount128(u128_t x)
{
    return popcount64((uint64_t)x) + popcount64((uint64_t)(x >> 64));
}

/* Plays a colour has made: drawn tiles, minus the rack, plus one once retired/finished. */
static int colour_plays(const uptown_state_t *s, int c)
{
    return s->pile_pos[c] - UPTOWN_RACK_SIZE + (popcount64(s->rack[c]) == 4);
}

/* Union-find root with path halving. */
static int uf_find(uint8_t *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/* Builds groups, join cells and coverage of every colour; racks only of the mover's. */
static void ctx_build(uptown_ctx_t *k, const uptown_state_t *s, double horizon, bool racks)
{
    k->s = s;
    memset(k->gid, NO_GROUP, sizeof k->gid);
    memset(k->col, 0, sizeof k->col);
    k->group_count = 0;
    u128_t empty = ~s->occupied & UPTOWN_BOARD;
    /* Each colour's groups, grown from their lowest cell. */
    for (int c = 0; c < s->colours; c++) {
        colour_info_t *ci = &k->col[c];
        u128_t mine = s->colour_bb[c];
        for (u128_t rest = mine; rest;) {
            u128_t g = rest & -rest, around;
            for (;;) {
                around = uptown_spread(g);
                if ((around & mine) == g)
                    break;
                g = around & mine;
            }
            rest &= ~g;
            int label = k->group_count++;
            k->group[label] = g;
            k->gsize[label] = (uint8_t)popcount128(g);
            for (u128_t m = g; m;)
                k->gid[bits_pop_lsb128(&m)] = (uint8_t)label;
            u128_t a = around & empty;
            ci->join4 |= ci->join3 & a;
            ci->join3 |= ci->join2 & a;
            ci->join2 |= ci->lib & a;
            ci->lib |= a;
            ci->groups++;
        }
    }
    k->own = racks ? uptown_player_colours(s, s->to_move) : 0;
    k->opp = 0;
    for (int c = 0; c < s->colours; c++) {
        colour_info_t *ci = &k->col[c];
        bool mine = k->own >> c & 1;
        ci->rack = mine ? s->rack[c] : 0;
        ci->pile = s->left[c] & ~ci->rack;
        ci->plays_left = (s->retired >> c & 1) ? 0 : UPTOWN_TURNS - colour_plays(s, c);
        if (ci->plays_left < 0)
            ci->plays_left = 0;
        ci->horizon = ci->plays_left >= horizon ? 1.0 : ci->plays_left / horizon;
        if (!mine && ci->plays_left > 0)
            k->opp |= 1u << c;
        uint32_t kinds = s->left[c] & ~(1u << UPTOWN_TILE_DOLLAR);
        for (; kinds; kinds &= kinds - 1) {
            int t = __builtin_ctz(kinds);
            if (uptown_tile_cells[t] & ci->lib)
                ci->cover |= 1u << t;
        }
    }
    k->opp_scale = 1.0 / (s->players - 1);
}

/* Weight of a kind for coverage: rack tiles can extend next turn, pile tiles later. */
static inline double cover_weight(const colour_info_t *ci, int t, const double *w)
{
    return ci->horizon * (ci->rack >> t & 1 ? w[W_COV_RACK] : w[W_COV_PILE]);
}

/* What move scores read besides ctx_build's: join_extra, cover_weight and reach1/reach2 of
   every colour. */
static void ctx_moves(uptown_ctx_t *k, const double *w)
{
    memset(k->jx, 0, sizeof k->jx);
    for (int c = 0; c < k->s->colours; c++) {
        colour_info_t *ci = &k->col[c];
        for (u128_t m = ci->join2; m;) {
            int y = bits_pop_lsb128(&m);
            u128_t b = UPTOWN_BIT(y);
            k->jx[c][y] = (uint8_t)(1 + ((ci->join3 & b) != 0) + ((ci->join4 & b) != 0));
        }
        for (int u = 0; u < UPTOWN_TILE_DOLLAR; u++)
            k->cw[c][u] = cover_weight(ci, u, w);
        ci->reach1 = ci->reach2 = 0;
        for (u128_t m = ci->lib; m;) {
            uint32_t kinds = cell_kinds(bits_pop_lsb128(&m));
            ci->reach2 |= ci->reach1 & kinds;
            ci->reach1 |= kinds;
        }
    }
}

/* Number of groups of colour c a join cell touches beyond the first (0 if it is not one). */
static inline int join_extra(const uptown_ctx_t *k, int c, int cell) { return k->jx[c][cell]; }

/*
 * Kinds reaching a cell of colour c's lib once a tile goes on x (near: the empty cells
 * next to x, whose kinds are knear): those reaching near, and those reaching lib other
 * than on x alone.
 */
static inline uint32_t cover_after(const colour_info_t *ci, u128_t xbit, uint32_t kx,
                                   uint32_t knear)
{
    uint32_t only_x = (ci->lib & xbit) ? ci->reach1 & ~ci->reach2 & kx : 0;
    return knear | (ci->reach1 & ~only_x);
}

/*
 * Distinct groups of colour next to cell y, reading the labels in merge[0..nmerge) as
 * MERGED_GROUP and cell xcell (if >= 0) as holding label xlabel (NO_GROUP: not the colour).
 */
static int adjacent_groups(const uptown_ctx_t *k, int y, int colour, const int *merge, int nmerge,
                           int xcell, int xlabel)
{
    const uint8_t *nb = cell_nbrs[y].at;
    int n = cell_nbrs[y].n, seen[4], count = 0;
    for (int i = 0; i < n; i++) {
        int cell = nb[i], label;
        if (cell == xcell) {
            label = xlabel;
        } else {
            uint8_t v = k->s->cell[cell];
            if (v == UPTOWN_EMPTY || v >> 5 != colour)
                continue;
            label = k->gid[cell];
            for (int j = 0; j < nmerge; j++)
                if (merge[j] == label)
                    label = MERGED_GROUP;
        }
        if (label == NO_GROUP)
            continue;
        bool dup = false;
        for (int j = 0; j < count; j++)
            dup |= seen[j] == label;
        if (!dup)
            seen[count++] = label;
    }
    return count;
}

/* Value of a join cell of colour c per group it joins: tiles that can reach it. */
static inline double reach_value(const uptown_ctx_t *k, int c, int cell, const double *w)
{
    const colour_info_t *ci = &k->col[c];
    uint32_t kinds = cell_kinds(cell);
    return ci->horizon * (w[W_POT_RACK] * popcount64(ci->rack & kinds) +
                          w[W_POT_PILE] * popcount64(ci->pile & kinds));
}

/* Opponents' unplayed tiles of colour c reaching a cell, scaled by their horizon. */
static inline double opp_reach(const uptown_ctx_t *k, int c, int cell)
{
    const colour_info_t *ci = &k->col[c];
    return ci->horizon * popcount64(ci->pile & cell_kinds(cell));
}

/* Potential a rack tile holds: extra groups over the join cells it reaches. */
static double tile_potential(const colour_info_t *ci, int t)
{
    u128_t cells = uptown_tile_cells[t];
    return popcount128(cells & ci->join2) + popcount128(cells & ci->join3) +
           popcount128(cells & ci->join4);
}

/* What keeping tile t is worth: its potential, coverage and extension cells, all lost
   when it is played or discarded. */
static double tile_keep_value(const uptown_ctx_t *k, int c, int t, const double *w)
{
    const colour_info_t *ci = &k->col[c];
    double v = ci->horizon * w[W_POT_RACK] * tile_potential(ci, t);
    if (t != UPTOWN_TILE_DOLLAR && (ci->cover >> t & 1))
        v += cover_weight(ci, t, w);
    int ext = popcount128(uptown_tile_cells[t] & ci->lib);
    v += w[W_FLEX] * (ext >= 4 ? 1.0 : ext / 4.0);
    return v;
}

/*
 * Public join potential of a colour: how many of its groups single tiles could still save,
 * i.e. merges along join cells its unplayed tiles reach (a pair of groups counts once,
 * however many cells join it), at most one per play left.
 */
static int colour_savings(const uptown_ctx_t *k, int c)
{
    const colour_info_t *ci = &k->col[c];
    uint8_t parent[UPTOWN_CELL_COUNT];
    memcpy(parent, identity, (size_t)k->group_count);
    int merges = 0;
    for (u128_t m = ci->join2; m;) {
        int y = bits_pop_lsb128(&m);
        if (!(k->s->left[c] & cell_kinds(y)))
            continue;
        const uint8_t *nb = cell_nbrs[y].at;
        int n = cell_nbrs[y].n, first = -1;
        for (int i = 0; i < n; i++) {
            uint8_t v = k->s->cell[nb[i]];
            if (v == UPTOWN_EMPTY || v >> 5 != c)
                continue;
            int r = uf_find(parent, k->gid[nb[i]]);
            if (first < 0) {
                first = r;
            } else if (r != first) {
                parent[r] = (uint8_t)first;
                merges++;
            }
        }
    }
    return merges < ci->plays_left ? merges : ci->plays_left;
}

/*
 * The same count after a tile of colour c goes on cell x, merging the groups in join[]:
 * the old join cells, with those groups as one, and the empty cells next to x.
 */
static int savings_after(const uptown_ctx_t *k, int c, int x, const int *join, int joins)
{
    const colour_info_t *ci = &k->col[c];
    uint8_t parent[UPTOWN_CELL_COUNT + 1];
    memcpy(parent, identity, (size_t)k->group_count + 1);
    int root = joins ? join[0] : k->group_count;
    for (int j = 1; j < joins; j++)
        parent[join[j]] = (uint8_t)root;
    u128_t xbit = UPTOWN_BIT(x), empty = ~k->s->occupied & UPTOWN_BOARD;
    int merges = 0;
    for (u128_t m = (ci->join2 | (uptown_spread(xbit) & empty & ci->lib)) & ~xbit; m;) {
        int y = bits_pop_lsb128(&m);
        if (!(k->s->left[c] & cell_kinds(y)))
            continue;
        const uint8_t *nb = cell_nbrs[y].at;
        int n = cell_nbrs[y].n, first = -1;
        for (int i = 0; i < n; i++) {
            int label;
            if (nb[i] == x) {
                label = root;
            } else {
                uint8_t v = k->s->cell[nb[i]];
                if (v == UPTOWN_EMPTY || v >> 5 != c)
                    continue;
                label = k->gid[nb[i]];
            }
            int r = uf_find(parent, label);
            if (first < 0) {
                first = r;
            } else if (r != first) {
                parent[r] = (uint8_t)first;
                merges++;
            }
        }
    }
    int plays = ci->plays_left - 1;
    return merges < plays ? merges : plays < 0 ? 0 : plays;
}

/*
 * The part of the score of placing a tile of colour c on cell x (empty, or a capture)
 * that does not depend on the tile: every tile of the colour reaching x shares it.
 */
static double score_cell(const uptown_ctx_t *k, int c, int x, int saved, const double *w,
                         uint32_t *after_out)
{
    const uptown_state_t *s = k->s;
    const colour_info_t *ci = &k->col[c];
    const uint8_t *nb = cell_nbrs[x].at;
    int n = cell_nbrs[x].n;
    int join[4], joins = 0;
    for (int i = 0; i < n; i++) {
        uint8_t v = s->cell[nb[i]];
        if (v == UPTOWN_EMPTY || v >> 5 != c)
            continue;
        int g = k->gid[nb[i]];
        bool dup = false;
        for (int j = 0; j < joins; j++)
            dup |= join[j] == g;
        if (!dup)
            join[joins++] = g;
    }
    double score = joins >= 2 ? w[W_JOIN] * (joins - 1) : joins == 0 ? -w[W_ISOLATED] : 0.0;
    bool capture = s->cell[x] != UPTOWN_EMPTY;
    u128_t xbit = UPTOWN_BIT(x), empty = ~s->occupied & UPTOWN_BOARD;
    if (w[W_SAVE] != 0.0)
        score += w[W_SAVE] * ci->horizon * (savings_after(k, c, x, join, joins) - saved);

    /* Join cells gained and lost: cells next to x, and join cells next to merged groups. */
    u128_t around = uptown_spread(xbit), near = around & empty & ~xbit, cand = near;
    u128_t merged_around[4];
    for (int j = 0; j < joins; j++) {
        merged_around[j] = uptown_spread(k->group[join[j]]);
        cand |= merged_around[j] & ci->join2;
    }
    cand &= ~xbit;
    /* Unless x held a tile of colour c, a candidate (empty) keeps the groups next to it
       that x does not join, and touches the merged group if it is next to x or to one of
       the groups joined: adjacent_groups without reading the cells. */
    bool counted = !capture || s->cell[x] >> 5 != c;
    while (cand) {
        int y = bits_pop_lsb128(&cand);
        int before = join_extra(k, c, y), after;
        if (counted) {
            int groups = (ci->lib >> y & 1) ? 1 + before : 0, joined = 0;
            for (int j = 0; j < joins; j++)
                joined += (int)(merged_around[j] >> y & 1);
            after = groups - joined + (joined > 0 || (around >> y & 1)) - 1;
        } else {
            after = adjacent_groups(k, y, c, join, joins, x, MERGED_GROUP) - 1;
        }
        if (after < 0)
            after = 0;
        if (after != before)
            score += (after - before) * reach_value(k, c, y, w);
    }
    if (!capture)
        score -= join_extra(k, c, x) * reach_value(k, c, x, w);
    /* The tile played leaves the rack with the potential it held (see tile_part), but
       the join cell it fills was counted above. */
    if (!capture)
        score += ci->horizon * w[W_POT_RACK] * join_extra(k, c, x);

    /* Coverage: kinds reaching x may lose their only extension cell, kinds reaching the
       new neighbours may gain one. */
    uint32_t kx = cell_kinds(x), knear = 0;
    for (u128_t m = near; m;)
        knear |= cell_kinds(bits_pop_lsb128(&m));
    uint32_t after_mask = cover_after(ci, xbit, kx, knear);
    *after_out = after_mask;
    uint32_t kinds = (kx | knear) & (ci->rack | ci->pile) & ~(1u << UPTOWN_TILE_DOLLAR);
    for (uint32_t m = kinds & (after_mask ^ ci->cover); m; m &= m - 1) {
        int u = __builtin_ctz(m);
        int after = after_mask >> u & 1, before = ci->cover >> u & 1;
        score += (after - before) * k->cw[c][u];
    }

    /* The opponents: join cells blocked, or weakened by a capture. */
    double opp = 0.0;
    if (!capture) {
        for (unsigned o = k->opp; o; o &= o - 1) {
            int oc = __builtin_ctz(o);
            const colour_info_t *oi = &k->col[oc];
            int extra = join_extra(k, oc, x);
            if (extra)
                opp += w[W_DENY] * extra * opp_reach(k, oc, x);
            /* Kinds of theirs that could extend a group only on x. */
            if (oi->lib & xbit)
                for (uint32_t m = kx & oi->cover & ~oi->reach2; m; m &= m - 1)
                    opp += w[W_DENY_COV] * oi->horizon;
        }
    } else {
        int oc = s->cell[x] >> 5;
        score -= w[W_CAPTURE] + (s->players > 2 ? w[W_CAPTURE_MULTI] : 0.0);
        if (k->gsize[k->gid[x]] == 1)
            opp -= w[W_OPP_JOIN];
        for (u128_t m = near; m;) {
            int y = bits_pop_lsb128(&m);
            int before = join_extra(k, oc, y);
            int after = adjacent_groups(k, y, oc, NULL, 0, x, NO_GROUP) - 1;
            if (after < 0)
                after = 0;
            if (after != before)
                opp += w[W_DENY] * (before - after) * opp_reach(k, oc, y);
        }
    }
    score += k->opp_scale * opp;

    /* A tile that joins nothing can be captured without a split. */
    if (joins <= 1) {
        double reach = 0.0;
        for (unsigned o = k->opp; o; o &= o - 1)
            reach += opp_reach(k, __builtin_ctz(o), x);
        score -= w[W_EXPOSE] * reach;
    }
    return score;
}

/*
 * The part that depends on tile t: what keeping it was worth, and its coverage change,
 * which score_cell counted as if t stayed unplayed.
 */
static double tile_part(const uptown_ctx_t *k, int c, int t, uint32_t after_mask, double keep)
{
    const colour_info_t *ci = &k->col[c];
    if (t == UPTOWN_TILE_DOLLAR)
        return -keep;
    int after = after_mask >> t & 1, before = ci->cover >> t & 1;
    return -keep - (after - before) * k->cw[c][t];
}

static void uptown_score_moves(const void *state, const move_t *moves, int count,
                               const heur_params_t *wp, double *scores)
{
    const uptown_state_t *s = state;
    const double *w = wp->value;
    uptown_ctx_t k;
    ctx_build(&k, s, w[W_HORIZON], true);
    ctx_moves(&k, w);
    double keep[UPTOWN_COLOUR_MAX][UPTOWN_TILE_COUNT];
    int saved[UPTOWN_COLOUR_MAX] = {0};
    for (int c = 0; c < s->colours; c++)
        if ((k.own >> c & 1) && k.col[c].plays_left > 0)
            saved[c] = colour_savings(&k, c);
    for (int c = 0; c < s->colours; c++)
        if ((k.own >> c & 1) && k.col[c].plays_left > 0)
            for (uint32_t r = k.col[c].rack; r; r &= r - 1)
                keep[c][__builtin_ctz(r)] = tile_keep_value(&k, c, __builtin_ctz(r), w);
    /* Cell parts, computed once per colour and cell. */
    double cell_score[UPTOWN_COLOUR_MAX][UPTOWN_CELL_COUNT];
    uint32_t cell_after[UPTOWN_COLOUR_MAX][UPTOWN_CELL_COUNT]; /* cover_after of x */
    uint64_t cached[UPTOWN_COLOUR_MAX][2] = {{0}};
    double best_plain = -INFINITY;
    for (int i = 0; i < count; i++) {
        move_t m = moves[i];
        int c = uptown_move_colour(m), t = uptown_move_tile(m);
        if (uptown_move_is_discard(m)) {
            scores[i] = -keep[c][t];
            continue;
        }
        int x = uptown_move_cell(m);
        if (!(cached[c][x >> 6] >> (x & 63) & 1)) {
            cached[c][x >> 6] |= 1ULL << (x & 63);
            cell_score[c][x] = score_cell(&k, c, x, saved[c], w, &cell_after[c][x]);
        }
        scores[i] = cell_score[c][x] + tile_part(&k, c, t, cell_after[c][x], keep[c][t]);
        if (t != UPTOWN_TILE_DOLLAR && scores[i] > best_plain)
            best_plain = scores[i];
    }
    /* `$` is kept for a cell no other tile reaches as well. */
    for (int i = 0; i < count; i++) {
        move_t m = moves[i];
        if (uptown_move_is_discard(m) || uptown_move_tile(m) != UPTOWN_TILE_DOLLAR)
            continue;
        double v = scores[i] - w[W_DOLLAR_BASE];
        if (best_plain >= scores[i] - 1e-9)
            v -= w[W_DOLLAR];
        scores[i] = v;
    }
}

static void uptown_evaluate(const void *state, const heur_params_t *wp, double *values)
{
    const uptown_state_t *s = state;
    const double *w = wp->value;
    if (uptown_is_terminal(s)) {
        uptown_result(s, values);
        return;
    }
    uptown_ctx_t k;
    ctx_build(&k, s, w[W_HORIZON], false);
    double proj[GAME_MAX_PLAYERS] = {0};
    int left[GAME_MAX_PLAYERS] = {0};
    for (int c = 0; c < s->colours; c++) {
        int p = uptown_colour_owner(s, c);
        const colour_info_t *ci = &k.col[c];
        /* Groups it may still save by joins, and new groups it may have to start. */
        double pot = w[W_EVAL_POT] * ci->horizon * colour_savings(&k, c);
        uint32_t kinds = s->left[c] & ~(1u << UPTOWN_TILE_DOLLAR);
        double uncovered = kinds ? 1.0 - (double)popcount64(ci->cover) / popcount64(kinds) : 0.0;
        double growth = w[W_EVAL_GROWTH] + w[W_EVAL_UNCOVERED] * uncovered;
        proj[p] += ci->groups + growth * ci->plays_left - pot;
        left[p] += ci->plays_left;
    }
    int most_left = 0;
    for (int p = 0; p < s->players; p++) {
        proj[p] += w[W_EVAL_CAPTURE] * s->captures[p];
        if (left[p] > most_left)
            most_left = left[p];
    }
    double scale = w[W_EVAL_SCALE] + w[W_EVAL_SPREAD] * sqrt((double)most_left);
    for (int p = 0; p < s->players; p++) {
        double v = 0.0;
        for (int q = 0; q < s->players; q++)
            if (q != p)
                v += 1.0 / (1.0 + exp((proj[p] - proj[q]) / scale));
        values[p] = v / (s->players - 1);
    }
}

const heuristic_t heuristic_uptown = {
    .api = &uptown_api,
    .param_count = W_COUNT,
    .params = uptown_params,
    .score_moves = uptown_score_moves,
    .evaluate = uptown_evaluate,
};
