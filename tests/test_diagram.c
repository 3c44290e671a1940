/*
 * The parts of the game table that `skyline show` draws with, over random games of every
 * registered game and player count: diagrams are never cut short, plain ASCII with
 * GAME_TEXT_ASCII, without escapes unless asked for colour; a diagram as a player sees it
 * does not change when everything that player cannot see is resampled (so it shows nothing
 * hidden), while the full view does show hidden things; every legal move has a short ASCII
 * description (and, where the game offers a two-step choice, a short group and way that
 * no two moves share); record_position gives back the game's position at every ply.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/record.h"
#include "tests/test.h"

static bool is_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 128)
            return false;
    return true;
}

/* The diagram of s into buf (GAME_DIAGRAM_MAX bytes) after the checks every diagram gets. */
static void diagram_checked(const game_api_t *api, const void *s, int observer, unsigned flags,
                            char *buf)
{
    api->diagram(s, observer, flags, buf, GAME_DIAGRAM_MAX);
    size_t len = strlen(buf);
    CHECK_MSG(len > 0 && len < GAME_DIAGRAM_MAX - 1 && buf[len - 1] == '\n',
              "%s: diagram of %zu bytes", api->name, len);
    if (flags & GAME_TEXT_ASCII)
        CHECK_MSG(is_ascii(buf), "%s: ASCII diagram with other bytes", api->name);
    if (!(flags & GAME_TEXT_COLOUR))
        CHECK_MSG(!strchr(buf, '\033'), "%s: escapes without colour", api->name);
    else
        CHECK_MSG(strchr(buf, '\033') != NULL, "%s: no escapes with colour", api->name);
}

/* Every legal move of s described: non-empty, short, ASCII; s unchanged. */
static void describe_checked(const game_api_t *api, const void *s, const move_t *moves, int n)
{
    unsigned char *copy = malloc(api->state_size);
    memcpy(copy, s, api->state_size);
    for (int i = 0; i < n; i += 1 + n / 40) {
        char what[GAME_DESCRIBE_MAX];
        api->move_describe(s, moves[i], what, sizeof what);
        size_t len = strlen(what);
        CHECK_MSG(len > 0 && len < sizeof what - 1 && is_ascii(what), "%s: '%s'", api->name, what);
        if (api->move_group) {
            char group[GAME_DESCRIBE_MAX], way[GAME_DESCRIBE_MAX];
            api->move_group(s, moves[i], group, way, sizeof group);
            CHECK_MSG(group[0] && way[0] && strlen(group) < 40 && is_ascii(group) &&
                          strlen(way) < sizeof way - 1 && is_ascii(way),
                      "%s: group '%s', way '%s'", api->name, group, way);
        }
    }
    /* The two steps tell the moves apart: no two share both a group and a way. */
    if (api->move_group && n > 0 && n <= 512) {
        char(*key)[2 * GAME_DESCRIBE_MAX] = malloc((size_t)n * sizeof *key);
        for (int i = 0; i < n; i++) {
            char group[GAME_DESCRIBE_MAX], way[GAME_DESCRIBE_MAX];
            api->move_group(s, moves[i], group, way, sizeof group);
            snprintf(key[i], sizeof key[i], "%s|%s", group, way);
            for (int j = 0; j < i; j++)
                CHECK_MSG(strcmp(key[i], key[j]), "%s: two moves read '%s'", api->name, key[i]);
        }
        free(key);
    }
    CHECK_MSG(!memcmp(copy, s, api->state_size), "%s: move_describe changed the state", api->name);
    free(copy);
}

/* One random game: every check at every ply; returns whether a full view ever changed on
   resampling (hidden information was shown). */
static bool check_game(const game_api_t *api, int players, uint64_t seed)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = players;
    opt.seed = seed;
    char err[GAME_ERR_MAX];
    size_t size = api->state_size;
    unsigned char *line = malloc(size * 1000), *scratch = malloc(size);
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves), history[1000];
    char *a = malloc(GAME_DIAGRAM_MAX), *b = malloc(GAME_DIAGRAM_MAX);
    unsigned char undo[GAME_UNDO_MAX];
    CHECK(api->new_game(line, &opt, err, sizeof err) == 0);
    pcg32_t rng;
    pcg32_seed(&rng, seed, 77);
    bool full_view_hides = false;
    int ply = 0;
    for (;; ply++) {
        void *s = line + (size_t)ply * size;
        for (unsigned flags = 0; flags < 4; flags++)
            diagram_checked(api, s, ply % (players + 1) - 1, flags, a);
        for (int observer = -1; observer < players; observer++) {
            diagram_checked(api, s, observer, 0, a);
            for (int k = 0; k < 2; k++) {
                api->copy(scratch, s);
                api->determinize(scratch, observer < 0 ? 0 : observer, &rng);
                diagram_checked(api, scratch, observer, 0, b);
                if (observer >= 0)
                    CHECK_MSG(!strcmp(a, b),
                              "%s %dp seed %llu ply %d: player %d sees a "
                              "change in what it cannot see",
                              api->name, players, (unsigned long long)seed, ply, observer);
                else
                    full_view_hides |= strcmp(a, b) != 0;
            }
        }
        int n = api->gen_moves(s, moves);
        if (n == 0 || ply + 1 == 1000)
            break;
        describe_checked(api, s, moves, n);
        history[ply] = moves[pcg32_bounded(&rng, (uint32_t)n)];
        api->copy(line + (size_t)(ply + 1) * size, s);
        api->make(line + (size_t)(ply + 1) * size, history[ply], undo);
    }
    /* The record's position at every ply is the game's (as the full view shows it). */
    json_t *rec = record_new(api, line, &opt, history, ply, NULL, NULL);
    CHECK(rec != NULL);
    if (rec) {
        for (int k = 0; k <= ply; k += 1 + ply / 25) {
            CHECK_EQ_INT(record_position(api, rec, k, scratch, err, sizeof err), ply);
            api->diagram(line + (size_t)k * size, -1, 0, a, GAME_DIAGRAM_MAX);
            api->diagram(scratch, -1, 0, b, GAME_DIAGRAM_MAX);
            CHECK_MSG(!strcmp(a, b), "%s %dp seed %llu: record_position at ply %d differs",
                      api->name, players, (unsigned long long)seed, k);
        }
        CHECK(record_position(api, rec, ply + 1, scratch, err, sizeof err) == -1);
        CHECK_MSG(strstr(err, "beyond"), "%s", err);
    }
    json_decref(rec);
    free(line);
    free(scratch);
    free(moves);
    free(a);
    free(b);
    return full_view_hides;
}

int main(void)
{
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        if (!(game_caps(api) & GAME_CAP_DIAGRAM)) /* optional: `skyline show` lists moves */
            continue;
        bool shows_hidden = false;
        for (int players = api->min_players; players <= api->max_players; players++)
            for (uint64_t seed = 1; seed <= 2; seed++)
                shows_hidden |= check_game(api, players, seed);
        /* A game with hidden information shows it in the full view (so the observer check
           above could fail); a game of perfect information has none. */
        if (!(game_caps(api) & GAME_PERFECT_INFO))
            CHECK_MSG(shows_hidden, "%s: the full view never shows hidden things", api->name);
    }
    return test_finish("test_diagram");
}
