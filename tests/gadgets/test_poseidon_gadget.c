/* Poseidon: Grain constants and hash vectors published in neptune's tests (round_constants.rs,
 * poseidon.rs), optimised == textbook schedule, legacy circuit counts
 * 311/377/505/598/761/1009/1385 (neptune test_poseidon_hash, rust-fil-proofs
 * test_hash_single_column), circuit output == native, check back end accepting and rejecting. */
#include <string.h>

#include "check.h"
#include "gadget_util.h"
#include "gadgets/poseidon.h"

static void fr_hex(fr_t *r, const char *hex)
{
    uint8_t b[32];
    CHECK(hex_decode(b, 32, hex) == 32, "hex %s", hex);
    CHECK(fr_from_bytes_be(r, b) == CUZK_OK, "canonical %s", hex);
}

static void fr_limbs_le(fr_t *r, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t l[4] = {a, b, c, d};
    CHECK(fr_from_limbs(r, l) == CUZK_OK, "canonical limbs");
}

static void test_constants(void)
{
    const poseidon_constants *pc;
    fr_t want;
    CHECK(poseidon_get_constants(2, &pc, NULL) == CUZK_OK, "constants 2");
    fr_hex(&want, "669f064bfa3ae17a23bd51861dbb4a24501eac92a2758b36a7320a009d6ed3d8");
    CHECK(fr_eq(&pc->rc[0], &want), "arity 2 rc[0]");
    fr_hex(&want, "0a61a8defbacca36e4537ff2c84fa66ceee67c9645ac27346e72ab842b9d3f15");
    CHECK(fr_eq(&pc->rc[1], &want), "arity 2 rc[1]");
    fr_hex(&want, "21e9cefa24b89d09f91b1e8a45df275b17292b4e1aaa49301e234771128165d5");
    CHECK(fr_eq(&pc->rc[2], &want), "arity 2 rc[2]");
    CHECK(poseidon_get_constants(8, &pc, NULL) == CUZK_OK, "constants 8");
    fr_hex(&want, "6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9");
    CHECK(fr_eq(&pc->rc[0], &want), "arity 8 rc[0]");
    CHECK(poseidon_get_constants(11, &pc, NULL) == CUZK_OK, "constants 11");
    fr_hex(&want, "1f6c9576e648b5047399bfc5f38902e0d506f18e0f3ab77de6de096bd089bce4");
    CHECK(fr_eq(&pc->rc[0], &want), "arity 11 rc[0]");
    cuzk_error e;
    CHECK(poseidon_get_constants(3, &pc, &e) == CUZK_E_UNSUPPORTED, "arity 3 unsupported");
}

static void test_vectors(void)
{
    static const unsigned ar[7] = {2, 4, 8, 11, 16, 24, 36};
    fr_t want[7];
    fr_hex(&want[0], "396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff");
    fr_hex(&want[1], "58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d");
    fr_hex(&want[2], "2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6");
    fr_hex(&want[3], "0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163");
    fr_limbs_le(&want[4], 0x1291c74060266d37ULL, 0x5b8dbc6d30680a6fULL, 0xc1c2fb5a6f871e63ULL,
                0x2d3ae2663381ae8aULL);
    fr_limbs_le(&want[5], 0xd7ef3569f585b321ULL, 0xc3e779f6468815b1ULL, 0x066f39bf783f3d9fULL,
                0x63beb8831f11ae15ULL);
    fr_limbs_le(&want[6], 0x4473606dfa4e8140ULL, 0x75cd368df8a8ac3cULL, 0x540a30e03c10bbaaULL,
                0x699303082a6e5d5fULL);
    for (int k = 0; k < 7; k++) {
        fr_t pre[36], tag, h1, h2;
        for (unsigned i = 0; i < ar[k]; i++)
            fr_from_u64(&pre[i], i);
        poseidon_tag_merkle(ar[k], &tag);
        CHECK(poseidon_hash(ar[k], &tag, pre, &h1, NULL) == CUZK_OK, "hash %u", ar[k]);
        CHECK(poseidon_hash_textbook(ar[k], &tag, pre, &h2, NULL) == CUZK_OK, "textbook %u", ar[k]);
        CHECK(fr_eq(&h1, &want[k]), "vector arity %u (optimised)", ar[k]);
        CHECK(fr_eq(&h2, &want[k]), "vector arity %u (textbook)", ar[k]);
    }
    /* filecoin-hashers binary tree over leaves [1, 0, 0, 1] */
    fr_t l[2], tag, a, b, root, w;
    poseidon_tag_merkle(2, &tag);
    fr_from_u64(&l[0], 1), fr_from_u64(&l[1], 0);
    poseidon_hash(2, &tag, l, &a, NULL);
    fr_hex(&w, "042f94ffbe786bc393c003cc74a24f26ec5907b3dc3094afb339ff6079800b5e");
    CHECK(fr_eq(&a, &w), "H2(1, 0)");
    fr_from_u64(&l[0], 0), fr_from_u64(&l[1], 1);
    poseidon_hash(2, &tag, l, &b, NULL);
    l[0] = a, l[1] = b;
    poseidon_hash(2, &tag, l, &root, NULL);
    fr_hex(&w, "1effebb7b26ad9eb30eb6385ae6b74ae77cc72b8cb2b5ad2efbb8be3e291e671");
    CHECK(fr_eq(&root, &w), "binary tree root");
}

static void test_circuit(void)
{
    static const unsigned ar[7] = {2, 4, 8, 11, 16, 24, 36};
    static const uint64_t want[7] = {311, 377, 505, 598, 761, 1009, 1385};
    uint64_t seed = 3;
    for (int k = 0; k < 7; k++) {
        for (int mode = 0; mode < 2; mode++) {
            cs_t cs;
            cs_init(&cs, mode ? CS_CHECK : CS_SHAPE, 0);
            fr_t pre[36], tag, h;
            anum in[36];
            for (unsigned i = 0; i < ar[k]; i++) {
                uint64_t l[4] = {tu_rand(&seed), tu_rand(&seed), tu_rand(&seed), tu_rand(&seed) >> 3};
                fr_from_limbs_reduce(&pre[i], l);
                in[i] = anum_alloc(&cs, &pre[i]);
            }
            poseidon_tag_merkle(ar[k], &tag);
            uint64_t base = cs.num_constraints, aux0 = cs.num_aux;
            anum out = poseidon_circuit(&cs, ar[k], &tag, in);
            CHECK(cs.status == CUZK_OK, "status");
            CHECK(cs.num_constraints - base == want[k] && cs.num_aux - aux0 == want[k],
                  "arity %u: %llu constraints", ar[k], (unsigned long long)(cs.num_constraints - base));
            if (mode) {
                poseidon_hash(ar[k], &tag, pre, &h, NULL);
                CHECK(fr_eq(&out.value, &h), "circuit == native, arity %u", ar[k]);
                CHECK(cs_check_satisfied(&cs, NULL, NULL, 0), "satisfied arity %u", ar[k]);
                /* reject: claim the hash equals the first preimage element */
                anum_enforce_equal(&cs, &out, &in[0]);
                uint64_t idx;
                CHECK(!cs_check_satisfied(&cs, &idx, NULL, 0) && idx == base + want[k],
                      "reject arity %u", ar[k]);
            }
            cs_free(&cs);
        }
    }
}

int main(void)
{
    test_constants();
    test_vectors();
    test_circuit();
    return check_summary("poseidon_gadget");
}
