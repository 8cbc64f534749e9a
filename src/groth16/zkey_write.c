/* .zkey writer (format: zkey.h): encodes the sections through cuzk_write_atomic
 * (temporary file in the target directory, fsync, rename). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/file_io.h"
#include "cs/iden3_bin.h"
#include "groth16/zkey_internal.h"

typedef struct {
    FILE *f;
    int failed; /* errno of the first failed write, 0 if none */
} out_t;

static void put(out_t *o, const void *p, size_t n)
{
    if (!o->failed && fwrite(p, 1, n, o->f) != n)
        o->failed = errno ? errno : EIO;
}

static void put32(out_t *o, uint32_t v)
{
    uint8_t b[4];
    iden3_put32(b, v);
    put(o, b, 4);
}

static void put_g1(out_t *o, const g1_affine_t *p)
{
    uint8_t b[ZKEY_G1_BYTES];
    zkey_put_g1(b, p);
    put(o, b, sizeof b);
}

static void put_g2(out_t *o, const g2_affine_t *p)
{
    uint8_t b[ZKEY_G2_BYTES];
    zkey_put_g2(b, p);
    put(o, b, sizeof b);
}

static void put_g1_array(out_t *o, const g1_affine_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n && !o->failed; i++)
        put_g1(o, &p[i]);
}

static void put_prime(out_t *o, const uint64_t *limbs, uint32_t n8)
{
    uint8_t b[ZKEY_N8Q];
    iden3_limbs_to_bytes(b, limbs, n8 / 8);
    put32(o, n8);
    put(o, b, n8);
}

static void put_section(out_t *o, const zkey_t *z, uint32_t type)
{
    uint8_t head[12];
    iden3_put32(head, type);
    iden3_put64(head + 4, zkey_section_size(z, type));
    put(o, head, sizeof head);
    switch (type) {
    case ZS_HEADER:
        put32(o, 1); /* Groth16 */
        break;
    case ZS_GROTH:
        put_prime(o, FP_MODULUS, ZKEY_N8Q);
        put_prime(o, FR_MODULUS, ZKEY_N8R);
        put32(o, z->n_vars);
        put32(o, z->n_public);
        put32(o, z->domain_size);
        put_g1(o, &z->alpha1);
        put_g1(o, &z->beta1);
        put_g2(o, &z->beta2);
        put_g2(o, &z->gamma2);
        put_g1(o, &z->delta1);
        put_g2(o, &z->delta2);
        break;
    case ZS_IC:
        put_g1_array(o, z->ic, (uint64_t)z->n_public + 1);
        break;
    case ZS_COEFS:
        put32(o, z->n_coefs);
        for (uint32_t i = 0; i < z->n_coefs && !o->failed; i++) {
            uint8_t b[ZKEY_COEF_BYTES];
            iden3_put32(b, z->coefs[i].matrix);
            iden3_put32(b + 4, z->coefs[i].constraint);
            iden3_put32(b + 8, z->coefs[i].signal);
            zkey_put_coef_value(b + 12, &z->coefs[i].value);
            put(o, b, sizeof b);
        }
        break;
    case ZS_A:
        put_g1_array(o, z->a, z->n_vars);
        break;
    case ZS_B1:
        put_g1_array(o, z->b1, z->n_vars);
        break;
    case ZS_B2:
        for (uint32_t i = 0; i < z->n_vars && !o->failed; i++)
            put_g2(o, &z->b2[i]);
        break;
    case ZS_C:
        put_g1_array(o, z->c, (uint64_t)z->n_vars - z->n_public - 1);
        break;
    case ZS_H:
        put_g1_array(o, z->h, z->domain_size);
        break;
    case ZS_CONTRIB:
        put(o, z->contributions, z->contributions_len);
        break;
    }
}

/* Sections 1-9 exactly once, 10 at most once (and only with contribution bytes). */
static cuzk_status check_order(const zkey_t *z, cuzk_error *err)
{
    unsigned seen = 0;
    if (z->n_sections > ZKEY_N_SECTIONS)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "zkey write: %u sections (max %u)",
                         z->n_sections, ZKEY_N_SECTIONS);
    for (uint32_t i = 0; i < z->n_sections; i++) {
        uint32_t t = z->section_order[i];
        if (t < 1 || t > ZKEY_N_SECTIONS || (seen & (1u << t)))
            return cuzk_fail(err, CUZK_E_INVALID_ARG,
                             "zkey write: section_order[%u] = %u is out of range or repeated", i,
                             t);
        seen |= 1u << t;
    }
    unsigned need = 0x3feu & ~(1u << ZS_CONTRIB); /* bits 1..9 */
    if ((seen & need) != need)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "zkey write: section_order lacks one of sections 1-9");
    if ((seen >> ZS_CONTRIB & 1u) != (z->contributions_len > 0) ||
        (z->contributions_len > 0 && !z->contributions))
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "zkey write: section 10 listed %s but contributions_len is %zu",
                         (seen >> ZS_CONTRIB & 1u) ? "yes" : "no", z->contributions_len);
    if (z->n_public + 1ull > z->n_vars)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "zkey write: nPublic %u + 1 > nVars %u",
                         z->n_public, z->n_vars);
    return CUZK_OK;
}

/* cuzk_write_atomic callback: the file header, then z's sections in section_order. */
static int emit_zkey(FILE *f, const void *ctx)
{
    const zkey_t *z = ctx;
    out_t o = {f, 0};
    uint8_t head[12];
    memcpy(head, "zkey", 4);
    iden3_put32(head + 4, 1);
    iden3_put32(head + 8, z->n_sections);
    put(&o, head, sizeof head);
    for (uint32_t i = 0; i < z->n_sections && !o.failed; i++)
        put_section(&o, z, z->section_order[i]);
    return o.failed;
}

cuzk_status zkey_write_file(const zkey_t *z, const char *path, cuzk_error *err)
{
    cuzk_status st = check_order(z, err);
    if (st != CUZK_OK)
        return st;
    return cuzk_write_atomic(path, emit_zkey, z, err);
}
