/*
 * A game's own options (core/options.c): key=value texts added, replaced and read back;
 * checked against each game's table (unknown keys, bad values, a game without options);
 * every registered game's option table is well formed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "tests/test.h"

static void check_list(void)
{
    game_options_t o;
    game_options_default(&o);
    char err[GAME_ERR_MAX];
    CHECK(game_options_get(&o, "board") == NULL);
    CHECK(game_options_get(NULL, "board") == NULL);
    CHECK(game_options_add(&o, "board=duo", err, sizeof err) == 0);
    CHECK(game_options_add(&o, "boardx=1", err, sizeof err) == 0);
    CHECK(!strcmp(game_options_get(&o, "board"), "duo"));
    CHECK(!strcmp(game_options_get(&o, "boardx"), "1"));
    CHECK(game_options_get(&o, "boar") == NULL);
    /* A later value replaces an earlier one in place. */
    CHECK(game_options_add(&o, "board=standard", err, sizeof err) == 0);
    CHECK_EQ_INT(o.option_count, 2);
    CHECK(!strcmp(o.option[0], "board=standard"));
    /* An empty value is a value; a text without a key is refused. */
    CHECK(game_options_add(&o, "x=", err, sizeof err) == 0);
    CHECK(!strcmp(game_options_get(&o, "x"), ""));
    CHECK(game_options_add(&o, "=duo", err, sizeof err) < 0);
    CHECK(strstr(err, "KEY=VALUE") != NULL);
    CHECK(game_options_add(&o, "duo", err, sizeof err) < 0);
    /* The list is bounded. */
    static char texts[GAME_OPTION_MAX + 1][16];
    game_options_default(&o);
    for (int i = 0; i <= GAME_OPTION_MAX; i++) {
        snprintf(texts[i], sizeof texts[i], "k%d=%d", i, i);
        CHECK_EQ_INT(game_options_add(&o, texts[i], err, sizeof err), i < GAME_OPTION_MAX ? 0 : -1);
    }
}

static void check_games(void)
{
    const game_api_t *tu = game_find("towerup"), *c4 = game_find("connect4");
    char err[GAME_ERR_MAX];
    game_options_t o;
    game_options_default(&o);
    o.players = 2;
    o.seed = 1;
    test_option(&o, "frob=1");
    CHECK(game_options_check(tu, &o, err, sizeof err) < 0);
    CHECK_MSG(!strcmp(err, "towerup has no option 'frob' (its options: board, start_floors, "
                           "setup, objectives)"),
              "%s", err);
    void *s = malloc(tu->state_size);
    CHECK(tu->new_game(s, &o, err, sizeof err) < 0); /* new_game refuses it too */
    free(s);
    static const char *const bad[][2] = {
        {"start_floors=8", "towerup option start_floors '8': needs an integer from 3 to 7"},
        {"start_floors=3x", "towerup option start_floors '3x': "},
        {"setup=maybe", "towerup option setup 'maybe': needs placed or random"},
        {"objectives=lake,lake,park", "towerup option objectives 'lake,lake,park': "},
        {"board=", "towerup option board '': needs standard, duo or a board file"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        game_options_default(&o);
        test_option(&o, "%s", bad[i][0]);
        CHECK_MSG(game_options_check(tu, &o, err, sizeof err) < 0, "%s accepted", bad[i][0]);
        CHECK_MSG(strstr(err, bad[i][1]) && !strchr(err, '\n'), "%s: %s", bad[i][0], err);
    }
    game_options_default(&o);
    test_option(&o, "start_floors=7");
    test_option(&o, "setup=placed");
    test_option(&o, "objectives=random");
    test_option(&o, "board=duo");
    CHECK_MSG(game_options_check(tu, &o, err, sizeof err) == 0, "%s", err);
    /* Connect Four has no options: any key is refused, naming that. */
    game_options_default(&o);
    o.players = 2;
    test_option(&o, "board=duo");
    CHECK(game_options_check(c4, &o, err, sizeof err) < 0);
    CHECK_MSG(!strcmp(err, "connect4 has no options (given: board=duo)"), "%s", err);
    s = malloc(c4->state_size);
    CHECK(c4->new_game(s, &o, err, sizeof err) < 0);
    CHECK(strstr(err, "connect4 has no options") != NULL);
    free(s);
}

/* Every game's table: keys unique and spelled [a-z_], help and value forms given, a value
   check for each key. */
static void check_tables(void)
{
    for (int g = 0; g < game_count(); g++) {
        const game_api_t *api = game_at(g);
        CHECK((api->options == NULL) == (api->option_count == 0));
        for (int k = 0; k < api->option_count; k++) {
            const game_option_spec_t *o = &api->options[k];
            CHECK(o->key && o->key[0] &&
                  strspn(o->key, "abcdefghijklmnopqrstuvwxyz_") == strlen(o->key));
            CHECK(o->value && o->value[0] && o->help && o->help[0]);
            for (int j = 0; j < k; j++)
                CHECK(strcmp(o->key, api->options[j].key));
        }
    }
}

int main(void)
{
    check_list();
    check_games();
    check_tables();
    return test_finish("test_game_options");
}
