/* .zkey reader and validator (format: zkey.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_io.h"
#include "cs/iden3_bin.h"
#include "groth16/zkey_internal.h"

#define WHAT "zkey"

typedef struct {
    const uint8_t *buf;
    unsigned flags;
    cuzk_error *err;
} reader;

/* Decode one Fq coordinate (raw Montgomery limbs, must be < q). */
static cuzk_status get_fp(const reader *rd, fp_t *out, uint64_t off, uint32_t sec,
                          const char *field, uint64_t index, const char *coord)
{
    uint64_t l[FP_LIMBS];
    iden3_bytes_to_limbs(l, rd->buf + off, FP_LIMBS);
    if (iden3_limbs_cmp(l, FP_MODULUS, FP_LIMBS) >= 0)
        return cuzk_fail(rd->err, CUZK_E_POINT_COORDINATE,
                         WHAT ": section %u (%s) %s[%llu] coordinate %s at offset %llu is >= q",
                         sec, zkey_section_name(sec), field, (unsigned long long)index, coord,
                         (unsigned long long)off);
    memcpy(out->l, l, sizeof l);
    return CUZK_OK;
}

static cuzk_status get_g1(const reader *rd, g1_affine_t *p, uint64_t off, uint32_t sec,
                          const char *field, uint64_t index, bool allow_infinity)
{
    cuzk_status st;
    if ((st = get_fp(rd, &p->x, off, sec, field, index, "x")) != CUZK_OK ||
        (st = get_fp(rd, &p->y, off + ZKEY_N8Q, sec, field, index, "y")) != CUZK_OK)
        return st;
    const char *what = NULL;
    if (g1_affine_is_infinity(p)) {
        if (allow_infinity)
            return CUZK_OK;
        st = CUZK_E_POINT_INFINITY, what = "is the point at infinity";
    } else if (!g1_affine_is_on_curve(p)) {
        st = CUZK_E_POINT_NOT_ON_CURVE, what = "is not on the G1 curve";
    } else {
        return CUZK_OK;
    }
    return cuzk_fail(rd->err, st, WHAT ": section %u (%s) %s[%llu] at offset %llu %s", sec,
                     zkey_section_name(sec), field, (unsigned long long)index,
                     (unsigned long long)off, what);
}

static cuzk_status get_g2(const reader *rd, g2_affine_t *p, uint64_t off, uint32_t sec,
                          const char *field, uint64_t index, bool allow_infinity)
{
    cuzk_status st;
    if ((st = get_fp(rd, &p->x.c0, off, sec, field, index, "x.c0")) != CUZK_OK ||
        (st = get_fp(rd, &p->x.c1, off + ZKEY_N8Q, sec, field, index, "x.c1")) != CUZK_OK ||
        (st = get_fp(rd, &p->y.c0, off + 2 * ZKEY_N8Q, sec, field, index, "y.c0")) != CUZK_OK ||
        (st = get_fp(rd, &p->y.c1, off + 3 * ZKEY_N8Q, sec, field, index, "y.c1")) != CUZK_OK)
        return st;
    const char *what = NULL;
    if (g2_affine_is_infinity(p)) {
        if (allow_infinity)
            return CUZK_OK;
        st = CUZK_E_POINT_INFINITY, what = "is the point at infinity";
    } else if (!g2_affine_is_on_curve(p)) {
        st = CUZK_E_POINT_NOT_ON_CURVE, what = "is not on the G2 curve";
    } else {
        return CUZK_OK;
    }
    return cuzk_fail(rd->err, st, WHAT ": section %u (%s) %s[%llu] at offset %llu %s", sec,
                     zkey_section_name(sec), field, (unsigned long long)index,
                     (unsigned long long)off, what);
}

/* Check a prime field declaration (n8, prime) at `off`; returns the offset after it. */
static cuzk_status check_prime(const reader *rd, uint64_t *off, uint64_t end, uint32_t want_n8,
                               const uint64_t *want, const char *name)
{
    if (end - *off < 4)
        return cuzk_fail(rd->err, CUZK_E_FORMAT,
                         WHAT ": section 2 (groth16 header) ends at offset %llu before n8%s",
                         (unsigned long long)end, name);
    uint32_t n8 = iden3_le32(rd->buf + *off);
    char desc[200];
    if (n8 != want_n8) {
        if (n8 > 0 && n8 <= 64 && end - *off - 4 >= n8)
            iden3_describe_prime(desc, sizeof desc, rd->buf + *off + 4, n8);
        else
            snprintf(desc, sizeof desc, "(not shown)");
        return cuzk_fail(rd->err, CUZK_E_UNSUPPORTED,
                         WHAT ": section 2 (groth16 header) n8%s = %u at offset %llu (%s = %s); "
                         "only BLS12-381 is supported",
                         name, n8, (unsigned long long)*off, name, desc);
    }
    if (end - *off - 4 < n8)
        return cuzk_fail(rd->err, CUZK_E_FORMAT,
                         WHAT ": section 2 (groth16 header) ends inside prime %s at offset %llu",
                         name, (unsigned long long)*off + 4);
    uint64_t l[FP_LIMBS];
    iden3_bytes_to_limbs(l, rd->buf + *off + 4, n8 / 8);
    if (iden3_limbs_cmp(l, want, n8 / 8) != 0) {
        iden3_describe_prime(desc, sizeof desc, rd->buf + *off + 4, n8);
        return cuzk_fail(rd->err, CUZK_E_UNSUPPORTED,
                         WHAT ": section 2 (groth16 header) prime %s at offset %llu is %s; only "
                         "BLS12-381 is supported",
                         name, (unsigned long long)*off + 4, desc);
    }
    *off += 4 + n8;
    return CUZK_OK;
}

static cuzk_status parse_groth_header(const reader *rd, zkey_t *z, const iden3_section *s)
{
    uint64_t off = s->offset, end = s->offset + s->size;
    cuzk_status st;
    if ((st = check_prime(rd, &off, end, ZKEY_N8Q, FP_MODULUS, "q")) != CUZK_OK ||
        (st = check_prime(rd, &off, end, ZKEY_N8R, FR_MODULUS, "r")) != CUZK_OK)
        return st;
    if (s->size != ZKEY_GROTH_HEADER_BYTES)
        return cuzk_fail(rd->err, CUZK_E_FORMAT,
                         WHAT ": section 2 (groth16 header) at offset %llu has %llu bytes, "
                         "expected %u",
                         (unsigned long long)s->offset, (unsigned long long)s->size,
                         ZKEY_GROTH_HEADER_BYTES);
    z->n_vars = iden3_le32(rd->buf + off);
    z->n_public = iden3_le32(rd->buf + off + 4);
    z->domain_size = iden3_le32(rd->buf + off + 8);
    if ((uint64_t)z->n_public + 1 > z->n_vars)
        return cuzk_fail(rd->err, CUZK_E_FORMAT,
                         WHAT ": section 2 (groth16 header) at offset %llu: nPublic %u + 1 > "
                         "nVars %u",
                         (unsigned long long)off, z->n_public, z->n_vars);
    if (z->domain_size == 0 || (z->domain_size & (z->domain_size - 1)) != 0)
        return cuzk_fail(rd->err, CUZK_E_FORMAT,
                         WHAT ": section 2 (groth16 header) domainSize %u at offset %llu is not "
                         "a power of two",
                         z->domain_size, (unsigned long long)off + 8);
    off += 12;
    if ((st = get_g1(rd, &z->alpha1, off, ZS_GROTH, "alpha1", 0, false)) != CUZK_OK ||
        (st = get_g1(rd, &z->beta1, off + ZKEY_G1_BYTES, ZS_GROTH, "beta1", 0, false)) !=
            CUZK_OK)
        return st;
    off += 2 * ZKEY_G1_BYTES;
    if ((st = get_g2(rd, &z->beta2, off, ZS_GROTH, "beta2", 0, false)) != CUZK_OK ||
        (st = get_g2(rd, &z->gamma2, off + ZKEY_G2_BYTES, ZS_GROTH, "gamma2", 0, false)) !=
            CUZK_OK)
        return st;
    off += 2 * ZKEY_G2_BYTES;
    if ((st = get_g1(rd, &z->delta1, off, ZS_GROTH, "delta1", 0, false)) != CUZK_OK ||
        (st = get_g2(rd, &z->delta2, off + ZKEY_G1_BYTES, ZS_GROTH, "delta2", 0, false)) !=
            CUZK_OK)
        return st;
    return CUZK_OK;
}

static cuzk_status check_size(const reader *rd, const zkey_t *z, const iden3_section *s)
{
    uint64_t want = zkey_section_size(z, s->type);
    if (s->size == want)
        return CUZK_OK;
    return cuzk_fail(rd->err, CUZK_E_FORMAT,
                     WHAT ": section %u (%s) at offset %llu has %llu bytes, expected %llu for "
                     "nVars %u, nPublic %u, domainSize %u",
                     s->type, zkey_section_name(s->type), (unsigned long long)s->offset,
                     (unsigned long long)s->size, (unsigned long long)want, z->n_vars,
                     z->n_public, z->domain_size);
}

static cuzk_status parse_coefs(const reader *rd, zkey_t *z, const iden3_section *s)
{
    if (s->size < 4)
        return cuzk_fail(rd->err, CUZK_E_FORMAT,
                         WHAT ": section 4 (coefficients) at offset %llu has %llu bytes, too "
                         "short for the count",
                         (unsigned long long)s->offset, (unsigned long long)s->size);
    z->n_coefs = iden3_le32(rd->buf + s->offset);
    cuzk_status st = check_size(rd, z, s);
    if (st != CUZK_OK)
        return st;
    z->coefs = malloc((z->n_coefs ? z->n_coefs : 1) * sizeof *z->coefs);
    if (!z->coefs)
        return cuzk_fail(rd->err, CUZK_E_NOMEM, WHAT ": out of memory for %u coefficients",
                         z->n_coefs);
    static const fr_t raw_one = {{1, 0, 0, 0}}; /* raw limbs 1: the element R^-1 */
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        uint64_t off = s->offset + 4 + (uint64_t)i * ZKEY_COEF_BYTES;
        zkey_coef *c = &z->coefs[i];
        c->matrix = iden3_le32(rd->buf + off);
        c->constraint = iden3_le32(rd->buf + off + 4);
        c->signal = iden3_le32(rd->buf + off + 8);
        if (c->matrix > 1 || c->constraint >= z->domain_size || c->signal >= z->n_vars)
            return cuzk_fail(rd->err, CUZK_E_FORMAT,
                             WHAT ": section 4 (coefficients) entry %u at offset %llu: matrix "
                             "%u (max 1), constraint %u (domainSize %u), signal %u (nVars %u)",
                             i, (unsigned long long)off, c->matrix, c->constraint,
                             z->domain_size, c->signal, z->n_vars);
        fr_t stored;
        iden3_bytes_to_limbs(stored.l, rd->buf + off + 12, FR_LIMBS);
        if (iden3_limbs_cmp(stored.l, FR_MODULUS, FR_LIMBS) >= 0)
            return cuzk_fail(rd->err, CUZK_E_FIELD_NONCANONICAL,
                             WHAT ": section 4 (coefficients) entry %u value at offset %llu is "
                             ">= r",
                             i, (unsigned long long)off + 12);
        /* stored = v R^2 as an integer = raw limbs of v R; times R^-1 gives raw v R,
         * the Montgomery form of v. */
        fr_mul(&c->value, &stored, &raw_one);
    }
    return CUZK_OK;
}

/* check_size, then a malloc'ed array for the n points of section s (point_size bytes
 * each); NULL with *st set on error. */
static void *alloc_points(const reader *rd, const zkey_t *z, const iden3_section *s, uint64_t n,
                          size_t point_size, cuzk_status *st)
{
    if ((*st = check_size(rd, z, s)) != CUZK_OK)
        return NULL;
    void *pts = malloc((n ? n : 1) * point_size);
    if (!pts)
        *st = cuzk_fail(rd->err, CUZK_E_NOMEM, WHAT ": out of memory for %llu points of %s",
                        (unsigned long long)n, zkey_section_name(s->type));
    return pts;
}

static cuzk_status parse_g1_array(const reader *rd, const zkey_t *z, const iden3_section *s,
                                  g1_affine_t **out, uint64_t n)
{
    cuzk_status st;
    g1_affine_t *p = *out = alloc_points(rd, z, s, n, sizeof *p, &st);
    for (uint64_t i = 0; p && i < n && st == CUZK_OK; i++)
        st = get_g1(rd, &p[i], s->offset + i * ZKEY_G1_BYTES, s->type,
                    zkey_section_name(s->type), i, true);
    return st;
}

static cuzk_status parse_g2_array(const reader *rd, const zkey_t *z, const iden3_section *s,
                                  g2_affine_t **out, uint64_t n)
{
    cuzk_status st;
    g2_affine_t *p = *out = alloc_points(rd, z, s, n, sizeof *p, &st);
    for (uint64_t i = 0; p && i < n && st == CUZK_OK; i++)
        st = get_g2(rd, &p[i], s->offset + i * ZKEY_G2_BYTES, s->type,
                    zkey_section_name(s->type), i, true);
    return st;
}

static cuzk_status parse(const reader *rd, zkey_t *z, const iden3_bin *bin)
{
    const iden3_section *sec[ZKEY_N_SECTIONS + 1] = {0};
    cuzk_status st;
    for (uint32_t i = 0; i < bin->n_sections; i++) {
        uint32_t type = bin->sections[i].type;
        if (type < 1 || type > ZKEY_N_SECTIONS)
            return cuzk_fail(rd->err, CUZK_E_FORMAT,
                             WHAT ": unknown section type %u at offset %llu (a Groth16 zkey has "
                             "sections 1-10)",
                             type, (unsigned long long)bin->sections[i].offset - 12);
    }
    for (uint32_t t = 1; t <= ZKEY_N_SECTIONS; t++) {
        st = iden3_bin_section(bin, t, t != ZS_CONTRIB, WHAT, zkey_section_name(t), &sec[t],
                               rd->err);
        if (st != CUZK_OK)
            return st;
    }
    z->n_sections = bin->n_sections;
    for (uint32_t i = 0; i < bin->n_sections; i++)
        z->section_order[i] = bin->sections[i].type;

    if (sec[ZS_HEADER]->size != 4)
        return cuzk_fail(rd->err, CUZK_E_FORMAT,
                         WHAT ": section 1 (header) at offset %llu has %llu bytes, expected 4",
                         (unsigned long long)sec[ZS_HEADER]->offset,
                         (unsigned long long)sec[ZS_HEADER]->size);
    uint32_t protocol = iden3_le32(rd->buf + sec[ZS_HEADER]->offset);
    if (protocol != 1)
        return cuzk_fail(rd->err, CUZK_E_UNSUPPORTED,
                         WHAT ": protocol %u at offset %llu is not Groth16 (1)%s", protocol,
                         (unsigned long long)sec[ZS_HEADER]->offset,
                         protocol == 2 ? ": PLONK" : protocol == 10 ? ": FFLONK" : "");
    if ((st = parse_groth_header(rd, z, sec[ZS_GROTH])) != CUZK_OK)
        return st;
    uint64_t nc = (uint64_t)z->n_vars - z->n_public - 1;
    if ((st = parse_g1_array(rd, z, sec[ZS_IC], &z->ic, (uint64_t)z->n_public + 1)) != CUZK_OK ||
        (st = parse_coefs(rd, z, sec[ZS_COEFS])) != CUZK_OK ||
        (st = parse_g1_array(rd, z, sec[ZS_A], &z->a, z->n_vars)) != CUZK_OK ||
        (st = parse_g1_array(rd, z, sec[ZS_B1], &z->b1, z->n_vars)) != CUZK_OK ||
        (st = parse_g2_array(rd, z, sec[ZS_B2], &z->b2, z->n_vars)) != CUZK_OK ||
        (st = parse_g1_array(rd, z, sec[ZS_C], &z->c, nc)) != CUZK_OK ||
        (st = parse_g1_array(rd, z, sec[ZS_H], &z->h, z->domain_size)) != CUZK_OK)
        return st;
    if (rd->flags & ZKEY_CHECK_SUBGROUP) {
        uint64_t h = sec[ZS_GROTH]->offset + 4 + ZKEY_N8Q + 4 + ZKEY_N8R + 12;
        const zkey_point_run runs[] = {
            {ZS_GROTH, "alpha1", false, &z->alpha1, 1, h},
            {ZS_GROTH, "beta1", false, &z->beta1, 1, h + ZKEY_G1_BYTES},
            {ZS_GROTH, "beta2", true, &z->beta2, 1, h + 2 * ZKEY_G1_BYTES},
            {ZS_GROTH, "gamma2", true, &z->gamma2, 1, h + 2 * ZKEY_G1_BYTES + ZKEY_G2_BYTES},
            {ZS_GROTH, "delta1", false, &z->delta1, 1, h + 2 * ZKEY_G1_BYTES + 2 * ZKEY_G2_BYTES},
            {ZS_GROTH, "delta2", true, &z->delta2, 1, h + 3 * ZKEY_G1_BYTES + 2 * ZKEY_G2_BYTES},
            {ZS_IC, "IC", false, z->ic, (uint64_t)z->n_public + 1, sec[ZS_IC]->offset},
            {ZS_A, "A", false, z->a, z->n_vars, sec[ZS_A]->offset},
            {ZS_B1, "B1", false, z->b1, z->n_vars, sec[ZS_B1]->offset},
            {ZS_B2, "B2", true, z->b2, z->n_vars, sec[ZS_B2]->offset},
            {ZS_C, "C", false, z->c, nc, sec[ZS_C]->offset},
            {ZS_H, "H", false, z->h, z->domain_size, sec[ZS_H]->offset},
        };
        st = zkey_check_subgroup_runs(runs, sizeof runs / sizeof runs[0], 0, rd->err);
        if (st != CUZK_OK)
            return st;
    }
    const iden3_section *sc = sec[ZS_CONTRIB];
    if (sc) {
        if (sc->size < ZKEY_CONTRIB_MIN_BYTES)
            return cuzk_fail(rd->err, CUZK_E_FORMAT,
                             WHAT ": section 10 (contributions) at offset %llu has %llu bytes, "
                             "less than the %u of circuit hash and count",
                             (unsigned long long)sc->offset, (unsigned long long)sc->size,
                             ZKEY_CONTRIB_MIN_BYTES);
        z->contributions = malloc(sc->size);
        if (!z->contributions)
            return cuzk_fail(rd->err, CUZK_E_NOMEM, WHAT ": out of memory for contributions");
        memcpy(z->contributions, rd->buf + sc->offset, sc->size);
        z->contributions_len = sc->size;
    }
    return CUZK_OK;
}

cuzk_status zkey_read_mem(zkey_t *out, const uint8_t *buf, size_t len, unsigned flags,
                          cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    iden3_bin bin;
    cuzk_status st = iden3_bin_parse(&bin, buf, len, "zkey", 1, WHAT, err);
    if (st != CUZK_OK)
        return st;
    reader rd = {buf, flags, err};
    st = parse(&rd, out, &bin);
    iden3_bin_free(&bin);
    if (st != CUZK_OK)
        zkey_free(out);
    return st;
}

cuzk_status zkey_read_file(zkey_t *out, const char *path, unsigned flags, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    cuzk_mapped_file f;
    cuzk_status st = cuzk_file_map(&f, path, err);
    if (st != CUZK_OK)
        return st;
    st = zkey_read_mem(out, f.data, f.len, flags, err);
    cuzk_file_unmap(&f);
    if (st != CUZK_OK)
        iden3_error_prefix(err, path);
    return st;
}
