/*
 * Target "board": a Tower Up board file read from a file, as --board FILE reads it. A board
 * that loads is played: one seeded game with random legal moves, every move's text
 * round-trips, the state stays consistent (towerup_check) and a position has no legal move
 * only once the game is over, on however odd a board (a board whose set-up cannot fit is
 * refused when the game is made).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/towerup/towerup.h"
#include "fuzz/fuzz.h"

/* Moves played at most on a fuzzed board (a whole game on small boards). */
#define BOARD_PLIES 400

static void play_board(const towerup_board_t *b, uint64_t h)
{
    pcg32_t rng;
    pcg32_seed(&rng, h, 0xb0a4dULL);
    int players = 2 + (int)pcg32_bounded(&rng, 3);
    uint8_t deck[TOWERUP_CARD_COUNT], start[3], objectives[3];
    for (int i = 0; i < TOWERUP_CARD_COUNT; i++)
        deck[i] = (uint8_t)i;
    pcg32_shuffle_u8(&rng, deck, TOWERUP_CARD_COUNT);
    const towerup_card_t *cards = towerup_cards();
    for (int i = 0; i < 3; i++)
        start[i] = cards[deck[i]].bottom;
    uint8_t ids[TOWERUP_OBJECTIVE_COUNT];
    for (int i = 0; i < TOWERUP_OBJECTIVE_COUNT; i++)
        ids[i] = (uint8_t)i;
    pcg32_shuffle_u8(&rng, ids, TOWERUP_OBJECTIVE_COUNT);
    memcpy(objectives, ids, 3);
    towerup_state_t *s = malloc(sizeof *s);
    move_t *moves = malloc(GAME_MAX_MOVES * sizeof *moves);
    char err[GAME_ERR_MAX], text[GAME_MOVE_TEXT_MAX];
    if (!s || !moves)
        abort();
    if (towerup_new_from(s, b, players, (int)pcg32_bounded(&rng, (uint32_t)players), objectives,
                         deck, start, 3, h, err, sizeof err) < 0) {
        fuzz_check_error(err, sizeof err, "board: new game");
    } else {
        for (int ply = 0; ply < BOARD_PLIES && !towerup_is_over(s); ply++) {
            int n = towerup_gen_moves(s, moves);
            if (n <= 0)
                fuzz_fail("board: a position without moves before the game is over", b->name);
            move_t m = moves[pcg32_bounded(&rng, (uint32_t)n)], back;
            towerup_move_to_text(s, m, text);
            if (towerup_move_from_text(s, text, &back, err, sizeof err) < 0 || back != m)
                fuzz_fail("board: a legal move's text does not parse back", text);
            towerup_undo_t u;
            towerup_make(s, m, &u);
            if (towerup_check(s, err, sizeof err) < 0)
                fuzz_fail("board: inconsistent state after a move", err);
        }
    }
    free(moves);
    free(s);
}

int fuzz_board(const uint8_t *data, size_t size)
{
    char path[64], err[GAME_ERR_MAX];
    int fd = fuzz_memfile(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    towerup_board_t *b = malloc(sizeof *b);
    if (!b)
        abort();
    int rc = towerup_board_load_file(b, path, err, sizeof err);
    close(fd);
    if (rc < 0)
        fuzz_check_error(err, sizeof err, "board: load");
    else
        play_board(b, fuzz_hash(data, size));
    free(b);
    return 0;
}
