/* Shared implementation of a prime field in Montgomery form (internal to field/).
 *
 * Included once per field by fp.c and fr.c after defining:
 *   FIELD_T    the element type (struct with uint64_t l[FIELD_N])
 *   FIELD_N    number of 64-bit limbs
 *   FIELD_FN   name-mangling macro: FIELD_FN(add) -> fp_add
 *   FIELD_MOD  modulus limbs, FIELD_MINV = -m^-1 mod 2^64, FIELD_R2 = R^2 mod m limbs
 *   FIELD_ONE  the element 1, FIELD_ZERO the element 0
 *   FIELD_MUL_ASM (optional) an assembly Montgomery multiplication r = a*b/R with the
 *              signature void (uint64_t *r, const uint64_t *a, const uint64_t *b), used
 *              when the active CPU back end (cpu.h) is not the portable one
 * Provides the out-of-line public functions whose contracts are documented in fp.h / fr.h
 * (add, sub, neg and dbl are inline in those headers).
 */
#include <string.h>

#include "field/cpu.h"
#include "field/mont.h"
#ifndef CUZK_FIELD_PORTABLE
#include "field/safegcd.h"
#endif

#ifdef FIELD_MUL_ASM
void FIELD_MUL_ASM(uint64_t *r, const uint64_t *a, const uint64_t *b);
#endif

void FIELD_FN(mul)(FIELD_T *r, const FIELD_T *a, const FIELD_T *b)
{
#ifdef FIELD_MUL_ASM
    if (cuzk_cpu_use_adx()) { /* the adx and ifma back ends (cpu.h) */
        FIELD_MUL_ASM(r->l, a->l, b->l);
        return;
    }
#endif
    mont_mul(r->l, a->l, b->l, FIELD_MOD, FIELD_MINV, FIELD_N);
}

void FIELD_FN(sqr)(FIELD_T *r, const FIELD_T *a)
{
    FIELD_FN(mul)(r, a, a);
}

void FIELD_FN(pow)(FIELD_T *r, const FIELD_T *a, const uint64_t *e, size_t nlimbs)
{
    FIELD_T acc = FIELD_ONE, base = *a;
    for (size_t i = nlimbs; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            FIELD_FN(sqr)(&acc, &acc);
            if ((e[i] >> bit) & 1)
                FIELD_FN(mul)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

bool FIELD_FN(is_zero)(const FIELD_T *a)
{
    return limbs_is_zero(a->l, FIELD_N);
}

bool FIELD_FN(eq)(const FIELD_T *a, const FIELD_T *b)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < FIELD_N; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

bool FIELD_FN(is_one)(const FIELD_T *a)
{
    return FIELD_FN(eq)(a, &FIELD_ONE);
}

cuzk_status FIELD_FN(from_limbs)(FIELD_T *r, const uint64_t in[FIELD_N])
{
    if (!limbs_lt(in, FIELD_MOD, FIELD_N))
        return CUZK_E_FIELD_NONCANONICAL;
    mont_mul(r->l, in, FIELD_R2, FIELD_MOD, FIELD_MINV, FIELD_N);
    return CUZK_OK;
}

void FIELD_FN(to_limbs)(uint64_t out[FIELD_N], const FIELD_T *a)
{
    static const uint64_t one_raw[FIELD_N] = {1};
    mont_mul(out, a->l, one_raw, FIELD_MOD, FIELD_MINV, FIELD_N);
}

void FIELD_FN(from_u64)(FIELD_T *r, uint64_t v)
{
    uint64_t in[FIELD_N] = {v};
    (void)FIELD_FN(from_limbs)(r, in); /* v < 2^64 < modulus: cannot fail */
}

cuzk_status FIELD_FN(from_bytes_le)(FIELD_T *r, const uint8_t in[8 * FIELD_N])
{
    uint64_t l[FIELD_N];
    for (size_t i = 0; i < FIELD_N; i++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--)
            v = v << 8 | in[8 * i + (size_t)j];
        l[i] = v;
    }
    return FIELD_FN(from_limbs)(r, l);
}

cuzk_status FIELD_FN(from_bytes_be)(FIELD_T *r, const uint8_t in[8 * FIELD_N])
{
    uint8_t le[8 * FIELD_N];
    for (size_t i = 0; i < 8 * FIELD_N; i++)
        le[i] = in[8 * FIELD_N - 1 - i];
    return FIELD_FN(from_bytes_le)(r, le);
}

void FIELD_FN(to_bytes_le)(uint8_t out[8 * FIELD_N], const FIELD_T *a)
{
    uint64_t l[FIELD_N];
    FIELD_FN(to_limbs)(l, a);
    for (size_t i = 0; i < FIELD_N; i++)
        for (size_t j = 0; j < 8; j++)
            out[8 * i + j] = (uint8_t)(l[i] >> (8 * j));
}

void FIELD_FN(to_bytes_be)(uint8_t out[8 * FIELD_N], const FIELD_T *a)
{
    uint8_t le[8 * FIELD_N];
    FIELD_FN(to_bytes_le)(le, a);
    for (size_t i = 0; i < 8 * FIELD_N; i++)
        out[i] = le[8 * FIELD_N - 1 - i];
}

/* Exponent (m - 1) / 2 and m - 2, computed from the modulus limbs (m is odd). */
static void FIELD_FN(modulus_minus)(uint64_t out[FIELD_N], uint64_t k)
{
    uint64_t b = 0;
    out[0] = sbb64(FIELD_MOD[0], k, 0, &b);
    for (size_t i = 1; i < FIELD_N; i++)
        out[i] = sbb64(FIELD_MOD[i], 0, b, &b);
}

static void FIELD_FN(shr1)(uint64_t *a)
{
    for (size_t i = 0; i < FIELD_N; i++)
        a[i] = (a[i] >> 1) | (i + 1 < FIELD_N ? a[i + 1] << 63 : 0);
}

void FIELD_FN(inv)(FIELD_T *r, const FIELD_T *a)
{
#ifdef CUZK_FIELD_PORTABLE
    uint64_t e[FIELD_N];
    FIELD_FN(modulus_minus)(e, 2);
    FIELD_FN(pow)(r, a, e, FIELD_N); /* Fermat: a^(m-2); 0 maps to 0 */
#else
    /* The integer inverse of a R (Bernstein-Yang, safegcd.h; 0 maps to 0) is a^-1 R^-1;
     * two Montgomery products with R^2 turn it into a^-1 R. */
    uint64_t t[FIELD_N];
    field_inv_safegcd(t, a->l, FIELD_MOD, FIELD_N);
    mont_mul(t, t, FIELD_R2, FIELD_MOD, FIELD_MINV, FIELD_N);
    mont_mul(r->l, t, FIELD_R2, FIELD_MOD, FIELD_MINV, FIELD_N);
#endif
}

int FIELD_FN(legendre)(const FIELD_T *a)
{
    uint64_t e[FIELD_N];
    FIELD_T t;
    FIELD_FN(modulus_minus)(e, 1);
    FIELD_FN(shr1)(e);
    FIELD_FN(pow)(&t, a, e, FIELD_N); /* Euler's criterion */
    if (FIELD_FN(is_zero)(&t))
        return 0;
    return FIELD_FN(is_one)(&t) ? 1 : -1;
}
