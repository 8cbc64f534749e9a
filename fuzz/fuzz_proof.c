/* libFuzzer target: the concatenated 192-byte proof reader (bp_proofs_read) and the single
 * proof decoder (groth16_proof_from_bytes). Properties: no crash; every rejection names the
 * section (proof index) and byte offset; accepted proofs re-encode to the input bytes
 * (the compressed encoding is canonical); both decoders agree on single proofs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/bellperson_params.h"

#define CAP 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    groth16_proof_t proofs[CAP];
    size_t n = 0;
    cuzk_error err = {0};
    cuzk_status st = bp_proofs_read(proofs, CAP, &n, data, size, &err);
    if (st != CUZK_OK) {
        if (!err.msg[0] || !strstr(err.msg, "section proof ") || !strstr(err.msg, " offset ")) {
            fprintf(stderr, "proof rejection (%s) without section/offset: '%s'\n", cuzk_status_name(st), err.msg);
            abort();
        }
    } else {
        for (size_t k = 0; k < n; k++) {
            uint8_t re[GROTH16_PROOF_BYTES];
            groth16_proof_to_bytes(re, &proofs[k]);
            if (memcmp(re, data + k * GROTH16_PROOF_BYTES, GROTH16_PROOF_BYTES) != 0) {
                fprintf(stderr, "accepted proof %zu does not re-encode to its bytes\n", k);
                abort();
            }
        }
    }
    if (size == GROTH16_PROOF_BYTES) {
        groth16_proof_t one;
        cuzk_status s1 = groth16_proof_from_bytes(&one, data, &err);
        if ((s1 == CUZK_OK) != (st == CUZK_OK)) {
            fprintf(stderr, "groth16_proof_from_bytes and bp_proofs_read disagree (%s vs %s)\n",
                    cuzk_status_name(s1), cuzk_status_name(st));
            abort();
        }
    }
    return 0;
}
