/* .wtns reader: header prime check and canonical-LE values to Montgomery Fr. */
#include "cs/wtns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_io.h"
#include "cs/iden3_bin.h"

#define WHAT "wtns"

static cuzk_status parse(wtns_t *out, const uint8_t *buf, const iden3_bin *bin, cuzk_error *err)
{
    const iden3_section *sh, *sv;
    cuzk_status st;
    if ((st = iden3_bin_section(bin, 1, 1, WHAT, "header", &sh, err)) != CUZK_OK ||
        (st = iden3_bin_section(bin, 2, 1, WHAT, "values", &sv, err)) != CUZK_OK)
        return st;
    const uint8_t *p = buf + sh->offset;
    if (sh->size < 4)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         WHAT ": header section at offset %llu has %llu bytes, too short",
                         (unsigned long long)sh->offset, (unsigned long long)sh->size);
    uint32_t n8 = iden3_le32(p);
    char desc[200];
    if (n8 != FR_BYTES || sh->size != 4 + (uint64_t)n8 + 4) {
        if (n8 > 0 && n8 <= 64 && sh->size >= 4 + (uint64_t)n8)
            iden3_describe_prime(desc, sizeof desc, p + 4, n8);
        else
            snprintf(desc, sizeof desc, "(not shown)");
        if (n8 != FR_BYTES)
            return cuzk_fail(err, CUZK_E_UNSUPPORTED,
                             WHAT ": field size %u bytes at offset %llu, prime %s; only "
                             "BLS12-381 r (32 bytes) is supported",
                             n8, (unsigned long long)sh->offset, desc);
        return cuzk_fail(err, CUZK_E_FORMAT,
                         WHAT ": header section at offset %llu has %llu bytes, expected %u",
                         (unsigned long long)sh->offset, (unsigned long long)sh->size,
                         4 + FR_BYTES + 4);
    }
    uint64_t prime[FR_LIMBS];
    iden3_bytes_to_limbs(prime, p + 4, FR_LIMBS);
    if (iden3_limbs_cmp(prime, FR_MODULUS, FR_LIMBS) != 0) {
        iden3_describe_prime(desc, sizeof desc, p + 4, n8);
        return cuzk_fail(err, CUZK_E_UNSUPPORTED,
                         WHAT ": prime at offset %llu is %s; only BLS12-381 r is supported",
                         (unsigned long long)sh->offset + 4, desc);
    }
    uint32_t n = iden3_le32(p + 4 + FR_BYTES);
    if (sv->size != (uint64_t)n * FR_BYTES)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         WHAT ": values section at offset %llu has %llu bytes, expected "
                         "nWitness %u * 32 = %llu",
                         (unsigned long long)sv->offset, (unsigned long long)sv->size, n,
                         (unsigned long long)n * FR_BYTES);
    out->w = malloc((n ? n : 1) * sizeof *out->w);
    if (!out->w)
        return cuzk_fail(err, CUZK_E_NOMEM, WHAT ": out of memory for %u values", n);
    out->n = n;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t off = sv->offset + (uint64_t)i * FR_BYTES;
        if (fr_from_bytes_le(&out->w[i], buf + off) != CUZK_OK)
            return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL,
                             WHAT ": value %u at offset %llu is >= r", i,
                             (unsigned long long)off);
    }
    return CUZK_OK;
}

cuzk_status wtns_read_mem(wtns_t *out, const uint8_t *buf, size_t len, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    iden3_bin bin;
    cuzk_status st = iden3_bin_parse(&bin, buf, len, "wtns", 2, WHAT, err);
    if (st != CUZK_OK)
        return st;
    st = parse(out, buf, &bin, err);
    iden3_bin_free(&bin);
    if (st != CUZK_OK)
        wtns_free(out);
    return st;
}

cuzk_status wtns_read_file(wtns_t *out, const char *path, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    cuzk_mapped_file f;
    cuzk_status st = cuzk_file_map(&f, path, err);
    if (st != CUZK_OK)
        return st;
    st = wtns_read_mem(out, f.data, f.len, err);
    cuzk_file_unmap(&f);
    if (st != CUZK_OK)
        iden3_error_prefix(err, path);
    return st;
}

void wtns_free(wtns_t *w)
{
    free(w->w);
    memset(w, 0, sizeof *w);
}

cuzk_status wtns_check_count(const wtns_t *w, uint64_t n_wires, const char *circuit,
                             cuzk_error *err)
{
    if (w->n != n_wires)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "witness has %u values but %s has %llu wires: witness of another "
                         "circuit?",
                         w->n, circuit, (unsigned long long)n_wires);
    if (w->n > 0 && !fr_is_one(&w->w[0]))
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "witness value 0 (the constant ONE wire) is not 1");
    return CUZK_OK;
}
