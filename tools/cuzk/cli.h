/* Shared helpers of the `cuzk` command-line tool (tools/cuzk). */
#ifndef CUZK_TOOLS_CLI_H
#define CUZK_TOOLS_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "common/status.h"

/* Exit codes (snarkjs-like): 0 success / valid, 1 invalid proof, 2 bad input or error. */
enum { CLI_OK = 0, CLI_INVALID = 1, CLI_ERROR = 2 };

/* Options common to every subcommand, parsed from argv by cli_parse. */
typedef struct {
    unsigned threads; /* --threads N (default: online CPUs) */
    bool verbose;     /* -v: timing breakdown on stderr */
    int npos;         /* positional arguments */
    const char *pos[8];
} cli_opts;

/* Parse argv[1..] of a subcommand. Returns -1 when --help was given (usage printed to
 * stdout), -2 on a usage error (message on stderr), else 0. `npos` positional arguments
 * are required. */
int cli_parse(int argc, char **argv, const char *usage, int npos, cli_opts *o);

/* Outputs must not overwrite inputs: positional arguments [0, first_out) are inputs,
 * [first_out, npos) outputs. Prints an error naming both paths and returns false when an
 * output is an input (the same file by path resolution). */
bool cli_outputs_distinct(const char *cmd, const cli_opts *o, int first_out);

/* Print "cuzk <cmd>: <message>" to stderr and return CLI_ERROR. */
int cli_fail(const char *cmd, const cuzk_error *err);

/* Monotonic clock in milliseconds. */
double cli_now_ms(void);

/* Progress of long work on stderr, as gen-vanilla reports it: every phase that took a
 * second or more when it ends ("cuzk c2: partition 1/10: synthesis 5.49 s"), and every
 * CLI_PROGRESS_TICK_S seconds the phase in progress with the elapsed time ("cuzk post:
 * partition 0/1: check (synthesis in check mode), 20 s elapsed"), from a ticker thread.
 * Thread-safety: cli_progress_phase may be called from any thread. */
#define CLI_PROGRESS_TICK_S 10
typedef struct cli_progress cli_progress;
/* Start the ticker for `partitions` partitions of command `cmd` (static strings); NULL
 * when the thread cannot be started (then nothing is reported; the work goes on). */
cli_progress *cli_progress_start(const char *cmd, uint32_t partitions);
/* Partition k enters `phase` (a static string; NULL: nothing in progress); the phase the
 * same partition was in is reported as finished when it took a second or more. */
void cli_progress_phase(cli_progress *p, uint32_t k, const char *phase);
/* Stop and free the ticker (NULL is a no-op). */
void cli_progress_stop(cli_progress *p);

int cmd_setup(int argc, char **argv);
int cmd_export_vk(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_daemon(int argc, char **argv);
int cmd_circuit_info(int argc, char **argv);
int cmd_c2(int argc, char **argv);
int cmd_verify_c2(int argc, char **argv);
int cmd_post(int argc, char **argv);
int cmd_verify_post(int argc, char **argv);
int cmd_snap(int argc, char **argv);
int cmd_verify_snap(int argc, char **argv);
int cmd_params(int argc, char **argv);
int cmd_gpu_info(int argc, char **argv);

#endif
