#pragma once
/* The Tower Up reference's state and the parts shared by its two files: towerup_ref.c
   (parsing, card piles, playing, the public calls) and towerup_ref_rules.c (objectives,
   cones and move generation). For ref/ only. */
#include "ref/towerup_ref.h"

#define TR_MAX_SITES   64
#define TR_MAX_PLAYERS 4
#define TR_ROOFS       10
#define TR_TURN_LIMIT  400
#define TR_PILE_MAX    128  /* draw or discard pile capacity */
#define TR_LIST_MAX    88   /* longest reshuffle list accepted */
#define TR_LISTS_MAX   400  /* reshuffle lists given, and reshuffles logged */
#define TR_MOVES_MAX   2048 /* builds: 64 sites x 4 colours x 6 roof sites, plus takes */
#define TR_WILD        4

enum { END_NONE, END_LAST_ROOF, END_SHORTAGE };

static const char COLOUR_LETTERS[] = "KGWB";
static const int COLUMN_VALUE[16] = {0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 18, 20, 22, 25};
static const int STAR_COLUMNS[5] = {2, 4, 7, 10, 13};
static const char *const OBJECTIVE_NAMES[10] = {"colors", "park", "areas",   "lake",    "connected",
                                                "brown",  "grey", "borders", "doubles", "heights"};
enum {
    OBJ_COLORS,
    OBJ_PARK,
    OBJ_AREAS,
    OBJ_LAKE,
    OBJ_CONNECTED,
    OBJ_BROWN,
    OBJ_GREY,
    OBJ_BORDERS,
    OBJ_DOUBLES,
    OBJ_HEIGHTS
};

typedef struct tr_card {
    char code[8];    /* the card code as given */
    int floor_count; /* floor icons on the card */
    int floors[4];   /* icon colours 0..3 in card order, TR_WILD for a wild */
    int vehicle;     /* vehicle colour, -1 if none */
    int steps;       /* vehicle steps */
} tr_card_t;

typedef struct tr_roof {
    int owner; /* player who placed it */
    int site;  /* building it is in */
    int level; /* height of the floor it sits on */
} tr_roof_t;

typedef struct tr_move {
    int kind;      /* 'P', 'T' or 'B' */
    int slot;      /* take: market slot 0..2 */
    int net[4];    /* take: net supply change per colour */
    int shortage;  /* take: whether it triggers the shortage */
    int site;      /* set-up / build: site */
    int colour;    /* set-up / build: colour */
    int roof_site; /* build: site whose building gets the roof */
} tr_move_t;

typedef struct tr_pool {
    tr_card_t *cards; /* heap array */
    int count;        /* cards used */
    int cap;          /* cards allocated */
} tr_pool_t;

struct tu_ref {
    int site_count;                           /* sites on the board */
    int site_area[TR_MAX_SITES];              /* area of each site */
    int site_park[TR_MAX_SITES];              /* 1 if next to a park */
    int site_lake[TR_MAX_SITES];              /* 1 if next to a lake */
    int adjacent[TR_MAX_SITES][TR_MAX_SITES]; /* 1 if a street joins the two sites */
    int area_grey[5];                         /* 1 for a grey area */

    int players;         /* 2..4 */
    int first_player;    /* plays the first turn after set-up */
    int objectives[3];   /* objective ids in the game's order */
    int chips_taken[3];  /* chips already taken per objective */
    int start_count;     /* starting floors to place */
    int start_colour[7]; /* their colours, TR_WILD for a wild */
    int placed;          /* starting floors placed so far */

    int reserve[4];                             /* floors in the reserve per colour */
    int supply[TR_MAX_PLAYERS][4];              /* floors in each supply per colour */
    int roofs_left[TR_MAX_PLAYERS];             /* roofs not yet placed */
    int height[TR_MAX_SITES];                   /* floors on each site, 0 = empty */
    int colour[TR_MAX_SITES];                   /* building colour where height > 0 */
    tr_roof_t roofs[TR_MAX_PLAYERS * TR_ROOFS]; /* roofs on the board, in placement order */
    int roof_count;                             /* entries of roofs */
    int markers[TR_MAX_PLAYERS][4];             /* marker columns per colour */
    int cone[TR_MAX_PLAYERS];                   /* cone column once set */
    int cone_set[TR_MAX_PLAYERS];               /* 1 once the cone is set */
    int chips[TR_MAX_PLAYERS][10];              /* chip values won, in order */
    int chip_count[TR_MAX_PLAYERS];             /* entries of chips */
    int met[TR_MAX_PLAYERS][3];                 /* objective k met by the player */

    tr_card_t market[3];            /* slots 1, 2, 3 */
    tr_card_t draw[TR_PILE_MAX];    /* draw pile, top at index 0 */
    int draw_count;                 /* cards in the draw pile */
    tr_card_t discard[TR_PILE_MAX]; /* discard pile, oldest first */
    int discard_count;              /* cards in the discard pile */

    tr_pool_t list_pool;          /* cards of the given reshuffle lists */
    int list_start[TR_LISTS_MAX]; /* first card of list k in list_pool */
    int list_len[TR_LISTS_MAX];   /* length of list k */
    int list_count;               /* lists given */
    int lists_used;               /* lists consumed */
    pcg32_t *rng;                 /* random reshuffles once lists run out */
    tr_pool_t made_pool;          /* every new draw pile made, concatenated */
    int made_start[TR_LISTS_MAX]; /* first card of reshuffle k in made_pool */
    int made_len[TR_LISTS_MAX];   /* its length */
    int made_count;               /* reshuffles made */

    int to_move;                     /* player to move */
    int turns;                       /* turns played (P moves not counted) */
    int over;                        /* 1 once the game is over */
    int end_mode;                    /* END_NONE until the first trigger */
    int trigger_pending;             /* trigger player's turn still running */
    int final_queue[TR_MAX_PLAYERS]; /* players owed a final turn, in order */
    int final_count;                 /* entries of final_queue */
    int final_pos;                   /* final turns finished */
};

/* A list of moves being generated. */
typedef struct tr_list {
    tr_move_t *moves; /* room for TR_MOVES_MAX */
    int count;        /* moves found */
} tr_list_t;

/* towerup_ref_rules.c */
int tr_player_stars(const tu_ref_t *g, int p);
void tr_marker_advance(tu_ref_t *g, int p, int colour, int steps);
int tr_objective_met(const tu_ref_t *g, int p, int id);
void tr_objectives_check(tu_ref_t *g, int p);
void tr_cone_set(tu_ref_t *g, int p);
void tr_gen_all(const tu_ref_t *g, tr_list_t *list);
void tr_move_format(const tr_move_t *m, char *out);
