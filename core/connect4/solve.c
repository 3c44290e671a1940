/*
 * Connect Four solved exactly (solve.h): negamax with alpha-beta over the three values
 * win, draw and loss, on the bitboards of connect4.h. What makes it fast enough to solve
 * positions of a real game in milliseconds:
 *  - the mover's immediate wins end a node before anything else is made;
 *  - only moves that do not lose at once are searched: a cell the opponent would win on
 *    must be taken (two such cells: lost), and no stone goes right under one;
 *  - moves are tried in order of the winning cells they make (threats), centre first;
 *  - a transposition table keeps bounds per position (key: stones of the mover + every
 *    stone + the bottom row, unique per position), always replacing;
 *  - a value is found by null-window searches: is it a win? if not, is it a loss?
 */
#include "core/connect4/solve.h"

#include <stdlib.h>
#include <string.h>

#include "core/bits.h"

/* One entry: the position's key, and bounds lo <= value <= hi (-1, 0 or 1). */
typedef struct c4_tt_entry {
    uint64_t key;
    int8_t lo, hi;
} c4_tt_entry_t;

struct c4_solver {
    c4_tt_entry_t *table;
    uint64_t mask; /* entries - 1 */
    uint64_t nodes;
};

/* Columns in the order they are tried: the centre first. */
static const int c4_order[C4_COLUMNS] = {3, 2, 4, 1, 5, 0, 6};

c4_solver_t *c4_solver_new(int log2_entries)
{
    if (log2_entries < 10 || log2_entries > 30)
        return NULL;
    c4_solver_t *sv = calloc(1, sizeof *sv);
    if (!sv)
        return NULL;
    sv->table = calloc((size_t)1 << log2_entries, sizeof *sv->table);
    if (!sv->table) {
        free(sv);
        return NULL;
    }
    sv->mask = ((uint64_t)1 << log2_entries) - 1;
    return sv;
}

void c4_solver_free(c4_solver_t *sv)
{
    if (sv)
        free(sv->table);
    free(sv);
}

uint64_t c4_solver_nodes(const c4_solver_t *sv) { return sv->nodes; }

/* The empty cells where stones p would complete four in a line. */
static uint64_t winning_cells(uint64_t p, uint64_t mask)
{
    uint64_t r = (p << 1) & (p << 2) & (p << 3); /* three below */
    static const int dirs[3] = {7, 6, 8};
    for (int k = 0; k < 3; k++) {
        int d = dirs[k];
        uint64_t two = (p << d) & (p << 2 * d); /* the two cells before */
        r |= two & (p << 3 * d);
        r |= two & (p >> d);
        two = (p >> d) & (p >> 2 * d); /* the two cells after */
        r |= two & (p >> 3 * d);
        r |= two & (p << d);
    }
    return r & (C4_BOARD ^ mask);
}

static uint64_t playable(uint64_t mask) { return (mask + C4_BOTTOM) & C4_BOARD; }

/* The playable cells that do not lose at once for the mover (stones cur); 0: every move
   loses. The mover has no immediate win (checked before). */
static uint64_t non_losing(uint64_t cur, uint64_t mask)
{
    uint64_t possible = playable(mask);
    uint64_t threats = winning_cells(cur ^ mask, mask);
    uint64_t forced = possible & threats;
    if (forced) {
        if (forced & (forced - 1))
            return 0; /* two cells to block */
        possible = forced;
    }
    return possible & ~(threats >> 1);
}

static c4_tt_entry_t *tt_slot(c4_solver_t *sv, uint64_t key)
{
    return &sv->table[(key * 0x9E3779B97F4A7C15ULL >> 20) & sv->mask];
}

/* The value for the mover (stones cur) with bounds alpha < beta: exact inside the
   window, an upper bound when <= alpha, a lower bound when >= beta. */
static int negamax(c4_solver_t *sv, uint64_t cur, uint64_t mask, int stones, int alpha, int beta)
{
    sv->nodes++;
    if (winning_cells(cur, mask) & playable(mask))
        return 1;
    uint64_t next = non_losing(cur, mask);
    if (!next)
        return -1;
    if (stones >= C4_CELLS - 2)
        return 0; /* the mover blocks or fills; the last stone cannot win */
    uint64_t key = cur + mask + C4_BOTTOM;
    c4_tt_entry_t *e = tt_slot(sv, key);
    if (e->key == key) {
        if (e->lo >= beta)
            return e->lo;
        if (e->hi <= alpha)
            return e->hi;
        if (e->lo > alpha)
            alpha = e->lo;
        if (e->hi < beta)
            beta = e->hi;
        if (alpha >= beta)
            return alpha;
    }
    /* The moves, most threats first (insertion sort; ties keep the centre-first order). */
    uint64_t cells[C4_COLUMNS];
    int score[C4_COLUMNS], n = 0;
    for (int i = 0; i < C4_COLUMNS; i++) {
        uint64_t cell = next & c4_column_mask(c4_order[i]);
        if (!cell)
            continue;
        int s = bits_count64(winning_cells(cur | cell, mask | cell));
        int j = n++;
        for (; j > 0 && score[j - 1] < s; j--) {
            cells[j] = cells[j - 1];
            score[j] = score[j - 1];
        }
        cells[j] = cell;
        score[j] = s;
    }
    int a0 = alpha, best = -1;
    for (int i = 0; i < n; i++) {
        int v = -negamax(sv, cur ^ mask, mask | cells[i], stones + 1, -beta, -alpha);
        if (v > best) {
            best = v;
            if (v > alpha)
                alpha = v;
            if (alpha >= beta)
                break;
        }
    }
    e->key = key;
    e->lo = (int8_t)(best >= beta || best > a0 ? best : -1);
    e->hi = (int8_t)(best <= a0 ? best : 1);
    if (best > a0 && best < beta)
        e->lo = e->hi = (int8_t)best;
    return best;
}

/* The exact value for the mover (stones cur): two null-window searches. */
static int value_of(c4_solver_t *sv, uint64_t cur, uint64_t mask, int stones)
{
    if (negamax(sv, cur, mask, stones, 0, 1) >= 1)
        return 1;
    return negamax(sv, cur, mask, stones, -1, 0) >= 0 ? 0 : -1;
}

int c4_solve(c4_solver_t *sv, const c4_state_t *s, int *value, move_t *keep, int *nkeep)
{
    if (c4_is_over(s))
        return -1;
    uint64_t cur = s->stones[s->to_move], mask = s->mask;
    int v = value_of(sv, cur, mask, s->stone_count);
    *value = v;
    if (!keep)
        return 0;
    /* A move keeps the value when the position after it is worth -v to the opponent:
       one null-window search each (a win at once, or a full board, settles it). */
    int n = 0;
    for (int c = 0; c < C4_COLUMNS; c++) {
        if (!c4_column_open(s, c))
            continue;
        if (v == -1) { /* lost: every move keeps that */
            keep[n++] = (move_t)c;
            continue;
        }
        uint64_t cell = playable(mask) & c4_column_mask(c);
        int child; /* the value after the move, for the mover */
        if (c4_has_four(cur | cell))
            child = 1;
        else if (s->stone_count + 1 == C4_CELLS)
            child = 0;
        else {
            /* Is the opponent's value at most -v (then the mover's is at least v)? */
            int w = -negamax(sv, cur ^ mask, mask | cell, s->stone_count + 1, -v, -v + 1);
            child = w >= v ? v : v - 1;
        }
        if (child == v)
            keep[n++] = (move_t)c;
    }
    *nkeep = n;
    return 0;
}

void *c4_api_solver_new(void) { return c4_solver_new(24); }

void c4_api_solver_free(void *solver) { c4_solver_free(solver); }

int c4_api_solve(void *solver, const void *state, int *value, move_t *keep, int *nkeep,
                 uint64_t *nodes)
{
    c4_solver_t *sv = solver;
    uint64_t before = sv->nodes;
    int rc = c4_solve(sv, state, value, keep, nkeep);
    *nodes += sv->nodes - before;
    return rc;
}
