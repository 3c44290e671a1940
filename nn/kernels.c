/* The kernels of nn/kernel.h for each instruction set, and the choice among them. */
#include <stdlib.h>
#include <string.h>

#include "nn/internal.h"

/* ---- portable C: one float a "vector" (what the compiler makes of it) ---- */
#define KSUFFIX(x) x##_generic
#define KATTR
#define KVEC          float
#define KW            1
#define KLOAD(p)      (*(p))
#define KSTORE(p, v)  (*(p) = (v))
#define KSET1(x)      (x)
#define KFMA(a, b, c) ((a) * (b) + (c))
#define KADD(a, b)    ((a) + (b))
#define KRELU(v)      ((v) > 0.0f ? (v) : 0.0f)
#define KSUM(v)       (v)
#define KR4C          4
#define KR1C          8
#include "nn/kernel.h"
#undef KSUFFIX
#undef KATTR
#undef KVEC
#undef KW
#undef KLOAD
#undef KSTORE
#undef KSET1
#undef KFMA
#undef KADD
#undef KRELU
#undef KSUM
#undef KR4C
#undef KR1C

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* ---- AVX2 with FMA: 8 floats ---- */
#define KSUFFIX(x)    x##_avx2
#define KATTR         __attribute__((target("avx2,fma")))
#define KVEC          __m256
#define KW            8
#define KLOAD(p)      _mm256_loadu_ps(p)
#define KSTORE(p, v)  _mm256_storeu_ps((p), (v))
#define KSET1(x)      _mm256_set1_ps(x)
#define KFMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define KADD(a, b)    _mm256_add_ps((a), (b))
#define KRELU(v)      _mm256_max_ps((v), _mm256_setzero_ps())
#define KSUM(v)       sum8_avx2(v)
#define KR4C          2
#define KR1C          8
static KATTR inline float sum8_avx2(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return _mm_cvtss_f32(s);
}
#include "nn/kernel.h"
#undef KSUFFIX
#undef KATTR
#undef KVEC
#undef KW
#undef KLOAD
#undef KSTORE
#undef KSET1
#undef KFMA
#undef KADD
#undef KRELU
#undef KSUM
#undef KR4C
#undef KR1C

/* ---- AVX-512: 16 floats ---- */
#define KSUFFIX(x)    x##_avx512
#define KATTR         __attribute__((target("avx512f,avx2,fma")))
#define KVEC          __m512
#define KW            16
#define KLOAD(p)      _mm512_loadu_ps(p)
#define KSTORE(p, v)  _mm512_storeu_ps((p), (v))
#define KSET1(x)      _mm512_set1_ps(x)
#define KFMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define KADD(a, b)    _mm512_add_ps((a), (b))
#define KRELU(v)      _mm512_max_ps((v), _mm512_setzero_ps())
#define KSUM(v)       sum16_avx512(v)
#define KR4C          4
#define KR1C          8
static KATTR inline float sum16_avx512(__m512 v)
{
    __m256 lo = _mm512_castps512_ps256(v);
    __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
    return sum8_avx2(_mm256_add_ps(lo, hi));
}
#include "nn/kernel.h"
#define NN_HAVE_X86 1
#endif

static const nn_kernels_t kernel_table[] = {
    {"generic", 1, layer_generic, dot_generic, peak_generic},
#ifdef NN_HAVE_X86
    {"avx2", 8, layer_avx2, dot_avx2, peak_avx2},
    {"avx512", 16, layer_avx512, dot_avx512, peak_avx512},
#endif
};

/* Whether the processor runs kernel k. */
static int supported(const nn_kernels_t *k)
{
#ifdef NN_HAVE_X86
    __builtin_cpu_init();
    if (!strcmp(k->name, "avx2"))
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (!strcmp(k->name, "avx512"))
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
               __builtin_cpu_supports("fma");
#endif
    return !strcmp(k->name, "generic");
}

/* The widest supported kernel, or SKYLINE_NN_ISA's if supported. */
static const nn_kernels_t *choose(void)
{
    int n = (int)(sizeof kernel_table / sizeof kernel_table[0]);
    const char *want = getenv("SKYLINE_NN_ISA");
    const nn_kernels_t *best = &kernel_table[0];
    for (int i = 0; i < n; i++) {
        if (!supported(&kernel_table[i]))
            continue;
        if (want && !strcmp(want, kernel_table[i].name))
            return &kernel_table[i];
        best = &kernel_table[i];
    }
    return best;
}

const nn_kernels_t *nn_kernels(void)
{
    static const nn_kernels_t *chosen; /* set once; every thread computes the same value */
    const nn_kernels_t *k = __atomic_load_n(&chosen, __ATOMIC_ACQUIRE);
    if (!k) {
        k = choose();
        __atomic_store_n(&chosen, k, __ATOMIC_RELEASE);
    }
    return k;
}

const char *nn_isa(void) { return nn_kernels()->name; }
