/* EmptySectorUpdate-Poseidon circuit body (storage-proofs-update src/poseidon/circuit.rs
 * EmptySectorUpdateCircuit::synthesize), step for
 * step in the reference's order; entry point fc_snap_synthesize (snap.h). */
#include <stdlib.h>

#include "filecoin/snap/snap_gadgets.h"

cuzk_status snap_poseidon_synthesize(cs_t *cs, const fc_snap_shape *s, const fc_snap_public *pub,
                                     const fc_snap_witness *w)
{
    unsigned cb = s->challenge_bits, nsib = merkle_shape_siblings(&s->tree_r);
    if (nsib > SNAP_MAX_SIBLINGS) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "EmptySectorUpdate-Poseidon: %u tree siblings", nsib);
        return cs_status(cs);
    }
    gbool *bits = malloc(((size_t)s->challenges * cb + 1) * sizeof *bits);
    if (!bits) {
        cs_set_error(cs, CUZK_E_NOMEM, "EmptySectorUpdate-Poseidon: out of memory");
        return cs_status(cs);
    }
    /* h_select: public input and its 6 bits */
    fr_t hs;
    fr_from_u64(&hs, s->h_select);
    anum h_select = snap_alloc_input(cs, pub ? &hs : NULL);
    gbool h_select_bits[FC_SNAP_HS];
    snap_alloc_bits_le(cs, &h_select, FC_SNAP_HS, h_select_bits);
    /* commitments, phi, private roots, comm_r checks */
    snap_commitments c;
    snap_commitments_alloc(cs, pub, w, &c);
    snap_commitments_check(cs, &c);
    /* challenge bits from digests H(comm_r_new, j): a freshly allocated zero partition */
    anum partition = anum_alloc(cs, &FR_ZERO);
    cs_ns_push(cs, "gen_challenge_bits");
    snap_gen_challenge_bits(cs, &c.comm_r_new, &partition, s->challenges, cb, bits);
    cs_ns_pop(cs);
    for (unsigned i = 0; i < s->challenges && cs->status == CUZK_OK; i++) {
        cs_ns_push(cs, "challenge %u", i);
        const gbool *c_bits = bits + (size_t)i * cb;
        const fc_snap_challenge_witness *cw = w ? &w->challenges[i] : NULL;
        anum leaf_d_new = snap_challenge_trees_r(cs, s, c_bits, h_select_bits, &c.phi, &c.root_r_old,
                                                 &c.root_r_new, cw);
        anum sib[SNAP_MAX_SIBLINGS];
        snap_alloc_nums(cs, cw ? cw->sib_d : NULL, nsib, sib);
        cs_ns_push(cs, "por tree_d_new");
        merkle_por_no_challenge_input(cs, &s->tree_r, c_bits, cb, &leaf_d_new, sib, &c.comm_d_new);
        cs_ns_pop(cs);
        cs_ns_pop(cs);
    }
    free(bits);
    return cs_status(cs);
}
