/* Challenges and identifiers against independent data: the upstream synthetic-challenge
 * vector (storage-proofs-porep challenges.rs test_synth_challenges_against_hardcoded);
 * the real 8 MiB C1 fixture (replica_id recomputed from its prover_id, sector_id, ticket,
 * comm_d; its interactive challenges 151786, 237493; fixtures/README.md); the real 32 GiB
 * WindowPoSt fixture's 10 challenged leaves (README list and the leaf indices its Merkle
 * paths encode); the worked 2 KiB example docs/vectors.md#worked-2-kib-example (replica_id,
 * challenges 28 and 27, WindowPoSt V1_2 leaves, SnapDeals phi, rho(0), rho(1), challenges).
 * Rules without an upstream vector (non-interactive PoRep, winning sector selection) are
 * checked against a direct libcrypto SHA-256 + BIGNUM evaluation of the documented formula.
 * Usage: test_fc_challenges <fixtures dir> */
#include <openssl/bn.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/core/challenges.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/post/challenges.h"
#include "filecoin/snap/challenges.h"

static const char *g_fixtures;

static void hex_in(uint8_t out[32], const char *hex)
{
    CHECK(hex_decode(out, 32, hex) == 32, "hex %s", hex);
}

static void le32_of(uint8_t out[32], uint64_t v)
{
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

static uint8_t *read_fixture(const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", g_fixtures, name);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "open %s", path);
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n);
    CHECK(buf && fread(buf, 1, (size_t)n, f) == (size_t)n, "read %s", path);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void test_synthetic_vector(void)
{
    static const uint64_t synth[21] = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t porep[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    uint8_t replica_id[32], comm_r[32], rand[32];
    le32_of(replica_id, 55);
    le32_of(comm_r, 101);
    memset(rand, 1, 32);
    cuzk_error err;
    uint64_t got[21];
    CHECK(fc_synthetic_challenges(1024, replica_id, comm_r, 0, 21, got, &err) == CUZK_OK, "synthetic range: %s",
          err.msg);
    CHECK(!memcmp(got, synth, sizeof synth), "21 upstream synthetic challenges");
    for (int i = 20; i >= 0; i--) {
        uint64_t one = 0;
        CHECK(fc_synthetic_challenge(1024, replica_id, comm_r, (uint64_t)i, &one, &err) == CUZK_OK && one == synth[i],
              "synthetic challenge %d alone: %llu", i, (unsigned long long)one);
    }
    uint64_t mid[5];
    CHECK(fc_synthetic_challenges(1024, replica_id, comm_r, 7, 5, mid, &err) == CUZK_OK &&
              !memcmp(mid, synth + 7, sizeof mid),
          "synthetic challenges 7..11 (odd start)");
    uint64_t idx[10];
    CHECK(fc_synthetic_select(21, 10, replica_id, rand, 0, idx, &err) == CUZK_OK, "selection: %s", err.msg);
    for (int i = 0; i < 10; i++)
        CHECK(idx[i] < 21 && synth[idx[i]] == porep[i], "porep challenge %d = synthetic[%llu]", i,
              (unsigned long long)idx[i]);
    /* Partition k = 1 of 5 challenges continues the same index stream. */
    uint64_t idx5[5];
    CHECK(fc_synthetic_select(21, 5, replica_id, rand, 1, idx5, &err) == CUZK_OK && !memcmp(idx5, idx + 5, sizeof idx5),
          "selection of partition 1 = indexes 5..9");
    /* Non-canonical comm_r is refused (the reference reads it as Fr). */
    uint8_t big[32];
    memset(big, 0xff, 32);
    CHECK(fc_synthetic_challenge(1024, replica_id, big, 0, got, &err) == CUZK_E_FIELD_NONCANONICAL &&
              strstr(err.msg, "comm_r"),
          "non-canonical comm_r: %s", err.msg);
    CHECK(fc_synthetic_challenge(1024, replica_id, comm_r, 1024, got, &err) == CUZK_E_INVALID_ARG,
          "synthetic challenge 1024 of 1024 refused");
    CHECK(fc_synthetic_count(64) == 64 && fc_synthetic_count(1ull << 30) == (1ull << 18), "synthetic counts");
}

static void test_c1_fixture(void)
{
    size_t n = 0;
    uint8_t *d = read_fixture("porep-8MiB-c1.bincode", &n);
    if (!d || n < 200)
        return;
    const uint8_t *comm_r = d + n - 200, *comm_d = d + n - 168, *replica_id = d + n - 136, *seed = d + n - 104,
                  *ticket = d + n - 72, *prover_id = d + n - 40;
    uint64_t sector_id = le64(d + n - 8);
    CHECK(sector_id == 1498 && prover_id[0] == 0xee && prover_id[1] == 0x07, "fixture sector and prover");
    uint32_t proof_id = (uint32_t)d[4] | (uint32_t)d[5] << 8 | (uint32_t)d[6] << 16 | (uint32_t)d[7] << 24;
    const fc_seal_proof *p;
    cuzk_error err;
    CHECK(fc_seal_proof_get(proof_id, &p, &err) == CUZK_OK && p->id == 6, "registered proof 6");
    uint8_t rid[32], want[32];
    fc_replica_id(prover_id, sector_id, ticket, comm_d, p->porep_id, rid);
    CHECK(!memcmp(rid, replica_id, 32), "replica_id recomputed from the fixture's inputs");
    hex_in(want, "d8e715a429fe04db59c9bed5c97464e661870a39d8adf930142576d01f58af3e");
    CHECK(!memcmp(rid, want, 32), "replica_id = README value");
    uint64_t c[2];
    CHECK(fc_porep_challenges(p, replica_id, seed, comm_r, 0, c, &err) == CUZK_OK && c[0] == 151786 && c[1] == 237493,
          "interactive challenges 151786, 237493: %llu %llu", (unsigned long long)c[0], (unsigned long long)c[1]);
    CHECK(fc_porep_challenges(p, replica_id, seed, comm_r, 1, c, &err) == CUZK_E_INVALID_ARG,
          "partition 1 of a 1-partition proof refused");
    free(d);
}

static void test_window_post_fixture(void)
{
    static const uint64_t leaves[10] = {707914199, 439148358, 967788220, 548708700, 1061661429,
                                        6202012,   1055504637, 389535735, 1000069704, 600088878};
    size_t n = 0;
    uint8_t *d = read_fixture("window-post-32GiB-sector1.vproof", &n);
    if (!d)
        return;
    CHECK(n == 24960 && le64(d) == 1, "WindowPoSt fixture: 24,960 bytes, sector 1");
    const fc_post_proof *p;
    cuzk_error err;
    CHECK(fc_post_proof_get(8, &p, &err) == CUZK_OK && p->api == FC_API_1_0 && !p->winning, "PoSt proof 8");
    uint8_t randomness[32] = {0};
    for (uint32_t i = 0; i < 10; i++) {
        uint64_t ci = fc_post_challenge_index(p, 0, 0, i);
        uint64_t leaf = fc_post_leaf_challenge(randomness, 1, ci, p->shape->nodes);
        /* Leaf index from inclusion proof i's path (docs/formats.md#fallbackpostsectorproof):
         * each proof is 2,484 bytes from byte 56; base level l < 9 has its index at +244 + 240
         * l, the sub level (after its own u64 count) at +2412; arity 8 everywhere. */
        uint64_t path_leaf = 0;
        if (n == 24960) {
            const uint8_t *proof = d + 56 + 2484 * (size_t)i;
            path_leaf = le64(proof + 2412);
            for (int l = 8; l >= 0; l--)
                path_leaf = path_leaf * 8 + le64(proof + 244 + 240 * l);
        }
        CHECK(ci == i && leaf == leaves[i] && leaf == path_leaf, "WindowPoSt leaf %u: %llu (path %llu)", i,
              (unsigned long long)leaf, (unsigned long long)path_leaf);
    }
    free(d);
}

static void test_worked_2kib(void)
{
    uint8_t prover_id[32], ticket[32], seed[32], comm_d[32], rid[32], want[32], comm_r[32];
    fc_prover_id_from_actor(1000, prover_id);
    memset(ticket, 1, 32);
    memset(seed, 2, 32);
    hex_in(comm_d, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    hex_in(comm_r, "77424390b36f74acd595c40d0e341f4fbff18623feaf8ad72fe73d7490d0d65c");
    const fc_seal_proof *p;
    cuzk_error err;
    CHECK(fc_seal_proof_get(5, &p, &err) == CUZK_OK, "seal proof 5");
    fc_replica_id(prover_id, 1, ticket, comm_d, p->porep_id, rid);
    hex_in(want, "3e75e87332cd5d60132c1f9f9a8362e2e4cf190b46f4fd636fd8864b842d170b");
    CHECK(!memcmp(rid, want, 32), "2 KiB example: replica_id");
    uint64_t c[2];
    CHECK(fc_porep_challenges(p, rid, seed, comm_r, 0, c, &err) == CUZK_OK && c[0] == 28 && c[1] == 27,
          "2 KiB example: interactive challenges 28, 27");

    /* WindowPoSt V1_2 (RegisteredPoStProof 10), randomness 32 x 0x03 with byte 31 &= 0x3f. */
    static const uint64_t leaves[10] = {15, 30, 60, 40, 31, 45, 14, 18, 34, 2};
    const fc_post_proof *w;
    CHECK(fc_post_proof_get(10, &w, &err) == CUZK_OK && w->api == FC_API_1_2, "PoSt proof 10");
    uint8_t randomness[32];
    memset(randomness, 3, 32);
    randomness[31] &= 0x3f;
    for (uint32_t i = 0; i < 10; i++) {
        /* API 1.2: the challenge index does not depend on the sector's position. */
        uint64_t ci = fc_post_challenge_index(w, 0, 1, i);
        CHECK(ci == i && fc_post_leaf_challenge(randomness, 1, ci, 64) == leaves[i], "2 KiB WindowPoSt leaf %u", i);
    }

    /* SnapDeals over this replica (comm_r_old = comm_r above). */
    uint8_t comm_d_new[32], comm_r_new[32], bytes[32];
    hex_in(comm_d_new, "243ebe6979949215ad224bfd4ba3f1d5826a3460c045a06761e1a5020866a02e");
    hex_in(comm_r_new, "fdc65092682f315495a8b600a28e6209d173c4cbdb945e4575525000aa1eaf71");
    fr_t phi, rho;
    CHECK(fc_snap_phi(comm_d_new, comm_r, &phi, &err) == CUZK_OK, "phi: %s", err.msg);
    fr_to_bytes_le(bytes, &phi);
    hex_in(want, "2c3fed11e2b546e4a62b7d3369b06e4454dfc9a848eef5f875766cb363ce6e46");
    CHECK(!memcmp(bytes, want, 32), "2 KiB example: phi");
    fc_snap_rho(&phi, 0, &rho);
    fr_to_bytes_le(bytes, &rho);
    hex_in(want, "d90f9f4e4ab073c3c11f7756b1c99be58056f755131eabdca344b69378001b3e");
    CHECK(!memcmp(bytes, want, 32), "2 KiB example: rho(0)");
    fc_snap_rho(&phi, 1, &rho);
    fr_to_bytes_le(bytes, &rho);
    hex_in(want, "97192dcf8543b513fd0ae4fbbeb9bb2b77ef3a77e871040c7e62880a4076c96c");
    CHECK(!memcmp(bytes, want, 32), "2 KiB example: rho(1)");
    static const uint64_t snap[10] = {45, 53, 53, 46, 43, 55, 13, 20, 30, 55};
    const fc_snap_proof *u;
    uint64_t got[10];
    CHECK(fc_snap_proof_get(0, &u, &err) == CUZK_OK && u->challenges == 10 && u->partitions == 1, "update proof 0");
    CHECK(fc_snap_challenges(u, comm_r_new, 0, got, &err) == CUZK_OK && !memcmp(got, snap, sizeof snap),
          "2 KiB example: SnapDeals challenges");
    /* With one partition the Poseidon variant (rb = log2 N, digests from 0, no partition
     * bits, challenges x partitions) derives the same list. */
    CHECK(u->poseidon_challenges == 10 && fc_snap_poseidon_challenges(u, comm_r_new, got, &err) == CUZK_OK &&
              !memcmp(got, snap, sizeof snap),
          "2 KiB SnapDeals-Poseidon challenges");
    CHECK(fc_snap_challenges(u, comm_r_new, 1, got, &err) == CUZK_E_INVALID_ARG, "partition 1 of 1 refused");
    uint8_t bad[32];
    memset(bad, 0xff, 32);
    CHECK(fc_snap_phi(bad, comm_r, &phi, &err) == CUZK_E_FIELD_NONCANONICAL && strstr(err.msg, "comm_d_new"),
          "non-canonical comm_d_new: %s", err.msg);
    CHECK(fc_snap_challenges(u, bad, 0, got, &err) == CUZK_E_FIELD_NONCANONICAL, "non-canonical comm_r_new");
}

/* Partition ranges of the SnapDeals challenges for the multi-partition sizes
 * (storage-proofs-update challenges.rs: challenge = random bits | k << rb), and the Poseidon
 * variant's count. */
static void test_snap_partitions(void)
{
    uint8_t comm_r_new[32];
    hex_in(comm_r_new, "fdc65092682f315495a8b600a28e6209d173c4cbdb945e4575525000aa1eaf71");
    for (unsigned id = 1; id < FC_SNAP_PROOF_COUNT; id++) {
        const fc_snap_proof *u;
        cuzk_error err;
        CHECK(fc_snap_proof_get(id, &u, &err) == CUZK_OK, "update proof %u", id);
        uint64_t per = u->shape->nodes / u->partitions;
        uint64_t *c = malloc(sizeof *c * u->poseidon_challenges);
        const uint32_t ks[2] = {0, u->partitions - 1};
        for (int ki = 0; ki < 2; ki++) {
            uint32_t k = ks[ki];
            CHECK(fc_snap_challenges(u, comm_r_new, k, c, &err) == CUZK_OK, "snap %u k %u", id, k);
            unsigned in = 0;
            for (unsigned i = 0; i < u->challenges; i++)
                in += c[i] / per == k;
            CHECK(in == u->challenges, "update %u partition %u challenges in range", id, k);
        }
        CHECK(fc_snap_poseidon_challenges(u, comm_r_new, c, &err) == CUZK_OK, "poseidon variant %u", id);
        unsigned below = 0;
        for (unsigned i = 0; i < u->poseidon_challenges; i++)
            below += c[i] < u->shape->nodes;
        CHECK(below == u->poseidon_challenges, "update %u Poseidon challenges < N", id);
        free(c);
    }
}

/* (x mod m) + 1 with libcrypto BIGNUM, x = LE bytes. */
static uint64_t bn_challenge(const uint8_t x[32], uint64_t nodes)
{
    BIGNUM *b = BN_lebin2bn(x, 32, NULL);
    uint64_t r = BN_mod_word(b, nodes - 1) + 1;
    BN_free(b);
    return r;
}

static void test_direct_formulas(void)
{
    uint8_t replica_id[32], comm_r[32], h[32], buf[128];
    for (int i = 0; i < 32; i++) {
        replica_id[i] = (uint8_t)(3 * i + 1);
        comm_r[i] = (uint8_t)(251 - 7 * i);
    }
    replica_id[31] &= 0x3f;
    static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
    const fc_seal_proof *p;
    cuzk_error err;
    CHECK(fc_seal_proof_get(18, &p, &err) == CUZK_OK && p->feature == FC_POREP_NON_INTERACTIVE &&
              p->challenges_per_partition == 18,
          "seal proof 18 (32 GiB NI)");
    uint64_t c[18];
    uint32_t k = 125;
    CHECK(fc_porep_challenges(p, replica_id, NULL, comm_r, k, c, &err) == CUZK_OK, "NI challenges: %s", err.msg);
    for (uint32_t i = 0; i < 18; i++) {
        uint32_t j = 18 * k + i;
        size_t n = sizeof tag - 1;
        memcpy(buf, tag, n);
        memcpy(buf + n, replica_id, 32);
        memcpy(buf + n + 32, comm_r, 32);
        for (int b = 0; b < 4; b++)
            buf[n + 64 + b] = (uint8_t)(j >> (8 * b));
        SHA256(buf, n + 68, h);
        CHECK(c[i] == bn_challenge(h, 1ull << 30), "NI challenge %u of partition 125", i);
    }
    CHECK(fc_porep_challenges(p, replica_id, NULL, NULL, 0, c, &err) == CUZK_E_INVALID_ARG, "NI without comm_r");
    CHECK(fc_porep_challenges(p, replica_id, NULL, comm_r, 126, c, &err) == CUZK_E_INVALID_ARG, "NI partition 126");

    /* Winning sector selection: u64_le(SHA-256(prover_id || randomness || u64_le(n))[0..8]) mod len. */
    uint8_t prover_id[32], randomness[32];
    fc_prover_id_from_actor(1000, prover_id);
    memset(randomness, 9, 32);
    for (uint64_t n = 0; n < 4; n++) {
        memcpy(buf, prover_id, 32);
        memcpy(buf + 32, randomness, 32);
        for (int b = 0; b < 8; b++)
            buf[64 + b] = (uint8_t)(n >> (8 * b));
        SHA256(buf, 72, h);
        CHECK(fc_winning_sector_index(prover_id, randomness, n, 1000003) == le64(h) % 1000003, "winning sector %llu",
              (unsigned long long)n);
    }
    CHECK(fc_winning_sector_index(prover_id, randomness, 0, 0) == UINT64_MAX, "empty sector set");
    /* to_challenge on the largest 256-bit value. */
    memset(h, 0xff, 32);
    CHECK(fc_to_challenge(h, 1ull << 32) == bn_challenge(h, 1ull << 32), "to_challenge(2^256 - 1)");
    CHECK(fc_porep_challenges_custom(FC_POREP_INTERACTIVE, 2, 2, replica_id, h, NULL, 0, c, &err) ==
              CUZK_E_INVALID_ARG,
          "2 nodes refused");
}

int main(int argc, char **argv)
{
    g_fixtures = argc > 1 ? argv[1] : "../shared/fixtures";
    test_synthetic_vector();
    test_c1_fixture();
    test_window_post_fixture();
    test_worked_2kib();
    test_snap_partitions();
    test_direct_formulas();
    return check_summary("filecoin_challenges");
}
