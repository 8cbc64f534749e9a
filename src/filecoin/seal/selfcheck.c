/* Self-checks of generated vanilla proofs; contracts in selfcheck.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/challenges.h"
#include "filecoin/graph.h"
#include "filecoin/merkle_proof.h"
#include "filecoin/seal/c1_gen.h"
#include "filecoin/seal/encode.h"
#include "filecoin/seal/sdr.h"
#include "filecoin/seal/selfcheck.h"
#include "filecoin/seal/tree.h"

static void hex(char out[65], const uint8_t b[32])
{
    static const char d[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++)
        out[2 * i] = d[b[i] >> 4], out[2 * i + 1] = d[b[i] & 15];
    out[64] = 0;
}

static cuzk_status differ(const char *what, const char *field, const uint8_t got[32], const uint8_t want[32],
                          cuzk_error *err)
{
    char a[65], b[65];
    hex(a, got);
    hex(b, want);
    return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: %s is %s, expected %s", what, field, a, b);
}

static cuzk_status p2(const uint8_t a[32], const uint8_t b[32], uint8_t out[32], cuzk_error *err)
{
    uint8_t pair[2][32];
    memcpy(pair[0], a, 32);
    memcpy(pair[1], b, 32);
    return fc_tree_hash(MERKLE_POSEIDON, (const uint8_t(*)[32])pair, 2, out, "P_2", err);
}

/* Shape, node, root and path of one inclusion proof. root NULL: not compared. */
static cuzk_status check_path(const fc_merkle_proof *p, const merkle_shape *s, uint64_t node, const uint8_t *root,
                              const char *what, cuzk_error *err)
{
    if (!fc_merkle_proof_has_shape(p, s->base_arity, s->base_levels, s->sub_arity, s->top_arity))
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: wrong shape (%u levels, kind %u)", what, p->nlevels, p->kind);
    if (fc_merkle_proof_node(p) != node)
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: path is for node %" PRIu64 ", expected %" PRIu64, what,
                         fc_merkle_proof_node(p), node);
    if (root && memcmp(p->root, root, 32))
        return differ(what, "root", p->root, root, err);
    return fc_merkle_proof_verify(p, s->hasher, what, err);
}

/* ---- C1 ---- */

static cuzk_status check_column(const fc_column_proof *col, unsigned L, const merkle_shape *rs, uint64_t node,
                                const uint8_t comm_c[32], const char *what, cuzk_error *err)
{
    if (col->index != node || col->nrows != L)
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: column of node %u with %u rows, expected node %" PRIu64
                         " with %u", what, col->index, col->nrows, node, L);
    uint8_t h[32];
    cuzk_status st = fc_tree_hash(MERKLE_POSEIDON, (const uint8_t(*)[32])col->rows, L, h, what, err);
    if (st == CUZK_OK && memcmp(h, col->proof.leaf, 32))
        st = differ(what, "tree C leaf (column hash)", col->proof.leaf, h, err);
    return st == CUZK_OK ? check_path(&col->proof, rs, node, comm_c, what, err) : st;
}

static cuzk_status check_challenge(const fc_c1_output *c1, const fc_graph *g, const fc_porep_challenge_proof *pr,
                                   uint64_t c, const uint8_t comm_c[32], const uint8_t comm_r_last[32],
                                   const char *where, cuzk_error *err)
{
    const fc_sector_shape *sh = c1->registered_proof->shape;
    unsigned L = sh->layers;
    merkle_shape ds = fc_tree_d_shape(sh), rs = fc_tree_r_shape(sh);
    char what[160];
    snprintf(what, sizeof what, "%s comm_d_proofs", where);
    cuzk_status st = check_path(&pr->comm_d_proof, &ds, c, c1->comm_d, what, err);
    snprintf(what, sizeof what, "%s comm_r_last_proof", where);
    if (st == CUZK_OK)
        st = check_path(&pr->comm_r_last_proof, &rs, c, comm_r_last, what, err);
    snprintf(what, sizeof what, "%s c_x", where);
    if (st == CUZK_OK)
        st = check_column(&pr->c_x, L, &rs, c, comm_c, what, err);
    uint32_t drg[FC_DRG_PARENTS], exp[FC_EXP_PARENTS];
    fc_graph_drg_parents(g, c, drg);
    fc_graph_exp_parents(g, c, exp);
    for (unsigned i = 0; i < FC_DRG_PARENTS && st == CUZK_OK; i++) {
        snprintf(what, sizeof what, "%s drg_parents[%u]", where, i);
        st = check_column(&pr->drg[i], L, &rs, drg[i], comm_c, what, err);
    }
    for (unsigned i = 0; i < FC_EXP_PARENTS && st == CUZK_OK; i++) {
        snprintf(what, sizeof what, "%s exp_parents[%u]", where, i);
        st = check_column(&pr->exp[i], L, &rs, exp[i], comm_c, what, err);
    }
    if (st != CUZK_OK)
        return st;
    if (pr->nlabeling != L)
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: %u labeling proofs, expected %u", where, pr->nlabeling, L);
    for (unsigned l = 1; l <= L; l++) {
        uint8_t slots[FC_LABEL_PARENTS][32], label[32];
        fc_c1_labeling_slots(pr, l, slots);
        const fc_labeling_proof *lp = &pr->labeling[l - 1];
        snprintf(what, sizeof what, "%s labeling_proofs[%u]", where, l - 1);
        if (lp->layer_index != l || lp->node != c || memcmp(lp->parents, slots, sizeof slots))
            return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: layer %u node %" PRIu64 " or parents differ from the "
                             "parent columns (expected layer %u node %" PRIu64 ")", what, lp->layer_index, lp->node, l, c);
        fc_sdr_label(c1->replica_id, l, c, (const uint8_t(*)[32])slots, label);
        if (memcmp(label, pr->c_x.rows[l - 1], 32))
            return differ(what, "recomputed label vs c_x row", label, pr->c_x.rows[l - 1], err);
    }
    if (memcmp(&pr->encoding, &pr->labeling[L - 1], sizeof pr->encoding))
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s encoding_proof: differs from the last labeling proof", where);
    uint8_t enc[32];
    snprintf(what, sizeof what, "%s encoding", where);
    st = fc_encode_node(pr->comm_d_proof.leaf, pr->c_x.rows[L - 1], enc, err);
    if (st == CUZK_OK && memcmp(enc, pr->comm_r_last_proof.leaf, 32))
        st = differ(what, "replica leaf", pr->comm_r_last_proof.leaf, enc, err);
    return st;
}

cuzk_status fc_c1_selfcheck(const fc_c1_output *c1, cuzk_error *err)
{
    const fc_seal_proof *p = c1->registered_proof;
    if (!p || !c1->proofs)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "C1: no registered proof or no proofs");
    if (c1->partitions != p->partitions || c1->challenges != p->challenges_per_partition)
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "C1: %u partitions x %u challenges, %s has %u x %u",
                         c1->partitions, c1->challenges, p->name, p->partitions, p->challenges_per_partition);
    uint8_t want[32];
    if (c1->has_sector) {
        fc_replica_id(c1->prover_id, c1->sector_id, c1->ticket, c1->comm_d, p->porep_id, want);
        if (memcmp(want, c1->replica_id, 32))
            return differ("C1", "replica_id", c1->replica_id, want, err);
    }
    const uint8_t *comm_c = c1->proofs[0].c_x.proof.root, *comm_r_last = c1->proofs[0].comm_r_last_proof.root;
    cuzk_status st = p2(comm_c, comm_r_last, want, err);
    if (st == CUZK_OK && memcmp(want, c1->comm_r, 32))
        st = differ("C1", "comm_r vs P_2(comm_c, comm_r_last)", c1->comm_r, want, err);
    fc_graph g;
    if (st == CUZK_OK)
        st = fc_graph_init(&g, p, err);
    uint64_t *ch = calloc(c1->challenges, sizeof *ch);
    if (st == CUZK_OK && !ch)
        st = cuzk_fail(err, CUZK_E_NOMEM, "challenges");
    for (uint32_t k = 0; k < c1->partitions && st == CUZK_OK; k++) {
        st = fc_porep_challenges(p, c1->replica_id, c1->seed, c1->comm_r, k, ch, err);
        for (uint32_t i = 0; i < c1->challenges && st == CUZK_OK; i++) {
            char where[64];
            snprintf(where, sizeof where, "partition %u challenge %u (node %" PRIu64 ")", k, i, ch[i]);
            st = check_challenge(c1, &g, &c1->proofs[(size_t)k * c1->challenges + i], ch[i], comm_c, comm_r_last,
                                 where, err);
        }
    }
    free(ch);
    return st;
}

/* ---- PoSt ---- */

cuzk_status fc_post_selfcheck(const fc_post_proof *p, const uint8_t randomness[32], uint32_t k, uint32_t sector_pos,
                              const fc_post_vanilla *v, cuzk_error *err)
{
    if (v->nsectors != 1)
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "PoSt sector %" PRIu64 ": %u SectorProofs, expected 1",
                         v->sector_id, v->nsectors);
    const fc_post_sector_proof *sp = &v->sectors[0];
    if (p->winning)
        k = sector_pos = 0;
    merkle_shape rs = fc_tree_r_shape(p->shape);
    uint8_t want[32];
    cuzk_status st = p2(sp->comm_c, sp->comm_r_last, want, err);
    if (st == CUZK_OK && memcmp(want, v->comm_r, 32))
        return differ("PoSt", "comm_r vs P_2(comm_c, comm_r_last)", v->comm_r, want, err);
    if (st == CUZK_OK && sp->ninclusion != p->vanilla_challenges)
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "PoSt sector %" PRIu64 ": %u inclusion proofs, expected %u",
                         v->sector_id, sp->ninclusion, p->vanilla_challenges);
    for (uint32_t n = 0; n < sp->ninclusion && st == CUZK_OK; n++) {
        uint64_t leaf = fc_post_leaf_challenge(randomness, v->sector_id, fc_post_challenge_index(p, k, sector_pos, n),
                                               p->shape->nodes);
        char what[96];
        snprintf(what, sizeof what, "PoSt sector %" PRIu64 " inclusion_proofs[%u]", v->sector_id, n);
        st = check_path(&sp->inclusion[n], &rs, leaf, sp->comm_r_last, what, err);
    }
    return st;
}

/* ---- SnapDeals ---- */

static unsigned log2u(uint64_t v)
{
    unsigned r = 0;
    while (v > 1)
        v >>= 1, r++;
    return r;
}

/* The running value of a binary path after its first `levels` levels. */
static void d_path_node(const fc_merkle_proof *p, unsigned levels, uint8_t out[32])
{
    uint8_t pair[64];
    memcpy(out, p->leaf, 32);
    for (unsigned l = 0; l < levels; l++) {
        memcpy(pair + (p->index[l] ? 32 : 0), out, 32);
        memcpy(pair + (p->index[l] ? 0 : 32), p->sib[l], 32);
        fc_tree_hash(MERKLE_SHA256, (const uint8_t(*)[32])pair, 2, out, "apex", NULL);
    }
}

cuzk_status fc_snap_selfcheck(const fc_update_proof *u, uint32_t k, const uint8_t comm_r_old[32],
                              const uint8_t comm_d_new[32], const uint8_t comm_r_new[32],
                              const fc_snap_partition_proof *pp, cuzk_error *err)
{
    const fc_sector_shape *sh = u->shape;
    if (pp->poseidon || pp->napex != u->apex_leaves || pp->nchallenges != u->challenges)
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "SnapDeals partition %u: %u apex leaves and %u challenges, "
                         "expected %u and %u", k, pp->napex, pp->nchallenges, u->apex_leaves, u->challenges);
    merkle_shape ds = fc_tree_d_shape(sh), rs = fc_tree_r_shape(sh);
    const uint8_t *root_old = pp->challenges[0].r_old.root, *root_new = pp->challenges[0].r_new.root;
    uint8_t want[32];
    cuzk_status st = p2(pp->comm_c, root_old, want, err);
    if (st == CUZK_OK && memcmp(want, comm_r_old, 32))
        return differ("SnapDeals", "comm_r_old vs P_2(comm_c, root_r_old)", comm_r_old, want, err);
    if (st == CUZK_OK)
        st = p2(pp->comm_c, root_new, want, err);
    if (st == CUZK_OK && memcmp(want, comm_r_new, 32))
        return differ("SnapDeals", "comm_r_new vs P_2(comm_c, root_r_new)", comm_r_new, want, err);
    /* apex tree of partition k: napex leaves, hashed in pairs up to one node */
    unsigned log2n = sh->log2_nodes, pb = log2u(u->partitions), ab = log2u(u->apex_leaves);
    unsigned ab_h = log2n - pb - ab, bits_shr = log2n - u->h;
    uint8_t(*apex)[32] = malloc((size_t)2 * u->apex_leaves * 32);
    uint64_t *ch = calloc(u->challenges, sizeof *ch);
    fr_t phi;
    if (st == CUZK_OK && (!apex || !ch))
        st = cuzk_fail(err, CUZK_E_NOMEM, "apex tree");
    if (st == CUZK_OK) {
        memcpy(apex, pp->apex, (size_t)u->apex_leaves * 32);
        for (size_t w = u->apex_leaves, at = 0; w > 1; at += w, w /= 2)
            for (size_t i = 0; i < w / 2; i++)
                fc_tree_hash(MERKLE_SHA256, (const uint8_t(*)[32])apex[at + 2 * i], 2, apex[at + w + i], "apex", NULL);
        st = fc_snap_challenges(u, comm_r_new, k, ch, err);
    }
    if (st == CUZK_OK)
        st = fc_snap_phi(comm_d_new, comm_r_old, &phi, err);
    for (uint32_t i = 0; i < u->challenges && st == CUZK_OK; i++) {
        const fc_snap_challenge_proof *cp = &pp->challenges[i];
        uint64_t c = ch[i];
        char what[96];
        snprintf(what, sizeof what, "SnapDeals partition %u challenge %u (node %" PRIu64 ") proof_r_old", k, i, c);
        st = check_path(&cp->r_old, &rs, c, root_old, what, err);
        snprintf(what, sizeof what, "SnapDeals partition %u challenge %u (node %" PRIu64 ") proof_d_new", k, i, c);
        if (st == CUZK_OK)
            st = check_path(&cp->d_new, &ds, c, comm_d_new, what, err);
        snprintf(what, sizeof what, "SnapDeals partition %u challenge %u (node %" PRIu64 ") proof_r_new", k, i, c);
        if (st == CUZK_OK)
            st = check_path(&cp->r_new, &rs, c, root_new, what, err);
        if (st != CUZK_OK)
            break;
        fr_t rho;
        uint8_t enc[32], node[32];
        fc_snap_rho(&phi, c >> bits_shr, &rho);
        st = fc_snap_encode_node(cp->r_old.leaf, cp->d_new.leaf, &rho, enc, err);
        if (st == CUZK_OK && memcmp(enc, cp->r_new.leaf, 32))
            st = differ(what, "leaf_r_new vs leaf_r_old + leaf_d_new * rho", cp->r_new.leaf, enc, err);
        /* the path meets apex leaf (c >> ab_h) - k A, then the apex tree's siblings */
        uint64_t a = (c >> ab_h) - (uint64_t)k * u->apex_leaves;
        d_path_node(&cp->d_new, ab_h, node);
        if (st == CUZK_OK && (a >= u->apex_leaves || memcmp(node, apex[a], 32)))
            st = cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: tree D path does not meet apex leaf %" PRIu64, what, a);
        for (size_t l = 0, w = u->apex_leaves, at = 0; l < ab && st == CUZK_OK; l++, at += w, w /= 2, a /= 2)
            if (memcmp(cp->d_new.sib[ab_h + l], apex[at + (a ^ 1)], 32))
                st = cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: tree D sibling at height %zu is not the apex tree's",
                               what, ab_h + l);
    }
    free(apex);
    free(ch);
    return st;
}
