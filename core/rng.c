#include "rng.h"

void pcg32_seed(pcg32_t *rng, uint64_t initstate, uint64_t initseq)
{
    rng->state = 0;
    rng->inc = (initseq << 1) | 1;
    pcg32_next(rng);
    rng->state += initstate;
    pcg32_next(rng);
}

/* Jump the LCG by delta steps in O(log delta): compose (mult, plus) by squaring. */
void pcg32_advance(pcg32_t *rng, uint64_t delta)
{
    uint64_t cur_mult = 6364136223846793005ULL, cur_plus = rng->inc;
    uint64_t acc_mult = 1, acc_plus = 0;
    while (delta > 0) {
        if (delta & 1) {
            acc_mult *= cur_mult;
            acc_plus = acc_plus * cur_mult + cur_plus;
        }
        cur_plus = (cur_mult + 1) * cur_plus;
        cur_mult *= cur_mult;
        delta >>= 1;
    }
    rng->state = acc_mult * rng->state + acc_plus;
}

void pcg32_shuffle_u8(pcg32_t *rng, uint8_t *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)pcg32_bounded(rng, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

uint64_t rng_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
