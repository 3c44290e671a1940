/* The mcts bot's key table and its help (bots/mcts_keys.h). */
#include <stdio.h>
#include <string.h>

#include "bots/bot.h"
#include "bots/mcts_bot.h"
#include "bots/mcts_keys.h"
#include "core/game.h"
#include "core/textbuf.h"

static const mcts_key_choice_t choice_rollout[] = {{"random", MCTS_BOT_ROLLOUT_RANDOM},
                                                   {"heuristic", MCTS_BOT_ROLLOUT_HEURISTIC},
                                                   {"mast", MCTS_BOT_ROLLOUT_MAST},
                                                   {"nst", MCTS_BOT_ROLLOUT_NST},
                                                   {NULL, 0}};
static const mcts_key_choice_t choice_prior[] = {
    {"none", MCTS_BOT_PRIOR_NONE}, {"heuristic", MCTS_BOT_PRIOR_HEURISTIC}, {NULL, 0}};
static const mcts_key_choice_t choice_preset[] = {
    {"best", MCTS_BOT_PRESET_BEST}, {"plain", MCTS_BOT_PRESET_PLAIN}, {NULL, 0}};

/* The bot's own keys: its rollout and prior hooks, heuristic weights, presets, game clock,
   net and self-play draws; each listed before the search key it names (NULL: last), and
   kept: its value goes into mcts_bot_values_t (else where its row says, or nowhere: the
   bot reads it from the spec). */
typedef struct {
    const char *before;
    bool kept;
    mcts_key_def_t def;
} bot_key_t;
#define OWN(before, ...)                                                                           \
    {                                                                                              \
        before, false, { __VA_ARGS__ }                                                             \
    }
#define KEPT(before, ...)                                                                          \
    {                                                                                              \
        before, true, { __VA_ARGS__ }                                                              \
    }
static const bot_key_t bot_keys[] = {
    OWN("prior_w", "rollout", MCTS_KEY_CHOICE, 0, 0, choice_rollout, NULL, NULL, "random",
        "playouts: the game's random playout, epsilon-greedy on `score_moves`, MAST (a softmax "
        "over each move's mean result) or NST (epsilon-greedy on the means of move n-grams); "
        "`mast` and `nst` also choose the moves before a cutoff",
        "see \"MAST and NST\" below", MCTS_STORE_NONE, 0),
    KEPT("prior_w", "eps", MCTS_KEY_DOUBLE, 0, 1, NULL, "X", "rollout=heuristic", "0.1",
         "heuristic rollouts: share of uniformly random moves", NULL, MCTS_STORE_DOUBLE,
         offsetof(mcts_bot_values_t, eps)),
    KEPT("prior_w", "sample", MCTS_KEY_INT, 0, GAME_MAX_MOVES, NULL, "K", "rollout=heuristic", "0",
         "heuristic rollouts: score only K random legal moves per ply (0: all)", NULL,
         MCTS_STORE_INT, offsetof(mcts_bot_values_t, sample)),
    OWN("prior_w", "prior", MCTS_KEY_CHOICE, 0, 0, choice_prior, NULL, NULL,
        "heuristic (`preset=best` with a heuristic), else none",
        "progressive bias: a node's prior is the softmax of `score_moves` over its moves (one "
        "call per expansion); untried moves are expanded best prior first",
        NULL, MCTS_STORE_NONE, 0),
    OWN("backup", "params", MCTS_KEY_FILE, 0, 0, NULL, "FILE", NULL, "built-in",
        "the heuristic's weights for heuristic rollouts, prior and evaluate; any weight may "
        "also be given as a key by its name, over the file",
        NULL, MCTS_STORE_NONE, 0),
    OWN("backup", "preset", MCTS_KEY_CHOICE, 0, 0, choice_preset, NULL, NULL, "best",
        "`best`: the strongest setting known for the game (with a heuristic: `prior=heuristic,"
        "cutoff=8,fpu=0.3`; without one: plain UCT); `plain`: plain UCT (random playouts, no "
        "prior, `fpu=10`); keys given override the preset",
        "`mcts:iters=2000` against `heuristic` (2 players): see docs/RESULTS.md, \"Search "
        "defaults\"",
        MCTS_STORE_NONE, 0),
    OWN("pw", "clock", MCTS_KEY_INT, 1, 1000000000, NULL, "MS[+INC]", NULL, "none",
        "a game clock: MS milliseconds per game, INC more after each own move; each move "
        "given remaining / (expected own moves left + 2) plus INC, the moves left being 30 "
        "less those made, at least 8; excludes `time` (the range is MS's)",
        NULL, MCTS_STORE_NONE, 0),
    OWN("noise", "net", MCTS_KEY_FILE, 0, 0, NULL, "FILE", NULL, "none",
        "a network (docs/NETS.md) for the game and player count: a file (a value with a `/` or "
        "a `.`) or a shipped net's name (nets/), or `@evaluator` for a "
        "function given through the C API or Python (`Bot.set_evaluator`): PUCT with the policy's "
        "prior over the legal moves and the value head's values at the leaves (one evaluation "
        "per new node); sets `c=0`, `fpu=-0.1` with `fpu_rel=1` unless given; excludes "
        "`prior`, `rollout`, `rave` and `grave`",
        "see \"Networks\" below", MCTS_STORE_NONE, 0),
    OWN("noise", "cpuct", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "X", "net=FILE", "1",
        "PUCT constant: a child's bias is cpuct * prior * sqrt(parent visits) / (visits + 1)", NULL,
        MCTS_STORE_DOUBLE, offsetof(mcts_options_t, prior_weight)),
    KEPT("noise", "value_mix", MCTS_KEY_DOUBLE, 0, 1, NULL, "L", "net=FILE", "0",
         "a leaf's value is (1 - L) times the net's plus L times a random playout's result (with "
         "`cutoff=D`: the heuristic's `evaluate` after D random moves)",
         NULL, MCTS_STORE_DOUBLE, offsetof(mcts_bot_values_t, value_mix)),
    KEPT("noise", "prior_temp", MCTS_KEY_DOUBLE, 0.01, 100, NULL, "T", "net=FILE", "1",
         "the prior is the softmax of the policy's logits divided by T over the legal moves", NULL,
         MCTS_STORE_DOUBLE, offsetof(mcts_bot_values_t, prior_temp)),
    KEPT(NULL, "temp_moves", MCTS_KEY_INT, 0, 1000000, NULL, "M", NULL, "0",
         "the bot's first M moves of each game are drawn in proportion to the root moves' visits "
         "(temperature 1, from the bot's seeded random numbers), the later ones chosen as "
         "`final` says",
         NULL, MCTS_STORE_INT, offsetof(mcts_bot_values_t, temp_moves)),
    {0},
};

/* The bot's rules, checked after the search's (search/keys.c). */
const mcts_key_rule_t mcts_bot_rules[] = {
    {"clock", NULL, "time", "keys 'clock' and 'time' exclude each other"},
    {"net", NULL, "prior",
     "keys 'net' and 'prior' exclude each other (the net gives the prior and the leaves' "
     "values)"},
    {"net", NULL, "rollout",
     "keys 'net' and 'rollout' exclude each other (the net gives the prior and the leaves' "
     "values)"},
    {"net", NULL, "rave",
     "keys 'net' and 'rave' exclude each other (the net gives the prior and the leaves' "
     "values)"},
    {"net", NULL, "grave",
     "keys 'net' and 'grave' exclude each other (the net gives the prior and the leaves' "
     "values)"},
    {"net&cutoff", "value_mix>0", NULL,
     "key 'cutoff' with 'net' needs value_mix= above 0 (what it blends)"},
    {0},
};

/* With net= (the net row's help): PUCT with the net's prior, absolute values, and a
   first-play urgency relative to the node's mean. */
const mcts_key_fill_t mcts_bot_net_fills[] = {
    {"net", "c=0", "c"},
    {"net", "fpu=-0.1", "fpu"},
    {"net", "fpu_rel=1", "fpu|fpu_rel"},
    {0},
};

/* The best preset in a game with a heuristic (the preset row's help; docs/RESULTS.md,
   "Search defaults"): the heuristic's prior, a cutoff unless the rollout given plays its
   own moves, and a lower first-play urgency. */
const mcts_key_fill_t mcts_bot_best_fills[] = {
    {NULL, "prior=heuristic", "prior"},
    {NULL, "cutoff=8", "cutoff|rollout=heuristic|rollout=mast|rollout=nst"},
    {NULL, "fpu=0.3", "fpu"},
    {0},
};

/* The budget without iters=, time= or clock= (the iters row's default). */
const mcts_key_fill_t mcts_bot_budget_fills[] = {
    {NULL, "iters=1000", "iters|time|clock"},
    {0},
};

int mcts_bot_keys_all(const mcts_key_def_t **keys)
{
    int n = 0;
    for (size_t t = 0; mcts_key_tables[t]; t++)
        for (const mcts_key_def_t *d = mcts_key_tables[t];; d++) {
            for (int b = 0; bot_keys[b].def.name; b++) {
                const char *before = bot_keys[b].before;
                bool here = d->name ? before && !strcmp(before, d->name)
                                    : !before && !mcts_key_tables[t + 1];
                if (here && n < MCTS_BOT_KEYS_MAX)
                    keys[n++] = &bot_keys[b].def;
            }
            if (!d->name)
                break;
            if (n < MCTS_BOT_KEYS_MAX)
                keys[n++] = d;
        }
    return n;
}

const mcts_key_def_t *mcts_bot_key(const char *name, size_t len)
{
    for (int b = 0; bot_keys[b].def.name; b++)
        if (strlen(bot_keys[b].def.name) == len && !strncmp(bot_keys[b].def.name, name, len))
            return &bot_keys[b].def;
    char text[64];
    if (len >= sizeof text)
        return NULL;
    memcpy(text, name, len);
    text[len] = '\0';
    return mcts_key_lookup(text);
}

bool mcts_bot_key_own(const mcts_key_def_t *d)
{
    for (int b = 0; bot_keys[b].def.name; b++)
        if (d == &bot_keys[b].def)
            return bot_keys[b].kept;
    return false;
}

void mcts_bot_key_store(const mcts_key_def_t *d, mcts_options_t *o, mcts_bot_values_t *v, long iv,
                        double dv)
{
    if (mcts_bot_key_own(d))
        mcts_key_store_at(d, v, iv, dv);
    else
        mcts_key_store(d, o, iv, dv);
}

/* The range of an int or double key as help and errors say it ("from LO to HI"). */
static void key_range(const mcts_key_def_t *d, char *out, size_t len)
{
    if (d->type == MCTS_KEY_INT)
        snprintf(out, len, "from %ld to %ld", (long)d->lo, (long)d->hi);
    else
        snprintf(out, len, "from %g to %g", d->lo, d->hi);
}

/* The key's form in help: name=ARG, or name=a|b|c for a choice. */
static void key_form(const mcts_key_def_t *d, bool markdown, char *out, size_t len)
{
    textbuf_t t;
    textbuf_init(&t, out, len, 0);
    textbuf_printf(&t, "%s=", d->name);
    if (!d->choices)
        textbuf_printf(&t, "%s", d->arg);
    for (int i = 0; d->choices && d->choices[i].name; i++)
        textbuf_printf(&t, "%s%s", i ? (markdown ? "\\|" : "|") : "", d->choices[i].name);
}

/* One key of the text help: its form, then text in lines of at most about 90 columns. */
static void print_wrapped(FILE *out, const char *form, const char *text)
{
    enum { INDENT = 28, WIDTH = 90 };
    int col = fprintf(out, "  %-*s", INDENT - 3, form);
    if (col >= INDENT) {
        fprintf(out, "\n%*s", INDENT - 1, "");
    }
    col = INDENT - 1;
    while (*text) {
        int len = (int)strcspn(text, " ");
        if (col + 1 + len > WIDTH && col > INDENT - 1) {
            fprintf(out, "\n%*s", INDENT - 1, "");
            col = INDENT - 1;
        }
        col += fprintf(out, " %.*s", len, text);
        text += len;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

void mcts_bot_keys_print(FILE *out, bool markdown)
{
    char form[128], range[64];
    if (markdown)
        fprintf(out, "| key | meaning | range | default |\n|---|---|---|---|\n");
    const mcts_key_def_t *keys[MCTS_BOT_KEYS_MAX];
    int count = mcts_bot_keys_all(keys);
    for (int k = 0; k < count; k++) {
        const mcts_key_def_t *d = keys[k];
        key_form(d, markdown, form, sizeof form);
        range[0] = '\0';
        if (d->type == MCTS_KEY_INT || d->type == MCTS_KEY_DOUBLE)
            key_range(d, range, sizeof range);
        if (markdown) {
            fprintf(out, "| `%s` | %s", form, d->help);
            if (d->needs)
                fprintf(out, "; needs `%s`", d->needs);
            if (d->notes)
                fprintf(out, "; %s", d->notes);
            fprintf(out, " | %s | %s |\n", range[0] ? range : "", d->deflt);
        } else {
            char text[1024];
            snprintf(text, sizeof text, "%s%s%s (%s%sdefault %s)", d->help,
                     d->needs ? "; needs " : "", d->needs ? d->needs : "", range,
                     range[0] ? ", " : "", d->deflt);
            print_wrapped(out, form, text);
        }
    }
    if (!markdown)
        print_wrapped(out, "NAME=X", "a weight of the game's heuristic by its name");
}

/* Reads value for key d: *iv gets an int or a choice's value, *dv a double. 0, or -1
   with err naming the key, the value and what it may be. */
int mcts_key_read(const mcts_key_def_t *d, const char *value, long *iv, double *dv, char *err,
                  size_t errlen)
{
    switch (d->type) {
    case MCTS_KEY_INT:
        return bot_spec_int(d->name, value, (long)d->lo, (long)d->hi, iv, err, errlen);
    case MCTS_KEY_DOUBLE: return bot_spec_double(d->name, value, d->lo, d->hi, dv, err, errlen);
    case MCTS_KEY_CHOICE:
        for (int i = 0; d->choices[i].name; i++)
            if (!strcmp(value, d->choices[i].name)) {
                *iv = d->choices[i].value;
                return 0;
            }
        int n = snprintf(err, errlen, "bad value '%s' for key '%s' (one of", value, d->name);
        for (int i = 0; d->choices[i].name && n > 0 && (size_t)n < errlen; i++)
            n += snprintf(err + n, errlen - (size_t)n, "%s %s", i ? "," : "", d->choices[i].name);
        if (n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n, ")");
        return -1;
    case MCTS_KEY_FILE:
    default: return 0;
    }
}

/* The unknown-key error, listing the table's keys. */
void mcts_key_unknown(const char *key, char *err, size_t errlen)
{
    int n = snprintf(err, errlen, "unknown key '%s' (mcts takes", key);
    const mcts_key_def_t *keys[MCTS_BOT_KEYS_MAX];
    int count = mcts_bot_keys_all(keys);
    for (int k = 0; k < count && n > 0 && (size_t)n < errlen; k++)
        n += snprintf(err + n, errlen - (size_t)n, "%s %s", k ? "," : "", keys[k]->name);
    if (n > 0 && (size_t)n < errlen)
        snprintf(err + n, errlen - (size_t)n, " and the heuristic's weights)");
}
