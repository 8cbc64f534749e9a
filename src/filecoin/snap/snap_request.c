/* A SnapDeals request: validation of the PartitionProofs and their witness form
 * (storage-proofs-update vanilla.rs verify, circuit.rs PrivateInputs::new;
 * docs/formats.md#snapdeals-partitionproof); contract in snap.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/seal/tree.h"
#include "filecoin/snap/challenges.h"
#include "filecoin/snap/snap.h"

static cuzk_status mismatch(cuzk_error *err, const char *what, const char *field, const uint8_t got[32],
                            const char *expected_name, const uint8_t want[32])
{
    char a[65], b[65];
    cuzk_hex(a, got, 32);
    cuzk_hex(b, want, 32);
    return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: %s is %s, expected %s %s", what, field, a, expected_name, b);
}

void fc_snap_request_free(fc_snap_request *r)
{
    if (!r)
        return;
    free(r->witness);
    free(r->challenges);
    free(r->values);
    memset(r, 0, sizeof *r);
}

/* Per partition: A apex leaves, pb partition-path siblings, and per challenge the tree R_old
 * and R_new siblings and the tree D_new siblings the circuit takes. */
static size_t values_per_partition(const fc_snap_shape *s)
{
    size_t nsib = merkle_shape_siblings(&s->tree_r);
    size_t dsib = s->poseidon ? nsib : s->challenge_bits - s->partition_bits - s->apex_bits;
    return s->apex_leaves + s->partition_bits + (size_t)s->challenges * (2 * nsib + dsib);
}

/* Hash a binary SHA-256 tree-D proof from its leaf up `levels` levels (filecoin-hashers
 * sha256.rs). */
static cuzk_status tree_d_node(const fc_merkle_proof *p, unsigned levels, uint8_t out[32], cuzk_error *err)
{
    uint8_t pair[2][32];
    memcpy(out, p->leaf, 32);
    for (unsigned l = 0; l < levels; l++) {
        memcpy(pair[p->index[l]], out, 32);
        memcpy(pair[p->index[l] ^ 1], p->sib[l], 32);
        cuzk_status st = merkle_hash_native(MERKLE_SHA256, (const uint8_t(*)[32])pair, 2, out, err);
        if (st)
            return st;
    }
    return CUZK_OK;
}

typedef struct {
    const fc_snap_request *r;
    uint32_t k;
    const uint8_t *root_r_old, *root_r_new;
    fr_t phi;
    uint8_t comm_d_new[32];
    fr_t *tmp_sib; /* scratch: the longest path's siblings */
    unsigned *tmp_idx;
} part_ctx;

/* One challenge's three proofs: shapes, node index, roots, paths, the encoding relation;
 * fills the challenge witness (its sib_d from the first `dsib` tree-D siblings). */
static cuzk_status check_challenge(const part_ctx *x, const fc_snap_partition_proof *part, uint32_t i, uint64_t c,
                                   fc_snap_challenge_witness *cw, fr_t *vals, cuzk_error *err)
{
    const fc_snap_shape *s = &x->r->shape;
    const fc_snap_challenge_proof *cp = &part->challenges[i];
    const merkle_shape *t = &s->tree_r;
    unsigned nsib = merkle_shape_siblings(t), cb = s->challenge_bits;
    char what[160];
    int wl = snprintf(what, sizeof what, "%s partition %u challenge %u (node %llu)", x->r->proof->name, x->k, i,
                      (unsigned long long)c);
    const fc_merkle_proof *proofs[3] = {&cp->r_old, &cp->d_new, &cp->r_new};
    static const char *const names[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};
    const uint8_t *roots[3] = {x->root_r_old, x->comm_d_new, x->root_r_new};
    static const char *const root_names[3] = {"root_r_old (challenge 0's)", "comm_d_new", "root_r_new (challenge 0's)"};
    fr_t leaf[3], root;
    cuzk_status st;
    for (int j = 0; j < 3; j++) {
        const fc_merkle_proof *p = proofs[j];
        bool sha = j == 1 && !s->poseidon;
        snprintf(what + wl, sizeof what - (size_t)wl, " %s", names[j]);
        if (sha ? !fc_merkle_proof_has_shape(p, 2, cb, 0, 0)
                : !fc_merkle_proof_has_shape(p, t->base_arity, t->base_levels, t->sub_arity, t->top_arity))
            return cuzk_fail(err, CUZK_E_FORMAT, "%s: not of the %s shape", what, sha ? "tree D" : "tree R");
        uint64_t node = fc_merkle_proof_node(p);
        if (node != c)
            return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: leaf index %llu, the challenge is %llu", what,
                             (unsigned long long)node, (unsigned long long)c);
        if (memcmp(p->root, roots[j], 32))
            return mismatch(err, what, "root", p->root, root_names[j], roots[j]);
        if ((st = fc_merkle_proof_verify(p, sha ? MERKLE_SHA256 : MERKLE_POSEIDON, what, err)))
            return st;
        if ((st = fc_merkle_proof_to_fr(p, what, x->tmp_idx, x->tmp_sib, &leaf[j], &root, err)))
            return st;
        /* witness: r_old, r_new siblings in full; tree D below the apex (SHA) or in full */
        fr_t *dst = j == 0 ? vals : j == 2 ? vals + nsib : vals + 2 * nsib;
        size_t count = j != 1 || s->poseidon ? nsib : cb - s->partition_bits - s->apex_bits;
        memcpy(dst, x->tmp_sib, count * sizeof *dst);
    }
    what[wl] = 0;
    fr_t rho, want;
    fc_snap_rho(&x->phi, c >> (cb - s->h), &rho);
    fr_mul(&want, &leaf[1], &rho);
    fr_add(&want, &want, &leaf[0]);
    if (!fr_eq(&want, &leaf[2])) {
        uint8_t a[32], b[32];
        fr_to_bytes_le(a, &leaf[2]);
        fr_to_bytes_le(b, &want);
        return mismatch(err, what, "proof_r_new leaf", a, "leaf_r_old + leaf_d_new * rho =", b);
    }
    *cw = (fc_snap_challenge_witness){leaf[0], leaf[1], vals, vals + nsib, vals + 2 * nsib};
    if (s->poseidon)
        return CUZK_OK;
    /* SHA variant: the node at the apex row is the selected apex leaf; the top pb siblings
     * are the partition path (challenge 0's). */
    unsigned below = cb - s->partition_bits - s->apex_bits;
    uint8_t node[32];
    if ((st = tree_d_node(&cp->d_new, below, node, err)))
        return st;
    uint64_t a = (c >> below) & (s->apex_leaves - 1);
    if (memcmp(node, part->apex[a], 32)) {
        char name[40];
        snprintf(name, sizeof name, "apex leaf %llu", (unsigned long long)a);
        return mismatch(err, what, "the tree D node at the apex row", node, name, part->apex[a]);
    }
    const fc_merkle_proof *d0 = &part->challenges[0].d_new;
    for (unsigned l = cb - s->partition_bits; l < cb; l++)
        if (memcmp(cp->d_new.sib[l], d0->sib[l], 32))
            return mismatch(err, what, "proof_d_new partition-path sibling", cp->d_new.sib[l],
                            "challenge 0's", d0->sib[l]);
    return CUZK_OK;
}

/* Partition k: counts, comm_c, roots, commitments, apex tree, every challenge. */
static cuzk_status check_partition(fc_snap_request *r, uint32_t k, const fc_snap_partition_proof *part,
                                   const fr_t *phi, fr_t *tmp_sib, unsigned *tmp_idx, uint64_t *challenges,
                                   cuzk_error *err)
{
    const fc_snap_shape *s = &r->shape;
    const fc_snap_proof *u = r->proof;
    char what[96];
    snprintf(what, sizeof what, "%s partition %u", u->name, k);
    if (part->poseidon != s->poseidon)
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: a %s PartitionProof, expected %s", what,
                         part->poseidon ? "Poseidon" : "SHA-256", s->poseidon ? "Poseidon" : "SHA-256");
    if (part->napex != s->apex_leaves || part->nchallenges != s->challenges)
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: %u apex leaves and %u challenge proofs, expected %u and %u", what,
                         part->napex, part->nchallenges, s->apex_leaves, s->challenges);
    cuzk_status st;
    uint8_t comm_r_old[32], comm_r_new[32];
    fr_to_bytes_le(comm_r_old, &r->pub.comm_r_old);
    fr_to_bytes_le(comm_r_new, &r->pub.comm_r_new);
    st = s->poseidon ? fc_snap_poseidon_challenges(u, comm_r_new, challenges, err)
                     : fc_snap_challenges(u, comm_r_new, k, challenges, err);
    if (st)
        return st;
    fc_snap_witness *w = &r->witness[k];
    fr_t *vals = r->values + (size_t)k * values_per_partition(s);
    if (fr_from_bytes_le(&w->comm_c, part->comm_c) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: comm_c is not a canonical field element", what);
    const uint8_t *root_r_old = part->challenges[0].r_old.root, *root_r_new = part->challenges[0].r_new.root;
    if (fr_from_bytes_le(&w->root_r_old, root_r_old) != CUZK_OK ||
        fr_from_bytes_le(&w->root_r_new, root_r_new) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: challenge 0's tree R root is not a canonical field element",
                         what);
    uint8_t pair[2][32], h[32];
    for (int j = 0; j < 2; j++) {
        if ((st = fc_comm_r(part->comm_c, j ? root_r_new : root_r_old, h, err)))
            return st;
        if (memcmp(h, j ? comm_r_new : comm_r_old, 32))
            return mismatch(err, what, j ? "Poseidon_2(comm_c, root_r_new)" : "Poseidon_2(comm_c, root_r_old)", h,
                            j ? "comm_r_new" : "comm_r_old", j ? comm_r_new : comm_r_old);
    }
    part_ctx x = {r, k, root_r_old, root_r_new, *phi, {0}, tmp_sib, tmp_idx};
    fr_to_bytes_le(x.comm_d_new, &r->pub.comm_d_new);
    if (!s->poseidon) {
        /* apex leaves, the apex tree root and the partition path up to comm_d_new */
        w->apex = vals;
        uint8_t(*row)[32] = malloc((size_t)s->apex_leaves * 32);
        if (!row)
            return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory", what);
        for (unsigned a = 0; a < s->apex_leaves && st == CUZK_OK; a++) {
            memcpy(row[a], part->apex[a], 32);
            if (fr_from_bytes_le(&vals[a], part->apex[a]) != CUZK_OK)
                st = cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: apex leaf %u is not a canonical field element",
                               what, a);
        }
        for (unsigned n = s->apex_leaves; n > 1 && st == CUZK_OK; n /= 2)
            for (unsigned a = 0; a < n / 2 && st == CUZK_OK; a++)
                st = merkle_hash_native(MERKLE_SHA256, (const uint8_t(*)[32])row[2 * a], 2, row[a], err);
        const fc_merkle_proof *d0 = &part->challenges[0].d_new;
        unsigned cb = s->challenge_bits, pb = s->partition_bits;
        if (st == CUZK_OK && !fc_merkle_proof_has_shape(d0, 2, cb, 0, 0))
            st = cuzk_fail(err, CUZK_E_FORMAT, "%s challenge 0 proof_d_new: not of the tree D shape", what);
        w->partition_path = vals + s->apex_leaves;
        for (unsigned l = 0; l < pb && st == CUZK_OK; l++) {
            if (fr_from_bytes_le(&vals[s->apex_leaves + l], d0->sib[cb - pb + l]) != CUZK_OK)
                st = cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL,
                               "%s challenge 0 proof_d_new: partition-path sibling %u is not canonical", what, l);
            memcpy(pair[(k >> l) & 1], row[0], 32);
            memcpy(pair[((k >> l) & 1) ^ 1], d0->sib[cb - pb + l], 32);
            if (st == CUZK_OK)
                st = merkle_hash_native(MERKLE_SHA256, (const uint8_t(*)[32])pair, 2, row[0], err);
        }
        if (st == CUZK_OK && memcmp(row[0], x.comm_d_new, 32))
            st = mismatch(err, what, "the apex tree root hashed up the partition path", row[0], "comm_d_new",
                          x.comm_d_new);
        free(row);
        if (st)
            return st;
        vals += s->apex_leaves + pb;
    }
    fc_snap_challenge_witness *cw = r->challenges + (size_t)k * s->challenges;
    w->challenges = cw;
    size_t nsib = merkle_shape_siblings(&s->tree_r);
    size_t per = 2 * nsib + (s->poseidon ? nsib : s->challenge_bits - s->partition_bits - s->apex_bits);
    for (uint32_t i = 0; i < s->challenges; i++)
        if ((st = check_challenge(&x, part, i, challenges[i], &cw[i], vals + i * per, err)))
            return st;
    return CUZK_OK;
}

cuzk_status fc_snap_request_assemble(fc_snap_request *out, const fc_snap_proof *u, bool poseidon,
                                     const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                     const uint8_t comm_r_new[32], const fc_snap_partition_proof *parts, uint32_t n,
                                     cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    cuzk_status st = fc_snap_shape_for_nodes(u->shape->nodes, poseidon, &out->shape, err);
    if (st)
        return st;
    const fc_snap_shape *s = &out->shape;
    const char *variant = poseidon ? "EmptySectorUpdate-Poseidon" : "EmptySectorUpdate";
    static const char *const names[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
    const uint8_t *comm[3] = {comm_r_old, comm_d_new, comm_r_new};
    fr_t *dst[3] = {&out->pub.comm_r_old, &out->pub.comm_d_new, &out->pub.comm_r_new};
    for (int i = 0; i < 3; i++)
        if (fr_from_bytes_le(dst[i], comm[i]) != CUZK_OK)
            return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s %s: %s is not a canonical field element", u->name,
                             variant, names[i]);
    if (n != s->partitions)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s %s: %u partition proofs, expected %u", u->name, variant, n,
                         s->partitions);
    fr_t phi;
    if ((st = fc_snap_phi(comm_d_new, comm_r_old, &phi, err)))
        return st;
    out->proof = u;
    out->npartitions = n;
    size_t nsib = merkle_shape_siblings(&s->tree_r);
    out->witness = calloc(n, sizeof *out->witness);
    out->challenges = calloc((size_t)n * s->challenges, sizeof *out->challenges);
    out->values = malloc((size_t)n * values_per_partition(s) * sizeof *out->values);
    fr_t *tmp_sib = malloc((nsib + 64) * sizeof *tmp_sib);
    unsigned *tmp_idx = malloc(64 * sizeof *tmp_idx);
    uint64_t *challenges = malloc(s->challenges * sizeof *challenges);
    if (!out->witness || !out->challenges || !out->values || !tmp_sib || !tmp_idx || !challenges)
        st = cuzk_fail(err, CUZK_E_NOMEM, "%s %s: out of memory", u->name, variant);
    for (uint32_t k = 0; k < n && st == CUZK_OK; k++)
        st = check_partition(out, k, &parts[k], &phi, tmp_sib, tmp_idx, challenges, err);
    free(tmp_sib);
    free(tmp_idx);
    free(challenges);
    if (st)
        fc_snap_request_free(out);
    return st;
}

cuzk_status fc_snap_request_from_bytes(fc_snap_request *out, const fc_snap_proof *u, bool poseidon,
                                       const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                       const uint8_t comm_r_new[32], const uint8_t *const *blobs, const size_t *lens,
                                       uint32_t n, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    fc_snap_partition_proof *p = calloc(n ? n : 1, sizeof *p);
    if (!p)
        return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory for %u partition proofs", u->name, n);
    cuzk_status st = CUZK_OK;
    for (uint32_t i = 0; i < n && st == CUZK_OK; i++) {
        cuzk_error e;
        if ((st = fc_snap_partition_read(&p[i], u->shape, poseidon, blobs[i], lens[i], &e)))
            cuzk_fail(err, st, "vanilla_proofs[%u]: %s", i, e.msg);
    }
    if (st == CUZK_OK)
        st = fc_snap_request_assemble(out, u, poseidon, comm_r_old, comm_d_new, comm_r_new, p, n, err);
    for (uint32_t i = 0; i < n; i++)
        fc_snap_partition_free(&p[i]);
    free(p);
    return st;
}

cuzk_status fc_snap_request_synthesize(cs_t *cs, const fc_snap_request *r, uint32_t k, cuzk_error *err)
{
    if (k >= r->npartitions)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: partition %u of %u", r->proof->name, k, r->npartitions);
    fc_snap_public pub = r->pub;
    pub.k = k;
    return fc_snap_synthesize(cs, &r->shape, &pub, &r->witness[k], err);
}

cuzk_status fc_snap_request_public_inputs(const fc_snap_request *r, uint32_t k, fr_t out[4], cuzk_error *err)
{
    fc_snap_public pub = r->pub;
    pub.k = k;
    return fc_snap_public_inputs(&r->shape, &pub, out, err);
}
