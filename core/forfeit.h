#pragma once
/*
 * Forfeits in game records (FORMATS.md §4, docs/PROTOCOL.md): a game that ended because a
 * seat forfeited it (an external bot that crashed, timed out or answered garbage; a human
 * who quit). Its record holds "forfeit": {"seat", "move", "reason", "detail"} and a
 * "result" with only "ranks": the forfeiting seat last, every other seat sharing first.
 */
#include <stdbool.h>
#include <stddef.h>

struct json_t;

/* Ranks of a game seat forfeited: seat gets players, every other seat 1. */
void forfeit_ranks(int players, int seat, int *ranks);
/*
 * Adds the forfeit to rec (a record of the moves played so far, without a result): seat
 * forfeited before move index move (the number of moves played), for reason (a short word:
 * exit, closed, illegal, garbage, timeout, quit) with detail (free text, may be NULL).
 */
void forfeit_record_add(struct json_t *rec, int players, int seat, int move, const char *reason,
                        const char *detail);
/* The reasons of a forfeit (docs/PROTOCOL.md "Forfeits in records"), for messages. */
#define FORFEIT_REASONS "exit, closed, illegal, garbage, timeout, quit"
/* True if reason is one of FORFEIT_REASONS. */
bool forfeit_reason_known(const char *reason);
/* True if rec holds a "forfeit" key. */
bool forfeit_record_has(const struct json_t *rec);
/*
 * Checks a record's forfeit against its replay: move_count moves, the game over (over) or
 * not after them. 0 if the forfeit names a seat and a known reason (a string detail, if
 * any), the move index equals move_count, the game was not over, and the result's ranks
 * are the forfeit ranks; else -1 with err filled.
 */
int forfeit_record_check(const struct json_t *rec, int players, int move_count, bool over,
                         char *err, size_t errlen);
