/* libFuzzer target: the C1 output bincode readers (bare SealCommitPhase1Output and the
 * C2Input::V0 wrapper, src/filecoin/porep/vanilla.h). Properties: no crash / sanitizer report;
 * every rejection names a field and byte offset; an accepted input re-serialises to exactly
 * its bytes, and fc_c1_detect names the form that accepted it. Build: fuzz/CMakeLists.txt. */
#include "filecoin/porep/vanilla.h"
#include "fuzz_vanilla.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const fc_c1_format forms[2] = {FC_C1_BINCODE_C2IN, FC_C1_BINCODE};
    for (int f = 0; f < 2; f++) {
        cuzk_error err = {0};
        fc_c1_output c1;
        cuzk_status st = fc_c1_read(&c1, data, size, forms[f], false, &err);
        fuzz_require_located(st, &err, " at byte offset ", f ? "C1 bincode" : "C2Input bincode");
        if (st != CUZK_OK)
            continue;
        uint8_t *out = NULL;
        size_t n = 0;
        st = fc_c1_write(&c1, forms[f], &out, &n, &err);
        fuzz_require_same(st, out, n, data, size, "accepted C1 bincode re-serialises to its bytes");
        fuzz_require(fc_c1_detect(data, size) == forms[f], "fc_c1_detect names the accepting form");
        free(out);
        fc_c1_free(&c1);
    }
    return 0;
}
