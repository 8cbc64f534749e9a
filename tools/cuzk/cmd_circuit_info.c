/* cuzk circuit-info <circuit> [--param key=value ...]: counts of a built-in circuit as one
 * JSON line (issue 5). Counting convention (docs/circuits.md#counting-convention, as the
 * reference's MetricCS / circuitinfo count): `inputs` includes ONE; `constraints` are the
 * circuit's own constraints, excluding the `input * 0 = 0` rows the prover appends per input;
 * nnz_* count the non-zero terms of A, B, C over those constraints. Every constraint the
 * circuit synthesises is counted, including the booleanity constraints of allocated input bits:
 * `sha256 bytes=64` allocates 512 message bits, so it reports 45,386 = 44,874 (bellperson's
 * test_full_hash figure, which subtracts the 512 bit constraints) + 512. Circuits and
 * parameters: src/gadgets/circuits.h. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "filecoin/core/circuit_info.h"
#include "gadgets/circuits.h"

static const char USAGE[] =
    "usage: cuzk circuit-info <circuit> [--param key=value ...]\n"
    "  circuits: sha256 (bytes=N), poseidon (arity=N), por (hasher=sha256|poseidon,\n"
    "            arity=2|4|8|16 or base=B,sub=S,top=T, leaves=N, root=public|private),\n"
    "            create-label (layer=L, node=N), hash-leaf-bits, hash-md (n=N)\n"
    "  Filecoin partition circuits: porep, winning-post, window-post, snap, snap-poseidon\n"
    "            (sector-size=S, e.g. 32GiB; test shapes as in src/filecoin/core/circuit_info.h,\n"
    "            e.g. window-post --param tree=8-0-0,leaves=64,challenges=5,sectors=3)\n"
    "  prints {\"circuit\",\"constraints\",\"inputs\",\"aux\",\"nnz_a\",\"nnz_b\",\"nnz_c\"} on one line;\n"
    "  inputs include ONE, constraints exclude the prover-appended input rows and include\n"
    "  the circuit's input-bit booleanity constraints (sha256 bytes=64: 45386 = 44874 + 512)\n"
    "  exit 0 on success, 2 on an unknown circuit, a bad parameter or a usage error\n";

#define MAX_PARAMS 16

int cmd_circuit_info(int argc, char **argv)
{
    const char *circuit = NULL, *params[MAX_PARAMS];
    size_t np = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(USAGE, stdout);
            return CLI_OK;
        }
        if (!strcmp(a, "--param") || !strncmp(a, "--param=", 8)) {
            const char *v = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v || !*v) {
                fprintf(stderr, "cuzk circuit-info: --param needs key=value\n%s", USAGE);
                return CLI_ERROR;
            }
            if (np == MAX_PARAMS) {
                fprintf(stderr, "cuzk circuit-info: at most %d --param options\n", MAX_PARAMS);
                return CLI_ERROR;
            }
            params[np++] = v;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "cuzk circuit-info: unknown option '%s'\n%s", a, USAGE);
            return CLI_ERROR;
        } else if (circuit) {
            fprintf(stderr, "cuzk circuit-info: unexpected argument '%s' (one circuit name)\n%s", a, USAGE);
            return CLI_ERROR;
        } else {
            circuit = a;
        }
    }
    if (!circuit) {
        fprintf(stderr, "cuzk circuit-info: missing the circuit name\n%s", USAGE);
        return CLI_ERROR;
    }
    cs_counts c;
    cuzk_error err = {0};
    cuzk_status st = fc_circuit_info(circuit, params, np, &c, &err);
    if (st == CUZK_E_UNSUPPORTED && strstr(err.msg, "is not a Filecoin circuit")) {
        st = gadgets_circuit_info(circuit, params, np, &c, &err);
        if (st == CUZK_E_UNSUPPORTED) /* name both lists */
            snprintf(err.msg + strlen(err.msg), sizeof err.msg - strlen(err.msg),
                     "; Filecoin: porep, winning-post, window-post, snap, snap-poseidon with --param sector-size=S");
    }
    if (st) {
        err.code = st;
        return cli_fail("circuit-info", &err);
    }
    printf("{\"circuit\":\"%s\",\"constraints\":%llu,\"inputs\":%llu,\"aux\":%llu,\"nnz_a\":%llu,\"nnz_b\":%llu,"
           "\"nnz_c\":%llu}\n",
           circuit, (unsigned long long)c.constraints, (unsigned long long)c.inputs, (unsigned long long)c.aux,
           (unsigned long long)c.nnz_a, (unsigned long long)c.nnz_b, (unsigned long long)c.nnz_c);
    return CLI_OK;
}
