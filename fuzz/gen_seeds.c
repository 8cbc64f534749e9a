/* Seed corpus for the fuzz targets: writes, under <dir>,
 *   params/tiny.params, params/tiny.vk   random bellperson-form parameters of the circuit
 *                                        x * x = out (inputs ONE, out; aux x; m = 4)
 *   proof/one.bin, proof/two.bin         a valid proof of x = 3 and its two-partition form
 * Built by the ordinary (non-fuzzing) build; run by fuzz/run_short.sh.
 * Usage: gen_seeds <dir> (created if missing). Exit 0 on success. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cs/spmv.h"
#include "groth16/bellperson_params.h"

enum { ONE, OUT, X, NV };

static int fail(const char *what, const cuzk_error *err)
{
    fprintf(stderr, "gen_seeds: %s: %s\n", what, err->msg);
    return 1;
}

static int write_bytes(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(b, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "gen_seeds: cannot write %s: %s\n", path, strerror(errno));
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_seeds <dir>\n");
        return 2;
    }
    char path[4096];
    mkdir(argv[1], 0755);
    snprintf(path, sizeof path, "%s/params", argv[1]);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/proof", argv[1]);
    mkdir(path, 0755);

    /* rows: x * x = out, then the input rows ONE * 0 = 0, out * 0 = 0 */
    fr_t one = FR_ONE;
    uint64_t arp[4] = {0, 1, 2, 3}, brp[4] = {0, 1, 1, 1}, crp[4] = {0, 1, 1, 1};
    uint32_t acol[3] = {X, ONE, OUT}, bcol[1] = {X}, ccol[1] = {OUT};
    fr_t aval[3] = {one, one, one}, bval[1] = {one}, cval[1] = {one};
    cs_csr A = {3, NV, arp, acol, aval}, B = {3, NV, brp, bcol, bval}, C = {3, NV, crp, ccol, cval};
    groth16_circuit_t circ = {&A, &B, &C, 1, 2, 1};
    groth16_toxic_t tw;
    groth16_params_t pk;
    uint64_t *ad, *bd;
    cuzk_error err = {0};
    if (groth16_toxic_random(&tw, &err) || groth16_setup(&circ, &tw, POLY_H_BELLPERSON, 1, &pk, &ad, &bd, &err))
        return fail("setup", &err);
    snprintf(path, sizeof path, "%s/params/tiny.params", argv[1]);
    if (bp_params_write_file(&pk, path, &err))
        return fail("params", &err);
    snprintf(path, sizeof path, "%s/params/tiny.vk", argv[1]);
    if (bp_vk_write_file(&pk.vk, path, &err))
        return fail("vk", &err);

    fr_t w[NV];
    fr_from_u64(&w[ONE], 1), fr_from_u64(&w[OUT], 9), fr_from_u64(&w[X], 3);
    size_t m = (size_t)1 << pk.log2_m;
    groth16_assignment_t asg = {.a = calloc(m, sizeof(fr_t)), .b = calloc(m, sizeof(fr_t)),
                                .c = calloc(m, sizeof(fr_t)), .w = w, .a_density = ad, .b_density = bd};
    groth16_proof_t proof;
    bool proved = asg.a && asg.b && asg.c && !cs_spmv_abc(asg.a, asg.b, asg.c, &A, &B, &C, w, NV, 1, &err) &&
                  !groth16_prove(&pk, &asg, 1, &proof, &err);
    groth16_assignment_free_abc(&asg);
    if (!proved)
        return fail("prove", &err);
    groth16_pvk_t pvk;
    groth16_prepare_vk(&pvk, &pk.vk);
    if (groth16_verify(&pvk, &w[OUT], 1, &proof, &err))
        return fail("verify", &err);
    uint8_t bytes[2 * GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(bytes, &proof);
    memcpy(bytes + GROTH16_PROOF_BYTES, bytes, GROTH16_PROOF_BYTES);
    snprintf(path, sizeof path, "%s/proof/one.bin", argv[1]);
    if (write_bytes(path, bytes, GROTH16_PROOF_BYTES))
        return 1;
    snprintf(path, sizeof path, "%s/proof/two.bin", argv[1]);
    if (write_bytes(path, bytes, sizeof bytes))
        return 1;
    free(ad);
    free(bd);
    groth16_params_free(&pk);
    return 0;
}
