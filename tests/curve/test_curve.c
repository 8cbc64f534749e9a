/* G1/G2 tests: oracle vectors from tests/oracle/gen-curve.mjs (@noble/curves) on stdin,
 * plus group-law, batch-conversion and subgroup-check properties (group_tests.h).
 *
 *   node tests/oracle/gen-curve.mjs | build/tests/curve/test_curve
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "curve/curve.h"

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A pseudo-random Fp element (< 2^380 < p) determined by `seed`. */
static void fp_make(fp_t *r, uint64_t seed)
{
    uint64_t l[FP_LIMBS];
    for (int i = 0; i < FP_LIMBS; i++)
        l[i] = splitmix64(&seed);
    l[FP_LIMBS - 1] &= 0x0fffffffffffffffULL;
    fp_from_limbs(r, l);
}

static void fp2_make(fp2_t *r, uint64_t seed)
{
    fp_make(&r->c0, seed);
    fp_make(&r->c1, ~seed);
}

/* Cofactors h1 = (x-1)^2/3 and h2 of E(Fp) and E'(Fp2) (BLS12-381 specification). */
#define H1_HEX "396c8c005555e1568c00aaab0000aaab"
#define H2_HEX "05d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5"

#define G(name) g1_##name
#define T(name) t1_##name
#define AFF g1_affine_t
#define JAC g1_jac_t
#define FE fp_t
#define UNC G1_UNCOMPRESSED_BYTES
#define COMP G1_COMPRESSED_BYTES
#define GROUP "g1"
#define FE_MUL fp_mul
#define FE_SQR fp_sqr
#define FE_ADD fp_add
#define FE_SUB fp_sub
#define FE_EQ fp_eq
#define FE_SQRT fp_sqrt
#define FE_MAKE fp_make
#define COFACTOR_HEX H1_HEX
#include "group_tests.h"
#undef G
#undef T
#undef AFF
#undef JAC
#undef FE
#undef UNC
#undef COMP
#undef GROUP
#undef FE_MUL
#undef FE_SQR
#undef FE_ADD
#undef FE_SUB
#undef FE_EQ
#undef FE_SQRT
#undef FE_MAKE
#undef COFACTOR_HEX

#define G(name) g2_##name
#define T(name) t2_##name
#define AFF g2_affine_t
#define JAC g2_jac_t
#define FE fp2_t
#define UNC G2_UNCOMPRESSED_BYTES
#define COMP G2_COMPRESSED_BYTES
#define GROUP "g2"
#define FE_MUL fp2_mul
#define FE_SQR fp2_sqr
#define FE_ADD fp2_add
#define FE_SUB fp2_sub
#define FE_EQ fp2_eq
#define FE_SQRT fp2_sqrt
#define FE_MAKE fp2_make
#define COFACTOR_HEX H2_HEX
#include "group_tests.h"

int main(void)
{
    static char line[1 << 14];
    char *tok[8];
    unsigned long lines = 0, by_group[2] = {0, 0};
    while (fgets(line, sizeof line, stdin)) {
        int n = split_tokens(line, tok, 8);
        if (n == 0)
            continue;
        lines++;
        bool ok = false;
        if (!strncmp(tok[0], "g1_", 3))
            ok = t1_run_line(tok, n), by_group[0] += ok;
        else if (!strncmp(tok[0], "g2_", 3))
            ok = t2_run_line(tok, n), by_group[1] += ok;
        CHECK(ok, "unknown oracle line %lu: %s (%d tokens)", lines, tok[0], n);
    }
    CHECK(by_group[0] > 100 && by_group[1] > 100, "too few oracle vectors: g1 %lu, g2 %lu",
          by_group[0], by_group[1]);
    t1_properties();
    t2_properties();
    return check_summary("curve");
}
