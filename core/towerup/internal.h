#pragma once
/* Private to core/towerup: Zobrist keys and helpers shared by its files. */
#include "towerup.h"

/* Key kinds: each key is the bijective mix of (kind << 56) ^ data, data < 2^56. */
enum {
    TOWERUP_KEY_SITE = 1,
    TOWERUP_KEY_PLAYER,
    TOWERUP_KEY_MISC,
    TOWERUP_KEY_MARKET,
    TOWERUP_KEY_DRAW,
    TOWERUP_KEY_DISCARD,
    TOWERUP_KEY_RNG
};

/* The splitmix64 finaliser (a bijection), inline here because keys are hot. */
static inline uint64_t towerup_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static inline uint64_t towerup_key(uint64_t kind, uint64_t data)
{
    return towerup_mix64((kind << 56) ^ data);
}

/* Key of one site's building (0 for an empty site). */
static inline uint64_t towerup_key_site(const towerup_state_t *s, int site)
{
    if (!s->site[site])
        return 0;
    return towerup_key(TOWERUP_KEY_SITE, (uint64_t)site | (uint64_t)s->site[site] << 6 |
                                             (uint64_t)s->roofs[site] << 14);
}

static inline uint64_t towerup_key_market(int slot, int card)
{
    return towerup_key(TOWERUP_KEY_MARKET, (uint64_t)slot << 8 | (uint64_t)card);
}

/* A card at a depth from the draw pile's bottom (0 = bottom). */
static inline uint64_t towerup_key_draw(int depth, int card)
{
    return towerup_key(TOWERUP_KEY_DRAW, (uint64_t)depth << 8 | (uint64_t)card);
}

static inline uint64_t towerup_key_discard(int card)
{
    return towerup_key(TOWERUP_KEY_DISCARD, (uint64_t)card);
}

static inline uint64_t towerup_key_rng(const pcg32_t *r)
{
    return towerup_key(TOWERUP_KEY_RNG, towerup_mix64(r->state) ^ r->inc) ^ towerup_mix64(r->inc);
}

/* Key of all per-player counters and turn bookkeeping (keys.c): one player's part, the
   turn bookkeeping part, and both for every player. */
uint64_t towerup_key_player(const towerup_state_t *s, int p);
uint64_t towerup_key_misc(const towerup_state_t *s);
uint64_t towerup_key_scalars(const towerup_state_t *s);
/* Key of the draw pile, whole. */
uint64_t towerup_key_draw_pile(const towerup_state_t *s);

/* Take moves of one market slot (takes.c): at most 9^3, nets in -4..4 with a fixed sum,
   as a supply holds at most 10 floors when a turn begins. */
#define TOWERUP_MAX_TAKES 729
/* The take moves of a market slot, each once, in the engine's order: returns how many. */
int towerup_take_moves(const towerup_state_t *s, int slot, move_t *moves);
/* The take moves of every slot, slot 1 first: returns how many. */
int towerup_takes(const towerup_state_t *s, move_t *moves);
/* Their number, mostly without listing them. */
int towerup_take_count(const towerup_state_t *s, int slot);

/* Whether taking card shows more icons of a colour than the reserve holds. */
static inline bool towerup_take_shortage(const towerup_state_t *s, const towerup_card_t *k)
{
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        if (k->colour_icons[c] > s->reserve[c])
            return true;
    return false;
}

/* Four bytes as one word, v[0] lowest (one load on the usual compilers). */
static inline uint32_t towerup_load4(const uint8_t *v)
{
    return (uint32_t)v[0] | (uint32_t)v[1] << 8 | (uint32_t)v[2] << 16 | (uint32_t)v[3] << 24;
}

/* Four counts (supply or reserve, each at most 127) as 4-bit lanes capped at 7, colour c
   in bits 4c..4c+3: one word for lane-wise compares. */
static inline unsigned towerup_count_lanes(const uint8_t *v)
{
    uint32_t x = towerup_load4(v);
    /* Bytes of 8 or more become 7. */
    uint32_t big = ((x + 0x78787878u) & 0x80808080u) >> 7;
    x = (x & ~(big * 0xffu)) | big * 7u;
    x |= x >> 4;
    return (x & 0xffu) | (x >> 8 & 0xff00u);
}

/* Bit c set for each non-zero 4-bit lane c of x (lanes at most 8). */
static inline unsigned towerup_lanes_nonzero(unsigned x)
{
    x = ((x + 0x7777u) & 0x8888u) >> 3;
    return (x * 0x1248u) >> 12 & 15u;
}

/* Sum of four counts whose sum is under 256. */
static inline int towerup_count_sum(const uint8_t *v)
{
    uint32_t x = towerup_load4(v);
    return (int)((x * 0x01010101u) >> 24);
}

/* The player's lowest marker's star count s(m) (RULES.md 1.7). */
static inline int towerup_star_level(const towerup_state_t *s, int p)
{
    int m = s->markers[p][0];
    for (int c = 1; c < TOWERUP_COLOUR_COUNT; c++)
        if (s->markers[p][c] < m)
            m = s->markers[p][c];
    return towerup_star_count[m];
}

/* Mask of colours a build on site can use with colour c, given the player's supply:
   returns whether founding colour c on site is affordable and allowed. */
static inline bool towerup_build_ok(const towerup_state_t *s, int p, int site, int c)
{
    uint64_t n = s->board->nbr[site] & s->occupied;
    if (!n || (n & s->colour_mask[c]))
        return false;
    for (int k = 0; k < TOWERUP_COLOUR_COUNT; k++) {
        int need = towerup_popcount(n & s->colour_mask[k]) + (k == c);
        if (s->supply[p][k] < need)
            return false;
    }
    return true;
}

/* Whether the set-up placement of colour c on site is allowed. */
static inline bool towerup_place_ok(const towerup_state_t *s, int site, int c)
{
    return site < s->board->site_count && !s->site[site] &&
           !(s->board->nbr[site] & s->colour_mask[c]);
}

/* Whether player p's roofs meet objective obj (an id) now (make.c): met objectives stay
   met, as roofs are never taken away. */
bool towerup_objective_met(const towerup_state_t *s, int p, int obj);

/* Plays the set-up at random from rng (setup_random). */
void towerup_setup_random(towerup_state_t *s, pcg32_t *rng);
/* Plays the random set-up that a new game with setup=random draws from s->seed. */
void towerup_setup_seeded(towerup_state_t *s);
/* Checks an objectives option text (options.c): 0, or -1 with err filled. */
int towerup_objectives_check(const char *text, char *err, size_t errlen);
/* Three different objective ids "a,b,c" into out[3] (options.c): 0, or -1 with err filled. */
int towerup_objectives_parse(const char *text, uint8_t *out, char *err, size_t errlen);

/* Tower Up's own options (options.c), read from a game_options_t. */
typedef struct towerup_options {
    const char *board;      /* built-in name or file path; NULL: by player count */
    int start_floors;       /* starting floors, 3 by the rules, up to 7 (variant) */
    bool setup_random;      /* starting floors placed at random, not by a player */
    const char *objectives; /* NULL or "start", "random", or three ids "a,b,c" */
} towerup_options_t;
/* Checks opt against Tower Up's options and reads them: 0, or -1 with err filled. */
int towerup_options_read(const game_options_t *opt, towerup_options_t *out, char *err,
                         size_t errlen);

/* The city for people (map.c): a map of the sites and streets, the areas and the buildings
   (or, for a board that is no grid, a list of the sites with their neighbours). */
struct textbuf;
void towerup_put_city(struct textbuf *t, const towerup_state_t *s);
