/* The mcts bot's key table and its help (bots/mcts_keys.h). */
#include <stdio.h>
#include <string.h>

#include "bots/bot.h"
#include "bots/mcts_bot.h"
#include "bots/mcts_keys.h"
#include "core/game.h"
#include "core/textbuf.h"

static const char *const choice_bool[] = {"0", "1", NULL};
static const char *const choice_parallel[] = {"tree", "root", NULL};
static const char *const choice_final[] = {"visits", "mean", NULL};
static const char *const choice_rollout[] = {"random", "heuristic", "mast", "nst", NULL};
static const char *const choice_prior[] = {"none", "heuristic", NULL};
static const char *const choice_prior_form[] = {"decay", "puct", NULL};
static const char *const choice_preset[] = {"best", "plain", NULL};
static const char *const choice_backup[] = {"maxn", "paranoid", "brs", NULL};
static const char *const choice_tree[] = {"single", "multi", NULL};

const mcts_key_def_t mcts_keys[K_COUNT] = {
    {"iters", MCTS_KEY_INT, 1, 2000000000, NULL, "N", NULL,
     "1000 if neither `iters` nor `time` is given", "iterations per move", NULL},
    {"time", MCTS_KEY_INT, 1, 100000000, NULL, "MS", NULL, "none",
     "milliseconds per move (with `iters` too: whichever ends first)", NULL},
    {"threads", MCTS_KEY_INT, 1, 256, NULL, "N", NULL, "1",
     "search threads (also what tournaments schedule by)", NULL},
    {"c", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "X", NULL, "0.7",
     "UCB exploration constant (results in [0, 1])", NULL},
    {"fpu", MCTS_KEY_DOUBLE, -1e6, 1e6, NULL, "X", NULL,
     "0.3 (`preset=best` with a heuristic), else 10",
     "first-play urgency: score of an untried move (10: try each once first; with a prior, "
     "plus the bias of the best untried prior)",
     NULL},
    {"fpu_rel", MCTS_KEY_CHOICE, 0, 0, choice_bool, NULL, NULL, "0",
     "1: `fpu` is added to the mover's mean over the node's tried moves (e.g. `fpu=-0.1`)", NULL},
    {"vloss", MCTS_KEY_INT, 0, 1000000, NULL, "N", NULL, "0",
     "virtual losses per thread in a node (tree parallelism)",
     "none by default, as two threads ran 6 % more iterations a second without (with "
     "`sync=64`); against one thread at double time they scored 0.478 instead of 0.441 in "
     "Tower Up (800 deals) but 0.488 instead of 0.517 in Uptown (300 deals), both within "
     "noise (docs/PARALLEL.md); at equal iterations one virtual loss chose worse in Tower "
     "Up (regret against a reference search, docs/PARALLEL.md); with many threads, try 1"},
    {"unobs", MCTS_KEY_CHOICE, 0, 0, choice_bool, NULL, NULL, "0",
     "with several threads on one tree, count the other threads' passes whose results are "
     "not published yet as visits in the exploration term, not in the mean (as WU-UCT), at "
     "nodes with fewer than `unobs_below` published visits",
     "at equal iterations in Tower Up two threads chose like one thread with 1.04 times the "
     "iterations with it (below 64) and 0.87 without, but at 20 ms it chose no better, as "
     "it costs 3 % of the iterations (docs/PARALLEL.md)"},
    {"unobs_below", MCTS_KEY_INT, 1, 1000000000, NULL, "N", NULL, "64",
     "with `unobs=1`, the published visits below which a node's passes are counted",
     "counting at every node (a large N) chose as well per iteration but cost 7 to 11 % of "
     "the iterations at 20 ms and chose worse there (each count writes a line the other core "
     "reads)"},
    {"sync", MCTS_KEY_INT, 0, 64, NULL, "N", NULL, "0",
     "iterations a thread runs before it publishes its results to the shared tree; 0: 64 "
     "with several threads in tree mode, else 1 (one thread searches the same for any value)",
     "`sync=1` chooses a little better per iteration but runs fewer, and at 20 ms chose as "
     "well as 64 (docs/PARALLEL.md)"},
    {"parallel", MCTS_KEY_CHOICE, 0, 0, choice_parallel, NULL, NULL, "tree",
     "one shared tree, or one tree per thread with root statistics summed", NULL},
    {"final", MCTS_KEY_CHOICE, 0, 0, choice_final, NULL, NULL, "visits",
     "most-visited root move, or best mean among moves with at least 1/10 of the most visits",
     NULL},
    {"mem", MCTS_KEY_INT, 1, 1L << 20, NULL, "MiB", NULL, "256",
     "cap on the node arena, 88 bytes a node plus 24 per node and thread (expansion stops "
     "when full; rollouts go on)",
     NULL},
    {"reuse", MCTS_KEY_CHOICE, 0, 0, choice_bool, NULL, NULL, "1",
     "keep the subtree of the moves played since the last search (tree mode)", NULL},
    {"rollout", MCTS_KEY_CHOICE, 0, 0, choice_rollout, NULL, NULL, "random",
     "playouts: the game's random playout, epsilon-greedy on `score_moves`, MAST (a softmax "
     "over each move's mean result) or NST (epsilon-greedy on the means of move n-grams); "
     "`mast` and `nst` also choose the moves before a cutoff",
     "see \"MAST and NST\" below"},
    {"eps", MCTS_KEY_DOUBLE, 0, 1, NULL, "X", "rollout=heuristic", "0.1",
     "heuristic rollouts: share of uniformly random moves", NULL},
    {"sample", MCTS_KEY_INT, 0, GAME_MAX_MOVES, NULL, "K", "rollout=heuristic", "0",
     "heuristic rollouts: score only K random legal moves per ply (0: all)", NULL},
    {"prior", MCTS_KEY_CHOICE, 0, 0, choice_prior, NULL, NULL,
     "heuristic (`preset=best` with a heuristic), else none",
     "progressive bias: a node's prior is the softmax of `score_moves` over its moves (one "
     "call per expansion); untried moves are expanded best prior first",
     NULL},
    {"prior_w", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "X", "prior=heuristic", "0.5",
     "weight of the bias added to UCB", NULL},
    {"prior_form", MCTS_KEY_CHOICE, 0, 0, choice_prior_form, NULL, "prior=heuristic", "puct",
     "bias `prior_w * prior / (visits + 1)`, or PUCT: that times sqrt(parent's visits)", NULL},
    {"cutoff", MCTS_KEY_INT, 0, 100000, NULL, "D", NULL,
     "8 (`preset=best` with a heuristic, unless `rollout=heuristic`, `mast` or `nst`), else "
     "none (full playouts)",
     "after the tree, D random moves, then the heuristic's `evaluate` gives the result (no "
     "playout to the end); `cutoff=0` evaluates the leaf; excludes `rollout=heuristic`",
     NULL},
    {"params", MCTS_KEY_FILE, 0, 0, NULL, "FILE", NULL, "built-in",
     "the heuristic's weights for heuristic rollouts, prior and evaluate; any weight may "
     "also be given as a key by its name, over the file",
     NULL},
    {"preset", MCTS_KEY_CHOICE, 0, 0, choice_preset, NULL, NULL, "best",
     "`best`: the strongest setting known for the game (with a heuristic: `prior=heuristic,"
     "cutoff=8,fpu=0.3`; without one: plain UCT); `plain`: plain UCT (random playouts, no "
     "prior, `fpu=10`); keys given override the preset",
     "`mcts:iters=2000` against `heuristic` (2 players): see docs/RESULTS.md, \"Search "
     "defaults\""},
    {"backup", MCTS_KEY_CHOICE, 0, 0, choice_backup, NULL, NULL, "maxn",
     "what a node keeps: max^n, the result of the player who moved into it; paranoid, the "
     "searcher's result at its own moves and 1 minus it at the others' (they play as one "
     "coalition against it; the same as max^n with 2 players); brs, best-reply search "
     "(BRS+): values as paranoid, but between two of the searcher's moves only one opponent, "
     "chosen in the tree, moves in it, the others play the heuristic's best move (random "
     "without a prior) outside it (the same as paranoid with 2 players)",
     NULL},
    {"cheat", MCTS_KEY_CHOICE, 0, 0, choice_bool, NULL, NULL, "0",
     "1: a reference that sees hidden information (searches the true state, no "
     "determinization), to measure what hidden information costs; `tournament` plays it "
     "only with `--allow-cheat`",
     NULL},
    {"clock", MCTS_KEY_INT, 1, 1000000000, NULL, "MS[+INC]", NULL, "none",
     "a game clock: MS milliseconds per game, INC more after each own move; each move "
     "given remaining / (expected own moves left + 2) plus INC, the moves left being 30 "
     "less those made, at least 8; excludes `time` (the range is MS's)",
     NULL},
    {"pw", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "C", NULL, "0",
     "progressive widening: a node with v visits has at most ceil(C * v^`pw_a`) children "
     "(at least 1), added best prior first (at random without a prior); 0: off",
     NULL},
    {"pw_a", MCTS_KEY_DOUBLE, 0, 1, NULL, "ALPHA", NULL, "0.5",
     "the exponent of progressive widening (only with `pw` above 0)", NULL},
    {"tree", MCTS_KEY_CHOICE, 0, 0, choice_tree, NULL, NULL, "single",
     "one tree of every player's moves for the searcher, or multi: one tree per player of "
     "its own moves only (multiple-tree IS-MCTS, below); excludes `parallel=root` and "
     "`backup=brs`, no tree reuse",
     NULL},
    {"mast_temp", MCTS_KEY_DOUBLE, 1e-6, 1e6, NULL, "X", "rollout=mast", "0.1",
     "MAST: temperature of the softmax over the moves' mean results (in [0, 1]; an unseen "
     "move counts 0.5)",
     NULL},
    {"nst_eps", MCTS_KEY_DOUBLE, 0, 1, NULL, "X", "rollout=nst", "0.1",
     "NST: share of uniformly random moves", NULL},
    {"nst_min", MCTS_KEY_INT, 1, 1000000000, NULL, "N", "rollout=nst", "7",
     "NST: n-grams of 2 or 3 moves count in a move's score once seen N times", NULL},
    {"rave", MCTS_KEY_DOUBLE, 0, 1e9, NULL, "K", NULL, "0",
     "RAVE: a child's mean is blended with its AMAF mean by beta = sqrt(K / (3 visits + K)); "
     "0: off; excludes `rollout=heuristic`",
     "see \"RAVE and GRAVE\" below"},
    {"grave", MCTS_KEY_INT, 0, 1000000000, NULL, "REF", NULL, "0",
     "GRAVE: the AMAF statistics of a move are the closest path node's with the same player "
     "to move and at least REF visits (0: the node's own); turns RAVE on (`rave=300` unless "
     "`rave` is given; `rave=0` is refused)",
     NULL},
    {"net", MCTS_KEY_FILE, 0, 0, NULL, "FILE", NULL, "none",
     "a network (docs/NETS.md) for the game and player count: a file (a value with a `/` or "
     "a `.`) or a shipped net's name (nets/), or `@evaluator` for a "
     "function given through the C API or Python (`Bot.set_evaluator`): PUCT with the policy's "
     "prior over the legal moves and the value head's values at the leaves (one evaluation "
     "per new node); sets `c=0`, `fpu=-0.1` with `fpu_rel=1` unless given; excludes "
     "`prior`, `rollout`, `rave` and `grave`",
     "see \"Networks\" below"},
    {"cpuct", MCTS_KEY_DOUBLE, 0, 1e6, NULL, "X", "net=FILE", "1",
     "PUCT constant: a child's bias is cpuct * prior * sqrt(parent visits) / (visits + 1)", NULL},
    {"value_mix", MCTS_KEY_DOUBLE, 0, 1, NULL, "L", "net=FILE", "0",
     "a leaf's value is (1 - L) times the net's plus L times a random playout's result (with "
     "`cutoff=D`: the heuristic's `evaluate` after D random moves)",
     NULL},
    {"prior_temp", MCTS_KEY_DOUBLE, 0.01, 100, NULL, "T", "net=FILE", "1",
     "the prior is the softmax of the policy's logits divided by T over the legal moves", NULL},
    {"noise", MCTS_KEY_DOUBLE, 0, 1, NULL, "EPS", NULL, "0",
     "root noise for self-play: at the root a move's prior is (1 - EPS) prior + EPS eta, eta "
     "drawn at every search from Dirichlet(`noise_alpha`) over the legal moves with the "
     "bot's seed; needs a prior (`prior=heuristic`, the best preset's with a heuristic, or "
     "`net`); 0: off",
     "see \"Self-play keys\" below"},
    {"noise_alpha", MCTS_KEY_DOUBLE, 0.001, 1000, NULL, "A", NULL,
     "10 / the legal moves at the root",
     "the Dirichlet concentration of `noise` (only with `noise` above 0)", NULL},
    {"temp_moves", MCTS_KEY_INT, 0, 1000000, NULL, "M", NULL, "0",
     "the bot's first M moves of each game are drawn in proportion to the root moves' visits "
     "(temperature 1, from the bot's seeded random numbers), the later ones chosen as "
     "`final` says",
     NULL},
};

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
    for (int i = 0; d->choices && d->choices[i]; i++)
        textbuf_printf(&t, "%s%s", i ? (markdown ? "\\|" : "|") : "", d->choices[i]);
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
    for (int k = 0; k < K_COUNT; k++) {
        const mcts_key_def_t *d = &mcts_keys[k];
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

int mcts_key_find(const char *name)
{
    for (int k = 0; k < K_COUNT; k++)
        if (!strcmp(mcts_keys[k].name, name))
            return k;
    return -1;
}

/* Reads value for key d: *iv gets an int or a choice's index, *dv a double. 0, or -1
   with err naming the key, the value and what it may be. */
int mcts_key_read(const mcts_key_def_t *d, const char *value, long *iv, double *dv, char *err,
                  size_t errlen)
{
    switch (d->type) {
    case MCTS_KEY_INT:
        return bot_spec_int(d->name, value, (long)d->lo, (long)d->hi, iv, err, errlen);
    case MCTS_KEY_DOUBLE: return bot_spec_double(d->name, value, d->lo, d->hi, dv, err, errlen);
    case MCTS_KEY_CHOICE:
        for (int i = 0; d->choices[i]; i++)
            if (!strcmp(value, d->choices[i])) {
                *iv = i;
                return 0;
            }
        int n = snprintf(err, errlen, "bad value '%s' for key '%s' (one of", value, d->name);
        for (int i = 0; d->choices[i] && n > 0 && (size_t)n < errlen; i++)
            n += snprintf(err + n, errlen - (size_t)n, "%s %s", i ? "," : "", d->choices[i]);
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
    for (int k = 0; k < K_COUNT && n > 0 && (size_t)n < errlen; k++)
        n += snprintf(err + n, errlen - (size_t)n, "%s %s", k ? "," : "", mcts_keys[k].name);
    if (n > 0 && (size_t)n < errlen)
        snprintf(err + n, errlen - (size_t)n, " and the heuristic's weights)");
}
