/* PCG32 against every reference vector of shared/pcg32-vectors.md. */
#include "core/rng.h"
#include "tests/test.h"

static void check_outputs(uint64_t s, uint64_t q, uint64_t state, uint64_t inc, const uint32_t *out,
                          int n)
{
    pcg32_t r;
    pcg32_seed(&r, s, q);
    CHECK(r.state == state);
    CHECK(r.inc == inc);
    for (int i = 0; i < n; i++)
        CHECK_MSG(pcg32_next(&r) == out[i], "seed (%llu,%llu) output %d", (unsigned long long)s,
                  (unsigned long long)q, i);
}

int main(void)
{
    static const uint32_t v42[] = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b,
                                   0xcbed606e, 0xbfc6a3ad, 0x812fff6d, 0xe61f305a, 0xf9384b90};
    static const uint32_t v0[] = {0xe4c14788, 0x379c6516, 0x5c4ab3bb, 0x601d23e0, 0x1c382b8c};
    static const uint32_t v12345[] = {0x87ede634, 0x3433fc18, 0x810d4ae3, 0xcd51e088, 0x48954f0e};
    check_outputs(42, 54, 0x185706b82c2e03f8ULL, 0x6d, v42, 10);
    check_outputs(0, 0, 0x5851f42d4c957f2eULL, 0x1, v0, 5);
    check_outputs(12345, 1, 0x10fdb8f9fae23e8fULL, 0x3, v12345, 5);

    pcg32_t r;
    pcg32_seed(&r, 42, 54);
    static const uint32_t b6[] = {3, 3, 2, 1, 1, 4, 5, 3, 0, 2};
    static const uint32_t b1000[] = {742, 993, 174, 757, 663, 987, 578, 443, 530, 390};
    for (int i = 0; i < 10; i++)
        CHECK_EQ_INT(pcg32_bounded(&r, 6), b6[i]);
    for (int i = 0; i < 10; i++)
        CHECK_EQ_INT(pcg32_bounded(&r, 1000), b1000[i]);

    static const uint32_t fresh1000[] = {783, 97, 824, 955, 955, 566, 285, 445, 674, 144};
    pcg32_seed(&r, 42, 54);
    for (int i = 0; i < 10; i++)
        CHECK_EQ_INT(pcg32_bounded(&r, 1000), fresh1000[i]);

    pcg32_seed(&r, 42, 54);
    pcg32_advance(&r, 1000);
    CHECK(r.state == 0x77d57a2a8f8fc510ULL);
    CHECK(pcg32_next(&r) == 0xefebeab3);
    CHECK(pcg32_next(&r) == 0x741acd5d);
    CHECK(pcg32_next(&r) == 0xef01ebfe);

    /* advance(n) equals n steps, for a few n including 0. */
    static const uint64_t steps[] = {0, 1, 2, 63, 64, 12345};
    for (int k = 0; k < 6; k++) {
        pcg32_t a, b;
        pcg32_seed(&a, 7, 11);
        b = a;
        pcg32_advance(&a, steps[k]);
        for (uint64_t i = 0; i < steps[k]; i++)
            pcg32_next(&b);
        CHECK(a.state == b.state);
    }
    return test_finish("test_rng");
}
