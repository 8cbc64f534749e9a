/* Merkle inclusion proofs (storage-proofs-core merkle/proof.rs); contracts in merkle_proof.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "field/fr.h"
#include "filecoin/core/merkle_proof.h"

#define MAX_ARITY 16

merkle_shape fc_tree_d_shape(const fc_sector_shape *s)
{
    return (merkle_shape){MERKLE_SHA256, 2, s->log2_nodes, 0, 0};
}

merkle_shape fc_tree_r_shape(const fc_sector_shape *s)
{
    return (merkle_shape){MERKLE_POSEIDON, s->base_arity, s->base_levels, s->sub_arity, s->top_arity};
}

size_t fc_merkle_proof_siblings(const fc_merkle_proof *p)
{
    size_t n = 0;
    for (unsigned l = 0; l < p->nlevels; l++)
        n += p->arity[l] - 1u;
    return n;
}

uint64_t fc_merkle_proof_node(const fc_merkle_proof *p)
{
    uint64_t node = 0, scale = 1;
    for (unsigned l = 0; l < p->nlevels; l++) {
        node += p->index[l] * scale;
        scale *= p->arity[l];
    }
    return node;
}

unsigned fc_merkle_proof_base_levels(const fc_merkle_proof *p)
{
    unsigned extra = p->kind == FC_MP_TOP ? 2 : p->kind == FC_MP_SUB ? 1 : 0;
    return p->nlevels >= extra ? p->nlevels - extra : 0;
}

static bool arity_ok(unsigned a)
{
    return a >= 2 && a <= MAX_ARITY && (a & (a - 1)) == 0;
}

cuzk_status fc_merkle_proof_alloc(fc_merkle_proof *p, unsigned base_arity, unsigned base_levels,
                                  unsigned sub_arity, unsigned top_arity, cuzk_error *err)
{
    memset(p, 0, sizeof *p);
    unsigned levels = base_levels + (sub_arity ? 1 : 0) + (top_arity ? 1 : 0);
    if (!arity_ok(base_arity) || base_levels == 0 || (sub_arity && !arity_ok(sub_arity)) ||
        (top_arity && (!arity_ok(top_arity) || !sub_arity)) || levels > FC_MERKLE_MAX_LEVELS)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "fc_merkle_proof_alloc: invalid shape (base arity %u x %u levels, sub %u, top %u)",
                         base_arity, base_levels, sub_arity, top_arity);
    p->kind = top_arity ? FC_MP_TOP : sub_arity ? FC_MP_SUB : FC_MP_SINGLE;
    p->nlevels = (uint8_t)levels;
    for (unsigned l = 0; l < base_levels; l++)
        p->arity[l] = (uint8_t)base_arity;
    if (sub_arity)
        p->arity[base_levels] = (uint8_t)sub_arity;
    if (top_arity)
        p->arity[base_levels + 1] = (uint8_t)top_arity;
    p->sib = calloc(fc_merkle_proof_siblings(p), sizeof *p->sib);
    if (!p->sib) {
        memset(p, 0, sizeof *p);
        return cuzk_fail(err, CUZK_E_NOMEM, "fc_merkle_proof_alloc: out of memory");
    }
    return CUZK_OK;
}

cuzk_status fc_merkle_proof_copy(fc_merkle_proof *dst, const fc_merkle_proof *src, cuzk_error *err)
{
    size_t n = fc_merkle_proof_siblings(src);
    *dst = *src;
    dst->sib = malloc((n ? n : 1) * sizeof *dst->sib);
    if (!dst->sib) {
        memset(dst, 0, sizeof *dst);
        return cuzk_fail(err, CUZK_E_NOMEM, "fc_merkle_proof_copy: out of memory");
    }
    if (n)
        memcpy(dst->sib, src->sib, n * sizeof *dst->sib);
    return CUZK_OK;
}

void fc_merkle_proof_free(fc_merkle_proof *p)
{
    if (!p)
        return;
    free(p->sib);
    memset(p, 0, sizeof *p);
}

bool fc_merkle_proof_has_shape(const fc_merkle_proof *p, unsigned base_arity, unsigned base_levels,
                               unsigned sub_arity, unsigned top_arity)
{
    unsigned kind = top_arity ? FC_MP_TOP : sub_arity ? FC_MP_SUB : FC_MP_SINGLE;
    unsigned levels = base_levels + (sub_arity ? 1 : 0) + (top_arity ? 1 : 0);
    if (p->kind != kind || p->nlevels != levels || !p->sib)
        return false;
    for (unsigned l = 0; l < levels; l++) {
        unsigned want = l < base_levels ? base_arity : l == base_levels ? sub_arity : top_arity;
        if (p->arity[l] != want)
            return false;
    }
    return true;
}

/* Shape sanity for the functions that walk a proof built by hand. */
static cuzk_status check_walkable(const fc_merkle_proof *p, const char *what, cuzk_error *err)
{
    if (!p->sib || p->nlevels == 0 || p->nlevels > FC_MERKLE_MAX_LEVELS)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: empty or unallocated Merkle proof", what);
    for (unsigned l = 0; l < p->nlevels; l++)
        if (!arity_ok(p->arity[l]) || p->index[l] >= p->arity[l])
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: level %u has arity %u and index %u", what, l,
                             p->arity[l], p->index[l]);
    return CUZK_OK;
}

cuzk_status fc_merkle_proof_verify(const fc_merkle_proof *p, merkle_hasher hasher, const char *what,
                                   cuzk_error *err)
{
    cuzk_status st = check_walkable(p, what, err);
    if (st)
        return st;
    fr_t tmp;
    if (hasher == MERKLE_POSEIDON && fr_from_bytes_le(&tmp, p->leaf) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: the leaf is not a canonical field element", what);
    uint8_t cur[32], nodes[MAX_ARITY][32];
    memcpy(cur, p->leaf, 32);
    const uint8_t(*sib)[32] = (const uint8_t(*)[32])p->sib;
    for (unsigned l = 0; l < p->nlevels; l++) {
        unsigned a = p->arity[l], at = p->index[l];
        for (unsigned i = 0, s = 0; i < a; i++) {
            if (i == at) {
                memcpy(nodes[i], cur, 32);
                continue;
            }
            if (hasher == MERKLE_POSEIDON && fr_from_bytes_le(&tmp, sib[s]) != CUZK_OK)
                return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL,
                                 "%s: sibling %u of level %u is not a canonical field element", what, s, l);
            memcpy(nodes[i], sib[s++], 32);
        }
        sib += a - 1;
        if ((st = merkle_hash_native(hasher, (const uint8_t(*)[32])nodes, a, cur, err)) != CUZK_OK)
            return st;
    }
    if (memcmp(cur, p->root, 32) != 0) {
        char got[65], want[65];
        cuzk_hex(got, cur, 32);
        cuzk_hex(want, p->root, 32);
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: path hashes to %s at level %u (the top), root is %s", what,
                         got, p->nlevels, want);
    }
    return CUZK_OK;
}

cuzk_status fc_merkle_proof_to_fr(const fc_merkle_proof *p, const char *what, unsigned *idx, fr_t *sib,
                                  fr_t *leaf, fr_t *root, cuzk_error *err)
{
    cuzk_status st = check_walkable(p, what, err);
    if (st)
        return st;
    if (fr_from_bytes_le(leaf, p->leaf) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: leaf is not a canonical field element", what);
    if (fr_from_bytes_le(root, p->root) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: root is not a canonical field element", what);
    size_t k = 0;
    for (unsigned l = 0; l < p->nlevels; l++) {
        idx[l] = p->index[l];
        for (unsigned i = 0; i + 1 < p->arity[l]; i++, k++)
            if (fr_from_bytes_le(&sib[k], p->sib[k]) != CUZK_OK)
                return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL,
                                 "%s: sibling %u of level %u is not a canonical field element", what, i, l);
    }
    return CUZK_OK;
}
