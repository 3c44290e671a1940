/*
 * Target "position": a position text (docs/NOTATION.md) of any game with a notation, read
 * through game_position_read as its callers read it (no board options: fuzzing opens no
 * files). A text that reads gives a consistent state (game_position_read checks it) and
 * prints back to itself: writing that state as the text's viewer sees it gives the same
 * bytes, and reading that gives the same text again; an error is one line; a position that is not over has legal moves, and 16 random
 * moves on every position reached is consistent and not stuck.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "fuzz/fuzz.h"

/* Reads text (hidden parts from seed) and writes it back as its viewer sees it into out;
   0, or -1 (err filled) if the text is refused. */
static int read_write(const char *text, uint64_t seed, char *out, void **state,
                      const game_api_t **api, char *err, size_t errlen)
{
    int view = -1;
    *state = game_position_read(text, NULL, seed, api, &view, err, errlen);
    if (!*state)
        return -1;
    if (game_position_write(*api, *state, view, out, GAME_POSITION_MAX, err, errlen) < 0)
        fuzz_fail("position: a game that reads a text cannot write one", err);
    if (!memchr(out, 0, GAME_POSITION_MAX))
        fuzz_fail("position", "a written text is not terminated");
    return 0;
}

int fuzz_position(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char err[GAME_ERR_MAX];
    char *once = malloc(GAME_POSITION_MAX), *twice = malloc(GAME_POSITION_MAX);
    uint64_t seed = fuzz_hash(data, size);
    void *state = NULL, *again = NULL;
    const game_api_t *api = NULL, *api2 = NULL;
    if (!once || !twice)
        abort();
    err[0] = 0;
    if (read_write(text, seed, once, &state, &api, err, sizeof err) < 0) {
        fuzz_check_error(err, sizeof err, "position: read");
        if (strchr(err, '\n'))
            fuzz_fail("position: an error of more than one line", err);
    } else {
        /* One text per position and view: what reads prints back to itself, byte for byte. */
        if (strcmp(once, text))
            fuzz_fail("position: an accepted text does not print back to itself", text);
        if (read_write(once, seed + 1, twice, &again, &api2, err, sizeof err) < 0)
            fuzz_fail("position: a written text does not read back", err);
        if (api2 != api || strcmp(once, twice))
            fuzz_fail("position: a written text reads back as another text", once);
        move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
        unsigned char undo[GAME_UNDO_MAX];
        if (!moves)
            abort();
        /* A few moves on: a read state plays like any other (no dead end, check holds). */
        for (int k = 0; k < 16; k++, seed = seed * 6364136223846793005ULL + 1) {
            int n = api->gen_moves(state, moves);
            if ((n == 0) != api->is_terminal(state))
                fuzz_fail("position: legal moves exist if and only if the game is not over", once);
            if (n == 0)
                break;
            api->make(state, moves[(seed >> 33) % (uint64_t)n], undo);
            if (api->check(state, err, sizeof err) < 0)
                fuzz_fail("position: inconsistent state after a move", err);
        }
        free(moves);
    }
    free(again);
    free(state);
    free(twice);
    free(once);
    free(text);
    return 0;
}
