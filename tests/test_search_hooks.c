/*
 * The iteration's extension points (search/hooks.h): each search idea's key fills its
 * hooks and no other idea's, the plain search fills none, and each idea changes the search
 * it is added to (the same seeded search with and without it chooses with other visit
 * counts), so an idea dropped from the registration table of search/mcts.c, or a hook the
 * worker no longer calls, fails here.
 */
#include <string.h>

#include "bots/bot.h"
#include "bots/mcts_bot.h"
#include "core/connect4/connect4.h"
#include "core/towerup/towerup.h"
#include "search/internal.h"
#include "tests/test.h"

/* The slots by name, set or not, as one letter each (- when empty): S iteration_start,
   D descent_step, C choice_made, P prepare_select, R root_prior, V child_view, T tree_move,
   O playout, B backup. */
static void slots_of(const mcts_hooks_t *h, char *out)
{
    const bool slot[] = {
        h->iteration_start != NULL, h->descent_step != NULL, h->choice_made != NULL,
        h->prepare_select != NULL,  h->root_prior != NULL,   h->child_view != NULL,
        h->tree_move != NULL,       h->playout != NULL,      h->backup != NULL};
    const char *names = "SDCPRVTOB";
    for (int k = 0; k < 9; k++)
        out[k] = slot[k] ? names[k] : '-';
    out[9] = '\0';
}

/* Every idea's keys, the slots they fill and the keys of the search it is compared with
   (Connect Four, 2 players: the searches go deep enough for a variant to show, unless the
   idea needs a prior or more players). */
static const struct {
    const char *keys;  /* the idea's keys, added to the bot's spec */
    const char *slots; /* slots_of of the searcher */
    const char *base;  /* the keys of the search without the idea */
    bool towerup;      /* searched in Tower Up with 3 players */
} ideas[] = {
    {"preset=plain", "---------", NULL, false},
    {"preset=best", "---------", NULL, true},
    {"preset=plain,rave=300", "S----VTOB", "preset=plain", false},
    {"preset=plain,grave=10", "S--P-VTOB", "preset=plain,rave=300", false},
    {"preset=plain,rollout=mast", "S-----TOB", "preset=plain", false},
    {"preset=plain,rollout=nst", "S-----TOB", "preset=plain,rollout=mast", false},
    {"preset=best,noise=0.25", "----R----", "preset=best", true},
    {"preset=plain,backup=brs", "-DC------", "preset=plain,backup=paranoid", true},
};

/* The root statistics of a one-thread search of state by the mcts bot with spec
   mcts:iters=N,KEYS (N: 3000 in Tower Up, 1000 in Connect Four): stats[] the visits by
   legal-move index, then the mean results in the same order (in millionths); the
   searcher's slots into slots. */
static void search_with(const game_api_t *api, const void *state, const char *keys, long *stats,
                        char *slots)
{
    char spec[256], err[GAME_ERR_MAX];
    snprintf(spec, sizeof spec, "mcts:iters=%d,threads=1,%s", api == &towerup_api ? 3000 : 1000,
             keys);
    bot_t *b = bot_new(api, spec, 7, err, sizeof err);
    CHECK_MSG(b != NULL, "%s: %s", spec, err);
    if (!b)
        return;
    /* The bot's own options (hooks and their contexts included) make the searcher. */
    mcts_t *m = mcts_create(api, mcts_bot_options(b), err, sizeof err);
    CHECK_MSG(m != NULL, "%s: %s", spec, err);
    if (m) {
        slots_of(&m->hooks, slots);
        mcts_stats_t st;
        mcts_search(m, state, &st);
        move_t moves[GAME_MAX_MOVES];
        int n = api->gen_moves(state, moves);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < st.root_move_count; j++)
                if (st.root_moves[j].move == moves[i]) {
                    stats[i] = st.root_moves[j].visits;
                    stats[n + i] = (long)(st.root_moves[j].mean * 1e6);
                }
        mcts_free(m);
    }
    bot_free(b);
}

static void test_ideas(void)
{
    static towerup_state_t tu;
    static c4_state_t c4;
    game_options_t o;
    game_options_default(&o);
    o.players = 3;
    o.seed = 11;
    char err[GAME_ERR_MAX];
    CHECK_MSG(towerup_api.new_game(&tu, &o, err, sizeof err) == 0, "%s", err);
    /* Past the set-up, where the players take turns. */
    static towerup_undo_t undo;
    move_t moves[GAME_MAX_MOVES];
    for (int ply = 0; ply < 24 && !towerup_api.is_terminal(&tu); ply++) {
        int n = towerup_api.gen_moves(&tu, moves);
        towerup_api.make(&tu, moves[(7 * ply) % n], &undo);
    }
    o.players = 2;
    CHECK_MSG(connect4_api.new_game(&c4, &o, err, sizeof err) == 0, "%s", err);
    for (size_t k = 0; k < sizeof ideas / sizeof *ideas; k++) {
        const game_api_t *api = ideas[k].towerup ? &towerup_api : &connect4_api;
        const void *state = ideas[k].towerup ? (const void *)&tu : (const void *)&c4;
        long with[2 * GAME_MAX_MOVES] = {0}, without[2 * GAME_MAX_MOVES] = {0};
        char slots[16] = "", base_slots[16] = "";
        search_with(api, state, ideas[k].keys, with, slots);
        CHECK_MSG(strcmp(slots, ideas[k].slots) == 0, "%s: slots %s, expected %s", ideas[k].keys,
                  slots, ideas[k].slots);
        if (!ideas[k].base)
            continue;
        search_with(api, state, ideas[k].base, without, base_slots);
        CHECK_MSG(memcmp(with, without, sizeof with) != 0,
                  "%s: the search is the one of %s (its hooks are not called?)", ideas[k].keys,
                  ideas[k].base);
    }
}

int main(void)
{
    test_ideas();
    return test_finish("test_search_hooks");
}
