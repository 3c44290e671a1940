/* Perft: counts move sequences, the standard check of move generation and make/undo. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "game.h"

/* One count: its settings and the first dead end met, if any. */
typedef struct perft_ctx {
    const game_api_t *api;   /* the game */
    bool bulk;               /* count the last ply without making it */
    bool dead;               /* a position not over and without moves was met */
    char path[GAME_ERR_MAX]; /* the moves that lead to it, filled while unwinding */
} perft_ctx_t;

/* Puts a move's text and a space in front of ctx->path (cut at its end if long). */
static void path_prepend(perft_ctx_t *c, const void *state, move_t m)
{
    char text[GAME_MOVE_TEXT_MAX];
    c->api->move_to_text(state, m, text);
    size_t t = strlen(text), have = strlen(c->path);
    if (t + 1 + have >= sizeof c->path)
        have = sizeof c->path - t - 2;
    memmove(c->path + t + 1, c->path, have);
    c->path[t + 1 + have] = 0;
    memcpy(c->path, text, t);
    c->path[t] = ' ';
}

static uint64_t perft_rec(perft_ctx_t *c, void *state, int depth)
{
    const game_api_t *api = c->api;
    move_t moves[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_UNDO_MAX];
    int n = api->gen_moves(state, moves);
    if (!n && !api->is_terminal(state)) {
        c->dead = true;
        return 0;
    }
    if (depth == 1 && c->bulk)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n && !c->dead; i++) {
        api->make(state, moves[i], undo);
        total += depth == 1 ? 1 : perft_rec(c, state, depth - 1);
        api->undo(state, moves[i], undo);
        if (c->dead)
            path_prepend(c, state, moves[i]);
    }
    return total;
}

int game_perft_checked(const game_api_t *api, void *state, int depth, bool full, uint64_t *count,
                       char *err, size_t errlen)
{
    assert(api->undo_size <= GAME_UNDO_MAX);
    perft_ctx_t c = {.api = api, .bulk = !full};
    *count = depth <= 0 ? 1 : perft_rec(&c, state, depth);
    if (!c.dead)
        return 0;
    size_t len = strlen(c.path);
    if (len)
        c.path[len - 1] = 0;
    snprintf(err, errlen, "the position after '%s' is not over but has no legal move",
             len ? c.path : "");
    return -1;
}

uint64_t game_perft(const game_api_t *api, void *state, int depth)
{
    uint64_t n;
    char err[GAME_ERR_MAX];
    game_perft_checked(api, state, depth, false, &n, err, sizeof err);
    return n;
}

uint64_t game_perft_full(const game_api_t *api, void *state, int depth)
{
    uint64_t n;
    char err[GAME_ERR_MAX];
    game_perft_checked(api, state, depth, true, &n, err, sizeof err);
    return n;
}
