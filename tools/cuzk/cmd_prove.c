/* cuzk prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> (snarkjs groth16
 * prove): a/b/c from the zkey's coefficients, then the split prover. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cs/wtns.h"
#include "groth16/snarkjs_json.h"
#include "groth16/zkey_params.h"

static const char USAGE[] =
    "usage: cuzk prove [--threads N] [-v] <circuit.zkey> <witness.wtns> <proof.json> <public.json>\n";

/* Verify the new proof before writing it (four pairings, a few ms): a witness that does
 * not satisfy the circuit gives a proof that fails here, and nothing is written. */
static cuzk_status self_check(const groth16_vk_t *vk, const fr_t *pub, size_t n, const groth16_proof_t *proof,
                              cuzk_error *err)
{
    groth16_pvk_t *pvk = malloc(sizeof *pvk);
    if (!pvk)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory for the self-check");
    groth16_prepare_vk(pvk, vk);
    cuzk_status st = groth16_verify(pvk, pub, n, proof, err);
    free(pvk);
    if (st == CUZK_E_VERIFY_FAILED)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "the proof does not verify: the witness does not satisfy the circuit (nothing written)");
    return st;
}

int cmd_prove(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, USAGE, 4, &o);
    if (rc)
        return rc == -1 ? CLI_OK : CLI_ERROR;
    cuzk_error err = {0};
    if (!cli_outputs_distinct("prove", &o, 2))
        return CLI_ERROR;
    zkey_t z;
    wtns_t w = {0};
    double t0 = cli_now_ms();
    if (zkey_read_file(&z, o.pos[0], 0, &err))
        return cli_fail("prove", &err);
    double t1 = cli_now_ms();
    cuzk_status st = wtns_read_file(&w, o.pos[1], &err);
    if (!st)
        st = wtns_check_count(&w, z.n_vars, o.pos[0], &err);
    groth16_params_t pk;
    groth16_params_from_zkey(&pk, &z);
    groth16_assignment_t asg = {0};
    groth16_proof_t proof;
    double t2 = cli_now_ms(), t3 = t2, t4 = t2, t5 = t2;
    if (!st) {
        asg.a = malloc(z.domain_size * sizeof(fr_t));
        asg.b = malloc(z.domain_size * sizeof(fr_t));
        asg.c = malloc(z.domain_size * sizeof(fr_t));
        asg.w = w.w;
        if (!asg.a || !asg.b || !asg.c) {
            free(asg.a), free(asg.b), free(asg.c);
            st = cuzk_fail(&err, CUZK_E_NOMEM, "out of memory for a/b/c (domain %u)", z.domain_size);
        }
    }
    if (!st) {
        groth16_zkey_abc(&z, w.w, asg.a, asg.b, asg.c);
        t3 = cli_now_ms();
        fr_t r, s;
        groth16_pending_t *p = NULL;
        st = groth16_random_rs(&r, &s, &err);
        if (!st)
            st = groth16_prove_start(&pk, &asg, &r, &s, o.threads, &p, &err);
        t4 = cli_now_ms();
        if (!st)
            st = groth16_prove_finish(p, o.threads, &proof, &err);
        t5 = cli_now_ms();
    }
    if (!st)
        st = self_check(&pk.vk, w.w + 1, z.n_public, &proof, &err);
    if (!st)
        st = snarkjs_write_proof_and_public(o.pos[2], &proof, o.pos[3], w.w + 1, z.n_public, &err);
    if (o.verbose && !st)
        fprintf(stderr,
                "prove: read zkey %.1f ms, witness %.1f ms, a/b/c %.1f ms, prove_start (H + G1 MSMs) %.1f ms, "
                "prove_finish (B_G2 MSM) %.1f ms, total %.1f ms, threads %u\n",
                t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, cli_now_ms() - t0, o.threads);
    wtns_free(&w);
    zkey_free(&z);
    return st ? cli_fail("prove", &err) : CLI_OK;
}
