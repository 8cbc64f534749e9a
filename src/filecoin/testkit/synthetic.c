/* Structurally valid random vanilla proofs; contracts in testkit/synthetic.h. */
#include <stdlib.h>
#include <string.h>

#include "filecoin/testkit/synthetic.h"

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void raw32(uint64_t *s, uint8_t out[32])
{
    for (int w = 0; w < 4; w++) {
        uint64_t v = next(s);
        for (int b = 0; b < 8; b++)
            out[8 * w + b] = (uint8_t)(v >> (8 * b));
    }
}

/* A canonical Fr: the top two bits cleared (< 2^254 < r). */
static void field32(uint64_t *s, uint8_t out[32])
{
    raw32(s, out);
    out[31] &= 0x3f;
}

/* Merkle proof of shape m for leaf `node` with the given root and random leaf/siblings. */
static cuzk_status fill_proof(fc_merkle_proof *p, const merkle_shape *m, uint64_t node, const uint8_t root[32],
                              uint64_t *s, cuzk_error *err)
{
    cuzk_status st = fc_merkle_proof_alloc(p, m->base_arity, m->base_levels, m->sub_arity, m->top_arity, err);
    if (st)
        return st;
    for (unsigned l = 0; l < p->nlevels; l++) {
        p->index[l] = (uint8_t)(node % p->arity[l]);
        node /= p->arity[l];
    }
    memcpy(p->root, root, 32);
    field32(s, p->leaf);
    for (size_t i = 0; i < fc_merkle_proof_siblings(p); i++)
        field32(s, p->sib[i]);
    return CUZK_OK;
}

static cuzk_status fill_column(fc_column_proof *c, const fc_sector_shape *sh, const merkle_shape *tree_c,
                               uint64_t node, const uint8_t comm_c[32], uint64_t *s, cuzk_error *err)
{
    c->index = (uint32_t)node;
    c->nrows = sh->layers;
    if (!(c->rows = malloc(sh->layers * sizeof *c->rows)))
        return cuzk_fail(err, CUZK_E_NOMEM, "fc_c1_synthetic: out of memory");
    for (unsigned l = 0; l < sh->layers; l++)
        field32(s, c->rows[l]);
    return fill_proof(&c->proof, tree_c, node, comm_c, s, err);
}

static cuzk_status fill_c1_proof(fc_porep_challenge_proof *p, const fc_sector_shape *sh, const uint8_t comm_d[32],
                                 const uint8_t comm_c[32], const uint8_t comm_r_last[32], uint64_t *s, cuzk_error *err)
{
    merkle_shape tree_d = fc_tree_d_shape(sh), tree_r = fc_tree_r_shape(sh);
    uint64_t node = next(s) % sh->nodes;
    cuzk_status st;
    if ((st = fill_proof(&p->comm_d_proof, &tree_d, node, comm_d, s, err)) ||
        (st = fill_proof(&p->comm_r_last_proof, &tree_r, node, comm_r_last, s, err)) ||
        (st = fill_column(&p->c_x, sh, &tree_r, node, comm_c, s, err)))
        return st;
    for (int i = 0; i < FC_DRG_PARENTS; i++)
        if ((st = fill_column(&p->drg[i], sh, &tree_r, next(s) % sh->nodes, comm_c, s, err)))
            return st;
    for (int i = 0; i < FC_EXP_PARENTS; i++)
        if ((st = fill_column(&p->exp[i], sh, &tree_r, next(s) % sh->nodes, comm_c, s, err)))
            return st;
    if (!(p->labeling = calloc(sh->layers, sizeof *p->labeling)))
        return cuzk_fail(err, CUZK_E_NOMEM, "fc_c1_synthetic: out of memory");
    p->nlabeling = sh->layers;
    for (unsigned l = 0; l < sh->layers; l++) {
        for (int i = 0; i < FC_LABEL_PARENTS; i++)
            field32(s, p->labeling[l].parents[i]);
        p->labeling[l].layer_index = l + 1;
        p->labeling[l].node = node;
    }
    p->encoding = p->labeling[sh->layers - 1];
    return CUZK_OK;
}

cuzk_status fc_c1_synthetic(fc_c1_output *out, const fc_seal_proof *proof, uint64_t seed, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if (!proof)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_c1_synthetic: NULL registered proof");
    uint64_t s = seed;
    size_t n = (size_t)proof->partitions * proof->challenges_per_partition;
    if (!(out->proofs = calloc(n, sizeof *out->proofs)))
        return cuzk_fail(err, CUZK_E_NOMEM, "fc_c1_synthetic: out of memory for %zu proofs", n);
    out->registered_proof = proof;
    out->partitions = proof->partitions;
    out->challenges = proof->challenges_per_partition;
    uint8_t comm_c[32], comm_r_last[32];
    field32(&s, comm_c);
    field32(&s, comm_r_last);
    field32(&s, out->comm_r);
    field32(&s, out->comm_d);
    field32(&s, out->replica_id);
    raw32(&s, out->seed);
    raw32(&s, out->ticket);
    raw32(&s, out->prover_id);
    out->sector_id = next(&s);
    out->has_sector = true;
    for (size_t k = 0; k < n; k++) {
        cuzk_status st = fill_c1_proof(&out->proofs[k], proof->shape, out->comm_d, comm_c, comm_r_last, &s, err);
        if (st) {
            fc_c1_free(out);
            return st;
        }
    }
    return CUZK_OK;
}

cuzk_status fc_post_synthetic(fc_post_vanilla *out, const fc_sector_shape *shape, unsigned challenges,
                              uint64_t seed, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if (!shape)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_post_synthetic: NULL shape");
    uint64_t s = seed;
    merkle_shape tree_r = fc_tree_r_shape(shape);
    out->sector_id = next(&s);
    field32(&s, out->comm_r);
    if (!(out->sectors = calloc(1, sizeof *out->sectors)))
        return cuzk_fail(err, CUZK_E_NOMEM, "fc_post_synthetic: out of memory");
    out->nsectors = 1;
    fc_post_sector_proof *sp = &out->sectors[0];
    field32(&s, sp->comm_c);
    field32(&s, sp->comm_r_last);
    if (challenges && !(sp->inclusion = calloc(challenges, sizeof *sp->inclusion))) {
        fc_post_vanilla_free(out);
        return cuzk_fail(err, CUZK_E_NOMEM, "fc_post_synthetic: out of memory");
    }
    sp->ninclusion = challenges;
    for (unsigned i = 0; i < challenges; i++) {
        cuzk_status st = fill_proof(&sp->inclusion[i], &tree_r, next(&s) % shape->nodes, sp->comm_r_last, &s, err);
        if (st) {
            fc_post_vanilla_free(out);
            return st;
        }
    }
    return CUZK_OK;
}

cuzk_status fc_snap_synthetic(fc_snap_partition_proof *out, const fc_snap_proof *up, bool poseidon,
                              uint64_t seed, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if (!up)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_snap_synthetic: NULL update proof");
    uint64_t s = seed;
    const fc_sector_shape *sh = up->shape;
    merkle_shape tree_r = fc_tree_r_shape(sh), tree_d = poseidon ? tree_r : fc_tree_d_shape(sh);
    out->poseidon = poseidon;
    field32(&s, out->comm_c);
    uint8_t root_old[32], root_d[32], root_new[32];
    field32(&s, root_old);
    field32(&s, root_d);
    field32(&s, root_new);
    unsigned nch = poseidon ? up->poseidon_challenges : up->challenges;
    if (!poseidon) {
        if (!(out->apex = malloc(up->apex_leaves * sizeof *out->apex)))
            return cuzk_fail(err, CUZK_E_NOMEM, "fc_snap_synthetic: out of memory");
        out->napex = up->apex_leaves;
        for (unsigned i = 0; i < up->apex_leaves; i++)
            field32(&s, out->apex[i]);
    }
    if (!(out->challenges = calloc(nch, sizeof *out->challenges))) {
        fc_snap_partition_free(out);
        return cuzk_fail(err, CUZK_E_NOMEM, "fc_snap_synthetic: out of memory");
    }
    out->nchallenges = nch;
    for (unsigned i = 0; i < nch; i++) {
        uint64_t node = next(&s) % sh->nodes;
        fc_snap_challenge_proof *c = &out->challenges[i];
        cuzk_status st;
        if ((st = fill_proof(&c->r_old, &tree_r, node, root_old, &s, err)) ||
            (st = fill_proof(&c->d_new, &tree_d, node, root_d, &s, err)) ||
            (st = fill_proof(&c->r_new, &tree_r, node, root_new, &s, err))) {
            fc_snap_partition_free(out);
            return st;
        }
    }
    return CUZK_OK;
}
