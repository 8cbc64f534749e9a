/* cuzk-bench entry point. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "field/cpu.h"

static const char USAGE[] =
    "usage: cuzk-bench <command> [options]\n"
    "\n"
    "commands:\n"
    "  micro [--quick] [--json]        field, curve, MSM, NTT and pairing micro benchmarks\n"
    "                                  (1 and 2 threads); --quick caps sizes at 2^16\n"
    "  witness-msm --c1 FILE [--partition N] [--threads N] [--runs N] [--json]\n"
    "                                  the A, B, L MSMs of a real PoRep witness (C1 synthesized):\n"
    "                                  plain Pippenger vs the prover's witness-aware MSM\n"
    "  batch [options]                 proofs through the engine pipeline (see batch --help)\n"
    "  synth [--shape-compressions N] [--compressions N] [--json]\n"
    "                                  one-thread constraint-system throughput (shape, witness,\n"
    "                                  check, record, SpMV) on chained SHA-256 compressions\n"
    "  vanilla [--size 2k|8m|512m|32g|64g] [--runs N] [--json]\n"
    "                                  C1 vanilla-proof parse time (serde JSON and bincode) of a\n"
    "                                  synthetic C1 of that size's shape (default 32g, ~51 MB)\n"
    "  vs-snarkjs <circuit.zkey> <witness.wtns> [--runs N] [--threads N] [--json]\n"
    "                                  time `cuzk prove` against `snarkjs groth16 prove` on the\n"
    "                                  same inputs in one run and print the ratio\n"
    "  parent-cache --registered-proof ID [--out FILE] [--threads N]\n"
    "                                  SDR parent cache of a seal proof: name, SHA-256 (checked\n"
    "                                  against the published digest), seconds; one JSON line\n"
    "  gen-vanilla porep|window-post|winning-post|snap [options]\n"
    "                                  seal a 2 KiB / 8 MiB / 512 MiB sector here (or a sparse\n"
    "                                  32 / 64 GiB fixture) and write its C1, PoSt or SnapDeals\n"
    "                                  vanilla proofs, self-checked; one JSON summary line\n"
    "  gpu ntt [--log N,N] [--runtime opencl|cuda] [--device N] [--json]\n"
    "                                  the device NTT and H polynomial beside the CPU's, each\n"
    "                                  result checked against the CPU (see gpu ntt --help)\n"
    "  gpu msm [--log N,N] [--mix random|filecoin] [--runtime opencl|cuda] [--device N] [--json]\n"
    "                                  the device G1 MSM beside the CPU's, checked against it\n"
    "  gpu partition [--log N] [--cpu-log M] [--runtime opencl|cuda] [--device N] [--json]\n"
    "                                  the GPU phases of one 32 GiB PoRep partition's shape (H and\n"
    "                                  its MSM, A / B_G1 / L MSMs) beside the CPU's, checked\n"
    "  --addr ADDR [--tls-ca F] [--token-file F] <single|batch|status|preload|metrics> [options]\n"
    "                                  proofs (synthetic circuits), status, SRS preload and metrics\n"
    "                                  through a running daemon's gRPC API (TLS, token: --addr --help)\n"
    "\n"
    "(the GPU-only build, CUZK_GPU_ONLY, has micro and gpu alone)\n"
    "\n"
    "environment: CUZK_CPU=portable|adx|ifma forces a field back end (default: the best the\n"
    "CPU has; one it lacks is refused); MSM_SCALARS=random|bool90 picks micro's MSM scalars\n";

double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A "Key: N kB" line of /proc/self/status, in bytes; 0 if unknown. */
static uint64_t status_bytes(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t n = strlen(key);
    unsigned long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, n) && line[n] == ':' && sscanf(line + n + 1, " %lu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return (uint64_t)kb * 1024;
}

uint64_t bench_peak_rss(void) { return status_bytes("VmHWM"); }
uint64_t bench_rss(void) { return status_bytes("VmRSS"); }

bool bench_reset_peak_rss(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return false;
    bool ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}

uint64_t bench_rand64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    cuzk_error err;
    if (cuzk_cpu_select_env(&err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: %s\n", err.msg);
        return 2;
    }
#ifndef CUZK_GPU_ONLY /* the GPU-only build (root CMakeLists.txt) has micro and gpu alone */
    if (argc >= 2 && (!strcmp(argv[1], "--addr") || !strcmp(argv[1], "-a")))
        return bench_client(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "witness-msm"))
        return bench_witness_msm(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "batch"))
        return bench_batch(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "synth"))
        return bench_synth(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "parent-cache"))
        return bench_parent_cache(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "gen-vanilla"))
        return bench_gen_vanilla(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "vanilla"))
        return bench_vanilla(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "vs-snarkjs"))
        return bench_vs_snarkjs(argc - 1, argv + 1);
#endif
    if (argc >= 2 && !strcmp(argv[1], "micro"))
        return bench_micro(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "gpu"))
        return bench_gpu(argc - 1, argv + 1);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(USAGE, stdout);
        return 0;
    }
    fputs(USAGE, stderr);
    return 2;
}
