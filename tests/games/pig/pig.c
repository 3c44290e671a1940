/*
 * Pig, a test-only game (tests/games/pig/README.md): 2 to 4 players take turns rolling one
 * die; a 1 ends the turn and loses the points rolled in it, "hold" banks them. The first to
 * bank PIG_TARGET points wins. A game of perfect information with chance: everybody sees
 * every score, nobody knows the rolls to come (determinize redraws them).
 *
 * It exists to show that a game lives in one folder: the tests compile it, and it is
 * registered by its one line in tests/games/registry.c.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/game.h"
#include "core/record.h"

#define PIG_MAX_PLAYERS 4
#define PIG_TARGET      20
/* A game ends after this many moves at the latest (random play may hold forever). */
#define PIG_MAX_PLIES 400

enum { PIG_ROLL, PIG_HOLD };

typedef struct pig_state {
    pcg32_t rng;      /* the rolls to come */
    uint64_t hash;    /* pig_hash_full of the rest */
    int players;      /* 2 to 4 */
    int first_player; /* who moved first */
    int to_move;      /* whose turn it is */
    int turn_total;   /* points rolled this turn, not yet banked */
    int last_roll;    /* the latest roll, 0 before the first */
    int plies;        /* moves made */
    int score[PIG_MAX_PLAYERS];
} pig_state_t;

/* The undo record: the whole state before the move (it is small). */
typedef pig_state_t pig_undo_t;

/* splitmix64 finaliser: the hash mixes every visible field. */
static uint64_t pig_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    return h;
}

static uint64_t pig_hash_full(const void *state)
{
    const pig_state_t *s = state;
    uint64_t h = pig_mix(0x5049470000000000ULL, (uint64_t)s->players);
    h = pig_mix(h, (uint64_t)s->to_move);
    h = pig_mix(h, (uint64_t)s->turn_total);
    h = pig_mix(h, (uint64_t)s->last_roll);
    h = pig_mix(h, (uint64_t)s->plies);
    for (int p = 0; p < s->players; p++)
        h = pig_mix(h, (uint64_t)s->score[p]);
    return h;
}

static bool pig_is_over(const void *state)
{
    const pig_state_t *s = state;
    for (int p = 0; p < s->players; p++)
        if (s->score[p] >= PIG_TARGET)
            return true;
    return s->plies >= PIG_MAX_PLIES;
}

static int pig_new_game(void *state, const game_options_t *opt, char *err, size_t errlen)
{
    if (opt->players < 2 || opt->players > PIG_MAX_PLAYERS) {
        snprintf(err, errlen, "pig: players must be 2 to %d, not '%d'", PIG_MAX_PLAYERS,
                 opt->players);
        return -1;
    }
    if (opt->first_player >= opt->players) {
        snprintf(err, errlen, "pig: first_player must be below players (%d), not '%d'",
                 opt->players, opt->first_player);
        return -1;
    }
    if (opt->option_count) {
        snprintf(err, errlen, "pig: option '%s' is not known (pig has none)", opt->option[0]);
        return -1;
    }
    pig_state_t *s = state;
    memset(s, 0, sizeof *s);
    s->players = opt->players;
    pcg32_seed(&s->rng, opt->seed, 0x9164);
    /* Drawn even when given, so the rolls to come depend on the seed alone. */
    s->first_player = (int)pcg32_bounded(&s->rng, (uint32_t)s->players);
    if (opt->first_player >= 0 && opt->first_player < s->players)
        s->first_player = opt->first_player;
    s->to_move = s->first_player;
    s->hash = pig_hash_full(s);
    return 0;
}

static void pig_copy(void *dst, const void *src) { memcpy(dst, src, sizeof(pig_state_t)); }

static int pig_gen_moves(const void *state, move_t *moves)
{
    const pig_state_t *s = state;
    if (pig_is_over(s))
        return 0;
    moves[0] = PIG_ROLL;
    if (s->turn_total == 0) /* a turn starts with a roll */
        return 1;
    moves[1] = PIG_HOLD;
    return 2;
}

static void pig_make(void *state, move_t m, void *undo)
{
    pig_state_t *s = state;
    memcpy(undo, s, sizeof *s);
    if (m == PIG_ROLL) {
        s->last_roll = 1 + (int)pcg32_bounded(&s->rng, 6);
        s->turn_total = s->last_roll == 1 ? 0 : s->turn_total + s->last_roll;
    } else {
        s->score[s->to_move] += s->turn_total;
        s->turn_total = 0;
    }
    if (m == PIG_HOLD || s->last_roll == 1)
        s->to_move = (s->to_move + 1) % s->players;
    s->plies++;
    s->hash = pig_hash_full(s);
}

static void pig_undo(void *state, move_t m, const void *undo)
{
    (void)m;
    memcpy(state, undo, sizeof(pig_state_t));
}

static int pig_to_move(const void *state) { return ((const pig_state_t *)state)->to_move; }

static int pig_player_count(const void *state) { return ((const pig_state_t *)state)->players; }

/* Ranks by banked score; equal scores share a rank. */
static void pig_ranks(const void *state, int *ranks)
{
    const pig_state_t *s = state;
    int none[PIG_MAX_PLAYERS] = {0};
    game_ranks_from_keys(s->players, s->score, none, ranks);
}

static void pig_result(const void *state, double *res)
{
    int ranks[PIG_MAX_PLAYERS];
    pig_ranks(state, ranks);
    game_result_from_ranks(((const pig_state_t *)state)->players, ranks, res);
}

static void pig_scores(const void *state, double *scores)
{
    const pig_state_t *s = state;
    for (int p = 0; p < s->players; p++)
        scores[p] = s->score[p];
}

static uint64_t pig_hash(const void *state) { return ((const pig_state_t *)state)->hash; }

static void pig_move_to_text(const void *state, move_t m, char *buf)
{
    (void)state;
    snprintf(buf, GAME_MOVE_TEXT_MAX, "%s", m == PIG_ROLL ? "roll" : "hold");
}

static int pig_move_from_text(const void *state, const char *text, move_t *m, char *err,
                              size_t errlen)
{
    move_t moves[2];
    int n = pig_gen_moves(state, moves);
    for (int i = 0; i < n; i++) {
        char t[GAME_MOVE_TEXT_MAX];
        pig_move_to_text(state, moves[i], t);
        if (!strcmp(t, text)) {
            *m = moves[i];
            return 0;
        }
    }
    snprintf(err, errlen, "pig: move '%s' is not legal here (legal: roll%s)", text,
             n == 2 ? ", hold" : "");
    return -1;
}

/* The rolls to come are the only thing nobody sees: they are drawn again. */
static void pig_determinize(void *state, int observer, pcg32_t *rng)
{
    (void)observer;
    pig_state_t *s = state;
    pcg32_seed(&s->rng, pcg32_next(rng), pcg32_next(rng));
}

static void pig_playout(void *state, pcg32_t *rng)
{
    _Alignas(16) unsigned char undo[sizeof(pig_undo_t)];
    move_t moves[2];
    int n;
    while ((n = pig_gen_moves(state, moves)) > 0)
        pig_make(state, moves[pcg32_bounded(rng, (uint32_t)n)], undo);
}

static int pig_check(const void *state, char *err, size_t errlen)
{
    const pig_state_t *s = state;
    int banked = 0;
    for (int p = 0; p < s->players; p++)
        banked += s->score[p] >= 0 && s->score[p] < PIG_TARGET + PIG_TARGET;
    if (s->players < 2 || s->players > PIG_MAX_PLAYERS || banked != s->players || s->to_move < 0 ||
        s->to_move >= s->players || s->turn_total < 0 || s->last_roll < 0 || s->last_roll > 6 ||
        s->plies < 0 || s->plies > PIG_MAX_PLIES) {
        snprintf(err, errlen, "pig: a field is out of range");
        return -1;
    }
    if (s->hash != pig_hash_full(s)) {
        snprintf(err, errlen, "pig: hash is %llx, not %llx", (unsigned long long)s->hash,
                 (unsigned long long)pig_hash_full(s));
        return -1;
    }
    return 0;
}

static void pig_diagram(const void *state, int observer, unsigned flags, char *buf, size_t len)
{
    (void)observer;
    const pig_state_t *s = state;
    bool colour = flags & GAME_TEXT_COLOUR; /* the title in bold */
    size_t n = (size_t)snprintf(buf, len, "%spig to %d, move %d%s\n", colour ? "\033[1m" : "",
                                PIG_TARGET, s->plies + 1, colour ? "\033[0m" : "");
    for (int p = 0; p < s->players && n < len; p++)
        n += (size_t)snprintf(buf + n, len - n, "P%d %2d%s\n", p, s->score[p],
                              p == s->to_move && !pig_is_over(s) ? " to move" : "");
    if (n < len)
        snprintf(buf + n, len - n, "turn total %d, last roll %d\n", s->turn_total, s->last_roll);
}

static void pig_move_describe(const void *state, move_t m, char *buf, size_t len)
{
    const pig_state_t *s = state;
    if (m == PIG_ROLL)
        snprintf(buf, len, "rolls the die (a 1 loses the %d points of this turn)", s->turn_total);
    else
        snprintf(buf, len, "holds: banks %d points", s->turn_total);
}

/* The record (core/record.h): the rolls follow from the seed, so only the first player and
   the result are Pig's own. */
static int pig_first_player(const void *initial)
{
    return ((const pig_state_t *)initial)->first_player;
}

static json_t *pig_record_result(const void *state)
{
    const pig_state_t *s = state;
    int ranks[PIG_MAX_PLAYERS];
    pig_ranks(s, ranks);
    json_t *jr = json_array(), *js = json_array();
    for (int p = 0; p < s->players; p++) {
        json_array_append_new(jr, json_integer(ranks[p]));
        json_array_append_new(js, json_integer(s->score[p]));
    }
    return json_pack("{s:o,s:o}", "ranks", jr, "scores", js);
}

static const record_hooks_t pig_record_hooks = {.first_player = pig_first_player,
                                                .result = pig_record_result};

const game_api_t pig_api = {
    .name = "pig",
    .flags = GAME_PERFECT_INFO | GAME_CHANCE,
    .min_players = 2,
    .max_players = PIG_MAX_PLAYERS,
    .state_size = sizeof(pig_state_t),
    .undo_size = sizeof(pig_undo_t),
    .new_game = pig_new_game,
    .copy = pig_copy,
    .gen_moves = pig_gen_moves,
    .make = pig_make,
    .undo = pig_undo,
    .is_terminal = pig_is_over,
    .to_move = pig_to_move,
    .player_count = pig_player_count,
    .result = pig_result,
    .hash = pig_hash,
    .hash_full = pig_hash_full,
    .move_to_text = pig_move_to_text,
    .move_from_text = pig_move_from_text,
    .determinize = pig_determinize,
    .playout = pig_playout,
    .check = pig_check,
    .record = &pig_record_hooks,
    .ranks = pig_ranks,
    .scores = pig_scores,
    .score_key = "scores",
    .diagram = pig_diagram,
    .move_describe = pig_move_describe,
};
