/* SnapDeals PartitionProof bincode (docs/formats.md#snapdeals-partitionproof) on constructed
 * proofs of the registered shapes (structurally valid, random values): the byte sizes of the
 * size formula (2 KiB 15,064 ... 32 GiB 561,768), read/write round trips for both variants
 * and every size, and refusal of bad input with the field and byte offset: every strict
 * prefix, patched counts, a non-canonical apex leaf, a wrong tag, a trailing byte, the other
 * variant's bytes. Real SnapDeals vanilla proofs are not in the fixtures yet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/snap/vanilla.h"
#include "filecoin/testkit/synthetic.h"

/* docs/formats.md#snapdeals-partitionproof: 48 + 32 A + Ch (2 R + Dp). */
static const size_t SIZES[FC_SIZE_COUNT] = {15064, 43864, 453064, 561768, 575528};
/* docs/formats.md#merkleproof tree R proof sizes, for the Poseidon variant: 40 + Ch·P x 3 R. */
static const size_t TREE_R[FC_SIZE_COUNT] = {556, 1516, 1996, 2484, 2540};

static void round_trip(const fc_snap_proof *up, bool poseidon)
{
    const char *v = poseidon ? "Poseidon" : "SHA-256";
    fc_snap_partition_proof p, back;
    cuzk_error err = {0};
    CHECK(fc_snap_synthetic(&p, up, poseidon, 7 + up->id, &err) == CUZK_OK, "synthetic: %s", err.msg);
    uint8_t *b, *b2;
    size_t n, n2;
    CHECK(fc_snap_partition_write(&p, &b, &n, &err) == CUZK_OK, "write");
    size_t want = poseidon ? 40 + (size_t)up->poseidon_challenges * 3 * TREE_R[up->shape->size] : SIZES[up->shape->size];
    CHECK(n == want, "%s %s PartitionProof is %zu bytes, expected %zu", up->shape->name, v, n, want);
    cuzk_status st = fc_snap_partition_read(&back, up->shape, poseidon, b, n, &err);
    CHECK(st == CUZK_OK, "%s %s read: %s", up->shape->name, v, err.msg);
    if (st == CUZK_OK) {
        CHECK(back.poseidon == poseidon && back.napex == (poseidon ? 0 : up->apex_leaves) &&
                  back.nchallenges == (poseidon ? up->poseidon_challenges : up->challenges),
              "%s %s counts", up->shape->name, v);
        CHECK(fc_snap_partition_write(&back, &b2, &n2, &err) == CUZK_OK && n2 == n && !memcmp(b, b2, n),
              "%s %s round trip", up->shape->name, v);
        free(b2);
        for (uint32_t i = 0; i < back.nchallenges; i++)
            if (fc_merkle_proof_node(&back.challenges[i].d_new) != fc_merkle_proof_node(&p.challenges[i].d_new) ||
                !fc_merkle_proof_has_shape(&back.challenges[i].d_new, poseidon ? 8 : 2,
                                           poseidon ? up->shape->base_levels : up->shape->log2_nodes,
                                           poseidon ? up->shape->sub_arity : 0, poseidon ? up->shape->top_arity : 0)) {
                CHECK(0, "%s %s challenge %u tree D_new proof", up->shape->name, v, i);
                break;
            }
        fc_snap_partition_free(&back);
    }
    /* the other variant's bytes are refused */
    st = fc_snap_partition_read(&back, up->shape, !poseidon, b, n, &err);
    CHECK(st == CUZK_E_FORMAT, "%s %s read as the other variant: %s", up->shape->name, v, err.msg);
    free(b);
    fc_snap_partition_free(&p);
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void expect_refused(const uint8_t *orig, size_t len, size_t at, const void *patch, size_t plen,
                           cuzk_status code, const char *frag1, const char *frag2)
{
    const fc_sector_shape *s2 = fc_sector_shape_of(FC_SIZE_2KIB);
    uint8_t *b = malloc(len + 1);
    memcpy(b, orig, len);
    memcpy(b + at, patch, plen);
    size_t n = at + plen > len ? at + plen : len;
    fc_snap_partition_proof p;
    cuzk_error err = {0};
    cuzk_status st = fc_snap_partition_read(&p, s2, false, b, n, &err);
    CHECK(st == code && strstr(err.msg, frag1) && (!frag2 || strstr(err.msg, frag2)),
          "patch at %zu: got %s '%s', expected %s '%s'", at, cuzk_status_name(st), err.msg, cuzk_status_name(code),
          frag1);
    CHECK(p.challenges == NULL && p.apex == NULL, "refused output is zeroed");
    free(b);
}

static void test_bad_input(void)
{
    const fc_snap_proof *up;
    cuzk_error err = {0};
    fc_snap_proof_get(0, &up, &err);
    fc_snap_partition_proof p;
    uint8_t *b = NULL;
    size_t n = 0;
    CHECK(fc_snap_synthetic(&p, up, false, 99, &err) == CUZK_OK && fc_snap_partition_write(&p, &b, &n, &err) == CUZK_OK,
          "2KiB proof");
    fc_snap_partition_free(&p);
    if (!b)
        return;
    unsigned bad = 0;
    for (size_t k = 0; k < n; k++) {
        cuzk_status st = fc_snap_partition_read(&p, up->shape, false, b, k, &err);
        if (st != CUZK_E_FORMAT || !strstr(err.msg, "byte offset") || p.challenges) {
            if (bad++ < 5)
                CHECK(0, "prefix %zu: %s '%s'", k, cuzk_status_name(st), err.msg);
        }
    }
    CHECK(bad == 0, "%u of %zu prefixes not refused", bad, n);
    uint8_t big[8], ff[32], tag1[4] = {1};
    put64(big, 1ull << 40);
    memset(ff, 0xff, sizeof ff);
    /* comm_c 32, apex count at 32, 8 apex leaves, challenge count at 296, then per challenge
     * proof_r_old (556 bytes for 2 KiB), proof_d_new (364), proof_r_new */
    expect_refused(b, n, 32, big, 8, CUZK_E_FORMAT, "apex_leafs at byte offset 32", "expected 8");
    expect_refused(b, n, 296, big, 8, CUZK_E_FORMAT, "challenge_proofs at byte offset 296", "expected 10");
    expect_refused(b, n, 0, ff, 32, CUZK_E_FIELD_NONCANONICAL, "comm_c at byte offset 0", NULL);
    expect_refused(b, n, 40 + 32 * 3, ff, 32, CUZK_E_FIELD_NONCANONICAL, "apex_leafs[3] at byte offset 136", NULL);
    expect_refused(b, n, 304 + 556, tag1, 4, CUZK_E_FORMAT,
                   "challenge_proofs[0].proof_d_new.data at byte offset 860", "tag 1 (Sub), expected 0 (Single)");
    expect_refused(b, n, 304 + 556 + 4 + 64 + 8 + 48 + 40, big, 8, CUZK_E_FORMAT,
                   "proof_d_new.data.Single.path.path[1].index at byte offset 1024", "expected 0..1");
    expect_refused(b, n, n, "", 1, CUZK_E_FORMAT, "1 trailing bytes", NULL);
    free(b);
}

int main(void)
{
    for (unsigned id = 0; id < FC_SNAP_PROOF_COUNT; id++) {
        const fc_snap_proof *up;
        cuzk_error err = {0};
        CHECK(fc_snap_proof_get(id, &up, &err) == CUZK_OK, "update proof %u", id);
        round_trip(up, false);
        round_trip(up, true);
    }
    test_bad_input();
    return check_summary("filecoin SnapDeals vanilla");
}
