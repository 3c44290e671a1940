/*
 * Multiple-tree IS-MCTS (option tree multi, search/mcts.h): one tree per player, each
 * holding only that player's own moves, as in Cowling, Powley and Whitehouse 2012
 * (MO-ISMCTS) with the opponents' moves left out of a player's tree as in TAG's
 * "MultiTree". A node of player p's tree is the information set of p's next decision after
 * p's moves that lead to it: whatever the other players and chance did in between, the
 * descent goes on from it, keeping to the children whose moves are legal now.
 *
 * One iteration: the state is determinized for the observer (as with the single tree);
 * each player has a cursor at its tree's root. When player p is to move and its cursor is
 * still in its tree, p chooses among the cursor's children (the single tree's selection
 * code: UCB over availability, fpu, prior, virtual loss) or expands one new node; after an
 * expansion (at most one a tree an iteration) or when nothing could be chosen, p has left
 * its tree and its further moves in the iteration are uniformly random. Once every player
 * has left its tree (or the game ended, or the path is MCTS_MAX_DEPTH nodes long), the
 * iteration is finished as with the single tree (rollout, or cut-off and evaluate). Each
 * node passed keeps the backup rule's value for its owner (max^n: the owner's result;
 * paranoid: the observer's result in its own tree, 1 minus it in the others', the
 * others playing as one coalition against it); each root counts a visit.
 *
 * The trees share the arena, the per-thread counts and their publication with the single
 * tree (search/worker.c, search/tree.c), so tree parallelism is the same machinery: the
 * iteration is made of the worker's steps (mcts_steps_t: selection and expansion, a pass of
 * a node, the playout), which it is given, and mcts.c makes it the searcher's iteration.
 */
#include <stddef.h>
#include <math.h>

#include "search/backup.h"
#include "search/internal.h"
#include "search/keys.h"

/* Adds node i, passed by `owner`'s walk down its tree (-1: a root), to th's path. */
static void path_push(mcts_t *m, mcts_thread_t *th, const mcts_steps_t *steps, uint32_t i,
                      int owner, bool vl)
{
    steps->on_pass(m, th, i, vl);
    th->path[th->path_len] = i;
    th->path_player[th->path_len] = (int8_t)owner;
    th->path_len++;
}

void mcts_multi_iteration(mcts_t *m, mcts_thread_t *th, const void *root_state, int observer,
                          int vl, const mcts_steps_t *steps)
{
    const game_api_t *api = m->api;
    void *s = th->state;
    api->copy(s, root_state);
    if (api->determinize && !m->opt.cheat)
        api->determinize(s, observer, &th->rng);
    int players = m->players;
    uint32_t cursor[GAME_MAX_PLAYERS]; /* each player's node in its tree, 0: it has left */
    int depth[GAME_MAX_PLAYERS];       /* nodes below its root on its path */
    int inside = players;              /* players still in their trees */
    th->path_len = 0;
    for (int p = 0; p < players; p++) {
        cursor[p] = m->roots[p];
        depth[p] = 0;
        path_push(m, th, steps, cursor[p], -1, false);
    }
    while (inside > 0 && th->path_len <= MCTS_MAX_DEPTH) {
        int n = api->gen_moves(s, th->moves);
        if (n == 0)
            break;
        int p = api->to_move(s);
        move_t mv = 0;
        uint32_t child = 0;
        if (p >= 0 && p < players && cursor[p] != 0) {
            bool expanded = false;
            child = steps->on_select(m, th, cursor[p], n, p, vl, &mv, &expanded);
            if (child != 0) {
                path_push(m, th, steps, child, p, vl != 0);
                depth[p]++;
            }
            cursor[p] = expanded ? 0 : child;
            if (cursor[p] == 0)
                inside--;
        }
        if (child == 0)
            mv = th->moves[pcg32_bounded(&th->rng, (uint32_t)n)];
        api->make(s, mv, th->undo);
    }
    for (int p = 0; p < players; p++)
        if (depth[p] > th->max_depth)
            th->max_depth = depth[p];

    steps->on_playout(m, th);

    /* Back up into th's pending counts (every path node is held, so its entry current). */
    for (int i = 0; i < th->path_len; i++) {
        mcts_local_t *e = &th->local[th->path[i]];
        e->pend_visits++;
        if (th->path_player[i] < 0)
            continue;
        double v = mcts_backup_value(m->opt.backup, th->values, th->path_player[i], observer);
        v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
        e->pend_sum += (int64_t)llround(v * MCTS_VALUE_ONE);
    }
    for (int p = 0; p < players; p++)
        th->root_sum[p] += th->values[p];
    th->iterations++;
}

static const mcts_key_choice_t choice_tree[] = {
    {"single", MCTS_TREE_SINGLE}, {"multi", MCTS_TREE_MULTI}, {NULL, 0}};

/* The key of the multiple-tree search (search/keys.h). */
const mcts_key_def_t mcts_multi_keys[] = {
    {"tree", MCTS_KEY_CHOICE, 0, 0, choice_tree, NULL, NULL, "single",
     "one tree of every player's moves for the searcher, or multi: one tree per player of "
     "its own moves only (multiple-tree IS-MCTS, below); excludes `parallel=root` and "
     "`backup=brs`, no tree reuse",
     NULL, MCTS_STORE_ENUM, offsetof(mcts_options_t, tree)},
    {0},
};
