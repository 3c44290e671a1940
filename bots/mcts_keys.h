#pragma once
/*
 * The mcts bot's key table (bots/mcts_keys.c): every key's name, type, range, default and
 * help, from which the bot reads its spec and prints `skyline play --help` and BOTS.md's
 * key list. A new key is an id below, a row of the table (same order) and a case where
 * bots/mcts_bot.c stores it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* How a key's value is read. */
typedef enum mcts_key_type {
    MCTS_KEY_INT,    /* an integer in [lo, hi] */
    MCTS_KEY_DOUBLE, /* a number in [lo, hi] */
    MCTS_KEY_CHOICE, /* one of `choices`, read as its index */
    MCTS_KEY_FILE    /* a path */
} mcts_key_type_t;

/* The keys, in the order of the table below (and of --help and BOTS.md). */
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

/* One key of the mcts bot: how it is read and what --help and BOTS.md say of it. */
typedef struct mcts_key_def {
    const char *name;           /* the key */
    mcts_key_type_t type;       /* how its value is read */
    double lo, hi;              /* range of an int or double */
    const char *const *choices; /* a choice's names, NULL-terminated; else NULL */
    const char *arg;            /* what the value is called in help (N, X, MS, FILE) */
    const char *needs;          /* "key=value" that must be given too, or NULL */
    const char *deflt;          /* the default, as help shows it */
    const char *help;           /* one line: what it does */
    const char *notes;          /* more, for BOTS.md only (measurements), or NULL */
} mcts_key_def_t;

/* The keys, in the order of K_*. */
extern const mcts_key_def_t mcts_keys[K_COUNT];

/* The index of the key named name, or -1. */
int mcts_key_find(const char *name);
/* Reads value for key d: *iv gets an int or a choice's index, *dv a double. 0, or -1
   with err naming the key, the value and what it may be. */
int mcts_key_read(const mcts_key_def_t *d, const char *value, long *iv, double *dv, char *err,
                  size_t errlen);
/* The unknown-key error, listing the table's keys. */
void mcts_key_unknown(const char *key, char *err, size_t errlen);
