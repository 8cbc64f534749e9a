/* Benchmark inputs shared by the cuzk-bench subcommands: scalars and curve points. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void bench_random_scalars(uint64_t *s, size_t n, uint64_t *seed)
{
    for (size_t i = 0; i < 4 * n; i++)
        s[i] = bench_rand64(seed);
    for (size_t i = 0; i < n; i++)
        s[4 * i + 3] &= 0x3fffffffffffffffULL; /* < 2^254 < r */
}

void bench_bool90_scalars(uint64_t *s, size_t n, uint64_t *seed)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t roll = bench_rand64(seed) % 20;
        if (roll < 2) {
            bench_random_scalars(s + 4 * i, 1, seed);
        } else {
            memset(s + 4 * i, 0, 32);
            s[4 * i] = roll & 1;
        }
    }
}

/* n distinct-looking G1/G2 bases: 64 random multiples of the generator, then running sums. */
#define MAKE_BASES(G, aff_t, jac_t)                                                           \
    aff_t *bench_##G##_bases(size_t n, uint64_t *seed)                                          \
    {                                                                                         \
        aff_t *out = malloc(n * sizeof *out), gen;                                            \
        jac_t *tmp = malloc(n * sizeof *tmp), seedp[64];                                      \
        G##_generator(&gen);                                                                  \
        for (int i = 0; i < 64; i++) {                                                        \
            uint64_t k[4];                                                                    \
            bench_random_scalars(k, 1, seed);                                                       \
            G##_jac_from_affine(&seedp[i], &gen);                                             \
            G##_mul(&seedp[i], &seedp[i], k, 4);                                              \
        }                                                                                     \
        for (size_t i = 0; i < n; i++) {                                                      \
            if (i < 64)                                                                       \
                tmp[i] = seedp[i];                                                            \
            else                                                                              \
                G##_add(&tmp[i], &tmp[i - 64], &seedp[i % 61]);                               \
        }                                                                                     \
        G##_batch_to_affine(out, tmp, n);                                                     \
        free(tmp);                                                                            \
        return out;                                                                           \
    }
MAKE_BASES(g1, g1_affine_t, g1_jac_t)
MAKE_BASES(g2, g2_affine_t, g2_jac_t)
