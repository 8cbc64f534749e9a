/* Merkle node hashing and PoR; contracts in merkle.h. */
#include <stdlib.h>
#include <string.h>

#include "gadgets/insertion.h"
#include "gadgets/merkle.h"
#include "gadgets/poseidon.h"
#include "gadgets/sha256.h"
#include "gadgets/sha256_native.h"

#define MAX_ARITY 16

/* hash_circuit: sha256(bits), byte-reverse the digest, pack the first 254 bits. */
static anum sha_pack(cs_t *cs, const gbool *bits, size_t n)
{
    gbool dig[256], le[256];
    sha256_circuit(cs, bits, n, dig);
    reverse_bit_numbering(dig, 256, le);
    return pack_bits(cs, le, 254);
}

anum merkle_sha256_hash_bits(cs_t *cs, const gbool *left, size_t nleft, const gbool *right,
                             size_t nright)
{
    gbool *bits = malloc((nleft + nright + 1) * sizeof *bits);
    if (!bits) {
        cs_set_error(cs, CUZK_E_NOMEM, "merkle_sha256_hash_bits: out of memory");
        return (anum){CS_ONE, FR_ZERO};
    }
    if (nleft)
        memcpy(bits, left, nleft * sizeof *bits);
    if (nright)
        memcpy(bits + nleft, right, nright * sizeof *bits);
    anum r = sha_pack(cs, bits, nleft + nright);
    free(bits);
    return r;
}

anum merkle_hash_nodes(cs_t *cs, merkle_hasher h, const anum *nodes, unsigned n)
{
    if (h == MERKLE_POSEIDON) {
        fr_t tag;
        poseidon_tag_merkle(n, &tag);
        return poseidon_circuit(cs, n, &tag, nodes);
    }
    gbool *bits = malloc((size_t)n * 256 * sizeof *bits);
    if (!bits) {
        cs_set_error(cs, CUZK_E_NOMEM, "merkle_hash_nodes: out of memory");
        return (anum){CS_ONE, FR_ZERO};
    }
    for (unsigned i = 0; i < n; i++) {
        gbool le[255];
        anum_to_bits_le(cs, &nodes[i], le);
        reverse_bit_numbering(le, 255, bits + 256 * i);
    }
    anum r = sha_pack(cs, bits, (size_t)n * 256);
    free(bits);
    return r;
}

cuzk_status merkle_hash_native(merkle_hasher h, const uint8_t (*nodes)[32], unsigned n,
                               uint8_t out[32], cuzk_error *err)
{
    if (h == MERKLE_SHA256) {
        sha256_trunc254(n ? nodes[0] : NULL, (size_t)n * 32, out);
        return CUZK_OK;
    }
    if (n > 36)
        return cuzk_fail(err, CUZK_E_UNSUPPORTED, "merkle_hash_native: poseidon arity %u", n);
    fr_t in[36], tag, r;
    for (unsigned i = 0; i < n; i++)
        if (fr_from_bytes_le(&in[i], nodes[i]) != CUZK_OK)
            return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL,
                             "merkle_hash_native: node %u is not a canonical Fr", i);
    poseidon_tag_merkle(n, &tag);
    cuzk_status st = poseidon_hash(n, &tag, in, &r, err);
    if (st == CUZK_OK)
        fr_to_bytes_le(out, &r);
    return st;
}

static unsigned log2u(unsigned a)
{
    unsigned k = 0;
    while ((1u << k) < a)
        k++;
    return k;
}

static bool arity_ok(unsigned a)
{
    return a >= 2 && a <= MAX_ARITY && (a & (a - 1)) == 0;
}

unsigned merkle_shape_levels(const merkle_shape *s)
{
    return s->base_levels + (s->sub_arity ? 1 : 0) + (s->top_arity ? 1 : 0);
}

uint64_t merkle_shape_leaves(const merkle_shape *s)
{
    if (!arity_ok(s->base_arity) || (s->sub_arity && !arity_ok(s->sub_arity)) ||
        (s->top_arity && (!arity_ok(s->top_arity) || !s->sub_arity)))
        return 0;
    unsigned bits = s->base_levels * log2u(s->base_arity) +
                    (s->sub_arity ? log2u(s->sub_arity) : 0) + (s->top_arity ? log2u(s->top_arity) : 0);
    if (bits > 63)
        return 0;
    return 1ull << bits;
}

static unsigned level_arity(const merkle_shape *s, unsigned l)
{
    if (l < s->base_levels)
        return s->base_arity;
    if (l == s->base_levels && s->sub_arity)
        return s->sub_arity;
    return s->top_arity;
}

/* One level: insert `cur` at the position given by the level's index bits among its
 * siblings and hash the result (storage-proofs-core por.rs, per level). */
static anum por_level(cs_t *cs, const merkle_shape *s, unsigned l, const anum *cur, const gbool *bits,
                      const anum *sibs)
{
    anum ins[MAX_ARITY];
    unsigned a = level_arity(s, l);
    gadget_insert(cs, cur, bits, log2u(a), sibs, ins);
    return merkle_hash_nodes(cs, s->hasher, ins, a);
}

static bool shape_ok(cs_t *cs, const merkle_shape *s, const char *who)
{
    if (merkle_shape_leaves(s) != 0)
        return true;
    cs_set_error(cs, CUZK_E_INVALID_ARG, "%s: invalid shape %u^%u-%u-%u", who, s->base_arity, s->base_levels,
                 s->sub_arity, s->top_arity);
    return false;
}

unsigned merkle_shape_index_bits(const merkle_shape *s)
{
    unsigned n = 0;
    for (unsigned l = 0; l < merkle_shape_levels(s); l++)
        n += log2u(level_arity(s, l));
    return n;
}

unsigned merkle_shape_siblings(const merkle_shape *s)
{
    unsigned n = 0;
    for (unsigned l = 0; l < merkle_shape_levels(s); l++)
        n += level_arity(s, l) - 1;
    return n;
}

void merkle_por_circuit(cs_t *cs, const merkle_shape *s, const merkle_path_values *v,
                        const anum *leaf_var, const anum *root_var, bool private_root)
{
    if (!shape_ok(cs, s, "merkle_por_circuit"))
        return;
    bool vals = cs_has_values(cs);
    if (vals && (!v || (!leaf_var && !v->leaf) || (!root_var && !v->root) || !v->index ||
                 !v->siblings)) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "merkle_por_circuit: path values missing");
        return;
    }
    anum cur = leaf_var ? *leaf_var : anum_alloc(cs, vals ? v->leaf : NULL);
    unsigned levels = merkle_shape_levels(s);
    gbool path_bits[64];
    unsigned nbits = 0;
    const fr_t *sib = vals ? v->siblings : NULL;
    for (unsigned l = 0; l < levels; l++) {
        cs_ns_push(cs, "merkle tree hash %u", l);
        unsigned a = level_arity(s, l), kb = log2u(a);
        unsigned idx = vals ? v->index[l] : 0;
        gbool *bits = path_bits + nbits;
        for (unsigned k = 0; k < kb; k++)
            bits[k] = gb_alloc(cs, (idx >> k) & 1);
        nbits += kb;
        anum sibs[MAX_ARITY - 1];
        for (unsigned k = 0; k + 1 < a; k++)
            sibs[k] = anum_alloc(cs, sib ? sib++ : NULL);
        cur = por_level(cs, s, l, &cur, bits, sibs);
        cs_ns_pop(cs);
    }
    pack_into_inputs(cs, path_bits, nbits);
    anum rt = root_var ? *root_var : anum_alloc(cs, vals ? v->root : NULL);
    anum_enforce_equal(cs, &cur, &rt);
    if (!private_root)
        anum_inputize(cs, &rt);
}

void merkle_por_no_challenge_input(cs_t *cs, const merkle_shape *s, const gbool *bits, size_t nbits,
                                   const anum *leaf, const anum *siblings, const anum *root)
{
    if (!shape_ok(cs, s, "merkle_por_no_challenge_input"))
        return;
    if (nbits != merkle_shape_index_bits(s)) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "merkle_por_no_challenge_input: %zu challenge bits for a "
                     "tree of %u index bits", nbits, merkle_shape_index_bits(s));
        return;
    }
    anum cur = *leaf;
    for (unsigned l = 0, levels = merkle_shape_levels(s); l < levels; l++) {
        cs_ns_push(cs, "merkle proof hash %u", l);
        cur = por_level(cs, s, l, &cur, bits, siblings);
        bits += log2u(level_arity(s, l));
        siblings += level_arity(s, l) - 1;
        cs_ns_pop(cs);
    }
    cs_ns_push(cs, "calculated root == provided root");
    anum_enforce_equal(cs, &cur, root);
    cs_ns_pop(cs);
}
