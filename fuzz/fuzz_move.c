/*
 * Target "move": move text (FORMATS.md §3) parsed against a position of any game. Byte 0
 * chooses the game (byte % games, in registry order) and the player count (byte / games),
 * byte 1 how many random legal moves (0-63) lead
 * from the initial position of seed byte 2 to the position; the rest is the text. Text
 * that parses must name a legal move whose canonical text is exactly the input (the parser
 * accepts only canonical text), and legal moves' texts must parse back to them.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "fuzz/fuzz.h"

int fuzz_move(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    int games = game_count();
    const game_api_t *api = game_at(data[0] % games);
    int span = api->max_players - api->min_players + 1;
    game_options_t opt;
    game_options_default(&opt);
    opt.players = api->min_players + (data[0] / games) % span;
    opt.seed = data[2];
    char err[GAME_ERR_MAX], canon[GAME_MOVE_TEXT_MAX];
    void *s = malloc(api->state_size);
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    unsigned char undo[GAME_UNDO_MAX];
    if (!s || !moves)
        abort();
    if (api->new_game(s, &opt, err, sizeof err) < 0)
        fuzz_fail("move: a default game cannot be made", err);
    pcg32_t rng;
    pcg32_seed(&rng, data[2], data[1]);
    for (int i = data[1] % 64; i > 0 && !api->is_terminal(s); i--) {
        int n = api->gen_moves(s, moves);
        api->make(s, moves[pcg32_bounded(&rng, (uint32_t)n)], undo);
    }
    char *text = fuzz_text(data + 3, size - 3);
    move_t m;
    err[0] = 0;
    if (api->move_from_text(s, text, &m, err, sizeof err) < 0) {
        fuzz_check_error(err, sizeof err, "move: parse");
    } else {
        int n = api->gen_moves(s, moves), legal = 0;
        for (int i = 0; i < n; i++)
            legal |= moves[i] == m;
        if (!legal)
            fuzz_fail("move: parsed to a move that is not legal", text);
        api->move_to_text(s, m, canon);
        if (strcmp(canon, text))
            fuzz_fail("move: accepted a text that is not the canonical one", text);
    }
    /* A few legal moves of the position round-trip. */
    int n = api->gen_moves(s, moves);
    for (int k = 0; k < 4 && n > 0; k++) {
        move_t back, want = moves[pcg32_bounded(&rng, (uint32_t)n)];
        api->move_to_text(s, want, canon);
        if (api->move_from_text(s, canon, &back, err, sizeof err) < 0 || back != want)
            fuzz_fail("move: a legal move's text does not parse back", canon);
    }
    free(text);
    free(moves);
    free(s);
    return 0;
}
