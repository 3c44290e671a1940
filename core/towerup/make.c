/* Tower Up make/undo: actions, objectives, extra turns, end of game, playouts. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Debug builds recompute every derived field after each make and undo (STYLE.md 4). */
static void debug_check(const towerup_state_t *s, const char *where)
{
#ifndef NDEBUG
    char err[GAME_ERR_MAX];
    if (towerup_check(s, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", where, err);
        assert(!"towerup state inconsistent");
    }
#else
    (void)s;
    (void)where;
#endif
}

static inline int next_player(const towerup_state_t *s, int p)
{
    return p + 1 == s->players ? 0 : p + 1;
}

/* A building of colour c appears (sign 1) or goes (sign -1) at site: its neighbours'
   colour counts change. */
static inline void nbr_colours_add(towerup_state_t *s, int site, int c, int sign)
{
    uint16_t d = (uint16_t)(1u << (4 * c));
    for (uint64_t n = s->board->nbr[site]; n; n &= n - 1) {
        uint16_t *p = &s->nbr_colours[__builtin_ctzll(n)];
        *p = (uint16_t)(sign > 0 ? *p + d : *p - d);
    }
}

static inline int cone_now(const towerup_state_t *s, int p)
{
    int v = towerup_visible_roofs(s, p);
    return v < TOWERUP_CONE_MAX ? v : TOWERUP_CONE_MAX;
}

static inline void marker_advance(towerup_state_t *s, int p, int c, int steps)
{
    int v = s->markers[p][c] + steps;
    s->markers[p][c] = (uint8_t)(v < TOWERUP_COLUMN_COUNT ? v : TOWERUP_COLUMN_COUNT - 1);
}

/* Roofs of player p in one building. */
static int roofs_in(const towerup_state_t *s, int site, int p)
{
    int n = 0;
    for (uint32_t r = s->roofs[site]; r; r >>= 3)
        n += (int)(r & 7) == p + 1;
    return n;
}

/* Whether a set of present buildings holds a connected subset of 5. */
static bool has_connected5(const towerup_board_t *b, uint64_t pres)
{
    while (towerup_popcount(pres) >= 5) {
        uint64_t comp = pres & -pres, frontier = comp;
        while (frontier) {
            uint64_t next = 0;
            for (uint64_t f = frontier; f; f &= f - 1)
                next |= b->nbr[__builtin_ctzll(f)];
            frontier = next & pres & ~comp;
            comp |= frontier;
        }
        if (towerup_popcount(comp) >= 5)
            return true;
        pres &= ~comp;
    }
    return false;
}

/* Two present-present border streets with different area pairs and four sites. */
static bool has_borders(const towerup_board_t *b, uint64_t pres)
{
    int list[TOWERUP_MAX_STREETS], n = 0;
    for (int i = 0; i < b->street_count; i++)
        if (b->street_border[i] && (pres >> b->street_a[i] & 1) && (pres >> b->street_b[i] & 1))
            list[n++] = i;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int x = list[i], y = list[j];
            if (b->street_pair[x] != b->street_pair[y] && b->street_a[x] != b->street_a[y] &&
                b->street_a[x] != b->street_b[y] && b->street_b[x] != b->street_a[y] &&
                b->street_b[x] != b->street_b[y])
                return true;
        }
    return false;
}

bool towerup_objective_met(const towerup_state_t *s, int p, int obj)
{
    const towerup_board_t *b = s->board;
    uint64_t P = s->present[p];
    switch (obj) {
    case TOWERUP_OBJ_COLORS:
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
            if (!(P & s->colour_mask[c]))
                return false;
        return true;
    case TOWERUP_OBJ_PARK: return towerup_popcount(P & b->park) >= 4;
    case TOWERUP_OBJ_AREAS:
        for (int a = 0; a < TOWERUP_AREA_COUNT; a++)
            if (!(P & b->area_mask[a]))
                return false;
        return true;
    case TOWERUP_OBJ_LAKE: return towerup_popcount(P & b->lake) >= 4;
    case TOWERUP_OBJ_CONNECTED: return has_connected5(b, P);
    case TOWERUP_OBJ_BROWN: return towerup_popcount(P & s->colour_mask[3]) >= 4;
    case TOWERUP_OBJ_GREY: {
        int x = towerup_popcount(P & b->area_mask[b->grey[0]]);
        int y = towerup_popcount(P & b->area_mask[b->grey[1]]);
        return (x >= 3 && y >= 2) || (x >= 2 && y >= 3);
    }
    case TOWERUP_OBJ_BORDERS: return has_borders(b, P);
    case TOWERUP_OBJ_DOUBLES: {
        int n = 0;
        for (uint64_t t = P; t; t &= t - 1)
            n += roofs_in(s, __builtin_ctzll(t), p) >= 2;
        return n >= 2;
    }
    case TOWERUP_OBJ_HEIGHTS: return (s->level_mask[p] & 0x1e) == 0x1e;
    default: return false;
    }
}

static void objectives_settle(towerup_state_t *s, int p)
{
    const uint8_t *values = towerup_chip_values(s->players);
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++) {
        if ((s->met[p] >> i & 1) || !towerup_objective_met(s, p, s->objectives[i]))
            continue;
        s->met[p] |= (uint8_t)(1u << i);
        uint8_t v = values[s->chip_next[i]];
        if (v) {
            s->chips[p][s->chip_count[p]++] = v;
            s->chip_next[i]++;
        }
    }
}

/* Extra turn, end triggers, final rounds, cones and the safeguard after an action. */
static void action_end(towerup_state_t *s, int p, int stars_before, int trigger)
{
    s->turns++;
    if (trigger && !s->end_trigger) {
        s->end_trigger = (uint8_t)trigger;
        s->trigger_player = (uint8_t)p;
    }
    if (towerup_star_level(s, p) <= stars_before) {
        if (s->end_trigger && !s->final_round) {
            s->final_round = 1;
            if (s->end_trigger == TOWERUP_END_LAST_ROOF) {
                s->cone[p] = (int8_t)cone_now(s, p);
                s->final_left = (uint8_t)(s->players - 1);
            } else {
                s->final_left = s->players;
            }
            s->to_move = (uint8_t)next_player(s, p);
        } else if (s->final_round) {
            s->cone[p] = (int8_t)cone_now(s, p);
            if (--s->final_left == 0)
                s->phase = TOWERUP_PHASE_OVER;
            else
                s->to_move = (uint8_t)next_player(s, p);
        } else {
            s->to_move = (uint8_t)next_player(s, p);
        }
    }
    if (s->turns >= TOWERUP_MAX_TURNS && s->phase != TOWERUP_PHASE_OVER) {
        s->phase = TOWERUP_PHASE_OVER;
        for (int q = 0; q < s->players; q++)
            if (s->cone[q] < 0) {
                /* The mover's key part is settled by make_move. */
                uint64_t old = q == p ? 0 : towerup_key_player(s, q);
                s->cone[q] = (int8_t)cone_now(s, q);
                s->key ^= q == p ? 0 : old ^ towerup_key_player(s, q);
            }
    }
}

/* The discard pile becomes the draw pile, shuffled by the embedded rng. */
static void reshuffle(towerup_state_t *s)
{
    uint64_t k = towerup_key_rng(&s->rng);
    int n = 0;
    for (uint64_t d = s->discard; d; d &= d - 1) {
        int c = __builtin_ctzll(d);
        k ^= towerup_key_discard(c);
        s->draw[n++] = (uint8_t)c;
    }
    s->discard = 0;
    pcg32_shuffle_u8(&s->rng, s->draw, n);
    s->draw_pos = 0;
    s->draw_end = (uint8_t)n;
    s->reshuffles++;
    s->key ^= k ^ towerup_key_draw_pile(s) ^ towerup_key_rng(&s->rng);
}

static int make_take(towerup_state_t *s, int p, move_t m)
{
    int slot = towerup_move_slot(m), card = s->market[slot];
    const towerup_card_t *k = &towerup_cards()[card];
    int trigger = towerup_take_shortage(s, k) ? TOWERUP_END_SHORTAGE : TOWERUP_END_NONE;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        int d = towerup_move_net(m, c);
        s->supply[p][c] = (uint8_t)(s->supply[p][c] + d);
        s->reserve[c] = (uint8_t)(s->reserve[c] - d);
    }
    if (k->vehicle >= 0)
        marker_advance(s, p, k->vehicle, k->steps);
    s->key ^= towerup_key_market(slot, card) ^ towerup_key_discard(card);
    s->discard |= 1ULL << card;
    if (s->draw_pos == s->draw_end)
        reshuffle(s);
    int top = s->draw[s->draw_pos];
    s->key ^= towerup_key_draw(s->draw_end - 1 - s->draw_pos, top) ^ towerup_key_market(slot, top);
    s->draw_pos++;
    s->market[slot] = (uint8_t)top;
    return trigger;
}

static int make_build(towerup_state_t *s, int p, move_t m, towerup_undo_t *u)
{
    const towerup_board_t *b = s->board;
    int site = towerup_move_site(m), c = towerup_move_colour(m), roof = towerup_move_roof(m);
    uint64_t nb = b->nbr[site] & s->occupied;
    s->supply[p][c]--;
    for (uint64_t t = nb; t; t &= t - 1) {
        int i = __builtin_ctzll(t);
        s->key ^= towerup_key_site(s, i);
        s->supply[p][s->site[i] >> 4]--;
        s->site[i]++;
    }
    for (int q = 0; q < s->players; q++)
        s->visible[q] &= ~nb;
    s->site[site] = (uint8_t)(1 | c << 4);
    s->occupied |= 1ULL << site;
    s->frontier = (s->frontier | b->nbr[site]) & ~s->occupied;
    nbr_colours_add(s, site, c, 1);
    s->colour_mask[c] |= 1ULL << site;
    int level = s->site[roof] & 15;
    if (u)
        u->old_roofs = s->roofs[roof];
    s->roofs[roof] |= (uint32_t)(p + 1) << (3 * (level - 1));
    s->visible[p] |= 1ULL << roof;
    s->present[p] |= 1ULL << roof;
    s->level_mask[p] |= (uint8_t)(1u << level);
    s->roofs_left[p]--;
    marker_advance(s, p, s->site[roof] >> 4, level);
    for (uint64_t t = nb | 1ULL << site; t; t &= t - 1)
        s->key ^= towerup_key_site(s, __builtin_ctzll(t));
    objectives_settle(s, p);
    return s->roofs_left[p] ? TOWERUP_END_NONE : TOWERUP_END_LAST_ROOF;
}

static void make_place(towerup_state_t *s, move_t m)
{
    int site = towerup_move_site(m), c = towerup_move_colour(m), k = s->setup_done;
    s->site[site] = (uint8_t)(1 | c << 4);
    s->key ^= towerup_key_site(s, site);
    s->occupied |= 1ULL << site;
    s->frontier = (s->frontier | s->board->nbr[site]) & ~s->occupied;
    nbr_colours_add(s, site, c, 1);
    s->colour_mask[c] |= 1ULL << site;
    s->reserve[c]--;
    s->setup_site[k] = (uint8_t)site;
    s->setup_floor[k] = (uint8_t)c;
    if (++s->setup_done == s->setup_count) {
        s->phase = TOWERUP_PHASE_PLAY;
        s->to_move = s->first_player;
    }
}

/* make without an undo record when u is NULL (playouts). */
static void make_move(towerup_state_t *s, move_t m, towerup_undo_t *u)
{
    int kind = towerup_move_kind(m), p = s->to_move;
    s->key ^= towerup_key_misc(s);
    if (kind == TOWERUP_MOVE_PLACE) {
        make_place(s, m);
    } else {
        /* Only the mover's counters change (other cones: see action_end). */
        s->key ^= towerup_key_player(s, p);
        int before = towerup_star_level(s, p);
        int trigger = kind == TOWERUP_MOVE_TAKE ? make_take(s, p, m) : make_build(s, p, m, u);
        action_end(s, p, before, trigger);
        s->key ^= towerup_key_player(s, p);
    }
    s->key ^= towerup_key_misc(s);
}

void towerup_make(void *state, move_t m, void *undo)
{
    towerup_state_t *s = state;
    towerup_undo_t *u = undo;
    memcpy(u->head, s, TOWERUP_HEAD_SIZE);
    make_move(s, m, u);
    debug_check(s, "towerup_make");
}

void towerup_undo(void *state, move_t m, const void *undo)
{
    towerup_state_t *s = state;
    const towerup_undo_t *u = undo;
    memcpy(s, u->head, TOWERUP_HEAD_SIZE);
    int kind = towerup_move_kind(m), site = towerup_move_site(m);
    if (kind != TOWERUP_MOVE_TAKE)
        nbr_colours_add(s, site, towerup_move_colour(m), -1);
    if (kind == TOWERUP_MOVE_PLACE) {
        s->site[site] = 0;
    } else if (kind == TOWERUP_MOVE_BUILD) {
        for (uint64_t t = s->board->nbr[site] & s->occupied; t; t &= t - 1)
            s->site[__builtin_ctzll(t)]--;
        s->site[site] = 0;
        s->roofs[towerup_move_roof(m)] = u->old_roofs;
    }
    debug_check(s, "towerup_undo");
}

void towerup_setup_random(towerup_state_t *s, pcg32_t *rng)
{
    move_t moves[GAME_MAX_MOVES];
    while (s->phase == TOWERUP_PHASE_SETUP) {
        int n = towerup_gen_moves(s, moves);
        if (!n)
            break; /* new games refuse boards where this can happen (towerup_setup_fits) */
        make_move(s, moves[pcg32_bounded(rng, (uint32_t)n)], NULL);
    }
    s->setup_random = 1;
}

void towerup_playout(void *state, pcg32_t *rng)
{
    towerup_state_t *s = state;
    while (s->phase != TOWERUP_PHASE_OVER)
        make_move(s, towerup_random_move(s, rng), NULL);
}
