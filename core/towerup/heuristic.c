/*
 * Tower Up heuristic (core/heuristic.h): move scores from the move encoding and a small
 * per-position context, without making the moves; and a per-player position value.
 * Everything read here is public (the draw pile's order is never used).
 *
 * A move is valued in millions, then divided by `scale`:
 * - founding: the roofed building's marker steps as column values (convex), progress of
 *   the lowest marker and a bonus when it reaches a new star column (extra turn), the
 *   building's height; objectives not yet met (best chip still open, times decay^roofs
 *   still missing; the full chip when met now); expected cone value of visible roofs
 *   (a roof next to k empty sites survives with 1 / (1 + exposure k)), opponents' roofs
 *   covered; the supply left (below); the next player's best founding afterwards
 *   (`leave`); ending the game by the last roof when ahead or behind (`end_lead`);
 * - take: vehicle steps as above, the supply after it (below), the tallest building the
 *   card's floors would let the next player roof (`deny`), a shortage ending the game, a
 *   constant (`take_base`);
 * - supply: its best founding on the current frontier, how many frontier sites it can
 *   found on, its floors. In a player's final turn only points now count.
 * evaluate: score + expected cone + roofs left + objective potential + floors + best
 * founding now (full weight for the player to move), turned into results in [0, 1] by a
 * logistic of pairwise differences. Defaults: coordinate and random search in self-play,
 * each step checked on seeds the search did not use.
 */
#include <math.h>
#include <string.h>

#include "core/heuristic.h"
#include "core/towerup/heuristic_parts.h"
#include "core/towerup/towerup.h"

static const heur_param_def_t towerup_params[W_COUNT] = {
    {"marker", 0.65, 0.3, 2.0, 0.1, "per million of marker value gained"},
    {"extra_turn", 1.0, 0.0, 10.0, 0.5, "bonus (millions) for an extra turn (a new star)"},
    {"low_marker", 0.4, 0.0, 3.0, 0.2, "per column the lowest marker moves up (progress to stars)"},
    {"height", 0.2, -1.0, 2.0, 0.1, "per floor of the roofed building"},
    {"obj_done", 1.0, 0.0, 2.0, 0.1, "weight of the best open chip of an objective the move meets"},
    {"obj_progress", 0.65, 0.0, 1.5, 0.1, "weight of the open chip for objectives not yet met"},
    {"obj_decay", 0.4, 0.1, 0.9, 0.05, "objective potential factor per building still missing"},
    {"visible", 1.4, 0.0, 3.0, 0.2, "per million of expected cone value from visible roofs"},
    {"exposure", 0.9, 0.0, 2.0, 0.1, "cover risk per empty site next to a roofed building"},
    {"cover_opp", 0.4, 0.0, 2.0, 0.1, "per opponent's visible roof covered"},
    {"floor", 0.3, 0.0, 1.5, 0.05, "value of a floor in supply (spent by builds, gained by takes)"},
    {"pot_best", 0.35, 0.0, 1.5, 0.05, "weight of the best build the supply affords next turn"},
    {"pot_count", 0.25, 0.0, 1.0, 0.05, "per frontier site the supply can build on (up to 6)"},
    {"leave", 1.1, 0.0, 3.0, 0.1, "penalty per million the next player's best build gains"},
    {"deny", 0.3, 0.0, 1.0, 0.05, "weight of the next player's best build from the card taken"},
    {"end_lead", 3.0, 0.0, 10.0, 0.5, "ending the game: bonus times lead / 10 millions in [-1, 1]"},
    {"take_base", 0.4, -3.0, 3.0, 0.25, "constant added to every take"},
    {"scale", 4.0, 1.0, 10.0, 0.5, "millions per unit of move score"},
    {"eval_roof", 1.5, 0.0, 6.0, 0.25, "evaluate: millions per roof still to place"},
    {"eval_temp", 4.0, 1.0, 20.0, 1.0, "evaluate: logistic temperature of score differences"},
    {"eval_move", 1.0, 0.0, 2.0, 0.1, "evaluate: weight of the mover's best founding now"},
    {"eval_wait", 0.3, 0.0, 2.0, 0.1, "evaluate: weight of the best founding of the others"},
    {"place_open", 0.1, -1.0, 1.0, 0.05, "set-up: per empty neighbour of a starting floor"},
};

#define MAX_STEPS     8  /* a building is at most 1 + 5 floors high; table margin */
#define SUPPLY_CACHE  32 /* supply values kept per position (a power of two) */
#define KEEP_TABLE    8  /* keep_chance values made once per position (by empty sites) */
#define POT_COUNT_CAP 6

/* One frontier site as the supply sees it. */
typedef struct towerup_front {
    int site;                          /* the empty site */
    uint8_t cnt[TOWERUP_COLOUR_COUNT]; /* neighbouring buildings per colour */
    uint8_t used;                      /* colours of the neighbours (bit per colour) */
    double nb_gain;                    /* best marker gain of roofing a raised neighbour */
    uint32_t need;                     /* cnt packed one byte per colour */
    uint32_t need1;                    /* cnt + 1 per colour, packed */
    int free;                          /* colours a founding here may have (bit per colour) */
} towerup_front_t;

/* What every move of one position shares. */
typedef struct towerup_ctx {
    const towerup_state_t *s;                      /* the position */
    const towerup_board_t *b;                      /* its board */
    const double *w;                               /* weights */
    int p;                                         /* player to move */
    int next;                                      /* next player */
    uint64_t empty;                                /* empty sites */
    bool last_word;                                /* this is the last turn of the game */
    bool final;                                    /* the mover plays a final turn: points now */
    double gain[TOWERUP_COLOUR_COUNT][MAX_STEPS];  /* scored value of c's marker + k */
    double gain_found[16];                         /* best gain[c][1] over a set of colours c */
    bool extra[TOWERUP_COLOUR_COUNT][MAX_STEPS];   /* whether c's marker + k earns an extra turn */
    int front_count;                               /* entries of front */
    towerup_front_t front[TOWERUP_MAX_SITES];      /* frontier sites */
    double keep[TOWERUP_MAX_SITES];                /* chance a roof on a building stays visible */
    double vis_before;                             /* expected visible roofs of the mover */
    double vis[TOWERUP_MAX_PLAYERS];               /* expected visible roofs of every player */
    double wv[W_COUNT];                            /* the weights; points only in a final turn */
    double obj_pot_before;                         /* objective potential before the move */
    uint64_t obj_cached;                           /* roof sites whose obj_delta is known */
    double obj_delta[TOWERUP_MAX_SITES];           /* objective gain of a roof on a built site */
    int memo_site, memo_colour;                    /* founding whose supply potential is memo_pot */
    double memo_pot;                               /* supply potential after that founding */
    double memo_best;                              /* best founding that supply then affords */
    double lead;                                   /* mover's score minus the best opponent's */
    bool lead_ready;                               /* whether lead is known */
    bool builds_ready;                             /* whether ctx_init_builds ran */
    double qgain[TOWERUP_COLOUR_COUNT][MAX_STEPS]; /* gain[][] for the next player */
    double opp_site[TOWERUP_MAX_SITES];            /* next player's best build on a frontier site */
    double opp_best;                               /* their best build anywhere (0: none) */
    double memo_leave;                             /* what that founding adds to opp_best */
    double qroof[TOWERUP_MAX_SITES];               /* qgain of roofing each building */
    double qroof_raised[TOWERUP_MAX_SITES];        /* the same with the building one higher */
    double qgain_found[16];                        /* best qgain[c][1] over a set of colours c */
    uint32_t qsup;                                 /* next player's supply, packed, | 0x80808080 */
    uint8_t front_of[TOWERUP_MAX_SITES];           /* index in front[] of a frontier site */
    unsigned obj_open;                      /* the mover's open objectives (objective_open) */
    unsigned obj_colour;                    /* objectives reading a roof's colour */
    int site_memo;                          /* founding site the next 3 fields are of */
    int site_dist[TOWERUP_GAME_OBJECTIVES]; /* its objective distances (colour aside) */
    double site_far;                        /* next player's best away from its colour */
    bool site_far_ready;                    /* whether site_far is known */
    double keep_by_empty[KEEP_TABLE];       /* keep_chance by empty neighbours */
    double cone_before;                     /* cone_value(vis_before) */
    double cone_by_empty[KEEP_TABLE];       /* cone_value(vis_before + keep_by_empty[]) */
    uint32_t sup_key[SUPPLY_CACHE];         /* supplies packed a byte a colour (~0: none) */
    double sup_pot[SUPPLY_CACHE];           /* supply_potential of each */
    double sup_best[SUPPLY_CACHE];          /* and its best founding */
} towerup_ctx_t;

/* ---- small helpers ---- */

static int lowest_marker(const uint8_t *m)
{
    int v = m[0];
    for (int c = 1; c < TOWERUP_COLOUR_COUNT; c++)
        if (m[c] < v)
            v = m[c];
    return v;
}

static int column_add(int col, int k)
{
    return col + k < TOWERUP_COLUMN_COUNT ? col + k : TOWERUP_COLUMN_COUNT - 1;
}

/* Expected cone value (millions) of x visible roofs, linear between columns, capped. */
static double cone_value(double x)
{
    if (x <= 0)
        return 0;
    if (x >= TOWERUP_CONE_MAX)
        return towerup_column_value[TOWERUP_CONE_MAX];
    int i = (int)x;
    double f = x - i;
    return towerup_column_value[i] * (1 - f) + towerup_column_value[i + 1] * f;
}

static double clamp1(double x) { return x < -1 ? -1 : x > 1 ? 1 : x; }

/* gain[c][k]: value of moving player p's marker of colour c by k steps (0 for k = 0):
   marker value, lowest-marker progress and the extra-turn bonus. */
static void marker_gains(const towerup_state_t *s, int p, const double *w,
                         double gain[TOWERUP_COLOUR_COUNT][MAX_STEPS])
{
    const uint8_t *m = s->markers[p];
    int lo = lowest_marker(m);
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        int others = TOWERUP_COLUMN_COUNT;
        for (int d = 0; d < TOWERUP_COLOUR_COUNT; d++)
            if (d != c && m[d] < others)
                others = m[d];
        gain[c][0] = 0;
        for (int k = 1; k < MAX_STEPS; k++) {
            int col = column_add(m[c], k), lo2 = col < others ? col : others;
            double v = w[W_MARKER] * (towerup_column_value[col] - towerup_column_value[m[c]]);
            v += w[W_LOW_MARKER] * (lo2 - lo);
            if (towerup_star_count[lo2] > towerup_star_count[lo])
                v += w[W_EXTRA_TURN];
            gain[c][k] = v;
        }
    }
}

/* extra[c][k]: whether moving player p's marker of colour c by k steps earns an extra
   turn (the lowest marker reaches a new star column). */
static void marker_extras(const towerup_state_t *s, int p, bool extra[][MAX_STEPS])
{
    const uint8_t *m = s->markers[p];
    int lo = lowest_marker(m);
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        int others = TOWERUP_COLUMN_COUNT;
        for (int d = 0; d < TOWERUP_COLOUR_COUNT; d++)
            if (d != c && m[d] < others)
                others = m[d];
        extra[c][0] = false;
        for (int k = 1; k < MAX_STEPS; k++) {
            int col = column_add(m[c], k), lo2 = col < others ? col : others;
            extra[c][k] = towerup_star_count[lo2] > towerup_star_count[lo];
        }
    }
}

/* ---- the context ---- */

/* Chance a roof on building i stays visible with e empty sites next to it. */
static double keep_chance(const towerup_ctx_t *x, int e)
{
    if (e < KEEP_TABLE)
        return x->keep_by_empty[e];
    return x->last_word ? 1.0 : 1.0 / (1.0 + x->w[W_EXPOSURE] * e);
}

/*
 * The next player's best build on frontier site e (0 if they cannot found there), on the
 * board as it is, or after the mover founds colour c on site (site >= 0).
 */
static double opp_site_value(const towerup_ctx_t *x, int e, int site, int c)
{
    const towerup_state_t *s = x->s;
    const towerup_board_t *b = x->b;
    uint64_t raised = site >= 0 ? b->nbr[site] & s->occupied : 0;
    uint64_t around = b->nbr[e] & s->occupied;
    double best = 0;
    for (uint64_t t = around & ~raised; t; t &= t - 1) {
        double g = x->qroof[__builtin_ctzll(t)];
        best = g > best ? g : best;
    }
    for (uint64_t t = around & raised; t; t &= t - 1) {
        double g = x->qroof_raised[__builtin_ctzll(t)];
        best = g > best ? g : best;
    }
    /* Neighbours per colour (packed a byte a colour), as in front[] for a frontier site. */
    uint32_t need = 0;
    int used = 0;
    if (s->frontier >> e & 1) {
        const towerup_front_t *f = &x->front[x->front_of[e]];
        need = f->need;
        used = f->used;
    }
    if (site >= 0 && (b->nbr[e] >> site & 1)) {
        need += 1u << (8 * c);
        used |= 1 << c;
        best = x->qgain[c][2] > best ? x->qgain[c][2] : best;
    }
    /* Founding needs the supply of every colour around, plus one of a colour not around
       (the byte-wise compares of supply_potential). */
    const uint32_t H = 0x80808080u;
    if (((x->qsup - need) & H) != H)
        return 0;
    uint32_t m = ((x->qsup - need - 0x01010101u) & H) >> 7;
    int found = (int)((m | m >> 7 | m >> 14 | m >> 21) & 15) & ~used;
    if (!found)
        return 0;
    return x->qgain_found[found] > best ? x->qgain_found[found] : best;
}

/*
 * How much founding colour c on site raises the next player's best build. The sites next
 * to site depend on c; the others (untouched frontier sites, and empty sites next to the
 * raised buildings only) do not, and their best is kept for the site's other colours.
 * The best of values >= +0 is the same whatever the order they are compared in.
 */
static double opp_gain_after(towerup_ctx_t *x, int site, int c)
{
    const towerup_state_t *s = x->s;
    const towerup_board_t *b = x->b;
    uint64_t sb = 1ULL << site, empty_after = x->empty & ~sb;
    uint64_t next_to = b->nbr[site] & empty_after;
    if (x->site_memo != site || !x->site_far_ready) {
        uint64_t touched = b->nbr[site];
        for (uint64_t t = b->nbr[site] & s->occupied; t; t &= t - 1)
            touched |= b->nbr[__builtin_ctzll(t)];
        touched &= empty_after;
        double far = 0;
        for (uint64_t e = s->frontier & ~touched & ~sb; e; e &= e - 1) {
            int i = __builtin_ctzll(e);
            far = x->opp_site[i] > far ? x->opp_site[i] : far;
        }
        for (uint64_t e = touched & ~next_to; e; e &= e - 1) {
            double v = opp_site_value(x, __builtin_ctzll(e), site, c);
            far = v > far ? v : far;
        }
        if (x->site_memo != site) {
            x->site_memo = site;
            x->site_dist[0] = -1;
        }
        x->site_far = far;
        x->site_far_ready = true;
    }
    double best = x->site_far;
    for (uint64_t e = next_to; e; e &= e - 1) {
        double v = opp_site_value(x, __builtin_ctzll(e), site, c);
        best = v > best ? v : best;
    }
    return best > x->opp_best ? best - x->opp_best : 0;
}

/* Objective potential of the mover with a founding of colour c on site, roofed there; the
   distances that do not read the colour are kept for the site's other colours. */
static double founding_objectives(towerup_ctx_t *x, int site, int c, int roofs_left)
{
    const towerup_state_t *s = x->s;
    int p = x->p;
    if (x->site_memo != site) {
        x->site_memo = site;
        x->site_far_ready = false;
        x->site_dist[0] = -1;
    }
    if (x->site_dist[0] < 0)
        for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
            x->site_dist[i] = (x->obj_open & ~x->obj_colour) >> i & 1
                                  ? towerup_objective_distance(s, p, s->objectives[i], site, c, 1)
                                  : 0;
    int dist[TOWERUP_GAME_OBJECTIVES];
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++)
        dist[i] = (x->obj_open & x->obj_colour) >> i & 1
                      ? towerup_objective_distance(s, p, s->objectives[i], site, c, 1)
                      : x->site_dist[i];
    return towerup_objective_sum(s, p, dist, roofs_left, x->w);
}

/* Score estimate (millions) of player q now, cone counted from visible roofs. */
static double score_now(const towerup_state_t *s, int q)
{
    double v = towerup_score(s, q);
    if (s->cone[q] < 0)
        v += cone_value(towerup_visible_roofs(s, q));
    return v;
}

static void ctx_init(towerup_ctx_t *x, const towerup_state_t *s, const double *w)
{
    const towerup_board_t *b = s->board;
    x->s = s;
    x->b = b;
    memcpy(x->wv, w, sizeof x->wv);
    x->final = s->final_round;
    if (x->final) {
        /* A final turn: what counts is points, in millions, and extra turns. */
        x->wv[W_MARKER] = x->wv[W_VISIBLE] = x->wv[W_OBJ_DONE] = 1;
        x->wv[W_LOW_MARKER] = x->wv[W_HEIGHT] = 0;
    }
    x->w = w = x->wv;
    x->p = s->to_move;
    x->next = s->to_move + 1 == s->players ? 0 : s->to_move + 1;
    x->empty = b->all_sites & ~s->occupied;
    x->last_word = s->final_round && s->final_left == 1;
    int p = x->p;
    marker_gains(s, p, w, x->gain);
    marker_extras(s, p, x->extra);
    x->gain_found[0] = -1;
    for (int set = 1; set < 16; set++) {
        int c = __builtin_ctz((unsigned)set);
        double rest = x->gain_found[set & (set - 1)];
        x->gain_found[set] = x->gain[c][1] > rest ? x->gain[c][1] : rest;
    }
    for (int e = 0; e < KEEP_TABLE; e++)
        x->keep_by_empty[e] = x->last_word ? 1.0 : 1.0 / (1.0 + x->w[W_EXPOSURE] * e);
    for (uint64_t t = s->occupied; t; t &= t - 1) {
        int i = __builtin_ctzll(t);
        x->keep[i] = keep_chance(x, towerup_popcount(b->nbr[i] & x->empty));
    }
    for (int q = 0; q < s->players; q++) {
        x->vis[q] = 0;
        for (uint64_t t = s->visible[q]; t; t &= t - 1)
            x->vis[q] += x->keep[__builtin_ctzll(t)];
    }
    x->vis_before = x->vis[p];
    x->front_count = 0;
    for (uint64_t e = s->frontier; e; e &= e - 1) {
        x->front_of[__builtin_ctzll(e)] = (uint8_t)x->front_count;
        towerup_front_t *f = &x->front[x->front_count++];
        f->site = __builtin_ctzll(e);
        memset(f->cnt, 0, sizeof f->cnt);
        f->used = 0;
        f->nb_gain = 0;
        for (uint64_t t = b->nbr[f->site] & s->occupied; t; t &= t - 1) {
            /* An occupied site: its colour is 0..3 (site_colour's -1 is for empty sites). */
            int i = __builtin_ctzll(t), col = s->site[i] >> 4 & 3;
            int h = towerup_height(s, i) + 1;
            f->cnt[col]++;
            f->used |= (uint8_t)(1 << col);
            double g = x->gain[col][h < MAX_STEPS ? h : MAX_STEPS - 1];
            f->nb_gain = g > f->nb_gain ? g : f->nb_gain;
        }
        f->need = f->need1 = 0;
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
            f->need |= (uint32_t)f->cnt[c] << (8 * c);
            f->need1 |= (uint32_t)(f->cnt[c] + 1) << (8 * c);
        }
        f->free = ~f->used & 15;
    }
    x->builds_ready = false;
    x->lead_ready = false;
    memset(x->sup_key, 0xFF, sizeof x->sup_key);
}

/* What only foundings need, made on the first one scored (rollouts may score few). */
static void ctx_init_builds(towerup_ctx_t *x)
{
    const towerup_state_t *s = x->s;
    const double *w = x->w;
    int p = x->p;
    x->builds_ready = true;
    x->opp_best = 0;
    if (!x->last_word && s->roofs_left[x->next]) {
        marker_gains(s, x->next, w, x->qgain);
        /* A supply holds at most TOWERUP_SUPPLY_MAX floors (towerup_check): a byte a colour. */
        const uint8_t *sq = s->supply[x->next];
        x->qsup = 0x80808080u | (uint32_t)sq[0] | (uint32_t)sq[1] << 8 | (uint32_t)sq[2] << 16 |
                  (uint32_t)sq[3] << 24;
        x->qgain_found[0] = -1;
        for (int set = 1; set < 16; set++) {
            int c = __builtin_ctz((unsigned)set);
            double rest = x->qgain_found[set & (set - 1)];
            x->qgain_found[set] = x->qgain[c][1] > rest ? x->qgain[c][1] : rest;
        }
        for (uint64_t t = s->occupied; t; t &= t - 1) {
            int j = __builtin_ctzll(t), col = s->site[j] >> 4 & 3, h = towerup_height(s, j) + 1;
            x->qroof[j] = x->qgain[col][h < MAX_STEPS ? h : MAX_STEPS - 1];
            x->qroof_raised[j] = x->qgain[col][h + 1 < MAX_STEPS ? h + 1 : MAX_STEPS - 1];
        }
        for (uint64_t e = s->frontier; e; e &= e - 1) {
            int i = __builtin_ctzll(e);
            x->opp_site[i] = opp_site_value(x, i, -1, 0);
            if (x->opp_site[i] > x->opp_best)
                x->opp_best = x->opp_site[i];
        }
    }
    /* In a final turn only objectives met now count. */
    x->obj_pot_before =
        towerup_objective_potential(s, p, -1, 0, 0, x->final ? 0 : s->roofs_left[p], w);
    x->cone_before = cone_value(x->vis_before);
    for (int e = 0; e < KEEP_TABLE; e++)
        x->cone_by_empty[e] = cone_value(x->vis_before + x->keep_by_empty[e]);
    x->obj_cached = 0;
    x->memo_site = -1;
    x->site_memo = -1;
    x->obj_open = x->obj_colour = 0;
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++) {
        x->obj_open |= (unsigned)towerup_objective_open(s, p, i) << i;
        x->obj_colour |= (unsigned)towerup_objective_reads_colour(s->objectives[i]) << i;
    }
}

/* The mover's score estimate minus the best opponent's (made when first needed). */
static double ctx_lead(towerup_ctx_t *x)
{
    const towerup_state_t *s = x->s;
    if (!x->lead_ready) {
        double best = -1e9;
        for (int q = 0; q < s->players; q++)
            if (q != x->p && score_now(s, q) > best)
                best = score_now(s, q);
        x->lead = score_now(s, x->p) - best;
        x->lead_ready = true;
    }
    return x->lead;
}

/* Value of holding supply sup with the mover's markers on the current board: its best
   founding next turn (also into *best_out), how many frontier sites it can found on,
   its floors. */
static double supply_potential(const towerup_ctx_t *x, const int *sup, double *best_out)
{
    const double *w = x->w;
    int total = sup[0] + sup[1] + sup[2] + sup[3];
    double floors = w[W_FLOOR] * (total < TOWERUP_SUPPLY_MAX ? total : TOWERUP_SUPPLY_MAX);
    /* Four byte-wide compares at once: bit 7 of a byte of ((S | H) - N) is set iff that
       colour's supply is at least N's byte (all values are below 128). */
    const uint32_t H = 0x80808080u;
    uint32_t S =
        (uint32_t)sup[0] | (uint32_t)sup[1] << 8 | (uint32_t)sup[2] << 16 | (uint32_t)sup[3] << 24;
    S |= H;
    double best = 0;
    int count = 0;
    for (int i = 0; i < x->front_count; i++) {
        const towerup_front_t *f = &x->front[i];
        if (((S - f->need) & H) != H)
            continue;
        uint32_t m = ((S - f->need1) & H) >> 7;
        int found = (int)((m | m >> 7 | m >> 14 | m >> 21) & 15) & f->free;
        if (!found)
            continue;
        count++;
        double g = x->gain_found[found] > f->nb_gain ? x->gain_found[found] : f->nb_gain;
        best = g > best ? g : best;
    }
    *best_out = best;
    if (x->final)
        return 0.1 * floors;
    return w[W_POT_BEST] * best + w[W_POT_COUNT] * (count < POT_COUNT_CAP ? count : POT_COUNT_CAP) +
           floors;
}

/* supply_potential, kept per supply: many moves leave the same supply (within a byte a
   colour, as supplies are; any other is computed afresh). */
static double supply_value(towerup_ctx_t *x, const int *sup, double *best_out)
{
    uint32_t key = 0;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        if (sup[c] < 0 || sup[c] > 127)
            return supply_potential(x, sup, best_out);
        key |= (uint32_t)sup[c] << (8 * c);
    }
    int i = (int)((key * 0x9E3779B1u) >> 27) & (SUPPLY_CACHE - 1);
    if (x->sup_key[i] != key) {
        x->sup_key[i] = key;
        x->sup_pot[i] = supply_potential(x, sup, &x->sup_best[i]);
    }
    *best_out = x->sup_best[i];
    return x->sup_pot[i];
}

/* ---- move scores (millions, before scaling) ---- */

static double score_build(towerup_ctx_t *x, move_t m)
{
    const towerup_state_t *s = x->s;
    const towerup_board_t *b = x->b;
    const double *w = x->w;
    int p = x->p, site = towerup_move_site(m), c = towerup_move_colour(m);
    int r = towerup_move_roof(m);
    uint64_t nb = b->nbr[site] & s->occupied, sb = 1ULL << site;
    if (!x->builds_ready)
        ctx_init_builds(x);
    int h = r == site ? 1 : towerup_height(s, r) + 1;
    int rc = r == site ? c : towerup_site_colour(s, r);
    double v = x->gain[rc][h < MAX_STEPS ? h : MAX_STEPS - 1] + w[W_HEIGHT] * h;

    /* Objectives, with the roof added. */
    int left = s->roofs_left[p] - 1, obj_left = x->final ? 0 : left;
    if (r == site) {
        v += founding_objectives(x, site, c, obj_left) - x->obj_pot_before;
    } else {
        /* A roof on an existing building gains the same whatever is founded next to it. */
        if (!(x->obj_cached >> r & 1)) {
            x->obj_delta[r] =
                towerup_objective_potential(s, p, r, rc, h, obj_left, w) - x->obj_pot_before;
            x->obj_cached |= 1ULL << r;
        }
        v += x->obj_delta[r];
    }

    /* Visible roofs: the mover's on the raised neighbours are covered, the new one shows. */
    int er = towerup_popcount(b->nbr[r] & x->empty & ~sb);
    double vis = x->vis_before;
    for (uint64_t t = s->visible[p] & nb; t; t &= t - 1)
        vis -= x->keep[__builtin_ctzll(t)];
    vis += keep_chance(x, er);
    /* With none of the mover's roofs covered, vis is vis_before + keep_by_empty[er]. */
    double cone_after =
        !(s->visible[p] & nb) && er < KEEP_TABLE ? x->cone_by_empty[er] : cone_value(vis);
    v += w[W_VISIBLE] * (cone_after - x->cone_before);
    for (int q = 0; q < s->players; q++) {
        uint64_t cov = s->visible[q] & nb;
        if (q == p || !cov || s->cone[q] >= 0)
            continue;
        double lost = 0;
        for (uint64_t t = cov; t; t &= t - 1)
            lost += x->keep[__builtin_ctzll(t)];
        /* In a final turn, the cone millions taken from each opponent. */
        if (x->final)
            v += (cone_value(x->vis[q]) - cone_value(x->vis[q] - lost)) / (s->players - 1);
        else
            v += w[W_COVER_OPP] * lost;
    }

    /* Supply after the build: the same for every roof of one founding. */
    if (x->memo_site != site || x->memo_colour != c) {
        int sup[TOWERUP_COLOUR_COUNT];
        for (int k = 0; k < TOWERUP_COLOUR_COUNT; k++)
            sup[k] = s->supply[p][k] - towerup_popcount(nb & s->colour_mask[k]) - (k == c);
        x->memo_site = site;
        x->memo_colour = c;
        x->memo_best = 0;
        x->memo_pot = left > 0 ? supply_value(x, sup, &x->memo_best)
                               : w[W_FLOOR] * 0.1 * (sup[0] + sup[1] + sup[2] + sup[3]);
        x->memo_leave = 0;
        if (!x->last_word && s->roofs_left[x->next] && w[W_LEAVE] != 0)
            x->memo_leave = w[W_LEAVE] * opp_gain_after(x, site, c);
    }
    v += x->memo_pot - x->memo_leave;
    /* In a final turn, an extra turn is worth the founding it then allows. */
    if (x->final && x->extra[rc][h < MAX_STEPS ? h : MAX_STEPS - 1])
        v += x->memo_best;

    /* The last roof ends the game: good when ahead. */
    if (!left && !s->end_trigger) {
        double lead = ctx_lead(x) + x->gain[rc][h < MAX_STEPS ? h : MAX_STEPS - 1];
        v += w[W_END_LEAD] * clamp1(lead / 10);
    }
    return v;
}

static double score_take(towerup_ctx_t *x, move_t m)
{
    const towerup_state_t *s = x->s;
    const double *w = x->w;
    int p = x->p, slot = towerup_move_slot(m);
    const towerup_card_t *k = &towerup_cards()[s->market[slot]];
    int sup[TOWERUP_COLOUR_COUNT];
    bool shortage = false;
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
        sup[c] = s->supply[p][c] + towerup_move_net(m, c);
        shortage |= k->colour_icons[c] > s->reserve[c];
    }
    double v = w[W_TAKE_BASE];
    if (k->vehicle >= 0)
        v += x->gain[k->vehicle][k->steps];
    if (s->roofs_left[p] > 0) {
        double best;
        v += supply_value(x, sup, &best);
        if (x->final && k->vehicle >= 0 && x->extra[k->vehicle][k->steps])
            v += best;
    } else {
        v += w[W_FLOOR] * 0.1 * (sup[0] + sup[1] + sup[2] + sup[3]);
    }
    if (shortage && !s->end_trigger)
        v += w[W_END_LEAD] * clamp1(ctx_lead(x) / 10.0);
    return v;
}

/* Next player's best build after gaining card k's colour icons (wilds ignored). */
static double card_value_next(const towerup_ctx_t *x, const towerup_card_t *k)
{
    const towerup_state_t *s = x->s;
    int q = x->next;
    if (q == x->p || !s->roofs_left[q])
        return 0;
    int sup[TOWERUP_COLOUR_COUNT];
    for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++)
        sup[c] = s->supply[q][c] + k->colour_icons[c];
    double best = 0;
    for (int i = 0; i < x->front_count; i++) {
        const towerup_front_t *f = &x->front[i];
        bool ok = false;
        for (int c = 0; c < TOWERUP_COLOUR_COUNT && !ok; c++)
            ok = !(f->used >> c & 1) && sup[c] > f->cnt[c];
        for (int c = 0; c < TOWERUP_COLOUR_COUNT && ok; c++)
            ok = sup[c] >= f->cnt[c];
        if (!ok)
            continue;
        for (uint64_t t = x->b->nbr[f->site] & s->occupied; t; t &= t - 1) {
            int h = towerup_height(s, __builtin_ctzll(t)) + 1;
            best = h > best ? h : best;
        }
    }
    return best;
}

static void towerup_score_moves(const void *state, const move_t *moves, int count,
                                const heur_params_t *wp, double *scores)
{
    const towerup_state_t *s = state;
    const double *w = wp->value;
    double inv = 1.0 / w[W_SCALE];
    if (s->phase == TOWERUP_PHASE_SETUP) {
        for (int i = 0; i < count; i++) {
            int site = towerup_move_site(moves[i]);
            uint64_t open = s->board->nbr[site] & s->board->all_sites & ~s->occupied;
            scores[i] = w[W_PLACE_OPEN] * towerup_popcount(open) * inv;
        }
        return;
    }
    towerup_ctx_t x;
    ctx_init(&x, s, w);
    double deny[TOWERUP_MARKET] = {0};
    if (w[W_DENY] != 0 && !x.last_word)
        for (int slot = 0; slot < TOWERUP_MARKET; slot++)
            deny[slot] = w[W_DENY] * card_value_next(&x, &towerup_cards()[s->market[slot]]);
    for (int i = 0; i < count; i++) {
        move_t m = moves[i];
        double v;
        if (towerup_move_kind(m) == TOWERUP_MOVE_BUILD)
            v = score_build(&x, m);
        else
            v = score_take(&x, m) + deny[towerup_move_slot(m)];
        scores[i] = v * inv;
    }
}

/* ---- position value ---- */

/* Scored gain of player q's best founding now (0 if none). */
static double best_build_now(const towerup_state_t *s, int q, const double *w)
{
    if (!s->roofs_left[q])
        return 0;
    const towerup_board_t *b = s->board;
    const uint8_t *sup = s->supply[q];
    double gain[TOWERUP_COLOUR_COUNT][MAX_STEPS], best = 0;
    marker_gains(s, q, w, gain);
    for (uint64_t e = s->frontier; e; e &= e - 1) {
        int site = __builtin_ctzll(e), cnt[TOWERUP_COLOUR_COUNT] = {0}, used = 0;
        double g = -1;
        for (uint64_t t = b->nbr[site] & s->occupied; t; t &= t - 1) {
            int i = __builtin_ctzll(t), col = towerup_site_colour(s, i);
            int h = towerup_height(s, i) + 1;
            cnt[col]++;
            used |= 1 << col;
            double gi = gain[col][h < MAX_STEPS ? h : MAX_STEPS - 1];
            g = gi > g ? gi : g;
        }
        bool ok = true, found = false;
        for (int c = 0; c < TOWERUP_COLOUR_COUNT; c++) {
            ok &= sup[c] >= cnt[c];
            if (!(used >> c & 1) && sup[c] > cnt[c]) {
                found = true;
                g = gain[c][1] > g ? gain[c][1] : g;
            }
        }
        if (ok && found && g > best)
            best = g;
    }
    return best;
}

/* Score plus potential of player q, in millions. */
static double player_estimate(const towerup_state_t *s, int q, const double *w)
{
    double v = towerup_score(s, q);
    const towerup_board_t *b = s->board;
    uint64_t empty = b->all_sites & ~s->occupied;
    if (s->cone[q] < 0) {
        double vis = 0;
        for (uint64_t t = s->visible[q]; t; t &= t - 1) {
            int e = towerup_popcount(b->nbr[__builtin_ctzll(t)] & empty);
            vis += 1.0 / (1.0 + w[W_EXPOSURE] * e);
        }
        v += w[W_VISIBLE] * cone_value(vis);
    }
    int roofs = s->roofs_left[q];
    if (s->end_trigger && roofs > 1)
        roofs = s->cone[q] < 0 ? 1 : 0;
    v += w[W_EVAL_ROOF] * roofs;
    v += towerup_objective_potential(s, q, -1, 0, 0, roofs, w);
    int total = towerup_supply_total(s, q);
    v += w[W_FLOOR] * (total < TOWERUP_SUPPLY_MAX ? total : TOWERUP_SUPPLY_MAX);
    if (s->cone[q] < 0)
        v += w[q == s->to_move ? W_EVAL_MOVE : W_EVAL_WAIT] * best_build_now(s, q, w);
    return v;
}

static void towerup_evaluate(const void *state, const heur_params_t *wp, double *values)
{
    const towerup_state_t *s = state;
    const double *w = wp->value;
    int n = s->players;
    if (towerup_is_over(s)) {
        int ranks[TOWERUP_MAX_PLAYERS];
        towerup_ranks(s, ranks);
        game_result_from_ranks(n, ranks, values);
        return;
    }
    double e[TOWERUP_MAX_PLAYERS];
    for (int q = 0; q < n; q++)
        e[q] = player_estimate(s, q, w);
    for (int q = 0; q < n; q++) {
        double sum = 0;
        for (int o = 0; o < n; o++)
            if (o != q)
                sum += 1.0 / (1.0 + exp(-(e[q] - e[o]) / w[W_EVAL_TEMP]));
        values[q] = sum / (n - 1);
    }
}

const heuristic_t heuristic_towerup = {
    .api = &towerup_api,
    .param_count = W_COUNT,
    .params = towerup_params,
    .score_moves = towerup_score_moves,
    .evaluate = towerup_evaluate,
};
