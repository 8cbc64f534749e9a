/* FallbackPoStSectorProof bincode (docs/formats.md#fallbackpostsectorproof); contracts in
 * vanilla.h. */
#include <stdlib.h>
#include <string.h>

#include "filecoin/core/bincode.h"
#include "filecoin/post/vanilla.h"

void fc_post_vanilla_free(fc_post_vanilla *v)
{
    if (!v)
        return;
    for (uint32_t k = 0; v->sectors && k < v->nsectors; k++) {
        fc_post_sector_proof *s = &v->sectors[k];
        for (uint32_t i = 0; s->inclusion && i < s->ninclusion; i++)
            fc_merkle_proof_free(&s->inclusion[i]);
        free(s->inclusion);
    }
    free(v->sectors);
    memset(v, 0, sizeof *v);
}

static cuzk_status read_sector(fc_bin_reader *r, fc_post_sector_proof *s, const merkle_shape *tree_r)
{
    uint64_t n;
    cuzk_status st;
    cuzk_fp_key(&r->fp, "inclusion_proofs");
    if ((st = fc_bin_count(r, FC_BIN_ANY, fc_merkle_bincode_size(tree_r), &n)))
        return st;
    if (n && !(s->inclusion = calloc(n, sizeof *s->inclusion)))
        return fc_bin_fail(r, r->pos, CUZK_E_NOMEM, "out of memory for %llu inclusion proofs", (unsigned long long)n);
    s->ninclusion = (uint32_t)n;
    cuzk_fp_index(&r->fp, 0);
    for (uint64_t i = 0; i < n; i++) {
        cuzk_fp_set_index(&r->fp, i);
        if ((st = fc_merkle_read_bincode(r, &s->inclusion[i], tree_r)))
            return st;
    }
    cuzk_fp_pop(&r->fp);
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "comm_c");
    if ((st = fc_bin_bytes32(r, s->comm_c, true)))
        return st;
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "comm_r_last");
    if ((st = fc_bin_bytes32(r, s->comm_r_last, true)))
        return st;
    cuzk_fp_pop(&r->fp);
    return CUZK_OK;
}

static cuzk_status read_post(fc_bin_reader *r, fc_post_vanilla *out, const merkle_shape *tree_r)
{
    cuzk_status st;
    cuzk_fp_key(&r->fp, "sector_id");
    if ((st = fc_bin_u64(r, &out->sector_id)))
        return st;
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "comm_r");
    if ((st = fc_bin_bytes32(r, out->comm_r, true)))
        return st;
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "vanilla_proof");
    cuzk_fp_key(&r->fp, "sectors");
    uint64_t n;
    /* smallest SectorProof: an empty inclusion list, comm_c, comm_r_last */
    if ((st = fc_bin_count(r, FC_BIN_ANY, 8 + 64, &n)))
        return st;
    if (n && !(out->sectors = calloc(n, sizeof *out->sectors)))
        return fc_bin_fail(r, r->pos, CUZK_E_NOMEM, "out of memory for %llu sector proofs", (unsigned long long)n);
    out->nsectors = (uint32_t)n;
    cuzk_fp_index(&r->fp, 0);
    for (uint64_t k = 0; k < n; k++) {
        cuzk_fp_set_index(&r->fp, k);
        if ((st = read_sector(r, &out->sectors[k], tree_r)))
            return st;
    }
    r->fp.depth = 0;
    return fc_bin_end(r);
}

cuzk_status fc_post_vanilla_read(fc_post_vanilla *out, const fc_sector_shape *shape, const uint8_t *buf,
                                 size_t len, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if (!shape || (!buf && len))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_post_vanilla_read: NULL shape or buffer");
    merkle_shape tree_r = fc_tree_r_shape(shape);
    fc_bin_reader r;
    fc_bin_init(&r, buf, len, "PoSt vanilla proof", err);
    cuzk_status st = fc_bin_refuse_json(&r);
    if (!st)
        st = read_post(&r, out, &tree_r);
    if (st)
        fc_post_vanilla_free(out);
    return st;
}

cuzk_status fc_post_vanilla_write(const fc_post_vanilla *v, uint8_t **out, size_t *len, cuzk_error *err)
{
    *out = NULL;
    *len = 0;
    for (uint32_t k = 0; k < v->nsectors; k++)
        for (uint32_t i = 0; i < v->sectors[k].ninclusion; i++)
            if (!v->sectors[k].inclusion[i].sib)
                return cuzk_fail(err, CUZK_E_INVALID_ARG,
                                 "fc_post_vanilla_write: sectors[%u].inclusion_proofs[%u] is not allocated", k, i);
    cuzk_outbuf o = {0};
    cuzk_out_u64le(&o, v->sector_id);
    cuzk_out_bytes(&o, v->comm_r, 32);
    cuzk_out_u64le(&o, v->nsectors);
    for (uint32_t k = 0; k < v->nsectors; k++) {
        const fc_post_sector_proof *s = &v->sectors[k];
        cuzk_out_u64le(&o, s->ninclusion);
        for (uint32_t i = 0; i < s->ninclusion; i++)
            fc_merkle_write_bincode(&o, &s->inclusion[i]);
        cuzk_out_bytes(&o, s->comm_c, 32);
        cuzk_out_bytes(&o, s->comm_r_last, 32);
    }
    return cuzk_out_finish(&o, out, len, "fc_post_vanilla_write", err);
}
