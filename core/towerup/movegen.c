/* Tower Up move generation and move text (FORMATS.md §3). */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define MAX_GAINS 40 /* multisets of at most 4 floors over 4 colours: 35 */

/* Gain vectors of a card's icons, each choice of wild / substitute followed. */
typedef struct gains {
    int count;                               /* distinct gain vectors */
    int8_t g[MAX_GAINS][TOWERUP_COLOUR_COUNT]; /* the vectors */
} gains_t;

static void gains_walk(const towerup_card_t *k, int i, int *reserve, int8_t *g, gains_t *out)
{
    if (i == k->icon_count) {
        for (int j = 0; j < out->count; j++)
            if (!memcmp(out->g[j], g, TOWERUP_COLOUR_COUNT))
                return;
        memcpy(out->g[out->count++], g, TOWERUP_COLOUR_COUNT);
        return;
    }
    int icon = k->icons[i];
    if (icon != TOWERUP_WILD && reserve[icon] > 0) {
        reserve[icon]--;
        g[icon]++;
        gains_walk(k, i + 1, reserve, g, out);
        g[icon]--;
        reserve[icon]++;
        return;
    }
    bool any = false;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        if (!reserve[c])
            continue;
        any = true;
        reserve[c]--;
        g[c]++;
        gains_walk(k, i + 1, reserve, g, out);
        g[c]--;
        reserve[c]++;
    }
    if (!any)
        gains_walk(k, i + 1, reserve, g, out);
}

/*
 * A net change d is reachable iff some gain vector g has g >= d, d >= -supply, and
 * sum(d) = sum(g) - k where k floors must go back to get down to 10: the returned floors
 * are then r = g - d >= 0 with r <= supply + g. So each d is listed once by construction.
 */
/* The distinct gain vectors of taking card k. */
static void gains_compute(const towerup_state_t *s, const towerup_card_t *k, gains_t *G)
{
    G->count = 0;
    if (!k->wild_icons && !tu_take_shortage(s, k)) {
        /* No choice while gaining: one gain vector. */
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
            G->g[0][c] = (int8_t)k->colour_icons[c];
        G->count = 1;
    } else if (k->wild_icons == k->icon_count) {
        /* Wilds only: every vector of min(wilds, reserve) floors the reserve can give. */
        const uint8_t *r = s->reserve;
        int total = r[0] + r[1] + r[2] + r[3], w = k->wild_icons < total ? k->wild_icons : total;
        for (int a = 0; a <= w && a <= r[0]; a++)
            for (int b = 0; a + b <= w && b <= r[1]; b++)
                for (int c = 0; a + b + c <= w && c <= r[2]; c++) {
                    int e = w - a - b - c;
                    if (e > r[3])
                        continue;
                    int8_t *g = G->g[G->count++];
                    g[0] = (int8_t)a, g[1] = (int8_t)b, g[2] = (int8_t)c, g[3] = (int8_t)e;
                }
    } else {
        int reserve[TOWERUP_COLOUR_COUNT];
        int8_t g[TOWERUP_COLOUR_COUNT] = {0};
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
            reserve[c] = s->reserve[c];
        gains_walk(k, 0, reserve, g, G);
    }
}

int tu_take_nets(const towerup_state_t *s, int card, int8_t (*nets)[TOWERUP_COLOUR_COUNT])
{
    const uint8_t *sup = s->supply[s->to_move];
    gains_t G;
    gains_compute(s, &towerup_cards()[card], &G);
    int gtot = G.g[0][0] + G.g[0][1] + G.g[0][2] + G.g[0][3];
    int back = sup[0] + sup[1] + sup[2] + sup[3] + gtot - TOWERUP_SUPPLY_MAX;
    if (back <= 0) {
        for (int j = 0; j < G.count; j++)
            memcpy(nets[j], G.g[j], TOWERUP_COLOUR_COUNT);
        return G.count;
    }
    if (G.count == 1) {
        /* One gain vector: each way r of returning `back` floors (r <= supply + gain) is
           its own net change g - r. */
        int have[TOWERUP_COLOUR_COUNT], n = 0;
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
            have[c] = sup[c] + G.g[0][c];
        for (int a = 0; a <= have[0] && a <= back; a++)
            for (int b = 0; b <= have[1] && a + b <= back; b++)
                for (int c = 0; c <= have[2] && a + b + c <= back; c++) {
                    int e = back - a - b - c;
                    if (e > have[3])
                        continue;
                    nets[n][0] = (int8_t)(G.g[0][0] - a);
                    nets[n][1] = (int8_t)(G.g[0][1] - b);
                    nets[n][2] = (int8_t)(G.g[0][2] - c);
                    nets[n][3] = (int8_t)(G.g[0][3] - e);
                    n++;
                }
        return n;
    }
    int lo[TOWERUP_COLOUR_COUNT], hi[TOWERUP_COLOUR_COUNT] = {0};
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        lo[c] = -sup[c] > -back ? -sup[c] : -back;
        for (int j = 0; j < G.count; j++)
            if (G.g[j][c] > hi[c])
                hi[c] = G.g[j][c];
    }
    int target = gtot - back, n = 0;
    int8_t d[TOWERUP_COLOUR_COUNT];
    for (int a = lo[0]; a <= hi[0]; a++)
        for (int b = lo[1]; b <= hi[1]; b++)
            for (int c = lo[2]; c <= hi[2]; c++) {
                int e = target - a - b - c;
                if (e < lo[3] || e > hi[3])
                    continue;
                d[0] = (int8_t)a, d[1] = (int8_t)b, d[2] = (int8_t)c, d[3] = (int8_t)e;
                for (int j = 0; j < G.count; j++)
                    if (G.g[j][0] >= a && G.g[j][1] >= b && G.g[j][2] >= c && G.g[j][3] >= e) {
                        memcpy(nets[n++], d, TOWERUP_COLOUR_COUNT);
                        break;
                    }
            }
    return n;
}

/*
 * Supplies capped at 7 in 4-bit lanes: a site's neighbours (at most 5 of a colour) are
 * affordable iff no lane of (lanes | 8) - counts loses its 8.
 */
static inline unsigned supply_lanes(const uint8_t *sup)
{
    unsigned lanes = 0;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        lanes |= (unsigned)(sup[c] < 7 ? sup[c] : 7) << (4 * c);
    return lanes;
}

/* Colours (bit mask) a player with this supply can found at a frontier site. */
static inline unsigned site_build_colours(const towerup_state_t *s, const uint8_t *sup,
                                          unsigned lanes, int site)
{
    unsigned cnt = s->nbr_colours[site];
    if ((((lanes | 0x8888u) - cnt) & 0x8888u) != 0x8888u)
        return 0;
    /* Colours of the neighbours: a new building cannot have them. */
    unsigned used = (cnt | cnt >> 1 | cnt >> 2) & 0x1111u, ok = 0;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        if (!(used >> (4 * c) & 1) && sup[c])
            ok |= 1u << c;
    return ok;
}

/* Neighbouring buildings of a site: the sum of its colour-count lanes. */
static inline int site_neighbour_buildings(const towerup_state_t *s, int site)
{
    unsigned cnt = s->nbr_colours[site];
    return (int)((cnt & 15) + (cnt >> 4 & 15) + (cnt >> 8 & 15) + (cnt >> 12));
}

static int gen_setup(const towerup_state_t *s, move_t *moves)
{
    int n = 0, want = s->setup_colour[s->setup_done];
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        if (want != TOWERUP_WILD ? c != want : !s->reserve[c])
            continue;
        for (int i = 0; i < s->board->site_count; i++)
            if (tu_place_ok(s, i, c))
                moves[n++] = towerup_move_place(i, c);
    }
    return n;
}

int towerup_gen_moves(const towerup_state_t *s, move_t *moves)
{
    if (s->phase == TOWERUP_PHASE_OVER)
        return 0;
    if (s->phase == TOWERUP_PHASE_SETUP)
        return gen_setup(s, moves);
    int n = 0, p = s->to_move;
    int8_t nets[TU_MAX_NETS][TOWERUP_COLOUR_COUNT];
    for (int slot = 0; slot < TOWERUP_MARKET; slot++) {
        int k = tu_take_nets(s, s->market[slot], nets);
        for (int j = 0; j < k; j++) {
            int net[TOWERUP_COLOUR_COUNT] = {nets[j][0], nets[j][1], nets[j][2], nets[j][3]};
            moves[n++] = towerup_move_take(slot, net);
        }
    }
    if (!s->roofs_left[p])
        return n;
    const towerup_board_t *b = s->board;
    const uint8_t *sup = s->supply[p];
    unsigned lanes = supply_lanes(sup);
    for (uint64_t e = s->frontier; e; e &= e - 1) {
        int site = __builtin_ctzll(e);
        unsigned ok = site_build_colours(s, sup, lanes, site);
        if (!ok)
            continue;
        uint64_t nb = b->nbr[site] & s->occupied;
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
            if (!(ok >> c & 1))
                continue;
            moves[n++] = towerup_move_build(site, c, site);
            for (uint64_t r = nb; r; r &= r - 1)
                moves[n++] = towerup_move_build(site, c, __builtin_ctzll(r));
        }
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

/* The number of take moves of a card: the length of tu_take_nets' list. */
static int take_count(const towerup_state_t *s, int card)
{
    const uint8_t *sup = s->supply[s->to_move];
    gains_t G;
    gains_compute(s, &towerup_cards()[card], &G);
    int gtot = G.g[0][0] + G.g[0][1] + G.g[0][2] + G.g[0][3];
    int back = sup[0] + sup[1] + sup[2] + sup[3] + gtot - TOWERUP_SUPPLY_MAX;
    if (back <= 0)
        return G.count;
    if (G.count == 1) {
        int have[TOWERUP_COLOUR_COUNT];
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
            have[c] = sup[c] + G.g[0][c];
        return returns_count(have, back);
    }
    int8_t nets[TU_MAX_NETS][TOWERUP_COLOUR_COUNT];
    return tu_take_nets(s, card, nets);
}

/* The frontier sites where player p can found: colours allowed and roof choices. */
typedef struct build_groups {
    int count;                          /* sites listed */
    uint8_t site[TOWERUP_MAX_SITES];    /* the site */
    uint8_t colours[TOWERUP_MAX_SITES]; /* colours allowed there (bit mask) */
    uint8_t per[TOWERUP_MAX_SITES];     /* roof choices per colour: 1 + neighbours */
} build_groups_t;

/* Fills the groups; returns the number of build moves. */
static int build_groups(const towerup_state_t *s, int p, build_groups_t *bg)
{
    const uint8_t *sup = s->supply[p];
    unsigned lanes = supply_lanes(sup);
    int n = 0;
    bg->count = 0;
    for (uint64_t e = s->frontier; e; e &= e - 1) {
        int site = __builtin_ctzll(e);
        unsigned ok = site_build_colours(s, sup, lanes, site);
        if (!ok)
            continue;
        int per = 1 + site_neighbour_buildings(s, site), k = bg->count++;
        bg->site[k] = (uint8_t)site;
        bg->colours[k] = (uint8_t)ok;
        bg->per[k] = (uint8_t)per;
        n += per * towerup_popcount(ok);
    }
    return n;
}

/* The idx-th build move, in the order of towerup_gen_moves. */
static move_t build_nth(const towerup_state_t *s, const build_groups_t *bg, int idx)
{
    for (int g = 0;; g++) {
        int per = bg->per[g], here = per * towerup_popcount(bg->colours[g]);
        if (idx >= here) {
            idx -= here;
            continue;
        }
        int site = bg->site[g], k = idx / per, j = idx % per, c = 0;
        for (;; c++)
            if ((bg->colours[g] >> c & 1) && k-- == 0)
                break;
        int roof = site;
        for (uint64_t r = s->board->nbr[site] & s->occupied; j > 0; j--, r &= r - 1)
            roof = __builtin_ctzll(r);
        return towerup_move_build(site, c, roof);
    }
}

move_t towerup_random_move(const towerup_state_t *s, pcg32_t *rng)
{
    if (s->phase != TOWERUP_PHASE_PLAY) {
        move_t moves[GAME_MAX_MOVES];
        int n = towerup_gen_moves(s, moves);
        return n ? moves[pcg32_bounded(rng, (uint32_t)n)] : 0;
    }
    int count[TOWERUP_MARKET], takes = 0, p = s->to_move;
    for (int slot = 0; slot < TOWERUP_MARKET; slot++)
        takes += count[slot] = take_count(s, s->market[slot]);
    build_groups_t bg;
    int builds = s->roofs_left[p] ? build_groups(s, p, &bg) : 0;
    int r = (int)pcg32_bounded(rng, (uint32_t)(takes + builds));
    if (r >= takes)
        return build_nth(s, &bg, r - takes);
    int slot = 0;
    while (r >= count[slot])
        r -= count[slot++];
    int8_t nets[TU_MAX_NETS][TOWERUP_COLOUR_COUNT];
    tu_take_nets(s, s->market[slot], nets);
    int net[TOWERUP_COLOUR_COUNT] = {nets[r][0], nets[r][1], nets[r][2], nets[r][3]};
    return towerup_move_take(slot, net);
}

void towerup_move_to_text(const towerup_state_t *s, move_t m, char *buf)
{
    (void)s;
    const char *L = towerup_colour_letter;
    switch (towerup_move_kind(m)) {
    case TOWERUP_MOVE_PLACE:
        snprintf(buf, GAME_MOVE_TEXT_MAX, "P%d%c", towerup_move_site(m), L[towerup_move_colour(m)]);
        return;
    case TOWERUP_MOVE_BUILD:
        snprintf(buf, GAME_MOVE_TEXT_MAX, "B%d%c^%d", towerup_move_site(m),
                 L[towerup_move_colour(m)], towerup_move_roof(m));
        return;
    case TOWERUP_MOVE_TAKE: {
        int n = 0;
        buf[n++] = 'T';
        buf[n++] = (char)('1' + towerup_move_slot(m));
        for (int sign = 1; sign >= -1; sign -= 2) {
            bool any = false;
            for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
                for (int i = 0; i < towerup_move_net(m, c) * sign; i++) {
                    if (!any)
                        buf[n++] = sign > 0 ? '+' : '-';
                    any = true;
                    buf[n++] = L[c];
                }
        }
        buf[n] = 0;
        return;
    }
    default:
        snprintf(buf, GAME_MOVE_TEXT_MAX, "?");
    }
}

/* Reads a site number without leading zeros. */
static const char *read_site(const char *p, int *site)
{
    if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
        return NULL;
    int v = 0;
    while (*p >= '0' && *p <= '9' && v < 1000)
        v = v * 10 + (*p++ - '0');
    *site = v;
    return v < TOWERUP_MAX_SITES ? p : NULL;
}

/* Syntax only: 0 and *m, or -1. */
static int parse_syntax(const char *text, move_t *m)
{
    const char *p = text + 1;
    int site, colour, roof;
    switch (text[0]) {
    case 'P':
    case 'B':
        if (!(p = read_site(p, &site)) || (colour = towerup_colour_from_letter(*p++, false)) < 0)
            return -1;
        if (text[0] == 'P') {
            *m = towerup_move_place(site, colour);
            return *p ? -1 : 0;
        }
        if (*p++ != '^' || !(p = read_site(p, &roof)) || *p)
            return -1;
        *m = towerup_move_build(site, colour, roof);
        return 0;
    case 'T': {
        if (*p < '1' || *p > '3')
            return -1;
        int slot = *p++ - '1', net[TOWERUP_COLOUR_COUNT] = {0};
        for (int sign = 1; sign >= -1; sign -= 2) {
            if (*p != (sign > 0 ? '+' : '-'))
                continue;
            p++;
            int c;
            while ((c = towerup_colour_from_letter(*p, false)) >= 0) {
                net[c] += sign;
                if (net[c] > 4 || net[c] < -4)
                    return -1;
                p++;
            }
        }
        if (*p)
            return -1;
        *m = towerup_move_take(slot, net);
        return 0;
    }
    default:
        return -1;
    }
}

/* Why a well-formed move is not legal here (one sentence into err). */
static void explain_illegal(const towerup_state_t *s, move_t m, char *err, size_t errlen)
{
    const towerup_board_t *b = s->board;
    int kind = towerup_move_kind(m), site = towerup_move_site(m), c = towerup_move_colour(m);
    const char *L = towerup_colour_letter;
    if (s->phase == TOWERUP_PHASE_OVER) {
        tu_errf(err, errlen, "illegal: the game is over");
        return;
    }
    if (s->phase == TOWERUP_PHASE_SETUP && kind != TOWERUP_MOVE_PLACE) {
        tu_errf(err, errlen, "illegal: the starting floors must be placed first");
        return;
    }
    if (s->phase != TOWERUP_PHASE_SETUP && kind == TOWERUP_MOVE_PLACE) {
        tu_errf(err, errlen, "illegal: the set-up is over");
        return;
    }
    if (kind == TOWERUP_MOVE_TAKE) {
        tu_errf(err, errlen, "illegal: the card in slot %d (%s) cannot change the supply so",
                towerup_move_slot(m) + 1, towerup_cards()[s->market[towerup_move_slot(m)]].code);
        return;
    }
    if (site >= b->site_count) {
        tu_errf(err, errlen, "illegal: there is no site %d", site);
        return;
    }
    if (s->site[site]) {
        tu_errf(err, errlen, "illegal: site %d is not empty", site);
        return;
    }
    if (kind == TOWERUP_MOVE_PLACE) {
        int want = s->setup_colour[s->setup_done];
        if (want != TOWERUP_WILD && c != want)
            tu_errf(err, errlen, "illegal: starting floor %d must be %c", s->setup_done + 1,
                    L[want]);
        else if (!s->reserve[c])
            tu_errf(err, errlen, "illegal: the reserve has no %c floor", L[c]);
        else
            tu_errf(err, errlen, "illegal: site %d has a neighbour of colour %c", site, L[c]);
        return;
    }
    int p = s->to_move;
    uint64_t nb = b->nbr[site] & s->occupied;
    if (!s->roofs_left[p])
        tu_errf(err, errlen, "illegal: no roofs left");
    else if (!nb)
        tu_errf(err, errlen, "illegal: site %d has no neighbouring building", site);
    else if (nb & s->colour_mask[c])
        tu_errf(err, errlen, "illegal: site %d has a neighbouring building of colour %c", site,
                L[c]);
    else if (!tu_build_ok(s, p, site, c))
        tu_errf(err, errlen, "illegal: the supply lacks the floors for this building");
    else
        tu_errf(err, errlen, "illegal: the roof must go on site %d or a neighbouring building",
                site);
}

int towerup_move_from_text(const towerup_state_t *s, const char *text, move_t *m, char *err,
                           size_t errlen)
{
    char canon[GAME_MOVE_TEXT_MAX];
    move_t mv;
    if (strlen(text) >= GAME_MOVE_TEXT_MAX || parse_syntax(text, &mv) < 0 ||
        (towerup_move_to_text(s, mv, canon), strcmp(canon, text))) {
        tu_errf(err, errlen,
                "'%s' is not a canonical Tower Up move (P<site><colour>, "
                "T<slot>[+gained][-lost] or B<site><colour>^<roofsite>)",
                text);
        return -1;
    }
    move_t moves[GAME_MAX_MOVES];
    int n = towerup_gen_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == mv) {
            *m = mv;
            return 0;
        }
    explain_illegal(s, mv, err, errlen);
    return -1;
}
