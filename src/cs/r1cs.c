/* .r1cs reader: container split (iden3_bin.c), header checks, constraints to CSR. */
#include "cs/r1cs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_io.h"
#include "cs/iden3_bin.h"
#include "field/fr.h"

#define WHAT "r1cs"
static const char *const MATRIX_NAME[3] = {"A", "B", "C"};

typedef struct {
    uint32_t col;
    fr_t val;
} term;

static int term_cmp(const void *x, const void *y)
{
    const term *a = x, *b = y;
    return a->col < b->col ? -1 : a->col > b->col;
}

/* Parse section 1 into r. */
static cuzk_status parse_header(r1cs_t *r, const uint8_t *buf, const iden3_section *s,
                                cuzk_error *err)
{
    const uint8_t *p = buf + s->offset;
    if (s->size < 4)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         WHAT ": header section at offset %llu has %llu bytes, too short for "
                         "the field size",
                         (unsigned long long)s->offset, (unsigned long long)s->size);
    uint32_t n8 = iden3_le32(p);
    char desc[200];
    if (n8 != FR_BYTES) {
        if (n8 > 0 && n8 <= 64 && s->size >= 4 + (uint64_t)n8)
            iden3_describe_prime(desc, sizeof desc, p + 4, n8);
        else
            snprintf(desc, sizeof desc, "(not shown)");
        return cuzk_fail(err, CUZK_E_UNSUPPORTED,
                         WHAT ": field size %u bytes at offset %llu, prime %s; only BLS12-381 "
                         "r (32 bytes) is supported (compile with circom -p bls12381)",
                         n8, (unsigned long long)s->offset, desc);
    }
    if (s->size != 4 + FR_BYTES + 4 * 4 + 8 + 4)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         WHAT ": header section at offset %llu has %llu bytes, expected %u",
                         (unsigned long long)s->offset, (unsigned long long)s->size,
                         4 + FR_BYTES + 4 * 4 + 8 + 4);
    uint64_t prime[FR_LIMBS];
    iden3_bytes_to_limbs(prime, p + 4, FR_LIMBS);
    if (iden3_limbs_cmp(prime, FR_MODULUS, FR_LIMBS) != 0) {
        iden3_describe_prime(desc, sizeof desc, p + 4, n8);
        return cuzk_fail(err, CUZK_E_UNSUPPORTED,
                         WHAT ": prime at offset %llu is %s; only BLS12-381 r is supported "
                         "(compile with circom -p bls12381)",
                         (unsigned long long)s->offset + 4, desc);
    }
    p += 4 + FR_BYTES;
    r->n_wires = iden3_le32(p);
    r->n_pub_out = iden3_le32(p + 4);
    r->n_pub_in = iden3_le32(p + 8);
    r->n_prv_in = iden3_le32(p + 12);
    r->n_labels = iden3_le64(p + 16);
    r->n_constraints = iden3_le32(p + 24);
    uint64_t named = 1ull + r->n_pub_out + r->n_pub_in + r->n_prv_in;
    if (named > r->n_wires)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         WHAT ": header at offset %llu: 1 + %u outputs + %u public inputs + %u "
                         "private inputs exceeds nWires = %u",
                         (unsigned long long)s->offset, r->n_pub_out, r->n_pub_in,
                         r->n_prv_in, r->n_wires);
    return CUZK_OK;
}

/* Walk the constraints section once. Pass 1 (fill == false): validate the layout and
 * count terms per matrix into nnz[3] and the longest LC into *max_terms. Pass 2: decode
 * coefficients and build the CSR rows (sorted, merged, zeros dropped). */
static cuzk_status walk_constraints(r1cs_t *r, const uint8_t *buf, const iden3_section *s,
                                    bool fill, uint64_t nnz[3], uint64_t *max_terms,
                                    term *tmp, cuzk_error *err)
{
    const uint64_t end = s->offset + s->size;
    uint64_t pos = s->offset;
    uint64_t w[3] = {0, 0, 0};
    cs_csr *m[3] = {&r->a, &r->b, &r->c};
    for (uint32_t i = 0; i < r->n_constraints; i++) {
        for (int k = 0; k < 3; k++) {
            if (end - pos < 4)
                return cuzk_fail(err, CUZK_E_FORMAT,
                                 WHAT ": constraints section ends at offset %llu inside "
                                 "constraint %u (%s term count)",
                                 (unsigned long long)end, i, MATRIX_NAME[k]);
            uint32_t n = iden3_le32(buf + pos);
            pos += 4;
            if ((uint64_t)n * (4 + FR_BYTES) > end - pos)
                return cuzk_fail(err, CUZK_E_FORMAT,
                                 WHAT ": constraint %u %s declares %u terms at offset %llu but "
                                 "the constraints section has %llu bytes left",
                                 i, MATRIX_NAME[k], n, (unsigned long long)pos - 4,
                                 (unsigned long long)(end - pos));
            if (!fill) {
                for (uint32_t t = 0; t < n; t++) {
                    uint32_t wire = iden3_le32(buf + pos + (uint64_t)t * (4 + FR_BYTES));
                    if (wire >= r->n_wires)
                        return cuzk_fail(err, CUZK_E_FORMAT,
                                         WHAT ": constraint %u %s term %u at offset %llu: wire "
                                         "%u >= nWires %u",
                                         i, MATRIX_NAME[k], t,
                                         (unsigned long long)(pos + (uint64_t)t * (4 + FR_BYTES)),
                                         wire, r->n_wires);
                }
                nnz[k] += n;
                if (n > *max_terms)
                    *max_terms = n;
                pos += (uint64_t)n * (4 + FR_BYTES);
                continue;
            }
            bool sorted = true;
            for (uint32_t t = 0; t < n; t++, pos += 4 + FR_BYTES) {
                tmp[t].col = iden3_le32(buf + pos);
                if (fr_from_bytes_le(&tmp[t].val, buf + pos + 4) != CUZK_OK)
                    return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL,
                                     WHAT ": constraint %u %s term %u: coefficient at offset "
                                     "%llu is >= r",
                                     i, MATRIX_NAME[k], t, (unsigned long long)pos + 4);
                if (t > 0 && tmp[t].col <= tmp[t - 1].col)
                    sorted = false;
            }
            if (!sorted)
                qsort(tmp, n, sizeof *tmp, term_cmp);
            /* Merge repeated wires, drop zero sums. */
            for (uint32_t t = 0; t < n;) {
                fr_t sum = tmp[t].val;
                uint32_t col = tmp[t].col;
                for (t++; t < n && tmp[t].col == col; t++)
                    fr_add(&sum, &sum, &tmp[t].val);
                if (fr_is_zero(&sum))
                    continue;
                m[k]->col[w[k]] = col;
                m[k]->val[w[k]] = sum;
                w[k]++;
            }
            m[k]->row_ptr[i + 1] = w[k];
        }
    }
    if (pos != end && r->n_constraints == 0)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         WHAT ": constraints section has %llu bytes but the header declares no "
                         "constraints (offset %llu)",
                         (unsigned long long)(end - pos), (unsigned long long)pos);
    if (pos != end)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         WHAT ": constraints section has %llu bytes after its last constraint "
                         "(constraint %u of nConstraints %u ends at offset %llu)",
                         (unsigned long long)(end - pos), r->n_constraints - 1, r->n_constraints,
                         (unsigned long long)pos);
    return CUZK_OK;
}

static cuzk_status alloc_csr(cs_csr *m, uint64_t rows, uint64_t cols, uint64_t nnz)
{
    m->rows = rows;
    m->cols = cols;
    m->row_ptr = calloc(rows + 1, sizeof *m->row_ptr);
    m->col = malloc((nnz ? nnz : 1) * sizeof *m->col);
    m->val = malloc((nnz ? nnz : 1) * sizeof *m->val);
    return m->row_ptr && m->col && m->val ? CUZK_OK : CUZK_E_NOMEM;
}

static void free_csr(cs_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}

void r1cs_free(r1cs_t *r)
{
    free_csr(&r->a);
    free_csr(&r->b);
    free_csr(&r->c);
    free(r->wire_to_label);
    memset(r, 0, sizeof *r);
}

static cuzk_status parse(r1cs_t *r, const uint8_t *buf, const iden3_bin *bin, cuzk_error *err)
{
    const iden3_section *sh, *sc, *sm, *sg;
    cuzk_status st;
    if ((st = iden3_bin_section(bin, 1, 1, WHAT, "header", &sh, err)) != CUZK_OK ||
        (st = iden3_bin_section(bin, 2, 1, WHAT, "constraints", &sc, err)) != CUZK_OK ||
        (st = iden3_bin_section(bin, 3, 0, WHAT, "wire-to-label map", &sm, err)) != CUZK_OK)
        return st;
    for (uint32_t type = 4; type <= 5; type++) {
        if ((st = iden3_bin_section(bin, type, 0, WHAT, "custom gates", &sg, err)) != CUZK_OK)
            return st;
        if (sg)
            return cuzk_fail(err, CUZK_E_UNSUPPORTED,
                             WHAT ": section %u (custom gates, offset %llu) is not supported "
                             "by Groth16",
                             type, (unsigned long long)sg->offset);
    }
    if ((st = parse_header(r, buf, sh, err)) != CUZK_OK)
        return st;

    uint64_t nnz[3] = {0, 0, 0}, max_terms = 0;
    if ((st = walk_constraints(r, buf, sc, false, nnz, &max_terms, NULL, err)) != CUZK_OK)
        return st;
    if (alloc_csr(&r->a, r->n_constraints, r->n_wires, nnz[0]) != CUZK_OK ||
        alloc_csr(&r->b, r->n_constraints, r->n_wires, nnz[1]) != CUZK_OK ||
        alloc_csr(&r->c, r->n_constraints, r->n_wires, nnz[2]) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_NOMEM, WHAT ": out of memory for %llu+%llu+%llu terms",
                         (unsigned long long)nnz[0], (unsigned long long)nnz[1],
                         (unsigned long long)nnz[2]);
    term *tmp = malloc((max_terms ? max_terms : 1) * sizeof *tmp);
    if (!tmp)
        return cuzk_fail(err, CUZK_E_NOMEM, WHAT ": out of memory for a %llu-term row",
                         (unsigned long long)max_terms);
    st = walk_constraints(r, buf, sc, true, nnz, &max_terms, tmp, err);
    free(tmp);
    if (st != CUZK_OK)
        return st;

    if (sm) {
        if (sm->size != (uint64_t)r->n_wires * 8)
            return cuzk_fail(err, CUZK_E_FORMAT,
                             WHAT ": wire-to-label section at offset %llu has %llu bytes, "
                             "expected nWires * 8 = %llu",
                             (unsigned long long)sm->offset, (unsigned long long)sm->size,
                             (unsigned long long)r->n_wires * 8);
        r->wire_to_label = malloc((r->n_wires ? r->n_wires : 1) * sizeof *r->wire_to_label);
        if (!r->wire_to_label)
            return cuzk_fail(err, CUZK_E_NOMEM, WHAT ": out of memory for the wire map");
        for (uint32_t i = 0; i < r->n_wires; i++)
            r->wire_to_label[i] = iden3_le64(buf + sm->offset + 8ull * i);
    }
    return CUZK_OK;
}

cuzk_status r1cs_read_mem(r1cs_t *out, const uint8_t *buf, size_t len, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    iden3_bin bin;
    cuzk_status st = iden3_bin_parse(&bin, buf, len, "r1cs", 1, WHAT, err);
    if (st != CUZK_OK)
        return st;
    st = parse(out, buf, &bin, err);
    iden3_bin_free(&bin);
    if (st != CUZK_OK)
        r1cs_free(out);
    return st;
}

cuzk_status r1cs_read_file(r1cs_t *out, const char *path, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    cuzk_mapped_file f;
    cuzk_status st = cuzk_file_map(&f, path, err);
    if (st != CUZK_OK)
        return st;
    st = r1cs_read_mem(out, f.data, f.len, err);
    cuzk_file_unmap(&f);
    if (st != CUZK_OK)
        iden3_error_prefix(err, path);
    return st;
}
