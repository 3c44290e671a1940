/*
 * Tower Up take moves (RULES.md 1.6, rules-notes Tower Up 4), written out already packed.
 *
 * A take move is TAKE << 28 | slot | (net[c] + 8) << (4 + 4c). The gain vector g of a
 * card's choices is kept as one word with 4-bit lanes, so the move of gaining g is
 * base + (g << 4) with base = TAKE << 28 | slot | 8 in every lane, and the move of then
 * returning floors r is that minus r in the same lanes: one subtraction per move. A lane
 * never borrows while net >= -8, the least the encoding holds.
 *
 * A net change d is reachable iff some gain vector g has g >= d, d >= -supply and
 * sum(d) = sum(g) - back, where back floors must go back to get down to 10: the returned
 * floors are then r = g - d >= 0 with r <= supply + g. Every gain vector has the same sum
 * (each icon gives one floor while the reserve has any), so back is the same for all.
 */
#include <assert.h>
#include <stdatomic.h>
#include <string.h>

#include "internal.h"

#define MAX_GAINS 40       /* multisets of at most 4 floors over 4 colours: 35 */
#define LANES_8   0x88880u /* 8 in the four net lanes of a take move */
/* Index bits of the net sets below: lanes 0, 1, 2 of a move, lane 0 most significant. */
#define NET_SET_BITS 4096

/* Gain vectors of a card's icons, each choice of wild / substitute followed. */
typedef struct gains {
    int count;             /* distinct gain vectors */
    uint32_t g[MAX_GAINS]; /* the vectors, colour c in bits 4c..4c+3 */
} gains_t;

/* A card's icons of each colour as 4-bit lanes (each count is at most 4). */
static inline uint32_t card_icon_lanes(const towerup_card_t *k)
{
    uint32_t x = towerup_load4(k->colour_icons);
    x |= x >> 4;
    return (x & 0xffu) | (x >> 8 & 0xff00u);
}

static void gains_walk(const towerup_card_t *k, int i, int *reserve, uint32_t g, gains_t *out)
{
    if (i == k->icon_count) {
        for (int j = 0; j < out->count; j++)
            if (out->g[j] == g)
                return;
        out->g[out->count++] = g;
        return;
    }
    int icon = k->icons[i];
    if (icon != TOWERUP_WILD && reserve[icon] > 0) {
        reserve[icon]--;
        gains_walk(k, i + 1, reserve, g + (1u << 4 * icon), out);
        reserve[icon]++;
        return;
    }
    bool any = false;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        if (!reserve[c])
            continue;
        any = true;
        reserve[c]--;
        gains_walk(k, i + 1, reserve, g + (1u << 4 * c), out);
        reserve[c]++;
    }
    if (!any)
        gains_walk(k, i + 1, reserve, g, out);
}

/* The distinct gain vectors of taking card k, in a fixed order; returns their floors. */
static int gains_compute(const towerup_state_t *s, const towerup_card_t *k, gains_t *G)
{
    G->count = 0;
    if (!k->wild_icons && !towerup_take_shortage(s, k)) {
        /* No choice while gaining: one gain vector. */
        G->g[0] = card_icon_lanes(k);
        G->count = 1;
        return k->icon_count;
    }
    const uint8_t *r = s->reserve;
    int total = r[0] + r[1] + r[2] + r[3];
    if (k->wild_icons == k->icon_count) {
        /* Wilds only: every vector of min(wilds, reserve) floors the reserve can give. */
        int w = k->wild_icons < total ? k->wild_icons : total;
        for (int a = 0; a <= w && a <= r[0]; a++)
            for (int b = 0; a + b <= w && b <= r[1]; b++)
                for (int c = 0; a + b + c <= w && c <= r[2]; c++) {
                    int e = w - a - b - c;
                    if (e <= r[3])
                        G->g[G->count++] = (uint32_t)(a | b << 4 | c << 8 | e << 12);
                }
        return w;
    }
    int reserve[TOWERUP_COLOUR_COUNT];
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        reserve[c] = r[c];
    gains_walk(k, 0, reserve, 0, G);
    return k->icon_count < total ? k->icon_count : total;
}

/*
 * The moves of one gain: gw is the packed move of keeping it all, have[c] the floors of
 * colour c after gaining, back > 0 the floors to return. Each way r of returning them
 * (r <= have, in order of r[0], r[1], r[2]) is the move gw - r. Returns how many.
 */
static int returns_emit(move_t gw, const int *have, int back, move_t *out)
{
    int n = 0;
    for (int a = 0; a <= have[0] && a <= back; a++)
        for (int b = 0; b <= have[1] && a + b <= back; b++) {
            /* r[2] + r[3] = rest with r[2] <= have[2], r[3] <= have[3]. */
            int rest = back - a - b, c0 = rest > have[3] ? rest - have[3] : 0;
            int c1 = rest < have[2] ? rest : have[2];
            move_t m = gw - ((move_t)a << 4 | (move_t)b << 8 | (move_t)c0 << 12 |
                             (move_t)(rest - c0) << 16);
            /* One more of colour 2 returned is one less of colour 3. */
            for (int c = c0; c <= c1; c++, m += (1u << 16) - (1u << 12))
                out[n++] = m;
        }
    return n;
}

/* Position of a take move in a net set: lanes 0, 1, 2, lane 0 most significant, so the
   set's order is that of (net[0], net[1], net[2]). */
static inline unsigned net_index(move_t m)
{
    return (m >> 4 & 15) << 8 | (m >> 8 & 15) << 4 | (m >> 12 & 15);
}

/*
 * Several gain vectors and back > 0 floors to return: the union of each gain's moves,
 * each once, in order of (net[0], net[1], net[2]).
 */
static int union_emit(const gains_t *G, move_t base, const uint8_t *sup, int back, move_t *out)
{
    uint64_t set[NET_SET_BITS / 64];
    unsigned lo = NET_SET_BITS, hi = 0;
    /* Words that can be reached: net[0] runs from -min(supply, back) to the largest gain. */
    unsigned g0 = 0;
    for (int j = 0; j < G->count; j++)
        if ((G->g[j] & 15) > g0)
            g0 = G->g[j] & 15;
    int d0 = sup[0] < back ? sup[0] : back;
    d0 = d0 < 8 ? d0 : 8; /* the encoding's least net; only supplies far above 10 get here */
    unsigned w0 = (unsigned)(8 - d0) << 2, w1 = (g0 + 8) << 2 | 3;
    memset(set + w0, 0, (w1 - w0 + 1) * sizeof set[0]);
    for (int j = 0; j < G->count; j++) {
        int have[TOWERUP_COLOUR_COUNT];
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
            have[c] = sup[c] + (int)(G->g[j] >> 4 * c & 15);
        /* out serves as scratch for one gain's moves until the union is written. */
        int k = returns_emit(base + (G->g[j] << 4), have, back, out);
        for (int i = 0; i < k; i++) {
            unsigned x = net_index(out[i]);
            set[x >> 6] |= 1ull << (x & 63);
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
    }
    if (lo > hi)
        return 0;
    /* The lanes of every move add up to the same: lane 3 follows from the other three. */
    unsigned lane_sum = 0;
    move_t any = base + (G->g[0] << 4);
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        lane_sum += (any >> (4 + 4 * c) & 15);
    lane_sum -= (unsigned)back;
    int n = 0;
    move_t head = base & ~(move_t)LANES_8;
    for (unsigned w = lo >> 6; w <= hi >> 6; w++)
        for (uint64_t bits = set[w]; bits; bits &= bits - 1) {
            unsigned x = w << 6 | (unsigned)__builtin_ctzll(bits);
            unsigned l0 = x >> 8, l1 = x >> 4 & 15, l2 = x & 15;
            out[n++] = head | l0 << 4 | l1 << 8 | l2 << 12 | (lane_sum - l0 - l1 - l2) << 16;
        }
    return n;
}

/* The general way, for any reserve and supply: the gain vectors, then their returns. */
static int take_moves_general(const towerup_state_t *s, int slot, move_t *moves)
{
    const towerup_card_t *k = &towerup_cards()[s->market[slot]];
    const uint8_t *sup = s->supply[s->to_move];
    move_t base = (move_t)TOWERUP_MOVE_TAKE << 28 | (move_t)slot | LANES_8;
    gains_t G;
    int gtot = gains_compute(s, k, &G);
    int back = sup[0] + sup[1] + sup[2] + sup[3] + gtot - TOWERUP_SUPPLY_MAX;
    if (back <= 0) {
        for (int j = 0; j < G.count; j++)
            moves[j] = base + (G.g[j] << 4);
        return G.count;
    }
    if (G.count > 1)
        return union_emit(&G, base, sup, back, moves);
    /* One gain vector: each way of returning `back` floors is its own net change. */
    int have[TOWERUP_COLOUR_COUNT];
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        have[c] = sup[c] + (int)(G.g[0] >> 4 * c & 15);
    return returns_emit(base + (G.g[0] << 4), have, back, moves);
}

/*
 * Tables for the usual case, a reserve that holds every floor the card shows (for w
 * wilds, w of every colour): then the card's gains do not depend on the reserve, and a
 * slot's takes depend only on the card and the supply. The tables are built once per
 * process by the general code above, so they list the same moves in the same order.
 *
 * Cards without wilds have one gain vector g. With back = 1..BACK_MAX floors to return,
 * whether a return vector r (sum back) fits depends only on h[c] = min(supply[c] + g[c],
 * back): the return list of (back, h) holds each fitting r as r[c] << 4c, and the moves
 * are (keep-all move) - (r << 4). Cards of wilds only (w of them) have every vector of w
 * floors as gains; their net set depends only on w, back and min(supply[c], back), and
 * the wild list of that key holds each net as (net[c] + 8) << 4c.
 */
#define ICONS_MAX    4    /* floor icons of a card the tables handle */
#define BACK_MAX     4    /* floors to return after gaining 4 with a supply of 10 */
#define WILD_MAX     2    /* wild icons of a card (the "**" cards) */
#define RET_KEYS     978  /* sum over back 1..4 of (back + 1)^4 */
#define RET_ENTRIES  9582 /* return vectors over all those keys */
#define WILD_KEYS    115  /* sum over w 1..2, back 0..w of (back + 1)^4 */
#define WILD_ENTRIES 2407 /* nets over all those keys */

/* What the tables need of a card. */
typedef struct card_info {
    uint32_t keep;  /* cards without wilds: the lanes of the move keeping every floor */
    uint16_t gain;  /* cards without wilds: icons of each colour, colour c in bits 4c.. */
    uint16_t need;  /* reserve per colour (same lanes) for the tables to hold; 0xffff for
                       cards always taken the general way (wilds mixed with colours) */
    uint8_t floors; /* floors gained from a plentiful reserve */
    uint8_t wilds;  /* wild icons: 0, or all of the card's floor icons */
} card_info_t;

static card_info_t card_info[TOWERUP_CARD_COUNT];
static uint16_t ret_key_base[BACK_MAX + 1];                /* first key of each back */
static uint16_t ret_from[RET_KEYS + 1];                    /* each key's first entry */
static uint16_t ret_list[RET_ENTRIES];                     /* return vectors, by key */
static uint16_t wild_key_base[WILD_MAX + 1][WILD_MAX + 1]; /* first key of (w, back) */
static uint16_t wild_from[WILD_KEYS + 1];                  /* each key's first entry */
static uint16_t wild_list[WILD_ENTRIES];                   /* nets, by key */
static atomic_int tables_state;                            /* 0 none, 1 being built, 2 built */

/* Key of (back, v) where v[c] <= back: v in base back + 1, colour 0 lowest. */
static inline int lane_key(int back, const int *v)
{
    int b = back + 1;
    return v[0] + b * (v[1] + b * (v[2] + b * v[3]));
}

/* Every v in 0..back per colour, in key order: advances v, false after the last. */
static bool lane_next(int back, int *v)
{
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        if (v[c] < back) {
            v[c]++;
            return true;
        }
        v[c] = 0;
    }
    return false;
}

static void tables_build(void)
{
    const towerup_card_t *cards = towerup_cards();
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++) {
        const towerup_card_t *k = &cards[i];
        card_info_t *ci = &card_info[i];
        ci->gain = (uint16_t)card_icon_lanes(k);
        ci->need = k->wild_icons ? (uint16_t)(k->wild_icons * 0x1111u) : ci->gain;
        ci->keep = LANES_8 + ((uint32_t)ci->gain << 4);
        ci->floors = k->icon_count;
        ci->wilds = k->wild_icons;
        if ((k->wild_icons && k->wild_icons != k->icon_count) || k->wild_icons > WILD_MAX ||
            k->icon_count > ICONS_MAX)
            ci->need = 0xffffu;
    }
    move_t out[TOWERUP_MAX_TAKES];
    int keys = 0, entries = 0;
    for (int back = 1; back <= BACK_MAX; back++) {
        ret_key_base[back] = (uint16_t)keys;
        int h[TOWERUP_COLOUR_COUNT] = {0};
        do {
            ret_from[keys++] = (uint16_t)entries;
            int n = returns_emit(LANES_8, h, back, out);
            for (int i = 0; i < n; i++)
                ret_list[entries++] = (uint16_t)((LANES_8 - out[i]) >> 4);
        } while (lane_next(back, h));
    }
    ret_from[keys] = (uint16_t)entries;
    assert(keys == RET_KEYS && entries == RET_ENTRIES);
    keys = entries = 0;
    for (int w = 1; w <= WILD_MAX; w++) {
        /* The gains from a plentiful reserve, as gains_compute lists them. */
        gains_t G = {0};
        for (int a = 0; a <= w; a++)
            for (int b = 0; a + b <= w; b++)
                for (int c = 0; a + b + c <= w; c++)
                    G.g[G.count++] = (uint32_t)(a | b << 4 | c << 8 | (w - a - b - c) << 12);
        for (int back = 0; back <= w; back++) {
            wild_key_base[w][back] = (uint16_t)keys;
            int v[TOWERUP_COLOUR_COUNT] = {0};
            do {
                wild_from[keys++] = (uint16_t)entries;
                uint8_t sup[TOWERUP_COLOUR_COUNT];
                for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
                    sup[c] = (uint8_t)v[c];
                int n = G.count;
                if (back)
                    n = union_emit(&G, LANES_8, sup, back, out);
                else
                    for (int j = 0; j < n; j++)
                        out[j] = LANES_8 + (G.g[j] << 4);
                for (int i = 0; i < n; i++)
                    wild_list[entries++] = (uint16_t)(out[i] >> 4);
            } while (lane_next(back, v));
        }
    }
    wild_from[keys] = (uint16_t)entries;
    assert(keys == WILD_KEYS && entries == WILD_ENTRIES);
}

/* Builds the tables on first use; threads that come meanwhile wait for them. */
static inline void tables_ready(void)
{
    if (atomic_load_explicit(&tables_state, memory_order_acquire) == 2)
        return;
    int expected = 0;
    if (atomic_compare_exchange_strong(&tables_state, &expected, 1)) {
        tables_build();
        atomic_store_explicit(&tables_state, 2, memory_order_release);
        return;
    }
    while (atomic_load_explicit(&tables_state, memory_order_acquire) != 2)
        ;
}

/* The reserve capped at 7 in 4-bit lanes, each with its bit 3 set as a borrow guard. */
static inline unsigned reserve_lanes(const towerup_state_t *s)
{
    return towerup_count_lanes(s->reserve) | 0x8888u;
}

/*
 * One slot's takes from the tables (tables_ready; reserve from reserve_lanes): into
 * moves, or only counted if moves is NULL. Returns how many, or -1 when the reserve is
 * too short for the tables (the general way then).
 */
static inline int take_moves_table(const towerup_state_t *s, int slot, unsigned reserve,
                                   int sup_total, move_t *moves)
{
    const card_info_t *ci = &card_info[s->market[slot]];
    const uint8_t *sup = s->supply[s->to_move];
    int back = sup_total + ci->floors - TOWERUP_SUPPLY_MAX, v[TOWERUP_COLOUR_COUNT];
    if (((reserve - ci->need) & 0x8888u) != 0x8888u)
        return -1;
    move_t head = (move_t)TOWERUP_MOVE_TAKE << 28 | (move_t)slot;
    if (!ci->wilds) {
        move_t keep = head | ci->keep;
        if (back <= 0) {
            if (moves)
                moves[0] = keep;
            return 1;
        }
        if (back > BACK_MAX) /* only with a supply above 10 */
            return -1;
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
            int h = sup[c] + (ci->gain >> 4 * c & 15);
            v[c] = h < back ? h : back;
        }
        int key = ret_key_base[back] + lane_key(back, v);
        int from = ret_from[key], n = ret_from[key + 1] - from;
        if (moves)
            for (int i = 0; i < n; i++)
                moves[i] = keep - ((move_t)ret_list[from + i] << 4);
        return n;
    }
    if (back < 0)
        back = 0;
    else if (back > ci->wilds) /* only with a supply above 10 */
        return -1;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        v[c] = sup[c] < back ? sup[c] : back;
    int key = wild_key_base[ci->wilds][back] + lane_key(back, v);
    int from = wild_from[key], n = wild_from[key + 1] - from;
    if (moves)
        for (int i = 0; i < n; i++)
            moves[i] = head + ((move_t)wild_list[from + i] << 4);
    return n;
}

static inline int supply_total(const towerup_state_t *s)
{
    return towerup_count_sum(s->supply[s->to_move]);
}

int towerup_take_moves(const towerup_state_t *s, int slot, move_t *moves)
{
    tables_ready();
    int n = take_moves_table(s, slot, reserve_lanes(s), supply_total(s), moves);
    return n >= 0 ? n : take_moves_general(s, slot, moves);
}

int towerup_takes(const towerup_state_t *s, move_t *moves)
{
    tables_ready();
    unsigned reserve = reserve_lanes(s);
    int n = 0, sup_total = supply_total(s);
    for (int slot = 0; slot < TOWERUP_MARKET; slot++) {
        int k = take_moves_table(s, slot, reserve, sup_total, moves + n);
        n += k >= 0 ? k : take_moves_general(s, slot, moves + n);
    }
    return n;
}

/* Ways to return `back` floors taking at most have[c] of colour c (inclusion-exclusion
   over the colours whose bound is broken). */
static int returns_count(const int *have, int back)
{
    unsigned small = 0;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        if (have[c] < back)
            small |= 1u << c;
    int total = 0;
    /* Subsets of the colours whose bound can be broken, the empty set included. */
    for (unsigned set = small;; set = (set - 1) & small) {
        int m = back, sign = 1;
        for (unsigned t = set; t; t &= t - 1) {
            m -= have[__builtin_ctz(t)] + 1;
            sign = -sign;
        }
        if (m >= 0)
            total += sign * (m + 3) * (m + 2) * (m + 1) / 6;
        if (!set)
            break;
    }
    return total;
}

int towerup_take_count(const towerup_state_t *s, int slot)
{
    tables_ready();
    int n = take_moves_table(s, slot, reserve_lanes(s), supply_total(s), NULL);
    if (n >= 0)
        return n;
    const towerup_card_t *k = &towerup_cards()[s->market[slot]];
    const uint8_t *sup = s->supply[s->to_move];
    gains_t G;
    int gtot = gains_compute(s, k, &G);
    int back = sup[0] + sup[1] + sup[2] + sup[3] + gtot - TOWERUP_SUPPLY_MAX;
    if (back <= 0)
        return G.count;
    if (G.count == 1) {
        int have[TOWERUP_COLOUR_COUNT];
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
            have[c] = sup[c] + (int)(G.g[0] >> 4 * c & 15);
        return returns_count(have, back);
    }
    move_t moves[TOWERUP_MAX_TAKES];
    return union_emit(&G, (move_t)TOWERUP_MOVE_TAKE << 28 | (move_t)slot | LANES_8, sup, back,
                      moves);
}
