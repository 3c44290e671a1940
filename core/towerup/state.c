/* Tower Up state: new games, scores, determinization. */
#include <stdio.h>
#include <string.h>

#include "core/input.h"
#include "internal.h"

/* Sub-streams of a game's seed (pcg32 sequence numbers). */
enum { STREAM_DECK = 1, STREAM_FIRST, STREAM_OBJECTIVES, STREAM_SETUP, STREAM_RESHUFFLE };

int towerup_new_from(towerup_state_t *s, const towerup_board_t *board, int players,
                     int first_player, const uint8_t *objectives, const uint8_t *deck,
                     const uint8_t *start, int start_count, uint64_t seed, char *err, size_t errlen)
{
    char given[16];
    if (players < 2 || players > TOWERUP_MAX_PLAYERS) {
        snprintf(given, sizeof given, "%d", players);
        return input_fail(err, errlen, "players", given, "Tower Up is for 2 to 4 players");
    }
    if (first_player < 0 || first_player >= players) {
        snprintf(given, sizeof given, "%d", first_player);
        return input_fail(err, errlen, "first_player", given, "not a player of a %d-player game",
                          players);
    }
    int max_start = players == 4 ? 5 : TOWERUP_MAX_START_FLOORS;
    if (start_count < 3 || start_count > max_start) {
        snprintf(given, sizeof given, "%d", start_count);
        return input_fail(err, errlen, "start_floors", given, "%d players allow 3 to %d", players,
                          max_start);
    }
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
        for (int j = 0; j < i; j++)
            if (objectives[i] >= TOWERUP_OBJECTIVE_COUNT || objectives[i] == objectives[j]) {
                return input_fail(err, errlen, "objectives", NULL,
                                  "the three objectives must be different known ids");
            }
    uint64_t used = 0;
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++) {
        if (deck[i] >= TOWERUP_CARD_COUNT || (used >> deck[i] & 1)) {
            return input_fail(err, errlen, "deck", NULL, "not the 44 cards each once");
        }
        used |= 1ULL << deck[i];
    }
    const towerup_card_t *cards = towerup_cards();
    for (int i = 0; i < 3; i++)
        if (start[i] != cards[deck[i]].bottom) {
            return input_fail(err, errlen, "start_floors", NULL,
                              "starting floor %d is not the bottom of market slot %d", i + 1,
                              i + 1);
        }
    for (int i = 3; i < start_count; i++)
        if (start[i] > TOWERUP_WILD) {
            return input_fail(err, errlen, "start_floors", NULL, "bad starting floor colour");
        }
    if (towerup_setup_fits(board, start_count, err, errlen) < 0)
        return -1;
    memset(s, 0, sizeof *s);
    s->board = board;
    s->seed = seed;
    s->players = (uint8_t)players;
    s->first_player = (uint8_t)first_player;
    s->to_move = (uint8_t)((first_player + players - 1) % players);
    s->phase = TOWERUP_PHASE_SETUP;
    s->setup_count = (uint8_t)start_count;
    memcpy(s->setup_colour, start, (size_t)start_count);
    memcpy(s->objectives, objectives, TOWERUP_GAME_OBJECTIVES);
    for (int p = 0; p < TOWERUP_MAX_PLAYERS; p++) {
        s->cone[p] = -1;
        if (p < players) {
            s->roofs_left[p] = TOWERUP_ROOFS;
            memset(s->supply[p], 1, TOWERUP_COLOUR_COUNT);
        }
    }
    memcpy(s->market, deck, TOWERUP_MARKET);
    memcpy(s->draw, deck + TOWERUP_MARKET, TOWERUP_CARD_COUNT - TOWERUP_MARKET);
    s->draw_end = TOWERUP_CARD_COUNT - TOWERUP_MARKET;
    pcg32_seed(&s->rng, rng_mix64(seed), STREAM_RESHUFFLE);
    towerup_fix_derived(s);
    return 0;
}

/* Objectives from the option text: NULL/"start", "random" or "a,b,c". */
static int parse_objectives(const char *text, uint64_t seed, uint8_t *out, char *err, size_t errlen)
{
    if (!text || !strcmp(text, "start")) {
        out[0] = TOWERUP_OBJ_COLORS;
        out[1] = TOWERUP_OBJ_PARK;
        out[2] = TOWERUP_OBJ_AREAS;
        return 0;
    }
    if (!strcmp(text, "random")) {
        pcg32_t r;
        pcg32_seed(&r, rng_mix64(seed), STREAM_OBJECTIVES);
        uint8_t ids[TOWERUP_OBJECTIVE_COUNT];
        for (int i = 0; i < TOWERUP_OBJECTIVE_COUNT; i++)
            ids[i] = (uint8_t)i;
        for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++) {
            int j = i + (int)pcg32_bounded(&r, (uint32_t)(TOWERUP_OBJECTIVE_COUNT - i));
            uint8_t t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
            out[i] = ids[i];
        }
        return 0;
    }
    return towerup_objectives_parse(text, out, err, errlen);
}

int towerup_new_game(void *state, const game_options_t *opt, char *err, size_t errlen)
{
    towerup_state_t *s = state;
    int n = opt->players;
    if (n < 2 || n > TOWERUP_MAX_PLAYERS) {
        char given[16];
        snprintf(given, sizeof given, "%d", n);
        return input_fail(err, errlen, "players", given, "Tower Up is for 2 to 4 players");
    }
    towerup_options_t to;
    if (towerup_options_read(opt, &to, err, errlen) < 0)
        return -1;
    const towerup_board_t *board = to.board ? towerup_board_get(to.board, err, errlen)
                                            : towerup_board_builtin(n == 2 ? "duo" : "standard");
    if (!board)
        return -1;
    int nstart = to.start_floors;
    uint8_t objectives[TOWERUP_GAME_OBJECTIVES];
    if (parse_objectives(to.objectives, opt->seed, objectives, err, errlen) < 0)
        return -1;
    int first = opt->first_player;
    if (first < 0) {
        pcg32_t r;
        pcg32_seed(&r, rng_mix64(opt->seed), STREAM_FIRST);
        first = (int)pcg32_bounded(&r, (uint32_t)n);
    }
    int max_start = n == 4 ? 5 : TOWERUP_MAX_START_FLOORS;
    if (nstart < 3 || nstart > max_start) {
        char given[16];
        snprintf(given, sizeof given, "%d", nstart);
        return input_fail(err, errlen, "towerup option start_floors", given,
                          "%d players allow 3 to %d", n, max_start);
    }
    /* Shuffle; the market's and the extra cards' bottoms give the starting floors; the
       extra cards go back and the draw pile is shuffled again. */
    pcg32_t r;
    pcg32_seed(&r, rng_mix64(opt->seed), STREAM_DECK);
    uint8_t deck[TOWERUP_CARD_COUNT], start[TOWERUP_MAX_START_FLOORS];
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++)
        deck[i] = (uint8_t)i;
    pcg32_shuffle_u8(&r, deck, TOWERUP_CARD_COUNT);
    const towerup_card_t *cards = towerup_cards();
    for (int i = 0; i < nstart; i++)
        start[i] = cards[deck[i]].bottom;
    if (nstart > 3)
        pcg32_shuffle_u8(&r, deck + TOWERUP_MARKET, TOWERUP_CARD_COUNT - TOWERUP_MARKET);
    if (towerup_new_from(s, board, n, first, objectives, deck, start, nstart, opt->seed, err,
                         errlen) < 0)
        return -1;
    if (to.setup_random)
        towerup_setup_seeded(s);
    return 0;
}

void towerup_setup_seeded(towerup_state_t *s)
{
    pcg32_t sr;
    pcg32_seed(&sr, rng_mix64(s->seed), STREAM_SETUP);
    towerup_setup_random(s, &sr);
}

int towerup_score(const towerup_state_t *s, int p)
{
    int v = 0;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        v += towerup_column_value[s->markers[p][c]];
    if (s->cone[p] >= 0)
        v += towerup_column_value[s->cone[p]];
    for (int i = 0; i < s->chip_count[p]; i++)
        v += s->chips[p][i];
    return v;
}

void towerup_ranks(const void *state, int *ranks)
{
    const towerup_state_t *s = state;
    int score[TOWERUP_MAX_PLAYERS], supply[TOWERUP_MAX_PLAYERS];
    for (int p = 0; p < s->players; p++) {
        score[p] = towerup_score(s, p);
        supply[p] = towerup_supply_total(s, p);
    }
    game_ranks_from_keys(s->players, score, supply, ranks);
}

void towerup_determinize(void *state, int observer, pcg32_t *rng)
{
    towerup_state_t *s = state;
    (void)observer;
    s->key ^= towerup_key_draw_pile(s) ^ towerup_key_rng(&s->rng);
    /* Canonical order first (by card index), so the result depends only on what the
       observer sees and on rng, never on the order being replaced. */
    uint64_t pile = 0;
    for (int i = s->draw_pos; i < s->draw_end; i++)
        pile |= 1ULL << s->draw[i];
    for (int i = s->draw_pos; pile; pile &= pile - 1)
        s->draw[i++] = (uint8_t)__builtin_ctzll(pile);
    pcg32_shuffle_u8(rng, s->draw + s->draw_pos, s->draw_end - s->draw_pos);
    uint64_t a = pcg32_next(rng), b = pcg32_next(rng);
    pcg32_seed(&s->rng, a << 32 | b, pcg32_next(rng));
    s->key ^= towerup_key_draw_pile(s) ^ towerup_key_rng(&s->rng);
}
