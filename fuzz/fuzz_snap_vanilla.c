/* libFuzzer target: the SnapDeals PartitionProof bincode reader (src/filecoin/snap/vanilla.h),
 * both variants, every sector size. Properties: no crash / sanitizer report; every rejection
 * names a field and byte offset; an accepted input re-serialises to exactly its bytes.
 * Build: fuzz/CMakeLists.txt. */
#include "filecoin/snap/vanilla.h"
#include "fuzz_vanilla.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (unsigned s = 0; s < FC_SIZE_COUNT; s++)
        for (int poseidon = 0; poseidon < 2; poseidon++) {
            cuzk_error err = {0};
            fc_snap_partition_proof p;
            cuzk_status st =
                fc_snap_partition_read(&p, fc_sector_shape_of((fc_size_class)s), poseidon, data, size, &err);
            fuzz_require_located(st, &err, " at byte offset ", "SnapDeals PartitionProof");
            if (st != CUZK_OK)
                continue;
            uint8_t *out = NULL;
            size_t n = 0;
            st = fc_snap_partition_write(&p, &out, &n, &err);
            fuzz_require_same(st, out, n, data, size, "accepted PartitionProof re-serialises to its bytes");
            free(out);
            fc_snap_partition_free(&p);
        }
    return 0;
}
