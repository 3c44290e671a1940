#pragma once
/*
 * Tower Up (RULES.md Part 1): boards, data tables, the game state and what bots and
 * tests need beyond the coarse game_api_t (towerup_api, core/game.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/game.h"
#include "core/rng.h"

#define TOWERUP_COLOUR_COUNT      4   /* K G W B */
#define TOWERUP_WILD              4   /* a wild floor icon or a wild bottom colour */
#define TOWERUP_MAX_SITES         64  /* a board has at most this many sites */
#define TOWERUP_MAX_STREETS       160 /* 64 sites with 5 streets each */
#define TOWERUP_MAX_DEGREE        5   /* streets per site */
#define TOWERUP_AREA_COUNT        5   /* areas of a board */
#define TOWERUP_COLUMN_COUNT      16  /* columns 0..15 of a personal board */
#define TOWERUP_CONE_MAX          7   /* highest cone column */
#define TOWERUP_CARD_COUNT        44  /* the materials deck */
#define TOWERUP_OBJECTIVE_COUNT   10  /* objective cards in the box */
#define TOWERUP_GAME_OBJECTIVES   3   /* objectives used in one game */
#define TOWERUP_FLOORS_PER_COLOUR 30
#define TOWERUP_ROOFS             10 /* roofs per player */
#define TOWERUP_SUPPLY_MAX        10 /* floors a supply holds at the end of a turn */
#define TOWERUP_MAX_PLAYERS       4
#define TOWERUP_MAX_START_FLOORS  7
#define TOWERUP_MAX_TURNS         400 /* the safeguard (RULES.md 1.9) */
#define TOWERUP_MARKET            3   /* market slots */

/* Move kinds, bits 28..29 of a move_t (0 is never a move). */
enum { TOWERUP_MOVE_PLACE = 1, TOWERUP_MOVE_TAKE = 2, TOWERUP_MOVE_BUILD = 3 };

/* Game phases. */
enum { TOWERUP_PHASE_SETUP = 0, TOWERUP_PHASE_PLAY = 1, TOWERUP_PHASE_OVER = 2 };

/* End triggers (RULES.md 1.9). */
enum { TOWERUP_END_NONE = 0, TOWERUP_END_LAST_ROOF = 1, TOWERUP_END_SHORTAGE = 2 };

/* Objective ids in index order. */
enum {
    TOWERUP_OBJ_COLORS,
    TOWERUP_OBJ_PARK,
    TOWERUP_OBJ_AREAS,
    TOWERUP_OBJ_LAKE,
    TOWERUP_OBJ_CONNECTED,
    TOWERUP_OBJ_BROWN,
    TOWERUP_OBJ_GREY,
    TOWERUP_OBJ_BORDERS,
    TOWERUP_OBJ_DOUBLES,
    TOWERUP_OBJ_HEIGHTS
};

/* A city board, immutable once loaded and shared by every state that uses it. */
typedef struct towerup_board {
    char name[64];                            /* the `board` record's name */
    int site_count;                           /* sites 0..site_count-1 */
    int street_count;                         /* undirected streets */
    uint64_t all_sites;                       /* mask of every site */
    uint64_t nbr[TOWERUP_MAX_SITES];          /* sites joined to a site by a street */
    uint64_t park;                            /* sites next to a park */
    uint64_t lake;                            /* sites next to a lake */
    uint64_t area_mask[TOWERUP_AREA_COUNT];   /* sites of each area */
    int grey[2];                              /* the two grey areas, lower id first */
    bool area_grey[TOWERUP_AREA_COUNT];       /* whether an area is grey */
    char area_name[TOWERUP_AREA_COUNT][32];   /* area names from the file */
    uint8_t site_area[TOWERUP_MAX_SITES];     /* area of each site */
    int site_x[TOWERUP_MAX_SITES];            /* drawing position x */
    int site_y[TOWERUP_MAX_SITES];            /* drawing position y */
    uint8_t street_a[TOWERUP_MAX_STREETS];    /* first site of each street */
    uint8_t street_b[TOWERUP_MAX_STREETS];    /* second site of each street */
    bool street_border[TOWERUP_MAX_STREETS];  /* whether a street crosses an area border */
    uint8_t street_pair[TOWERUP_MAX_STREETS]; /* border street: lo*5+hi of its two areas */
} towerup_board_t;

/* A materials card (RULES.md 1.4). */
typedef struct towerup_card {
    char code[8];                               /* card code (FORMATS.md §2) */
    uint8_t icon_count;                         /* floor icons */
    uint8_t icons[4];                           /* floor icons in order: colour or WILD */
    int8_t vehicle;                             /* vehicle colour, -1 if none */
    uint8_t steps;                              /* vehicle steps */
    uint8_t bottom;                             /* first icon: colour or WILD */
    uint8_t colour_icons[TOWERUP_COLOUR_COUNT]; /* icons of each colour */
    uint8_t wild_icons;                         /* wild icons */
} towerup_card_t;

/*
 * The game state. Everything up to `site` is the "head", saved whole in an undo record;
 * site[] and roofs[] change only by a few entries per move. Copy is one memcpy.
 */
typedef struct towerup_state {
    uint64_t key;                                   /* incremental Zobrist key */
    pcg32_t rng;                                    /* used only for reshuffles */
    uint64_t occupied;                              /* sites holding a building */
    uint64_t frontier;                              /* empty sites next to a building */
    uint64_t colour_mask[TOWERUP_COLOUR_COUNT];     /* buildings of each colour */
    uint64_t present[TOWERUP_MAX_PLAYERS];          /* buildings holding a player's roof */
    uint64_t visible[TOWERUP_MAX_PLAYERS];          /* buildings topped by a player's roof */
    uint64_t discard;                               /* discard pile, as a set of card indices */
    uint16_t turns;                                 /* turns played, extra turns included */
    uint16_t reshuffles;                            /* reshuffles of the discard pile so far */
    uint8_t players;                                /* 2..4 */
    uint8_t first_player;                           /* player of the first turn */
    uint8_t to_move;                                /* player to move */
    uint8_t phase;                                  /* TOWERUP_PHASE_* */
    uint8_t end_trigger;                            /* TOWERUP_END_*: the first trigger */
    uint8_t trigger_player;                         /* who triggered the end */
    uint8_t final_round;                            /* 1 once the trigger turn is over */
    uint8_t final_left;                             /* final turns not yet finished */
    uint8_t setup_count;                            /* starting floors to place */
    uint8_t setup_done;                             /* starting floors placed so far */
    uint8_t draw_pos;                               /* index of the draw pile's top in draw[] */
    uint8_t draw_end;                               /* one past the draw pile's bottom */
    uint8_t objectives[TOWERUP_GAME_OBJECTIVES];    /* objective ids, in game order */
    uint8_t chip_next[TOWERUP_GAME_OBJECTIVES];     /* chips already taken per objective */
    uint8_t setup_colour[TOWERUP_MAX_START_FLOORS]; /* bottom colour of each set-up card */
    uint8_t setup_site[TOWERUP_MAX_START_FLOORS];   /* site of each placed starting floor */
    uint8_t setup_floor[TOWERUP_MAX_START_FLOORS];  /* colour of each placed starting floor */
    uint8_t setup_random;                           /* 1: the engine placed them at random */
    uint8_t reserve[TOWERUP_COLOUR_COUNT];          /* floors in the shared reserve */
    uint8_t supply[TOWERUP_MAX_PLAYERS][TOWERUP_COLOUR_COUNT];  /* floors per player */
    uint8_t markers[TOWERUP_MAX_PLAYERS][TOWERUP_COLOUR_COUNT]; /* marker columns */
    uint8_t roofs_left[TOWERUP_MAX_PLAYERS];                    /* roofs not yet placed */
    int8_t cone[TOWERUP_MAX_PLAYERS];                           /* cone column, -1 until set */
    uint8_t met[TOWERUP_MAX_PLAYERS];        /* objectives met: bit i = objectives[i] */
    uint8_t chip_count[TOWERUP_MAX_PLAYERS]; /* chips won */
    uint8_t chips[TOWERUP_MAX_PLAYERS][TOWERUP_GAME_OBJECTIVES]; /* chip values, in order won */
    uint8_t level_mask[TOWERUP_MAX_PLAYERS]; /* bit l: a roof of the player at level l */
    uint8_t market[TOWERUP_MARKET];          /* card index in each market slot */
    uint8_t draw[TOWERUP_CARD_COUNT];        /* draw pile in draw[draw_pos..draw_end) */
    uint64_t seed;                           /* the game's seed */
    const towerup_board_t *board;            /* the shared, immutable board */
    /* -- end of head -- */
    uint8_t site[TOWERUP_MAX_SITES];         /* 0 empty, else height | colour << 4 */
    uint32_t roofs[TOWERUP_MAX_SITES];       /* 3 bits per level (1 at bit 0): owner+1 */
    uint16_t nbr_colours[TOWERUP_MAX_SITES]; /* neighbouring buildings per colour, 4 bits each */
} towerup_state_t;

#define TOWERUP_HEAD_SIZE offsetof(towerup_state_t, site)

/* The undo record of towerup_make / towerup_undo. */
typedef struct towerup_undo {
    unsigned char head[TOWERUP_HEAD_SIZE]; /* the state's head before the move */
    uint32_t old_roofs;                    /* roofs[] of the roof site before a build */
} towerup_undo_t;

/* ---- tables ---- */
extern const int towerup_column_value[TOWERUP_COLUMN_COUNT];   /* millions per column */
extern const uint8_t towerup_star_count[TOWERUP_COLUMN_COUNT]; /* star columns <= column */
extern const char towerup_colour_letter[5];                    /* "KGWB*" */
extern const char *const towerup_objective_id[TOWERUP_OBJECTIVE_COUNT];
/* The 44 cards, by index. */
const towerup_card_t *towerup_cards(void);
/* Parses a card code (FORMATS.md §2): 0, or -1 if malformed. */
int towerup_card_parse(const char *code, towerup_card_t *card);
/* Chip values for an objective with the given player count (0-terminated, <= 4). */
const uint8_t *towerup_chip_values(int players);
/* Objective index of an id, or -1. */
int towerup_objective_find(const char *id);
/* The ten objective ids for messages, comma-separated, into buf[len]. */
void towerup_objective_names(char *buf, size_t len);
/* Colour index of a letter K G W B (and * gives WILD when allow_wild), or -1. */
int towerup_colour_from_letter(char c, bool allow_wild);

/* ---- boards ---- */
/* Parses a board text; fname names it in errors. 0, or -1 with "FILE:LINE: what" in err. */
int towerup_board_load_text(towerup_board_t *b, const char *text, const char *fname, char *err,
                            size_t errlen);
int towerup_board_load_file(towerup_board_t *b, const char *path, char *err, size_t errlen);
/* A built-in board ("standard" or "duo"), or NULL. */
const towerup_board_t *towerup_board_builtin(const char *name);
/* A built-in name or a file path, loaded once per process and kept; NULL with err. */
const towerup_board_t *towerup_board_get(const char *name_or_path, char *err, size_t errlen);

/* 0 if board takes start_count starting floors in every deal whatever the placer does,
   else -1 with err showing placed floors that leave the next one no site (setup_fit.c).
   New games refuse boards that fail it, so a set-up never runs out of moves. */
int towerup_setup_fits(const towerup_board_t *b, int start_count, char *err, size_t errlen);

/* ---- state ---- */
/* The functions the game table (core/game.h) points at take the state (and the undo
   record) as void pointers, the interface's signature: no wrapper between them. */
int towerup_new_game(void *state, const game_options_t *opt, char *err, size_t errlen);
/*
 * A game from explicit data (records): deck[44] card indices (market slots then draw
 * pile top first), start[count] set-up bottom colours, objectives[3] ids.
 */
int towerup_new_from(towerup_state_t *s, const towerup_board_t *board, int players,
                     int first_player, const uint8_t *objectives, const uint8_t *deck,
                     const uint8_t *start, int start_count, uint64_t seed, char *err,
                     size_t errlen);
int towerup_gen_moves(const void *state, move_t *moves);
void towerup_make(void *state, move_t m, void *undo);
void towerup_undo(void *state, move_t m, const void *undo);
uint64_t towerup_hash_full(const void *state);
int towerup_check(const void *state, char *err, size_t errlen);
void towerup_move_to_text(const void *state, move_t m, char *buf);
int towerup_move_from_text(const void *state, const char *text, move_t *m, char *err,
                           size_t errlen);
void towerup_determinize(void *state, int observer, pcg32_t *rng);
void towerup_playout(void *state, pcg32_t *rng);
/* A uniformly random legal move (0 if the game is over): the same move as
   moves[pcg32_bounded(rng, n)] over towerup_gen_moves' list, without listing it. */
move_t towerup_random_move(const towerup_state_t *s, pcg32_t *rng);
/* Score in millions (an unset cone counts 0). */
int towerup_score(const towerup_state_t *s, int p);
/* 1-based ranks (RULES.md 1.10) from the current scores. */
void towerup_ranks(const void *state, int *ranks);
/*
 * For tests: recomputes every derived field (masks, reserve, roofs left, levels,
 * discard, chip_next, key) from the primary data (site, roofs, supplies, market, draw).
 */
void towerup_fix_derived(towerup_state_t *s);

/* The heuristic (heuristic.c; bots/heuristic.c lists it). */
extern const struct heuristic heuristic_towerup;
/* The game table (api.c). */
extern const game_api_t towerup_api;
/* The game's own options (options.c, game_api_t.options): board, start_floors, setup,
   objectives; and the check of a value. */
#define TOWERUP_OPTION_COUNT 4
extern const game_option_spec_t towerup_option_specs[TOWERUP_OPTION_COUNT];
int towerup_option_check(const char *key, const char *value, char *err, size_t errlen);
/* The card that refills the market (chance.c, game_api_t.chance_outcomes). */
int towerup_chance_outcomes(const void *state, const move_t *m, char (*text)[GAME_MOVE_TEXT_MAX],
                            double *prob, int max, char *err, size_t errlen);
/* The position as an SVG picture (svg.c; viewer/picture.c lists it). */
int towerup_svg(const void *state, int observer, FILE *out);

/* Position notation (position.c, docs/NOTATION.md), as in game_api_t. */
void towerup_position_write(const void *state, int observer, char *buf, size_t len);
int towerup_position_read(void *state, const char *text, const game_options_t *opt, pcg32_t *rng,
                          int *view, char *err, size_t errlen);

/* ---- records (record.c, core/record.h): the board, objectives, start floors, deck and
   reshuffles, and the result ---- */
extern const struct record_hooks towerup_record_hooks;

/* ---- for people (diagram.c): the diagram of `skyline show`, moves in plain words ---- */
void towerup_diagram(const void *state, int observer, unsigned flags, char *buf, size_t len);
/* A move for people in two steps, as the rules word a turn: group, the market card taken
   ("take card 2 (KW:G1)") or the site built on ("build on site 12") or placed on; way,
   how ("+K +W, gives back 1 B; ...", "a grey floor, the roof on site 12 (level 1)"). */
void towerup_move_group(const void *state, move_t m, char *group, char *way, size_t len);
void towerup_move_describe(const void *state, move_t m, char *buf, size_t len);

/* ---- move encoding ---- */
static inline int towerup_move_kind(move_t m) { return (int)(m >> 28) & 3; }
static inline move_t towerup_move_place(int site, int colour)
{
    return ((move_t)TOWERUP_MOVE_PLACE << 28) | (move_t)site | ((move_t)colour << 6);
}
static inline move_t towerup_move_build(int site, int colour, int roof)
{
    return ((move_t)TOWERUP_MOVE_BUILD << 28) | (move_t)site | ((move_t)colour << 6) |
           ((move_t)roof << 8);
}
/* Take: slot 0..2 and the net supply change per colour, each in -8..7. */
static inline move_t towerup_move_take(int slot, const int *net)
{
    move_t m = ((move_t)TOWERUP_MOVE_TAKE << 28) | (move_t)slot;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        m |= (move_t)(net[c] + 8) << (4 + 4 * c);
    return m;
}
static inline int towerup_move_site(move_t m) { return (int)(m & 63); }
static inline int towerup_move_colour(move_t m) { return (int)(m >> 6) & 3; }
static inline int towerup_move_roof(move_t m) { return (int)(m >> 8) & 63; }
static inline int towerup_move_slot(move_t m) { return (int)(m & 3); }
static inline int towerup_move_net(move_t m, int c) { return (int)((m >> (4 + 4 * c)) & 15) - 8; }

/* Bit count without the library call a plain x86-64 build makes of __builtin_popcountll. */
static inline int towerup_popcount(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* ---- accessors ---- */
static inline int towerup_height(const towerup_state_t *s, int site) { return s->site[site] & 15; }
static inline int towerup_site_colour(const towerup_state_t *s, int site)
{
    return s->site[site] ? s->site[site] >> 4 : -1;
}
/* Owner of the roof on floor `level` (1-based) of a site, or -1. */
static inline int towerup_roof_owner(const towerup_state_t *s, int site, int level)
{
    return (int)((s->roofs[site] >> (3 * (level - 1))) & 7) - 1;
}
static inline int towerup_visible_roofs(const towerup_state_t *s, int p)
{
    return towerup_popcount(s->visible[p]);
}
static inline int towerup_supply_total(const towerup_state_t *s, int p)
{
    return s->supply[p][0] + s->supply[p][1] + s->supply[p][2] + s->supply[p][3];
}
static inline int towerup_draw_count(const towerup_state_t *s) { return s->draw_end - s->draw_pos; }
/* Card index of the i-th card of the draw pile, 0 = top (hidden: for tests and tools). */
static inline int towerup_draw_card(const towerup_state_t *s, int i)
{
    return s->draw[s->draw_pos + i];
}
/* Card index in a market slot (0..2). */
static inline int towerup_market_card(const towerup_state_t *s, int slot)
{
    return s->market[slot];
}
static inline int towerup_reserve(const towerup_state_t *s, int c) { return s->reserve[c]; }
static inline int towerup_supply(const towerup_state_t *s, int p, int c) { return s->supply[p][c]; }
static inline int towerup_marker(const towerup_state_t *s, int p, int c)
{
    return s->markers[p][c];
}
static inline int towerup_roofs_left(const towerup_state_t *s, int p) { return s->roofs_left[p]; }
static inline int towerup_reshuffle_count(const towerup_state_t *s) { return s->reshuffles; }
static inline bool towerup_is_over(const void *state)
{
    const towerup_state_t *s = state;
    return s->phase == TOWERUP_PHASE_OVER;
}

/* Integer actions and observation tensor (actions.c, docs/PYTHON.md). */
int towerup_action_count(int players);
int towerup_move_action(const void *state, move_t m);
int towerup_observation_size(int players);
void towerup_observation(const void *state, int observer, float *out);
