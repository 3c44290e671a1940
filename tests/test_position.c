/*
 * Position notation (docs/NOTATION.md) of every registered game with one, on every
 * position of random games of every player count and for every observer:
 * text -> state -> text gives the same text, the parsed state passes check and (for the
 * player to move) has the same legal moves as text; resampling what an observer cannot see
 * never changes its text; bad texts give one-line errors naming the field.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "tests/test.h"

#define MAX_PLIES 2000

static char texts_a[GAME_MAX_MOVES][32], texts_b[GAME_MAX_MOVES][32];

/* One position seen by observer: round trip, moves, and the text's independence from what
   the observer cannot see. */
static void check_view(const game_api_t *api, const void *s, int observer, uint64_t seed)
{
    char text[GAME_POSITION_MAX], again[GAME_POSITION_MAX], err[GAME_ERR_MAX];
    api->position_write(s, observer, text, sizeof text);
    CHECK_MSG(strlen(text) < sizeof text - 1 && !strchr(text, '\n'), "%s", text);
    const game_api_t *back_api = NULL;
    int view = -2;
    void *t = game_position_read(text, NULL, seed, &back_api, &view, err, sizeof err);
    CHECK_MSG(t != NULL, "%s: %s", text, err);
    if (!t)
        return;
    CHECK(back_api == api);
    api->position_write(t, observer, again, sizeof again);
    CHECK_MSG(!strcmp(text, again), "round trip\n  %s\n  %s", text, again);
    CHECK(api->to_move(t) == api->to_move(s));
    CHECK(api->is_terminal(t) == api->is_terminal(s));
    if (observer == api->to_move(s) || observer < 0) {
        /* The mover's own view (or a game where the mover hides nothing from the public
           view, which shows as equal lists) gives the same moves. */
        int na = test_move_texts(api, s, texts_a), nb = test_move_texts(api, t, texts_b);
        if (observer == api->to_move(s))
            CHECK_MSG(test_same_moves("original", texts_a, na, "parsed", texts_b, nb),
                      "moves differ after %s", text);
    }
    /* What the observer cannot see, resampled twice: the same text. */
    unsigned char *d = malloc(api->state_size);
    for (int k = 0; k < 2 && d; k++) {
        api->copy(d, s);
        pcg32_t rng;
        pcg32_seed(&rng, seed + (uint64_t)k, 77);
        if (observer >= 0)
            api->determinize(d, observer, &rng);
        api->position_write(d, observer, again, sizeof again);
        CHECK_MSG(!strcmp(text, again), "hidden information shows\n  %s\n  %s", text, again);
    }
    free(d);
    free(t);
}

static int round_trips(const game_api_t *api, int players, int games, int every)
{
    int positions = 0;
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    unsigned char *s = malloc(api->state_size), undo[GAME_UNDO_MAX];
    for (int g = 0; g < games; g++) {
        game_options_t opt;
        game_options_default(&opt);
        opt.players = players;
        opt.seed = 1000u * (unsigned)players + (unsigned)g;
        char err[GAME_ERR_MAX];
        if (api->new_game(s, &opt, err, sizeof err) < 0) {
            CHECK_MSG(0, "%s", err);
            break;
        }
        pcg32_t rng;
        pcg32_seed(&rng, opt.seed, 5);
        for (int ply = 0; ply < MAX_PLIES; ply++) {
            bool over = api->is_terminal(s);
            if (ply % every == 0 || over) {
                for (int o = -1; o < players; o++)
                    check_view(api, s, o, opt.seed * 7919u + (unsigned)ply);
                positions++;
            }
            if (over)
                break;
            int n = api->gen_moves(s, moves);
            api->make(s, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
        }
    }
    free(s);
    free(moves);
    return positions;
}

/* A text that must be refused, with an error of one line that names field. */
static void check_bad(const char *text, const char *field)
{
    char err[GAME_ERR_MAX] = "";
    void *t = game_position_read(text, NULL, 1, NULL, NULL, err, sizeof err);
    CHECK_MSG(t == NULL, "accepted: %s", text);
    free(t);
    CHECK_MSG(strstr(err, field) != NULL && !strchr(err, '\n'), "'%s' -> '%s' (want %s)", text,
              err, field);
}

static void bad_texts(void)
{
    check_bad("", "position");
    check_bad("chess rnbqkbnr/pppppppp 0", "position: the first word 'chess' is not a game");
    check_bad("connect4  ......./......./......./......./......./....... 0", "empty");
    check_bad("connect4 ......./......./......./......./......./....... 0 x", "position");
    check_bad("connect4 ......./......./......./......./......./...... 0", "grid: must be 6 rows");
    check_bad("connect4 ......./......./......./......./.......-....... 0", "grid: row 5");
    check_bad("connect4 ......./......./......./......./0....../....... 1", "grid: a stone floats");
    check_bad("connect4 ......./......./......./......./......./.....2. 0", "grid");
    check_bad("connect4 ......./......./......./......./......./00..... 1", "grid: player 0 has 2");
    check_bad("connect4 ......./......./......./......./......./0...... 0", "turn");
    check_bad("connect4 ......./......./......./......./......./....... 2", "turn");
    check_bad("connect4 ......./......./0....../0....../0....../01111.. 0", "four in a line");
    check_bad("connect4 ......./......./......./......./......./......\t 0", "printable");
}

/* Every example line of docs/NOTATION.md (a line that starts with a game's name in a code
   block) reads and writes back unchanged from its own view. */
static void doc_examples(void)
{
    char *doc = test_read_file(SKYLINE_SOURCE_DIR "/docs/NOTATION.md");
    int examples = 0;
    bool code = false;
    for (char *line = strtok(doc, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "```", 3)) {
            code = !code;
            continue;
        }
        char err[GAME_ERR_MAX], again[GAME_POSITION_MAX];
        if (!code || !game_position_game(line, err, sizeof err))
            continue;
        const game_api_t *api;
        int view;
        void *s = game_position_read(line, NULL, 3, &api, &view, err, sizeof err);
        CHECK_MSG(s != NULL, "docs/NOTATION.md: %s: %s", line, err);
        if (!s)
            continue;
        api->position_write(s, view, again, sizeof again);
        CHECK_MSG(!strcmp(line, again), "docs/NOTATION.md example\n  %s\n  %s", line, again);
        free(s);
        examples++;
    }
    CHECK_MSG(examples >= 3, "only %d examples in docs/NOTATION.md", examples);
    free(doc);
}

int main(void)
{
    doc_examples();
    for (int i = 0; i < game_count(); i++) {
        const game_api_t *api = game_at(i);
        if (!api->position_write)
            continue;
        for (int p = api->min_players; p <= api->max_players; p++) {
            int n = round_trips(api, p, 12, 1);
            CHECK_MSG(n > 100, "%s %d players: only %d positions", api->name, p, n);
        }
    }
    bad_texts();
    return test_finish("test_position");
}
