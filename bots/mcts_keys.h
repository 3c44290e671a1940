#pragma once
/*
 * The mcts bot's keys (bots/mcts_keys.c): the search's keys, from the tables of the search
 * ideas that own them (search/keys.h), and the bot's own (its hooks, presets, clock, net
 * and self-play draws), in one order, from which the bot reads its spec and prints `skyline
 * play --help` and BOTS.md's key list. A new search key is a row of its idea's table, an
 * id below and its name in key_names (same order); a new key of the bot's own is also a
 * row of bot_keys and a case where bots/mcts_bot.c stores it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "search/keys.h"

/* The keys, in the order of key_names (and of --help and BOTS.md). */
enum {
    K_ITERS,
    K_TIME,
    K_THREADS,
    K_C,
    K_FPU,
    K_FPU_REL,
    K_VLOSS,
    K_UNOBS,
    K_UNOBS_BELOW,
    K_SYNC,
    K_PARALLEL,
    K_FINAL,
    K_MEM,
    K_REUSE,
    K_ROLLOUT,
    K_EPS,
    K_SAMPLE,
    K_PRIOR,
    K_PRIOR_W,
    K_PRIOR_FORM,
    K_CUTOFF,
    K_PARAMS,
    K_PRESET,
    K_BACKUP,
    K_CHEAT,
    K_CLOCK,
    K_PW,
    K_PW_A,
    K_TREE,
    K_MAST_TEMP,
    K_NST_EPS,
    K_NST_MIN,
    K_RAVE,
    K_GRAVE,
    K_NET,
    K_CPUCT,
    K_VALUE_MIX,
    K_PRIOR_TEMP,
    K_NOISE,
    K_NOISE_ALPHA,
    K_TEMP_MOVES,
    K_COUNT
};

/* The choices of the bot's own choice keys, by the values they stand for. */
typedef enum mcts_bot_rollout {
    MCTS_BOT_ROLLOUT_RANDOM = 0,    /* the game's random playout */
    MCTS_BOT_ROLLOUT_HEURISTIC = 1, /* epsilon-greedy on the heuristic's score_moves */
    MCTS_BOT_ROLLOUT_MAST = 2,      /* MAST, played by the search (search/amaf.h) */
    MCTS_BOT_ROLLOUT_NST = 3        /* NST, likewise */
} mcts_bot_rollout_t;
typedef enum mcts_bot_prior {
    MCTS_BOT_PRIOR_NONE = 0,     /* no prior */
    MCTS_BOT_PRIOR_HEURISTIC = 1 /* the softmax of the heuristic's move scores */
} mcts_bot_prior_t;
typedef enum mcts_bot_preset {
    MCTS_BOT_PRESET_BEST = 0, /* the strongest setting known for the game */
    MCTS_BOT_PRESET_PLAIN = 1 /* plain UCT */
} mcts_bot_preset_t;

/* Key k (K_*): a search idea's row or the bot's own. */
const mcts_key_def_t *mcts_key(int k);

/* The index of the key named name, or -1. */
int mcts_key_find(const char *name);
/* Reads value for key d: *iv gets an int or a choice's value, *dv a double. 0, or -1
   with err naming the key, the value and what it may be. */
int mcts_key_read(const mcts_key_def_t *d, const char *value, long *iv, double *dv, char *err,
                  size_t errlen);
/* The unknown-key error, listing the table's keys. */
void mcts_key_unknown(const char *key, char *err, size_t errlen);
