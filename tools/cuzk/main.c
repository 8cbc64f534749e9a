/* cuzk: Groth16 proving engine for Filecoin, command-line entry point.
 * Subcommands follow snarkjs's argument order (snarkjs groth16 setup/prove/verify,
 * zkey export verificationkey). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common/file_io.h"
#include "field/cpu.h"

static const char USAGE[] =
    "usage: cuzk <command> [options] [arguments]\n"
    "\n"
    "commands:\n"
    "  setup <circuit.r1cs> <circuit.zkey>          test-only parameters from random toxic waste\n"
    "  export-vk <circuit.zkey> <verification_key.json>\n"
    "  prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>\n"
    "  verify <verification_key.json> <public.json> <proof.json>\n"
    "                                                exit 0 valid, 1 invalid, 2 bad input\n"
    "  daemon [--config FILE] [--listen ADDR] [--status-listen ADDR] [--log-level L]\n"
    "                                                the gRPC proving daemon (cuzk.v1.ProvingEngine)\n"
    "  circuit-info <circuit> [--param key=value ...]  counts of a built-in circuit (JSON line)\n"
    "  gpu-info [--json]                           the GPU devices each runtime sees, or why none\n"
    "\n"
    "Filecoin proofs (parameters: the official v28 files in --param-cache / FIL_PROOFS_PARAMETER_CACHE):\n"
    "  c2 C1FILE (-o PROOF | --check)              PoRep C2 from a commit-phase-1 output\n"
    "  verify-c2 C1FILE PROOF                      exit 0 valid, 1 invalid, 2 bad input\n"
    "  post --kind window|winning ... (-o PROOF | --check) VANILLA...   WindowPoSt / WinningPoSt\n"
    "  verify-post ... PROOF VANILLA...\n"
    "  snap --registered-proof ID --comm-r-old H --comm-r-new H --comm-d-new H (-o PROOF | --check) VANILLA...\n"
    "  verify-snap ... PROOF VANILLA...\n"
    "  params gen <circuit> --sector-size S --out DIR   TEST-ONLY parameters under the official names\n"
    "\n"
    "options: --help (every command); --threads N and -v (timings on stderr) for setup,\n"
    "export-vk, prove and verify\n"
    "\n"
    "environment: CUZK_CPU=portable|adx|ifma forces a field back end (default: the best\n"
    "the CPU has); one the CPU lacks is refused (exit 2)\n";

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {
#ifndef CUZK_GPU_ONLY /* the GPU-only build (root CMakeLists.txt) has gpu-info alone */
        {"setup", cmd_setup}, {"export-vk", cmd_export_vk}, {"prove", cmd_prove}, {"verify", cmd_verify},
        {"circuit-info", cmd_circuit_info}, {"daemon", cmd_daemon}, {"c2", cmd_c2},
        {"verify-c2", cmd_verify_c2}, {"post", cmd_post}, {"verify-post", cmd_verify_post},
        {"snap", cmd_snap}, {"verify-snap", cmd_verify_snap}, {"params", cmd_params},
#endif
        {"gpu-info", cmd_gpu_info}};
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        fputs(USAGE, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_ERROR : CLI_OK;
    }
    cuzk_error err;
    if (cuzk_cpu_select_env(&err) != CUZK_OK) {
        fprintf(stderr, "cuzk: %s\n", err.msg);
        return CLI_ERROR;
    }
    /* SIGINT/SIGTERM/SIGHUP while an output is being written remove its temporary file. */
    cuzk_write_cleanup_on_signals();
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(argv[1], cmds[i].name))
            return cmds[i].fn(argc - 1, argv + 1);
#ifdef CUZK_GPU_ONLY
    fprintf(stderr, "cuzk: unknown command '%s' (this is the GPU-only build: gpu-info only)\n", argv[1]);
#else
    fprintf(stderr, "cuzk: unknown command '%s'\n%s", argv[1], USAGE);
#endif
    return CLI_ERROR;
}
