#pragma once
/*
 * The search's option keys: each search idea's file holds the table of its keys (name,
 * type, range, choices with the values they stand for, help, default as help shows it,
 * and where the value goes in mcts_options_t), and a bot that takes the keys reads the
 * tables instead of restating them (bots/mcts_keys.c puts them in its help order and
 * adds its own). The files: search/keys.c the core search's keys (budget, threads, UCB,
 * parallelism, prior form, cutoff, backup, widening), search/multi.c `tree`,
 * search/amaf.c `rave` and `grave`, search/rollout_mast.c MAST's and NST's, and
 * search/noise.c the root noise's.
 */
#include <stdbool.h>
#include <stddef.h>

#include "search/mcts.h"

/* How a key's value is read. */
typedef enum mcts_key_type {
    MCTS_KEY_INT,    /* an integer in [lo, hi] */
    MCTS_KEY_DOUBLE, /* a number in [lo, hi] */
    MCTS_KEY_CHOICE, /* one of `choices`, read as its value */
    MCTS_KEY_FILE    /* a path */
} mcts_key_type_t;

/* One choice of a choice key: its name and the value it stands for (an enum's). */
typedef struct mcts_key_choice {
    const char *name; /* as given in a spec; NULL ends a list */
    int value;        /* what it stands for */
} mcts_key_choice_t;

/* Where a key's value goes in mcts_options_t (mcts_key_store). */
typedef enum mcts_key_store {
    MCTS_STORE_NONE = 0, /* nowhere: the bot that reads it stores it itself */
    MCTS_STORE_LONG,     /* a long */
    MCTS_STORE_INT,      /* an int */
    MCTS_STORE_DOUBLE,   /* a double */
    MCTS_STORE_BOOL,     /* a bool: the value is not 0 */
    MCTS_STORE_ENUM,     /* an enum: the choice's value */
    MCTS_STORE_MIB       /* a size_t in bytes, given in MiB */
} mcts_key_store_t;

/* One key: how it is read, what help says of it and where it goes. */
typedef struct mcts_key_def {
    const char *name;                 /* the key */
    mcts_key_type_t type;             /* how its value is read */
    double lo, hi;                    /* range of an int or double */
    const mcts_key_choice_t *choices; /* a choice's names and values; else NULL */
    const char *arg;                  /* what the value is called in help (N, X, MS, FILE) */
    const char *needs;                /* "key=value" that must be given too, or NULL */
    const char *deflt;                /* the default, as help shows it */
    const char *help;                 /* one line: what it does */
    const char *notes;                /* more, for BOTS.md only (measurements), or NULL */
    mcts_key_store_t store;           /* where the value goes */
    size_t offset;                    /* its offset in mcts_options_t */
} mcts_key_def_t;

/* The search's key named name (in any idea's table), or NULL. */
const mcts_key_def_t *mcts_key_lookup(const char *name);
/* Stores a value read for key d into o (int or choice value iv, double dv); nothing for a
   key of MCTS_STORE_NONE. */
void mcts_key_store(const mcts_key_def_t *d, mcts_options_t *o, long iv, double dv);

/* The ideas' tables, each ended by a row with a NULL name. */
extern const mcts_key_def_t mcts_core_keys[];
extern const mcts_key_def_t mcts_multi_keys[];
extern const mcts_key_def_t mcts_amaf_keys[];
extern const mcts_key_def_t mcts_mast_keys[];
extern const mcts_key_def_t mcts_noise_keys[];

/* The choices 0 and 1 of a switch key. */
extern const mcts_key_choice_t mcts_key_bool[];
