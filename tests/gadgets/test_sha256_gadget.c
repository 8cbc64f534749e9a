/* SHA-256 gadget: reference constraint counts (bellperson test_full_block 25,840,
 * test_full_hash 44,874, test_blank_hash 0), FIPS 180-4 vectors, in-circuit digest
 * equal to OpenSSL's, check back end accepts/rejects, record + witness back ends agree. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gadget_util.h"
#include "gadgets/sha256.h"
#include "gadgets/sha256_native.h"

static void test_counts(void)
{
    cs_t cs;
    gbool bits[512], dig[256];
    u32g iv[8], out[8];
    uint64_t seed = 1;

    cs_init(&cs, CS_SHAPE, 0);
    for (int i = 0; i < 512; i++)
        bits[i] = gb_alloc(&cs, tu_rand(&seed) & 1);
    sha256_iv(iv);
    sha256_compress_circuit(&cs, bits, iv, out);
    CHECK(cs.status == CUZK_OK, "status %d", cs.status);
    CHECK(cs.num_constraints - 512 == 25840, "full block: %llu constraints",
          (unsigned long long)cs.num_constraints - 512);
    cs_free(&cs);

    cs_init(&cs, CS_SHAPE, 0);
    for (int i = 0; i < 512; i++)
        bits[i] = gb_alloc(&cs, tu_rand(&seed) & 1);
    sha256_circuit(&cs, bits, 512, dig);
    CHECK(cs.num_constraints - 512 == 44874, "full hash: %llu constraints",
          (unsigned long long)cs.num_constraints - 512);
    CHECK(cs.num_inputs == 1, "inputs %llu", (unsigned long long)cs.num_inputs);
    cs_free(&cs);

    cs_init(&cs, CS_SHAPE, 0);
    for (int i = 0; i < 512; i++)
        bits[i] = gb_const(tu_rand(&seed) & 1);
    sha256_compress_circuit(&cs, bits, iv, out);
    CHECK(cs.num_constraints == 0 && cs.num_aux == 0, "blank hash: %llu constraints",
          (unsigned long long)cs.num_constraints);
    cs_free(&cs);
}

/* FIPS 180-4 example "abc" and the two-block example, natively and in circuit. */
static void test_vectors(void)
{
    static const char *msgs[2] = {"abc", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"};
    static const char *want[2] = {
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"};
    for (int t = 0; t < 2; t++) {
        uint8_t exp[32], got[32], circ[32];
        size_t n = strlen(msgs[t]);
        hex_decode(exp, 32, want[t]);
        sha256_native((const uint8_t *)msgs[t], n, got);
        CHECK(memcmp(got, exp, 32) == 0, "native vector %d", t);
        sha256_trunc254((const uint8_t *)msgs[t], n, got);
        CHECK(memcmp(got, exp, 31) == 0 && got[31] == (exp[31] & 0x3f), "trunc254 vector %d", t);
        for (int alloc = 0; alloc < 2; alloc++) {
            cs_t cs;
            cs_init(&cs, CS_CHECK, 0);
            gbool *bits = malloc(8 * n * sizeof *bits), dig[256];
            tu_bytes_to_bits(&cs, (const uint8_t *)msgs[t], n, bits, alloc);
            sha256_circuit(&cs, bits, 8 * n, dig);
            tu_bits_to_bytes(dig, 32, circ);
            CHECK(cs.status == CUZK_OK && memcmp(circ, exp, 32) == 0, "circuit vector %d alloc %d",
                  t, alloc);
            CHECK(cs_check_satisfied(&cs, NULL, NULL, 0), "satisfied vector %d", t);
            if (!alloc)
                CHECK(cs.num_constraints == 0, "constant message costs %llu",
                      (unsigned long long)cs.num_constraints);
            free(bits);
            cs_free(&cs);
        }
    }
}

/* Random messages of several lengths: circuit digest == OpenSSL digest; a wrong expected
 * digest is rejected at the first mismatching equality constraint. */
static void test_random_and_reject(void)
{
    uint64_t seed = 99;
    size_t lens[] = {0, 1, 55, 56, 64, 100};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = lens[li];
        uint8_t msg[128], exp[32], circ[32];
        for (size_t i = 0; i < n; i++)
            msg[i] = (uint8_t)tu_rand(&seed);
        sha256_native(msg, n, exp);
        cs_t cs;
        cs_init(&cs, CS_CHECK, 0);
        gbool bits[1024], dig[256];
        tu_bytes_to_bits(&cs, msg, n, bits, 1);
        sha256_circuit(&cs, bits, 8 * n, dig);
        tu_bits_to_bytes(dig, 32, circ);
        CHECK(memcmp(circ, exp, 32) == 0, "random digest len %zu", n);
        CHECK(cs_check_satisfied(&cs, NULL, NULL, 0), "random satisfied len %zu", n);

        /* corrupt: expect digest bit 77 flipped */
        uint64_t before = cs.num_constraints;
        cs_ns_push(&cs, "expect");
        for (int i = 0; i < 256; i++) {
            int v = (exp[i / 8] >> (7 - i % 8)) & 1;
            gb_enforce_equal(&cs, dig[i], gb_const(i == 77 ? !v : v));
        }
        cs_ns_pop(&cs);
        uint64_t idx = 0;
        char name[256];
        bool ok = cs_check_satisfied(&cs, &idx, name, sizeof name);
        if (n == 0) { /* constant digest: the mismatch is a synthesis error, not a row */
            CHECK(cs.status == CUZK_E_INVALID_ARG && ok, "constant mismatch status %d", cs.status);
            cs_free(&cs);
            continue;
        }
        CHECK(!ok && idx == before + 77, "corrupted digest rejected at %llu (want %llu)",
              (unsigned long long)idx, (unsigned long long)(before + 77));
        CHECK(strstr(name, "expect/enforce equal") != NULL, "name '%s'", name);
        cs_free(&cs);
    }
}

/* Record back end + witness back end: the recorded rows hold for the witness, break when one
 * aux value is flipped, and shape/record/witness agree on counts. */
static void test_record_witness(void)
{
    uint64_t seed = 7;
    uint8_t msg[64];
    for (int i = 0; i < 64; i++)
        msg[i] = (uint8_t)tu_rand(&seed);
    cs_t cs[3];
    cs_mode modes[3] = {CS_SHAPE, CS_RECORD, CS_WITNESS};
    for (int k = 0; k < 3; k++) {
        cs_init(&cs[k], modes[k], CS_TRACK_DENSITY);
        gbool bits[512], dig[256];
        tu_bytes_to_bits(&cs[k], msg, 64, bits, 1);
        sha256_circuit(&cs[k], bits, 512, dig);
    }
    CHECK(cs[0].num_aux == cs[1].num_aux && cs[1].num_aux == cs[2].num_aux, "aux counts");
    CHECK(cs[0].num_constraints == cs[1].num_constraints, "constraint counts");
    cs_counts c0, c1;
    cs_get_counts(&cs[0], &c0);
    cs_get_counts(&cs[1], &c1);
    CHECK(c0.nnz_a == c1.nnz_a && c0.nnz_b == c1.nnz_b && c0.nnz_c == c1.nnz_c, "nnz");
    CHECK(c0.a_aux_density == c1.a_aux_density && c0.b_aux_density == c1.b_aux_density, "density");
    cs_matrices m;
    CHECK(cs_take_matrices(&cs[1], &m) == CUZK_OK, "take matrices");
    fr_t *in, *aux;
    uint64_t ni, na;
    CHECK(cs_take_witness(&cs[2], &in, &ni, &aux, &na) == CUZK_OK, "take witness");
    CHECK(m.a.rows == m.num_constraints + ni && ni == 1, "rows %llu", (unsigned long long)m.a.rows);
    uint64_t nnz_a = m.a.row_ptr[m.a.rows];
    CHECK(nnz_a == c0.nnz_a + ni, "recorded nnz_a %llu", (unsigned long long)nnz_a);
    CHECK(tu_matrices_check(&m, in, aux) == -1, "recorded matrices hold for the witness");
    aux[600] = fr_is_zero(&aux[600]) ? FR_ONE : FR_ZERO;
    CHECK(tu_matrices_check(&m, in, aux) >= 0, "flipped aux value detected");
    free(in);
    free(aux);
    cs_matrices_free(&m);
    for (int k = 0; k < 3; k++)
        cs_free(&cs[k]);
}

int main(void)
{
    test_counts();
    test_vectors();
    test_random_and_reject();
    test_record_witness();
    return check_summary("sha256_gadget");
}
