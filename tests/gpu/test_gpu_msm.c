/* The device G1 MSM (src/gpu/msm.h) on every device (gpu_test_util.h) against the CPU's msm_g1
 * (src/msm, itself checked against @noble/curves and snarkjs): the normalised results must be
 * the same bytes.
 *
 * Bases: seeded random points (multiples of the generator by random scalars, then running sums
 * of them) with points at infinity, repeated points and opposite pairs mixed in. Scalar mixes:
 * random, all 0/1, Filecoin-like (90% 0/1, a few small, a few full-size), all zero, all one,
 * edge values (0, 1, 2, r - 1, r - 2, 2^k, 2^k - 1, values that fill a window), all the same
 * value. Sizes 0, 1, 2, 3, 100, 2^12 + 1, and 2^13 + 3 in chunks of 2^12 with small sort batches
 * (several chunks and batches, checked from the stats); both entry points (device and host
 * scalars), first > 0, forced window sizes 2..16, forced reduction segments (their sums added
 * on the device in 0, 1 and 2 rounds). Density-filtered queries (gpu_msm_g1_indexed
 * over gpu_msm_density_index) against msm_g1_density: densities of 0..100%, witness windows at
 * an offset, several chunks. Then every argument error.
 * `--max-log N` (N >= 12) sets the largest size 2^N + 3 (tests/gpu/device-check.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "field/fr.h"
#include "gpu/msm.h"
#include "gpu_test_util.h"
#include "msm/msm.h"

static unsigned max_log = 13;
static uint64_t seed = 0x6d736d5f67707531ULL;

static uint64_t rnd64(void)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed ^ (seed >> 29);
}

static void random_fr(fr_t *x)
{
    uint64_t l[4];
    for (int j = 0; j < 4; j++)
        l[j] = rnd64();
    fr_from_limbs_reduce(x, l);
}

/* n bases: running sums of 16 random multiples of G, with special points placed in */
static g1_affine_t *make_bases(size_t n)
{
    g1_affine_t g, *out = malloc(n * sizeof *out);
    g1_jac_t *jac = malloc(n * sizeof *jac), step[16], gj, acc;
    g1_generator(&g);
    g1_jac_from_affine(&gj, &g);
    for (int j = 0; j < 16; j++) {
        fr_t k;
        random_fr(&k);
        g1_mul_fr(&step[j], &gj, &k);
    }
    acc = gj;
    for (size_t i = 0; i < n; i++) {
        g1_add(&acc, &acc, &step[rnd64() & 15]);
        jac[i] = acc;
    }
    g1_batch_to_affine(out, jac, n);
    free(jac);
    /* infinity, repeats and opposites at fixed places (and near the end) */
    size_t inf[] = {0, 5, 77, n - 1}, rep[] = {10, 11, 12, 40}, opp = 20;
    for (size_t i = 0; i < sizeof inf / sizeof inf[0]; i++)
        if (inf[i] < n)
            g1_affine_set_infinity(&out[inf[i]]);
    for (size_t i = 1; i < sizeof rep / sizeof rep[0]; i++)
        if (rep[i] < n)
            out[rep[i]] = out[rep[0]];
    if (opp + 1 < n)
        g1_affine_neg(&out[opp + 1], &out[opp]);
    return out;
}

enum { MIX_RANDOM, MIX_BOOL, MIX_FILECOIN, MIX_ZERO, MIX_ONE, MIX_EDGE, MIX_SAME, MIX_COUNT };
static const char *const mix_names[MIX_COUNT] = {"random", "0/1", "filecoin", "all-zero", "all-one", "edge", "same"};

static void set_small(uint64_t *s, uint64_t v)
{
    s[0] = v;
    s[1] = s[2] = s[3] = 0;
}

/* canonical limbs of scalar i of mix `mix` */
static void make_scalar(uint64_t *s, int mix, size_t i)
{
    fr_t x;
    switch (mix) {
    case MIX_RANDOM:
        random_fr(&x);
        fr_to_limbs(s, &x);
        return;
    case MIX_BOOL:
        set_small(s, rnd64() & 1);
        return;
    case MIX_FILECOIN: {
        uint64_t r = rnd64() % 100;
        if (r < 60)
            set_small(s, 0);
        else if (r < 90)
            set_small(s, 1);
        else if (r < 95)
            set_small(s, 2 + rnd64() % 300);
        else {
            random_fr(&x);
            fr_to_limbs(s, &x);
        }
        return;
    }
    case MIX_ZERO:
        set_small(s, 0);
        return;
    case MIX_ONE:
        set_small(s, 1);
        return;
    case MIX_EDGE: {
        unsigned k = (unsigned)(i % 12);
        if (k < 3) { /* r - 1, r - 2, r - 3 */
            fr_t one, d;
            fr_from_u64(&one, k + 1);
            fr_neg(&d, &one);
            fr_to_limbs(s, &d);
        } else if (k < 6) {
            set_small(s, k - 3); /* 0, 1, 2 */
        } else if (k < 8) { /* 2^b and 2^b - 1 for b in [0, 254] */
            unsigned b = (unsigned)(rnd64() % 255);
            memset(s, 0, 4 * sizeof *s);
            s[b / 64] = (uint64_t)1 << (b % 64);
            if (k == 7) {
                for (unsigned j = 0; j < 4; j++) /* subtract 1 */
                    if (s[j]--)
                        break;
            }
        } else if (k < 10) { /* all-ones runs: every window digit at its extreme */
            s[0] = s[1] = s[2] = ~0ULL;
            s[3] = 0x3fffffffffffffffULL;
            if (k == 9)
                s[0] = 0x5555555555555555ULL;
        } else {
            random_fr(&x);
            fr_to_limbs(s, &x);
        }
        return;
    }
    default: /* MIX_SAME: one random value repeated */
        s[0] = 0x1234567890abcdefULL;
        s[1] = 0xfedcba0987654321ULL;
        s[2] = 0x0f0f0f0f0f0f0f0fULL;
        s[3] = 0x1111111111111111ULL;
        return;
    }
}

typedef struct {
    gpu_test_dev *d;
    gpu_msm_bases *bases;
    const g1_affine_t *host_bases;
    size_t nbases;
} ctx;

/* one case: the CPU sum over bases[first .. first + n) vs the device through both entry points */
static void run_case(ctx *c, int mix, size_t first, size_t n, const gpu_msm_opts *opts, const char *tag,
                     gpu_msm_stats *stats_out)
{
    uint64_t *s = malloc((n ? n : 1) * 4 * sizeof *s);
    for (size_t i = 0; i < n; i++)
        make_scalar(&s[4 * i], mix, i);
    g1_jac_t want, got;
    cuzk_error err = {0};
    char what[160];
    snprintf(what, sizeof what, "%s n=%zu first=%zu mix=%s", tag, n, first, mix_names[mix]);
    if (msm_g1(&want, c->host_bases + first, s, n, NULL, &err)) {
        CHECK(false, "CPU msm_g1 %s: %s", what, err.msg);
        free(s);
        return;
    }
    gpu_msm_stats st_host = {0}, st_dev = {0};
    cuzk_status st = gpu_msm_g1_ex(c->d->q, c->bases, first, NULL, (const uint8_t *)s, n, opts, &st_host, &got, &err);
    char w2[200];
    snprintf(w2, sizeof w2, "%s (host scalars)", what);
    if (!gpu_test_ok(st, &err, w2, c->d->label))
        CHECK(!memcmp(&got, &want, sizeof got), "%s: %s: differs from msm_g1", c->d->label, w2);
    /* device scalars */
    gpu_buffer *buf = NULL;
    st = gpu_buffer_alloc(c->d->dev, (n ? n : 1) * 32, &buf, &err);
    if (!st)
        st = gpu_upload(c->d->q, buf, 0, s, n * 32, &err);
    if (!st)
        st = gpu_queue_sync(c->d->q, &err);
    memset(&got, 0xa5, sizeof got);
    if (!st)
        st = gpu_msm_g1_ex(c->d->q, c->bases, first, buf, NULL, n, opts, &st_dev, &got, &err);
    snprintf(w2, sizeof w2, "%s (device scalars)", what);
    if (!gpu_test_ok(st, &err, w2, c->d->label)) {
        CHECK(!memcmp(&got, &want, sizeof got), "%s: %s: differs from msm_g1", c->d->label, w2);
        CHECK(st_dev.zeros + st_dev.ones + st_dev.large == n && st_dev.ones == st_host.ones &&
                  st_dev.large == st_host.large,
              "%s: %s: stats %zu/%zu/%zu vs host %zu/%zu/%zu", c->d->label, w2, st_dev.zeros, st_dev.ones,
              st_dev.large, st_host.zeros, st_host.ones, st_host.large);
    }
    gpu_buffer_free(buf);
    if (stats_out)
        *stats_out = st_dev;
    free(s);
}

static void test_values(ctx *c)
{
    static const size_t small[] = {0, 1, 2, 3, 100};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        for (int mix = 0; mix < MIX_COUNT; mix++)
            run_case(c, mix, 0, small[i], NULL, "small", NULL);
    /* first > 0 */
    for (int mix = 0; mix < MIX_COUNT; mix++)
        run_case(c, mix, 7, 100, NULL, "offset", NULL);
    /* every window size on a small random MSM (and edge values), including c = 16's empty buckets */
    for (unsigned w = GPU_MSM_MIN_WINDOW; w <= GPU_MSM_MAX_WINDOW; w++) {
        gpu_msm_opts o = {0, w, 0, 0};
        char tag[32];
        snprintf(tag, sizeof tag, "window %u", w);
        run_case(c, w & 1 ? MIX_EDGE : MIX_RANDOM, 3, 64, &o, tag, NULL);
    }
    /* the reduction's segment sums added on the device in one round (c = 16 with 32 segments
     * a window: 32 -> 2; c = 10 asked for 300, 256 of 2 buckets: 256 -> 16) and in two (c = 12
     * with 512: 512 -> 32 -> 2), against none (4) */
    static const struct { unsigned w, segs, rounds; } red[] = {{16, 32, 1}, {12, 512, 2}, {12, 4, 0}, {10, 300, 1}};
    for (size_t i = 0; i < sizeof red / sizeof red[0]; i++) {
        gpu_msm_opts o = {0, red[i].w, 0, red[i].segs};
        gpu_msm_stats s = {0};
        char tag[48];
        snprintf(tag, sizeof tag, "window %u, %u segments", red[i].w, red[i].segs);
        run_case(c, i & 1 ? MIX_EDGE : MIX_RANDOM, 5, 700, &o, tag, &s);
        CHECK(s.sum_rounds == red[i].rounds && s.segments <= red[i].segs, "%s: %s: %u device rounds, %zu segments",
              c->d->label, tag, s.sum_rounds, s.segments);
    }
    /* 2^12 + 1, each mix, the default plan */
    size_t mid = ((size_t)1 << 12) + 1;
    for (int mix = 0; mix < MIX_COUNT; mix++) {
        gpu_msm_stats s = {0};
        run_case(c, mix, 1, mid, NULL, "2^12+1", &s);
        if (mix == MIX_FILECOIN)
            CHECK(s.ones > 0 && s.large > 0 && s.zeros > 0 && s.chunks == 1, "%s: filecoin 2^12+1 split %zu/%zu/%zu",
                  c->d->label, s.zeros, s.ones, s.large);
    }
    /* the large size: several chunks and several sort batches per chunk */
    size_t big = ((size_t)1 << max_log) + 3;
    gpu_msm_opts o = {(size_t)1 << 12, 0, 2048, 0};
    for (int mix = 0; mix < MIX_COUNT; mix++) {
        if (mix == MIX_ZERO || mix == MIX_ONE || mix == MIX_SAME)
            continue; /* covered at 2^12 + 1 */
        gpu_msm_stats s = {0};
        run_case(c, mix, c->nbases - big, big, &o, "chunked", &s);
        if (mix == MIX_RANDOM)
            CHECK(s.chunks == (big + 4095) / 4096 && s.batches > s.chunks && s.window_bits >= 2,
                  "%s: chunked random: %zu chunks, %zu batches, c = %u", c->d->label, s.chunks, s.batches,
                  s.window_bits);
    }
    /* and the default chunking at the large size (one chunk, planned window) */
    run_case(c, MIX_RANDOM, 0, big, NULL, "default", NULL);
}

/* A density-filtered query (gpu_msm_g1_indexed over gpu_msm_density_index) against the CPU's
 * msm_g1_density: nvars witness scalars at offset sfirst of a device buffer, a density bitmap
 * keeping about `keep` percent of them (first and last variable set), bases[first ..] the
 * dense ones. */
static void run_density_case(ctx *c, int mix, size_t nvars, unsigned keep, size_t sfirst, size_t first,
                             const gpu_msm_opts *opts, const char *tag)
{
    size_t words = nvars / 64 + 1;
    uint64_t *density = calloc(words, sizeof *density), *w = malloc((sfirst + nvars + 1) * 4 * sizeof *w);
    size_t m = 0;
    for (size_t i = 0; i < nvars; i++)
        if (i == 0 || i == nvars - 1 || rnd64() % 100 < keep) {
            density[i / 64] |= 1ull << (i % 64);
            m++;
        }
    memset(w, 0x5a, sfirst * 32); /* not scalars: never read */
    for (size_t i = 0; i < nvars; i++)
        make_scalar(&w[4 * (sfirst + i)], mix, i);
    char what[160];
    snprintf(what, sizeof what, "%s: density %u%% of %zu (%zu) mix=%s sfirst=%zu first=%zu", tag, keep, nvars, m,
             mix_names[mix], sfirst, first);
    g1_jac_t want, got;
    cuzk_error err = {0};
    cuzk_status st = msm_g1_density(&want, c->host_bases + first, m, density, w + 4 * sfirst, nvars, NULL, &err);
    CHECK(!st, "CPU msm_g1_density %s: %s", what, err.msg);
    gpu_buffer *idx = NULL, *buf = NULL;
    size_t count = 0;
    if (!st)
        st = gpu_msm_density_index(c->d->q, density, nvars, &idx, &count, &err);
    if (!st)
        st = gpu_buffer_alloc(c->d->dev, (sfirst + nvars) * 32, &buf, &err);
    if (!st)
        st = gpu_upload(c->d->q, buf, 0, w, (sfirst + nvars) * 32, &err);
    if (!st)
        st = gpu_queue_sync(c->d->q, &err);
    gpu_msm_stats stats = {0};
    if (!st)
        st = gpu_msm_g1_indexed(c->d->q, c->bases, first, buf, sfirst, nvars, idx, count, opts, &stats, &got, &err);
    if (!gpu_test_ok(st, &err, what, c->d->label)) {
        CHECK(count == m, "%s: %s: index of %zu entries, %zu bits set", c->d->label, what, count, m);
        CHECK(!memcmp(&got, &want, sizeof got), "%s: %s: differs from msm_g1_density", c->d->label, what);
        CHECK(stats.zeros + stats.ones + stats.large == m, "%s: %s: stats cover %zu of %zu scalars", c->d->label, what,
              stats.zeros + stats.ones + stats.large, m);
    }
    gpu_buffer_free(idx);
    gpu_buffer_free(buf);
    free(density);
    free(w);
}

static void test_density(ctx *c)
{
    static const unsigned keeps[] = {0, 3, 50, 97, 100};
    for (size_t k = 0; k < sizeof keeps / sizeof keeps[0]; k++)
        for (int mix = 0; mix < MIX_COUNT; mix++)
            run_density_case(c, mix, 300, keeps[k], mix & 1 ? 5 : 0, mix & 2 ? 3 : 0, NULL, "small");
    /* several chunks (each gathers its own part of the index), a large window of scalars */
    gpu_msm_opts o = {(size_t)1 << 10, 0, 4096, 0};
    run_density_case(c, MIX_FILECOIN, (size_t)1 << 12, 60, 17, 1, &o, "chunked"); /* fits --max-log 12 */
    run_density_case(c, MIX_RANDOM, (size_t)1 << 12, 30, 0, 0, &o, "chunked");
    /* without an index: the scalars read in place from sfirst */
    uint64_t *w = malloc(40 * 32);
    for (size_t i = 0; i < 40; i++)
        make_scalar(&w[4 * i], MIX_FILECOIN, i);
    g1_jac_t want, got;
    cuzk_error err = {0};
    gpu_buffer *buf = NULL;
    CHECK(!msm_g1(&want, c->host_bases + 2, w + 4 * 9, 31, NULL, &err), "CPU msm_g1: %s", err.msg);
    cuzk_status st = gpu_buffer_alloc(c->d->dev, 40 * 32, &buf, &err);
    if (!st)
        st = gpu_upload(c->d->q, buf, 0, w, 40 * 32, &err);
    if (!st)
        st = gpu_msm_g1_indexed(c->d->q, c->bases, 2, buf, 9, 31, NULL, 31, NULL, NULL, &got, &err);
    if (!gpu_test_ok(st, &err, "no index, sfirst 9", c->d->label))
        CHECK(!memcmp(&got, &want, sizeof got), "%s: no index, sfirst 9: differs from msm_g1", c->d->label);
    /* errors: an index entry past the scalars (found on the device), too few scalars, short index */
    gpu_buffer *idx = NULL;
    uint32_t bad[4] = {0, 3, 31, 2};
    if (!st)
        st = gpu_buffer_alloc(c->d->dev, sizeof bad, &idx, &err);
    if (!st)
        st = gpu_upload(c->d->q, idx, 0, bad, sizeof bad, &err);
    if (!st)
        st = gpu_queue_sync(c->d->q, &err);
    if (!st) {
        st = gpu_msm_g1_indexed(c->d->q, c->bases, 0, buf, 9, 31, idx, 4, NULL, NULL, &got, &err);
        CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "index 2 "), "index past the scalars: %s (%s)",
              cuzk_status_name(st), err.msg);
        st = gpu_msm_g1_indexed(c->d->q, c->bases, 0, buf, 9, 30, NULL, 31, NULL, NULL, &got, &err);
        CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "fewer scalars"), "n > nscalars: %s", err.msg);
        st = gpu_msm_g1_indexed(c->d->q, c->bases, 0, buf, 9, 32, NULL, 20, NULL, NULL, &got, &err);
        CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "holds 1280 bytes"), "window past the buffer: %s", err.msg);
        st = gpu_msm_g1_indexed(c->d->q, c->bases, 0, buf, 0, 40, idx, 5, NULL, NULL, &got, &err);
        CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "index buffer"), "short index: %s", err.msg);
    }
    size_t count = 1;
    gpu_buffer *none = (gpu_buffer *)1;
    uint64_t zero = 0;
    CHECK(!gpu_msm_density_index(c->d->q, &zero, 64, &none, &count, &err) && !none && count == 0,
          "empty density: %s", err.msg);
    gpu_buffer_free(idx);
    gpu_buffer_free(buf);
    free(w);
}

static void test_errors(ctx *c)
{
    cuzk_error err = {0};
    g1_jac_t r;
    uint8_t sc[64] = {0};
    gpu_queue *q = c->d->q;
    size_t nb = gpu_msm_bases_count(c->bases);
    CHECK(gpu_msm_bases_bytes(c->bases) == nb * sizeof(g1_affine_t), "bases bytes %zu for %zu points",
          gpu_msm_bases_bytes(c->bases), nb);
    CHECK(gpu_msm_g1_host(NULL, c->bases, 0, sc, 1, &r, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "queue"),
          "NULL queue: %s", err.msg);
    CHECK(gpu_msm_g1_host(q, NULL, 0, sc, 1, &r, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "bases"),
          "NULL bases: %s", err.msg);
    CHECK(gpu_msm_g1_host(q, c->bases, 0, sc, 1, NULL, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "result"),
          "NULL result: %s", err.msg);
    CHECK(gpu_msm_g1_host(q, c->bases, 0, NULL, 1, &r, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "scalars"),
          "NULL scalars: %s", err.msg);
    CHECK(gpu_msm_g1(q, c->bases, 0, NULL, 1, &r, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "scalars"),
          "NULL device scalars: %s", err.msg);
    CHECK(gpu_msm_g1_host(q, c->bases, nb - 1, sc, 2, &r, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "first"),
          "first + n past the bases: %s", err.msg);
    CHECK(gpu_msm_g1_host(q, c->bases, nb + 1, sc, 0, &r, &err) == CUZK_E_INVALID_ARG, "first past the bases: %s",
          err.msg);
    gpu_msm_opts bad = {0, 17, 0, 0};
    CHECK(gpu_msm_g1_ex(q, c->bases, 0, NULL, sc, 1, &bad, NULL, &r, &err) == CUZK_E_INVALID_ARG &&
              strstr(err.msg, "window_bits"),
          "window 17: %s", err.msg);
    gpu_msm_opts bad2 = {0, 0, 100, 0};
    CHECK(gpu_msm_g1_ex(q, c->bases, 0, NULL, sc, 1, &bad2, NULL, &r, &err) == CUZK_E_INVALID_ARG &&
              strstr(err.msg, "max_pairs"),
          "max_pairs 100: %s", err.msg);
    gpu_buffer *b = NULL;
    if (!gpu_buffer_alloc(c->d->dev, 64, &b, &err)) {
        CHECK(gpu_msm_g1(q, c->bases, 0, b, 3, &r, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "holds 64 bytes"),
              "short scalar buffer: %s", err.msg);
        CHECK(gpu_msm_g1_ex(q, c->bases, 0, b, sc, 1, NULL, NULL, &r, &err) == CUZK_E_INVALID_ARG,
              "scalars on both sides: %s", err.msg);
    }
    gpu_buffer_free(b);
    /* a scalar >= r (r itself, then 2^256 - 1) at index 1 of 2, result untouched */
    uint64_t s[8] = {0};
    fr_t one, m1;
    fr_from_u64(&one, 1);
    fr_neg(&m1, &one);
    fr_to_limbs(s + 4, &m1);
    s[4] += 1; /* r - 1 + 1 = r: the low limb of r - 1 is even, no carry */
    g1_jac_set_infinity(&r);
    g1_jac_t keep = r;
    cuzk_status st = gpu_msm_g1_host(q, c->bases, 0, (const uint8_t *)s, 2, &r, &err);
    CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "scalar 1 ") && !memcmp(&r, &keep, sizeof r),
          "scalar r: %s (%s)", cuzk_status_name(st), err.msg);
    memset(s + 4, 0xff, 32);
    st = gpu_msm_g1_host(q, c->bases, 0, (const uint8_t *)s, 2, &r, &err);
    CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "scalar 1 "), "scalar 2^256 - 1: %s (%s)",
          cuzk_status_name(st), err.msg);
    /* uploads */
    gpu_msm_bases *e = NULL;
    CHECK(gpu_msm_bases_upload(q, NULL, 3, &e, &err) == CUZK_E_INVALID_ARG, "NULL points: %s", err.msg);
    CHECK(gpu_msm_bases_upload(q, c->host_bases, 0, &e, &err) == CUZK_OK && gpu_msm_bases_count(e) == 0 &&
              gpu_msm_bases_bytes(e) == 0,
          "empty table: %s", err.msg);
    if (e) {
        CHECK(gpu_msm_g1_host(q, e, 0, NULL, 0, &r, &err) == CUZK_OK && g1_jac_is_infinity(&r), "empty MSM: %s",
              err.msg);
    }
    gpu_msm_bases_free(e);
    gpu_msm_bases_free(NULL);
    CHECK(gpu_msm_bases_count(NULL) == 0 && gpu_msm_bases_bytes(NULL) == 0, "NULL table counts");
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--max-log") && i + 1 < argc && atoi(argv[i + 1]) >= 12 && atoi(argv[i + 1]) <= 24) {
            max_log = (unsigned)atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: test_gpu_msm [--max-log N in 12..24]\n");
            return 2;
        }
    }
    size_t nbases = ((size_t)1 << max_log) + 16;
    g1_affine_t *hb = make_bases(nbases);
    gpu_test_dev devs[GPU_TEST_MAX_DEVICES];
    size_t nd = gpu_test_open_all(devs, &gpu_program_test_);
    for (size_t i = 0; i < nd; i++) {
        ctx c = {&devs[i], NULL, hb, nbases};
        cuzk_error err = {0};
        if (gpu_test_ok(gpu_msm_bases_upload(devs[i].q, hb, nbases, &c.bases, &err), &err, "upload", devs[i].label))
            continue;
        test_values(&c);
        test_density(&c);
        test_errors(&c);
        gpu_msm_bases_free(c.bases);
    }
    gpu_test_close_all(devs, nd);
    free(hb);
    return check_summary("gpu_msm");
}
