/* bellperson .vk reader/encoder/writer (docs/formats.md#verifying-key-vk); contracts in
 * bellperson_params.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_io.h"
#include "groth16/bp_internal.h"

cuzk_status bp_vk_decode(groth16_vk_t *vk, const uint8_t *buf, uint32_t n_ic, bool check, const char *file,
                         cuzk_error *err)
{
    memset(vk, 0, sizeof *vk);
    static const struct {
        const char *name;
        uint32_t off;
        bool g2;
        size_t field;
    } fixed[6] = {
        {"alpha_g1", 0, false, offsetof(groth16_vk_t, alpha_g1)},
        {"beta_g1", 96, false, offsetof(groth16_vk_t, beta_g1)},
        {"beta_g2", 192, true, offsetof(groth16_vk_t, beta_g2)},
        {"gamma_g2", 384, true, offsetof(groth16_vk_t, gamma_g2)},
        {"delta_g1", 576, false, offsetof(groth16_vk_t, delta_g1)},
        {"delta_g2", 672, true, offsetof(groth16_vk_t, delta_g2)},
    };
    groth16_vk_t v = {0};
    for (int i = 0; i < 6; i++) {
        bp_loc loc = {file, fixed[i].name, false};
        void *dst = (uint8_t *)&v + fixed[i].field;
        cuzk_status st = fixed[i].g2 ? bp_get_g2(dst, buf + fixed[i].off, fixed[i].off, check, &loc, 0, err)
                                     : bp_get_g1(dst, buf + fixed[i].off, fixed[i].off, check, &loc, 0, err);
        if (st)
            return st;
    }
    v.ic = malloc((size_t)n_ic * sizeof *v.ic);
    if (!v.ic)
        return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory for %u ic points", file, n_ic);
    v.n_ic = n_ic;
    bp_loc loc = {file, "ic", true};
    for (uint32_t i = 0; i < n_ic; i++) {
        uint64_t off = BP_VK_IC_OFFSET + (uint64_t)i * BP_G1_BYTES;
        cuzk_status st = bp_get_g1(&v.ic[i], buf + off, off, check, &loc, i, err);
        if (st) {
            free(v.ic);
            return st;
        }
    }
    *vk = v;
    return CUZK_OK;
}

cuzk_status bp_vk_read_mem(groth16_vk_t *vk, const uint8_t *buf, size_t len, unsigned flags, cuzk_error *err)
{
    memset(vk, 0, sizeof *vk);
    if (len < BP_VK_IC_OFFSET)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "vk: section vk: file has %zu bytes, ends before the n_ic count at offset %u "
                         "(needs at least %u bytes)",
                         len, BP_VK_FIXED_BYTES, BP_VK_IC_OFFSET);
    uint32_t n_ic = bp_be32(buf + BP_VK_FIXED_BYTES);
    if (n_ic == 0)
        return cuzk_fail(err, CUZK_E_FORMAT, "vk: section vk: n_ic = 0 at offset %u (ONE is always an input)",
                         BP_VK_FIXED_BYTES);
    uint64_t want = BP_VK_IC_OFFSET + (uint64_t)n_ic * BP_G1_BYTES;
    if (len != want)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "vk: section ic: n_ic = %u at offset %u needs a file of %llu bytes, found %zu (%s at "
                         "offset %llu)",
                         n_ic, BP_VK_FIXED_BYTES, (unsigned long long)want, len,
                         len < want ? "truncated" : "trailing bytes",
                         (unsigned long long)(len < want ? len : want));
    return bp_vk_decode(vk, buf, n_ic, flags & BP_CHECK_POINTS, "vk", err);
}

cuzk_status bp_vk_read_file(groth16_vk_t *vk, const char *path, unsigned flags, cuzk_error *err)
{
    memset(vk, 0, sizeof *vk);
    cuzk_mapped_file m;
    cuzk_status st = cuzk_file_map(&m, path, err);
    if (st)
        return st;
    cuzk_error e = {0};
    st = bp_vk_read_mem(vk, m.data, m.len, flags, &e);
    cuzk_file_unmap(&m);
    if (st)
        return cuzk_fail(err, st, "%s: %s", path, e.msg);
    return CUZK_OK;
}

void bp_vk_free(groth16_vk_t *vk)
{
    if (!vk)
        return;
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

uint64_t bp_vk_size(const groth16_vk_t *vk) { return BP_VK_IC_OFFSET + (uint64_t)vk->n_ic * BP_G1_BYTES; }

void bp_vk_encode(uint8_t *out, const groth16_vk_t *vk)
{
    g1_to_uncompressed(out, &vk->alpha_g1);
    g1_to_uncompressed(out + 96, &vk->beta_g1);
    g2_to_uncompressed(out + 192, &vk->beta_g2);
    g2_to_uncompressed(out + 384, &vk->gamma_g2);
    g1_to_uncompressed(out + 576, &vk->delta_g1);
    g2_to_uncompressed(out + 672, &vk->delta_g2);
    bp_put_be32(out + BP_VK_FIXED_BYTES, (uint32_t)vk->n_ic);
    for (size_t i = 0; i < vk->n_ic; i++)
        g1_to_uncompressed(out + BP_VK_IC_OFFSET + i * BP_G1_BYTES, &vk->ic[i]);
}

static int emit_vk(FILE *f, const void *ctx)
{
    const groth16_vk_t *vk = ctx;
    uint8_t *b = malloc((size_t)bp_vk_size(vk));
    if (!b)
        return ENOMEM;
    bp_vk_encode(b, vk);
    size_t n = (size_t)bp_vk_size(vk);
    int e = fwrite(b, 1, n, f) == n ? 0 : (errno ? errno : EIO);
    free(b);
    return e;
}

cuzk_status bp_vk_write_file(const groth16_vk_t *vk, const char *path, cuzk_error *err)
{
    if (vk->n_ic == 0 || vk->n_ic > UINT32_MAX)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: vk n_ic = %zu is not in 1 .. 2^32 - 1", path, vk->n_ic);
    return cuzk_write_atomic(path, emit_vk, vk, err);
}
