/*
 * The games' SVG pictures (viewer/picture.h): every game draws positions from the start,
 * the middle and the end of a seeded random game; each picture is complete, a write
 * error is reported, and tests/svg_check.py parses each as XML and renders it with
 * rsvg-convert to a non-blank PNG.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core/game.h"
#include "core/rng.h"
#include "tests/test.h"
#include "viewer/picture.h"

/* Writes api's picture of state to path; returns the file's text (caller frees). */
static char *write_picture(const game_api_t *api, const void *state, const char *path)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return NULL;
    CHECK_EQ_INT(game_svg_for(api)(state, -1, f), 0);
    fclose(f);
    return test_read_file(path);
}

/* Pictures of one game with players players: start, after `mid` random moves, the end. */
static void picture_game(const game_api_t *api, int players, const char *board, int mid, char *list,
                         size_t cap)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = players;
    opt.seed = 20261126;
    void *s = malloc(api->state_size);
    char err[GAME_ERR_MAX], option[64];
    if (board) {
        snprintf(option, sizeof option, "board=%s", board);
        CHECK_MSG(game_options_add(&opt, option, err, sizeof err) == 0, "%s", err);
    }
    CHECK_MSG(api->new_game(s, &opt, err, sizeof err) == 0, "%s", err);
    pcg32_t rng;
    pcg32_seed(&rng, 7, 1);
    move_t moves[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    for (int stage = 0; stage < 3; stage++) {
        int plies = stage == 0 ? 0 : stage == 1 ? mid : 100000;
        for (int k = 0; k < plies && !api->is_terminal(s); k++) {
            int n = api->gen_moves(s, moves);
            api->make(s, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
        }
        char path[128];
        snprintf(path, sizeof path, "svg-%s-%dp-%d.svg", api->name, players, stage);
        char *text = write_picture(api, s, path);
        if (text) {
            CHECK_MSG(strncmp(text, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0, "%s",
                      path);
            size_t len = strlen(text);
            CHECK_MSG(len > 7 && !strcmp(text + len - 7, "</svg>\n"), "%s ends badly", path);
            CHECK_MSG(strstr(text, "<title>") != NULL, "%s has no title", path);
        }
        free(text);
        size_t used = strlen(list);
        snprintf(list + used, cap - used, " %s", path);
    }
    /* A full disk is an error, not a cut picture reported as written. */
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        CHECK_EQ_INT(game_svg_for(api)(s, -1, full), -1);
        fclose(full);
    }
    free(s);
}

int main(void)
{
    static char list[8192];
    int games = 0;
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        if (!game_svg_for(api))
            continue;
        games++;
        for (int players = api->min_players; players <= api->max_players; players++)
            picture_game(api, players, NULL, 20 + 3 * players, list, sizeof list);
    }
    /* Tower Up's 2-player board has other coordinates than the standard one. */
    picture_game(game_find("towerup"), 3, "duo", 30, list, sizeof list);
    CHECK(games >= 3);
    char cmd[sizeof list + 256];
    snprintf(cmd, sizeof cmd, "python3 %s/tests/svg_check.py%s", SKYLINE_SOURCE_DIR, list);
    int rc = system(cmd);
    int status = rc == -1 ? -1 : WEXITSTATUS(rc);
    if (status == 77)
        printf("test_svg: rendering skipped (rsvg-convert missing)\n");
    else
        CHECK_MSG(status == 0, "svg_check.py failed (status %d)", status);
    return test_finish("test_svg");
}
