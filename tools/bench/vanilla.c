/* cuzk-bench vanilla: vanilla-proof parser throughput on a C1 output of a real size's shape
 * (issue 9 target: a 32 GiB C1, ~51 MB of JSON, 10 partitions x 18 challenges, 11 layers,
 * trees 8-8-0, parses in <= ~300 ms on one core, allocating a small multiple of the parsed
 * structure).
 *
 * The C1 is synthetic (filecoin/testkit/synthetic.h: random canonical values, the registered
 * proof's exact shapes), written as serde JSON, as Curio's envelope (the JSON in base64, the
 * ~51 MB a daemon receives for 32 GiB) and as bincode; the source structure is then
 * freed and returned to the system, the peak-RSS mark reset (/proc/self/clear_refs 5), and
 * each form parsed --runs times. Times are process CPU seconds of the one thread (and wall
 * seconds); memory is the peak RSS during the JSON parses minus the RSS before them, next to
 * the size of the parsed structure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "bench.h"
#include "filecoin/porep/vanilla.h"
#include "filecoin/testkit/synthetic.h"

static const char USAGE[] =
    "usage: cuzk-bench vanilla [--size 2k|8m|512m|32g|64g] [--runs N] [--json]\n"
    "  parse a synthetic C1 output of that size's shape (default 32g: 38.6 MB of JSON, 51 MB\n"
    "  in Curio's base64 envelope) from serde JSON, the envelope and bincode, N times each\n"
    "  (default 3), one thread; reports the best CPU time, MB/s and the peak RSS the JSON\n"
    "  parses added\n";

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Bytes the parsed structure owns (its arrays and per-proof allocations). */
static uint64_t structure_bytes(const fc_c1_output *c1)
{
    uint64_t n = (uint64_t)c1->partitions * c1->challenges, b = n * sizeof *c1->proofs;
    for (uint64_t k = 0; k < n; k++) {
        const fc_porep_challenge_proof *p = &c1->proofs[k];
        b += 32 * (fc_merkle_proof_siblings(&p->comm_d_proof) + fc_merkle_proof_siblings(&p->comm_r_last_proof));
        const fc_column_proof *cols[15] = {&p->c_x};
        for (int i = 0; i < 6; i++)
            cols[1 + i] = &p->drg[i];
        for (int i = 0; i < 8; i++)
            cols[7 + i] = &p->exp[i];
        for (int i = 0; i < 15; i++)
            b += 32 * ((uint64_t)cols[i]->nrows + fc_merkle_proof_siblings(&cols[i]->proof));
        b += (uint64_t)p->nlabeling * sizeof *p->labeling;
    }
    return b;
}

typedef struct {
    double cpu, wall;
} timing;

static int time_parse(const uint8_t *buf, size_t len, fc_c1_format fmt, int runs, timing *best,
                      uint64_t *structure)
{
    best->cpu = best->wall = 1e30;
    for (int r = 0; r < runs; r++) {
        fc_c1_output c1;
        cuzk_error err = {0};
        double c0 = cpu_now(), w0 = bench_now();
        cuzk_status st = fc_c1_read(&c1, buf, len, fmt, false, &err);
        double c = cpu_now() - c0, w = bench_now() - w0;
        if (st) {
            fprintf(stderr, "cuzk-bench vanilla: parse failed: %s\n", err.msg);
            return 1;
        }
        if (structure)
            *structure = structure_bytes(&c1);
        fc_c1_free(&c1);
        if (c < best->cpu)
            best->cpu = c;
        if (w < best->wall)
            best->wall = w;
    }
    return 0;
}

int bench_vanilla(int argc, char **argv)
{
    const char *size = "32g";
    int runs = 3;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            size = argv[++i];
        } else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 100) {
                fprintf(stderr, "cuzk-bench vanilla: --runs needs an integer in 1..100\n");
                return 2;
            }
            runs = (int)v;
        } else if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(USAGE, stdout);
            return 0;
        } else {
            fprintf(stderr, "cuzk-bench vanilla: unknown argument '%s'\n%s", argv[i], USAGE);
            return 2;
        }
    }
    const fc_sector_shape *shape;
    const fc_seal_proof *rp;
    cuzk_error err = {0};
    if (fc_sector_shape_by_name(size, &shape, &err) || fc_seal_proof_get(5 + shape->size, &rp, &err)) {
        fprintf(stderr, "cuzk-bench vanilla: %s\n", err.msg);
        return 2;
    }
    fc_c1_output src;
    uint8_t *js = NULL, *env = NULL, *bin = NULL;
    size_t jlen = 0, elen = 0, blen = 0;
    if (fc_c1_synthetic(&src, rp, 42, &err) || fc_c1_write(&src, FC_C1_JSON, &js, &jlen, &err) ||
        fc_c1_write(&src, FC_C1_ENVELOPE, &env, &elen, &err) || fc_c1_write(&src, FC_C1_BINCODE, &bin, &blen, &err)) {
        fprintf(stderr, "cuzk-bench vanilla: building the input: %s\n", err.msg);
        return 1;
    }
    fc_c1_free(&src);
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    bool peak_ok = bench_reset_peak_rss();
    uint64_t rss0 = bench_rss(), structure = 0;
    timing tj, te, tb;
    if (time_parse(js, jlen, FC_C1_JSON, runs, &tj, &structure))
        return 1;
    uint64_t peak = bench_peak_rss();
    if (time_parse(env, elen, FC_C1_ENVELOPE, runs, &te, NULL) || time_parse(bin, blen, FC_C1_BINCODE, runs, &tb, NULL))
        return 1;
    uint64_t extra = peak > rss0 ? peak - rss0 : 0;
    printf("vanilla: synthetic %s C1 (%u partitions x %u challenges, %u layers), one thread, best of %d\n", rp->name,
           rp->partitions, rp->challenges_per_partition, shape->layers, runs);
    printf("  JSON     %10zu bytes  %8.1f ms CPU (%8.1f ms wall)  %7.1f MB/s\n", jlen, tj.cpu * 1e3, tj.wall * 1e3,
           (double)jlen / tj.cpu / 1e6);
    printf("  envelope %10zu bytes  %8.1f ms CPU (%8.1f ms wall)  %7.1f MB/s (base64 decode + JSON)\n", elen,
           te.cpu * 1e3, te.wall * 1e3, (double)elen / te.cpu / 1e6);
    printf("  bincode  %10zu bytes  %8.1f ms CPU (%8.1f ms wall)  %7.1f MB/s\n", blen, tb.cpu * 1e3, tb.wall * 1e3,
           (double)blen / tb.cpu / 1e6);
    printf("  parsed structure %.1f MB; peak RSS %.1f MB, %s%.1f MB above the %.1f MB before the JSON parses\n",
           (double)structure / 1e6, (double)peak / 1e6, peak_ok ? "" : "(peak not resettable) ", (double)extra / 1e6,
           (double)rss0 / 1e6);
    if (json)
        printf("{\"bench\":\"vanilla\",\"proof\":\"%s\",\"json_bytes\":%zu,\"json_cpu_s\":%.4f,\"json_wall_s\":%.4f,"
               "\"envelope_bytes\":%zu,\"envelope_cpu_s\":%.4f,\"bincode_bytes\":%zu,\"bincode_cpu_s\":%.4f,\"bincode_wall_s\":%.4f,\"structure_bytes\":%llu,"
               "\"rss_before_bytes\":%llu,\"peak_rss_bytes\":%llu,\"parse_extra_rss_bytes\":%llu}\n",
               rp->name, jlen, tj.cpu, tj.wall, elen, te.cpu, blen, tb.cpu, tb.wall, (unsigned long long)structure,
               (unsigned long long)rss0, (unsigned long long)peak, (unsigned long long)extra);
    free(js);
    free(env);
    free(bin);
    return 0;
}
