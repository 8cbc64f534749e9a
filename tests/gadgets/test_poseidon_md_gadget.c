/* Poseidon hash_md (filecoin-hashers poseidon.rs hash_md / hash_md_circuit, test_hash_md_circuit):
 * the published native value over 71 ones, zero padding of a short last chunk (against the
 * textbook permutation on an explicitly padded preimage), circuit counts (2,770 for 71
 * elements) in the shape back end, circuit output == native in the check and witness back
 * ends, and the check back end rejecting a corrupted witness at the expected constraint. */
#include <string.h>

#include "check.h"
#include "gadget_util.h"
#include "gadgets/poseidon_md.h"

#define MD_COST 1385 /* legacy Poseidon circuit, arity 36 (neptune test_poseidon_hash) */

static void fr_hex(fr_t *r, const char *hex)
{
    uint8_t b[32];
    CHECK(hex_decode(b, 32, hex) == 32, "hex %s", hex);
    CHECK(fr_from_bytes_be(r, b) == CUZK_OK, "canonical %s", hex);
}

static void rand_fr(uint64_t *s, fr_t *out)
{
    uint64_t l[4] = {tu_rand(s), tu_rand(s), tu_rand(s), tu_rand(s) >> 3};
    fr_from_limbs_reduce(out, l);
}

static void test_native(void)
{
    fr_t in[71], h, want;
    for (int i = 0; i < 71; i++)
        in[i] = FR_ONE;
    CHECK(poseidon_hash_md(in, 71, &h, NULL) == CUZK_OK, "hash_md 71");
    fr_hex(&want, "59f42220e09ff6f75fd9623643ed9622c26f6d625f4e8195351c54133b332c90");
    CHECK(fr_eq(&h, &want), "hash_md over 71 ones (published value)");

    /* short last chunk: 40 elements = x0 + 35 + 4, the last permutation sees 31 zeros */
    uint64_t seed = 11;
    fr_t x[40], pre[36], tag, acc;
    for (int i = 0; i < 40; i++)
        rand_fr(&seed, &x[i]);
    poseidon_tag_merkle(36, &tag);
    memcpy(pre, x, 36 * sizeof *pre);
    CHECK(poseidon_hash_textbook(36, &tag, pre, &acc, NULL) == CUZK_OK, "textbook chunk 0");
    pre[0] = acc;
    for (int i = 0; i < 4; i++)
        pre[1 + i] = x[36 + i];
    for (int i = 5; i < 36; i++)
        pre[i] = FR_ZERO;
    CHECK(poseidon_hash_textbook(36, &tag, pre, &want, NULL) == CUZK_OK, "textbook chunk 1");
    CHECK(poseidon_hash_md(x, 40, &h, NULL) == CUZK_OK && fr_eq(&h, &want),
          "hash_md 40 = chained textbook hashes with zero padding");
    /* two elements: one permutation over (x0, x1, 0 x 34) */
    pre[0] = x[0], pre[1] = x[1];
    for (int i = 2; i < 36; i++)
        pre[i] = FR_ZERO;
    poseidon_hash_textbook(36, &tag, pre, &want, NULL);
    CHECK(poseidon_hash_md(x, 2, &h, NULL) == CUZK_OK && fr_eq(&h, &want), "hash_md 2");

    cuzk_error e;
    CHECK(poseidon_hash_md(x, 1, &h, &e) == CUZK_E_INVALID_ARG && strstr(e.msg, "1 elements"),
          "hash_md of one element rejected: %s", e.msg);
    CHECK(poseidon_hash_md(x, 0, &h, &e) == CUZK_E_INVALID_ARG, "hash_md of none rejected");
}

/* n elements: chunks of 35 after the first, padding of the last one. */
static void test_circuit_n(size_t n, bool ones)
{
    size_t chunks = n > 1 ? (n - 2) / 35 + 1 : 0;
    size_t pad = chunks ? chunks * 35 - (n - 1) : 0;
    uint64_t seed = 5 + n;
    fr_t x[71];
    for (size_t i = 0; i < n; i++) {
        if (ones)
            x[i] = FR_ONE;
        else
            rand_fr(&seed, &x[i]);
    }
    fr_t native = x[0];
    if (n > 1)
        CHECK(poseidon_hash_md(x, n, &native, NULL) == CUZK_OK, "native n=%zu", n);
    for (int mode = 0; mode < 3; mode++) {
        static const cs_mode modes[3] = {CS_SHAPE, CS_CHECK, CS_WITNESS};
        cs_t cs;
        cs_init(&cs, modes[mode], 0);
        anum in[71];
        for (size_t i = 0; i < n; i++)
            in[i] = anum_alloc(&cs, &x[i]);
        uint64_t c0 = cs.num_constraints, a0 = cs.num_aux;
        anum out = poseidon_hash_md_circuit(&cs, in, n);
        CHECK(cs.status == CUZK_OK, "status n=%zu", n);
        CHECK(cs.num_aux - a0 == chunks * MD_COST + pad, "n=%zu mode %d: aux %llu", n, mode,
              (unsigned long long)(cs.num_aux - a0));
        if (modes[mode] != CS_WITNESS)
            CHECK(cs.num_constraints - c0 == chunks * MD_COST, "n=%zu: %llu constraints", n,
                  (unsigned long long)(cs.num_constraints - c0));
        if (cs_has_values(&cs)) {
            CHECK(fr_eq(&out.value, &native), "n=%zu mode %d: circuit == native", n, mode);
            const fr_t *v = cs_value(&cs, out.var);
            CHECK(v && fr_eq(v, &native), "n=%zu: output variable holds the hash", n);
        }
        if (modes[mode] == CS_CHECK)
            CHECK(cs_check_satisfied(&cs, NULL, NULL, 0), "n=%zu satisfied", n);
        cs_free(&cs);
    }
}

/* The last element's value seen by the gadget differs from its variable's: the first S-box
 * constraint on it (last chunk, preimage slot k, constraint 3k) must fail. */
static void test_reject(void)
{
    cs_t cs;
    cs_init(&cs, CS_CHECK, 0);
    anum in[71];
    for (int i = 0; i < 71; i++)
        in[i] = anum_alloc(&cs, &FR_ONE);
    fr_from_u64(&in[70].value, 2);
    uint64_t c0 = cs.num_constraints, idx = 0;
    poseidon_hash_md_circuit(&cs, in, 71);
    char name[256] = "";
    CHECK(!cs_check_satisfied(&cs, &idx, name, sizeof name), "corrupted witness rejected");
    CHECK(idx == c0 + MD_COST + 3 * 35, "first failure at %llu (want %llu)",
          (unsigned long long)idx, (unsigned long long)(c0 + MD_COST + 105));
    CHECK(strstr(name, "hash md 1") != NULL, "failure named in chunk 1: %s", name);
    cs_free(&cs);

    /* a corrupted first element fails the very first constraint */
    cs_init(&cs, CS_CHECK, 0);
    for (int i = 0; i < 71; i++)
        in[i] = anum_alloc(&cs, &FR_ONE);
    fr_from_u64(&in[0].value, 3);
    c0 = cs.num_constraints;
    poseidon_hash_md_circuit(&cs, in, 71);
    CHECK(!cs_check_satisfied(&cs, &idx, name, sizeof name) && idx == c0,
          "corrupted x0 rejected at the first constraint (%llu)", (unsigned long long)idx);
    CHECK(strstr(name, "hash md 0") != NULL, "failure named in chunk 0: %s", name);
    cs_free(&cs);

    /* a wrong claimed output: hash == x0 */
    cs_init(&cs, CS_CHECK, 0);
    for (int i = 0; i < 71; i++)
        in[i] = anum_alloc(&cs, &FR_ONE);
    anum out = poseidon_hash_md_circuit(&cs, in, 71);
    CHECK(cs_check_satisfied(&cs, NULL, NULL, 0), "ones accepted");
    anum_enforce_equal(&cs, &out, &in[0]);
    CHECK(!cs_check_satisfied(&cs, &idx, NULL, 0) && idx == cs.num_constraints - 1,
          "hash == x0 rejected");
    cs_free(&cs);

    cs_init(&cs, CS_SHAPE, 0);
    poseidon_hash_md_circuit(&cs, in, 0);
    CHECK(cs.status == CUZK_E_INVALID_ARG, "no elements: error recorded");
    cs_free(&cs);
}

int main(void)
{
    test_native();
    test_circuit_n(71, true);
    test_circuit_n(71, false);
    test_circuit_n(36, false);
    test_circuit_n(40, false);
    test_circuit_n(2, false);
    test_circuit_n(1, false);
    test_reject();
    return check_summary("poseidon_md_gadget");
}
