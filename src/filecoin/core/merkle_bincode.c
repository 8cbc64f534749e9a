/* MerkleProof bincode (storage-proofs-core merkle/proof.rs, docs/formats.md#merkleproof);
 * contracts in bincode.h. */
#include <inttypes.h>
#include <string.h>

#include "filecoin/core/bincode.h"

const char *fc_merkle_kind_name(unsigned kind)
{
    return kind == FC_MP_SINGLE ? "Single" : kind == FC_MP_SUB ? "Sub" : kind == FC_MP_TOP ? "Top" : "?";
}

static uint64_t path_size(unsigned levels, unsigned arity)
{
    return 8 + (uint64_t)levels * (16 + 32ull * (arity - 1));
}

uint64_t fc_merkle_bincode_size(const merkle_shape *s)
{
    uint64_t n = 4 + 64 + path_size(s->base_levels, s->base_arity);
    if (s->sub_arity)
        n += path_size(1, s->sub_arity);
    if (s->top_arity)
        n += path_size(1, s->top_arity);
    return n;
}

bool fc_merkle_proof_is(const fc_merkle_proof *p, const merkle_shape *s)
{
    return fc_merkle_proof_has_shape(p, s->base_arity, s->base_levels, s->sub_arity, s->top_arity);
}

/* One InclusionPath of `levels` elements of `arity`, filling levels [first, first + levels)
 * and the siblings from *sib on. */
static cuzk_status read_path(fc_bin_reader *r, fc_merkle_proof *p, const char *name, unsigned first,
                             unsigned levels, unsigned arity, size_t *sib)
{
    uint64_t n;
    cuzk_status st;
    cuzk_fp_key(&r->fp, name);
    cuzk_fp_key(&r->fp, "path");
    if ((st = fc_bin_count(r, levels, 16 + 32ull * (arity - 1), &n)))
        return st;
    cuzk_fp_index(&r->fp, 0);
    for (unsigned l = first; l < first + levels; l++) {
        cuzk_fp_set_index(&r->fp, l - first);
        cuzk_fp_key(&r->fp, "hashes");
        if ((st = fc_bin_count(r, arity - 1, 32, &n)))
            return st;
        cuzk_fp_index(&r->fp, 0);
        for (unsigned i = 0; i + 1 < arity; i++) {
            cuzk_fp_set_index(&r->fp, i);
            if ((st = fc_bin_bytes32(r, p->sib[(*sib)++], true)))
                return st;
        }
        cuzk_fp_pop(&r->fp);
        cuzk_fp_pop(&r->fp);
        cuzk_fp_key(&r->fp, "index");
        size_t at = r->pos;
        uint64_t index;
        if ((st = fc_bin_u64(r, &index)))
            return st;
        if (index >= arity)
            return fc_bin_fail(r, at, CUZK_E_FORMAT, "index %" PRIu64 ", expected 0..%u (arity %u)", index,
                               arity - 1, arity);
        p->index[l] = (uint8_t)index;
        cuzk_fp_pop(&r->fp);
    }
    cuzk_fp_pop(&r->fp);
    cuzk_fp_pop(&r->fp);
    cuzk_fp_pop(&r->fp);
    return CUZK_OK;
}

static cuzk_status read_body(fc_bin_reader *r, fc_merkle_proof *p, const merkle_shape *s)
{
    cuzk_status st;
    size_t sib = 0;
    if (p->kind == FC_MP_SINGLE) {
        cuzk_fp_key(&r->fp, "root");
        if ((st = fc_bin_bytes32(r, p->root, true)))
            return st;
        cuzk_fp_pop(&r->fp);
        cuzk_fp_key(&r->fp, "leaf");
        if ((st = fc_bin_bytes32(r, p->leaf, true)))
            return st;
        cuzk_fp_pop(&r->fp);
        return read_path(r, p, "path", 0, s->base_levels, s->base_arity, &sib);
    }
    if ((st = read_path(r, p, "base_proof", 0, s->base_levels, s->base_arity, &sib)) ||
        (st = read_path(r, p, "sub_proof", s->base_levels, 1, s->sub_arity, &sib)))
        return st;
    if (p->kind == FC_MP_TOP && (st = read_path(r, p, "top_proof", s->base_levels + 1, 1, s->top_arity, &sib)))
        return st;
    cuzk_fp_key(&r->fp, "root");
    if ((st = fc_bin_bytes32(r, p->root, true)))
        return st;
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "leaf");
    if ((st = fc_bin_bytes32(r, p->leaf, true)))
        return st;
    cuzk_fp_pop(&r->fp);
    return CUZK_OK;
}

cuzk_status fc_merkle_read_bincode(fc_bin_reader *r, fc_merkle_proof *p, const merkle_shape *s)
{
    memset(p, 0, sizeof *p);
    unsigned depth = r->fp.depth;
    cuzk_fp_key(&r->fp, "data");
    size_t at = r->pos;
    uint32_t tag;
    cuzk_status st = fc_bin_u32(r, &tag);
    if (st)
        return st;
    unsigned want = s->top_arity ? FC_MP_TOP : s->sub_arity ? FC_MP_SUB : FC_MP_SINGLE;
    if (tag > FC_MP_TOP)
        return fc_bin_fail(r, at, CUZK_E_FORMAT, "MerkleProof tag %u, expected %u (%s; tags are 0 Single, 1 Sub, 2 Top)",
                           tag, want, fc_merkle_kind_name(want));
    if (tag != want)
        return fc_bin_fail(r, at, CUZK_E_FORMAT,
                           "MerkleProof tag %u (%s), expected %u (%s) for a tree of %u levels of arity %u, sub arity %u, "
                           "top arity %u", tag,
                           fc_merkle_kind_name(tag), want, fc_merkle_kind_name(want), s->base_levels, s->base_arity,
                           s->sub_arity, s->top_arity);
    if ((st = fc_merkle_proof_alloc(p, s->base_arity, s->base_levels, s->sub_arity, s->top_arity, r->err)))
        return st;
    cuzk_fp_key(&r->fp, fc_merkle_kind_name(tag));
    if ((st = read_body(r, p, s))) {
        fc_merkle_proof_free(p);
        return st;
    }
    r->fp.depth = depth;
    return CUZK_OK;
}

static void write_path(cuzk_outbuf *o, const fc_merkle_proof *p, unsigned first, unsigned levels, size_t *sib)
{
    cuzk_out_u64le(o, levels);
    for (unsigned l = first; l < first + levels; l++) {
        unsigned a = p->arity[l];
        cuzk_out_u64le(o, a - 1u);
        cuzk_out_bytes(o, p->sib[*sib], 32 * (size_t)(a - 1));
        *sib += a - 1;
        cuzk_out_u64le(o, p->index[l]);
    }
}

void fc_merkle_write_bincode(cuzk_outbuf *o, const fc_merkle_proof *p)
{
    unsigned base = fc_merkle_proof_base_levels(p);
    size_t sib = 0;
    cuzk_out_u32le(o, p->kind);
    if (p->kind == FC_MP_SINGLE) {
        cuzk_out_bytes(o, p->root, 32);
        cuzk_out_bytes(o, p->leaf, 32);
        write_path(o, p, 0, base, &sib);
        return;
    }
    write_path(o, p, 0, base, &sib);
    write_path(o, p, base, 1, &sib);
    if (p->kind == FC_MP_TOP)
        write_path(o, p, base + 1, 1, &sib);
    cuzk_out_bytes(o, p->root, 32);
    cuzk_out_bytes(o, p->leaf, 32);
}
