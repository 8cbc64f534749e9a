#include "poly_test_util.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

void poly_test_seed(uint64_t seed)
{
    rng_state = seed ? seed : 1;
}

uint64_t next_u64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

void random_fr(fr_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t l[FR_LIMBS];
        for (int j = 0; j < FR_LIMBS; j++)
            l[j] = next_u64();
        fr_from_limbs_reduce(&v[i], l);
    }
}

fr_t *alloc_fr(size_t n)
{
    fr_t *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return v;
}

void eval_at(fr_t *out, const fr_t *x, size_t n, const fr_t *pt)
{
    fr_t acc = FR_ZERO;
    for (size_t i = n; i-- > 0;) {
        fr_mul(&acc, &acc, pt);
        fr_add(&acc, &acc, &x[i]);
    }
    *out = acc;
}
