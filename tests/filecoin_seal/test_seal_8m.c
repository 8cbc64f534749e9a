/* The strongest oracle: shared/fixtures/porep-8MiB-c1.bincode, a C1 output the reference made
 * for a real 8 MiB CC sector (StackedDrg8MiBV1_1, fixtures/README.md). Sealing an all-zero
 * 8 MiB sector with its prover_id, sector_id, ticket and porep_id must give exactly its
 * comm_d, comm_c, comm_r_last and comm_r; C1 with its seed must give the file byte for byte
 * (C2Input::V0 bincode), and our JSON of it must read back to the same bincode.
 * The inputs are taken from the file's tail by offset (README layout: ... comm_r, comm_d,
 * replica_id, seed, ticket, prover_id, u64 sector_id), not through our reader.
 * Usage: test_fc_seal_8m <fixtures dir> <temporary dir>. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/file_io.h"
#include "filecoin/porep/vanilla.h"
#include "filecoin/porep/porep.h"
#include "filecoin/testkit/c1_gen.h"
#include "filecoin/testkit/seal.h"

static bool eq_hex(const uint8_t b[32], const char *hex)
{
    uint8_t want[32];
    return hex_decode(want, 32, hex) == 32 && !memcmp(b, want, 32);
}

static void progress(void *ctx, const char *phase, double seconds)
{
    printf("8 MiB seal (%s): %s %.2f s\n", (const char *)ctx, phase, seconds);
}

static void run(const cuzk_mapped_file *f, const char *dir, unsigned threads)
{
    const uint8_t *end = f->data + f->len;
    const uint8_t *comm_r = end - 8 - 6 * 32, *comm_d = end - 8 - 5 * 32, *replica_id = end - 8 - 4 * 32;
    const uint8_t *seed = end - 8 - 3 * 32, *ticket = end - 8 - 2 * 32, *prover_id = end - 8 - 32;
    uint64_t sector_id = 0;
    for (int i = 7; i >= 0; i--)
        sector_id = sector_id << 8 | end[-8 + i];
    CHECK(sector_id == 1498, "fixture sector_id %llu", (unsigned long long)sector_id);

    fc_seal_params p = {.sector_id = sector_id, .dir = dir, .threads = threads, .progress = progress,
                        .progress_ctx = (void *)(dir ? "files" : "memory")};
    cuzk_error e = {0};
    fc_seal_proof_get(6, &p.proof, &e);
    memcpy(p.prover_id, prover_id, 32);
    memcpy(p.ticket, ticket, 32);
    fc_sector s;
    if (fc_seal(&s, &p, &e) != CUZK_OK) {
        CHECK(false, "seal: %s", e.msg);
        return;
    }
    CHECK(!memcmp(s.comm_d, comm_d, 32) &&
              eq_hex(s.comm_d, "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c"),
          "comm_d");
    CHECK(!memcmp(s.replica_id, replica_id, 32), "replica_id");
    CHECK(eq_hex(s.comm_c, "01d00021aca26b8f788e89cc1c79eada64bf716c00b710270437662cb315df02"), "comm_c");
    CHECK(eq_hex(s.comm_r_last, "4e58431b0fbc7737b0e8e21f73f3f7861ae061c808f96a5dae23c79bfd4e715f"), "comm_r_last");
    CHECK(!memcmp(s.comm_r, comm_r, 32) &&
              eq_hex(s.comm_r, "7c990c5ee4d86658bf25a7acc38592559d6bde484b733719235bfa36ad69bd4b"),
          "comm_r");

    fc_porep_view v;
    fc_sector_porep_view(&s, &v);
    fc_c1_output c1 = {0}, back = {0};
    CHECK(fc_c1_generate(&v, seed, &c1, &e) == CUZK_OK, "C1: %s", e.msg);
    CHECK(fc_c1_validate(&c1, &e) == CUZK_OK, "C1 self-check: %s", e.msg);
    uint8_t *bin = NULL, *json = NULL, *bin2 = NULL;
    size_t blen = 0, jlen = 0, b2len = 0;
    CHECK(fc_c1_write(&c1, FC_C1_BINCODE_C2IN, &bin, &blen, &e) == CUZK_OK, "C2Input: %s", e.msg);
    CHECK(blen == f->len && !memcmp(bin, f->data, blen), "C2Input bincode equals the fixture byte for byte (%zu vs %zu)",
          blen, f->len);
    if (blen == f->len)
        for (size_t i = 0; i < blen; i++)
            if (bin[i] != f->data[i]) {
                printf("first difference at byte %zu\n", i);
                break;
            }
    CHECK(fc_c1_write(&c1, FC_C1_JSON, &json, &jlen, &e) == CUZK_OK, "JSON: %s", e.msg);
    CHECK(fc_c1_read(&back, json, jlen, FC_C1_JSON, false, &e) == CUZK_OK, "JSON read: %s", e.msg);
    back.has_sector = true;
    memcpy(back.prover_id, prover_id, 32);
    back.sector_id = sector_id;
    CHECK(fc_c1_write(&back, FC_C1_BINCODE_C2IN, &bin2, &b2len, &e) == CUZK_OK && b2len == f->len &&
              !memcmp(bin2, f->data, b2len),
          "JSON -> reader -> bincode writer gives the fixture");
    free(bin);
    free(bin2);
    free(json);
    fc_c1_free(&c1);
    fc_c1_free(&back);
    fc_sector_free(&s);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_fc_seal_8m <fixtures dir> <temporary dir>\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/porep-8MiB-c1.bincode", argv[1]);
    cuzk_mapped_file f;
    cuzk_error e = {0};
    if (cuzk_file_map(&f, path, &e) != CUZK_OK) {
        CHECK(false, "%s", e.msg);
        return check_summary("filecoin seal 8MiB fixture");
    }
    CHECK(f.len == 60172, "fixture size");
    run(&f, NULL, 2);
    run(&f, argv[2], 1);
    cuzk_file_unmap(&f);
    return check_summary("filecoin seal 8MiB fixture");
}
