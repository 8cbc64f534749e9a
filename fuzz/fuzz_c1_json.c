/* libFuzzer target: the JSON readers of the vanilla proofs: the C1 output as serde JSON and in
 * Curio's envelope (src/filecoin/porep/vanilla.h), and the base64 blob list
 * (src/filecoin/core/vanilla.h). Properties: no crash / sanitizer report;
 * every rejection names a JSON path and byte offset; an accepted C1 passes
 * fc_c1_check_shape, and writing it, reading that back and writing again gives the same
 * bytes (and its bincode reads back); an accepted blob list survives to_json/from_json.
 * Build: fuzz/CMakeLists.txt (CUZK_FUZZ=ON with clang). */
#include "filecoin/porep/vanilla.h"
#include "filecoin/core/vanilla.h"
#include "fuzz_vanilla.h"

static void c1_round_trip(const fc_c1_output *c1)
{
    cuzk_error err = {0};
    uint8_t *w1 = NULL, *w2 = NULL, *b = NULL;
    size_t n1 = 0, n2 = 0, nb = 0;
    fuzz_require(fc_c1_check_shape(c1, &err) == CUZK_OK, "accepted C1 has its registered shape");
    fuzz_require(fc_c1_write(c1, FC_C1_JSON, &w1, &n1, &err) == CUZK_OK, "accepted C1 writes as JSON");
    fc_c1_output back;
    fuzz_require(fc_c1_read(&back, w1, n1, FC_C1_JSON, false, &err) == CUZK_OK, "written JSON reads back");
    cuzk_status st = fc_c1_write(&back, FC_C1_JSON, &w2, &n2, &err);
    fuzz_require_same(st, w2, n2, w1, n1, "JSON -> read -> JSON is identical");
    fuzz_require(fc_c1_write(&back, FC_C1_BINCODE, &b, &nb, &err) == CUZK_OK, "bincode write");
    fc_c1_free(&back);
    fuzz_require(fc_c1_read(&back, b, nb, FC_C1_BINCODE, false, &err) == CUZK_OK, "bincode reads back");
    fc_c1_free(&back);
    free(w1);
    free(w2);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_error err = {0};
    fc_c1_output c1;
    cuzk_status st = fc_c1_read(&c1, data, size, FC_C1_JSON, false, &err);
    fuzz_require_located(st, &err, "(byte offset ", "C1 JSON");
    if (st == CUZK_OK) {
        c1_round_trip(&c1);
        fc_c1_free(&c1);
    }
    st = fc_c1_read(&c1, data, size, FC_C1_ENVELOPE, false, &err);
    fuzz_require_located(st, &err, "(byte offset ", "C1 envelope");
    if (st == CUZK_OK) {
        c1_round_trip(&c1);
        fc_c1_free(&c1);
    }
    fc_blob_list l, back;
    st = fc_blob_list_from_json(&l, data, size, &err);
    fuzz_require_located(st, &err, "(byte offset ", "blob list");
    if (st == CUZK_OK) {
        uint8_t *j;
        size_t n;
        fuzz_require(fc_blob_list_to_json(&l, &j, &n, &err) == CUZK_OK, "blob list writes");
        fuzz_require(fc_blob_list_from_json(&back, j, n, &err) == CUZK_OK && back.n == l.n, "blob list reads back");
        for (size_t i = 0; i < l.n; i++)
            fuzz_require(back.len[i] == l.len[i] && !memcmp(back.data[i], l.data[i], l.len[i]), "blob survives");
        fc_blob_list_free(&back);
        fc_blob_list_free(&l);
        free(j);
    }
    return 0;
}
