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
    } cmds[] = {{"setup", cmd_setup}, {"export-vk", cmd_export_vk}, {"prove", cmd_prove}, {"verify", cmd_verify},
                   {"circuit-info", cmd_circuit_info}, {"daemon", cmd_daemon}};
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
    fprintf(stderr, "cuzk: unknown command '%s'\n%s", argv[1], USAGE);
    return CLI_ERROR;
}
