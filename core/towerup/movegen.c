/* Tower Up move generation and move text (FORMATS.md §3). Take moves are in takes.c. */
#include <stdio.h>
#include <string.h>

#include "core/input.h"
#include "internal.h"

/* Colours (bit mask) a player can found at a frontier site, given the supply's lanes
   (towerup_count_lanes) with each bit 3 set and its colours (towerup_lanes_nonzero of them). The
   neighbours (at most 5 of a colour) are affordable iff no lane of lanes - counts loses
   its bit 3; a new building cannot have a neighbour's colour. */
static inline unsigned site_build_colours(const towerup_state_t *s, unsigned lanes, unsigned have,
                                          int site)
{
    unsigned cnt = s->nbr_colours[site];
    if (((lanes - cnt) & 0x8888u) != 0x8888u)
        return 0;
    return have & ~towerup_lanes_nonzero(cnt);
}

/* Neighbouring buildings of a site: the sum of its colour-count lanes. */
static inline int site_neighbour_buildings(const towerup_state_t *s, int site)
{
    unsigned cnt = s->nbr_colours[site];
    return (int)((cnt & 15) + (cnt >> 4 & 15) + (cnt >> 8 & 15) + (cnt >> 12));
}

/* Set-up placements, by colour then site. */
static int gen_setup(const towerup_state_t *s, move_t *moves)
{
    const towerup_board_t *b = s->board;
    int n = 0, want = s->setup_colour[s->setup_done];
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        if (want != TOWERUP_WILD ? c != want : !s->reserve[c])
            continue;
        /* Empty sites with no neighbour of colour c. */
        uint64_t open = b->all_sites & ~s->occupied;
        for (uint64_t x = s->colour_mask[c]; x; x &= x - 1)
            open &= ~b->nbr[__builtin_ctzll(x)];
        move_t base = towerup_move_place(0, c);
        for (; open; open &= open - 1)
            moves[n++] = base | (move_t)__builtin_ctzll(open);
    }
    return n;
}

/*
 * Build moves of player p, by site, then colour, then roof: the new building first, then
 * its neighbours by site. A site's roof choices are made once, as two vectors of four
 * moves; each colour ORs in its bits and stores all eight, keeping the first 1 +
 * neighbours. So up to 6 entries past the last move are scratch (moves[] has room:
 * GAME_MAX_MOVES is far above the most moves a position has).
 */
typedef move_t move_x4_t __attribute__((vector_size(16))); /* four moves (GCC, clang) */
static int gen_builds(const towerup_state_t *s, int p, move_t *moves)
{
    const towerup_board_t *b = s->board;
    const uint8_t *sup = s->supply[p];
    unsigned lanes = towerup_count_lanes(sup), have = towerup_lanes_nonzero(lanes);
    lanes |= 0x8888u;
    int n = 0;
    for (uint64_t e = s->frontier; e; e &= e - 1) {
        int site = __builtin_ctzll(e);
        unsigned ok = site_build_colours(s, lanes, have, site);
        if (!ok)
            continue;
        move_t roof[8] = {0};
        int per = 0;
        roof[per++] = towerup_move_build(site, 0, site);
        for (uint64_t r = b->nbr[site] & s->occupied; r; r &= r - 1)
            roof[per++] = towerup_move_build(site, 0, __builtin_ctzll(r));
        move_x4_t lo, hi;
        memcpy(&lo, roof, sizeof lo);
        memcpy(&hi, roof + 4, sizeof hi);
        for (; ok; ok &= ok - 1) {
            move_t colour = (move_t)__builtin_ctz(ok) << 6;
            move_x4_t a = lo | colour, z = hi | colour;
            memcpy(moves + n, &a, sizeof a);
            memcpy(moves + n + 4, &z, sizeof z);
            n += per;
        }
    }
    return n;
}

int towerup_gen_moves(const void *state, move_t *moves)
{
    const towerup_state_t *s = state;
    if (s->phase == TOWERUP_PHASE_OVER)
        return 0;
    if (s->phase == TOWERUP_PHASE_SETUP)
        return gen_setup(s, moves);
    int n = towerup_takes(s, moves);
    if (s->roofs_left[s->to_move])
        n += gen_builds(s, s->to_move, moves + n);
    return n;
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
    unsigned lanes = towerup_count_lanes(sup), have = towerup_lanes_nonzero(lanes);
    lanes |= 0x8888u;
    int n = 0;
    bg->count = 0;
    for (uint64_t e = s->frontier; e; e &= e - 1) {
        int site = __builtin_ctzll(e);
        unsigned ok = site_build_colours(s, lanes, have, site);
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
        takes += count[slot] = towerup_take_count(s, slot);
    build_groups_t bg;
    int builds = s->roofs_left[p] ? build_groups(s, p, &bg) : 0;
    int r = (int)pcg32_bounded(rng, (uint32_t)(takes + builds));
    if (r >= takes)
        return build_nth(s, &bg, r - takes);
    int slot = 0;
    while (r >= count[slot])
        r -= count[slot++];
    move_t moves[TOWERUP_MAX_TAKES];
    towerup_take_moves(s, slot, moves);
    return moves[r];
}

void towerup_move_to_text(const void *state, move_t m, char *buf)
{
    const towerup_state_t *s = state;
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
    default: snprintf(buf, GAME_MOVE_TEXT_MAX, "?");
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
    default: return -1;
    }
}

/* Why a well-formed move is not legal here (one sentence into why[len]). */
static void explain_illegal(const towerup_state_t *s, move_t m, char *why, size_t len)
{
    const towerup_board_t *b = s->board;
    int kind = towerup_move_kind(m), site = towerup_move_site(m), c = towerup_move_colour(m);
    const char *L = towerup_colour_letter;
    if (s->phase == TOWERUP_PHASE_OVER) {
        snprintf(why, len, "the game is over");
        return;
    }
    if (s->phase == TOWERUP_PHASE_SETUP && kind != TOWERUP_MOVE_PLACE) {
        snprintf(why, len, "the starting floors must be placed first");
        return;
    }
    if (s->phase != TOWERUP_PHASE_SETUP && kind == TOWERUP_MOVE_PLACE) {
        snprintf(why, len, "the set-up is over");
        return;
    }
    if (kind == TOWERUP_MOVE_TAKE) {
        snprintf(why, len, "the card in slot %d (%s) cannot change the supply so",
                 towerup_move_slot(m) + 1, towerup_cards()[s->market[towerup_move_slot(m)]].code);
        return;
    }
    if (site >= b->site_count) {
        snprintf(why, len, "there is no site %d", site);
        return;
    }
    if (s->site[site]) {
        snprintf(why, len, "site %d is not empty", site);
        return;
    }
    if (kind == TOWERUP_MOVE_PLACE) {
        int want = s->setup_colour[s->setup_done];
        if (want != TOWERUP_WILD && c != want)
            snprintf(why, len, "starting floor %d must be %c", s->setup_done + 1, L[want]);
        else if (!s->reserve[c])
            snprintf(why, len, "the reserve has no %c floor", L[c]);
        else
            snprintf(why, len, "site %d has a neighbour of colour %c", site, L[c]);
        return;
    }
    int p = s->to_move;
    uint64_t nb = b->nbr[site] & s->occupied;
    if (!s->roofs_left[p])
        snprintf(why, len, "no roofs left");
    else if (!nb)
        snprintf(why, len, "site %d has no neighbouring building", site);
    else if (nb & s->colour_mask[c])
        snprintf(why, len, "site %d has a neighbouring building of colour %c", site, L[c]);
    else if (!towerup_build_ok(s, p, site, c))
        snprintf(why, len, "the supply lacks the floors for this building");
    else
        snprintf(why, len, "the roof must go on site %d or a neighbouring building", site);
}

int towerup_move_from_text(const void *state, const char *text, move_t *m, char *err, size_t errlen)
{
    const towerup_state_t *s = state;
    char canon[GAME_MOVE_TEXT_MAX];
    move_t mv;
    if (strlen(text) >= GAME_MOVE_TEXT_MAX || parse_syntax(text, &mv) < 0 ||
        (towerup_move_to_text(s, mv, canon), strcmp(canon, text))) {
        return input_fail(err, errlen, "move", text,
                          "not a canonical Tower Up move (P<site><colour>, "
                          "T<slot>[+gained][-lost] or B<site><colour>^<roofsite>)");
    }
    move_t moves[GAME_MAX_MOVES];
    int n = towerup_gen_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == mv) {
            *m = mv;
            return 0;
        }
    char why[GAME_ERR_MAX];
    explain_illegal(s, mv, why, sizeof why);
    return input_fail(err, errlen, "move", text, "illegal: %s", why);
}
