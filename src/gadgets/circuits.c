/* Gadget-level circuits; contracts in circuits.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gadgets/circuit_params.h"
#include "gadgets/circuits.h"
#include "gadgets/create_label.h"
#include "gadgets/merkle.h"
#include "gadgets/poseidon.h"
#include "gadgets/poseidon_md.h"
#include "gadgets/sha256.h"

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A random field element below 2^254 (always canonical). */
static void rnd_fr(uint64_t *s, fr_t *out)
{
    uint64_t l[4] = {rnd(s), rnd(s), rnd(s), rnd(s) >> 2};
    fr_from_limbs_reduce(out, l);
}

static void alloc_bits(cs_t *cs, uint64_t *s, gbool *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = gb_alloc(cs, rnd(s) & 1);
}

static cuzk_status por(cs_t *cs, const circuit_params *k, uint64_t seed, cuzk_error *err)
{
    static const char *const keys[] = {"hasher", "arity", "base", "sub", "top", "leaves", "root", NULL};
    cuzk_status st = circuit_params_only(k, keys, err);
    if (st)
        return st;
    merkle_shape s = {MERKLE_POSEIDON, 0, 0, 0, 0};
    const char *h = circuit_params_get(k, "hasher"), *root = circuit_params_get(k, "root");
    if (h && strcmp(h, "sha256") == 0)
        s.hasher = MERKLE_SHA256;
    else if (h && strcmp(h, "poseidon") != 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter hasher=%s (sha256 or poseidon)", h);
    if (root && strcmp(root, "public") && strcmp(root, "private"))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter root=%s (public or private)", root);
    bool priv = root && strcmp(root, "private") == 0;
    uint64_t arity, base, sub, top, leaves;
    if ((st = circuit_params_u64(k, "arity", 0, &arity, err)) || (st = circuit_params_u64(k, "base", 0, &base, err)) ||
        (st = circuit_params_u64(k, "sub", 0, &sub, err)) || (st = circuit_params_u64(k, "top", 0, &top, err)) ||
        (st = circuit_params_u64(k, "leaves", 64, &leaves, err)))
        return st;
    /* 0 means "not given" below; an explicit arity=0 or base=0 is no tree. */
    if ((circuit_params_get(k, "arity") && !arity) || (circuit_params_get(k, "base") && !base))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter %s=0: a tree arity is 2, 4, 8 or 16",
                         circuit_params_get(k, "arity") && !arity ? "arity" : "base");
    if (arity && base && arity != base)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameters arity=%llu and base=%llu differ",
                         (unsigned long long)arity, (unsigned long long)base);
    s.base_arity = (unsigned)(base ? base : arity ? arity : 2);
    s.sub_arity = (unsigned)sub;
    s.top_arity = (unsigned)top;
    uint64_t rest = (sub ? sub : 1) * (top ? top : 1), b = 1;
    while (b * rest < leaves && s.base_levels < 64) {
        b *= s.base_arity;
        s.base_levels++;
    }
    if (b * rest != leaves || s.base_levels == 0 || merkle_shape_leaves(&s) != leaves)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter leaves=%llu does not fit the tree "
                         "shape %u-%u-%u", (unsigned long long)leaves, s.base_arity, s.sub_arity,
                         s.top_arity);

    unsigned levels = merkle_shape_levels(&s);
    unsigned idx[64];
    fr_t leaf, rootv, *sib = calloc((size_t)levels * 15 + 1, sizeof *sib);
    if (!sib)
        return cuzk_fail(err, CUZK_E_NOMEM, "por: out of memory");
    /* a random path and the root it implies, computed natively */
    rnd_fr(&seed, &leaf);
    uint8_t cur[32], nodes[16][32];
    fr_to_bytes_le(cur, &leaf);
    fr_t *sp = sib;
    for (unsigned l = 0; l < levels && st == CUZK_OK; l++) {
        unsigned a = l < s.base_levels ? s.base_arity : (l == s.base_levels && s.sub_arity) ? s.sub_arity : s.top_arity;
        idx[l] = (unsigned)(rnd(&seed) % a);
        for (unsigned j = 0, m = 0; j < a; j++) {
            if (j == idx[l]) {
                memcpy(nodes[j], cur, 32);
                continue;
            }
            rnd_fr(&seed, &sp[m]);
            fr_to_bytes_le(nodes[j], &sp[m++]);
        }
        sp += a - 1;
        st = merkle_hash_native(s.hasher, (const uint8_t(*)[32])nodes, a, cur, err);
    }
    if (st == CUZK_OK)
        st = fr_from_bytes_le(&rootv, cur);
    if (st == CUZK_OK) {
        merkle_path_values v = {&leaf, idx, sib, &rootv};
        merkle_por_circuit(cs, &s, &v, NULL, NULL, priv);
    }
    free(sib);
    return st;
}

static cuzk_status synth(cs_t *cs, const char *name, const circuit_params *k, uint64_t seed,
                         cuzk_error *err)
{
    cuzk_status st;
    if (strcmp(name, "sha256") == 0) {
        static const char *const keys[] = {"bytes", NULL};
        uint64_t bytes;
        if ((st = circuit_params_only(k, keys, err)) || (st = circuit_params_u64(k, "bytes", 64, &bytes, err)))
            return st;
        if (bytes > (1u << 20))
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter bytes=%llu (at most 1048576)",
                             (unsigned long long)bytes);
        gbool *bits = malloc((bytes * 8 + 1) * sizeof *bits), dig[256];
        if (!bits)
            return cuzk_fail(err, CUZK_E_NOMEM, "sha256: out of memory");
        alloc_bits(cs, &seed, bits, bytes * 8);
        sha256_circuit(cs, bits, bytes * 8, dig);
        free(bits);
        return CUZK_OK;
    }
    if (strcmp(name, "poseidon") == 0) {
        static const char *const keys[] = {"arity", NULL};
        uint64_t arity;
        if ((st = circuit_params_only(k, keys, err)) || (st = circuit_params_u64(k, "arity", 2, &arity, err)))
            return st;
        if (!poseidon_partial_rounds((unsigned)arity) || arity > 36)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter arity=%llu (2, 4, 8, 11, 16, 24, 36)",
                             (unsigned long long)arity);
        anum in[36];
        fr_t tag;
        for (unsigned i = 0; i < arity; i++) {
            fr_t v;
            rnd_fr(&seed, &v);
            in[i] = anum_alloc(cs, &v);
        }
        poseidon_tag_merkle((unsigned)arity, &tag);
        poseidon_circuit(cs, (unsigned)arity, &tag, in);
        return CUZK_OK;
    }
    if (strcmp(name, "hash-md") == 0) {
        static const char *const keys[] = {"n", NULL};
        uint64_t count;
        if ((st = circuit_params_only(k, keys, err)) || (st = circuit_params_u64(k, "n", 71, &count, err)))
            return st;
        if (count < 1 || count > (1u << 20))
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter n=%llu (1 to 1048576)",
                             (unsigned long long)count);
        anum *in = malloc(count * sizeof *in);
        if (!in)
            return cuzk_fail(err, CUZK_E_NOMEM, "hash-md: out of memory");
        for (uint64_t i = 0; i < count; i++)
            in[i] = anum_alloc(cs, &FR_ONE);
        poseidon_hash_md_circuit(cs, in, count);
        free(in);
        return CUZK_OK;
    }
    if (strcmp(name, "por") == 0)
        return por(cs, k, seed, err);
    if (strcmp(name, "create-label") == 0) {
        static const char *const keys[] = {"layer", "node", NULL};
        uint64_t layer, node;
        if ((st = circuit_params_only(k, keys, err)) || (st = circuit_params_u64(k, "layer", 3, &layer, err)) ||
            (st = circuit_params_u64(k, "node", 22, &node, err)))
            return st;
        if (layer > 0xffffffffu)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter layer=%llu", (unsigned long long)layer);
        gbool *bits = malloc(256 * (LABEL_PARENTS + 1) * sizeof *bits);
        if (!bits)
            return cuzk_fail(err, CUZK_E_NOMEM, "create-label: out of memory");
        alloc_bits(cs, &seed, bits, 256 * (LABEL_PARENTS + 1));
        const gbool *parents[LABEL_PARENTS];
        for (int i = 0; i < LABEL_PARENTS; i++)
            parents[i] = bits + 256 * (i + 1);
        u32g l = u32_const((uint32_t)layer);
        u64g nd = u64_const(node);
        create_label_circuit(cs, bits, 256, parents, &l, &nd);
        free(bits);
        return CUZK_OK;
    }
    if (strcmp(name, "hash-leaf-bits") == 0) {
        if ((st = circuit_params_only(k, (const char *const[]){NULL}, err)))
            return st;
        gbool bits[512];
        alloc_bits(cs, &seed, bits, 512);
        merkle_sha256_hash_bits(cs, bits, 256, bits + 256, 256);
        return CUZK_OK;
    }
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "unknown circuit '%s' (sha256, poseidon, "
                     "hash-md, por, create-label, hash-leaf-bits)", name);
}

cuzk_status gadgets_circuit_synthesize(cs_t *cs, const char *name, const char *const *params,
                                       size_t nparams, uint64_t seed, cuzk_error *err)
{
    circuit_params k;
    cuzk_status st = circuit_params_parse(&k, params, nparams, err);
    if (st)
        return st;
    if ((st = synth(cs, name, &k, seed | 1, err)))
        return st;
    if (cs->status)
        return cuzk_fail(err, cs->status, "%s", cs->err.msg);
    return CUZK_OK;
}

cuzk_status gadgets_circuit_info(const char *name, const char *const *params, size_t nparams,
                                 cs_counts *out, cuzk_error *err)
{
    cs_t cs;
    cuzk_status st = cs_init(&cs, CS_SHAPE, CS_TRACK_DENSITY);
    if (st)
        return cuzk_fail(err, st, "%s", cs.err.msg);
    st = gadgets_circuit_synthesize(&cs, name, params, nparams, 1, err);
    if (st == CUZK_OK)
        cs_get_counts(&cs, out);
    cs_free(&cs);
    return st;
}
