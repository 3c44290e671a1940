/*
 * Whether a board takes the starting floors of every deal, whatever the placer does
 * (core/rules-notes.md, Tower Up 2). A set-up is stuck when the next floor, of colour c,
 * finds every empty site next to a building of colour c. The placed floors are then a set
 * D of colour c (no two neighbours) whose neighbourhoods cover every site but the set O
 * of the other placed floors, which hold the three other colours with no two neighbours
 * of one colour. Placements stay legal in any order and any colour sequence can be dealt,
 * so the board takes k floors iff no such D and O have |D| + |O| < k and no fewer than k
 * sites exist. The search branches on the lowest site not yet covered: it goes into O, or
 * one site of its closed neighbourhood joins D; a site covers at most 1 + 5 sites.
 */
#include <stdio.h>

#include "core/input.h"
#include "internal.h"

/* Search state: the board, the floor budget and the stuck set-up found, if any. */
typedef struct fit {
    const towerup_board_t *b; /* the board */
    int budget;               /* floors placed before the stuck one: at most k - 1 */
    uint64_t found_d;         /* D of a stuck set-up found (0: none yet) */
    uint64_t found_o;         /* its O */
} fit_t;

/* Whether the sites of o take three colours with no two neighbours of one colour. */
static bool three_colourable(const towerup_board_t *b, uint64_t o)
{
    int site[TOWERUP_MAX_START_FLOORS], n = 0, colour[TOWERUP_MAX_START_FLOORS];
    for (uint64_t x = o; x; x &= x - 1)
        site[n++] = __builtin_ctzll(x);
    int i = 0;
    colour[0] = -1;
    while (i >= 0) {
        if (i == n)
            return true;
        if (++colour[i] == 3) {
            i--;
            continue;
        }
        bool ok = true;
        for (int j = 0; j < i && ok; j++)
            ok = colour[j] != colour[i] || !(b->nbr[site[i]] >> site[j] & 1);
        if (ok && ++i < n)
            colour[i] = -1;
    }
    return false;
}

static int popcount(uint64_t x) { return __builtin_popcountll(x); }

/* d: sites of colour c; o: sites put in O; covered: d and its neighbours. */
static bool search(fit_t *f, uint64_t d, uint64_t o, uint64_t covered)
{
    const towerup_board_t *b = f->b;
    uint64_t open = b->all_sites & ~covered & ~o;
    int used = popcount(d) + popcount(o);
    if (!open) {
        /* Sites of O that D covers anyway need no floor. */
        o &= ~covered;
        if (d && popcount(d) + popcount(o) <= f->budget && three_colourable(b, o)) {
            f->found_d = d;
            f->found_o = o;
            return true;
        }
        return false;
    }
    if (used + (popcount(open) + TOWERUP_MAX_DEGREE) / (TOWERUP_MAX_DEGREE + 1) > f->budget)
        return false;
    int u = __builtin_ctzll(open);
    uint64_t ubit = 1ULL << u;
    for (uint64_t x = (b->nbr[u] | ubit) & ~covered; x; x &= x - 1) {
        int v = __builtin_ctzll(x);
        uint64_t vbit = 1ULL << v;
        if (b->nbr[v] & d)
            continue;
        if (search(f, d | vbit, o & ~vbit, covered | vbit | b->nbr[v]))
            return true;
    }
    return search(f, d, o | ubit, covered);
}

/* Appends "X at a, b and c" style text of a site set to buf. */
static void sites_text(char *buf, size_t len, uint64_t sites)
{
    size_t n = 0;
    int total = popcount(sites), i = 0;
    for (uint64_t x = sites; x; x &= x - 1, i++) {
        const char *sep = i == 0 ? "" : i == total - 1 ? " and " : ", ";
        int w = snprintf(buf + n, len - n, "%s%d", sep, __builtin_ctzll(x));
        if (w < 0 || (size_t)w >= len - n)
            return;
        n += (size_t)w;
    }
}

int towerup_setup_fits(const towerup_board_t *b, int start_count, char *err, size_t errlen)
{
    if (b->site_count < start_count) {
        return input_fail(err, errlen, "board", b->name,
                          "has %d sites, fewer than the %d starting floors", b->site_count,
                          start_count);
    }
    fit_t f = {.b = b, .budget = start_count - 1};
    if (!search(&f, 0, 0, 0))
        return 0;
    char ds[160], os[200] = "";
    sites_text(ds, sizeof ds, f.found_d);
    if (f.found_o) {
        char t[140];
        sites_text(t, sizeof t, f.found_o);
        snprintf(os, sizeof os, " (and of other colours on %s)", t);
    }
    return input_fail(err, errlen, "board", b->name,
                      "cannot take %d starting floors in every deal: floors of one colour "
                      "on sites %s%s leave no empty site for another floor of that colour "
                      "(RULES.md 1.5)",
                      start_count, ds, os);
}
