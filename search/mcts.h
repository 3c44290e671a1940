#pragma once
/*
 * Game-agnostic parallel Monte Carlo tree search over game_api_t.
 *
 * Information-set MCTS with one observer (the player to move at the root, "the searcher"):
 * every iteration starts from a copy of the state that api->determinize resamples for the
 * searcher with the iteration's rng, so hidden parts of the given state are never read.
 * The tree is keyed by moves; a child's availability count (how often its move was legal
 * when its parent was visited) replaces the parent's visits in UCB. Each node keeps the mean
 * result (api->result, RULES 1.10) of the player who made the move into it (max^n; option
 * backup: paranoid keeps the observer's result, 1 minus it at other players' moves, and
 * best-reply search also lets only one opponent move in the tree, search/brs.h), so 2
 * to 5 players work alike, and players need not alternate (api->to_move is always asked).
 *
 * Parallel with OpenMP: tree mode (one shared tree, C11 atomics, virtual loss) or root mode
 * (one tree per thread, root statistics summed). One thread with an iteration budget and a
 * fixed seed is fully deterministic. In tree mode each thread counts availability in its
 * own memory and scores a child with its own count over its share of the parent's selects
 * (search/internal.h), so the shared nodes carry only what every thread must see.
 *
 * Delayed publication (option sync): a thread backs its results up into its own pending
 * counts and adds them to the shared nodes every `sync` iterations, each node once; it
 * scores with the shared counts plus its own pending ones, so it sees all of its own
 * results at once and the other threads' at most a batch late. Its virtual loss on a node
 * (option virtual_loss, none by default) lasts from its first pass in the batch to the
 * publication. With `unobserved` (off by default) a pass of a node with fewer than
 * `unobserved_below` (64) published visits is also counted at once in the node's slot of
 * its thread until its result is published: a thread adds the other threads' unpublished
 * passes to a child's visits and to its parent's in the UCB exploration term, so it
 * explores where the others have not just gone, without the false losses of a virtual loss
 * (Liu et al., "Watch the Unobserved", ICLR 2020). It wins back what two threads lose per
 * iteration, but each count is a write to a line the other core reads, and at equal time
 * it chose no better than without: off by default (measurements: docs/PARALLEL.md).
 * The root and the nodes just below it are passed by nearly every iteration of every
 * thread: writing them once a batch instead of on every iteration is what stops their
 * cache lines moving between the cores all the time (bench/BENCH.md). With one thread the
 * search is the same for any sync.
 *
 * ThreadSanitizer builds: search/worker.c defines __tsan_default_suppressions (only when built
 * with -fsanitize=thread) to hide reports that come from the OpenMP runtime's own, unseen
 * synchronisation; everything the search shares is synchronised in ways TSan can see.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "core/rng.h"

/* Returned by mcts_search when the state has no legal move (terminal). */
#define MCTS_NO_MOVE ((move_t)0xffffffffu)

typedef enum mcts_parallel {
    MCTS_PARALLEL_TREE = 0, /* all threads grow one shared tree */
    MCTS_PARALLEL_ROOT = 1  /* each thread grows its own tree; root statistics are summed */
} mcts_parallel_t;

typedef enum mcts_prior_form {
    MCTS_PRIOR_DECAY = 0, /* progressive bias: weight * prior / (visits + 1) */
    MCTS_PRIOR_PUCT = 1   /* weight * prior * sqrt(parent visits) / (visits + 1), as in PUCT */
} mcts_prior_form_t;

/* What a node keeps of an iteration's result (search/backup.h). */
typedef enum mcts_backup {
    MCTS_BACKUP_MAXN = 0,     /* the result of the player who moved into the node (max^n) */
    MCTS_BACKUP_PARANOID = 1, /* the observer's result at its moves, 1 minus it at the other
                                players' (they are one coalition against it) */
    MCTS_BACKUP_BRS = 2       /* best-reply search (BRS+, search/brs.h): values as paranoid,
                                 but between two of the observer's moves only the opponent
                                 chosen in the tree moves there, the others play a default
                                 policy (best prior, else random) outside it; with 2 players
                                 the same as paranoid */
} mcts_backup_t;

/*
 * Which trees the search grows (option tree). Single: one tree for the observer, holding
 * every player's moves (the default). Multi: multiple-tree IS-MCTS (Cowling, Powley and
 * Whitehouse 2012; TAG's "MultiTree"), one tree per player holding only that player's
 * own moves: a player's node is the information set of its next decision, which the
 * other players' moves and chance lead to without branching its tree. In an iteration
 * every player walks down its own tree while it is to move (UCB over availability, as
 * in the single tree) until it expands a node, then plays random moves; once every
 * player has left its tree the iteration is finished as usual (rollout, or cut-off and
 * evaluate), and each tree's path nodes keep their owner's value of the result (the
 * backup rule applied to the owner). The move is chosen from the observer's tree.
 * In the Skyline games every move is public, so a tree branching on every player's
 * moves would be the single tree; keeping only its own moves, a player's tree
 * reaches deeper into its own plans at the price of not telling apart what the others
 * did. Tree parallelism only (refused with root parallelism), refused with backup brs (a
 * shape of the single tree); no tree reuse.
 */
typedef enum mcts_tree {
    MCTS_TREE_SINGLE = 0, /* one tree of every player's moves, for the observer */
    MCTS_TREE_MULTI = 1   /* one tree per player of its own moves (search/multi.c) */
} mcts_tree_t;
/* How the search picks playout moves itself, when it records them (search/rollout_mast.c). */
typedef enum mcts_playout {
    MCTS_PLAYOUT_HOOK = 0, /* the rollout hook, else api->playout, else random moves (with
                              rave_k > 0: random moves, played and recorded by the search) */
    MCTS_PLAYOUT_MAST = 1, /* MAST: a softmax over the mean result of each (player, move) */
    MCTS_PLAYOUT_NST = 2   /* NST: epsilon-greedy on the means of the move's n-grams */
} mcts_playout_t;

typedef enum mcts_final {
    MCTS_FINAL_VISITS = 0, /* play the root move with most visits (ties: better mean) */
    MCTS_FINAL_MEAN = 1    /* play the root move with the best mean among well-visited ones */
} mcts_final_t;

/* Plays the state (a determinization) to the end of the game. */
typedef void (*mcts_rollout_fn)(const game_api_t *api, void *state, pcg32_t *rng, void *ctx);
/* Prior belief in [0, 1] that each move is good for the player to move in state: fills
   priors[i] for moves[i], the n legal moves of state (in the order of api->gen_moves).
   Called from the worker threads once each time a node of the tree is expanded (the
   untried move with the best prior is added), so a prior that scores all moves at once
   (a softmax, say) costs one scoring per expansion. */
typedef void (*mcts_prior_fn)(const game_api_t *api, const void *state, const move_t *moves, int n,
                              double *priors, void *ctx);
/* What a search has found so far (mcts_options_t.progress, mcts_set_progress). */
struct mcts_stats;
typedef bool (*mcts_progress_fn)(const struct mcts_stats *so_far, void *ctx);
/* Estimated result per player, each in [0, 1], of a non-terminal state. */
typedef void (*mcts_evaluate_fn)(const game_api_t *api, const void *state, double *values,
                                 void *ctx);

typedef struct mcts_options {
    long iterations;          /* iteration budget; 0: unused (then time_ms must be set) */
    long time_ms;             /* time budget in milliseconds; 0: unused */
    int threads;              /* worker threads, >= 1 */
    double c;                 /* UCB exploration constant (results are in [0, 1]) */
    double fpu;               /* first-play urgency: score of a not yet tried move (with a
                                 prior, plus the bias of the best prior left untried) */
    bool fpu_relative;        /* fpu is added to the mover's mean over the node's tried
                                 moves (e.g. -0.1) instead of being the score itself */
    int virtual_loss;         /* losses added per thread inside a node (tree mode), >= 0 */
    bool unobserved;          /* tree mode with several threads: the passes of the other
                                 threads whose results this thread cannot see yet count as
                                 visits in the exploration term (not in the mean), as in
                                 WU-UCT; see below */
    int unobserved_below;     /* only passes of nodes with fewer published visits than this
                                 are counted, >= 1 (the default 64; a large value counts
                                 every pass) */
    int sync;                 /* iterations a thread runs before it publishes its results
                                 to the shared counters, 1 to 64; 0: 64 in tree mode with
                                 several threads, else 1 (see below) */
    mcts_parallel_t parallel; /* tree or root parallelism */
    mcts_final_t final;       /* how the move to play is chosen */
    mcts_backup_t backup;     /* what the nodes keep of the results (max^n, paranoid, and
                                 best-reply search, which also shapes the tree) */
    double pw;                /* progressive widening (Coulom 2007; progressive unpruning,
                                 Chaslot et al. 2008): a node with v visits, this one
                                 counted, has at most max(1, ceil(pw * v^pw_alpha))
                                 children whose moves are legal in the iteration's
                                 determinization; past that, the descent chooses among
                                 them only. Below it an untried move is expanded as
                                 without (fpu decides), best prior first with a prior
                                 hook, else at random. Under hidden information a node may
                                 hold more children in all, of moves legal in other
                                 determinizations. 0: off */
    double pw_alpha;          /* exponent of the widening, in [0, 1] */
    mcts_tree_t tree;         /* one tree, or one per player of its own moves (above) */
    bool cheat;               /* a reference that sees hidden information: iterations
                                 search the given state itself, not determinizations */
    size_t memory_bytes;      /* cap on the node arena(s), in bytes */
    bool reuse;               /* keep the subtree of the moves told by mcts_advance
                                 (tree mode with tree single only: root mode and
                                 tree multi always start afresh) */
    uint64_t seed;            /* fixes all randomness of a single-thread search */

    mcts_rollout_fn rollout;      /* NULL: api->playout */
    void *rollout_ctx;            /* passed to rollout */
    mcts_prior_fn prior;          /* NULL: no progressive bias */
    void *prior_ctx;              /* passed to prior */
    double prior_weight;          /* bias weight (see prior_form) */
    mcts_prior_form_t prior_form; /* how the prior's bias shrinks with visits */
    int cutoff_depth;             /* with evaluate: random moves played past the leaf first */
    mcts_evaluate_fn evaluate;    /* NULL: rollouts go to the end of the game */
    void *evaluate_ctx;           /* passed to evaluate */

    /* Variants that record every move of an iteration (tree part and playout; with
       evaluate, the cutoff moves): the search then plays the playout move by move itself,
       so they exclude the rollout hook (search/amaf.h). */
    mcts_playout_t playout; /* how playout (and cutoff) moves are chosen: MAST and NST keep a
                               table per thread, emptied at the start of every search */
    double mast_temp;       /* MAST: temperature of the softmax over the means in [0, 1],
                               > 0 (default 0.1; an unseen move counts 0.5) */
    double nst_eps;         /* NST: share of uniformly random moves, in [0, 1] (default 0.1) */
    int nst_min;            /* NST: n-grams of 2 and 3 moves seen fewer times than this are
                               left out of a move's score, >= 1 (default 7) */
    double rave_k;          /* RAVE: equivalence parameter K, a child's mean blended with its
                               AMAF mean by beta = sqrt(K / (3 visits + K)); 0: off */
    int grave_ref;          /* GRAVE (with rave_k > 0): the AMAF statistics of a move are
                               those of the closest node on the path with the same player
                               to move and at least this many visits; 0: the node's own */
    /* Root noise for self-play (search/noise.h): at the root, a move's prior is
       (1 - root_noise) prior + root_noise eta, eta drawn at every search from
       Dirichlet(root_noise_alpha) over the root's legal moves with the search's seed. */
    double root_noise;       /* share of the noise in [0, 1]; needs a prior hook; 0: off */
    double root_noise_alpha; /* its concentration, > 0; 0: 10 / the root's legal moves */

    /* A live view of a running search (the analyse page of skyline serve): progress, if
       set, is called by the search's first thread after every progress_every (>= 1) of
       its own iterations, with the root moves' statistics published so far, most visits
       first (root_moves, valid during the call), iterations their visits summed and
       seconds since the search began; the other fields are 0. It returns true to go on,
       false to end the search at once (as a spent budget does). It only reads the tree,
       so a search it lets run is the same as without it; it must not call the searcher. */
    mcts_progress_fn progress;
    void *progress_ctx;
    long progress_every;
} mcts_options_t;

/* Statistics of one root move. */
typedef struct mcts_move_stat {
    move_t move; /* the root move */
    long visits; /* iterations through it (summed over trees in root mode) */
    double mean; /* mean result of the searcher after it, in [0, 1]; 0 if not visited */
} mcts_move_stat_t;

typedef struct mcts_stats {
    long iterations;        /* iterations run by this search */
    long nodes;             /* nodes in the arena(s) at the end (reused ones included) */
    int max_depth;          /* deepest tree node reached, in moves below the root (tree
                               multi: in its owner's moves, deepest of the trees) */
    long unobserved_passes; /* node passes counted as unobserved for the other threads
                               (options unobserved and unobserved_below), all threads */
    double seconds;         /* wall time of the search */
    bool memory_capped;     /* the arena filled up: expansion stopped, rollouts went on */
    bool reused;            /* the search started from a subtree kept by mcts_advance */
    long reused_visits;     /* visits the root had when the search started */
    int root_move_count;    /* entries of root_moves: the legal moves of the root */
    /* Mean result per player (absolute seats) of this search's iterations: the results of
       their playouts or cutoff evaluations, RULES.md 1.10; all 0 without a search. */
    double root_value[GAME_MAX_PLAYERS];
    /* Per legal root move, most visits first; owned by the searcher, valid until its next
       call. */
    const mcts_move_stat_t *root_moves;
} mcts_stats_t;

typedef struct mcts mcts_t;

/* Defaults: every key row's default that is a value (search/keys.h: 1 thread, c 0.7, the
   PUCT form at prior weight 0.5, 256 MiB, reuse on, variants off, ...; `skyline play
   --help` lists them), and 10000 iterations, fpu 10 absolute (every move tried once first),
   seed 1, no hooks. The PUCT form at 0.5 against the progressive bias at 1 (with the
   heuristic prior, cutoff 8 + evaluate and fpu 0.3; 2 players, 3000 iterations, mean result
   against the heuristic bot): Tower Up 0.97 +- 0.05 vs 0.87 +- 0.09 (60 games each), Uptown
   0.87 +- 0.12 (27 games) vs 0.60 +- 0.21 (21). */
void mcts_options_default(mcts_options_t *opt);

/*
 * A new searcher for api, or NULL if opt is invalid or memory is short. The arena takes at
 * most opt->memory_bytes, counting 88 bytes per node (64 for the node, 24 of child links)
 * plus 24 per node and thread (a tiny cap is raised to a few nodes per thread). The search
 * uses api's copy, gen_moves, make, is_terminal, to_move, player_count, result, determinize
 * (NULL: nothing is hidden) and playout (NULL: uniformly random moves by gen_moves/make).
 */
mcts_t *mcts_new(const game_api_t *api, const mcts_options_t *opt);
/* The same, with err (if not NULL) one line saying why when it returns NULL: options out
   of range or excluding each other, or memory short. */
mcts_t *mcts_create(const game_api_t *api, const mcts_options_t *opt, char *err, size_t errlen);

/*
 * Searches state for api->to_move(state) and returns the move to play (MCTS_NO_MOVE if the
 * state is terminal). A single legal move is returned without searching. stats may be NULL.
 * With reuse on, the tree of the previous search is kept if state is that search's state
 * followed by the moves given to mcts_advance since, with the same player to move at the
 * root as before; the caller must call mcts_reset if it is not (a mismatch that shows in
 * the root's legal moves is detected and the tree dropped, but not every mismatch can be).
 */
move_t mcts_search(mcts_t *m, const void *state, mcts_stats_t *stats);

/* Sets the time budget of the next searches to time_ms (> 0; 0: none, only with an
   iteration budget; else nothing changes). */
void mcts_set_time(mcts_t *m, long time_ms);

/* Sets the progress hook of the next searches (see mcts_options_t.progress; fn NULL: none;
   every < 1 counts as 1). */
void mcts_set_progress(mcts_t *m, mcts_progress_fn fn, void *ctx, long every);

/* Tells the searcher that move mv was played (from its last searched state onwards). */
void mcts_advance(mcts_t *m, move_t mv);

/* Forgets the tree. */
void mcts_reset(mcts_t *m);

void mcts_free(mcts_t *m);

/* The number (0 to threads - 1) of the search thread that calls, for hooks that keep
   scratch per thread (a prior or evaluate hook of a tree-parallel search); 0 outside a
   search. */
int mcts_thread_index(void);

/*
 * Checks every tree after a search (for tests and debug builds): no virtual loss or busy
 * flag left, sums within [0, visits], availabilities >= visits, children visited at most as
 * often as their parent, one child per move, every allocated node in a tree, and with tree
 * multi only its owner's moves in a player's tree. 0, or -1 with err filled. Not to be
 * called while a search runs.
 */
int mcts_check(const mcts_t *m, char *err, size_t errlen);
