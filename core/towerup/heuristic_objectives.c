/*
 * Tower Up heuristic, objectives (core/towerup/heuristic_parts.h): how many more roofs a
 * player needs for each objective, roughly, and what the open objectives are worth.
 */
#include "core/towerup/heuristic_parts.h"

/* Roofs of player p in the building on site. */
static int roofs_of(const towerup_state_t *s, int site, int p)
{
    int n = 0;
    for (uint32_t r = s->roofs[site]; r; r >>= 3)
        n += (int)(r & 7) == p + 1;
    return n;
}

/* Largest connected set of present sites. */
static int largest_component(const towerup_board_t *b, uint64_t pres)
{
    int best = 0;
    while (pres) {
        uint64_t comp = pres & -pres, grow = comp;
        while (grow) {
            uint64_t next = 0;
            for (uint64_t f = grow; f; f &= f - 1)
                next |= b->nbr[__builtin_ctzll(f)];
            grow = next & pres & ~comp;
            comp |= grow;
        }
        int n = towerup_popcount(comp);
        best = n > best ? n : best;
        pres &= ~comp;
    }
    return best;
}

/* borders: 0 when met, 2 with one pair of present buildings across a border, 3 when a
   present building stands by a border street, else 4. */
static int borders_distance(const towerup_board_t *b, uint64_t pres)
{
    int list[TOWERUP_MAX_STREETS], n = 0, touch = 0;
    for (int i = 0; i < b->street_count; i++) {
        if (!b->street_border[i])
            continue;
        bool x = pres >> b->street_a[i] & 1, y = pres >> b->street_b[i] & 1;
        touch |= x || y;
        if (x && y)
            list[n++] = i;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int u = list[i], v = list[j];
            if (b->street_pair[u] != b->street_pair[v] && b->street_a[u] != b->street_a[v] &&
                b->street_a[u] != b->street_b[v] && b->street_b[u] != b->street_a[v] &&
                b->street_b[u] != b->street_b[v])
                return 0;
        }
    return n ? 2 : touch ? 3 : 4;
}

static int at_least(int have, int need) { return have >= need ? 0 : need - have; }

/*
 * Roofs player p still needs for objective obj if a roof of theirs is added on site r at
 * level lv (r < 0: none); r_colour is r's building colour (r may be the site being
 * founded, not yet in the colour masks).
 */
int towerup_objective_distance(const towerup_state_t *s, int p, int obj, int r, int r_colour,
                               int lv)
{
    const towerup_board_t *b = s->board;
    uint64_t P = s->present[p], rb = r >= 0 ? 1ULL << r : 0;
    P |= rb;
    switch (obj) {
    case TOWERUP_OBJ_COLORS: {
        int miss = 0;
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
            miss += !(P & s->colour_mask[c]) && !(r >= 0 && r_colour == c);
        return miss;
    }
    case TOWERUP_OBJ_PARK: return at_least(towerup_popcount(P & b->park), 4);
    case TOWERUP_OBJ_AREAS: {
        int miss = 0;
        for (int a = 0; a < TOWERUP_AREA_COUNT; a++)
            miss += !(P & b->area_mask[a]);
        return miss;
    }
    case TOWERUP_OBJ_LAKE: return at_least(towerup_popcount(P & b->lake), 4);
    case TOWERUP_OBJ_CONNECTED: return at_least(largest_component(b, P), 5);
    case TOWERUP_OBJ_BROWN: {
        uint64_t brown = s->colour_mask[3] | (r >= 0 && r_colour == 3 ? rb : 0);
        return at_least(towerup_popcount(P & brown), 4);
    }
    case TOWERUP_OBJ_GREY: {
        int x = towerup_popcount(P & b->area_mask[b->grey[0]]);
        int y = towerup_popcount(P & b->area_mask[b->grey[1]]);
        int d1 = at_least(x, 3) + at_least(y, 2), d2 = at_least(x, 2) + at_least(y, 3);
        return d1 < d2 ? d1 : d2;
    }
    case TOWERUP_OBJ_BORDERS: return borders_distance(b, P);
    case TOWERUP_OBJ_DOUBLES: {
        int two = 0, one = 0;
        for (uint64_t t = P; t; t &= t - 1) {
            int i = __builtin_ctzll(t), n = roofs_of(s, i, p) + (i == r);
            two += n >= 2;
            one += n == 1;
        }
        if (two >= 2)
            return 0;
        int need = 2 - two, from_one = one < need ? one : need;
        return from_one + 2 * (need - from_one);
    }
    case TOWERUP_OBJ_HEIGHTS: {
        int lm = s->level_mask[p] | (r >= 0 && lv < 8 ? 1 << lv : 0), miss = 0;
        for (int l = 1; l <= 4; l++)
            miss += !(lm >> l & 1);
        return miss;
    }
    default: return 0;
    }
}

/* Whether the game's objective i still counts for player p (not met, a chip left). */
bool towerup_objective_open(const towerup_state_t *s, int p, int i)
{
    return !(s->met[p] >> i & 1) && towerup_chip_values(s->players)[s->chip_next[i]];
}

/* Objective potential of player p with a roof of theirs added on site r (colour r_colour,
   level lv; r < 0: none). */
double towerup_objective_potential(const towerup_state_t *s, int p, int r, int r_colour, int lv,
                                   int roofs_left, const double *w)
{
    const uint8_t *chips = towerup_chip_values(s->players);
    int dist[TOWERUP_GAME_OBJECTIVES] = {0};
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
        if (!(s->met[p] >> i & 1) && chips[s->chip_next[i]]) /* towerup_objective_open */
            dist[i] = towerup_objective_distance(s, p, s->objectives[i], r, r_colour, lv);
    return towerup_objective_sum(s, p, dist, roofs_left, w);
}

/* Whether objective obj's distance depends on the colour of the roofed building. */
bool towerup_objective_reads_colour(int obj)
{
    return obj == TOWERUP_OBJ_COLORS || obj == TOWERUP_OBJ_BROWN;
}
