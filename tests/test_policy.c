/* The policy bot (bots/policy_bot.c) and networks found by name (nn/nets.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bots/bot.h"
#include "core/game.h"
#include "nn/nets.h"
#include "test.h"

#define ERRLEN 1024

static char dir[64]; /* a scratch folder of this process */

/* A random net for game/players saved as dir/name: the path in path[len]. */
static void save_net(const char *game, int players, const char *name, char *path, size_t len)
{
    char err[ERRLEN];
    nn_net_t *net = nn_net_random(game_find(game), players, 16, 1, 7, NULL, NULL, err, ERRLEN);
    CHECK_MSG(net != NULL, "%s", err);
    snprintf(path, len, "%s/%s", dir, name);
    CHECK_MSG(net && nn_net_save(net, path, err, ERRLEN) == 0, "%s", err);
    nn_net_free(net);
}

/* A new game of api for players with seed into a new state. */
static void *new_game(const game_api_t *api, int players, uint64_t seed, game_options_t *opt)
{
    char err[ERRLEN];
    game_options_default(opt);
    opt->players = players;
    opt->seed = seed;
    void *s = malloc(api->state_size);
    CHECK_MSG(api->new_game(s, opt, err, ERRLEN) == 0, "%s", err);
    return s;
}

/* The move of the highest logit, as the bot should pick it. */
static move_t argmax_move(const game_api_t *api, const char *path, const void *state)
{
    char err[ERRLEN];
    int players = api->player_count(state);
    nn_net_t *net = nn_net_load(path, api, players, err, ERRLEN);
    nn_workspace_t *ws = nn_workspace_new(net, 1);
    move_t moves[GAME_MAX_MOVES];
    int ids[GAME_MAX_MOVES], n = api->gen_moves(state, moves);
    float *obs = malloc(sizeof(float) * (size_t)api->observation_size(players));
    float logits[GAME_MAX_MOVES], values[GAME_MAX_PLAYERS];
    for (int i = 0; i < n; i++)
        ids[i] = api->move_action(state, moves[i]);
    api->observation(state, api->to_move(state), obs);
    CHECK(nn_eval(net, ws, obs, ids, n, logits, values) == 0);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (logits[i] > logits[best])
            best = i;
    free(obs);
    nn_workspace_free(ws);
    nn_net_free(net);
    return moves[best];
}

/*
 * Plays a whole game of spec in every seat: each choice is legal; the moves into played
 * (at most max), their count returned. With check_argmax, each choice is the argmax.
 */
static int play_game(const char *game, int players, const char *spec, const char *path,
                     uint64_t seed, int check_argmax, move_t *played, int max)
{
    const game_api_t *api = game_find(game);
    game_options_t opt;
    void *s = new_game(api, players, 11, &opt);
    char err[ERRLEN];
    bot_t *b = bot_new(api, spec, seed, err, ERRLEN);
    CHECK_MSG(b != NULL, "%s", err);
    if (!b) {
        free(s);
        return 0;
    }
    bot_begin(b, s, &opt, 0);
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    int count = 0, illegal = 0, not_best = 0;
    while (!api->is_terminal(s) && count < 2000) {
        move_t moves[GAME_MAX_MOVES], m = bot_choose(b, s);
        int n = api->gen_moves(s, moves), legal = 0;
        for (int i = 0; i < n; i++)
            legal |= moves[i] == m;
        illegal += !legal;
        if (check_argmax && count < 40)
            not_best += argmax_move(api, path, s) != m;
        if (count < max)
            played[count] = m;
        api->make(s, m, undo);
        count++;
    }
    CHECK_MSG(illegal == 0 && not_best == 0, "%s %dp: %d illegal, %d not the argmax", game, players,
              illegal, not_best);
    CHECK_MSG(api->is_terminal(s), "%s: the game did not end", game);
    bot_free(b);
    free(s);
    return count;
}

/* Legal argmax moves through whole games of every game; sampling is fixed by the seed. */
static void test_play(void)
{
    static const struct {
        const char *game;
        int players;
    } cases[] = {{"connect4", 2}, {"towerup", 2}, {"towerup", 3}, {"uptown", 2}, {"uptown", 4}};
    move_t a[2000], b[2000], c[2000];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[128], spec[512], name[64];
        snprintf(name, sizeof name, "%s-%dp.net", cases[k].game, cases[k].players);
        save_net(cases[k].game, cases[k].players, name, path, sizeof path);
        snprintf(spec, sizeof spec, "policy:net=%s", path);
        int n = play_game(cases[k].game, cases[k].players, spec, path, 1, 1, a, 2000);
        CHECK_MSG(n > 4, "%s: %d moves", cases[k].game, n);
        /* temp=1: the same seed, the same game; another seed, another game. */
        snprintf(spec, sizeof spec, "policy:net=%s,temp=1", path);
        int na = play_game(cases[k].game, cases[k].players, spec, path, 5, 0, a, 2000);
        int nb = play_game(cases[k].game, cases[k].players, spec, path, 5, 0, b, 2000);
        int nc = play_game(cases[k].game, cases[k].players, spec, path, 6, 0, c, 2000);
        CHECK(na == nb && !memcmp(a, b, sizeof(move_t) * (size_t)(na < 2000 ? na : 2000)));
        CHECK_MSG(na != nc || memcmp(a, c, sizeof(move_t) * (size_t)(na < 2000 ? na : 2000)),
                  "%s: seeds 5 and 6 played the same game", cases[k].game);
        remove(path);
    }
}

/* bot_new(api, spec) fails with an error holding want. */
static void expect_refusal(const char *game, const char *spec, const char *want)
{
    char err[ERRLEN] = "";
    bot_t *b = bot_new(game_find(game), spec, 1, err, ERRLEN);
    CHECK_MSG(b == NULL && strstr(err, want) && !strchr(err, '\n'),
              "spec '%s': error '%s', wanted '%s'", spec, err, want);
    bot_free(b);
}

/* Copies file from to to with the first occurrence of old replaced by new (same length). */
static void edit_file(const char *from, const char *to, const char *old, const char *new)
{
    FILE *f = fopen(from, "rb");
    static char buf[1 << 20];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    CHECK(n > 0 && n < sizeof buf && strlen(old) == strlen(new));
    char *at = NULL;
    for (size_t i = 0; !at && i + strlen(old) <= n; i++)
        if (!memcmp(buf + i, old, strlen(old)))
            at = buf + i;
    CHECK_MSG(at != NULL, "'%s' not in %s", old, from);
    if (at)
        memcpy(at, new, strlen(new));
    f = fopen(to, "wb");
    CHECK(f && fwrite(buf, 1, n, f) == n);
    if (f)
        fclose(f);
}

/* Nets for another game or observation size, bad keys, a missing net: one-line errors. */
static void test_refusals(void)
{
    char c4[128], up[128], spec[512], bad[160];
    save_net("connect4", 2, "c4.net", c4, sizeof c4);
    save_net("uptown", 3, "up.net", up, sizeof up);
    snprintf(spec, sizeof spec, "policy:net=%s", up);
    expect_refusal("connect4", spec, "__metadata__.game: the net is for uptown, not connect4");
    snprintf(bad, sizeof bad, "%s/c4-obs.net", dir);
    edit_file(c4, bad, "\"observation_size\":\"85\"", "\"observation_size\":\"86\"");
    snprintf(spec, sizeof spec, "policy:net=%s", bad);
    expect_refusal("connect4", spec, "__metadata__.observation_size: '86'");
    remove(bad);
    expect_refusal("connect4", "policy", "policy needs net=FILE|NAME");
    snprintf(spec, sizeof spec, "policy:net=%s,iters=3", c4);
    expect_refusal("connect4", spec, "unknown key 'iters'");
    snprintf(spec, sizeof spec, "policy:net=%s,temp=-1", c4);
    expect_refusal("connect4", spec, "bad value '-1' for key 'temp'");
    expect_refusal("connect4", "policy:net=no-such-net-here", "net 'no-such-net-here': no ");
    expect_refusal("connect4", "policy:net=./no-such.net", "./no-such.net: cannot open");
    expect_refusal("connect4", "policy:net=a b", "not a file path");
    /* A 3-player net in a 4-player game: harnesses are told before the game, and a bot
       asked anyway faults (it forfeits) instead of stopping the program. */
    snprintf(spec, sizeof spec, "policy:net=%s", up);
    char err[ERRLEN] = "", why[ERRLEN] = "";
    bot_t *b = bot_new(game_find("uptown"), spec, 1, err, ERRLEN);
    CHECK_MSG(b != NULL, "%s", err);
    game_options_t opt;
    void *s = new_game(game_find("uptown"), 4, 3, &opt);
    CHECK(bot_check_players(b, 4, err, ERRLEN) < 0 &&
          strstr(err, "the net is for 3 players, not 4") != NULL);
    CHECK(bot_check_players(b, 3, err, ERRLEN) == 0);
    bot_choose(b, s);
    CHECK(bot_faulted(b, why, sizeof why) && strstr(why, "the net is for 3 players, not 4"));
    free(s);
    bot_free(b);
    remove(c4);
    remove(up);
}

/* Names: $SKYLINE_NETS's folders in order, then the built-in ones; paths as they are. */
static void test_find(void)
{
    char a[128], b[128], path[4096], err[ERRLEN], p1[256], p2[256];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    CHECK(mkdir(a, 0700) == 0 && mkdir(b, 0700) == 0);
    char env[300];
    snprintf(env, sizeof env, "%s::%s", a, b);
    setenv("SKYLINE_NETS", env, 1);
    char dirs[NN_DIRS_MAX][4096];
    int n = nn_net_dirs(dirs, NN_DIRS_MAX);
    CHECK(n >= 2 && !strcmp(dirs[0], a) && !strcmp(dirs[1], b));
    save_net("connect4", 2, "b/tiny-c4.safetensors", p2, sizeof p2);
    CHECK(nn_net_find("tiny-c4", path, sizeof path, err, ERRLEN) == 0 && !strcmp(path, p2));
    save_net("towerup", 2, "a/tiny-c4.safetensors", p1, sizeof p1);
    CHECK(nn_net_find("tiny-c4", path, sizeof path, err, ERRLEN) == 0 && !strcmp(path, p1));
    /* The first folder's net is for Tower Up: a Connect Four bot says so. */
    expect_refusal("connect4", "policy:net=tiny-c4", "the net is for towerup, not connect4");
    remove(p1);
    nn_net_t *net = nn_net_open("tiny-c4", game_find("connect4"), 2, err, ERRLEN);
    CHECK_MSG(net != NULL, "%s", err);
    nn_net_free(net);
    move_t moves[100];
    CHECK(play_game("connect4", 2, "policy:net=tiny-c4", p2, 1, 1, moves, 100) > 4);
    CHECK(nn_net_find("x/y", path, sizeof path, err, ERRLEN) == 0 && !strcmp(path, "x/y"));
    CHECK(nn_net_find("y.net", path, sizeof path, err, ERRLEN) == 0 && !strcmp(path, "y.net"));
    CHECK(nn_net_find("nope", path, sizeof path, err, ERRLEN) == -1 && strstr(err, a) &&
          strstr(err, b) && strstr(err, "nope.safetensors"));
    CHECK(nn_net_find("", path, sizeof path, err, ERRLEN) == -1);
    remove(p2);
    rmdir(a);
    rmdir(b);
    unsetenv("SKYLINE_NETS");
}

int main(void)
{
    snprintf(dir, sizeof dir, "test_policy_%ld", (long)getpid());
    CHECK(mkdir(dir, 0700) == 0);
    test_play();
    test_refusals();
    test_find();
    rmdir(dir);
    return test_finish("test_policy");
}
