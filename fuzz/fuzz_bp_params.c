/* libFuzzer target: the bellperson .params and .vk readers (src/groth16/bellperson_params.h).
 * Properties: no crash / sanitizer report; every rejection has a message naming a section
 * and a byte offset; an accepted .vk re-encodes to the same bytes; an accepted .params loads
 * (every point decoded with on-curve and subgroup checks) and its vk re-encodes to the
 * file's first bytes. Build: fuzz/CMakeLists.txt (CUZK_FUZZ=ON with clang). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/bellperson_params.h"

static void require_located(cuzk_status st, const cuzk_error *err, const char *what)
{
    if (st == CUZK_OK)
        return;
    if (!err->msg[0] || !strstr(err->msg, "section ") || !strstr(err->msg, " offset ")) {
        fprintf(stderr, "%s rejection (%s) without section/offset: '%s'\n", what, cuzk_status_name(st), err->msg);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_error err = {0};
    groth16_vk_t vk;
    cuzk_status st = bp_vk_read_mem(&vk, data, size, BP_CHECK_POINTS, &err);
    require_located(st, &err, "vk");
    if (st == CUZK_OK) {
        uint8_t *re = malloc(size);
        if (bp_vk_size(&vk) != size || (bp_vk_encode(re, &vk), memcmp(re, data, size) != 0)) {
            fprintf(stderr, "accepted .vk does not re-encode to its bytes\n");
            abort();
        }
        free(re);
        bp_vk_free(&vk);
    }

    bp_params_t p;
    memset(&err, 0, sizeof err);
    st = bp_params_open_mem(&p, data, size, BP_CHECK_POINTS, &err);
    require_located(st, &err, "params open");
    if (st != CUZK_OK)
        return 0;
    uint8_t *re = malloc(bp_vk_size(&p.vk));
    bp_vk_encode(re, &p.vk);
    if (memcmp(re, data, bp_vk_size(&p.vk)) != 0) {
        fprintf(stderr, "accepted .params vk does not re-encode to its bytes\n");
        abort();
    }
    free(re);
    groth16_params_t pk;
    memset(&err, 0, sizeof err);
    st = bp_params_load(&p, 1, &pk, &err);
    require_located(st, &err, "params load");
    if (st == CUZK_OK) {
        if (pk.n_h != p.sec[BP_SEC_H].count || pk.n_b != p.sec[BP_SEC_B_G2].count || pk.n_aux != pk.n_l) {
            fprintf(stderr, "loaded counts differ from the layout\n");
            abort();
        }
        groth16_params_free(&pk);
    }
    bp_params_close(&p);
    return 0;
}
