/* Long checks (CUZK_LONG_TESTS): a 512 MiB CC sector sealed with its state in temporary files
 * (comm_d = Z_24 of docs/vectors.md#zero-commitments), its C1 (StackedDrg512MiBV1_1), WindowPoSt
 * V1_2 and SnapDeals proofs self-checked and of the sizes of docs/formats.md; the synthetic and
 * non-interactive 8 MiB C1s (ids 11, 16) self-checked. SnapDeals data: 4 MiB of 0x01. Prints the
 * seal time and the peak RSS (VmHWM). Usage: test_fc_seal_long <temporary dir> [threads]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "filecoin/porep/vanilla.h"
#include "filecoin/post/vanilla.h"
#include "filecoin/snap/vanilla.h"
#include "filecoin/porep/porep.h"
#include "filecoin/post/post.h"
#include "filecoin/testkit/c1_gen.h"
#include "filecoin/testkit/post_gen.h"
#include "filecoin/testkit/seal.h"
#include "filecoin/testkit/snap_gen.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned long peak_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %lu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

static void progress(void *ctx, const char *phase, double seconds)
{
    printf("%s: %s %.1f s (peak RSS %lu MB)\n", (const char *)ctx, phase, seconds, peak_kb() / 1024);
    fflush(stdout);
}

static bool eq_hex(const uint8_t b[32], const char *hex)
{
    uint8_t want[32];
    return hex_decode(want, 32, hex) == 32 && !memcmp(b, want, 32);
}

static bool seal(fc_sector *s, unsigned id, const char *dir, unsigned threads, const char *name)
{
    fc_seal_params p = {.sector_id = 3, .dir = dir, .threads = threads, .progress = progress,
                        .progress_ctx = (void *)name};
    fc_seal_proof_get(id, &p.proof, NULL);
    fc_prover_id_from_actor(1000, p.prover_id);
    memset(p.ticket, 7, 32);
    cuzk_error e = {0};
    double t0 = now();
    cuzk_status st = fc_seal(s, &p, &e);
    CHECK(st == CUZK_OK, "%s seal: %s", name, e.msg);
    printf("%s: sealed in %.1f s with %u threads, peak RSS %lu MB\n", name, now() - t0, threads, peak_kb() / 1024);
    return st == CUZK_OK;
}

static void c1(const fc_sector *s, const char *name)
{
    fc_porep_view v;
    fc_sector_porep_view(s, &v);
    uint8_t seed[32];
    memset(seed, 8, 32);
    fc_c1_output out, back;
    cuzk_error e = {0};
    CHECK(fc_c1_generate(&v, seed, &out, &e) == CUZK_OK, "%s C1: %s", name, e.msg);
    CHECK(fc_c1_validate(&out, &e) == CUZK_OK, "%s C1 self-check: %s", name, e.msg);
    uint8_t *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    CHECK(fc_c1_write(&out, FC_C1_JSON, &a, &la, &e) == CUZK_OK && fc_c1_read(&back, a, la, FC_C1_JSON, false, &e) == 0 &&
              fc_c1_write(&back, FC_C1_JSON, &b, &lb, &e) == CUZK_OK && la == lb && !memcmp(a, b, la),
          "%s C1 JSON round trip: %s", name, e.msg);
    free(a);
    free(b);
    fc_c1_free(&back);
    fc_c1_free(&out);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    unsigned threads = argc > 2 ? (unsigned)atoi(argv[2]) : 2;
    cuzk_error e = {0};
    fc_sector s;
    if (seal(&s, 7, dir, threads, "512 MiB")) {
        CHECK(eq_hex(s.comm_d, "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06"), "comm_d = Z_24");
        c1(&s, "512 MiB");
        const fc_post_proof *pp;
        fc_post_proof_get(12, &pp, NULL);
        uint8_t rnd[32];
        memset(rnd, 5, 32);
        fc_post_sector pv;
        fc_sector_post_view(&s, &pv);
        fc_post_vanilla post;
        fc_post_partition part;
        CHECK(fc_post_generate(pp, rnd, 0, 0, &pv, &post, &e) == CUZK_OK &&
                  fc_post_partition_assemble(&part, pp, rnd, 1000, 0, &post, 1, &e) == CUZK_OK,
              "512 MiB WindowPoSt: %s", e.msg);
        fc_post_partition_free(&part);
        uint8_t *buf = NULL;
        size_t len = 0;
        CHECK(fc_post_vanilla_write(&post, &buf, &len, &e) == CUZK_OK && len == 20080, "WindowPoSt %zu bytes", len);
        free(buf);
        fc_post_vanilla_free(&post);
        const fc_snap_proof *u;
        fc_snap_proof_get(2, &u, NULL);
        fc_snap_sector ns;
        double t0 = now();
        uint64_t cap = 4u << 20; /* 4 MiB of new data, the rest zero */
        uint8_t *data = malloc(cap);
        if (data) {
            memset(data, 1, cap);
            CHECK(fc_snap_encode(&ns, &s, u, data, cap, NULL, dir, threads, &e) == CUZK_OK, "SnapDeals: %s", e.msg);
            free(data);
            printf("512 MiB SnapDeals encoding: %.1f s, peak RSS %lu MB\n", now() - t0, peak_kb() / 1024);
            fc_snap_view v;
            fc_snap_sector_view(&ns, &v);
            for (uint32_t k = 0; k < u->partitions; k += 15) {
                fc_snap_partition_proof pr;
                CHECK(fc_snap_partition_generate(&v, k, &pr, &e) == CUZK_OK &&
                          fc_snap_partition_check(u, k, v.comm_r_old, v.comm_d_new, v.comm_r_new, &pr, &e) == CUZK_OK,
                      "SnapDeals partition %u: %s", k, e.msg);
                CHECK(fc_snap_partition_write(&pr, &buf, &len, &e) == CUZK_OK && len == 453064, "partition %zu bytes",
                      len);
                free(buf);
                fc_snap_partition_free(&pr);
            }
            fc_snap_sector_free(&ns);
        }
        fc_sector_free(&s);
    }
    static const unsigned ids8[] = {11, 16};
    for (int i = 0; i < 2; i++)
        if (seal(&s, ids8[i], NULL, threads, ids8[i] == 11 ? "8 MiB synthetic" : "8 MiB non-interactive")) {
            c1(&s, ids8[i] == 11 ? "8 MiB synthetic" : "8 MiB non-interactive");
            fc_sector_free(&s);
        }
    return check_summary("filecoin seal long");
}
