/* cuzk-bench: benchmarks of cuzk (tools/bench). Each subcommand prints a human-readable
 * table on stdout and, with --json, one JSON object as the last stdout line. */
#ifndef CUZK_TOOLS_BENCH_H
#define CUZK_TOOLS_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "curve/curve.h"

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
/* gen-vanilla porep|window-post|winning-post|snap [options] (tools/bench/gen_vanilla.c). */
int bench_gen_vanilla(int argc, char **argv);

/* Monotonic clock in seconds. */
double bench_now(void);

/* Peak resident set size of this process (VmHWM from /proc/self/status), bytes; 0 if
 * unknown. */
uint64_t bench_peak_rss(void);
/* Resident set size now (VmRSS), bytes; 0 if unknown. */
uint64_t bench_rss(void);
/* Reset this process's peak RSS mark to its RSS now (writes "5" to /proc/self/clear_refs,
 * Linux >= 4.0, Documentation/filesystems/proc.rst): VmHWM, and the maximum resident set
 * getrusage reports for it (to itself, or to its parent through wait4 once it exits),
 * count from here on. false (mark unchanged) where the kernel refuses. */
bool bench_reset_peak_rss(void);

/* Deterministic 64-bit generator (splitmix64) for benchmark inputs. */
uint64_t bench_rand64(uint64_t *state);

/* points.c: n canonical scalars < 2^254 (4 limbs each) from `seed`; n distinct-looking
 * affine G1 / G2 points (64 random multiples of the generator, then running sums), malloc'ed
 * (caller frees), NULL on allocation failure. */
void bench_random_scalars(uint64_t *s, size_t n, uint64_t *seed);
/* n scalars of a boolean-heavy witness: 90% zeros and ones (half each), the rest random. */
void bench_bool90_scalars(uint64_t *s, size_t n, uint64_t *seed);
g1_affine_t *bench_g1_bases(size_t n, uint64_t *seed);
g2_affine_t *bench_g2_bases(size_t n, uint64_t *seed);

/* gpu ntt|msm [options]: device NTT / H and G1 MSM beside the CPU's (tools/bench/gpu.c). */
int bench_gpu(int argc, char **argv);

/* witness-msm --c1 FILE [--partition N] [--threads N] [--runs N] [--json]
 * (tools/bench/witness_msm.c). */
int bench_witness_msm(int argc, char **argv);

#endif
