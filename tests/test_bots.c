/*
 * Bots: legal moves in random positions of both games at every player count (the state
 * left untouched), whole games with tree reuse, spec errors naming what is wrong, parameter
 * files (errors with FILE:LINE, exact save/load round trip), no peeking (two states that
 * differ only in what the mover cannot see give the same move for the same bot seed),
 * heuristic clearly beating random, and the mcts bot's search statistics.
 */
#include <jansson.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "arena/match.h"
#include "bots/heuristic.h"
#include "bots/mcts_bot.h"
#include "core/record.h"
#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "tests/test.h"

/* Room for a state of either game, aligned for any field. */
typedef struct any_state {
    alignas(16) unsigned char bytes[2048]; /* the state's bytes */
} any_state_t;

static const game_api_t *const games[] = {&towerup_api, &uptown_api};
#define GAME_COUNT 2

/* Bots whose moves are checked for legality. */
static const char *const legal_specs[] = {
    "random",
    "greedy",
    "heuristic",
    "heuristic:temp=0.5",
    "mcts:iters=60",
    "mcts:iters=30,rollout=heuristic,eps=0.2",
    "mcts:iters=40,prior=heuristic,prior_w=2",
    "mcts:iters=40,prior=heuristic,prior_form=decay,fpu=-0.1,fpu_rel=1,cutoff=4",
    "mcts:iters=60,cutoff=3",
    "mcts:iters=60,cutoff=0,final=mean",
    "mcts:iters=60,threads=2,parallel=root",
    "mcts:iters=60,threads=2,reuse=0,vloss=3,c=1.2,fpu=0.5,mem=1",
    "mcts:iters=60,threads=2,sync=1",
    "mcts:iters=60,threads=2,sync=64,vloss=0",
    "mcts:iters=60,threads=2,unobs=1,unobs_below=16",
    "pimc:dets=3,iters=60,threads=2",
    NULL,
};

/* Bots that must not peek: deterministic for a seed (iteration budgets, one thread). */
static const char *const peek_specs[] = {
    "random",
    "greedy",
    "heuristic",
    "heuristic:temp=1",
    "mcts:iters=120",
    "mcts:iters=40,rollout=heuristic",
    "mcts:iters=60,prior=heuristic",
    "mcts:iters=100,cutoff=2",
    "pimc:dets=3,iters=90",
    NULL,
};

static bool is_legal(const game_api_t *api, const void *s, move_t mv)
{
    move_t moves[GAME_MAX_MOVES];
    int n = api->gen_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == mv)
            return true;
    return false;
}

/*
 * A non-terminal position of a seeded game after about plies random moves (fewer if the
 * game would end): 0, or -1 if the game cannot be made.
 */
static int random_position(const game_api_t *api, int players, uint64_t seed, int plies,
                           any_state_t *s)
{
    game_options_t o;
    game_options_default(&o);
    o.players = players;
    o.seed = seed;
    char err[GAME_ERR_MAX];
    if (api->new_game(s, &o, err, sizeof err)) {
        CHECK_MSG(false, "%s %dp: %s", api->name, players, err);
        return -1;
    }
    pcg32_t rng;
    pcg32_seed(&rng, seed, 77);
    any_state_t next;
    alignas(16) unsigned char undo[GAME_UNDO_MAX];
    move_t moves[GAME_MAX_MOVES];
    for (int k = 0; k < plies; k++) {
        api->copy(&next, s);
        int n = api->gen_moves(&next, moves);
        api->make(&next, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
        if (api->is_terminal(&next))
            break;
        api->copy(s, &next);
    }
    return 0;
}

static bot_t *make_bot(const game_api_t *api, const char *spec, uint64_t seed)
{
    char err[GAME_ERR_MAX];
    bot_t *b = bot_new(api, spec, seed, err, sizeof err);
    CHECK_MSG(b != NULL, "%s: %s", spec, err);
    return b;
}

static void test_legal_moves(void)
{
    for (int g = 0; g < GAME_COUNT; g++) {
        const game_api_t *api = games[g];
        for (int players = api->min_players; players <= api->max_players; players++) {
            for (int k = 0; k < 4; k++) {
                any_state_t s, before;
                uint64_t seed = 1000u * (uint64_t)players + (uint64_t)k;
                /* Set-up, opening, middle game, late game. */
                if (random_position(api, players, seed, k * 25, &s))
                    continue;
                api->copy(&before, &s);
                for (int i = 0; legal_specs[i]; i++) {
                    bot_t *b = make_bot(api, legal_specs[i], seed);
                    if (!b)
                        continue;
                    move_t mv = bot_choose(b, &s);
                    CHECK_MSG(is_legal(api, &s, mv), "%s %dp seed %llu: %s played %u", api->name,
                              players, (unsigned long long)seed, legal_specs[i], mv);
                    CHECK_MSG(!memcmp(&s, &before, api->state_size), "%s %dp: %s changed the state",
                              api->name, players, legal_specs[i]);
                    bot_free(b);
                }
            }
        }
    }
}

/* Whole games, every bot observing every move (mcts reuses its tree), records valid. */
static void test_whole_games(void)
{
    const char *specs[] = {"mcts:iters=40", "mcts:iters=25,prior=heuristic", "greedy",
                           "heuristic:temp=0.3", "mcts:iters=40,cutoff=2"};
    for (int g = 0; g < GAME_COUNT; g++) {
        const game_api_t *api = games[g];
        for (int players = api->min_players; players <= api->max_players;
             players += api->max_players - api->min_players) {
            bot_t *bots[GAME_MAX_PLAYERS];
            for (int s = 0; s < players; s++)
                bots[s] = make_bot(api, specs[s], (uint64_t)s);
            game_options_t o;
            game_options_default(&o);
            o.players = players;
            o.seed = 42;
            match_result_t r;
            char err[GAME_ERR_MAX];
            int rc = match_play(api, &o, bots, true, &r, err, sizeof err);
            CHECK_MSG(rc == 0, "%s %dp: %s", api->name, players, err);
            if (rc == 0) {
                char rerr[GAME_ERR_MAX];
                CHECK_MSG(record_replay(api, r.record, rerr, sizeof rerr) == 0, "%s %dp: %s",
                          api->name, players, rerr);
                json_decref(r.record);
            }
            for (int s = 0; s < players; s++)
                bot_free(bots[s]);
        }
    }
}

/* bot_new(spec) fails with a message holding every one of the needles. */
static void check_spec_error(const game_api_t *api, const char *spec, const char *needle1,
                             const char *needle2)
{
    char err[GAME_ERR_MAX] = "";
    bot_t *b = bot_new(api, spec, 1, err, sizeof err);
    CHECK_MSG(b == NULL, "%s %s: accepted", api->name, spec);
    bot_free(b);
    CHECK_MSG(strstr(err, needle1) != NULL, "%s: '%s' does not name '%s'", spec, err, needle1);
    if (needle2)
        CHECK_MSG(strstr(err, needle2) != NULL, "%s: '%s' does not name '%s'", spec, err, needle2);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK_MSG(f != NULL, "cannot write %s", path);
    if (!f)
        return;
    fputs(text, f);
    fclose(f);
}

static void test_spec_errors(void)
{
    for (int g = 0; g < GAME_COUNT; g++) {
        const game_api_t *api = games[g];
        const heuristic_t *h = heuristic_for(api);
        check_spec_error(api, "nosuch", "nosuch", NULL);
        check_spec_error(api, "random:x=1", "'x'", NULL);
        check_spec_error(api, "greedy:depth=2", "depth", NULL);
        check_spec_error(api, "greedy:params=no-such-file.params", "no-such-file.params", NULL);
        check_spec_error(api, "heuristic:temp=-1", "temp", "-1");
        check_spec_error(api, "heuristic:temp=warm", "temp", "warm");
        check_spec_error(api, "heuristic:w_bogus=1", "w_bogus", NULL);
        char spec[BOT_SPEC_TEXT_MAX];
        snprintf(spec, sizeof spec, "heuristic:%s=abc", h->params[0].name);
        check_spec_error(api, spec, h->params[0].name, "abc");
        check_spec_error(api, "mcts:iters=0", "iters", "0");
        check_spec_error(api, "mcts:iters=x", "iters", "x");
        check_spec_error(api, "mcts:time=-5", "time", "-5");
        check_spec_error(api, "mcts:threads=0", "threads", NULL);
        check_spec_error(api, "mcts:c=-1", "'c'", NULL);
        check_spec_error(api, "mcts:parallel=sideways", "parallel", "sideways");
        check_spec_error(api, "mcts:final=best", "final", "best");
        check_spec_error(api, "mcts:reuse=2", "reuse", NULL);
        check_spec_error(api, "mcts:mem=0", "mem", NULL);
        check_spec_error(api, "mcts:rollout=smart", "rollout", "smart");
        check_spec_error(api, "mcts:prior=uniform", "prior", "uniform");
        check_spec_error(api, "mcts:eps=0.2", "eps", NULL);
        check_spec_error(api, "mcts:rollout=heuristic,eps=2", "eps", "2");
        check_spec_error(api, "mcts:preset=plain,prior_w=2", "prior_w", NULL);
        check_spec_error(api, "mcts:preset=plain,prior_form=puct", "prior_form", NULL);
        check_spec_error(api, "mcts:prior=heuristic,prior_form=linear", "prior_form", "linear");
        check_spec_error(api, "mcts:fpu_rel=yes", "fpu_rel", "yes");
        check_spec_error(api, "mcts:unobs=2", "unobs", "2");
        check_spec_error(api, "mcts:unobs_below=0", "unobs_below", "0");
        check_spec_error(api, "mcts:cutoff=-1", "cutoff", NULL);
        check_spec_error(api, "mcts:cutoff=2,rollout=heuristic", "cutoff", "rollout");
        check_spec_error(api, "mcts:bogus=1", "bogus", NULL);
        check_spec_error(api, "mcts:params=no-such-file.params,prior=heuristic",
                         "no-such-file.params", NULL);
        snprintf(spec, sizeof spec, "mcts:preset=plain,%s=1", h->params[0].name);
        check_spec_error(api, spec, h->params[0].name, NULL);

        /* A bad parameter file: the bot's error has FILE:LINE and the unknown name. */
        const char *path = "test_bots_bad.params";
        char text[256];
        snprintf(text, sizeof text, "# weights\n\n%s 1.5 # fine\nw_unknown 2\n", h->params[0].name);
        write_file(path, text);
        snprintf(spec, sizeof spec, "heuristic:params=%s", path);
        check_spec_error(api, spec, "test_bots_bad.params:4:", "w_unknown");
        snprintf(spec, sizeof spec, "greedy:params=%s", path);
        check_spec_error(api, spec, "test_bots_bad.params:4:", "w_unknown");
        snprintf(spec, sizeof spec, "mcts:prior=heuristic,params=%s", path);
        check_spec_error(api, spec, "test_bots_bad.params:4:", "w_unknown");
        remove(path);

        /* Good specs of every key are accepted. */
        const char *good[] = {
            ("mcts:time=20,iters=50,threads=2,c=0.5,fpu=1,vloss=2,sync=16,parallel=tree,"
             "final=visits,mem=16,reuse=1"),
            "mcts:rollout=heuristic,eps=0.3,prior=heuristic,prior_w=0.5",
            "mcts:cutoff=5,rollout=random,prior=none",
            "mcts:prior=heuristic,prior_form=decay,fpu=-0.1,fpu_rel=1,rollout=heuristic,sample=3",
            "heuristic:temp=0",
        };
        for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
            bot_t *b = make_bot(api, good[i], 1);
            bot_free(b);
        }
        bot_t *b = make_bot(api, "mcts:threads=2,iters=10", 1);
        if (b)
            CHECK_EQ_INT(b->threads, 2);
        bot_free(b);
    }
}

/* heur_params_load of text fails with err holding FILE:LINE: and needle; w unchanged. */
static void check_load_error(const heuristic_t *h, const char *text, int line, const char *needle)
{
    const char *path = "test_bots_load.params";
    write_file(path, text);
    heur_params_t w, before;
    heur_params_default(h, &w);
    before = w;
    char err[GAME_ERR_MAX] = "", where[64];
    CHECK_MSG(heur_params_load(h, path, &w, err, sizeof err) == -1, "accepted: %s", text);
    snprintf(where, sizeof where, "%s:%d: ", path, line);
    CHECK_MSG(strstr(err, where) != NULL, "'%s' does not start with '%s'", err, where);
    CHECK_MSG(strstr(err, needle) != NULL, "'%s' does not name '%s'", err, needle);
    CHECK_MSG(!memcmp(&w, &before, sizeof w), "weights changed by a refused file");
    remove(path);
}

static void test_params_files(void)
{
    CHECK(heuristic_for(&towerup_api) == &heuristic_towerup);
    CHECK(heuristic_for(&uptown_api) == &heuristic_uptown);
    for (int g = 0; g < GAME_COUNT; g++) {
        const heuristic_t *h = heuristic_for(games[g]);
        CHECK(h != NULL && h->api == games[g]);
        if (!h)
            continue;
        CHECK(h->param_count >= 2 && h->param_count <= HEUR_MAX_PARAMS);
        const char *p0 = h->params[0].name, *p1 = h->params[1].name;
        CHECK_EQ_INT(heur_param_find(h, p1), 1);
        CHECK_EQ_INT(heur_param_find(h, "no_such_weight"), -1);
        heur_params_t w;
        heur_params_default(h, &w);
        CHECK_EQ_INT(w.count, h->param_count);
        CHECK(w.value[1] == h->params[1].value);

        char text[512];
        snprintf(text, sizeof text, "%s 1\nbogus_weight 2\n", p0);
        check_load_error(h, text, 2, "bogus_weight");
        snprintf(text, sizeof text, "# c\n%s 1.5x\n", p0);
        check_load_error(h, text, 2, "1.5x");
        snprintf(text, sizeof text, "%s nan\n", p0);
        check_load_error(h, text, 1, "nan");
        snprintf(text, sizeof text, "%s 1\n\n%s 2\n", p0, p0);
        check_load_error(h, text, 3, "twice");
        snprintf(text, sizeof text, "%s 1 2\n", p0);
        check_load_error(h, text, 1, "extra");
        snprintf(text, sizeof text, "  %s   # no value\n", p1);
        check_load_error(h, text, 1, "no value");

        /* A good file: comments, blank lines, tabs; names not given keep their values. */
        const char *path = "test_bots_good.params";
        snprintf(text, sizeof text, "# tuned\n\n\t%s\t-0.25   # comment\n%s 3e-1\n", p1, p0);
        write_file(path, text);
        char err[GAME_ERR_MAX];
        heur_params_default(h, &w);
        CHECK_MSG(heur_params_load(h, path, &w, err, sizeof err) == 0, "%s", err);
        CHECK(w.value[0] == 0.3 && w.value[1] == -0.25);
        for (int i = 2; i < h->param_count; i++)
            CHECK(w.value[i] == h->params[i].value);
        remove(path);
        CHECK(heur_params_load(h, "no/such/dir/x.params", &w, err, sizeof err) == -1);
        CHECK_MSG(strstr(err, "no/such/dir/x.params") != NULL, "%s", err);

        /* Save then load gives back exactly the same doubles. */
        heur_params_t out, in;
        heur_params_default(h, &out);
        for (int i = 0; i < h->param_count; i++)
            out.value[i] = out.value[i] * 1.37 + 0.1 * i + 1.0 / 3.0 - (i % 3 ? 1e-9 : 0.0);
        CHECK(heur_params_save(h, &out, path) == 0);
        heur_params_default(h, &in);
        CHECK_MSG(heur_params_load(h, path, &in, err, sizeof err) == 0, "%s", err);
        CHECK_EQ_INT(in.count, h->param_count);
        for (int i = 0; i < h->param_count; i++)
            CHECK_MSG(in.value[i] == out.value[i], "%s: %.17g != %.17g", h->params[i].name,
                      in.value[i], out.value[i]);
        /* The saved file also works as a bot's params=. */
        char spec[BOT_SPEC_TEXT_MAX];
        snprintf(spec, sizeof spec, "heuristic:params=%s,%s=2", path, p0);
        bot_free(make_bot(games[g], spec, 3));
        remove(path);
        CHECK(heur_params_save(h, &out, "no/such/dir/x.params") == -1);
    }
}

/*
 * Two determinizations of one position for the mover differ only in what it cannot see;
 * each bot, made twice with one seed, must play the same move in both.
 */
static void test_no_peeking(void)
{
    for (int g = 0; g < GAME_COUNT; g++) {
        const game_api_t *api = games[g];
        int differ = 0;
        for (int players = api->min_players; players <= api->max_players; players++) {
            for (int k = 0; k < 3; k++) {
                any_state_t s, a, b;
                uint64_t seed = 500u + 10u * (uint64_t)players + (uint64_t)k;
                if (random_position(api, players, seed, 8 + k * 20, &s))
                    continue;
                int me = api->to_move(&s);
                pcg32_t ra, rb;
                pcg32_seed(&ra, seed, 1);
                pcg32_seed(&rb, seed, 2);
                api->copy(&a, &s);
                api->copy(&b, &s);
                api->determinize(&a, me, &ra);
                api->determinize(&b, me, &rb);
                differ += memcmp(&a, &b, api->state_size) != 0;
                /* The search resamples every iteration: that must not depend on the
                   hidden parts either, or no search could pass the check below. */
                any_state_t a2, b2;
                pcg32_t r2a, r2b;
                pcg32_seed(&r2a, seed, 3);
                pcg32_seed(&r2b, seed, 3);
                api->copy(&a2, &a);
                api->copy(&b2, &b);
                api->determinize(&a2, me, &r2a);
                api->determinize(&b2, me, &r2b);
                CHECK_MSG(!memcmp(&a2, &b2, api->state_size),
                          "%s %dp seed %llu: %s_determinize depends on hidden information "
                          "(one rng, two different results)",
                          api->name, players, (unsigned long long)seed, api->name);
                for (int i = 0; peek_specs[i]; i++) {
                    bot_t *ba = make_bot(api, peek_specs[i], seed);
                    bot_t *bb = make_bot(api, peek_specs[i], seed);
                    if (ba && bb) {
                        move_t ma = bot_choose(ba, &a), mb = bot_choose(bb, &b);
                        CHECK_MSG(ma == mb, "%s %dp seed %llu: %s peeks (%u vs %u)", api->name,
                                  players, (unsigned long long)seed, peek_specs[i], ma, mb);
                    }
                    bot_free(ba);
                    bot_free(bb);
                }
            }
        }
        /* Otherwise the test would show nothing. */
        CHECK_MSG(differ > 0, "%s: no position with hidden information", api->name);
    }
}

/* heuristic wins at least 80% of 50 two-player games against random, in each game. */
static void test_heuristic_beats_random(void)
{
    for (int g = 0; g < GAME_COUNT; g++) {
        const game_api_t *api = games[g];
        bot_t *bots[2] = {make_bot(api, "heuristic", 1), make_bot(api, "random", 2)};
        if (!bots[0] || !bots[1])
            return;
        double sum = 0.0;
        int games_played = 50;
        for (int k = 0; k < games_played; k++) {
            game_options_t o;
            game_options_default(&o);
            o.players = 2;
            o.seed = 9000u + (uint64_t)k;
            match_result_t r;
            char err[GAME_ERR_MAX];
            if (match_play(api, &o, bots, false, &r, err, sizeof err)) {
                CHECK_MSG(false, "%s", err);
                break;
            }
            sum += r.result[0];
            json_decref(r.record);
        }
        double mean = sum / games_played;
        printf("%s: heuristic vs random, 50 games: mean result %.3f\n", api->name, mean);
        CHECK_MSG(mean >= 0.8, "%s: heuristic scored only %.3f against random", api->name, mean);
        bot_free(bots[0]);
        bot_free(bots[1]);
    }
}

/* mcts_bot_last_stats: none before a search, after a reset, or for other kinds; after a
   search, its budget and root moves (one per legal move, the chosen one among them). */
static void test_mcts_stats(void)
{
    char err[256];
    for (int g = 0; g < GAME_COUNT; g++) {
        const game_api_t *api = games[g];
        game_options_t opt;
        game_options_default(&opt);
        opt.players = 2;
        opt.seed = 31;
        any_state_t s;
        CHECK(api->new_game(s.bytes, &opt, err, sizeof err) == 0);
        move_t moves[GAME_MAX_MOVES];
        int n = api->gen_moves(s.bytes, moves);
        bot_t *h = bot_new(api, "heuristic", 1, err, sizeof err);
        CHECK(h && mcts_bot_last_stats(h) == NULL);
        bot_free(h);
        bot_t *b = bot_new(api, "mcts:iters=300,prior=heuristic,cutoff=4", 5, err, sizeof err);
        CHECK(b != NULL);
        if (!b)
            continue;
        CHECK(mcts_bot_last_stats(b) == NULL);
        move_t mv = bot_choose(b, s.bytes);
        const mcts_stats_t *st = mcts_bot_last_stats(b);
        CHECK(st != NULL);
        if (st) {
            CHECK_EQ_INT(st->root_move_count, n);
            CHECK_EQ_INT(st->iterations, n > 1 ? 300 : 0);
            CHECK(st->nodes > 1 && st->seconds >= 0.0);
            bool found = false;
            for (int i = 0; i < st->root_move_count; i++)
                found = found || st->root_moves[i].move == mv;
            CHECK(found);
        }
        bot_reset(b, 6);
        CHECK(mcts_bot_last_stats(b) == NULL);
        bot_free(b);
    }
}

/* The statistics hook: an mcts bot's searches summed through bot_stats_t without naming the
   kind (as the harness does), printed as its table; kinds without statistics add nothing
   and print nothing; the last search reached through bot_last_search. */
static void test_bot_stats(void)
{
    char err[256];
    const game_api_t *api = game_find("connect4");
    game_options_t opt;
    game_options_default(&opt);
    opt.players = 2;
    opt.seed = 3;
    any_state_t s;
    CHECK(api->new_game(s.bytes, &opt, err, sizeof err) == 0);
    bot_t *m = bot_new(api, "mcts:iters=200", 1, err, sizeof err);
    bot_t *r = bot_new(api, "random", 1, err, sizeof err);
    CHECK(m && r);
    if (!m || !r)
        return;
    bot_choose(m, s.bytes);
    CHECK(bot_last_search(m) == mcts_bot_last_stats(m) && bot_last_search(m) != NULL);
    CHECK(bot_last_search(r) == NULL);
    bot_choose(m, s.bytes);
    bot_stats_t stats[2] = {0};
    bot_stats_add(&stats[0], m);
    bot_stats_add(&stats[0], m); /* two bots of one spec: summed */
    bot_stats_add(&stats[1], r);
    CHECK(stats[0].kind == m->kind && stats[1].kind == NULL);
    mcts_bot_totals_t t;
    CHECK(mcts_bot_totals(m, &t) && t.searches == 2 && t.iterations == 400);
    const mcts_bot_totals_t *sum = (const void *)stats[0].data;
    CHECK_EQ_INT(sum->searches, 4);
    CHECK_EQ_INT(sum->iterations, 800);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    const char *labels[2] = {"m", "r"};
    bot_stats_print(out, "bot", labels, stats, 2);
    fclose(out);
    CHECK_MSG(strstr(text, "bot   searches  iterations/search") == text, "%s", text);
    CHECK_MSG(strstr(text, "\nm            4              200.0") != NULL, "%s", text);
    CHECK(!strstr(text, "\nr "));
    free(text);
    out = open_memstream(&text, &len);
    bot_stats_print(out, "bot", labels + 1, stats + 1, 1);
    fclose(out);
    CHECK_EQ_INT((int)len, 0);
    free(text);
    bot_free(m);
    bot_free(r);
}

/* The game clock: the allotments of a game that spends each in full add up to less than
   the clock over 100 own moves (past the expected 30 the reserve shrinks by a tenth a
   move), the first is clock / 32, later ones grow as the
   expected moves left fall; a game of mcts:clock=400 searches with time budgets (how much
   wall time it then spends depends on the machine's load: no timing is asserted here). */
static void test_clock(void)
{
    CHECK_EQ_INT(mcts_clock_allot(3200, 0), 100);
    CHECK_EQ_INT(mcts_clock_moves_left(0), 30);
    CHECK_EQ_INT(mcts_clock_moves_left(25), 8);
    CHECK_EQ_INT(mcts_clock_allot(0, 3), 1);
    long left = 60000, spent = 0;
    for (int k = 0; k < 100; k++) {
        long a = mcts_clock_allot(left, k);
        CHECK(a >= 1);
        if (a > left)
            break;
        spent += a;
        left -= a;
        CHECK_MSG(k > 0 || a == 60000 / 32, "first allotment %ld", a);
    }
    CHECK_MSG(spent < 60000 && left > 0, "spent %ld of 60000", spent);
    char err[GAME_ERR_MAX];
    CHECK(bot_new(&uptown_api, "mcts:clock=100,time=5", 1, err, sizeof err) == NULL &&
          strstr(err, "clock"));
    bot_t *bots[2] = {make_bot(&uptown_api, "mcts:clock=400", 1),
                      make_bot(&uptown_api, "random", 2)};
    game_options_t o;
    game_options_default(&o);
    o.players = 2;
    o.seed = 9;
    match_result_t r;
    CHECK(match_play(&uptown_api, &o, bots, true, &r, err, sizeof err) == 0);
    json_decref(r.record);
    mcts_bot_totals_t t;
    CHECK(mcts_bot_totals(bots[0], &t));
    CHECK_MSG(t.searches > 5 && t.iterations > 0, "%ld searches, %ld iterations", t.searches,
              t.iterations);
    for (int s = 0; s < 2; s++)
        bot_free(bots[s]);
}

int main(void)
{
    test_bot_stats();
    test_params_files();
    test_spec_errors();
    test_legal_moves();
    test_whole_games();
    test_no_peeking();
    test_heuristic_beats_random();
    test_mcts_stats();
    test_clock();
    return test_finish("test_bots");
}
