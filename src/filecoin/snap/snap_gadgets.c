/* SnapDeals gadgets; contracts in snap_gadgets.h. */
#include <stdlib.h>

#include "filecoin/snap/snap_gadgets.h"
#include "gadgets/merkle.h"
#include "gadgets/poseidon.h"

anum snap_hash_randomness(cs_t *cs, const anum *a, const anum *b)
{
    fr_t tag;
    poseidon_tag_custom(1, &tag);
    anum in[2] = {*a, *b};
    return poseidon_circuit(cs, 2, &tag, in);
}

void snap_alloc_bits_le(cs_t *cs, const anum *x, unsigned n, gbool *out)
{
    if (n > 255) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "snap_alloc_bits_le: %u bits (at most 255)", n);
        return;
    }
    uint64_t limbs[FR_LIMBS] = {0};
    if (cs_has_values(cs))
        fr_to_limbs(limbs, &x->value);
    for (unsigned i = 0; i < n; i++)
        out[i] = gb_alloc(cs, (limbs[i / 64] >> (i % 64)) & 1);
    if (!cs_wants_constraints(cs))
        return;
    CS_LC(a, 256);
    CS_LC(b, 1);
    CS_LC(c, 1);
    for (unsigned i = 0; i < n; i++)
        cs_lc_add(&a, out[i].var, cs_pow2(i));
    cs_lc_add_var(&b, CS_ONE);
    cs_lc_add_var(&c, x->var);
    cs_enforce(cs, "binary decomp", &a, &b, &c);
}

void snap_apex_por(cs_t *cs, const anum *apex, unsigned ab, const gbool *partition_bits, unsigned pb,
                   const anum *partition_path, const anum *comm_d)
{
    if (ab > 16) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "snap_apex_por: 2^%u apex leaves", ab);
        return;
    }
    size_t n = (size_t)1 << ab;
    anum *row = malloc(n * sizeof *row);
    if (!row) {
        cs_set_error(cs, CUZK_E_NOMEM, "snap_apex_por: out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++)
        row[i] = apex[i];
    for (unsigned r = 0; r < ab; r++, n /= 2)
        for (size_t i = 0; i < n / 2; i++) {
            cs_ns_push(cs, "apex_tree generation hash (tree_row=%u, siblings=%zu)", r, i);
            row[i] = merkle_hash_nodes(cs, MERKLE_SHA256, &row[2 * i], 2);
            cs_ns_pop(cs);
        }
    merkle_shape tree = {MERKLE_SHA256, 2, pb, 0, 0};
    cs_ns_push(cs, "partition-tree por");
    merkle_por_no_challenge_input(cs, &tree, partition_bits, pb, &row[0], partition_path, comm_d);
    cs_ns_pop(cs);
    free(row);
}

void snap_gen_challenge_bits(cs_t *cs, const anum *comm_r_new, const anum *partition, unsigned challenges,
                             unsigned bits_per_challenge, gbool *out)
{
    if (bits_per_challenge == 0 || bits_per_challenge > 254) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "snap_gen_challenge_bits: %u bits per challenge",
                     bits_per_challenge);
        return;
    }
    unsigned per_digest = 254 / bits_per_challenge;
    unsigned digests = (challenges + per_digest - 1) / per_digest;
    fr_t d;
    fr_from_u64(&d, digests);
    for (unsigned j = 0, done = 0; j < digests; j++) {
        cs_ns_push(cs, "digest_%u", j);
        fr_t v, fj;
        fr_from_u64(&fj, j);
        fr_mul(&v, &partition->value, &d);
        fr_add(&v, &v, &fj);
        anum index = anum_alloc(cs, &v);
        if (cs_wants_constraints(cs)) {
            CS_LC(a, 2);
            CS_LC(b, 1);
            CS_LC(c, 1);
            cs_lc_add(&a, partition->var, &d);
            cs_lc_add(&a, CS_ONE, &fj);
            cs_lc_add_var(&b, CS_ONE);
            cs_lc_add_var(&c, index.var);
            cs_enforce(cs, "digest_index == k * digests_per_partition + j", &a, &b, &c);
        }
        anum digest = snap_hash_randomness(cs, comm_r_new, &index);
        gbool bits[255];
        snap_alloc_bits_le(cs, &digest, 255, bits);
        unsigned take = j + 1 == digests ? challenges - done : per_digest;
        for (unsigned i = 0; i < take * bits_per_challenge; i++)
            out[(size_t)done * bits_per_challenge + i] = bits[i];
        done += take;
        cs_ns_pop(cs);
    }
}

anum snap_challenge_high(cs_t *cs, const gbool *c_bits, unsigned nbits, const gbool h_select_bits[6],
                         const unsigned hs[6])
{
    anum or_zero[6];
    for (unsigned k = 0; k < 6; k++) {
        if (hs[k] > nbits) {
            cs_set_error(cs, CUZK_E_INVALID_ARG, "snap_challenge_high: h = %u of %u bits", hs[k], nbits);
            return or_zero[0];
        }
        anum high = pack_bits(cs, c_bits + nbits - hs[k], hs[k]);
        or_zero[k] = anum_alloc(cs, h_select_bits[k].value ? &high.value : &FR_ZERO);
        if (cs_wants_constraints(cs)) {
            CS_LC(a, 1);
            CS_LC(b, 1);
            CS_LC(c, 1);
            cs_lc_add_var(&a, high.var);
            gb_lc_add(&b, h_select_bits[k], &FR_ONE);
            cs_lc_add_var(&c, or_zero[k].var);
            cs_enforce(cs, "c_high_or_zero == c_high * h_select_bit", &a, &b, &c);
        }
    }
    fr_t sum = FR_ZERO;
    for (unsigned k = 0; k < 6; k++)
        fr_add(&sum, &sum, &or_zero[k].value);
    anum selected = anum_alloc(cs, &sum);
    if (cs_wants_constraints(cs)) {
        CS_LC(a, 6);
        CS_LC(b, 1);
        CS_LC(c, 1);
        for (unsigned k = 0; k < 6; k++)
            cs_lc_add_var(&a, or_zero[k].var);
        cs_lc_add_var(&b, CS_ONE);
        cs_lc_add_var(&c, selected.var);
        cs_enforce(cs, "c_high_selected == dot(c_highs, h_select_bits)", &a, &b, &c);
    }
    return selected;
}

anum snap_label_r_new(cs_t *cs, const anum *leaf_r_old, const anum *leaf_d_new, const anum *rho)
{
    fr_t t, r;
    fr_mul(&t, &leaf_d_new->value, &rho->value);
    anum prod = anum_alloc(cs, &t);
    if (cs_wants_constraints(cs)) {
        CS_LC(a, 1);
        CS_LC(b, 1);
        CS_LC(c, 1);
        cs_lc_add_var(&a, leaf_d_new->var);
        cs_lc_add_var(&b, rho->var);
        cs_lc_add_var(&c, prod.var);
        cs_enforce(cs, "label_d_new * rho", &a, &b, &c);
    }
    fr_add(&r, &leaf_r_old->value, &t);
    anum out = anum_alloc(cs, &r);
    if (cs_wants_constraints(cs)) {
        CS_LC(a, 2);
        CS_LC(b, 1);
        CS_LC(c, 1);
        cs_lc_add_var(&a, leaf_r_old->var);
        cs_lc_add_var(&a, prod.var);
        cs_lc_add_var(&b, CS_ONE);
        cs_lc_add_var(&c, out.var);
        cs_enforce(cs, "label_r_new == label_r_old + label_d_new * rho", &a, &b, &c);
    }
    return out;
}

void snap_alloc_nums(cs_t *cs, const fr_t *values, unsigned n, anum *out)
{
    for (unsigned i = 0; i < n; i++)
        out[i] = anum_alloc(cs, values ? &values[i] : NULL);
}

anum snap_challenge_trees_r(cs_t *cs, const fc_snap_shape *s, const gbool *c_bits, const gbool h_select_bits[6],
                            const anum *phi, const anum *root_r_old, const anum *root_r_new,
                            const fc_snap_challenge_witness *w)
{
    unsigned nsib = merkle_shape_siblings(&s->tree_r), cb = s->challenge_bits;
    anum sib[SNAP_MAX_SIBLINGS];
    if (nsib > SNAP_MAX_SIBLINGS) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "EmptySectorUpdate: %u tree R siblings", nsib);
        return *phi;
    }
    anum c_high = snap_challenge_high(cs, c_bits, cb, h_select_bits, s->hs);
    cs_ns_push(cs, "rho");
    anum rho = snap_hash_randomness(cs, phi, &c_high);
    cs_ns_pop(cs);
    anum leaf_r_old = anum_alloc(cs, w ? &w->leaf_r_old : NULL);
    anum leaf_d_new = anum_alloc(cs, w ? &w->leaf_d_new : NULL);
    anum leaf_r_new = snap_label_r_new(cs, &leaf_r_old, &leaf_d_new, &rho);
    snap_alloc_nums(cs, w ? w->sib_r_old : NULL, nsib, sib);
    cs_ns_push(cs, "por tree_r_old");
    merkle_por_no_challenge_input(cs, &s->tree_r, c_bits, cb, &leaf_r_old, sib, root_r_old);
    cs_ns_pop(cs);
    snap_alloc_nums(cs, w ? w->sib_r_new : NULL, nsib, sib);
    cs_ns_push(cs, "por tree_r_new");
    merkle_por_no_challenge_input(cs, &s->tree_r, c_bits, cb, &leaf_r_new, sib, root_r_new);
    cs_ns_pop(cs);
    return leaf_d_new;
}

anum snap_alloc_input(cs_t *cs, const fr_t *v)
{
    anum x = anum_alloc(cs, v);
    anum_inputize(cs, &x);
    return x;
}

void snap_commitments_alloc(cs_t *cs, const fc_snap_public *pub, const fc_snap_witness *w, snap_commitments *c)
{
    c->comm_r_old = snap_alloc_input(cs, pub ? &pub->comm_r_old : NULL);
    c->comm_d_new = snap_alloc_input(cs, pub ? &pub->comm_d_new : NULL);
    c->comm_r_new = snap_alloc_input(cs, pub ? &pub->comm_r_new : NULL);
    cs_ns_push(cs, "phi");
    c->phi = snap_hash_randomness(cs, &c->comm_d_new, &c->comm_r_old);
    cs_ns_pop(cs);
    c->comm_c = anum_alloc(cs, w ? &w->comm_c : NULL);
    c->root_r_old = anum_alloc(cs, w ? &w->root_r_old : NULL);
    c->root_r_new = anum_alloc(cs, w ? &w->root_r_new : NULL);
}

void snap_commitments_check(cs_t *cs, const snap_commitments *c)
{
    anum in[2] = {c->comm_c, c->root_r_old};
    cs_ns_push(cs, "comm_r_old_calc");
    anum calc = merkle_hash_nodes(cs, MERKLE_POSEIDON, in, 2);
    anum_enforce_equal(cs, &calc, &c->comm_r_old);
    cs_ns_pop(cs);
    in[1] = c->root_r_new;
    cs_ns_push(cs, "comm_r_new_calc");
    calc = merkle_hash_nodes(cs, MERKLE_POSEIDON, in, 2);
    anum_enforce_equal(cs, &calc, &c->comm_r_new);
    cs_ns_pop(cs);
}

