/* fc_merkle_proof against real data, with the proofs taken out of the fixtures by the byte
 * offsets their READMEs and docs/formats.md#fallbackpostsectorproof give (no vanilla-format
 * reader involved):
 *   - the 10 tree R_last inclusion proofs of window-post-32GiB-sector1.vproof (Sub, 9 base
 *     levels of arity 8 + 1 sub level): node indices = the README's 10 leaf challenges, every
 *     path recomputes comm_r_last with Poseidon;
 *   - the first tree D proof of porep-8MiB-c1.bincode (Single, 18 binary levels): node 151786,
 *     path recomputes comm_d with SHA-256 (254-bit truncation).
 * Then the failure modes: a changed sibling (VERIFY_FAILED), a non-canonical sibling, copy,
 * to_fr, shapes. Usage: test_fc_merkle_proof <fixtures dir>. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "common/file_io.h"
#include "field/fr.h"
#include "filecoin/core/merkle_proof.h"

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A path of `levels` elements of `arity` at buf: per element u64 count, hashes, u64 index. */
static const uint8_t *take_path(fc_merkle_proof *p, unsigned first_level, unsigned levels, unsigned arity,
                                const uint8_t *buf, size_t *sib_at)
{
    CHECK(rd64(buf) == levels, "path length %llu, expected %u", (unsigned long long)rd64(buf), levels);
    buf += 8;
    for (unsigned l = first_level; l < first_level + levels; l++) {
        CHECK(rd64(buf) == arity - 1, "hashes count");
        buf += 8;
        memcpy(p->sib[*sib_at], buf, 32 * (arity - 1));
        *sib_at += arity - 1;
        buf += 32 * (arity - 1);
        p->index[l] = (uint8_t)rd64(buf);
        buf += 8;
    }
    return buf;
}

static const uint64_t POST_CHALLENGES[10] = {707914199, 439148358, 967788220, 548708700, 1061661429,
                                             6202012,   1055504637, 389535735, 1000069704, 600088878};

static void test_post_paths(const cuzk_mapped_file *f)
{
    CHECK(f->len == 24960, "PoSt fixture is %zu bytes", f->len);
    if (f->len != 24960)
        return;
    const uint8_t *comm_r_last = f->data + 24928;
    cuzk_error err = {0};
    for (int i = 0; i < 10; i++) {
        const uint8_t *b = f->data + 56 + 2484 * i;
        CHECK(rd32(b) == FC_MP_SUB, "proof %d tag %u", i, rd32(b));
        fc_merkle_proof p;
        CHECK(fc_merkle_proof_alloc(&p, 8, 9, 8, 0, &err) == CUZK_OK, "alloc: %s", err.msg);
        CHECK(p.kind == FC_MP_SUB && p.nlevels == 10 && fc_merkle_proof_siblings(&p) == 70, "Sub shape");
        CHECK(fc_merkle_proof_base_levels(&p) == 9, "base levels");
        size_t s = 0;
        b = take_path(&p, 0, 9, 8, b + 4, &s);
        b = take_path(&p, 9, 1, 8, b, &s);
        memcpy(p.root, b, 32);
        memcpy(p.leaf, b + 32, 32);
        CHECK(!memcmp(p.root, comm_r_last, 32), "proof %d root is comm_r_last", i);
        CHECK(fc_merkle_proof_node(&p) == POST_CHALLENGES[i], "proof %d node %llu, README %llu", i,
              (unsigned long long)fc_merkle_proof_node(&p), (unsigned long long)POST_CHALLENGES[i]);
        CHECK(fc_merkle_proof_has_shape(&p, 8, 9, 8, 0) && !fc_merkle_proof_has_shape(&p, 8, 9, 8, 2) &&
                  !fc_merkle_proof_has_shape(&p, 8, 10, 0, 0),
              "has_shape");
        cuzk_status st = fc_merkle_proof_verify(&p, MERKLE_POSEIDON, "post", &err);
        CHECK(st == CUZK_OK, "proof %d recomputes comm_r_last: %s", i, err.msg);

        unsigned idx[FC_MERKLE_MAX_LEVELS];
        fr_t sib[70], leaf, root, want;
        CHECK(fc_merkle_proof_to_fr(&p, "post", idx, sib, &leaf, &root, &err) == CUZK_OK, "to_fr: %s", err.msg);
        fr_from_bytes_le(&want, p.sib[69]);
        CHECK(idx[9] == p.index[9] && fr_eq(&sib[69], &want), "to_fr values");

        if (i == 0) {
            fc_merkle_proof c;
            CHECK(fc_merkle_proof_copy(&c, &p, &err) == CUZK_OK, "copy");
            c.sib[33][5] ^= 1;
            st = fc_merkle_proof_verify(&c, MERKLE_POSEIDON, "changed", &err);
            CHECK(st == CUZK_E_VERIFY_FAILED && strstr(err.msg, "changed: path hashes to"), "changed sibling: %s",
                  err.msg);
            CHECK(fc_merkle_proof_verify(&p, MERKLE_POSEIDON, "post", &err) == CUZK_OK, "copy is deep");
            memset(c.sib[40], 0xff, 32);
            st = fc_merkle_proof_verify(&c, MERKLE_POSEIDON, "nc", &err);
            CHECK(st == CUZK_E_FIELD_NONCANONICAL && strstr(err.msg, "level 5"), "non-canonical sibling: %s",
                  err.msg);
            st = fc_merkle_proof_to_fr(&c, "nc", idx, sib, &leaf, &root, &err);
            CHECK(st == CUZK_E_FIELD_NONCANONICAL && strstr(err.msg, "sibling 5 of level 5"), "to_fr: %s",
                  err.msg);
            fc_merkle_proof_free(&c);
            CHECK(c.sib == NULL && c.nlevels == 0, "free zeroes");
        }
        fc_merkle_proof_free(&p);
    }
}

static void test_tree_d_path(const cuzk_mapped_file *f)
{
    static const uint8_t comm_d[32] = {0x65, 0xf2, 0x9e, 0x5d, 0x98, 0xd2, 0x46, 0xc3, 0x8b, 0x38, 0x8c,
                                       0xfc, 0x06, 0xdb, 0x1f, 0x6b, 0x02, 0x13, 0x03, 0xc5, 0xa2, 0x89,
                                       0x00, 0x0b, 0xdc, 0xe8, 0x32, 0xa9, 0xc3, 0xec, 0x42, 0x1c};
    CHECK(f->len > 1000, "C1 fixture too short");
    if (f->len <= 1000)
        return;
    /* C2Input V0, registered proof, vanilla variant (3 x u32), partitions, challenges (2 x u64),
     * then the first comm_d_proofs: tag, root, leaf, path. */
    const uint8_t *b = f->data + 28;
    CHECK(rd32(b) == FC_MP_SINGLE, "tree D tag");
    cuzk_error err = {0};
    fc_merkle_proof p;
    CHECK(fc_merkle_proof_alloc(&p, 2, 18, 0, 0, &err) == CUZK_OK, "alloc: %s", err.msg);
    memcpy(p.root, b + 4, 32);
    memcpy(p.leaf, b + 36, 32);
    size_t s = 0;
    take_path(&p, 0, 18, 2, b + 68, &s);
    CHECK(!memcmp(p.root, comm_d, 32), "root is the README's comm_d");
    CHECK(fc_merkle_proof_node(&p) == 151786, "tree D node %llu", (unsigned long long)fc_merkle_proof_node(&p));
    CHECK(fc_merkle_proof_verify(&p, MERKLE_SHA256, "tree D", &err) == CUZK_OK, "tree D path: %s", err.msg);
    /* the same bytes hashed with Poseidon do not give the root */
    CHECK(fc_merkle_proof_verify(&p, MERKLE_POSEIDON, "tree D", &err) == CUZK_E_VERIFY_FAILED, "wrong hasher");
    /* a CC tree D is all zero: every sibling equals the running value, so change one */
    p.sib[7][0] ^= 1;
    CHECK(fc_merkle_proof_verify(&p, MERKLE_SHA256, "changed", &err) == CUZK_E_VERIFY_FAILED, "changed sibling");
    p.index[0] = 2;
    CHECK(fc_merkle_proof_verify(&p, MERKLE_SHA256, "bad", &err) == CUZK_E_INVALID_ARG, "index >= arity");
    fc_merkle_proof_free(&p);
}

static void test_shapes(void)
{
    cuzk_error err = {0};
    fc_merkle_proof p;
    CHECK(fc_merkle_proof_alloc(&p, 3, 2, 0, 0, &err) == CUZK_E_INVALID_ARG, "arity 3");
    CHECK(fc_merkle_proof_alloc(&p, 8, 0, 0, 0, &err) == CUZK_E_INVALID_ARG, "no base level");
    CHECK(fc_merkle_proof_alloc(&p, 8, 9, 0, 2, &err) == CUZK_E_INVALID_ARG, "top without sub");
    CHECK(fc_merkle_proof_alloc(&p, 2, 40, 2, 0, &err) == CUZK_E_INVALID_ARG, "too many levels");
    CHECK(fc_merkle_proof_alloc(&p, 8, 9, 8, 2, &err) == CUZK_OK, "64GiB shape");
    CHECK(p.kind == FC_MP_TOP && p.nlevels == 11 && p.arity[10] == 2 && fc_merkle_proof_siblings(&p) == 71,
          "Top shape");
    p.index[9] = 3;
    p.index[10] = 1;
    CHECK(fc_merkle_proof_node(&p) == (1ull << 30) + (3ull << 27), "Top node index");
    fc_merkle_proof_free(&p);
    const fc_sector_shape *s32 = fc_sector_shape_of(FC_SIZE_32GIB);
    merkle_shape d = fc_tree_d_shape(s32), r = fc_tree_r_shape(s32);
    CHECK(d.hasher == MERKLE_SHA256 && d.base_arity == 2 && d.base_levels == 30 && !d.sub_arity, "tree D 32GiB");
    CHECK(r.hasher == MERKLE_POSEIDON && r.base_arity == 8 && r.base_levels == 9 && r.sub_arity == 8 &&
              !r.top_arity,
          "tree R 32GiB");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_fc_merkle_proof <fixtures dir>\n");
        return 2;
    }
    char path[4096];
    cuzk_error err = {0};
    cuzk_mapped_file post = {0}, c1 = {0};
    snprintf(path, sizeof path, "%s/window-post-32GiB-sector1.vproof", argv[1]);
    CHECK(cuzk_file_map(&post, path, &err) == CUZK_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/porep-8MiB-c1.bincode", argv[1]);
    CHECK(cuzk_file_map(&c1, path, &err) == CUZK_OK, "%s", err.msg);
    if (post.data)
        test_post_paths(&post);
    if (c1.data)
        test_tree_d_path(&c1);
    test_shapes();
    cuzk_file_unmap(&post);
    cuzk_file_unmap(&c1);
    return check_summary("filecoin merkle_proof");
}
