/* Fr arithmetic; contracts in fr.h. Constants from tools/gen/field_constants.py. */
#include "field/fr.h"

const uint64_t FR_MODULUS[FR_LIMBS] = FR_MODULUS_INIT;
static const uint64_t FR_R2[FR_LIMBS] = {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,
                                         0x0748d9d99f59ff11ULL};
#define FR_MINV 0xfffffffeffffffffULL

const fr_t FR_ZERO = {{0}};
const fr_t FR_ONE = {{0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL}};
/* omega_32 = 7^((r-1)/2^32), a primitive 2^32-th root of unity, Montgomery form */
static const fr_t FR_ROOT_2_32 = {{0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL, 0x0af53ae352a31e64ULL,
                                   0x5bf3adda19e9b27bULL}};
static const fr_t FR_GENERATOR = {{0x0000000efffffff1ULL, 0x17e363d300189c0fULL, 0xff9c57876f8457b0ULL,
                                   0x351332208fc5a8c4ULL}};

#define FIELD_T fr_t
#define FIELD_N FR_LIMBS
#define FIELD_FN(name) fr_##name
#define FIELD_MOD FR_MODULUS
#define FIELD_MINV FR_MINV
#define FIELD_R2 FR_R2
#define FIELD_ONE FR_ONE
#define FIELD_ZERO FR_ZERO
#ifndef CUZK_FIELD_PORTABLE
#define FIELD_MUL_ASM cuzk_fr_mul_adx /* mont_adx.S */
#endif
#include "field/field_impl.h"

void fr_pow_u64(fr_t *r, const fr_t *a, uint64_t e)
{
    fr_pow(r, a, &e, 1);
}

void fr_batch_inv(fr_t *out, const fr_t *in, fr_t *scratch, size_t n)
{
    /* Montgomery's trick: prefix products, one inversion, walk back. Zeros are skipped. */
    fr_t acc = FR_ONE;
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!fr_is_zero(&in[i]))
            fr_mul(&acc, &acc, &in[i]);
    }
    fr_inv(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (fr_is_zero(&in[i])) {
            out[i] = FR_ZERO;
            continue;
        }
        fr_t inv_i;
        fr_mul(&inv_i, &acc, &scratch[i]);
        fr_mul(&acc, &acc, &in[i]);
        out[i] = inv_i;
    }
}

void fr_from_limbs_reduce(fr_t *r, const uint64_t in[FR_LIMBS])
{
    /* in < 2^256 < 3r, so at most two subtractions bring it below r. */
    uint64_t t[FR_LIMBS];
    memcpy(t, in, sizeof t);
    while (!limbs_lt(t, FR_MODULUS, FR_LIMBS)) {
        uint64_t b = 0;
        for (size_t i = 0; i < FR_LIMBS; i++)
            t[i] = sbb64(t[i], FR_MODULUS[i], b, &b);
    }
    (void)fr_from_limbs(r, t);
}

void fr_generator(fr_t *g)
{
    *g = FR_GENERATOR;
}

cuzk_status fr_root_of_unity(fr_t *w, unsigned log2_n)
{
    if (log2_n > FR_TWO_ADICITY)
        return CUZK_E_INVALID_ARG;
    fr_t t = FR_ROOT_2_32;
    for (unsigned i = log2_n; i < FR_TWO_ADICITY; i++)
        fr_sqr(&t, &t);
    *w = t;
    return CUZK_OK;
}

bool fr_sqrt(fr_t *r, const fr_t *a)
{
    /* Tonelli-Shanks with r - 1 = 2^32 * t, using the known non-residue generator 7. */
    if (fr_is_zero(a)) {
        *r = FR_ZERO;
        return true;
    }
    if (fr_legendre(a) != 1)
        return false;
    uint64_t t[FR_LIMBS];
    fr_modulus_minus(t, 1);
    for (int k = 0; k < FR_TWO_ADICITY; k++)
        fr_shr1(t);
    /* x = a^((t+1)/2), b = a^t, z = omega_32 */
    uint64_t t1[FR_LIMBS], c = 1;
    for (size_t i = 0; i < FR_LIMBS; i++)
        t1[i] = adc64(t[i], 0, c, &c);
    fr_shr1(t1);
    fr_t x, b, z = FR_ROOT_2_32;
    fr_pow(&x, a, t1, FR_LIMBS);
    fr_pow(&b, a, t, FR_LIMBS);
    unsigned m = FR_TWO_ADICITY;
    while (!fr_is_one(&b)) {
        unsigned i = 0;
        fr_t b2 = b;
        while (!fr_is_one(&b2)) {
            fr_sqr(&b2, &b2);
            i++;
        }
        fr_t g = z;
        for (unsigned j = 0; j + i + 1 < m; j++)
            fr_sqr(&g, &g);
        fr_mul(&x, &x, &g);
        fr_sqr(&z, &g);
        fr_mul(&b, &b, &z);
        m = i;
    }
    *r = x;
    return true;
}
