/* The real 32 GiB WindowPoSt vanilla proof (shared/fixtures/window-post-32GiB-sector1.vproof,
 * made by rust-fil-proofs through Curio; fixtures/README.md): parsed, its challenges
 * re-derived (RegisteredPoStProof 8, randomness 0, sector 1, miner 1000) and equal to the
 * README's list, the partition assembled and validated, the one-sector, 10-challenge
 * FallbackPoSt circuit satisfied in CS_CHECK with public inputs equal to comm_r (the sealed
 * CID's digest) and those leaves; tampered requests refused with a located error. With the
 * argument "long": the full 2,349-sector padded partition in CS_CHECK (125 M constraints). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/file_io.h"
#include "filecoin/post/post.h"

static const uint64_t LEAVES[10] = {707914199,  439148358, 967788220, 548708700, 1061661429,
                                    6202012,    1055504637, 389535735, 1000069704, 600088878};
static const char COMM_R[] = "df691086e3c673c95a45908713d4c5938e5ced43f21b888bd9bc6e181c9f326b";

static const uint8_t *blob;
static size_t blob_len;

static cuzk_status assemble(fc_post_partition *part, unsigned id, const uint8_t rand[32], uint32_t k,
                            const uint8_t *data, cuzk_error *e)
{
    const fc_post_proof *p;
    fc_post_proof_get(id, &p, e);
    const uint8_t *blobs[1] = {data};
    size_t lens[1] = {blob_len};
    return fc_post_partition_from_bytes(part, p, rand, 1000, k, blobs, lens, 1, e);
}

static void one_sector(const fc_post_partition *part)
{
    /* the circuit for this one sector: the 32 GiB tree, 1 sector, 10 challenges */
    fc_post_shape s = part->shape;
    s.sector_count = 1;
    cs_t cs;
    cuzk_error e;
    cs_init(&cs, CS_CHECK, 0);
    cuzk_status st = fc_post_synthesize(&cs, &s, part->sectors, part->nsectors, &e);
    CHECK(st == CUZK_OK, "synthesis: %s", st ? e.msg : "");
    uint64_t bad;
    char name[256];
    CHECK(cs_check_satisfied(&cs, &bad, name, sizeof name), "one-sector circuit satisfied (first failure %llu %s)",
          (unsigned long long)bad, name);
    /* docs/circuits.md#formulas: 1 + 311 + 1 + 10 · 5,302 */
    CHECK(cs.num_constraints == 53333 && cs.num_inputs == 12, "%llu constraints, %llu inputs",
          (unsigned long long)cs.num_constraints, (unsigned long long)cs.num_inputs);
    fr_t *in, *aux;
    uint64_t nin, naux;
    CHECK(cs_take_witness(&cs, &in, &nin, &aux, &naux) == CUZK_OK, "witness");
    uint8_t comm_r[32], b[32];
    hex_decode(comm_r, 32, COMM_R);
    fr_to_bytes_le(b, &in[1]);
    bool ok = !memcmp(b, comm_r, 32);
    for (int n = 0; n < 10; n++) {
        fr_t want;
        fr_from_u64(&want, LEAVES[n]);
        ok &= fr_eq(&in[2 + n], &want);
    }
    CHECK(ok, "circuit inputs: comm_r of the sealed CID and the 10 challenged leaves");
    /* fc_post_public_inputs (public data only): the same 11 values, then padding repeats them */
    size_t np = fc_post_public_input_count(part->proof);
    fr_t *pub = malloc(np * sizeof *pub);
    CHECK(np == 25839 && fc_post_partition_public_inputs(part, pub, &e) == CUZK_OK, "public inputs: %zu", np);
    ok = true;
    for (size_t i = 0; i < np; i++)
        ok &= fr_eq(&pub[i], &in[1 + i % 11]);
    CHECK(ok, "public inputs = circuit inputs of sector 0, repeated over the 2,349 circuit sectors");
    fc_post_public_sector ps = {1, {0}};
    memcpy(ps.comm_r, comm_r, 32);
    uint8_t zero[32] = {0};
    CHECK(fc_post_public_inputs(part->proof, zero, 0, &ps, 1, pub, &e) == CUZK_OK && fr_eq(&pub[25838], &in[11]),
          "public inputs from (sector id, comm_r) alone");
    free(pub);
    free(in);
    free(aux);
    cs_free(&cs);
}

static void refusals(void)
{
    uint8_t rand[32] = {0}, *t = malloc(blob_len);
    fc_post_partition part;
    cuzk_error e;
    /* API 1.0 (id 8): partition 1 changes every challenge_index */
    CHECK(assemble(&part, 8, rand, 1, blob, &e) == CUZK_E_VERIFY_FAILED &&
              strstr(e.msg, "vanilla proof 0 (sector 1) inclusion proof 0: leaf index 707914199, the challenge is"),
          "k = 1 refused for API 1.0: %s", e.msg);
    /* API 1.2 (id 13): challenge_index = n whatever k; with randomness 0 they are the same */
    CHECK(assemble(&part, 13, rand, 1, blob, &e) == CUZK_OK && part.k == 1, "k = 1 accepted for API 1.2: %s", e.msg);
    fc_post_partition_free(&part);
    rand[0] = 1;
    CHECK(assemble(&part, 8, rand, 0, blob, &e) == CUZK_E_VERIFY_FAILED && strstr(e.msg, "inclusion proof 0"),
          "other randomness refused: %s", e.msg);
    memset(rand, 0xff, 32);
    CHECK(assemble(&part, 8, rand, 0, blob, &e) == CUZK_E_FIELD_NONCANONICAL && strstr(e.msg, "randomness"),
          "non-canonical randomness refused: %s", e.msg);
    memset(rand, 0, 32);
    /* comm_r (byte 8) */
    memcpy(t, blob, blob_len);
    t[8] ^= 1;
    CHECK(assemble(&part, 8, rand, 0, t, &e) == CUZK_E_VERIFY_FAILED && strstr(e.msg, "comm_r is"),
          "tampered comm_r refused: %s", e.msg);
    /* a sibling of inclusion proof 3, level 0 (docs/formats.md#fallbackpostsectorproof
     * offsets: 56 + 3 · 2,484 + 20) */
    memcpy(t, blob, blob_len);
    t[56 + 3 * 2484 + 20] ^= 1;
    CHECK(assemble(&part, 8, rand, 0, t, &e) == CUZK_E_VERIFY_FAILED &&
              strstr(e.msg, "inclusion proof 3: path hashes to"),
          "tampered sibling refused: %s", e.msg);
    /* comm_r_last (offset 24,928): the roots no longer match */
    memcpy(t, blob, blob_len);
    t[24928] ^= 1;
    CHECK(assemble(&part, 8, rand, 0, t, &e) == CUZK_E_VERIFY_FAILED, "tampered comm_r_last refused: %s", e.msg);
    /* the 2 KiB proof type cannot read a 32 GiB proof; winning needs 66 challenges */
    CHECK(assemble(&part, 5, rand, 0, blob, &e) != CUZK_OK && strstr(e.msg, "vanilla_proofs[0]"),
          "2 KiB type refused: %s", e.msg);
    CHECK(assemble(&part, 3, rand, 0, blob, &e) == CUZK_E_FORMAT && strstr(e.msg, "10 inclusion proofs, expected 66"),
          "winning with 10 challenges refused: %s", e.msg);
    free(t);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_post_fixture <fixtures dir> [long]\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/window-post-32GiB-sector1.vproof", argv[1]);
    cuzk_error e;
    cuzk_mapped_file f;
    CHECK(cuzk_file_map(&f, path, &e) == CUZK_OK && f.len == 24960, "read %s", path);
    if (!f.data)
        return check_summary("post_fixture");
    blob = f.data;
    blob_len = f.len;
    uint8_t rand[32] = {0};
    fc_post_partition part;
    cuzk_status st = assemble(&part, 8, rand, 0, blob, &e);
    CHECK(st == CUZK_OK, "assembled and validated: %s", st ? e.msg : "");
    if (st == CUZK_OK) {
        CHECK(part.nsectors == 1 && part.npublic == 1 && part.public_sectors[0].sector_id == 1 &&
                  part.shape.sector_count == 2349 && part.shape.challenge_count == 10,
              "one supplied sector, 2,349 circuit sectors");
        one_sector(&part);
        if (argc > 2 && !strcmp(argv[2], "long")) {
            cs_t cs;
            cs_init(&cs, CS_CHECK, 0);
            st = fc_post_partition_synthesize(&cs, &part, &e);
            uint64_t bad;
            char name[256];
            CHECK(st == CUZK_OK && cs_check_satisfied(&cs, &bad, name, sizeof name) &&
                      cs.num_constraints == 125279217 && cs.num_inputs == 25840,
                  "full padded partition satisfied: %s, %llu constraints", st ? e.msg : "",
                  (unsigned long long)cs.num_constraints);
            cs_free(&cs);
        }
        fc_post_partition_free(&part);
    }
    refusals();
    cuzk_file_unmap(&f);
    return check_summary(argc > 2 ? "post_fixture_long" : "post_fixture");
}
