/* Connect Four: rules on bitboards (connect4.h); the game table is api.c's. */
#include "core/connect4/connect4.h"

#include <stdio.h>
#include <string.h>

#include "core/bits.h"
#include "core/connect4/solve.h"
#include "core/input.h"

/* Zobrist keys: per player and bit index (7c + r), splitmix64 from 0xC0447F0E5EED. */
static const uint64_t c4_keys[2][49] = {
    {
        0x38fd265275e18daaULL, 0x8807271eb639487eULL, 0x182ff684c44bc911ULL, 0x1f1d64714516a8dfULL,
        0xaa5c439f42abfca0ULL, 0x5cf15a642a488025ULL, 0x50c96708f6517a51ULL, 0xa34cb2f688c9b1dcULL,
        0xebf95d4a9f213eadULL, 0x43bb48d1d1f8d7e1ULL, 0x1118043f2a3a088dULL, 0x257ec4dcd4e2426bULL,
        0x906621c1e6fd46f1ULL, 0xb918db7f5d8df81eULL, 0x19ed6b0fc945e3d5ULL, 0xc7cf40c2c5a82974ULL,
        0x615824a69719bfd6ULL, 0x0c48f736363a4c59ULL, 0x5fca13ed0c9fc12dULL, 0xffe9c76dca31c290ULL,
        0xc04925f5a4bce15cULL, 0xcb2398612a5c495eULL, 0x6fc8cd42f7d376d8ULL, 0xcf3c6abfafc8b2acULL,
        0x4192389fcc595262ULL, 0xbbbbffa37f835046ULL, 0x4a53725685c2d17bULL, 0xd6815ec483fd9d8eULL,
        0x63acb831b2844216ULL, 0x26c3ff670f48cd18ULL, 0x46b8478898c4c94dULL, 0x47a3248f28dfc149ULL,
        0x8ff601339b53b878ULL, 0xc82d7e16793e52c2ULL, 0x34f9d54424baff8bULL, 0xdc0d6de8c44fe7c9ULL,
        0x603fc38ee4cf7e28ULL, 0x588da03a444511deULL, 0x397e5f90736162e7ULL, 0x1db0b0ac4c3a9b94ULL,
        0x26c5f3ffca77e502ULL, 0xab23d650af3fd3a7ULL, 0x5bb53d4bdb175895ULL, 0x8d4301044edffb38ULL,
        0x03f8f1b928d2a907ULL, 0x24727433cddb3390ULL, 0xcb3bee0b48b1591eULL, 0x81aa02bd077f0c65ULL,
        0x65e9fa0f906355b4ULL,
    },
    {
        0x65af6934dfa9e6ffULL, 0xcbd56682c2b3ddfbULL, 0xd3d60062e06083d2ULL, 0x32371bb31da87eaeULL,
        0x2150eaa1bc624168ULL, 0xde89504694dfca26ULL, 0xa99e7df13df4a1ebULL, 0x03d86a66cdb8ed5dULL,
        0x5d37a03cbfab2040ULL, 0x522547e0e4bc0512ULL, 0xd85bea4ede0556f0ULL, 0x64edbf26f2de4821ULL,
        0x744d334a0d016057ULL, 0x89f3c393d6c9f9b0ULL, 0xce0a79c0f1809303ULL, 0xc9d48aede621de91ULL,
        0xa97e40c5c26edb6aULL, 0x735a735fd98e1d47ULL, 0xe9ec9ef3c29a9035ULL, 0x67c4f871445865b6ULL,
        0xdda7a5968274022dULL, 0x3c942031c91a9092ULL, 0xde9aa61ebfa07f9bULL, 0x2a9c7ec914459c26ULL,
        0xfb4c9bd94d01af86ULL, 0xdc1a407c7eea30f0ULL, 0xe15e910b60b7dc0eULL, 0x4a36a5478cfa2e7eULL,
        0xcc80abc99fb96892ULL, 0x079b7502a4c7a06cULL, 0x36c92cefa23e92f7ULL, 0xeb4ff441f9d9a219ULL,
        0x2e888535146bbbdbULL, 0x492bcd05621558e5ULL, 0xb33f65cc9f5c333aULL, 0xf2bfeb04f84dccffULL,
        0x4093ecf7b7fdc89aULL, 0x2032850de6c8b082ULL, 0x963e10245ea55efeULL, 0xa9bab951ebbca68cULL,
        0x4b48dcb0d9f65cdcULL, 0x1b95986b56d4ebc2ULL, 0x893c1b122455c2a3ULL, 0xb91c8760b0a39d8fULL,
        0x6ca26dd2db0ba5f6ULL, 0xf30546fbf477247dULL, 0xdb88e6cda2014a70ULL, 0xf4379af5d016fe14ULL,
        0xd4574253f4fdbe8aULL,
    },
};
/* Toggled with every move: the player to move. */
#define C4_KEY_SIDE 0x7e451f7f7f0717b7ULL

void c4_init(c4_state_t *s, int first_player)
{
    memset(s, 0, sizeof *s);
    s->first_player = s->to_move = (uint8_t)first_player;
    s->winner = -1;
    s->hash = c4_hash_full(s);
}

int c4_gen_moves(const void *state, move_t *moves)
{
    const c4_state_t *s = state;
    if (c4_is_over(s))
        return 0;
    int n = 0;
    for (int c = 0; c < C4_COLUMNS; c++)
        if (c4_column_open(s, c))
            moves[n++] = (move_t)c;
    return n;
}

void c4_make(void *state, move_t m, void *undo)
{
    c4_state_t *s = state;
    c4_undo_t *u = undo;
    int p = s->to_move;
    uint64_t cell = (s->mask + (1ULL << (7 * m))) & c4_column_mask((int)m);
    u->cell = cell;
    s->mask |= cell;
    s->stones[p] |= cell;
    s->hash ^= c4_keys[p][bits_lsb64(cell)] ^ C4_KEY_SIDE;
    s->stone_count++;
    if (c4_has_four(s->stones[p]))
        s->winner = (int8_t)p;
    s->to_move = (uint8_t)(p ^ 1);
}

void c4_undo(void *state, move_t m, const void *undo)
{
    c4_state_t *s = state;
    const c4_undo_t *u = undo;
    (void)m;
    int p = s->to_move ^ 1;
    uint64_t cell = u->cell;
    s->mask ^= cell;
    s->stones[p] ^= cell;
    s->hash ^= c4_keys[p][bits_lsb64(cell)] ^ C4_KEY_SIDE;
    s->stone_count--;
    s->winner = -1; /* no move is made once someone has won */
    s->to_move = (uint8_t)p;
}

/* Uniform in [0, n), n <= 7: Lemire's multiply, rejecting the few biased values. */
static inline uint32_t c4_bounded(pcg32_t *rng, uint32_t n)
{
    uint64_t m = (uint64_t)pcg32_next(rng) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)pcg32_next(rng) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

void c4_playout(void *state, pcg32_t *rng)
{
    c4_state_t *s = state;
    if (c4_is_over(s))
        return;
    /* The open columns, as a list (a full one is swapped out) and as next free cells. */
    uint8_t open[C4_COLUMNS];
    int n = 0;
    for (int c = 0; c < C4_COLUMNS; c++)
        if (c4_column_open(s, c))
            open[n++] = (uint8_t)c;
    int p = s->to_move;
    uint64_t mine = s->stones[p], theirs = s->stones[p ^ 1], mask = s->mask;
    uint64_t hash = s->hash;
    int count = s->stone_count, winner = -1;
    for (;;) {
        int k = (int)c4_bounded(rng, (uint32_t)n);
        int c = open[k];
        uint64_t cell = (mask + (1ULL << (7 * c))) & c4_column_mask(c);
        mask |= cell;
        mine |= cell;
        hash ^= c4_keys[p][bits_lsb64(cell)] ^ C4_KEY_SIDE;
        count++;
        if (c4_has_four(mine)) {
            winner = p;
            break;
        }
        if (cell & (0x20ULL << (7 * c))) { /* the column is full */
            open[k] = open[--n];
            if (n == 0)
                break;
        }
        uint64_t t = mine;
        mine = theirs;
        theirs = t;
        p ^= 1;
    }
    s->stones[p] = mine;
    s->stones[p ^ 1] = theirs;
    s->mask = mask;
    s->hash = hash;
    s->stone_count = (uint8_t)count;
    s->winner = (int8_t)winner;
    s->to_move = (uint8_t)(p ^ 1);
}

uint64_t c4_hash_full(const void *state)
{
    const c4_state_t *s = state;
    uint64_t h = (s->stone_count & 1) ? C4_KEY_SIDE : 0;
    for (int p = 0; p < 2; p++)
        for (uint64_t b = s->stones[p]; b;)
            h ^= c4_keys[p][bits_pop_lsb64(&b)];
    return h;
}

int c4_check(const void *state, char *err, size_t errlen)
{
    const c4_state_t *s = state;
    const char *what = NULL;
    uint64_t a = s->stones[0], b = s->stones[1];
    int count = bits_count64(s->mask);
    if ((a & b) || (s->mask != (a | b)))
        what = "the stones and the mask disagree";
    else if (s->mask & ~C4_BOARD)
        what = "a stone lies outside the board";
    else if (((s->mask + C4_BOTTOM) & s->mask) != 0) /* a column's stones end in a gap */
        what = "a stone floats above an empty cell";
    else if (count != s->stone_count)
        what = "the stone count is wrong";
    else if (s->first_player > 1 || s->to_move != ((s->first_player + count) & 1))
        what = "the player to move is wrong";
    else if (bits_count64(s->stones[s->first_player]) -
                 bits_count64(s->stones[s->first_player ^ 1]) !=
             (count & 1))
        what = "the players' stone counts are wrong";
    else if (s->winner != (c4_has_four(s->stones[s->to_move ^ 1]) ? s->to_move ^ 1 : -1) ||
             c4_has_four(s->stones[s->to_move]))
        what = "the winner is wrong";
    else if (s->hash != c4_hash_full(s))
        what = "the hash differs from the one computed from scratch";
    else if (memcmp(s->pad, "\0\0\0\0", 4))
        what = "padding is not zero";
    return what ? input_fail(err, errlen, "state", NULL, "%s", what) : 0;
}

void c4_ranks(const void *state, int *ranks)
{
    const c4_state_t *s = state;
    ranks[0] = s->winner == 1 ? 2 : 1;
    ranks[1] = s->winner == 0 ? 2 : 1;
}

int c4_move_from_text(const void *state, const char *text, move_t *m, char *err, size_t errlen)
{
    const c4_state_t *s = state;
    if (c4_is_over(s))
        return input_fail(err, errlen, "move", text, "the game is over");
    if (text[0] < '1' || text[0] > '7' || text[1])
        return input_fail(err, errlen, "move", text, "a Connect Four move is a column 1 to 7");
    int c = text[0] - '1';
    if (!c4_column_open(s, c))
        return input_fail(err, errlen, "move", text, "column %d is full", c + 1);
    *m = (move_t)c;
    return 0;
}
