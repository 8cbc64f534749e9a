/* cuzk-bench: benchmarks of cuzk (tools/bench). Each subcommand prints a human-readable
 * table on stdout and, with --json, one JSON object as the last stdout line. */
#ifndef CUZK_TOOLS_BENCH_H
#define CUZK_TOOLS_BENCH_H

#include <stdint.h>

int bench_micro(int argc, char **argv);
int bench_batch(int argc, char **argv);
int bench_vs_snarkjs(int argc, char **argv);
/* --addr ADDR <single|batch|status|preload|metrics>: argv[0] = "--addr" (tools/bench/client.c). */
int bench_client(int argc, char **argv);
int bench_synth(int argc, char **argv);
/* parent-cache --registered-proof ID [--out FILE] [--threads N] (tools/bench/parent_cache.c). */
int bench_parent_cache(int argc, char **argv);
/* vanilla [--size S] [--runs N] [--json] (tools/bench/vanilla.c). */
int bench_vanilla(int argc, char **argv);

/* Monotonic clock in seconds. */
double bench_now(void);

/* Peak resident set size of this process (VmHWM from /proc/self/status), bytes; 0 if
 * unknown. */
uint64_t bench_peak_rss(void);

/* Deterministic 64-bit generator (splitmix64) for benchmark inputs. */
uint64_t bench_rand64(uint64_t *state);

#endif
