/* SnapDeals PartitionProof bincode (storage-proofs-update vanilla.rs and poseidon/vanilla.rs;
 * docs/formats.md#snapdeals-partitionproof); contracts in vanilla.h. */
#include <stdlib.h>
#include <string.h>

#include "filecoin/core/bincode.h"
#include "filecoin/snap/vanilla.h"

void fc_snap_partition_free(fc_snap_partition_proof *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; p->challenges && i < p->nchallenges; i++) {
        fc_merkle_proof_free(&p->challenges[i].r_old);
        fc_merkle_proof_free(&p->challenges[i].d_new);
        fc_merkle_proof_free(&p->challenges[i].r_new);
    }
    free(p->challenges);
    free(p->apex);
    memset(p, 0, sizeof *p);
}

static const fc_snap_proof *snap_proof_of(const fc_sector_shape *shape)
{
    for (unsigned id = 0; id < FC_SNAP_PROOF_COUNT; id++) {
        const fc_snap_proof *u;
        if (fc_snap_proof_get(id, &u, NULL) == CUZK_OK && u->shape->size == shape->size)
            return u;
    }
    return NULL;
}

static cuzk_status read_challenge(fc_bin_reader *r, fc_snap_challenge_proof *c, const merkle_shape *tree_r,
                                  const merkle_shape *tree_d)
{
    cuzk_status st;
    cuzk_fp_key(&r->fp, "proof_r_old");
    if ((st = fc_merkle_read_bincode(r, &c->r_old, tree_r)))
        return st;
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "proof_d_new");
    if ((st = fc_merkle_read_bincode(r, &c->d_new, tree_d)))
        return st;
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "proof_r_new");
    if ((st = fc_merkle_read_bincode(r, &c->r_new, tree_r)))
        return st;
    cuzk_fp_pop(&r->fp);
    return CUZK_OK;
}

static cuzk_status read_partition(fc_bin_reader *r, fc_snap_partition_proof *out, const fc_snap_proof *up)
{
    merkle_shape tree_r = fc_tree_r_shape(up->shape);
    merkle_shape tree_d = out->poseidon ? tree_r : fc_tree_d_shape(up->shape);
    cuzk_status st;
    uint64_t n;
    cuzk_fp_key(&r->fp, "comm_c");
    if ((st = fc_bin_bytes32(r, out->comm_c, true)))
        return st;
    cuzk_fp_pop(&r->fp);
    if (!out->poseidon) {
        cuzk_fp_key(&r->fp, "apex_leafs");
        if ((st = fc_bin_count(r, up->apex_leaves, 32, &n)))
            return st;
        if (!(out->apex = malloc(n * sizeof *out->apex)))
            return fc_bin_fail(r, r->pos, CUZK_E_NOMEM, "out of memory");
        out->napex = (uint32_t)n;
        cuzk_fp_index(&r->fp, 0);
        for (uint64_t i = 0; i < n; i++) {
            cuzk_fp_set_index(&r->fp, i);
            if ((st = fc_bin_bytes32(r, out->apex[i], true)))
                return st;
        }
        cuzk_fp_pop(&r->fp);
        cuzk_fp_pop(&r->fp);
    }
    cuzk_fp_key(&r->fp, "challenge_proofs");
    uint64_t want = out->poseidon ? up->poseidon_challenges : up->challenges;
    uint64_t item = 2 * fc_merkle_bincode_size(&tree_r) + fc_merkle_bincode_size(&tree_d);
    if ((st = fc_bin_count(r, want, item, &n)))
        return st;
    if (!(out->challenges = calloc(n, sizeof *out->challenges)))
        return fc_bin_fail(r, r->pos, CUZK_E_NOMEM, "out of memory");
    out->nchallenges = (uint32_t)n;
    cuzk_fp_index(&r->fp, 0);
    for (uint64_t i = 0; i < n; i++) {
        cuzk_fp_set_index(&r->fp, i);
        if ((st = read_challenge(r, &out->challenges[i], &tree_r, &tree_d)))
            return st;
    }
    r->fp.depth = 0;
    return fc_bin_end(r);
}

cuzk_status fc_snap_partition_read(fc_snap_partition_proof *out, const fc_sector_shape *shape, bool poseidon,
                                   const uint8_t *buf, size_t len, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    const fc_snap_proof *up = shape ? snap_proof_of(shape) : NULL;
    if (!up || (!buf && len))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_snap_partition_read: NULL or unknown shape, or NULL buffer");
    out->poseidon = poseidon;
    fc_bin_reader r;
    fc_bin_init(&r, buf, len, poseidon ? "SnapDeals-Poseidon PartitionProof" : "SnapDeals PartitionProof", err);
    cuzk_status st = fc_bin_refuse_json(&r);
    if (!st)
        st = read_partition(&r, out, up);
    if (st)
        fc_snap_partition_free(out);
    return st;
}

cuzk_status fc_snap_partition_write(const fc_snap_partition_proof *p, uint8_t **out, size_t *len,
                                    cuzk_error *err)
{
    *out = NULL;
    *len = 0;
    for (uint32_t i = 0; i < p->nchallenges; i++)
        if (!p->challenges[i].r_old.sib || !p->challenges[i].d_new.sib || !p->challenges[i].r_new.sib)
            return cuzk_fail(err, CUZK_E_INVALID_ARG,
                             "fc_snap_partition_write: challenge_proofs[%u] has an unallocated Merkle proof", i);
    cuzk_outbuf o = {0};
    cuzk_out_bytes(&o, p->comm_c, 32);
    if (!p->poseidon) {
        cuzk_out_u64le(&o, p->napex);
        cuzk_out_bytes(&o, p->apex, 32 * (size_t)p->napex);
    }
    cuzk_out_u64le(&o, p->nchallenges);
    for (uint32_t i = 0; i < p->nchallenges; i++) {
        fc_merkle_write_bincode(&o, &p->challenges[i].r_old);
        fc_merkle_write_bincode(&o, &p->challenges[i].d_new);
        fc_merkle_write_bincode(&o, &p->challenges[i].r_new);
    }
    return cuzk_out_finish(&o, out, len, "fc_snap_partition_write", err);
}
