/* Seed corpus for the vanilla-proof fuzz targets: writes, under <dir>,
 *   c1_json/     a synthetic 2 KiB C1 as serde JSON and in Curio's envelope, a blob list
 *   c1_bincode/  the same C1 as bare and C2Input bincode, and a link to the real 8 MiB C1
 *   post/        synthetic 2 KiB WindowPoSt / WinningPoSt proofs, a link to the real 32 GiB one
 *   snap/        synthetic 2 KiB SnapDeals PartitionProofs (both variants)
 * (synthetic = filecoin/testkit/synthetic.h: right shapes, random canonical values). The real
 * fixtures are linked, not copied. Built by the ordinary build; run by fuzz/run_short.sh.
 * Usage: gen_vanilla_seeds <dir> <fixtures dir>. Exit 0 on success. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filecoin/porep/vanilla.h"
#include "filecoin/post/vanilla.h"
#include "filecoin/snap/vanilla.h"
#include "filecoin/core/vanilla.h"
#include "filecoin/testkit/synthetic.h"

static const char *DIR_;

static int put(const char *sub, const char *name, uint8_t *b, size_t n, cuzk_status st, const cuzk_error *err)
{
    char path[4096];
    if (st) {
        fprintf(stderr, "gen_vanilla_seeds: %s/%s: %s\n", sub, name, err->msg);
        return 1;
    }
    snprintf(path, sizeof path, "%s/%s", DIR_, sub);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/%s", DIR_, sub, name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(b, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = 0;
    free(b);
    if (!ok)
        fprintf(stderr, "gen_vanilla_seeds: cannot write %s: %s\n", path, strerror(errno));
    return ok ? 0 : 1;
}

/* Link a fixture (if present) into a seed folder. */
static void link_fixture(const char *fixtures, const char *file, const char *sub)
{
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/%s", fixtures, file);
    snprintf(to, sizeof to, "%s/%s/%s", DIR_, sub, file);
    if (access(from, R_OK) == 0) {
        unlink(to);
        if (symlink(from, to) != 0)
            fprintf(stderr, "gen_vanilla_seeds: cannot link %s: %s\n", to, strerror(errno));
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gen_vanilla_seeds <dir> <fixtures dir>\n");
        return 2;
    }
    DIR_ = argv[1];
    mkdir(DIR_, 0755);
    cuzk_error err = {0};
    const fc_seal_proof *rp;
    const fc_snap_proof *up;
    const fc_sector_shape *s2 = fc_sector_shape_of(FC_SIZE_2KIB);
    fc_seal_proof_get(5, &rp, &err); /* StackedDrg2KiBV1_1 */
    fc_snap_proof_get(0, &up, &err);
    fc_c1_output c1;
    if (fc_c1_synthetic(&c1, rp, 1, &err)) {
        fprintf(stderr, "gen_vanilla_seeds: %s\n", err.msg);
        return 1;
    }
    uint8_t *b;
    size_t n;
    int bad = 0;
    cuzk_status st = fc_c1_write(&c1, FC_C1_JSON, &b, &n, &err);
    bad |= put("c1_json", "c1-2k.json", b, n, st, &err);
    st = fc_c1_write(&c1, FC_C1_ENVELOPE, &b, &n, &err);
    bad |= put("c1_json", "c1-2k.envelope.json", b, n, st, &err);
    uint8_t *blobs[2] = {(uint8_t *)"\x00\x01\x02", (uint8_t *)"vanilla"};
    size_t lens[2] = {3, 7};
    fc_blob_list bl = {2, blobs, lens};
    st = fc_blob_list_to_json(&bl, &b, &n, &err);
    bad |= put("c1_json", "blobs.json", b, n, st, &err);
    st = fc_c1_write(&c1, FC_C1_BINCODE, &b, &n, &err);
    bad |= put("c1_bincode", "c1-2k.bin", b, n, st, &err);
    st = fc_c1_write(&c1, FC_C1_BINCODE_C2IN, &b, &n, &err);
    bad |= put("c1_bincode", "c2in-2k.bin", b, n, st, &err);
    fc_c1_free(&c1);
    link_fixture(argv[2], "porep-8MiB-c1.bincode", "c1_bincode");

    for (int winning = 0; winning < 2; winning++) {
        fc_post_vanilla v;
        st = fc_post_synthetic(&v, s2, winning ? 66 : 10, 2, &err);
        if (!st)
            st = fc_post_vanilla_write(&v, &b, &n, &err);
        bad |= put("post", winning ? "winning-2k.bin" : "window-2k.bin", b, n, st, &err);
        fc_post_vanilla_free(&v);
    }
    link_fixture(argv[2], "window-post-32GiB-sector1.vproof", "post");

    for (int poseidon = 0; poseidon < 2; poseidon++) {
        fc_snap_partition_proof p;
        st = fc_snap_synthetic(&p, up, poseidon, 3, &err);
        if (!st)
            st = fc_snap_partition_write(&p, &b, &n, &err);
        bad |= put("snap", poseidon ? "snap-poseidon-2k.bin" : "snap-2k.bin", b, n, st, &err);
        fc_snap_partition_free(&p);
    }
    return bad;
}
