/* Numbers, multipacking, insertion/selection, UInt64: reference counts (insertion.rs
 * test_select size−1, test_insert 2/8/22/240; num.rs to_bits_le 255/256),
 * results against a plain model, check back end accepting and rejecting. */
#include <string.h>

#include "check.h"
#include "gadget_util.h"
#include "gadgets/insertion.h"
#include "gadgets/uint64.h"

static fr_t rand_fr(uint64_t *s)
{
    uint64_t l[4] = {tu_rand(s), tu_rand(s), tu_rand(s), tu_rand(s) >> 2};
    fr_t r;
    fr_from_limbs_reduce(&r, l);
    return r;
}

static void test_insert_select(void)
{
    static const uint64_t want_insert[5] = {0, 2, 8, 22, 240};
    uint64_t seed = 5;
    for (unsigned lg = 1; lg <= 4; lg++) {
        unsigned size = 1u << lg;
        for (unsigned index = 0; index < size; index++) {
            for (int mode = 0; mode < 2; mode++) {
                cs_t cs;
                cs_init(&cs, mode ? CS_CHECK : CS_SHAPE, 0);
                anum el[16], sib[15], out[16];
                gbool bits[4];
                for (unsigned i = 0; i < size; i++) {
                    fr_t v = rand_fr(&seed);
                    el[i] = anum_alloc(&cs, &v);
                }
                for (unsigned i = 0; i + 1 < size; i++)
                    sib[i] = el[i + 1];
                for (unsigned i = 0; i < lg; i++)
                    bits[i] = gb_alloc(&cs, (index >> i) & 1);
                uint64_t base = cs.num_constraints;
                anum sel = gadget_select(&cs, el, bits, lg);
                CHECK(cs.num_constraints - base == size - 1, "select %u: %llu", size,
                      (unsigned long long)(cs.num_constraints - base));
                base = cs.num_constraints;
                gadget_insert(&cs, &el[0], bits, lg, sib, out);
                CHECK(cs.num_constraints - base == want_insert[lg], "insert %u: %llu", size,
                      (unsigned long long)(cs.num_constraints - base));
                if (mode) {
                    CHECK(fr_eq(&sel.value, &el[index].value), "select value %u/%u", size, index);
                    bool ok = true;
                    for (unsigned pos = 0; pos < size; pos++) {
                        const anum *w = pos < index ? &sib[pos] : pos == index ? &el[0] : &sib[pos - 1];
                        ok &= fr_eq(&out[pos].value, &w->value);
                    }
                    CHECK(ok, "insert values %u/%u", size, index);
                    CHECK(cs_check_satisfied(&cs, NULL, NULL, 0), "insert satisfied %u/%u", size, index);
                }
                CHECK(cs.status == CUZK_OK, "status");
                cs_free(&cs);
            }
        }
    }
}

static void test_bits_and_packing(void)
{
    uint64_t seed = 11;
    cs_t cs;
    cs_init(&cs, CS_CHECK, 0);
    fr_t v = rand_fr(&seed);
    anum x = anum_alloc(&cs, &v);
    gbool bits[255];
    anum_to_bits_le(&cs, &x, bits);
    CHECK(cs.num_constraints == 256 && cs.num_aux == 256, "to_bits_le %llu/%llu",
          (unsigned long long)cs.num_constraints, (unsigned long long)cs.num_aux);
    uint64_t limbs[4];
    fr_to_limbs(limbs, &v);
    bool ok = true;
    for (int i = 0; i < 255; i++)
        ok &= bits[i].value == ((limbs[i / 64] >> (i % 64)) & 1);
    CHECK(ok, "bit values");
    gbool rev[256];
    CHECK(reverse_bit_numbering(bits, 255, rev) == 256, "reverse length");
    uint8_t le[32], got[32];
    fr_to_bytes_le(le, &v);
    tu_bits_to_bytes(rev, 32, got);
    CHECK(memcmp(le, got, 32) == 0 && rev[248].kind == GB_CONST, "reverse_bit_numbering = LE bytes");

    anum p = pack_bits(&cs, bits, 255); /* first 254 bits */
    fr_t want;
    uint64_t l2[4] = {limbs[0], limbs[1], limbs[2], limbs[3] & 0x3fffffffffffffffULL};
    fr_from_limbs_reduce(&want, l2);
    CHECK(fr_eq(&p.value, &want), "pack_bits value");
    uint64_t before = cs.num_constraints;
    pack_into_inputs(&cs, bits, 255);
    CHECK(cs.num_inputs == 3 && cs.num_constraints == before + 2, "pack_into_inputs chunks");
    anum_inputize(&cs, &x);
    const fr_t *in = cs_value(&cs, CS_VAR_INPUT | 3);
    CHECK(in && fr_eq(in, &v), "inputize value");
    uint8_t raw[255];
    for (int i = 0; i < 255; i++)
        raw[i] = bits[i].value;
    fr_t mp[2];
    compute_multipacking(raw, 255, mp);
    CHECK(fr_eq(&mp[0], &want) && fr_eq(cs_value(&cs, CS_VAR_INPUT | 1), &mp[0]) &&
              fr_eq(cs_value(&cs, CS_VAR_INPUT | 2), &mp[1]), "compute_multipacking");
    anum e = anum_add(&cs, &x, &p), d = anum_sub(&cs, &e, &p);
    CHECK(fr_eq(&d.value, &v), "add/sub");
    CHECK(cs_check_satisfied(&cs, NULL, NULL, 0), "satisfied");

    /* reject: x must equal e = x + p (it does not) */
    before = cs.num_constraints;
    cs_ns_push(&cs, "bad");
    anum_enforce_equal(&cs, &x, &e);
    cs_ns_pop(&cs);
    uint64_t idx;
    char name[128];
    CHECK(!cs_check_satisfied(&cs, &idx, name, sizeof name) && idx == before &&
              strcmp(name, "bad/equal") == 0, "reject at %llu '%s'", (unsigned long long)idx, name);
    cs_free(&cs);

    /* a non-boolean value for an allocated bit is rejected at its boolean constraint */
    cs_init(&cs, CS_CHECK, 0);
    u64g w = u64_alloc(&cs, 0x0123456789abcdefULL);
    u64_pack_into_input(&cs, &w);
    CHECK(cs.num_constraints == 65 && cs.num_inputs == 2, "uint64 alloc + pack");
    gbool be[64];
    u64_to_bits_be(&w, be);
    u64g w2 = u64_from_bits_be(be);
    CHECK(w2.value == w.value && cs_check_satisfied(&cs, NULL, NULL, 0), "uint64 round trip");
    fr_t two;
    fr_add(&two, &FR_ONE, &FR_ONE);
    cs_var bad = cs_alloc(&cs, &two);
    CS_LC(a, 2);
    CS_LC(b, 1);
    CS_LC(c, 1);
    cs_lc_add_var(&a, CS_ONE);
    cs_lc_sub_var(&a, bad);
    cs_lc_add_var(&b, bad);
    cs_enforce(&cs, "boolean constraint", &a, &b, &c);
    CHECK(!cs_check_satisfied(&cs, &idx, NULL, 0) && idx == 65, "non-boolean rejected at %llu",
          (unsigned long long)idx);
    cs_free(&cs);
}

/* LC merging: repeated variables sum, cancelling terms vanish from nnz and density. */
static void test_lc_merge(void)
{
    cs_t cs;
    cs_init(&cs, CS_SHAPE, CS_TRACK_DENSITY);
    cs_var x = cs_alloc(&cs, NULL), y = cs_alloc(&cs, NULL);
    CS_LC(a, 2);
    CS_LC(b, 4);
    CS_LC(c, 2);
    cs_lc_add_var(&a, x);
    cs_lc_add_var(&a, x);
    cs_lc_add_var(&b, y);
    cs_lc_sub_var(&b, y);
    cs_lc_add_var(&b, CS_ONE);
    cs_enforce(&cs, "m", &a, &b, &c);
    cs_counts k;
    cs_get_counts(&cs, &k);
    CHECK(k.nnz_a == 1 && k.nnz_b == 1 && k.nnz_c == 0, "nnz %llu %llu %llu",
          (unsigned long long)k.nnz_a, (unsigned long long)k.nnz_b, (unsigned long long)k.nnz_c);
    CHECK(k.a_aux_density == 1 && k.b_aux_density == 0 && k.b_input_density == 1, "density");
    CHECK(fr_eq(&a.t[0].coeff, cs_pow2(1)), "merged coefficient 2");
    cs_free(&cs);
}

/* select over 128 values (the SnapDeals apex leaves, 7 index bits): 127 picks, the chosen
 * value, satisfied; 2^9 values are refused. */
static void test_select_128(void)
{
    uint64_t seed = 11;
    static const unsigned idx[] = {0, 77, 127};
    for (size_t t = 0; t < 3; t++) {
        cs_t cs;
        cs_init(&cs, CS_CHECK, 0);
        anum el[128];
        gbool bits[7];
        for (unsigned i = 0; i < 128; i++) {
            fr_t v = rand_fr(&seed);
            el[i] = anum_alloc(&cs, &v);
        }
        for (unsigned i = 0; i < 7; i++)
            bits[i] = gb_alloc(&cs, (idx[t] >> i) & 1);
        uint64_t base = cs.num_constraints;
        anum sel = gadget_select(&cs, el, bits, 7);
        CHECK(cs.num_constraints - base == 127 && fr_eq(&sel.value, &el[idx[t]].value), "select 128 at %u",
              idx[t]);
        CHECK(cs_check_satisfied(&cs, NULL, NULL, 0) && cs.status == CUZK_OK, "select 128 satisfied");
        cs_free(&cs);
    }
    cs_t cs;
    cs_init(&cs, CS_SHAPE, 0);
    anum el[1];
    gbool bits[9];
    gadget_select(&cs, el, bits, 9);
    CHECK(cs.status == CUZK_E_INVALID_ARG, "9 select bits refused");
    cs_free(&cs);
}

int main(void)
{
    test_insert_select();
    test_select_128();
    test_bits_and_packing();
    test_lc_merge();
    return check_summary("num_gadget");
}
