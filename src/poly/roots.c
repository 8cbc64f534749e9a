/* Roots of unity in the ff (7^t) and snarkjs (5^t) conventions; contracts in roots.h. */
#include "poly/roots.h"

/* (r - 1) >> 32 = t, as little-endian limbs, from FR_MODULUS. */
static void two_adic_cofactor(uint64_t t[FR_LIMBS])
{
    for (unsigned i = 0; i < FR_LIMBS; i++) {
        uint64_t hi = i + 1 < FR_LIMBS ? FR_MODULUS[i + 1] : 0;
        uint64_t lo = FR_MODULUS[i] - (i == 0); /* r is odd: r - 1 borrows nothing */
        t[i] = (lo >> 32) | (hi << 32);
    }
}

cuzk_status poly_root_of_unity(fr_t *w, unsigned log2_n, poly_roots roots)
{
    if (!w || log2_n > FR_TWO_ADICITY)
        return CUZK_E_INVALID_ARG;
    if (roots == POLY_ROOTS_FF)
        return fr_root_of_unity(w, log2_n);
    if (roots != POLY_ROOTS_SNARKJS)
        return CUZK_E_INVALID_ARG;
    uint64_t t[FR_LIMBS];
    two_adic_cofactor(t);
    fr_t five, x;
    fr_from_u64(&five, 5);
    fr_pow(&x, &five, t, FR_LIMBS);
    for (unsigned i = log2_n; i < FR_TWO_ADICITY; i++)
        fr_sqr(&x, &x);
    *w = x;
    return CUZK_OK;
}
