/*
 * Every accepted position text prints back to itself (docs/NOTATION.md: one text per
 * position and view): read, then written as the text's viewer sees it, gives the same
 * bytes. Run over the position fuzz corpus and regression inputs, and over the texts of
 * every view of random games of every game with a notation and every player count; each
 * text also goes through the position fuzz harness (fuzz/fuzz_position.c), which checks
 * the same and plays on from it.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "fuzz/fuzz.h"
#include "tests/test.h"

/* text (as bytes, no NUL) read and written back: 1 if it reads (and then must come back
   unchanged), 0 if refused. */
static int prints_back(const char *text, uint64_t seed)
{
    char err[GAME_ERR_MAX], again[GAME_POSITION_MAX];
    const game_api_t *api;
    int view;
    void *s = game_position_read(text, NULL, seed, &api, &view, err, sizeof err);
    int read = s != NULL;
    if (s) {
        api->position_write(s, view, again, sizeof again);
        CHECK_MSG(!strcmp(text, again), "does not print back to itself\n  %s\n  %s", text, again);
        free(s);
    }
    CHECK_EQ_INT(fuzz_position((const uint8_t *)text, strlen(text)), 0);
    return read;
}

/* Every file of dir; returns how many read. */
static int corpus(const char *dir, int *files)
{
    DIR *d = opendir(dir);
    int accepted = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = test_read_file(path);
        accepted += prints_back(text, 1);
        (*files)++;
        free(text);
    }
    if (d)
        closedir(d);
    return accepted;
}

/* Random games of api with players: every view of every every-th position. */
static int games(const game_api_t *api, int players, int count, int every)
{
    int texts = 0;
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    unsigned char *s = malloc(api->state_size), undo[GAME_UNDO_MAX];
    for (int g = 0; g < count && moves && s; g++) {
        game_options_t opt;
        game_options_default(&opt);
        opt.players = players;
        opt.seed = 7000u + 100u * (unsigned)players + (unsigned)g;
        char err[GAME_ERR_MAX], text[GAME_POSITION_MAX];
        if (api->new_game(s, &opt, err, sizeof err) < 0) {
            CHECK_MSG(0, "%s", err);
            break;
        }
        pcg32_t rng;
        pcg32_seed(&rng, opt.seed, 11);
        for (int ply = 0;; ply++) {
            bool over = api->is_terminal(s);
            if (ply % every == 0 || over)
                for (int o = -1; o < players; o++) {
                    api->position_write(s, o, text, sizeof text);
                    int read = prints_back(text, opt.seed + (unsigned)ply);
                    CHECK_MSG(read, "a written text is refused: %s", text);
                    texts += read;
                }
            if (over)
                break;
            int n = api->gen_moves(s, moves);
            api->make(s, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
        }
    }
    free(s);
    free(moves);
    return texts;
}

int main(void)
{
    int files = 0, accepted = 0;
    accepted += corpus(SKYLINE_SOURCE_DIR "/fuzz/corpus/position", &files);
    accepted += corpus(SKYLINE_SOURCE_DIR "/fuzz/regress/position", &files);
    CHECK_MSG(accepted >= 5 && files > accepted, "%d of %d corpus texts read", accepted, files);
    printf("corpus: %d of %d texts read, each printing back to itself\n", accepted, files);
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        if (!api->position_write)
            continue;
        for (int p = api->min_players; p <= api->max_players; p++) {
            int n = games(api, p, 6, 3);
            CHECK_MSG(n > 20, "%s %d players: %d texts", api->name, p, n);
            printf("%s %d players: %d texts print back to themselves\n", api->name, p, n);
        }
    }
    return test_finish("test_position_roundtrip");
}
