/* cuzk-bench parent-cache: stream the SDR parent cache of a registered seal proof
 * (filecoin/core/graph.h; storage-proofs-porep parent_cache.json), optionally to a file (replaced
 * atomically), and print one JSON line with its name, SHA-256 and the time taken. The
 * digest is compared with the published manifest digest where there is one (ids 0-9):
 * exit 0 when it matches or none is published, 1 when it differs, 2 on bad usage or
 * failure. Progress goes to stderr about once a second after the first second. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "common/file_io.h"
#include "filecoin/core/graph.h"

static const char USAGE[] =
    "usage: cuzk-bench parent-cache --registered-proof ID [--out FILE] [--threads N]\n"
    "  compute the SDR parent cache of RegisteredSealProof ID (0-19): 56 bytes per node,\n"
    "  written to FILE if given, else only hashed; prints {\"registered_proof\",\"nodes\",\n"
    "  \"file\",\"sha256\",\"seconds\"} and checks the published digest (ids 0-9)\n";

typedef struct {
    const fc_graph *g;
    unsigned threads;
    FILE *out;
    double t0, last;
    uint8_t sha[32];
    cuzk_status st;
    cuzk_error err;
} run_t;

static int sink_file(void *ctx, const uint8_t *buf, size_t len)
{
    run_t *r = ctx;
    return fwrite(buf, 1, len, r->out) == len ? 0 : (errno ? errno : EIO);
}

static void progress(void *ctx, uint64_t done)
{
    run_t *r = ctx;
    double t = bench_now();
    if (t - r->t0 < 1.0 || (t - r->last < 1.0 && done < r->g->nodes))
        return;
    r->last = t;
    fprintf(stderr, "parent-cache: %llu / %llu nodes (%.1f%%), %.0f nodes/s\n", (unsigned long long)done,
            (unsigned long long)r->g->nodes, 100.0 * (double)done / (double)r->g->nodes,
            (double)done / (t - r->t0));
}

static void run(run_t *r)
{
    r->st = fc_graph_cache_stream(r->g, r->threads, r->out ? sink_file : NULL, r, r->sha, progress, &r->err);
}

static int emit(FILE *out, const void *ctx)
{
    run_t *r = (run_t *)ctx;
    r->out = out;
    run(r);
    return r->st ? EIO : 0;
}

int bench_parent_cache(int argc, char **argv)
{
    const char *out_path = NULL;
    long id = -1;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        if (!strcmp(argv[i], "--registered-proof") && i + 1 < argc) {
            id = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i])
                id = -1;
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out_path = argv[++i];
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            threads = strtol(argv[++i], &end, 10);
            if (*end || threads < 1 || threads > 1024) {
                fprintf(stderr, "cuzk-bench parent-cache: --threads wants 1..1024, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(USAGE, stdout);
            return 0;
        } else {
            fprintf(stderr, "cuzk-bench parent-cache: unexpected argument '%s'\n%s", argv[i], USAGE);
            return 2;
        }
    }
    if (threads < 1)
        threads = 1;
    const fc_seal_proof *p;
    fc_graph g;
    cuzk_error err;
    if (id < 0) {
        fprintf(stderr, "cuzk-bench parent-cache: --registered-proof ID is required\n%s", USAGE);
        return 2;
    }
    if (fc_seal_proof_get((uint64_t)id, &p, &err) || fc_graph_init(&g, p, &err)) {
        fprintf(stderr, "cuzk-bench parent-cache: %s\n", err.msg);
        return 2;
    }
    char name[FC_PARENT_CACHE_NAME_MAX];
    fc_graph_cache_name(&g, p, name);
    fprintf(stderr, "parent-cache: %s, %llu nodes, %llu bytes -> %s, %ld threads\n", p->name,
            (unsigned long long)g.nodes, (unsigned long long)fc_graph_cache_bytes(&g),
            out_path ? out_path : "(hash only)", threads);

    run_t r = {.g = &g, .threads = (unsigned)threads};
    r.t0 = r.last = bench_now();
    if (out_path) {
        cuzk_status st = cuzk_write_atomic(out_path, emit, &r, &err);
        if (st && !r.st) {
            r.st = st;
            r.err = err;
        }
    } else {
        run(&r);
    }
    double seconds = bench_now() - r.t0;
    if (r.st) {
        fprintf(stderr, "cuzk-bench parent-cache: %s\n", r.err.msg);
        return 2;
    }
    char hex[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", r.sha[i]);
    printf("{\"registered_proof\":%ld,\"nodes\":%llu,\"file\":\"%s\",\"sha256\":\"%s\",\"seconds\":%.3f}\n", id,
           (unsigned long long)g.nodes, name, hex, seconds);
    const char *published = fc_graph_cache_digest((unsigned)id);
    if (published && strcmp(published, hex)) {
        fprintf(stderr, "parent-cache: SHA-256 differs from the published digest %s\n", published);
        return 1;
    }
    fprintf(stderr, "parent-cache: %.0f nodes/s; %s\n", (double)g.nodes / seconds,
            published ? "SHA-256 matches the published digest" : "no published digest for this id");
    return 0;
}
