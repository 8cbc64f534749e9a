/* Fp arithmetic; contracts in fp.h. Constants from tools/gen/field_constants.py. */
#include "field/fp.h"

const uint64_t FP_MODULUS[FP_LIMBS] = FP_MODULUS_INIT;
static const uint64_t FP_R2[FP_LIMBS] = {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
                                         0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL};

const fp_t FP_ZERO = {{0}};
const fp_t FP_ONE = {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                      0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}};

#define FIELD_T fp_t
#define FIELD_N FP_LIMBS
#define FIELD_FN(name) fp_##name
#define FIELD_MOD FP_MODULUS
#define FIELD_MINV FP_MINV
#define FIELD_R2 FP_R2
#define FIELD_ONE FP_ONE
#define FIELD_ZERO FP_ZERO
#ifndef CUZK_FIELD_PORTABLE
#define FIELD_MUL_ASM cuzk_fp_mul_adx /* mont_adx.S */
#endif
#include "field/field_impl.h"

void fp_half(fp_t *r, const fp_t *a)
{
    /* a/2 = a >> 1 if a is even, else (a + p) >> 1 (a + p < 2^384 since p < 2^381). */
    uint64_t t[FP_LIMBS], c = 0, mask = 0 - (a->l[0] & 1);
    for (size_t i = 0; i < FP_LIMBS; i++)
        t[i] = adc64(a->l[i], FP_MODULUS[i] & mask, c, &c);
    for (size_t i = 0; i < FP_LIMBS; i++)
        r->l[i] = (t[i] >> 1) | (i + 1 < FP_LIMBS ? t[i + 1] << 63 : 0);
}

bool fp_sqrt(fp_t *r, const fp_t *a)
{
    /* p = 3 mod 4: candidate a^((p+1)/4), accepted iff its square is a. */
    uint64_t e[FP_LIMBS], c = 1;
    for (size_t i = 0; i < FP_LIMBS; i++)
        e[i] = adc64(FP_MODULUS[i], 0, c, &c);
    for (int k = 0; k < 2; k++)
        fp_shr1(e);
    fp_t s, s2;
    fp_pow(&s, a, e, FP_LIMBS);
    fp_sqr(&s2, &s);
    if (!fp_eq(&s2, a))
        return false;
    *r = s;
    return true;
}

bool fp_is_lexicographically_largest(const fp_t *a)
{
    /* canonical(a) > (p-1)/2  <=>  2*canonical(a) > p - 1  <=>  2*canonical(a) >= p */
    uint64_t v[FP_LIMBS], half[FP_LIMBS];
    fp_to_limbs(v, a);
    fp_modulus_minus(half, 1);
    fp_shr1(half);
    /* v > half  <=>  half < v */
    return limbs_lt(half, v, FP_LIMBS);
}

const char *fp_backend_name(void)
{
#ifdef CUZK_FIELD_PORTABLE
    return "portable";
#else
    return "x86_64";
#endif
}
