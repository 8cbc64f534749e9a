/* bellperson .params writer (format: bellperson_params.h, docs/formats.md#parameters-params). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_io.h"
#include "groth16/bp_internal.h"

uint64_t bp_params_size(const groth16_params_t *pk)
{
    return bp_vk_size(&pk->vk) + 5 * 4 + (uint64_t)(pk->n_h + pk->n_l + pk->n_a + pk->n_b) * BP_G1_BYTES +
           (uint64_t)pk->n_b * BP_G2_BYTES;
}

static int put(FILE *f, const void *b, size_t n) { return fwrite(b, 1, n, f) == n ? 0 : (errno ? errno : EIO); }

static int put_g1s(FILE *f, const g1_affine_t *p, size_t n)
{
    uint8_t b[4 + BP_G1_BYTES];
    bp_put_be32(b, (uint32_t)n);
    int e = put(f, b, 4);
    for (size_t i = 0; i < n && !e; i++) {
        g1_to_uncompressed(b, &p[i]);
        e = put(f, b, BP_G1_BYTES);
    }
    return e;
}

static int emit_params(FILE *f, const void *ctx)
{
    const groth16_params_t *pk = ctx;
    size_t n = (size_t)bp_vk_size(&pk->vk);
    uint8_t *vk = malloc(n);
    if (!vk)
        return ENOMEM;
    bp_vk_encode(vk, &pk->vk);
    int e = put(f, vk, n);
    free(vk);
    if (!e)
        e = put_g1s(f, pk->h, pk->n_h);
    if (!e)
        e = put_g1s(f, pk->l, pk->n_l);
    if (!e)
        e = put_g1s(f, pk->a, pk->n_a);
    if (!e)
        e = put_g1s(f, pk->b_g1, pk->n_b);
    uint8_t b[BP_G2_BYTES];
    bp_put_be32(b, (uint32_t)pk->n_b);
    if (!e)
        e = put(f, b, 4);
    for (size_t i = 0; i < pk->n_b && !e; i++) {
        g2_to_uncompressed(b, &pk->b_g2[i]);
        e = put(f, b, BP_G2_BYTES);
    }
    return e;
}

cuzk_status bp_params_write_file(const groth16_params_t *pk, const char *path, cuzk_error *err)
{
    if (pk->h_form != POLY_H_BELLPERSON)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: the proving key is in the snarkjs form, not bellperson's", path);
    if (pk->n_h != ((size_t)1 << pk->log2_m) - 1 || pk->n_l != pk->n_aux || pk->vk.n_ic != pk->n_inputs ||
        pk->vk.n_ic == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "%s: inconsistent proving key: n_h = %zu for m = 2^%u, n_l = %zu for %zu aux, n_ic = %zu "
                         "for %zu inputs",
                         path, pk->n_h, pk->log2_m, pk->n_l, pk->n_aux, pk->vk.n_ic, pk->n_inputs);
    size_t counts[] = {pk->vk.n_ic, pk->n_h, pk->n_l, pk->n_a, pk->n_b};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (counts[i] > UINT32_MAX)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: a count (%zu) does not fit the u32 of the format", path,
                             counts[i]);
    return cuzk_write_atomic(path, emit_params, pk, err);
}
