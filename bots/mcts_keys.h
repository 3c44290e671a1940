#pragma once
/*
 * The mcts bot's keys (bots/mcts_keys.c): the search's keys, from the tables of the search
 * ideas that own them (search/keys.h), and the bot's own (its hooks, presets, clock, net
 * and self-play draws), in one order, from which the bot reads its spec and prints `skyline
 * play --help` and BOTS.md's key list. A new search key is a row of its idea's table; a
 * new key of the bot's own is a row of bot_keys (saying before which search key it is
 * listed), and where it goes in mcts_bot_values_t if the bot keeps its value. What keys
 * say of each other is in the rules and fills (search/keys.h) of the search and the bot.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "search/keys.h"

/* The most keys the bot takes (search and own). */
#define MCTS_BOT_KEYS_MAX 64

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

/* The values of the bot's own keys that it keeps (rows with a store: their offsets). */
typedef struct mcts_bot_values {
    double eps;        /* eps=: heuristic rollouts' share of random moves */
    int sample;        /* sample=: heuristic rollouts' moves scored per ply, 0: all */
    double value_mix;  /* value_mix=: share of the playout in a net's leaf value */
    double prior_temp; /* prior_temp=: the net prior's temperature */
    int temp_moves;    /* temp_moves=: own moves a game drawn by visits */
} mcts_bot_values_t;

/* Every key of the bot in help order (each search idea's table in turn, the bot's own rows
   before the search key they name): the count, at most MCTS_BOT_KEYS_MAX. */
int mcts_bot_keys_all(const mcts_key_def_t **keys);
/* The bot's key named name (len bytes), or NULL. */
const mcts_key_def_t *mcts_bot_key(const char *name, size_t len);
/* Whether d is one of the bot's own keys, whose store goes into mcts_bot_values_t (its
   offset there) rather than mcts_options_t. */
bool mcts_bot_key_own(const mcts_key_def_t *d);
/* Stores a value read for key d: into o (a search key, or an own key that sets an option)
   or into v (an own key the bot keeps). */
void mcts_bot_key_store(const mcts_key_def_t *d, mcts_options_t *o, mcts_bot_values_t *v, long iv,
                        double dv);

/* The bot's rules, checked after the search's, and its fills: with net=, and the best
   preset's (in a game with a heuristic, unless preset=plain or net=); the budget's. */
extern const mcts_key_rule_t mcts_bot_rules[];
extern const mcts_key_fill_t mcts_bot_net_fills[];
extern const mcts_key_fill_t mcts_bot_best_fills[];
extern const mcts_key_fill_t mcts_bot_budget_fills[];

/* Reads value for key d: *iv gets an int or a choice's value, *dv a double. 0, or -1
   with err naming the key, the value and what it may be. */
int mcts_key_read(const mcts_key_def_t *d, const char *value, long *iv, double *dv, char *err,
                  size_t errlen);
/* The unknown-key error, listing the table's keys. */
void mcts_key_unknown(const char *key, char *err, size_t errlen);
