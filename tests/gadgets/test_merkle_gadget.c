/* PoR, hash_leaf_bits and create_label: every PoR row of docs/circuits.md#upstream-test-counts
 * (rust-fil-proofs storage-proofs-core/tests/por_circuit.rs), hash_leaf_bits 45,387,
 * create_label 532,025, through gadgets_circuit_info (shape back end); check back end accepts
 * the seeded witnesses and rejects a wrong root / label at the expected constraint; circuit ==
 * native label. */
#include <string.h>

#include "check.h"
#include "gadget_util.h"
#include "gadgets/circuits.h"
#include "gadgets/create_label.h"
#include "gadgets/merkle.h"

typedef struct {
    const char *name, *params;
    uint64_t inputs, constraints;
} row;

static const row ROWS[] = {
    {"por", "hasher=sha256,arity=2,leaves=64", 3, 272295},
    {"por", "hasher=poseidon,arity=2,leaves=64", 3, 1887},
    {"por", "hasher=sha256,arity=4,leaves=64", 3, 216258},
    {"por", "hasher=poseidon,arity=4,leaves=64", 3, 1164},
    {"por", "hasher=sha256,arity=8,leaves=64", 3, 250987},
    {"por", "hasher=poseidon,arity=8,leaves=64", 3, 1063},
    {"por", "base=8,sub=2,leaves=128", 3, 1377},
    {"por", "base=8,sub=4,top=2,leaves=512", 3, 1764},
    {"por", "base=8,sub=8,leaves=512", 3, 1593},
    {"por", "base=8,sub=8,top=2,leaves=1024", 3, 1907},
    {"por", "base=8,sub=2,top=4,leaves=512", 3, 1764},
    {"por", "arity=2,leaves=64,root=private", 2, 1886},
    {"por", "arity=4,leaves=64,root=private", 2, 1163},
    {"por", "arity=8,leaves=64,root=private", 2, 1062},
    {"poseidon", "arity=2", 1, 311},
    {"poseidon", "arity=11", 1, 598},
    {"hash-leaf-bits", "", 1, 45387},
    {"create-label", "layer=3,node=22", 1, 532025},
    {"sha256", "bytes=64", 1, 44874 + 512},
};

static void test_counts(void)
{
    for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++) {
        const row *r = &ROWS[i];
        const char *p[1] = {r->params};
        cs_counts c;
        cuzk_error e;
        cuzk_status st = gadgets_circuit_info(r->name, p, r->params[0] ? 1 : 0, &c, &e);
        CHECK(st == CUZK_OK, "%s %s: %s", r->name, r->params, st ? e.msg : "");
        CHECK(c.inputs == r->inputs && c.constraints == r->constraints,
              "%s %s: inputs %llu constraints %llu (want %llu / %llu)", r->name, r->params,
              (unsigned long long)c.inputs, (unsigned long long)c.constraints,
              (unsigned long long)r->inputs, (unsigned long long)r->constraints);
    }
    cs_counts c;
    cuzk_error e;
    const char *bad[2][1] = {{"leaves=100"}, {"colour=red"}};
    CHECK(gadgets_circuit_info("por", bad[0], 1, &c, &e) == CUZK_E_INVALID_ARG, "bad leaves");
    CHECK(gadgets_circuit_info("por", bad[1], 1, &c, &e) == CUZK_E_UNSUPPORTED, "unknown key");
    CHECK(gadgets_circuit_info("porep", NULL, 0, &c, &e) == CUZK_E_UNSUPPORTED, "unknown circuit");
}

/* Seeded witnesses satisfy the check back end; a wrong extra root equality is rejected. */
static void test_check(void)
{
    static const char *params[] = {"hasher=poseidon,base=8,sub=8,top=2,leaves=1024",
                                   "hasher=poseidon,arity=4,leaves=64,root=private",
                                   "hasher=sha256,arity=2,leaves=4"};
    for (int i = 0; i < 3; i++) {
        cs_t cs;
        cuzk_error e;
        cs_init(&cs, CS_CHECK, 0);
        const char *p[1] = {params[i]};
        cuzk_status st = gadgets_circuit_synthesize(&cs, "por", p, 1, 42 + i, &e);
        CHECK(st == CUZK_OK, "%s: %s", params[i], st ? e.msg : "");
        CHECK(cs_check_satisfied(&cs, NULL, NULL, 0), "por witness satisfied: %s", params[i]);
        cs_free(&cs);
    }
    /* a path that does not hash to the claimed root fails at "enforce root is correct" */
    cs_t cs;
    cs_init(&cs, CS_CHECK, 0);
    merkle_shape s = {MERKLE_POSEIDON, 2, 2, 0, 0};
    fr_t leaf, sib[2], root;
    unsigned idx[2] = {1, 0};
    fr_from_u64(&leaf, 5), fr_from_u64(&sib[0], 6), fr_from_u64(&sib[1], 7), fr_from_u64(&root, 8);
    merkle_path_values v = {&leaf, idx, sib, &root};
    merkle_por_circuit(&cs, &s, &v, NULL, NULL, false);
    uint64_t bad;
    /* 2 levels × (1 + 2 + 311) then packing (1), then the root equality */
    CHECK(!cs_check_satisfied(&cs, &bad, NULL, 0) && bad == 2 * 314 + 1, "wrong root at %llu",
          (unsigned long long)bad);
    cs_free(&cs);
}

static void test_label(void)
{
    uint64_t seed = 17;
    uint8_t rep[32], parents[LABEL_PARENTS][32], want[32], got[32];
    for (int i = 0; i < 32; i++)
        rep[i] = (uint8_t)tu_rand(&seed);
    rep[31] &= 0x3f;
    for (int p = 0; p < LABEL_PARENTS; p++)
        for (int i = 0; i < 32; i++)
            parents[p][i] = (uint8_t)tu_rand(&seed);
    create_label_native(rep, 5, 0x123456789aULL, (const uint8_t(*)[32])parents, want);
    cs_t cs;
    cs_init(&cs, CS_CHECK, 0);
    gbool rb[256], pb[LABEL_PARENTS][256];
    const gbool *pp[LABEL_PARENTS];
    tu_bytes_to_bits(&cs, rep, 32, rb, 1);
    for (int p = 0; p < LABEL_PARENTS; p++) {
        tu_bytes_to_bits(&cs, parents[p], 32, pb[p], 1);
        pp[p] = pb[p];
    }
    u32g layer = u32_const(5);
    u64g node = u64_alloc(&cs, 0x123456789aULL);
    anum label = create_label_circuit(&cs, rb, 256, pp, &layer, &node);
    fr_to_bytes_le(got, &label.value);
    CHECK(memcmp(got, want, 32) == 0, "circuit label == native label");
    CHECK(cs_check_satisfied(&cs, NULL, NULL, 0), "label satisfied");
    fr_t wrong;
    fr_add(&wrong, &label.value, &FR_ONE);
    anum w = anum_alloc(&cs, &wrong);
    uint64_t at = cs.num_constraints, bad;
    anum_enforce_equal(&cs, &label, &w);
    CHECK(!cs_check_satisfied(&cs, &bad, NULL, 0) && bad == at, "wrong label rejected");
    cs_free(&cs);
}

int main(void)
{
    test_counts();
    test_check();
    test_label();
    return check_summary("merkle_gadget");
}
