/* EmptySectorUpdate partition circuit (storage-proofs-update src/circuit.rs
 * EmptySectorUpdateCircuit::synthesize), step for step in the
 * reference's allocation and constraint order; contract in snap.h. */
#include <stdlib.h>

#include "filecoin/snap/snap_gadgets.h"
#include "gadgets/insertion.h"

static void synthesize_sha(cs_t *cs, const fc_snap_shape *s, const fc_snap_public *pub, const fc_snap_witness *w,
                           anum *apex, gbool *c_bits_all)
{
    unsigned pb = s->partition_bits, ab = s->apex_bits, cb = s->challenge_bits;
    unsigned rb = cb - pb, below = cb - pb - ab;
    /* 1. k_and_h_select: public input, pb + 6 bits, partition = pack_bits(partition bits) */
    fr_t kh;
    if (pub)
        fr_from_u64(&kh, (uint64_t)pub->k | ((uint64_t)s->h_select << pb));
    anum k_and_h = snap_alloc_input(cs, pub ? &kh : NULL);
    gbool kh_bits[64];
    snap_alloc_bits_le(cs, &k_and_h, pb + FC_SNAP_HS, kh_bits);
    const gbool *partition_bits = kh_bits, *h_select_bits = kh_bits + pb;
    anum partition = pack_bits(cs, partition_bits, pb);
    /* 2-4. commitments, phi, private roots, apex leaves, partition path */
    snap_commitments c;
    snap_commitments_alloc(cs, pub, w, &c);
    snap_alloc_nums(cs, w ? w->apex : NULL, s->apex_leaves, apex);
    anum path[64];
    snap_alloc_nums(cs, w ? w->partition_path : NULL, pb, path);
    /* 5. comm_r_old / comm_r_new from comm_c and the roots */
    snap_commitments_check(cs, &c);
    /* 6. apex tree to comm_d_new */
    cs_ns_push(cs, "apex_gadget");
    snap_apex_por(cs, apex, ab, partition_bits, pb, path, &c.comm_d_new);
    cs_ns_pop(cs);
    /* 7. challenge bits */
    cs_ns_push(cs, "gen_challenge_bits");
    snap_gen_challenge_bits(cs, &c.comm_r_new, &partition, s->challenges, rb, c_bits_all);
    cs_ns_pop(cs);
    /* 8. per challenge */
    merkle_shape tree_d = {MERKLE_SHA256, 2, below, 0, 0};
    for (unsigned i = 0; i < s->challenges && cs->status == CUZK_OK; i++) {
        cs_ns_push(cs, "challenge %u", i);
        gbool c_bits[64];
        for (unsigned b = 0; b < rb; b++)
            c_bits[b] = c_bits_all[(size_t)i * rb + b];
        for (unsigned b = 0; b < pb; b++)
            c_bits[rb + b] = partition_bits[b];
        const fc_snap_challenge_witness *cw = w ? &w->challenges[i] : NULL;
        anum leaf_d_new = snap_challenge_trees_r(cs, s, c_bits, h_select_bits, &c.phi, &c.root_r_old,
                                                 &c.root_r_new, cw);
        cs_ns_push(cs, "select_apex_leaf");
        anum apex_leaf = gadget_select(cs, apex, c_bits + below, ab);
        cs_ns_pop(cs);
        anum sib[SNAP_MAX_SIBLINGS];
        snap_alloc_nums(cs, cw ? cw->sib_d : NULL, below, sib);
        cs_ns_push(cs, "por to_apex_leaf");
        merkle_por_no_challenge_input(cs, &tree_d, c_bits, below, &leaf_d_new, sib, &apex_leaf);
        cs_ns_pop(cs);
        cs_ns_pop(cs);
    }
}

cuzk_status fc_snap_synthesize(cs_t *cs, const fc_snap_shape *s, const fc_snap_public *pub,
                               const fc_snap_witness *w, cuzk_error *err)
{
    if (cs_has_values(cs) && (!pub || !w || !w->challenges || (!s->poseidon && (!w->apex || !w->partition_path))))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "EmptySectorUpdate: witness values missing in a value mode");
    if (!cs_has_values(cs))
        pub = NULL, w = NULL;
    if (pub && pub->k >= s->partitions)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "EmptySectorUpdate: partition k = %u (sector has %u partitions)",
                         pub->k, s->partitions);
    if (s->challenge_bits > 40 || s->partition_bits + FC_SNAP_HS > 64 || s->apex_bits > SELECT_MAX_BITS ||
        s->challenge_bits < s->partition_bits + s->apex_bits)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "EmptySectorUpdate: unsupported shape");
    cuzk_status st;
    if (s->poseidon) {
        st = snap_poseidon_synthesize(cs, s, pub, w);
    } else {
        unsigned rb = s->challenge_bits - s->partition_bits;
        anum *apex = malloc((s->apex_leaves + 1) * sizeof *apex);
        gbool *bits = malloc(((size_t)s->challenges * rb + 1) * sizeof *bits);
        if (apex && bits)
            synthesize_sha(cs, s, pub, w, apex, bits);
        else
            cs_set_error(cs, CUZK_E_NOMEM, "EmptySectorUpdate: out of memory");
        free(apex);
        free(bits);
        st = cs_status(cs);
    }
    if (st == CUZK_OK)
        st = cs_status(cs);
    return st ? cuzk_fail(err, st, "%s", cs->err.msg) : CUZK_OK;
}
