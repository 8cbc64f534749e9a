/* cuzk prove [--r1cs circuit.r1cs] <circuit.zkey> <witness.wtns> <proof.json> <public.json>
 * (snarkjs groth16 prove): a/b/c from the zkey's coefficients, then the split prover, then
 * a self-check; when the proof does not verify, diagnostics say whether the witness or the
 * key is at fault (groth16/zkey_check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backends.h"
#include "cli.h"
#include "common/file_io.h"
#include "cs/r1cs.h"
#include "cs/wtns.h"
#include "groth16/snarkjs_json.h"
#include "groth16/zkey_check.h"
#include "groth16/zkey_params.h"
#include "kinds/builtin/builtin.h"

static const char USAGE[] =
    "usage: cuzk prove [--threads N] [-v] [--r1cs circuit.r1cs] [--backend auto|cpu|cuda|opencl] [--device N]\n"
    "                  [--test-hooks] <circuit.zkey> <witness.wtns> <proof.json> <public.json>\n"
    "  --r1cs FILE  the circuit: check the key against it and the witness against every\n"
    "               constraint before proving (the first failing constraint is named).\n"
    "               Without it, a witness is checked only through the proof's self-check:\n"
    "               a .zkey stores no C coefficients.\n"
    "  --backend    the prover backend (default auto: CUDA devices, else OpenCL GPUs, else the CPU;\n"
    "               opencl also takes OpenCL CPU devices such as POCL); --device N: that device.\n"
    "  --test-hooks TESTS ONLY: honour CUZK_TEST_FIXED_RS (a fixed r, s: not zero-knowledge) and\n"
    "               CUZK_GPU_FAIL (injected device failures); without it they are ignored.\n";

/* Take "--r1cs FILE", "--backend KIND", "--device N" and "--test-hooks" out of argv (cli_parse
 * knows only the common options). Returns false, with a message on stderr, on a missing or bad
 * value. */
static bool take_own(int *argc, char **argv, const char **r1cs, backend_config *bc, uint32_t *device)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *v = i + 1 < *argc ? argv[i + 1] : NULL;
        cuzk_error err;
        int taken = backend_config_flag(bc, device, argv[i], v, &err);
        if (taken < 0) {
            fprintf(stderr, "%s: %s\n%s", argv[0], err.msg, USAGE);
            return false;
        }
        if (taken) {
            i++;
            continue;
        }
        if (!strcmp(argv[i], "--test-hooks")) {
            bc->env_test_hooks = true;
            continue;
        }
        if (strcmp(argv[i], "--r1cs")) {
            argv[out++] = argv[i];
            continue;
        }
        if (!v) {
            fprintf(stderr, "%s: --r1cs needs a file\n%s", argv[0], USAGE);
            return false;
        }
        *r1cs = argv[++i];
    }
    *argc = out;
    return true;
}

/* The split prove through the chosen backend (engine/backend.h), as the engine drives it. */
static cuzk_status prove_on(backend *be, const groth16_params_t *pk, groth16_assignment_t *asg,
                            groth16_proof_t *proof, double *t_start, cuzk_error *err)
{
    const cuzk_prover_backend *t = backend_table(be);
    builtin_assignment as = {.g = *asg};
    void *pending = NULL;
    cuzk_status st = t->prove_start(t->ctx, 0, pk, &as, NULL, &pending, err);
    groth16_assignment_free_abc(asg); /* ours: no release callback given */
    *t_start = cli_now_ms();
    uint8_t bytes[CUZK_PROOF_BYTES];
    if (!st)
        st = t->prove_finish(t->ctx, pending, bytes, err);
    if (!st)
        st = groth16_proof_from_bytes(proof, bytes, err);
    return st;
}

/* Verify the new proof with the key's own verification key before writing it (four
 * pairings, a few ms). CUZK_E_VERIFY_FAILED when it does not verify. */
static cuzk_status self_check(const groth16_vk_t *vk, const fr_t *pub, size_t n, const groth16_proof_t *proof,
                              cuzk_error *err)
{
    groth16_pvk_t *pvk = malloc(sizeof *pvk);
    if (!pvk)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory for the self-check");
    groth16_prepare_vk(pvk, vk);
    cuzk_status st = groth16_verify(pvk, pub, n, proof, err);
    free(pvk);
    return st;
}

/* With --r1cs: the key must be made for this circuit and the witness satisfy it. */
static cuzk_status check_circuit(const zkey_t *z, const wtns_t *w, const char *path, unsigned threads,
                                 cuzk_error *err)
{
    r1cs_t r;
    cuzk_status st = r1cs_read_file(&r, path, err);
    if (st)
        return st;
    uint32_t bad;
    st = zkey_check_r1cs(z, &r, path, err);
    if (!st && (st = r1cs_check_witness(&r, w->w, w->n, threads, &bad, err)) && bad != UINT32_MAX)
        st = cuzk_fail(err, CUZK_E_INVALID_ARG,
                       "the witness does not satisfy the circuit: constraint %u of %s fails (A.w * B.w != C.w; "
                       "nothing written)",
                       bad, path);
    r1cs_free(&r);
    return st;
}

/* The proof does not verify with the key's own verification key: say whose fault it is. */
static cuzk_status diagnose(const zkey_t *z, const char *r1cs, unsigned threads, cuzk_error *err)
{
    cuzk_status st = zkey_check_points(z, threads, err);
    if (st == CUZK_E_VERIFY_FAILED) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s (nothing written)", why);
    }
    if (st)
        return st;
    if (r1cs)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "the proving key is inconsistent: the witness satisfies every constraint of %s, yet the "
                         "proof does not verify with the key's own verification key (a wrong point in the key, e.g. "
                         "from a corrupted powers-of-tau file; nothing written)",
                         r1cs);
    return cuzk_fail(err, CUZK_E_INVALID_ARG,
                     "the proof does not verify with the key's own verification key: either the witness does not "
                     "satisfy the circuit or the proving key is inconsistent. A .zkey stores no C coefficients, so "
                     "the witness cannot be checked against the key alone: run again with --r1cs circuit.r1cs to "
                     "tell which (nothing written)");
}

int cmd_prove(int argc, char **argv)
{
    const char *r1cs_path = NULL;
    backend_config bc;
    backend_config_default(&bc);
    uint32_t device = 0;
    if (!take_own(&argc, argv, &r1cs_path, &bc, &device))
        return CLI_ERROR;
    cli_opts o;
    int rc = cli_parse(argc, argv, USAGE, 4, &o);
    if (rc)
        return rc == -1 ? CLI_OK : CLI_ERROR;
    cuzk_error err = {0};
    bc.cpu_threads = o.threads;
    if (!cli_outputs_distinct("prove", &o, 2))
        return CLI_ERROR;
    for (int i = 2; r1cs_path && i < 4; i++)
        if (cuzk_same_file(r1cs_path, o.pos[i])) {
            fprintf(stderr, "cuzk prove: error: output %s is the input %s\n", o.pos[i], r1cs_path);
            return CLI_ERROR;
        }
    /* the backend first (device discovery, kernel build), so the timings below are the proof's */
    backend *be = NULL;
    double t_open = cli_now_ms();
    if (backend_open(&bc, &be, &err))
        return cli_fail("prove", &err);
    if (o.verbose)
        fprintf(stderr, "prove: backend %s, opened in %.1f ms\n", backend_describe(be), cli_now_ms() - t_open);
    zkey_t z;
    wtns_t w = {0};
    double t0 = cli_now_ms();
    if (zkey_read_file(&z, o.pos[0], 0, &err)) {
        backend_close(be);
        return cli_fail("prove", &err);
    }
    double t1 = cli_now_ms();
    cuzk_status st = wtns_read_file(&w, o.pos[1], &err);
    if (!st)
        st = wtns_check_count(&w, z.n_vars, o.pos[0], &err);
    if (!st && r1cs_path)
        st = check_circuit(&z, &w, r1cs_path, o.threads, &err);
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
        st = prove_on(be, &pk, &asg, &proof, &t4, &err);
        t5 = cli_now_ms();
    }
    backend_close(be);
    if (!st && (st = self_check(&pk.vk, w.w + 1, z.n_public, &proof, &err)) == CUZK_E_VERIFY_FAILED)
        st = diagnose(&z, r1cs_path, o.threads, &err);
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
