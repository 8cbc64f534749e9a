/* libFuzzer target: the FallbackPoStSectorProof bincode reader (src/filecoin/post/vanilla.h) for
 * every sector size. Properties: no crash / sanitizer report; every rejection names a field
 * and byte offset; an accepted input re-serialises to exactly its bytes. Build:
 * fuzz/CMakeLists.txt. */
#include "filecoin/post/vanilla.h"
#include "fuzz_vanilla.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (unsigned s = 0; s < FC_SIZE_COUNT; s++) {
        cuzk_error err = {0};
        fc_post_vanilla v;
        cuzk_status st = fc_post_vanilla_read(&v, fc_sector_shape_of((fc_size_class)s), data, size, &err);
        fuzz_require_located(st, &err, " at byte offset ", "PoSt vanilla proof");
        if (st != CUZK_OK)
            continue;
        uint8_t *out = NULL;
        size_t n = 0;
        st = fc_post_vanilla_write(&v, &out, &n, &err);
        fuzz_require_same(st, out, n, data, size, "accepted PoSt proof re-serialises to its bytes");
        free(out);
        fc_post_vanilla_free(&v);
    }
    return 0;
}
