#pragma once
/* Bit helpers for 64-bit and 128-bit sets. */
#include <stdint.h>

typedef unsigned __int128 u128_t;

static inline int bits_count64(uint64_t x) { return __builtin_popcountll(x); }
static inline int bits_lsb64(uint64_t x) { return __builtin_ctzll(x); }
/* Index of the lowest set bit, which is cleared; x must be non-zero. */
static inline int bits_pop_lsb64(uint64_t *x)
{
    int i = __builtin_ctzll(*x);
    *x &= *x - 1;
    return i;
}

static inline int bits_count128(u128_t x)
{
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
static inline int bits_lsb128(u128_t x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
static inline int bits_pop_lsb128(u128_t *x)
{
    int i = bits_lsb128(*x);
    *x &= *x - 1;
    return i;
}
static inline u128_t bits_bit128(int i) { return (u128_t)1 << i; }
