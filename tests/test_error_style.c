/*
 * The one error style of core (core/input.h, input_fail): every game's readers of user
 * input (position text, move text, its own options, the players of a new game) refuse bad
 * input with one line "FIELD 'INPUT': WHAT" that names the field at fault and quotes the
 * text given for it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/input.h"
#include "tests/test.h"

/* A text no field or move of any game takes. */
#define GARBAGE "x!"

/*
 * err is one line "FIELD 'SHOWN': WHAT", FIELD lower-case words (letters, digits, '_' and
 * single spaces), SHOWN the escaped input, WHAT not empty; field NULL: any such field.
 */
static int styled(const char *err, const char *field, const char *input)
{
    char shown[INPUT_EXCERPT_MAX], want[GAME_ERR_MAX];
    input_escape(input, shown, sizeof shown);
    snprintf(want, sizeof want, " '%s': ", shown);
    const char *at = strstr(err, want);
    if (!at || at == err || strchr(err, '\n') || !at[strlen(want)])
        return 0;
    for (const char *p = err; p < at; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' ||
              (*p == ' ' && p > err && p[-1] != ' ')))
            return 0;
    return !field || ((size_t)(at - err) == strlen(field) && !strncmp(err, field, strlen(field)));
}

static void *new_state(const game_api_t *api, int players)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = players;
    opt.seed = 7;
    char err[GAME_ERR_MAX];
    void *s = malloc(api->state_size);
    CHECK_MSG(api->new_game(s, &opt, err, sizeof err) == 0, "%s: %s", api->name, err);
    return s;
}

/* Each field of a position text (the game's name aside) replaced by garbage. */
static void position_fields(const game_api_t *api, const void *state)
{
    if (!api->position_write)
        return;
    char text[GAME_POSITION_MAX], copy[GAME_POSITION_MAX], bad[GAME_POSITION_MAX];
    char err[GAME_ERR_MAX], *f[32];
    api->position_write(state, -1, text, sizeof text);
    snprintf(copy, sizeof copy, "%s", text);
    int n = game_position_split(copy, f, 32, err, sizeof err);
    CHECK_MSG(n > 1, "%s: %s", api->name, text);
    for (int i = 1; i < n; i++) {
        bad[0] = '\0';
        for (int k = 0; k < n; k++)
            snprintf(bad + strlen(bad), sizeof bad - strlen(bad), "%s%s", k ? " " : "",
                     k == i ? GARBAGE : f[k]);
        void *t = game_position_read(bad, NULL, 1, NULL, NULL, err, sizeof err);
        CHECK_MSG(t == NULL, "%s field %d: accepted %s", api->name, i, bad);
        free(t);
        CHECK_MSG(styled(err, NULL, GARBAGE), "%s field %d: '%s'", api->name, i, err);
    }
}

/* Garbage move text, and a move of the first position once the game is over. */
static void move_texts(const game_api_t *api, void *state)
{
    char err[GAME_ERR_MAX], first[GAME_MOVE_TEXT_MAX];
    move_t moves[GAME_MAX_MOVES], m;
    CHECK(api->move_from_text(state, GARBAGE, &m, err, sizeof err) < 0);
    CHECK_MSG(styled(err, "move", GARBAGE), "%s: '%s'", api->name, err);
    CHECK(api->gen_moves(state, moves) > 0);
    api->move_to_text(state, moves[0], first);
    pcg32_t rng;
    pcg32_seed(&rng, 11, 1);
    api->playout(state, &rng);
    CHECK(api->move_from_text(state, first, &m, err, sizeof err) < 0);
    CHECK_MSG(styled(err, "move", first), "%s after the end, %s: '%s'", api->name, first, err);
}

/* Each option of the game with a value it refuses. */
static void options(const game_api_t *api)
{
    static const char *const values[] = {GARBAGE, ""};
    for (int i = 0; i < api->option_count; i++)
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            game_options_t opt;
            game_options_default(&opt);
            test_option(&opt, "%s=%s", api->options[i].key, values[v]);
            char err[GAME_ERR_MAX], field[64];
            if (game_options_check(api, &opt, err, sizeof err) == 0)
                continue;
            snprintf(field, sizeof field, "%s option %s", api->name, api->options[i].key);
            CHECK_MSG(styled(err, field, values[v]), "%s: '%s'", api->name, err);
        }
}

/* A new game with too many players, or a first player who is not one. */
static void new_games(const game_api_t *api)
{
    char err[GAME_ERR_MAX], given[16];
    void *s = malloc(api->state_size);
    game_options_t opt;
    game_options_default(&opt);
    opt.players = api->max_players + 4;
    CHECK(api->new_game(s, &opt, err, sizeof err) < 0);
    snprintf(given, sizeof given, "%d", opt.players);
    CHECK_MSG(styled(err, "players", given), "%s: '%s'", api->name, err);
    opt.players = api->min_players;
    opt.first_player = api->max_players + 2;
    CHECK(api->new_game(s, &opt, err, sizeof err) < 0);
    snprintf(given, sizeof given, "%d", opt.first_player);
    CHECK_MSG(styled(err, "first_player", given), "%s: '%s'", api->name, err);
    free(s);
}

int main(void)
{
    /* The checker itself. */
    CHECK(styled("move 'x!': illegal", "move", "x!"));
    CHECK(styled("player 0 'x!': bad", NULL, "x!"));
    CHECK(!styled("move: 'x!' is bad", NULL, "x!"));
    CHECK(!styled("Move 'x!': bad", NULL, "x!"));
    CHECK(!styled("move 'x!': ", NULL, "x!"));
    CHECK(!styled("move 'x!': a\nb", NULL, "x!"));
    CHECK(!styled("board 'x!': bad", "move", "x!"));
    for (int g = 0; g < game_count(); g++) {
        const game_api_t *api = game_at(g);
        void *s = new_state(api, api->min_players);
        position_fields(api, s);
        move_texts(api, s);
        free(s);
        options(api);
        new_games(api);
    }
    return test_finish("test_error_style");
}
