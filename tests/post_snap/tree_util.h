/* Test helpers: small full Poseidon / SHA-256 trees with random canonical leaves
 * (filecoin/core/seal/tree.h) and their inclusion proofs in witness form. */
#ifndef CUZK_TESTS_POST_SNAP_TREE_UTIL_H
#define CUZK_TESTS_POST_SNAP_TREE_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/seal/tree.h"

static inline uint64_t tu_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* 32 random bytes below 2^254 (a canonical field element and a valid tree D node). */
static inline void tu_rand_node(uint64_t *s, uint8_t out[32])
{
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)tu_next(s);
    out[31] &= 0x3f;
}

/* Build a full tree of shape m in memory over random leaves (or leaves[] when non-NULL). */
static inline cuzk_status tu_tree(fc_full_tree *t, const merkle_shape *m, uint64_t *seed, const uint8_t (*leaves)[32],
                                  uint8_t root[32])
{
    fc_tree_shape s;
    cuzk_error e;
    cuzk_status st = fc_tree_shape_init(&s, m, &e);
    if (st || (st = fc_full_tree_create(t, &s, NULL, "test tree", &e)))
        return st;
    uint8_t(*l)[32] = malloc(s.leaves * 32);
    if (!l)
        return CUZK_E_NOMEM;
    for (uint64_t i = 0; i < s.leaves; i++) {
        if (leaves)
            memcpy(l[i], leaves[i], 32);
        else
            tu_rand_node(seed, l[i]);
    }
    st = fc_full_tree_put_leaves(t, 0, s.leaves, (const uint8_t(*)[32])l, &e);
    free(l);
    return st ? st : fc_full_tree_build(t, 1, root, &e);
}

/* Inclusion proof of `leaf` (caller frees with fc_merkle_proof_free). */
static inline cuzk_status tu_prove(const fc_full_tree *t, uint64_t leaf, fc_merkle_proof *p)
{
    fc_tree v = fc_full_tree_view(t);
    cuzk_error e;
    return fc_tree_prove(&v, leaf, p, &e);
}

#endif
