/* Startup check of [[circuits]] files from their headers (circuit_files.h). */
#include "server/circuit_files.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "common/file_io.h"
#include "cs/iden3_bin.h"
#include "field/fp.h"
#include "field/fr.h"

/* r1cs section 1: n8, prime, nWires, nPubOut, nPubIn, nPrvIn, nLabels (u64), nConstraints. */
#define R1CS_HEADER_BYTES (4u + FR_BYTES + 4u * 4u + 8u + 4u)
/* zkey section 2 up to domainSize: n8q, q, n8r, r, nVars, nPublic, domainSize. */
#define ZKEY_HEADER_BYTES (4u + FP_BYTES + 4u + FR_BYTES + 3u * 4u)

typedef struct {
    uint32_t n_wires, n_public, n_constraints;
} r1cs_head;

typedef struct {
    uint32_t n_vars, n_public, domain_size;
} zkey_head;

/* True when the `n8` little-endian bytes at p equal `modulus` (n8 = 8 * limbs). */
static bool is_modulus(const uint8_t *p, const uint64_t *modulus, size_t limbs)
{
    uint64_t v[FP_LIMBS];
    iden3_bytes_to_limbs(v, p, limbs);
    return iden3_limbs_cmp(v, modulus, limbs) == 0;
}

/* Map `path` and split its container (magic "r1cs" or "zkey"); messages start with path. */
static cuzk_status open_container(const char *path, const char *magic, cuzk_mapped_file *f, iden3_bin *b,
                                  cuzk_error *err)
{
    cuzk_status st = cuzk_file_map(f, path, err);
    if (st)
        return st;
    if ((st = iden3_bin_parse(b, f->data, f->len, magic, 1, magic, err))) {
        iden3_error_prefix(err, path);
        cuzk_file_unmap(f);
    }
    return st;
}

/* The unique section `type` of at least `min` bytes; messages start with path. */
static cuzk_status header_section(const iden3_bin *b, uint32_t type, uint64_t min, const char *path,
                                  const char *what, const char *name, const iden3_section **s, cuzk_error *err)
{
    cuzk_status st = iden3_bin_section(b, type, 1, what, name, s, err);
    if (st) {
        iden3_error_prefix(err, path);
        return st;
    }
    if ((*s)->size < min)
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: %s: %s section (type %u) at offset %llu has %llu bytes, want >= %llu",
                         path, what, name, type, (unsigned long long)(*s)->offset, (unsigned long long)(*s)->size,
                         (unsigned long long)min);
    return CUZK_OK;
}

static cuzk_status read_r1cs_head(const char *path, r1cs_head *h, cuzk_error *err)
{
    cuzk_mapped_file f;
    iden3_bin b;
    cuzk_status st = open_container(path, "r1cs", &f, &b, err);
    if (st)
        return st;
    const iden3_section *s, *cons;
    if (!(st = header_section(&b, 1, 4, path, "r1cs", "header", &s, err)) &&
        !(st = header_section(&b, 2, 0, path, "r1cs", "constraints", &cons, err))) {
        const uint8_t *p = f.data + s->offset;
        uint32_t n8 = iden3_le32(p);
        char desc[200] = "unreadable";
        if (n8 > 0 && n8 <= 64 && s->size >= 4 + (uint64_t)n8)
            iden3_describe_prime(desc, sizeof desc, p + 4, n8);
        if (n8 == FR_BYTES && s->size < R1CS_HEADER_BYTES)
            st = cuzk_fail(err, CUZK_E_FORMAT, "%s: r1cs: header section at offset %llu has %llu bytes, want %u", path,
                           (unsigned long long)s->offset, (unsigned long long)s->size, R1CS_HEADER_BYTES);
        else if (n8 != FR_BYTES || !is_modulus(p + 4, FR_MODULUS, FR_LIMBS))
            st = cuzk_fail(err, CUZK_E_UNSUPPORTED,
                           "%s: r1cs: field at offset %llu is %u bytes, prime %s; only BLS12-381 r is supported", path,
                           (unsigned long long)s->offset, n8, desc);
        else {
            p += 4 + FR_BYTES;
            h->n_wires = iden3_le32(p);
            h->n_public = iden3_le32(p + 4) + iden3_le32(p + 8);
            h->n_constraints = iden3_le32(p + 24);
        }
    }
    iden3_bin_free(&b);
    cuzk_file_unmap(&f);
    return st;
}

static cuzk_status read_zkey_head(const char *path, zkey_head *h, cuzk_error *err)
{
    cuzk_mapped_file f;
    iden3_bin b;
    cuzk_status st = open_container(path, "zkey", &f, &b, err);
    if (st)
        return st;
    const iden3_section *s1, *s2;
    if (!(st = header_section(&b, 1, 4, path, "zkey", "header", &s1, err)) &&
        !(st = header_section(&b, 2, 4, path, "zkey", "groth16 header", &s2, err))) {
        uint32_t protocol = iden3_le32(f.data + s1->offset);
        const uint8_t *p = f.data + s2->offset;
        uint32_t n8q = iden3_le32(p);
        bool curve_ok = n8q == FP_BYTES && s2->size >= ZKEY_HEADER_BYTES && is_modulus(p + 4, FP_MODULUS, FP_LIMBS) &&
                        iden3_le32(p + 4 + FP_BYTES) == FR_BYTES &&
                        is_modulus(p + 8 + FP_BYTES, FR_MODULUS, FR_LIMBS);
        if (protocol != 1) {
            st = cuzk_fail(err, CUZK_E_UNSUPPORTED, "%s: zkey: protocol %u at offset %llu is not Groth16 (1)", path,
                           protocol, (unsigned long long)s1->offset);
        } else if (!curve_ok) {
            char desc[200] = "unreadable";
            if (n8q > 0 && n8q <= 64 && s2->size >= 4 + (uint64_t)n8q)
                iden3_describe_prime(desc, sizeof desc, p + 4, n8q);
            st = cuzk_fail(err, CUZK_E_UNSUPPORTED,
                           "%s: zkey: groth16 header at offset %llu: base field of %u bytes, prime %s; only "
                           "BLS12-381 is supported",
                           path, (unsigned long long)s2->offset, n8q, desc);
        } else {
            p += 8 + FP_BYTES + FR_BYTES;
            h->n_vars = iden3_le32(p);
            h->n_public = iden3_le32(p + 4);
            h->domain_size = iden3_le32(p + 8);
            if (h->domain_size == 0 || (h->domain_size & (h->domain_size - 1)))
                st = cuzk_fail(err, CUZK_E_FORMAT, "%s: zkey: domainSize %u at offset %llu is not a power of two",
                               path, h->domain_size, (unsigned long long)(s2->offset + 8 + FP_BYTES + FR_BYTES + 8));
        }
    }
    iden3_bin_free(&b);
    cuzk_file_unmap(&f);
    return st;
}

static cuzk_status entry_fail(const cuzk_circuit_config *c, cuzk_error *err, cuzk_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static cuzk_status entry_fail(const cuzk_circuit_config *c, cuzk_error *err, cuzk_status code, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return cuzk_fail(err, code, "%s%scircuit \"%s\": %s", c->where ? c->where : "", c->where ? ": " : "", c->name,
                     what);
}

cuzk_status cuzk_circuit_files_check(const cuzk_circuit_config *c, cuzk_error *err)
{
    cuzk_error e;
    r1cs_head r;
    zkey_head z;
    cuzk_status st = read_r1cs_head(c->r1cs, &r, &e);
    if (!st)
        st = read_zkey_head(c->zkey, &z, &e);
    if (st)
        return entry_fail(c, err, st, "%s", e.msg);
    if (r.n_wires != z.n_vars)
        return entry_fail(c, err, CUZK_E_INVALID_ARG, "%s has %u wires but %s has %u variables: not the same circuit",
                          c->r1cs, r.n_wires, c->zkey, z.n_vars);
    if (r.n_public != z.n_public)
        return entry_fail(c, err, CUZK_E_INVALID_ARG, "%s has %u public signals but %s has %u: not the same circuit",
                          c->r1cs, r.n_public, c->zkey, z.n_public);
    if ((uint64_t)r.n_constraints + z.n_public + 1 > z.domain_size)
        return entry_fail(c, err, CUZK_E_INVALID_ARG,
                          "%s has %u constraints: too many for the domain of %u of %s (not the same circuit)", c->r1cs,
                          r.n_constraints, z.domain_size, c->zkey);
    return CUZK_OK;
}
