/*
 * The Connect Four solver (core/connect4/solve.c) against an obvious one written here:
 * plain minimax over c4_make/c4_undo with a table of exact values by Zobrist key, which
 * stops only at a win. 300 positions of random play with 22 to 38 stones (fixed seeds):
 * the same value and the same set of value-keeping moves, all three values and many positions
 * where a move loses the value among them; the game table's entry (game_api_t.solve)
 * gives the same. A finished game and table sizes out of range are refused.
 */
#include <stdlib.h>
#include <string.h>

#include "core/connect4/solve.h"
#include "core/rng.h"
#include "tests/test.h"

#define MEMO_BITS 22

typedef struct memo {
    uint64_t key[1u << MEMO_BITS];
    int8_t value[1u << MEMO_BITS]; /* value + 2; 0: empty */
} memo_t;

/* The value for the player to move: 1 win, 0 draw, -1 loss. */
static int ref_value(memo_t *m, c4_state_t *s)
{
    if (s->winner >= 0)
        return -1; /* the last mover made four */
    if (s->stone_count == C4_CELLS)
        return 0;
    uint32_t slot = (uint32_t)(s->hash >> (64 - MEMO_BITS));
    if (m->value[slot] && m->key[slot] == s->hash)
        return m->value[slot] - 2;
    move_t moves[C4_COLUMNS];
    int n = c4_gen_moves(s, moves), best = -1;
    for (int i = 0; i < n && best < 1; i++) {
        c4_undo_t u;
        c4_make(s, moves[i], &u);
        int v = -ref_value(m, s);
        c4_undo(s, moves[i], &u);
        if (v > best)
            best = v;
    }
    m->key[slot] = s->hash;
    m->value[slot] = (int8_t)(best + 2);
    return best;
}

/* The reference's value and value-keeping moves (as a bit set of columns). */
static int ref_solve(memo_t *m, c4_state_t *s, unsigned *keep)
{
    move_t moves[C4_COLUMNS];
    int n = c4_gen_moves(s, moves), child[C4_COLUMNS], best = -1;
    for (int i = 0; i < n; i++) {
        c4_undo_t u;
        c4_make(s, moves[i], &u);
        child[i] = -ref_value(m, s);
        c4_undo(s, moves[i], &u);
        if (child[i] > best)
            best = child[i];
    }
    *keep = 0;
    for (int i = 0; i < n; i++)
        if (child[i] == best)
            *keep |= 1u << moves[i];
    return best;
}

static unsigned keep_set(const move_t *keep, int n)
{
    unsigned set = 0;
    for (int i = 0; i < n; i++)
        set |= 1u << keep[i];
    return set;
}

static void test_against_reference(c4_solver_t *sv)
{
    memo_t *m = calloc(1, sizeof *m);
    void *tsv = connect4_api.solver_new();
    CHECK(m != NULL && tsv != NULL);
    pcg32_t rng;
    pcg32_seed(&rng, 2026, 11);
    int done = 0, wins = 0, draws = 0, losses = 0, partial = 0;
    while (done < 300) {
        c4_state_t s;
        c4_init(&s, (int)pcg32_bounded(&rng, 2));
        int target = 22 + (int)pcg32_bounded(&rng, 17);
        while (s.stone_count < target && !c4_is_over(&s)) {
            move_t moves[C4_COLUMNS];
            int n = c4_gen_moves(&s, moves);
            c4_undo_t u;
            c4_make(&s, moves[pcg32_bounded(&rng, (uint32_t)n)], &u);
        }
        if (c4_is_over(&s))
            continue;
        unsigned want_keep;
        int want = ref_solve(m, &s, &want_keep), value = 9, nkeep = 0;
        move_t keep[C4_COLUMNS];
        CHECK(c4_solve(sv, &s, &value, keep, &nkeep) == 0);
        CHECK_MSG(value == want && keep_set(keep, nkeep) == want_keep,
                  "position %d (%d stones): value %d, keep %#x; reference %d, %#x", done,
                  s.stone_count, value, keep_set(keep, nkeep), want, want_keep);
        if (done < 10) { /* the game table's entry gives the same, and counts nodes */
            uint64_t nodes = 0;
            int v2 = 9, n2 = 0;
            move_t k2[C4_COLUMNS];
            CHECK(connect4_api.solve(tsv, &s, &v2, k2, &n2, &nodes) == 0 && nodes > 0);
            CHECK(v2 == value && keep_set(k2, n2) == keep_set(keep, nkeep));
        }
        move_t moves[C4_COLUMNS];
        partial += nkeep < c4_gen_moves(&s, moves);
        wins += want > 0;
        draws += want == 0;
        losses += want < 0;
        done++;
    }
    /* The set is not trivial: all three values, and many positions where a move matters. */
    CHECK_MSG(wins > 20 && draws > 5 && losses > 20 && partial > 100,
              "wins %d, draws %d, losses %d, positions where a move loses the value %d", wins,
              draws, losses, partial);
    connect4_api.solver_free(tsv);
    free(m);
}

/* A position from columns played in turn (1-7 as text), player 0 first. */
static void play(c4_state_t *s, const char *cols)
{
    c4_init(s, 0);
    for (const char *c = cols; *c; c++) {
        c4_undo_t u;
        c4_make(s, (move_t)(*c - '1'), &u);
    }
}

static void test_hand_made(c4_solver_t *sv)
{
    c4_state_t s;
    int value, nkeep;
    move_t keep[C4_COLUMNS];
    /* A finished game is refused; table sizes out of range are refused. */
    play(&s, "1212121");
    CHECK(c4_is_over(&s));
    CHECK(c4_solve(sv, &s, &value, keep, &nkeep) == -1);
    CHECK(c4_solver_new(9) == NULL && c4_solver_new(31) == NULL);
}

int main(void)
{
    c4_solver_t *sv = c4_solver_new(20);
    CHECK(sv != NULL);
    test_against_reference(sv);
    test_hand_made(sv);
    c4_solver_free(sv);
    return test_finish("test_solve");
}
