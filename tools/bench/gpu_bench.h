/* The pieces cuzk-bench gpu ntt / msm (gpu.c) and gpu partition (gpu_partition.c) share: the
 * device opened from the options, the result rows and their table / JSON report. */
#ifndef CUZK_TOOLS_BENCH_GPU_BENCH_H
#define CUZK_TOOLS_BENCH_GPU_BENCH_H

#include <stdbool.h>

#include "gpu/ntt.h"
#include "gpu/runtime.h"

typedef struct {
    gpu_device *dev;
    gpu_queue *q;
    gpu_ntt_cache *cache;
    unsigned threads, runs;
} gpu_bench_ctx;

/* One result: device and CPU milliseconds for the same work (cpu_ms 0: no CPU counterpart).
 * cpu_log, when set and below log, says the CPU ran at 2^cpu_log and cpu_ms is that time
 * scaled by 2^(log - cpu_log); ok then is the check of the device against the CPU at that
 * size. */
typedef struct {
    char name[48];
    unsigned log, cpu_log;
    double gpu_ms, cpu_ms;
    bool ok;
} gpu_bench_row;

/* The options of the gpu subcommands; mix is gpu msm's, cpu_log gpu partition's (-1: unset). */
typedef struct {
    const char *logs, *runtime, *mix;
    int device, json;
    bool partition;
    int cpu_log;
} gpu_bench_args;

/* Parse argv (argv[0] = the subcommand), fill b (threads, runs) and open the device; sizes[*ns]
 * from --log, each at most max_log. Returns 0, -1 after --help, or the exit code (2). */
int gpu_bench_parse(int argc, char **argv, const char *cmd, const char *usage, gpu_bench_args *a, gpu_bench_ctx *b,
                    unsigned *sizes, unsigned *ns, unsigned max_log);
/* The table (stdout, or stderr with --json) and with --json the object {"device", "cpu_threads",
 * "rows": [{"name","log","gpu_ms","cpu_ms","speedup","ok"[,"cpu_log"]}], "peak_rss_bytes"} as the
 * last stdout line; closes the device. Returns rc, or 1 if rc is 0 and a row is not ok. */
int gpu_bench_report(const gpu_bench_args *a, gpu_bench_ctx *b, const gpu_bench_row *rows, size_t nrows, int rc);
void gpu_bench_close(gpu_bench_ctx *b);
double gpu_bench_ms_since(double t0);

/* cuzk-bench gpu partition (gpu_partition.c); argv[0] = "partition". */
int bench_gpu_partition(int argc, char **argv);

#endif
