#pragma once
/* PCG32 (XSH-RR, 64-bit state, 32-bit output), written from the published algorithm. */
#include <stdint.h>

typedef struct pcg32 {
    uint64_t state; /* LCG state, advanced before each output */
    uint64_t inc;   /* odd increment: selects the stream */
} pcg32_t;

void pcg32_seed(pcg32_t *rng, uint64_t initstate, uint64_t initseq);
void pcg32_advance(pcg32_t *rng, uint64_t delta);

/* Fisher-Yates shuffle of n bytes. */
void pcg32_shuffle_u8(pcg32_t *rng, uint8_t *a, int n);

/* Mixes a 64-bit value (splitmix64 finaliser): seeds derived from a seed and an index. */
uint64_t rng_mix64(uint64_t x);

static inline uint32_t pcg32_next(pcg32_t *rng)
{
    uint64_t old = rng->state;
    rng->state = old * 6364136223846793005ULL + rng->inc;
    uint32_t x = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (x >> rot) | (x << ((-rot) & 31));
}

/* Uniform in [0, bound) without modulo bias; bound must be > 0. */
static inline uint32_t pcg32_bounded(pcg32_t *rng, uint32_t bound)
{
    uint32_t threshold = (uint32_t)(-bound) % bound;
    for (;;) {
        uint32_t r = pcg32_next(rng);
        if (r >= threshold)
            return r % bound;
    }
}

/* Uniform double in [0, 1). */
static inline double pcg32_double(pcg32_t *rng)
{
    return (double)pcg32_next(rng) * (1.0 / 4294967296.0);
}
