/* zkey_t lifetime, section sizes and the snarkjs encoders shared by reader and writer. */
#include <stdlib.h>
#include <string.h>

#include "cs/iden3_bin.h"
#include "groth16/zkey_internal.h"

const char *zkey_section_name(uint32_t type)
{
    static const char *const names[] = {
        [ZS_HEADER] = "header", [ZS_GROTH] = "groth16 header", [ZS_IC] = "IC",
        [ZS_COEFS] = "coefficients", [ZS_A] = "A", [ZS_B1] = "B1", [ZS_B2] = "B2",
        [ZS_C] = "C", [ZS_H] = "H", [ZS_CONTRIB] = "contributions",
    };
    return type >= 1 && type <= ZS_CONTRIB ? names[type] : "unknown";
}

uint64_t zkey_section_size(const zkey_t *z, uint32_t type)
{
    switch (type) {
    case ZS_HEADER: return 4;
    case ZS_GROTH: return ZKEY_GROTH_HEADER_BYTES;
    case ZS_IC: return ((uint64_t)z->n_public + 1) * ZKEY_G1_BYTES;
    case ZS_COEFS: return 4 + (uint64_t)z->n_coefs * ZKEY_COEF_BYTES;
    case ZS_A:
    case ZS_B1: return (uint64_t)z->n_vars * ZKEY_G1_BYTES;
    case ZS_B2: return (uint64_t)z->n_vars * ZKEY_G2_BYTES;
    case ZS_C: return ((uint64_t)z->n_vars - z->n_public - 1) * ZKEY_G1_BYTES;
    case ZS_H: return (uint64_t)z->domain_size * ZKEY_G1_BYTES;
    case ZS_CONTRIB: return z->contributions_len;
    default: return 0;
    }
}

void zkey_put_fp(uint8_t *out, const fp_t *a) { iden3_limbs_to_bytes(out, a->l, FP_LIMBS); }

void zkey_put_g1(uint8_t out[ZKEY_G1_BYTES], const g1_affine_t *p)
{
    zkey_put_fp(out, &p->x);
    zkey_put_fp(out + ZKEY_N8Q, &p->y);
}

void zkey_put_g2(uint8_t out[ZKEY_G2_BYTES], const g2_affine_t *p)
{
    zkey_put_fp(out, &p->x.c0);
    zkey_put_fp(out + ZKEY_N8Q, &p->x.c1);
    zkey_put_fp(out + 2 * ZKEY_N8Q, &p->y.c0);
    zkey_put_fp(out + 3 * ZKEY_N8Q, &p->y.c1);
}

void zkey_put_coef_value(uint8_t out[ZKEY_N8R], const fr_t *v)
{
    /* raw(v) = v R; Montgomery-multiplying by the element whose raw limbs are R^2 mod r
     * (fr_from_limbs of the integer R mod r, i.e. of FR_ONE's raw limbs) gives raw v R^2. */
    fr_t r2, t;
    fr_from_limbs(&r2, FR_ONE.l);
    fr_mul(&t, v, &r2);
    iden3_limbs_to_bytes(out, t.l, FR_LIMBS);
}

void zkey_free(zkey_t *z)
{
    free(z->ic);
    free(z->coefs);
    free(z->a);
    free(z->b1);
    free(z->b2);
    free(z->c);
    free(z->h);
    free(z->contributions);
    memset(z, 0, sizeof *z);
}

cuzk_status zkey_alloc(zkey_t *out, uint32_t n_vars, uint32_t n_public, uint32_t domain_size,
                       uint32_t n_coefs, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if ((uint64_t)n_public + 1 > n_vars)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "zkey: n_vars %u must be at least n_public %u + 1", n_vars, n_public);
    if (domain_size == 0 || (domain_size & (domain_size - 1)) != 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "zkey: domain_size %u is not a power of two",
                         domain_size);
    out->n_vars = n_vars;
    out->n_public = n_public;
    out->domain_size = domain_size;
    out->n_coefs = n_coefs;
    size_t nc = (size_t)n_vars - n_public - 1;
    out->ic = calloc((size_t)n_public + 1, sizeof *out->ic);
    out->coefs = calloc(n_coefs ? n_coefs : 1, sizeof *out->coefs);
    out->a = calloc(n_vars, sizeof *out->a);
    out->b1 = calloc(n_vars, sizeof *out->b1);
    out->b2 = calloc(n_vars, sizeof *out->b2);
    out->c = calloc(nc ? nc : 1, sizeof *out->c);
    out->h = calloc(domain_size, sizeof *out->h);
    out->contributions_len = ZKEY_CONTRIB_MIN_BYTES;
    out->contributions = calloc(1, ZKEY_CONTRIB_MIN_BYTES);
    if (!out->ic || !out->coefs || !out->a || !out->b1 || !out->b2 || !out->c || !out->h ||
        !out->contributions) {
        zkey_free(out);
        return cuzk_fail(err, CUZK_E_NOMEM, "zkey: out of memory for %u variables", n_vars);
    }
    /* calloc gives all-zero limbs: every point is (0, 0), the point at infinity. */
    for (uint32_t i = 0; i < ZKEY_N_SECTIONS; i++)
        out->section_order[i] = i + 1;
    out->n_sections = ZKEY_N_SECTIONS;
    return CUZK_OK;
}

uint64_t zkey_file_size(const zkey_t *z)
{
    uint64_t total = 12;
    for (uint32_t i = 0; i < z->n_sections; i++)
        total += 12 + zkey_section_size(z, z->section_order[i]);
    return total;
}
