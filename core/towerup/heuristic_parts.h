#pragma once
/*
 * What the Tower Up heuristic's files share (core/towerup/heuristic.c: move scores and
 * position values; heuristic_objectives.c: how far a player is from each objective).
 */
#include <stdbool.h>

#include "core/towerup/towerup.h"

/* Weight indices, in the order of the table below. */
/* clang-format off */
enum {
    W_MARKER, W_EXTRA_TURN, W_LOW_MARKER, W_HEIGHT, W_OBJ_DONE, W_OBJ_PROGRESS, W_OBJ_DECAY,
    W_VISIBLE, W_EXPOSURE, W_COVER_OPP, W_FLOOR, W_POT_BEST, W_POT_COUNT, W_LEAVE,
    W_DENY, W_END_LEAD, W_TAKE_BASE, W_SCALE, W_EVAL_ROOF, W_EVAL_TEMP, W_EVAL_MOVE,
    W_EVAL_WAIT, W_PLACE_OPEN,
    W_COUNT
};
/* clang-format on */

/*
 * Roofs player p still needs for objective obj if a roof of theirs is added on site r at
 * level lv (r < 0: none); r_colour is r's building colour (r may be the site being
 * founded, not yet in the colour masks).
 */
int towerup_objective_distance(const towerup_state_t *s, int p, int obj, int r, int r_colour,
                               int lv);
/* Whether the game's objective i still counts for player p (not met, a chip left). */
bool towerup_objective_open(const towerup_state_t *s, int p, int i);
/* Whether objective obj's distance depends on the colour of the roofed building. */
bool towerup_objective_reads_colour(int obj);
/* Objective potential of player p (millions) from the distances d[] of the game's open
   objectives: met-now chips at obj_done, others by their distance; roofs_left bounds what
   can still be reached. */
static inline double towerup_objective_sum(const towerup_state_t *s, int p, const int *dist,
                                           int roofs_left, const double *w)
{
    const uint8_t *chips = towerup_chip_values(s->players);
    double v = 0;
    for (int i = 0; i < TOWERUP_GAME_OBJECTIVES; i++) {
        int chip = chips[s->chip_next[i]];
        if ((s->met[p] >> i & 1) || !chip)
            continue;
        int d = dist[i];
        if (d == 0)
            v += w[W_OBJ_DONE] * chip;
        else if (d <= roofs_left) {
            double f = w[W_OBJ_PROGRESS] * chip;
            for (int k = 0; k < d; k++)
                f *= w[W_OBJ_DECAY];
            v += f;
        }
    }
    return v;
}

/* Objective potential of player p with a roof of theirs added on site r (colour r_colour,
   level lv; r < 0: none). */
double towerup_objective_potential(const towerup_state_t *s, int p, int r, int r_colour, int lv,
                                   int roofs_left, const double *w);
