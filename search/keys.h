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
 *
 * A row is the one home of its key: its `deflt` text, where it is a value (mcts_key_default),
 * is the default that mcts_options_default stores and a bot starts from; a text that says
 * more (a default that depends on other keys, a preset or the position) is help only, and
 * the value stored without the key is mcts_options_default's. What keys say of each other
 * (needs, excludes, turns on) is written as conditions over keys (mcts_key_holds) in the
 * rules and fills below, which a bot checks and applies as they are.
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

/* Reads text as a value of key d: an integer or a number in its range, or a choice's name.
   0 with *iv (the integer or the choice's value) and *dv (the number, or *iv), or -1. */
int mcts_key_parse(const mcts_key_def_t *d, const char *text, long *iv, double *dv);
/* Key d's default as a value: 0 if its `deflt` text reads as one (mcts_key_parse), -1 if
   the text says more (help tells the default, mcts_options_default stores it). */
int mcts_key_default(const mcts_key_def_t *d, long *iv, double *dv);
/* Stores into o the default of every search key whose default is a value. */
void mcts_key_defaults(mcts_options_t *o);
/* The value key d holds in o, as a number (a choice: its value; a switch: 0 or 1; mem: MiB);
   0 for a key of MCTS_STORE_NONE. */
double mcts_key_value(const mcts_key_def_t *d, const mcts_options_t *o);
/* The same from the struct at base. */
double mcts_key_value_at(const mcts_key_def_t *d, const void *base);

/*
 * Conditions over keys, as rules and fills write them: alternatives joined by `|`, each
 * one or more terms joined by `&`, a term being KEY (the key is given), KEY>0 (its value
 * is above 0) or KEY=VALUE (its value is VALUE: a choice's name or a number; for a file
 * key, FILE: it is given). A key not given has the value the reader gives it (its
 * default, a preset's, a fill's).
 */
/* What the reader of a spec knows of key name (len bytes): its row (NULL: no such key), and
   in *given and *value whether it was given and the value it has. */
typedef const mcts_key_def_t *(*mcts_key_get_fn)(void *ctx, const char *name, size_t len,
                                                 bool *given, double *value);
/* Whether condition cond holds; a key get does not know makes its term false. */
bool mcts_key_holds(const char *cond, mcts_key_get_fn get, void *ctx);
/* Calls check(name, len, ctx) for every key cond names (tests: each is a key). */
void mcts_key_names(const char *cond, void (*check)(const char *name, size_t len, void *ctx),
                    void *ctx);

/* A rule between keys: when `when` holds, `needs` must hold too (if set) and `excludes`
   must not (if set); else the spec is refused with `error` (one line). */
typedef struct mcts_key_rule {
    const char *when;
    const char *needs;
    const char *excludes;
    const char *error;
} mcts_key_rule_t;
/* A value a key takes when it is not set otherwise: when `when` holds (NULL: always) and
   `unless` does not (NULL: never), key=value `set` is stored as if given. */
typedef struct mcts_key_fill {
    const char *when;
    const char *set;
    const char *unless;
} mcts_key_fill_t;

/* The search ideas' rules, in the order they are checked, and fills, in the order they are
   applied; each list ends with a row whose `error` (fills: `set`) is NULL. */
extern const mcts_key_rule_t mcts_key_rules[];
extern const mcts_key_fill_t mcts_key_fills[];

/* The search's key named name (in any idea's table), or NULL. */
const mcts_key_def_t *mcts_key_lookup(const char *name);
/* Stores a value read for key d into o (int or choice value iv, double dv); nothing for a
   key of MCTS_STORE_NONE. */
void mcts_key_store(const mcts_key_def_t *d, mcts_options_t *o, long iv, double dv);
/* The same into the struct at base (a reader's own values, with the row's offset there). */
void mcts_key_store_at(const mcts_key_def_t *d, void *base, long iv, double dv);

/* The ideas' tables, each ended by a row with a NULL name, and the list of them (in the
   order help lists them), ended by NULL. */
extern const mcts_key_def_t *const mcts_key_tables[];
extern const mcts_key_def_t mcts_core_keys[];
extern const mcts_key_def_t mcts_multi_keys[];
extern const mcts_key_def_t mcts_amaf_keys[];
extern const mcts_key_def_t mcts_mast_keys[];
extern const mcts_key_def_t mcts_noise_keys[];

/* The choices 0 and 1 of a switch key. */
extern const mcts_key_choice_t mcts_key_bool[];
