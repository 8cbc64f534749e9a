/* FallbackPoStSectorProof bincode against the real 32 GiB WindowPoSt vanilla proof
 * (shared/fixtures/window-post-32GiB-sector1.vproof, README values) and the sizes of
 * docs/formats.md#fallbackpostsectorproof: parse, known values, every path recomputes comm_r_last,
 * Poseidon_2(comm_c, comm_r_last) = comm_r, byte-identical re-serialisation; every strict
 * prefix, patched length prefixes, a non-canonical value, bad tags and indices refused with
 * the documented offsets. Usage: test_fc_post <fixtures dir>. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/file_io.h"
#include "field/fr.h"
#include "filecoin/post/vanilla.h"
#include "filecoin/testkit/synthetic.h"
#include "gadgets/poseidon.h"

static const uint64_t CHALLENGES[10] = {707914199, 439148358, 967788220, 548708700, 1061661429,
                                        6202012,   1055504637, 389535735, 1000069704, 600088878};

static bool hex_is(const uint8_t *b, const char *hex)
{
    uint8_t want[32];
    long n = hex_decode(want, sizeof want, hex);
    return n > 0 && !memcmp(b, want, (size_t)n);
}

static bool hex_ends(const uint8_t *b, const char *hex)
{
    uint8_t want[32];
    long n = hex_decode(want, sizeof want, hex);
    return n > 0 && !memcmp(b + 32 - n, want, (size_t)n);
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static const fc_sector_shape *S32;

/* Read a patched copy of the fixture; expect `code` and every fragment in the message. */
static void expect_refused(const uint8_t *orig, size_t len, size_t at, const uint8_t *patch, size_t plen,
                           cuzk_status code, const char *frag1, const char *frag2)
{
    uint8_t *b = malloc(len);
    memcpy(b, orig, len);
    memcpy(b + at, patch, plen);
    fc_post_vanilla v;
    cuzk_error err = {0};
    cuzk_status st = fc_post_vanilla_read(&v, S32, b, len, &err);
    CHECK(st == code && strstr(err.msg, frag1) && (!frag2 || strstr(err.msg, frag2)),
          "patch at %zu: got %s '%s', expected %s with '%s'", at, cuzk_status_name(st), err.msg,
          cuzk_status_name(code), frag1);
    CHECK(v.sectors == NULL && v.nsectors == 0, "refused output is zeroed");
    free(b);
}

static void test_fixture(const uint8_t *data, size_t len)
{
    fc_post_vanilla v;
    cuzk_error err = {0};
    cuzk_status st = fc_post_vanilla_read(&v, S32, data, len, &err);
    CHECK(st == CUZK_OK, "read: %s", err.msg);
    if (st)
        return;
    CHECK(v.sector_id == 1, "sector_id %llu", (unsigned long long)v.sector_id);
    CHECK(hex_is(v.comm_r, "df691086e3c673c95a45908713d4c5938e5ced43f21b888bd9bc6e181c9f326b"), "comm_r");
    CHECK(v.nsectors == 1 && v.sectors[0].ninclusion == 10, "1 sector x 10 inclusion proofs");
    const fc_post_sector_proof *sp = &v.sectors[0];
    CHECK(hex_is(sp->comm_c, "9941e59d") && hex_ends(sp->comm_c, "b94e"), "comm_c prefix/suffix");
    CHECK(hex_is(sp->comm_r_last, "f56b7f7f") && hex_ends(sp->comm_r_last, "9e4b"), "comm_r_last prefix/suffix");
    for (unsigned i = 0; i < sp->ninclusion && i < 10; i++) {
        const fc_merkle_proof *p = &sp->inclusion[i];
        CHECK(p->kind == FC_MP_SUB && fc_merkle_proof_has_shape(p, 8, 9, 8, 0), "proof %u: Sub 8-8-0", i);
        CHECK(fc_merkle_proof_node(p) == CHALLENGES[i], "proof %u node %llu", i,
              (unsigned long long)fc_merkle_proof_node(p));
        CHECK(!memcmp(p->root, sp->comm_r_last, 32), "proof %u root = comm_r_last", i);
        CHECK(fc_merkle_proof_verify(p, MERKLE_POSEIDON, "inclusion", &err) == CUZK_OK, "proof %u path: %s", i,
              err.msg);
    }
    /* comm_r = Poseidon_2(comm_c, comm_r_last) with the MerkleTree tag */
    fr_t in[2], tag, out, want;
    fr_from_bytes_le(&in[0], sp->comm_c);
    fr_from_bytes_le(&in[1], sp->comm_r_last);
    fr_from_bytes_le(&want, v.comm_r);
    poseidon_tag_merkle(2, &tag);
    CHECK(poseidon_hash(2, &tag, in, &out, &err) == CUZK_OK && fr_eq(&out, &want), "Poseidon_2(comm_c, comm_r_last)");

    uint8_t *re;
    size_t relen;
    CHECK(fc_post_vanilla_write(&v, &re, &relen, &err) == CUZK_OK, "write: %s", err.msg);
    CHECK(relen == len && !memcmp(re, data, len), "re-serialisation is byte-identical (%zu bytes)", relen);
    free(re);
    fc_post_vanilla_free(&v);
    CHECK(v.sectors == NULL, "free zeroes");

    /* other sizes expect other tags / path lengths */
    st = fc_post_vanilla_read(&v, fc_sector_shape_of(FC_SIZE_8MIB), data, len, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "byte offset 56") && strstr(err.msg, "tag 1 (Sub), expected 0"),
          "8MiB shape: %s", err.msg);
    st = fc_post_vanilla_read(&v, fc_sector_shape_of(FC_SIZE_64GIB), data, len, &err);
    /* 10 Top proofs (2,540 bytes each) do not fit in what is left */
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "inclusion_proofs at byte offset 48") &&
              strstr(err.msg, "2540 bytes per item"),
          "64GiB shape: %s", err.msg);
}

/* JSON text where a bincode proof belongs (a C1 given to post) is named as JSON; a binary
 * proof whose first byte is '{' (sector id 123) still reads. */
static void test_json_text(const uint8_t *data, size_t len)
{
    static const char c1[] = "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{}}";
    fc_post_vanilla v;
    cuzk_error err = {0};
    cuzk_status st = fc_post_vanilla_read(&v, S32, (const uint8_t *)c1, sizeof c1 - 1, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "PoSt vanilla proof is bincode, but the bytes are JSON text"),
          "C1 JSON given as a PoSt proof: %s '%s'", cuzk_status_name(st), err.msg);
    uint8_t *b = malloc(len);
    memcpy(b, data, len);
    b[0] = '{';
    st = fc_post_vanilla_read(&v, S32, b, len, &err);
    CHECK(st == CUZK_OK && v.sector_id == 123, "a proof of sector 123 (first byte '{'): %s '%s'",
          cuzk_status_name(st), err.msg);
    if (st == CUZK_OK)
        fc_post_vanilla_free(&v);
    free(b);
}

static void test_robustness(const uint8_t *data, size_t len)
{
    /* every strict prefix */
    unsigned bad = 0;
    for (size_t n = 0; n < len; n++) {
        fc_post_vanilla v;
        cuzk_error err = {0};
        cuzk_status st = fc_post_vanilla_read(&v, S32, data, n, &err);
        if (st != CUZK_E_FORMAT || !strstr(err.msg, "byte offset") || v.sectors) {
            if (bad++ < 5)
                CHECK(0, "prefix %zu: %s '%s'", n, cuzk_status_name(st), err.msg);
            fc_post_vanilla_free(&v);
        }
    }
    CHECK(bad == 0, "%u of %zu prefixes not refused with FORMAT", bad, len);
    /* a trailing byte */
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, data, len);
    longer[len] = 0;
    fc_post_vanilla v;
    cuzk_error err = {0};
    CHECK(fc_post_vanilla_read(&v, S32, longer, len + 1, &err) == CUZK_E_FORMAT &&
              strstr(err.msg, "1 trailing bytes") && strstr(err.msg, "byte offset 24960"),
          "trailing byte: %s", err.msg);
    free(longer);

    uint8_t big[8], ff[32], three[4] = {3, 0, 0, 0}, eight[8];
    put64(big, 1ull << 40);
    put64(eight, 8);
    memset(ff, 0xff, sizeof ff);
    /* length prefixes claiming 2^40 items: refused before anything is allocated */
    expect_refused(data, len, 40, big, 8, CUZK_E_FORMAT, "vanilla_proof.sectors at byte offset 40",
                   "Vec length 1099511627776 needs");
    expect_refused(data, len, 48, big, 8, CUZK_E_FORMAT, "inclusion_proofs at byte offset 48", "1099511627776");
    expect_refused(data, len, 60, big, 8, CUZK_E_FORMAT, "data.Sub.base_proof.path at byte offset 60",
                   "expected 9");
    expect_refused(data, len, 68, big, 8, CUZK_E_FORMAT, "base_proof.path[0].hashes at byte offset 68",
                   "expected 7");
    /* non-canonical values */
    expect_refused(data, len, 8, ff, 32, CUZK_E_FIELD_NONCANONICAL, "comm_r at byte offset 8", "canonical");
    expect_refused(data, len, 76 + 32 * 3, ff, 32, CUZK_E_FIELD_NONCANONICAL,
                   "inclusion_proofs[0].data.Sub.base_proof.path[0].hashes[3] at byte offset 172", NULL);
    expect_refused(data, len, 24896, ff, 32, CUZK_E_FIELD_NONCANONICAL, "comm_c at byte offset 24896", NULL);
    expect_refused(data, len, 24928, ff, 32, CUZK_E_FIELD_NONCANONICAL, "comm_r_last at byte offset 24928", NULL);
    /* bad tag, index out of range */
    expect_refused(data, len, 56, three, 4, CUZK_E_FORMAT, "MerkleProof tag 3", "byte offset 56");
    expect_refused(data, len, 300, eight, 8, CUZK_E_FORMAT, "path[0].index at byte offset 300", "expected 0..7");
}

/* Sizes of a single-sector FallbackPoStSectorProof, docs/formats.md#fallbackpostsectorproof. */
static void test_sizes_and_round_trip(void)
{
    static const size_t WINDOW[FC_SIZE_COUNT] = {5680, 15280, 20080, 24960, 25520};
    static const size_t WINNING[FC_SIZE_COUNT] = {36816, 100176, 131856, 164064, 167760};
    for (unsigned sz = 0; sz < FC_SIZE_COUNT; sz++)
        for (int winning = 0; winning < 2; winning++) {
            const fc_sector_shape *sh = fc_sector_shape_of((fc_size_class)sz);
            fc_post_vanilla v, back;
            cuzk_error err = {0};
            CHECK(fc_post_synthetic(&v, sh, winning ? 66 : 10, 100 + sz, &err) == CUZK_OK, "synthetic");
            uint8_t *b, *b2;
            size_t n, n2;
            CHECK(fc_post_vanilla_write(&v, &b, &n, &err) == CUZK_OK, "write");
            CHECK(n == (winning ? WINNING : WINDOW)[sz], "%s %s size %zu", sh->name, winning ? "winning" : "window", n);
            CHECK(fc_post_vanilla_read(&back, sh, b, n, &err) == CUZK_OK, "%s read back: %s", sh->name, err.msg);
            CHECK(fc_post_vanilla_write(&back, &b2, &n2, &err) == CUZK_OK && n2 == n && !memcmp(b, b2, n),
                  "%s round trip", sh->name);
            for (unsigned i = 0; i < back.sectors[0].ninclusion; i++)
                CHECK(fc_merkle_proof_node(&back.sectors[0].inclusion[i]) ==
                          fc_merkle_proof_node(&v.sectors[0].inclusion[i]),
                      "node index survives");
            free(b);
            free(b2);
            fc_post_vanilla_free(&v);
            fc_post_vanilla_free(&back);
        }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_fc_post <fixtures dir>\n");
        return 2;
    }
    S32 = fc_sector_shape_of(FC_SIZE_32GIB);
    char path[4096];
    cuzk_error err = {0};
    cuzk_mapped_file f = {0};
    snprintf(path, sizeof path, "%s/window-post-32GiB-sector1.vproof", argv[1]);
    CHECK(cuzk_file_map(&f, path, &err) == CUZK_OK, "%s", err.msg);
    if (f.data) {
        test_fixture(f.data, f.len);
        test_robustness(f.data, f.len);
        test_json_text(f.data, f.len);
    }
    test_sizes_and_round_trip();
    cuzk_file_unmap(&f);
    return check_summary("filecoin PoSt vanilla");
}
