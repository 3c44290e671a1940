#pragma once
/*
 * Two toy games for the search tests, written against game_api_t only:
 *  - nim: 2 players, one pile, take 1 to 3 stones, taking the last stone wins; leaving
 *    exactly 6 or 11 stones gives the same player another move (players need not
 *    alternate).
 *    Deterministic, no hidden information.
 *  - trick: 3 players, cards 0..11, hands of 3 hidden from the others, a hidden draw pile
 *    of 3; each plays a card from hand in turn, then draws the top of the pile if any; the
 *    highest card of a trick scores a point and leads the next trick. Result by ranks of
 *    points (RULES 1.10 formula).
 */
#include <stdio.h>
#include <string.h>

#include "core/game.h"
#include "core/rng.h"

/* ---- nim ---- */

typedef struct nim_state {
    int pile;    /* stones left */
    int to_move; /* player to move, 0 or 1 */
    int winner;  /* -1 while the game goes on */
} nim_state_t;

static void nim_set(nim_state_t *s, int pile, int to_move)
{
    s->pile = pile;
    s->to_move = to_move;
    s->winner = -1;
}

/* True if leaving `left` stones gives the player another move. */
static bool nim_extra_turn(int left) { return left == 6 || left == 11; }

static int nim_new_game(void *state, const game_options_t *opt, char *err, size_t errlen)
{
    (void)opt;
    (void)err;
    (void)errlen;
    nim_set(state, 12, 0);
    return 0;
}

static void nim_copy(void *dst, const void *src) { memcpy(dst, src, sizeof(nim_state_t)); }

static int nim_gen_moves(const void *state, move_t *moves)
{
    const nim_state_t *s = state;
    int n = 0;
    if (s->winner >= 0)
        return 0;
    for (int k = 1; k <= 3 && k <= s->pile; k++)
        moves[n++] = (move_t)k;
    return n;
}

static void nim_make(void *state, move_t m, void *undo)
{
    nim_state_t *s = state;
    memcpy(undo, s, sizeof *s);
    s->pile -= (int)m;
    if (s->pile == 0)
        s->winner = s->to_move;
    else if (!nim_extra_turn(s->pile))
        s->to_move ^= 1;
}

static void nim_undo(void *state, move_t m, const void *undo)
{
    (void)m;
    memcpy(state, undo, sizeof(nim_state_t));
}

static bool nim_is_terminal(const void *state) { return ((const nim_state_t *)state)->winner >= 0; }

static int nim_to_move(const void *state) { return ((const nim_state_t *)state)->to_move; }

static int nim_player_count(const void *state)
{
    (void)state;
    return 2;
}

static void nim_result(const void *state, double *res)
{
    const nim_state_t *s = state;
    res[0] = s->winner == 0 ? 1.0 : 0.0;
    res[1] = s->winner == 1 ? 1.0 : 0.0;
}

static uint64_t nim_hash(const void *state)
{
    const nim_state_t *s = state;
    return rng_mix64((uint64_t)s->pile * 8 + (uint64_t)s->to_move * 2 +
                     (uint64_t)(s->winner + 1) * 64);
}

static void nim_move_to_text(const void *state, move_t m, char *buf)
{
    (void)state;
    snprintf(buf, GAME_MOVE_TEXT_MAX, "%u", (unsigned)m);
}

static void nim_determinize(void *state, int observer, pcg32_t *rng)
{
    (void)state;
    (void)observer;
    (void)rng;
}

static void nim_playout(void *state, pcg32_t *rng)
{
    move_t moves[3];
    nim_state_t undo;
    int n;
    while ((n = nim_gen_moves(state, moves)) > 0)
        nim_make(state, moves[pcg32_bounded(rng, (uint32_t)n)], &undo);
}

static const game_api_t nim_api = {
    .name = "nim",
    .min_players = 2,
    .max_players = 2,
    .state_size = sizeof(nim_state_t),
    .undo_size = sizeof(nim_state_t),
    .new_game = nim_new_game,
    .copy = nim_copy,
    .gen_moves = nim_gen_moves,
    .make = nim_make,
    .undo = nim_undo,
    .is_terminal = nim_is_terminal,
    .to_move = nim_to_move,
    .player_count = nim_player_count,
    .result = nim_result,
    .hash = nim_hash,
    .hash_full = nim_hash,
    .move_to_text = nim_move_to_text,
    .determinize = nim_determinize,
    .playout = nim_playout,
};

/* True if the player to move wins nim with `pile` stones left, by brute force. */
static bool nim_wins(int pile)
{
    for (int k = 1; k <= 3 && k <= pile; k++) {
        if (k == pile)
            return true;
        if (nim_extra_turn(pile - k) ? nim_wins(pile - k) : !nim_wins(pile - k))
            return true;
    }
    return false;
}

static bool nim_move_wins(int pile, move_t m)
{
    int k = (int)m;
    if (k == pile)
        return true;
    return nim_extra_turn(pile - k) ? nim_wins(pile - k) : !nim_wins(pile - k);
}

/* ---- trick ---- */

#define TRICK_PLAYERS 3
#define TRICK_CARDS   12

typedef struct trick_state {
    uint16_t hand[TRICK_PLAYERS]; /* cards in each hand, as bit sets (hidden from others) */
    int8_t pile[TRICK_CARDS];     /* draw pile, top last (order hidden from all) */
    int pile_count;               /* cards in pile */
    int8_t trick[TRICK_PLAYERS];  /* card each player put in the current trick, -1: none */
    int trick_count;              /* cards in the current trick */
    int to_move;                  /* player to move */
    int points[TRICK_PLAYERS];    /* tricks won */
} trick_state_t;

static int trick_popcount(uint16_t x)
{
    int n = 0;
    for (; x; x &= (uint16_t)(x - 1))
        n++;
    return n;
}

/* A random deal (chance) from seed: 3 cards each, 3 in the pile, player 0 first. */
static void trick_deal(trick_state_t *s, uint64_t seed)
{
    uint8_t cards[TRICK_CARDS];
    pcg32_t rng;
    for (int i = 0; i < TRICK_CARDS; i++)
        cards[i] = (uint8_t)i;
    pcg32_seed(&rng, seed, 7);
    pcg32_shuffle_u8(&rng, cards, TRICK_CARDS);
    memset(s, 0, sizeof *s);
    for (int p = 0; p < TRICK_PLAYERS; p++) {
        for (int k = 0; k < 3; k++)
            s->hand[p] |= (uint16_t)(1u << cards[3 * p + k]);
        s->trick[p] = -1;
    }
    for (int i = 9; i < TRICK_CARDS; i++)
        s->pile[s->pile_count++] = (int8_t)cards[i];
}

static int trick_new_game(void *state, const game_options_t *opt, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    trick_deal(state, opt ? opt->seed : 1);
    return 0;
}

static void trick_copy(void *dst, const void *src) { memcpy(dst, src, sizeof(trick_state_t)); }

static int trick_gen_moves(const void *state, move_t *moves)
{
    const trick_state_t *s = state;
    int n = 0;
    for (int c = 0; c < TRICK_CARDS; c++)
        if (s->hand[s->to_move] & (1u << c))
            moves[n++] = (move_t)c;
    return n;
}

static void trick_make(void *state, move_t m, void *undo)
{
    trick_state_t *s = state;
    memcpy(undo, s, sizeof *s);
    int p = s->to_move;
    s->hand[p] &= (uint16_t) ~(1u << m);
    s->trick[p] = (int8_t)m;
    s->trick_count++;
    if (s->pile_count > 0)
        s->hand[p] |= (uint16_t)(1u << s->pile[--s->pile_count]);
    if (s->trick_count < TRICK_PLAYERS) {
        s->to_move = (p + 1) % TRICK_PLAYERS;
        return;
    }
    int w = 0;
    for (int q = 1; q < TRICK_PLAYERS; q++)
        if (s->trick[q] > s->trick[w])
            w = q;
    s->points[w]++;
    s->to_move = w;
    s->trick_count = 0;
    for (int q = 0; q < TRICK_PLAYERS; q++)
        s->trick[q] = -1;
}

static void trick_undo(void *state, move_t m, const void *undo)
{
    (void)m;
    memcpy(state, undo, sizeof(trick_state_t));
}

static bool trick_is_terminal(const void *state)
{
    const trick_state_t *s = state;
    return s->hand[s->to_move] == 0;
}

static int trick_to_move(const void *state) { return ((const trick_state_t *)state)->to_move; }

static int trick_player_count(const void *state)
{
    (void)state;
    return TRICK_PLAYERS;
}

static void trick_result(const void *state, double *res)
{
    const trick_state_t *s = state;
    for (int p = 0; p < TRICK_PLAYERS; p++) {
        double r = 0.0;
        for (int q = 0; q < TRICK_PLAYERS; q++)
            if (q != p)
                r += s->points[p] > s->points[q] ? 1.0 : s->points[p] == s->points[q] ? 0.5 : 0;
        res[p] = r / (TRICK_PLAYERS - 1);
    }
}

static uint64_t trick_hash(const void *state)
{
    const unsigned char *b = state;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof(trick_state_t); i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static void trick_move_to_text(const void *state, move_t m, char *buf)
{
    (void)state;
    snprintf(buf, GAME_MOVE_TEXT_MAX, "c%u", (unsigned)m);
}

/*
 * Deals the cards observer cannot see (other hands and the pile) anew, keeping every
 * count. The unseen cards are gathered in card order, so the result depends only on what
 * observer sees and on rng.
 */
static void trick_determinize(void *state, int observer, pcg32_t *rng)
{
    trick_state_t *s = state;
    uint16_t unseen = 0;
    for (int p = 0; p < TRICK_PLAYERS; p++)
        if (p != observer)
            unseen |= s->hand[p];
    for (int i = 0; i < s->pile_count; i++)
        unseen |= (uint16_t)(1u << s->pile[i]);
    uint8_t cards[TRICK_CARDS];
    int n = 0;
    for (int c = 0; c < TRICK_CARDS; c++)
        if (unseen & (1u << c))
            cards[n++] = (uint8_t)c;
    pcg32_shuffle_u8(rng, cards, n);
    int k = 0;
    for (int p = 0; p < TRICK_PLAYERS; p++) {
        if (p == observer)
            continue;
        int count = trick_popcount(s->hand[p]);
        s->hand[p] = 0;
        for (int j = 0; j < count; j++)
            s->hand[p] |= (uint16_t)(1u << cards[k++]);
    }
    for (int i = 0; i < s->pile_count; i++)
        s->pile[i] = (int8_t)cards[k++];
}

static void trick_playout(void *state, pcg32_t *rng)
{
    move_t moves[TRICK_CARDS];
    trick_state_t undo;
    int n;
    while ((n = trick_gen_moves(state, moves)) > 0)
        trick_make(state, moves[pcg32_bounded(rng, (uint32_t)n)], &undo);
}

static const game_api_t trick_api = {
    .name = "trick",
    .min_players = 3,
    .max_players = 3,
    .state_size = sizeof(trick_state_t),
    .undo_size = sizeof(trick_state_t),
    .new_game = trick_new_game,
    .copy = trick_copy,
    .gen_moves = trick_gen_moves,
    .make = trick_make,
    .undo = trick_undo,
    .is_terminal = trick_is_terminal,
    .to_move = trick_to_move,
    .player_count = trick_player_count,
    .result = trick_result,
    .hash = trick_hash,
    .hash_full = trick_hash,
    .move_to_text = trick_move_to_text,
    .determinize = trick_determinize,
    .playout = trick_playout,
};

/* ---- coalition ----
 * 3 players, perfect information: player 0 picks A (0) or B (1), then player 1 picks X (0)
 * or Y (1), and the game ends with the results of coalition_results (player 2 never
 * moves). Under max^n player 1 answers A with X (0.4 > 0.3 for it), so A is worth 0.6 to
 * player 0 and B 0.4; under paranoid player 1 answers A with Y (0 for player 0), so B is
 * the better move for player 0.
 */
typedef struct coalition_state {
    int ply;     /* moves made, 0 to 2 */
    int pick[2]; /* the moves made */
} coalition_state_t;

/* Results per player after A/B then X/Y. */
static const double coalition_results[2][2][3] = {
    {{0.6, 0.4, 0.0}, {0.0, 0.3, 0.7}}, /* A: X, Y */
    {{0.4, 0.6, 0.0}, {0.5, 0.5, 0.0}}, /* B: X, Y (player 1 takes X either way) */
};

static int coalition_new_game(void *state, const game_options_t *opt, char *err, size_t errlen)
{
    (void)opt;
    (void)err;
    (void)errlen;
    *(coalition_state_t *)state = (coalition_state_t){0};
    return 0;
}

static void coalition_copy(void *dst, const void *src)
{
    memcpy(dst, src, sizeof(coalition_state_t));
}

static int coalition_gen_moves(const void *state, move_t *moves)
{
    const coalition_state_t *s = state;
    if (s->ply >= 2)
        return 0;
    moves[0] = 0;
    moves[1] = 1;
    return 2;
}

static void coalition_make(void *state, move_t m, void *undo)
{
    coalition_state_t *s = state;
    memcpy(undo, s, sizeof *s);
    s->pick[s->ply++] = (int)m;
}

static void coalition_undo(void *state, move_t m, const void *undo)
{
    (void)m;
    memcpy(state, undo, sizeof(coalition_state_t));
}

static bool coalition_is_terminal(const void *state)
{
    return ((const coalition_state_t *)state)->ply >= 2;
}

static int coalition_to_move(const void *state) { return ((const coalition_state_t *)state)->ply; }

static int coalition_player_count(const void *state)
{
    (void)state;
    return 3;
}

static void coalition_result(const void *state, double *res)
{
    const coalition_state_t *s = state;
    for (int p = 0; p < 3; p++)
        res[p] = coalition_results[s->pick[0]][s->pick[1]][p];
}

static uint64_t coalition_hash(const void *state)
{
    const coalition_state_t *s = state;
    return (uint64_t)(s->ply * 4 + s->pick[0] * 2 + s->pick[1]);
}

static void coalition_move_to_text(const void *state, move_t m, char *buf)
{
    (void)state;
    snprintf(buf, 8, "%u", (unsigned)m);
}

static const game_api_t coalition_api = {
    .name = "coalition",
    .min_players = 3,
    .max_players = 3,
    .state_size = sizeof(coalition_state_t),
    .undo_size = sizeof(coalition_state_t),
    .new_game = coalition_new_game,
    .copy = coalition_copy,
    .gen_moves = coalition_gen_moves,
    .make = coalition_make,
    .undo = coalition_undo,
    .is_terminal = coalition_is_terminal,
    .to_move = coalition_to_move,
    .player_count = coalition_player_count,
    .result = coalition_result,
    .hash = coalition_hash,
    .hash_full = coalition_hash,
    .move_to_text = coalition_move_to_text,
};

/* True if m is among the legal moves of state. */
static bool toy_is_legal(const game_api_t *api, const void *state, move_t m)
{
    move_t moves[GAME_MAX_MOVES];
    int n = api->gen_moves(state, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}
