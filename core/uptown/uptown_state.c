/* Uptown state: set-up, move generation, make/undo, groups, result, hash and check. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "core/input.h"
#include "uptown.h"

u128_t uptown_tile_cells[UPTOWN_TILE_COUNT];

/* Orthogonal neighbours of each cell. */
static u128_t cell_neighbours[UPTOWN_CELL_COUNT];
/* The 3x3 window around a cell packed in 9 bits, row by row (bit 0 up-left, 4 the cell,
   8 down-right): which of its bits are on the board. */
static uint16_t window_valid[UPTOWN_CELL_COUNT];
/* window_ok[window]: the present orthogonal neighbours of the centre lie in one arc of the
   present cells around it, so removing the centre keeps them connected around it. */
static bool window_ok[512];

/* Zobrist keys. */
static uint64_t z_colour[UPTOWN_COLOUR_MAX][UPTOWN_CELL_COUNT]; /* a colour on a cell */
static uint64_t z_kind[UPTOWN_TILE_COUNT][UPTOWN_CELL_COUNT];   /* a tile kind on a cell */
static uint64_t z_rack[UPTOWN_COLOUR_MAX][UPTOWN_TILE_COUNT];   /* a tile in a rack */
static uint64_t z_to_move[GAME_MAX_PLAYERS];                    /* the player to move */
static uint64_t z_captures[GAME_MAX_PLAYERS][128];              /* a player's capture count */
static uint64_t z_retired[UPTOWN_COLOUR_MAX];                   /* a retired colour */
static uint64_t z_moves[256];                                   /* the move count */

/* pat: the 8 cells around a centre in cyclic order UL, U, UR, R, DR, D, DL, L. */
static bool ring_pattern_ok(unsigned pat)
{
    if (pat == 0xFF)
        return true;
    int arcs_with_orth = 0;
    for (int start = 0; start < 8; start++) {
        /* An arc starts at a present cell whose predecessor is absent. */
        if (!(pat >> start & 1) || (pat >> ((start + 7) & 7) & 1))
            continue;
        bool orth = false;
        for (int i = start; pat >> (i & 7) & 1; i++)
            orth |= (i & 1) != 0;
        arcs_with_orth += orth;
    }
    return arcs_with_orth <= 1;
}

__attribute__((constructor)) static void uptown_tables_init(void)
{
    for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++) {
        int r = cell / 9, c = cell % 9;
        for (int t = 0; t < UPTOWN_TILE_COUNT; t++) {
            bool ok = t < 9    ? c == t
                      : t < 18 ? r == t - 9
                      : t < 27 ? (r / 3) * 3 + c / 3 == t - 18
                               : true;
            if (ok)
                uptown_tile_cells[t] |= UPTOWN_BIT(cell);
        }
        for (int w = 0; w < 9; w++) {
            int rr = r + w / 3 - 1, cc = c + w % 3 - 1;
            if (rr < 0 || rr >= 9 || cc < 0 || cc >= 9)
                continue;
            window_valid[cell] |= (uint16_t)(1u << w);
            if (w == 1 || w == 3 || w == 5 || w == 7)
                cell_neighbours[cell] |= UPTOWN_BIT(rr * 9 + cc);
        }
    }
    /* Window bit of each ring position UL, U, UR, R, DR, D, DL, L. */
    static const int ring_window_bit[8] = {0, 1, 2, 5, 8, 7, 6, 3};
    for (unsigned w = 0; w < 512; w++) {
        unsigned pat = 0;
        for (int i = 0; i < 8; i++)
            pat |= (w >> ring_window_bit[i] & 1) << i;
        window_ok[w] = ring_pattern_ok(pat);
    }
    uint64_t k = 0x5550544f574eULL;
    for (int i = 0; i < UPTOWN_COLOUR_MAX; i++)
        for (int j = 0; j < UPTOWN_CELL_COUNT; j++)
            z_colour[i][j] = rng_mix64(k++);
    for (int i = 0; i < UPTOWN_TILE_COUNT; i++)
        for (int j = 0; j < UPTOWN_CELL_COUNT; j++)
            z_kind[i][j] = rng_mix64(k++);
    for (int i = 0; i < UPTOWN_COLOUR_MAX; i++)
        for (int j = 0; j < UPTOWN_TILE_COUNT; j++)
            z_rack[i][j] = rng_mix64(k++);
    for (int i = 0; i < GAME_MAX_PLAYERS; i++) {
        z_to_move[i] = rng_mix64(k++);
        for (int j = 0; j < 128; j++)
            z_captures[i][j] = rng_mix64(k++);
    }
    for (int i = 0; i < UPTOWN_COLOUR_MAX; i++)
        z_retired[i] = rng_mix64(k++);
    for (int i = 0; i < 256; i++)
        z_moves[i] = rng_mix64(k++);
}

unsigned uptown_player_colours(const uptown_state_t *s, int player)
{
    return s->players == 2 ? (1u << player | 1u << (player + 2)) : 1u << player;
}

bool uptown_is_terminal(const void *state)
{
    const uptown_state_t *s = state;
    return s->players == 2 ? s->retired == 0xF : s->move_count >= UPTOWN_TURNS * s->players;
}

/* ---------------------------------------------------------------- set-up */

int uptown_new_from_piles(uptown_state_t *s, int players, int first_player,
                          const uint8_t piles[][UPTOWN_TILE_COUNT], char *err, size_t errlen)
{
    char given[16];
    if (players < 2 || players > 5) {
        snprintf(given, sizeof given, "%d", players);
        return input_fail(err, errlen, "players", given, "Uptown is for 2 to 5 players");
    }
    if (first_player < 0 || first_player >= players) {
        snprintf(given, sizeof given, "%d", first_player);
        return input_fail(err, errlen, "first_player", given, "not a player of a %d-player game",
                          players);
    }
    memset(s, 0, sizeof *s);
    s->players = (uint8_t)players;
    s->colours = (uint8_t)(players == 2 ? 4 : players);
    s->first_player = s->to_move = (uint8_t)first_player;
    memset(s->cell, UPTOWN_EMPTY, sizeof s->cell);
    for (int c = 0; c < s->colours; c++) {
        uint32_t seen = 0;
        for (int i = 0; i < UPTOWN_TILE_COUNT; i++) {
            int t = piles[c][i];
            if (t >= UPTOWN_TILE_COUNT || (seen >> t & 1)) {
                return input_fail(err, errlen, "piles", NULL,
                                  "pile %d is not the 28 tiles of a colour", c);
            }
            seen |= 1u << t;
            s->pile[c][i] = (uint8_t)t;
        }
        for (int i = 0; i < UPTOWN_RACK_SIZE; i++)
            s->rack[c] |= 1u << s->pile[c][i];
        s->pile_pos[c] = UPTOWN_RACK_SIZE;
    }
    uptown_recompute(s);
    return 0;
}

int uptown_new_game(void *state, const game_options_t *opt, char *err, size_t errlen)
{
    uptown_state_t *s = state;
    int players = opt->players;
    if (players < 2 || players > 5) {
        char given[16];
        snprintf(given, sizeof given, "%d", players);
        return input_fail(err, errlen, "players", given, "Uptown is for 2 to 5 players");
    }
    /* The first player is drawn first (even when given, so that a seed deals the same
       piles whoever starts), then the piles colour by colour. */
    pcg32_t rng;
    pcg32_seed(&rng, opt->seed, 0x5550544f574eULL);
    int first = (int)pcg32_bounded(&rng, (uint32_t)players);
    if (opt->first_player >= 0)
        first = opt->first_player;
    uint8_t piles[UPTOWN_COLOUR_MAX][UPTOWN_TILE_COUNT];
    int colours = players == 2 ? 4 : players;
    for (int c = 0; c < colours; c++) {
        for (int i = 0; i < UPTOWN_TILE_COUNT; i++)
            piles[c][i] = (uint8_t)i;
        pcg32_shuffle_u8(&rng, piles[c], UPTOWN_TILE_COUNT);
    }
    return uptown_new_from_piles(s, players, first, piles, err, errlen);
}

/* ---------------------------------------------------------------- groups and captures */

int uptown_group_count(u128_t cells)
{
    int n = 0;
    while (cells) {
        u128_t group = uptown_flood(cells & -cells, cells);
        cells &= ~group;
        n++;
    }
    return n;
}

bool uptown_can_remove(const uptown_state_t *s, int cell)
{
    u128_t bb = s->colour_bb[s->cell[cell] >> 5];
    /* The 3x3 window of bb around cell, packed in 9 bits. */
    u128_t x = cell >= 10 ? bb >> (cell - 10) : bb << (10 - cell);
    uint64_t lo = (uint64_t)x;
    unsigned w = (unsigned)((lo & 7) | (lo >> 6 & 070) | (lo >> 12 & 0700)) & window_valid[cell];
    unsigned orth = w & 0252;
    if ((orth & (orth - 1)) == 0 || window_ok[w])
        return true;
    u128_t nb = cell_neighbours[cell] & bb;
    /* The neighbours may still meet through a longer path: flood from one of them. */
    u128_t reach = uptown_flood(nb & -nb, bb & ~UPTOWN_BIT(cell));
    return (nb & ~reach) == 0;
}

int uptown_player_groups(const uptown_state_t *s, int player)
{
    unsigned own = uptown_player_colours(s, player);
    int n = 0;
    for (int c = 0; c < s->colours; c++)
        if (own >> c & 1)
            n += uptown_group_count(s->colour_bb[c]);
    return n;
}

void uptown_ranks(const uptown_state_t *s, int *groups, int *captures, int *ranks)
{
    int neg_groups[GAME_MAX_PLAYERS], neg_captures[GAME_MAX_PLAYERS];
    for (int p = 0; p < s->players; p++) {
        groups[p] = uptown_player_groups(s, p);
        captures[p] = s->captures[p];
        neg_groups[p] = -groups[p];
        neg_captures[p] = -captures[p];
    }
    game_ranks_from_keys(s->players, neg_groups, neg_captures, ranks);
}

void uptown_result(const void *state, double *res)
{
    const uptown_state_t *s = state;
    int groups[GAME_MAX_PLAYERS], captures[GAME_MAX_PLAYERS], ranks[GAME_MAX_PLAYERS];
    uptown_ranks(s, groups, captures, ranks);
    game_result_from_ranks(s->players, ranks, res);
}

/* ---------------------------------------------------------------- moves */

/* The cells the player to move may play on (empty, or a capturable tile); *active gets the
   colours it may play from. */
static inline u128_t move_targets(const uptown_state_t *s, unsigned *active_out)
{
    unsigned own = uptown_player_colours(s, s->to_move);
    unsigned active = own & ~s->retired;
    u128_t own_bb = 0, reach = 0;
    for (int c = 0; c < s->colours; c++) {
        if (!(own >> c & 1))
            continue;
        own_bb |= s->colour_bb[c];
        if (active >> c & 1)
            for (uint32_t r = s->rack[c]; r; r &= r - 1)
                reach |= uptown_tile_cells[__builtin_ctz(r)];
    }
    /* Each capturable cell is tested once, whatever the number of tiles reaching it. */
    u128_t cand = reach & s->occupied & ~own_bb, targets = ~s->occupied & UPTOWN_BOARD;
    while (cand) {
        int cell = bits_pop_lsb128(&cand);
        if (uptown_can_remove(s, cell))
            targets |= UPTOWN_BIT(cell);
    }
    *active_out = active;
    return targets;
}

/* Population count without the library call that __builtin_popcountll becomes without
   -mpopcnt. */
static inline int count64(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* Index of the k-th (from 0) set bit of x, which has more than k bits set. */
static inline int nth_bit64(uint64_t x, int k)
{
    for (; k > 0; k--)
        x &= x - 1;
    return __builtin_ctzll(x);
}

move_t uptown_random_move(const uptown_state_t *s, pcg32_t *rng)
{
    unsigned active;
    u128_t targets = move_targets(s, &active);
    /* The same move as uptown_gen_moves(s, moves)[pcg32_bounded(rng, count)], found by
       counting instead of listing. */
    u128_t cells[2 * UPTOWN_RACK_SIZE];
    int counts[2 * UPTOWN_RACK_SIZE], lo_counts[2 * UPTOWN_RACK_SIZE];
    move_t bases[2 * UPTOWN_RACK_SIZE];
    int k = 0, total = 0;
    for (int c = 0; c < s->colours; c++) {
        if (!(active >> c & 1))
            continue;
        for (uint32_t r = s->rack[c]; r; r &= r - 1) {
            int t = __builtin_ctz(r);
            cells[k] = uptown_tile_cells[t] & targets;
            lo_counts[k] = count64((uint64_t)cells[k]);
            counts[k] = lo_counts[k] + count64((uint64_t)(cells[k] >> 64));
            bases[k] = uptown_move_place(c, t, 0, false);
            total += counts[k++];
        }
    }
    if (total == 0) {
        int pick = (int)pcg32_bounded(rng, (uint32_t)k);
        return (bases[pick] & ~(move_t)127) | UPTOWN_MOVE_DISCARD;
    }
    int pick = (int)pcg32_bounded(rng, (uint32_t)total), i = 0;
    while (pick >= counts[i])
        pick -= counts[i++];
    int cell = pick < lo_counts[i]
                   ? nth_bit64((uint64_t)cells[i], pick)
                   : 64 + nth_bit64((uint64_t)(cells[i] >> 64), pick - lo_counts[i]);
    return (bases[i] + (move_t)cell) | (s->occupied >> cell & 1 ? UPTOWN_MOVE_CAPTURE : 0);
}

int uptown_gen_moves(const void *state, move_t *moves)
{
    const uptown_state_t *s = state;
    if (uptown_is_terminal(s))
        return 0;
    unsigned active;
    u128_t targets = move_targets(s, &active);
    int n = 0;
    for (int c = 0; c < s->colours; c++) {
        if (!(active >> c & 1))
            continue;
        for (uint32_t r = s->rack[c]; r; r &= r - 1) {
            int t = __builtin_ctz(r);
            u128_t x = uptown_tile_cells[t] & targets;
            /* The two 64-bit halves separately: cheaper than 128-bit bit scans. */
            for (int half = 0; half < 2; half++) {
                uint64_t xs = (uint64_t)(x >> (64 * half));
                uint64_t occ = (uint64_t)(s->occupied >> (64 * half));
                move_t base = uptown_move_place(c, t, 64 * half, false);
                while (xs) {
                    int b = bits_pop_lsb64(&xs);
                    moves[n++] = (base + (move_t)b) | (occ >> b & 1 ? UPTOWN_MOVE_CAPTURE : 0);
                }
            }
        }
    }
    if (n == 0) {
        /* Stuck: every rack tile of the active colours may be discarded. */
        for (int c = 0; c < s->colours; c++)
            if (active >> c & 1)
                for (uint32_t r = s->rack[c]; r; r &= r - 1)
                    moves[n++] = uptown_move_discard(c, __builtin_ctz(r));
    }
    return n;
}

int uptown_count_moves(const uptown_state_t *s)
{
    move_t moves[GAME_MAX_MOVES];
    return uptown_gen_moves(s, moves);
}

static inline void play_move(uptown_state_t *s, move_t m, uptown_undo_t *u)
{
    int p = s->to_move, c = uptown_move_colour(m), t = uptown_move_tile(m);
    uint64_t h = s->hash;
    u->hash = h;
    u->captured = UPTOWN_EMPTY;
    u->drew = 0;
    u->retired = s->retired;
    u->to_move = (uint8_t)p;
    s->rack[c] &= ~(1u << t);
    s->left[c] &= ~(1u << t);
    h ^= z_rack[c][t];
    if (!uptown_move_is_discard(m)) {
        int cell = uptown_move_cell(m);
        u128_t bit = UPTOWN_BIT(cell);
        if (s->cell[cell] != UPTOWN_EMPTY) {
            int old = s->cell[cell], oc = old >> 5;
            u->captured = (uint8_t)old;
            s->colour_bb[oc] &= ~bit;
            h ^= z_colour[oc][cell] ^ z_kind[old & 31][cell];
            h ^= z_captures[p][s->captures[p]] ^ z_captures[p][s->captures[p] + 1];
            s->captures[p]++;
        } else {
            s->occupied |= bit;
        }
        s->cell[cell] = (uint8_t)(c << 5 | t);
        s->colour_bb[c] |= bit;
        h ^= z_colour[c][cell] ^ z_kind[t][cell];
    }
    if (s->pile_pos[c] < UPTOWN_TILE_COUNT) {
        int nt = s->pile[c][s->pile_pos[c]++];
        s->rack[c] |= 1u << nt;
        h ^= z_rack[c][nt];
        u->drew = 1;
    } else if (s->players == 2) {
        s->retired |= (uint8_t)(1u << c);
        h ^= z_retired[c];
    }
    s->turns[p]++;
    h ^= z_moves[s->move_count] ^ z_moves[s->move_count + 1];
    s->move_count++;
    int next = p + 1 == s->players ? 0 : p + 1;
    h ^= z_to_move[p] ^ z_to_move[next];
    s->to_move = (uint8_t)next;
    s->hash = h;
}

void uptown_make(void *state, move_t m, void *undo)
{
    uptown_state_t *s = state;
    uptown_undo_t *u = undo;
    play_move(s, m, u);
#ifndef NDEBUG
    char err[GAME_ERR_MAX];
    if (uptown_check(s, err, sizeof err)) {
        fprintf(stderr, "uptown_make: %s\n", err);
        assert(!"uptown state inconsistent after make");
    }
#endif
}

void uptown_play(uptown_state_t *s, move_t m)
{
    uptown_undo_t u;
    play_move(s, m, &u);
}

void uptown_undo(void *state, move_t m, const void *undo)
{
    uptown_state_t *s = state;
    const uptown_undo_t *u = undo;
    int p = u->to_move, c = uptown_move_colour(m), t = uptown_move_tile(m);
    s->to_move = (uint8_t)p;
    s->turns[p]--;
    s->move_count--;
    if (u->drew) {
        s->pile_pos[c]--;
        s->rack[c] &= ~(1u << s->pile[c][s->pile_pos[c]]);
    }
    s->retired = u->retired;
    if (!uptown_move_is_discard(m)) {
        int cell = uptown_move_cell(m);
        u128_t bit = UPTOWN_BIT(cell);
        s->colour_bb[c] &= ~bit;
        if (u->captured != UPTOWN_EMPTY) {
            s->colour_bb[u->captured >> 5] |= bit;
            s->captures[p]--;
        } else {
            s->occupied &= ~bit;
        }
        s->cell[cell] = u->captured;
    }
    s->rack[c] |= 1u << t;
    s->left[c] |= 1u << t;
    s->hash = u->hash;
#ifndef NDEBUG
    char err[GAME_ERR_MAX];
    if (uptown_check(s, err, sizeof err)) {
        fprintf(stderr, "uptown_undo: %s\n", err);
        assert(!"uptown state inconsistent after undo");
    }
#endif
}

/* ---------------------------------------------------------------- hash and check */

uint64_t uptown_rack_hash(int colour, uint32_t rack)
{
    uint64_t h = 0;
    for (; rack; rack &= rack - 1)
        h ^= z_rack[colour][__builtin_ctz(rack)];
    return h;
}

uint64_t uptown_hash_full(const void *state)
{
    const uptown_state_t *s = state;
    uint64_t h = z_to_move[s->to_move] ^ z_moves[s->move_count];
    for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++)
        if (s->cell[cell] != UPTOWN_EMPTY)
            h ^= z_colour[s->cell[cell] >> 5][cell] ^ z_kind[s->cell[cell] & 31][cell];
    for (int c = 0; c < s->colours; c++) {
        for (int t = 0; t < UPTOWN_TILE_COUNT; t++)
            if (s->rack[c] >> t & 1)
                h ^= z_rack[c][t];
        if (s->retired >> c & 1)
            h ^= z_retired[c];
    }
    for (int p = 0; p < s->players; p++)
        h ^= z_captures[p][s->captures[p] & 127];
    return h;
}

void uptown_recompute(uptown_state_t *s)
{
    memset(s->colour_bb, 0, sizeof s->colour_bb);
    s->occupied = 0;
    for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++)
        if (s->cell[cell] != UPTOWN_EMPTY) {
            s->colour_bb[s->cell[cell] >> 5] |= UPTOWN_BIT(cell);
            s->occupied |= UPTOWN_BIT(cell);
        }
    for (int c = 0; c < s->colours; c++) {
        s->left[c] = s->rack[c];
        for (int i = s->pile_pos[c]; i < UPTOWN_TILE_COUNT; i++)
            s->left[c] |= 1u << s->pile[c][i];
    }
    s->hash = uptown_hash_full(s);
}

/* A consistency error: the field "state" (no single text is at fault). */
#define FAIL(...) return input_fail(err, errlen, "state", NULL, __VA_ARGS__)

/* Checks one colour's rack, pile, left set and board tiles. */
static int check_colour(const uptown_state_t *s, int c, char *err, size_t errlen)
{
    uint32_t seen = 0, rest = 0;
    for (int i = 0; i < UPTOWN_TILE_COUNT; i++) {
        int t = s->pile[c][i];
        if (t >= UPTOWN_TILE_COUNT || (seen >> t & 1))
            FAIL("colour %d: pile is not a permutation of the 28 tiles", c);
        seen |= 1u << t;
        if (i >= s->pile_pos[c])
            rest |= 1u << t;
    }
    if (s->pile_pos[c] < UPTOWN_RACK_SIZE || s->pile_pos[c] > UPTOWN_TILE_COUNT)
        FAIL("colour %d: pile position %d out of range", c, s->pile_pos[c]);
    if (s->rack[c] & rest)
        FAIL("colour %d: a rack tile is still in the pile", c);
    if (s->left[c] != (s->rack[c] | rest))
        FAIL("colour %d: left set is not rack plus pile", c);
    int owner = uptown_colour_owner(s, c);
    bool retired = s->retired >> c & 1;
    int plays = s->pile_pos[c] - UPTOWN_RACK_SIZE + (bits_count64(s->rack[c]) == 4);
    int want_rack = retired || (s->players > 2 && s->turns[owner] == UPTOWN_TURNS) ? 4 : 5;
    if (bits_count64(s->rack[c]) != want_rack)
        FAIL("colour %d: rack holds %d tiles, not %d", c, bits_count64(s->rack[c]), want_rack);
    if (s->players > 2 && plays != s->turns[owner])
        FAIL("colour %d: %d plays but %d turns", c, plays, s->turns[owner]);
    if (s->players == 2 && retired != (plays == UPTOWN_TURNS))
        FAIL("colour %d: retired flag disagrees with %d plays", c, plays);
    return 0;
}

int uptown_check(const void *state, char *err, size_t errlen)
{
    const uptown_state_t *s = state;
    if (s->players < 2 || s->players > 5 || s->colours != (s->players == 2 ? 4 : s->players))
        FAIL("bad player or colour count %d/%d", s->players, s->colours);
    if (s->to_move >= s->players || s->first_player >= s->players)
        FAIL("bad player to move %d or first player %d", s->to_move, s->first_player);
    if (s->to_move != (s->first_player + s->move_count) % s->players)
        FAIL("player to move %d does not follow from %d moves", s->to_move, s->move_count);
    for (int p = 0; p < s->players; p++) {
        int want = s->move_count / s->players +
                   ((p - s->first_player + s->players) % s->players < s->move_count % s->players);
        if (s->turns[p] != want)
            FAIL("player %d played %d turns, expected %d", p, s->turns[p], want);
    }
    if (s->move_count > (s->players == 2 ? 4 : s->players) * UPTOWN_TURNS)
        FAIL("too many moves (%d)", s->move_count);
    if (s->players > 2 && s->retired)
        FAIL("retired colours with %d players", s->players);
    if (s->retired >> s->colours)
        FAIL("retired mask names a colour that is not in the game");
    /* One pass over the cells: each colour's cells and tile kinds on the board. */
    u128_t bb[UPTOWN_COLOUR_MAX] = {0}, occ = 0;
    uint32_t on_board[UPTOWN_COLOUR_MAX] = {0};
    for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++) {
        if (s->cell[cell] == UPTOWN_EMPTY)
            continue;
        int c = s->cell[cell] >> 5, t = s->cell[cell] & 31;
        if (c >= s->colours)
            FAIL("cell %d holds a colour that is not in the game", cell);
        if (t >= UPTOWN_TILE_COUNT || (on_board[c] >> t & 1))
            FAIL("colour %d: tile %d on cell %d is not a tile or is duplicated", c, t, cell);
        if (!(uptown_tile_cells[t] >> cell & 1))
            FAIL("colour %d: tile %d may not stand on cell %d", c, t, cell);
        on_board[c] |= 1u << t;
        bb[c] |= UPTOWN_BIT(cell);
        occ |= UPTOWN_BIT(cell);
    }
    for (int c = 0; c < s->colours; c++) {
        if (bb[c] != s->colour_bb[c])
            FAIL("colour %d: bitboard disagrees with the cells", c);
        if (check_colour(s, c, err, errlen))
            return -1;
        if (on_board[c] & s->left[c])
            FAIL("colour %d: a tile on the board is still counted as unplayed", c);
    }
    for (int c = s->colours; c < UPTOWN_COLOUR_MAX; c++)
        if (s->colour_bb[c] || s->rack[c] || s->left[c])
            FAIL("colour %d is not in the game but has tiles", c);
    if (occ != s->occupied)
        FAIL("occupied mask disagrees with the cells");
    if (s->hash != uptown_hash_full(s))
        FAIL("incremental hash differs from the full hash");
    return 0;
}
