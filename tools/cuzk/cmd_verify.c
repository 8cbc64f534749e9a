/* cuzk verify <verification_key.json> <public.json> <proof.json> (snarkjs groth16 verify).
 * Exit 0 valid, 1 invalid proof, 2 bad input or error. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "groth16/snarkjs_json.h"

static const char USAGE[] = "usage: cuzk verify <verification_key.json> <public.json> <proof.json>\n"
                            "exit status: 0 valid, 1 invalid proof, 2 bad input or error\n";

int cmd_verify(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, USAGE, 3, &o);
    if (rc)
        return rc == -1 ? CLI_OK : CLI_ERROR;
    cuzk_error err = {0};
    groth16_vk_t vk;
    groth16_proof_t proof;
    fr_t *pub = NULL;
    size_t npub = 0;
    if (snarkjs_read_vk(o.pos[0], &vk, &err))
        return cli_fail("verify", &err);
    cuzk_status st = snarkjs_read_public(o.pos[1], &pub, &npub, &err);
    if (!st)
        st = snarkjs_read_proof(o.pos[2], &proof, &err);
    if (!st) {
        groth16_pvk_t *pvk = malloc(sizeof *pvk);
        if (!pvk) {
            st = cuzk_fail(&err, CUZK_E_NOMEM, "out of memory");
        } else {
            groth16_prepare_vk(pvk, &vk);
            st = groth16_verify(pvk, pub, npub, &proof, &err);
            free(pvk);
        }
    }
    free(pub);
    free(vk.ic);
    if (st == CUZK_OK) {
        printf("OK: proof is valid\n");
        return CLI_OK;
    }
    if (st == CUZK_E_VERIFY_FAILED) {
        printf("INVALID: proof does not verify\n");
        return CLI_INVALID;
    }
    return cli_fail("verify", &err);
}
