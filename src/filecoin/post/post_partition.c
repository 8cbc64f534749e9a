/* One FallbackPoSt partition from Curio's request: validation of the per-sector vanilla
 * proofs and their witness form (filecoin-proofs api/post_util.rs
 * single_partition_vanilla_proofs, storage-proofs-post fallback/vanilla.rs verify;
 * docs/formats.md#fallbackpostsectorproof); contract in post.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/seal/tree.h"
#include "filecoin/post/challenges.h"
#include "filecoin/post/post.h"

void fc_post_partition_free(fc_post_partition *part)
{
    if (!part)
        return;
    free(part->public_sectors);
    free(part->sectors);
    free(part->leaf);
    free(part->sib);
    free(part->index);
    memset(part, 0, sizeof *part);
}

/* Check the sector proof at position j and convert its inclusion proofs into the witness
 * slots j·vanilla_challenges + c (Window: circuit sector j, challenge c; Winning, j = 0:
 * circuit sector c, challenge 0). comm receives comm_r, comm_c, comm_r_last. */
static cuzk_status check_sector(fc_post_partition *part, uint32_t j, const fc_post_vanilla *v, fr_t comm[3],
                                cuzk_error *err)
{
    const bool challenges = !part->public_only;
    const fc_post_proof *p = part->proof;
    char what[160];
    int wl = snprintf(what, sizeof what, "%s vanilla proof %u (sector %llu)", p->name, j,
                      (unsigned long long)v->sector_id);
    if (v->nsectors != 1)
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: %u sector proofs, expected exactly 1", what, v->nsectors);
    const fc_post_sector_proof *sp = &v->sectors[0];
    if (sp->ninclusion != p->vanilla_challenges)
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: %u inclusion proofs, expected %u", what, sp->ninclusion,
                         p->vanilla_challenges);
    static const char *const names[3] = {"comm_r", "comm_c", "comm_r_last"};
    const uint8_t *bytes[3] = {v->comm_r, sp->comm_c, sp->comm_r_last};
    for (int i = 0; i < 3; i++)
        if (fr_from_bytes_le(&comm[i], bytes[i]) != CUZK_OK)
            return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: %s is not a canonical field element", what,
                             names[i]);
    uint8_t h[32];
    cuzk_status st = fc_comm_r(sp->comm_c, sp->comm_r_last, h, err);
    if (st)
        return st;
    if (memcmp(h, v->comm_r, 32)) {
        char a[65], b[65];
        cuzk_hex(a, h, 32);
        cuzk_hex(b, v->comm_r, 32);
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: Poseidon_2(comm_c, comm_r_last) = %s, comm_r is %s", what,
                         a, b);
    }
    const merkle_shape *t = &part->shape.tree;
    unsigned levels = merkle_shape_levels(t), nsib = merkle_shape_siblings(t);
    for (uint32_t c = 0; c < sp->ninclusion; c++) {
        const fc_merkle_proof *ip = &sp->inclusion[c];
        snprintf(what + wl, sizeof what - (size_t)wl, " inclusion proof %u", c);
        if (!fc_merkle_proof_has_shape(ip, t->base_arity, t->base_levels, t->sub_arity, t->top_arity))
            return cuzk_fail(err, CUZK_E_FORMAT, "%s: not of the tree R shape %u^%u-%u-%u", what, t->base_arity,
                             t->base_levels, t->sub_arity, t->top_arity);
        /* Window: sector position j, challenge c. Winning: circuit sector c, challenge 0. */
        uint32_t pos = p->winning ? c : j, n = p->winning ? 0 : c;
        uint64_t ci = fc_post_challenge_index(p, part->k, pos, n);
        uint64_t want = fc_post_leaf_challenge(part->randomness, v->sector_id, ci, p->shape->nodes);
        uint64_t got = fc_merkle_proof_node(ip);
        if (challenges && got != want)
            return cuzk_fail(err, CUZK_E_VERIFY_FAILED,
                             "%s: leaf index %llu, the challenge is %llu (partition %u, challenge_index %llu)", what,
                             (unsigned long long)got, (unsigned long long)want, part->k, (unsigned long long)ci);
        if (memcmp(ip->root, sp->comm_r_last, 32)) {
            char a[65], b[65];
            cuzk_hex(a, ip->root, 32);
            cuzk_hex(b, sp->comm_r_last, 32);
            return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: root %s, comm_r_last is %s", what, a, b);
        }
        if ((st = fc_merkle_proof_verify(ip, MERKLE_POSEIDON, what, err)))
            return st;
        size_t slot = (size_t)j * p->vanilla_challenges + c;
        fr_t root;
        if ((st = fc_merkle_proof_to_fr(ip, what, part->index + slot * levels, part->sib + slot * nsib,
                                        part->leaf + slot, &root, err)))
            return st;
    }
    return CUZK_OK;
}

static cuzk_status assemble(fc_post_partition *out, const fc_post_proof *p, const uint8_t randomness[32],
                            uint64_t miner_id, uint32_t k, const fc_post_vanilla *proofs, uint32_t n, bool public_only,
                            cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    out->public_only = public_only;
    fr_t tmp;
    if (fr_from_bytes_le(&tmp, randomness) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: randomness is not a canonical field element", p->name);
    if (n == 0 || (p->winning ? n != 1 : n > p->sector_count))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: %u vanilla proofs (%s)", p->name, n,
                         p->winning ? "WinningPoSt takes exactly one sector proof"
                                    : "a WindowPoSt partition holds 1 .. sector_count sectors");
    out->proof = p;
    fc_post_shape_of(p, &out->shape);
    out->k = p->winning ? 0 : k;
    memcpy(out->randomness, randomness, 32);
    fc_prover_id_from_actor(miner_id, out->prover_id);
    out->npublic = n;
    out->nsectors = p->winning ? p->sector_count : n;
    size_t slots = (size_t)n * p->vanilla_challenges;
    unsigned levels = merkle_shape_levels(&out->shape.tree), nsib = merkle_shape_siblings(&out->shape.tree);
    out->public_sectors = calloc(n, sizeof *out->public_sectors);
    out->sectors = calloc(out->nsectors, sizeof *out->sectors);
    out->leaf = malloc(slots * sizeof *out->leaf);
    out->sib = malloc(slots * nsib * sizeof *out->sib);
    out->index = malloc(slots * levels * sizeof *out->index);
    if (!out->public_sectors || !out->sectors || !out->leaf || !out->sib || !out->index) {
        fc_post_partition_free(out);
        return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory for %u sector proofs", p->name, n);
    }
    for (uint32_t j = 0; j < n; j++) {
        fr_t comm[3];
        cuzk_status st = check_sector(out, j, &proofs[j], comm, err);
        if (st) {
            fc_post_partition_free(out);
            return st;
        }
        out->public_sectors[j].sector_id = proofs[j].sector_id;
        memcpy(out->public_sectors[j].comm_r, proofs[j].comm_r, 32);
        /* circuit sectors of this proof: Window one (10 challenges), Winning 66 (1 each) */
        uint32_t first = p->winning ? 0 : j, count = p->winning ? p->sector_count : 1;
        for (uint32_t i = first; i < first + count; i++) {
            size_t slot = (size_t)i * p->challenge_count;
            out->sectors[i] = (fc_post_sector_witness){comm[0], comm[1], comm[2], out->leaf + slot,
                                                       out->index + slot * levels, out->sib + slot * nsib};
        }
    }
    return CUZK_OK;
}

cuzk_status fc_post_partition_assemble(fc_post_partition *out, const fc_post_proof *p, const uint8_t randomness[32],
                                       uint64_t miner_id, uint32_t k, const fc_post_vanilla *proofs, uint32_t n,
                                       cuzk_error *err)
{
    return assemble(out, p, randomness, miner_id, k, proofs, n, false, err);
}

static cuzk_status from_bytes(fc_post_partition *out, const fc_post_proof *p, const uint8_t randomness[32],
                              uint64_t miner_id, uint32_t k, const uint8_t *const *blobs, const size_t *lens,
                              uint32_t n, bool public_only, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    fc_post_vanilla *v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory for %u vanilla proofs", p->name, n);
    cuzk_status st = CUZK_OK;
    for (uint32_t i = 0; i < n && st == CUZK_OK; i++) {
        cuzk_error e;
        if ((st = fc_post_vanilla_read(&v[i], p->shape, blobs[i], lens[i], &e)))
            cuzk_fail(err, st, "vanilla_proofs[%u]: %s", i, e.msg);
    }
    if (st == CUZK_OK)
        st = assemble(out, p, randomness, miner_id, k, v, n, public_only, err);
    for (uint32_t i = 0; i < n; i++)
        fc_post_vanilla_free(&v[i]);
    free(v);
    return st;
}

cuzk_status fc_post_partition_from_bytes(fc_post_partition *out, const fc_post_proof *p, const uint8_t randomness[32],
                                         uint64_t miner_id, uint32_t k, const uint8_t *const *blobs,
                                         const size_t *lens, uint32_t n, cuzk_error *err)
{
    return from_bytes(out, p, randomness, miner_id, k, blobs, lens, n, false, err);
}

cuzk_status fc_post_partition_public_from_bytes(fc_post_partition *out, const fc_post_proof *p,
                                                const uint8_t randomness[32], uint64_t miner_id, uint32_t k,
                                                const uint8_t *const *blobs, const size_t *lens, uint32_t n,
                                                cuzk_error *err)
{
    return from_bytes(out, p, randomness, miner_id, k, blobs, lens, n, true, err);
}

cuzk_status fc_post_partition_synthesize(cs_t *cs, const fc_post_partition *part, cuzk_error *err)
{
    if (part->public_only)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "%s: the partition was read for verification only (its inclusion proofs were not checked "
                         "against the challenges): it cannot be synthesized",
                         part->proof->name);
    return fc_post_synthesize(cs, &part->shape, part->sectors, part->nsectors, err);
}

cuzk_status fc_post_partition_public_inputs(const fc_post_partition *part, fr_t *out, cuzk_error *err)
{
    return fc_post_public_inputs(part->proof, part->randomness, part->k, part->public_sectors, part->npublic, out,
                                 err);
}
