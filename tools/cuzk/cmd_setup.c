/* cuzk setup <circuit.r1cs> <circuit.zkey>: circuit-specific Groth16 parameters from
 * random toxic waste, written as a snarkjs-compatible .zkey. TESTING ONLY. */
#include <stdio.h>

#include "cli.h"
#include "cs/r1cs.h"
#include "groth16/zkey_params.h"

static const char USAGE[] = "usage: cuzk setup [--threads N] [-v] <circuit.r1cs> <circuit.zkey>\n"
                            "Writes Groth16 parameters made from random toxic waste. They are for\n"
                            "TESTING ONLY: whoever ran setup could forge proofs.\n";

int cmd_setup(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, USAGE, 2, &o);
    if (rc)
        return rc == -1 ? CLI_OK : CLI_ERROR;
    cuzk_error err = {0};
    if (!cli_outputs_distinct("setup", &o, 1))
        return CLI_ERROR;
    r1cs_t r1cs;
    double t0 = cli_now_ms();
    if (r1cs_read_file(&r1cs, o.pos[0], &err))
        return cli_fail("setup", &err);
    /* Only once the input is known to be good: a bad file gets its error alone. */
    fprintf(stderr, "cuzk setup: WARNING: these parameters come from toxic waste known to this process; "
                    "use them for testing only, never in production.\n");
    groth16_circuit_t circ = {&r1cs.a, &r1cs.b, &r1cs.c, r1cs.n_constraints, (size_t)r1cs_n_public(&r1cs) + 1,
                              (size_t)r1cs.n_wires - r1cs_n_public(&r1cs) - 1};
    groth16_toxic_t tw;
    groth16_params_t pk;
    zkey_t z;
    double t1 = cli_now_ms();
    cuzk_status st = groth16_toxic_random(&tw, &err);
    if (!st)
        st = groth16_setup(&circ, &tw, POLY_H_SNARKJS, o.threads, &pk, NULL, NULL, &err);
    double t2 = cli_now_ms();
    if (!st) {
        st = groth16_zkey_from_setup(&z, &pk, &circ, &err);
        if (!st) {
            st = zkey_write_file(&z, o.pos[1], &err);
            zkey_free(&z);
        }
        groth16_params_free(&pk);
    }
    r1cs_free(&r1cs);
    if (st)
        return cli_fail("setup", &err);
    if (o.verbose)
        fprintf(stderr, "setup: read %.1f ms, parameters %.1f ms, write %.1f ms\n", t1 - t0, t2 - t1,
                cli_now_ms() - t2);
    return CLI_OK;
}
