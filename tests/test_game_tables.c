/*
 * The game tables point at the games' own functions (they have the interface's signature,
 * core/game.h), not at wrappers that forward to them; a game where nothing is hidden uses
 * core's game_determinize_none.
 */
#include "core/connect4/connect4.h"
#include "core/game.h"
#include "core/towerup/towerup.h"
#include "core/uptown/uptown.h"
#include "tests/test.h"

int main(void)
{
    const game_api_t *tu = &towerup_api, *up = &uptown_api, *c4 = &connect4_api;
    CHECK(tu->new_game == towerup_new_game && tu->gen_moves == towerup_gen_moves);
    CHECK(tu->make == towerup_make && tu->undo == towerup_undo);
    CHECK(tu->hash_full == towerup_hash_full && tu->check == towerup_check);
    CHECK(tu->move_to_text == towerup_move_to_text && tu->move_from_text == towerup_move_from_text);
    CHECK(tu->determinize == towerup_determinize && tu->playout == towerup_playout);
    CHECK(tu->ranks == towerup_ranks && tu->diagram == towerup_diagram);
    CHECK(tu->move_group == towerup_move_group && tu->move_describe == towerup_move_describe);
    CHECK(up->gen_moves == uptown_gen_moves && up->make == uptown_make && up->undo == uptown_undo);
    CHECK(up->is_terminal == uptown_is_terminal && up->result == uptown_result);
    CHECK(up->hash_full == uptown_hash_full && up->check == uptown_check);
    CHECK(up->move_to_text == uptown_move_to_text && up->move_from_text == uptown_move_from_text);
    CHECK(up->determinize == uptown_determinize && up->playout == uptown_playout);
    CHECK(up->diagram == uptown_diagram && up->move_describe == uptown_move_describe);
    CHECK(c4->gen_moves == c4_gen_moves && c4->make == c4_make && c4->undo == c4_undo);
    CHECK(c4->hash_full == c4_hash_full && c4->check == c4_check && c4->ranks == c4_ranks);
    CHECK(c4->move_from_text == c4_move_from_text && c4->playout == c4_playout);
    CHECK(c4->diagram == c4_diagram && c4->move_describe == c4_move_describe);
    CHECK(c4->determinize == game_determinize_none);
    return test_finish("test_game_tables");
}
