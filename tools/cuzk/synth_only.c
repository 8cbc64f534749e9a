/* `--synth-only`: one partition's synthesis as the prover does it, timed phase by phase on
 * one thread (synth_only.h). */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cli.h"
#include "cs/pce.h"
#include "engine/abc_pool.h"
#include "engine/budget.h"
#include "synth_only.h"

/* Wall and this thread's user / system CPU seconds at one instant, or of one phase. */
typedef struct {
    double wall, user, sys;
} tick;

static tick tick_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    return (tick){cli_now_ms() / 1e3, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
                  ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6};
}

static tick tick_since(tick t0)
{
    tick t = tick_now();
    return (tick){t.wall - t0.wall, t.user - t0.user, t.sys - t0.sys};
}

/* The faster of the best so far and t (a first t always wins: best->wall < 0). */
static void tick_best(tick *best, tick t)
{
    if (best->wall < 0 || t.wall < best->wall)
        *best = t;
}

static void print_tick(const char *name, tick t)
{
    printf(",\"%s_s\":%.3f,\"%s_user_s\":%.3f,\"%s_sys_s\":%.3f", name, t.wall, name, t.user, name, t.sys);
}

static uint64_t peak_rss(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb * 1024;
}

/* a/b/c buffers of one size from an engine a/b/c pool, charged to a budget of their own, used
 * as the engine uses them: a partition reserves the bytes, takes the buffer, gives it back
 * and its reservation is adopted as the pool's charge. */
typedef struct {
    cuzk_budget budget;
    cuzk_abc_pool *pool;
    cuzk_region_alloc region;
    uint64_t bytes;
} bench_pool;

/* the reservation of a partition about to take its a/b/c */
static cuzk_status bench_pool_reserve(bench_pool *bp, cuzk_error *err)
{
    return cuzk_budget_acquire(&bp->budget, bp->bytes, NULL, NULL, err);
}

/* after the buffer went back (put): its reservation becomes the pool's charge */
static void bench_pool_release(bench_pool *bp)
{
    uint64_t adopted = cuzk_abc_pool_adopt(bp->pool, bp->bytes);
    cuzk_budget_release(&bp->budget, bp->bytes - adopted);
}

/* A pool holding one pre-faulted free buffer of `bytes` (mapped before any timing). */
static cuzk_status bench_pool_open(bench_pool *bp, uint64_t bytes, cuzk_error *err)
{
    memset(bp, 0, sizeof *bp);
    bp->bytes = bytes;
    cuzk_status st = cuzk_budget_init(&bp->budget, 2 * bytes, NULL, err);
    if (st)
        return st;
    cuzk_abc_pool_config cfg;
    cuzk_abc_pool_config_default(&cfg);
    cfg.idle_ms = 0;
    if ((st = cuzk_abc_pool_create(&cfg, &bp->budget, NULL, &bp->pool, err))) {
        cuzk_budget_destroy(&bp->budget);
        return st;
    }
    cuzk_abc_pool_region(bp->pool, &bp->region);
    void *mem;
    if (!(st = bench_pool_reserve(bp, err))) {
        if (!(st = cuzk_abc_pool_get(bp->pool, bytes, &mem, err)))
            cuzk_abc_pool_put(bp->pool, mem);
        bench_pool_release(bp);
    }
    return st;
}

static void bench_pool_close(bench_pool *bp)
{
    if (!bp->pool)
        return;
    cuzk_abc_pool_destroy(bp->pool);
    cuzk_budget_destroy(&bp->budget);
    bp->pool = NULL;
}

typedef struct {
    tick record, products;
    uint64_t size;
    bool rows_hold;
} synth_pce_timing;

/* --pce: record partition k's PCE in memory (sized by the shape pass `n`), then a, b, c of
 * `rows` elements from the compact witness (in, aux) on one thread, `repeats` times (the
 * fastest kept), as the engine's PCE path does; the rows' a*b = c check runs after the
 * timing. a/b/c from `bp` (NULL: malloc, fresh for each repeat). */
static cuzk_status synth_only_pce(const fc_job *job, uint32_t k, const cs_counts *n, uint64_t rows, const fr_t *in,
                                  uint64_t ni, const cs_witness *aux, unsigned repeats, bench_pool *bp,
                                  synth_pce_timing *out, cuzk_error *err)
{
    cs_t cs;
    cs_pce pce = {0};
    cs_pce_identity id;
    memset(&id, 0, sizeof id);
    fc_job_circuit_name(job, id.circuit, sizeof id.circuit);
    tick t0 = tick_now();
    cuzk_status st = cs_init_record_pce(&cs, n);
    if (st)
        *err = cs.err;
    else if (!(st = fc_job_synthesize(job, k, &cs, err)) && (st = cs_take_pce(&cs, &id, &pce)))
        *err = cs.err;
    cs_free(&cs);
    out->record = tick_since(t0);
    out->products.wall = -1;
    if (st)
        return st;
    out->size = cs_pce_size(&pce);
    size_t vec = (size_t)rows * sizeof(fr_t);
    for (unsigned r = 0; r < repeats && !st; r++) {
        fr_t *v[3] = {NULL, NULL, NULL};
        void *region = NULL;
        if (bp && !(st = bench_pool_reserve(bp, err))) {
            region = bp->region.get(bp->region.ctx, 3 * vec);
            if (region)
                for (int i = 0; i < 3; i++)
                    v[i] = (fr_t *)((char *)region + i * vec);
        } else if (!bp) {
            for (int i = 0; i < 3; i++)
                v[i] = malloc(vec);
        }
        if (st) {
            break;
        } else if (!v[0] || !v[1] || !v[2]) {
            st = cuzk_fail(err, CUZK_E_NOMEM, "out of memory for a/b/c of %llu rows", (unsigned long long)rows);
        } else {
            tick t1 = tick_now();
            st = cs_pce_eval_compact(&pce, in, ni, aux, v[0], v[1], v[2], 1, err);
            tick_best(&out->products, tick_since(t1));
            uint64_t bad = 0;
            out->rows_hold = !st && cs_pce_rows_hold(&pce, v[0], v[1], v[2], 1, &bad);
        }
        if (region) {
            bp->region.put(bp->region.ctx, region);
        } else if (!bp) {
            for (int i = 0; i < 3; i++)
                free(v[i]);
        }
        if (bp)
            bench_pool_release(bp);
    }
    cs_pce_free(&pce);
    return st;
}

/* The proving-mode synthesis (CS_PROVE into exact buffers, as the engine's direct path)
 * `repeats` times, the fastest kept in *best; the densities of the last. */
static cuzk_status synth_direct(const fc_job *job, uint32_t k, cs_prove_hint h, unsigned repeats, bench_pool *bp,
                                tick *best, uint64_t *a_count, uint64_t *b_count, cuzk_error *err)
{
    best->wall = -1;
    h.abc_alloc = bp ? &bp->region : NULL;
    cuzk_status st = CUZK_OK;
    for (unsigned r = 0; r < repeats && !st; r++) {
        if (bp && (st = bench_pool_reserve(bp, err)))
            break;
        cs_t cs;
        tick t0 = tick_now();
        st = cs_init_prove(&cs, &h, CS_COMPACT_AUX);
        if (st)
            *err = cs.err;
        else
            st = fc_job_synthesize(job, k, &cs, err);
        tick_best(best, tick_since(t0));
        cs_assignment as;
        if (!st && (st = cs_take_assignment(&cs, h.rows, &as)))
            *err = cs.err;
        cs_free(&cs);
        if (!st) {
            *a_count = as.a_count;
            *b_count = as.b_count;
            cs_assignment_free(&as);
        }
        if (bp)
            bench_pool_release(bp);
    }
    return st;
}

static int fail(const synth_only_opts *o, cuzk_status st, cuzk_error *err)
{
    err->code = st;
    return cli_fail(o->cmd, err);
}

int synth_only_run(const synth_only_opts *o, const fc_job *job)
{
    uint32_t k = o->partition;
    unsigned repeats = o->repeats ? o->repeats : 1;
    cuzk_error err = {0};
    cs_t cs;
    tick t0 = tick_now();
    cuzk_status st = cs_init(&cs, CS_SHAPE, 0);
    if (!st)
        st = fc_job_synthesize(job, k, &cs, &err);
    cs_counts n;
    cs_get_counts(&cs, &n);
    cs_free(&cs);
    tick t_shape = tick_since(t0);
    if (st)
        return fail(o, st, &err);
    uint64_t rows = 1;
    while (rows < n.constraints + n.inputs)
        rows <<= 1;
    cs_prove_hint h = {rows, n.inputs, n.aux, NULL};
    /* witness only, compact: what the PCE path synthesizes and the prover keeps */
    tick tw = tick_now();
    fr_t *in = NULL;
    uint64_t ni = 0;
    cs_witness aux = {0};
    st = cs_init_witness(&cs, &h, CS_COMPACT_AUX);
    if (st)
        err = cs.err;
    else if (!(st = fc_job_synthesize(job, k, &cs, &err)) && (st = cs_take_witness_compact(&cs, &in, &ni, &aux)))
        err = cs.err;
    cs_free(&cs);
    tick t_wit = tick_since(tw);
    if (st)
        return fail(o, st, &err);
    uint64_t nv = n.inputs + n.aux, abc = 3 * rows * sizeof(fr_t), wit = nv * sizeof(fr_t), dens = 2 * (nv / 64 + 1) * 8;
    uint64_t compact = cs_witness_bytes(&aux) + ni * sizeof(fr_t), big = aux.n_big;
    if (!o->pce) { /* not needed further: out of the way of the a/b/c */
        free(in);
        cs_witness_free(&aux);
        in = NULL;
    }
    bench_pool bp = {0};
    bool use_pool = o->abc_pool && (!o->witness_only || o->pce);
    if (use_pool && (st = bench_pool_open(&bp, abc, &err))) {
        free(in);
        cs_witness_free(&aux);
        bench_pool_close(&bp);
        return fail(o, st, &err);
    }
    tick t_synth = {0};
    uint64_t a_count = 0, b_count = 0;
    if (!o->witness_only)
        st = synth_direct(job, k, h, repeats, use_pool ? &bp : NULL, &t_synth, &a_count, &b_count, &err);
    synth_pce_timing pt = {0};
    if (!st && o->pce)
        st = synth_only_pce(job, k, &n, rows, in, ni, &aux, repeats, use_pool ? &bp : NULL, &pt, &err);
    free(in);
    cs_witness_free(&aux);
    cuzk_abc_pool_stats ps = {0};
    if (use_pool)
        cuzk_abc_pool_stats_get(bp.pool, &ps);
    bench_pool_close(&bp);
    if (st)
        return fail(o, st, &err);
    printf("{\"partition\":%u,\"constraints\":%llu,\"inputs\":%llu,\"aux\":%llu,\"domain\":%llu,"
           "\"abc_bytes\":%llu,\"witness_bytes\":%llu,\"witness_compact_bytes\":%llu,\"witness_big\":%llu,"
           "\"density_bytes\":%llu,\"pce_bytes\":%llu,\"repeats\":%u,\"abc_pool\":%s",
           k, (unsigned long long)n.constraints, (unsigned long long)n.inputs, (unsigned long long)n.aux,
           (unsigned long long)rows, (unsigned long long)abc, (unsigned long long)wit, (unsigned long long)compact,
           (unsigned long long)big, (unsigned long long)dens, (unsigned long long)cs_pce_bytes(&n), repeats,
           use_pool ? "true" : "false");
    print_tick("shape", t_shape);
    print_tick("witness", t_wit);
    if (use_pool)
        printf(",\"pool_created\":%llu,\"pool_reused\":%llu,\"pool_hugepage_refused\":%llu",
               (unsigned long long)ps.created, (unsigned long long)ps.reused, (unsigned long long)ps.hugepage_refused);
    if (!o->witness_only) {
        print_tick("synthesis", t_synth);
        printf(",\"synthesis_cpu_s\":%.3f,\"a_dense\":%llu,\"b_dense\":%llu", t_synth.user + t_synth.sys,
               (unsigned long long)a_count, (unsigned long long)b_count);
    }
    if (o->pce) {
        double pce_s = t_wit.wall + pt.products.wall;
        print_tick("pce_record", pt.record);
        print_tick("pce_products", pt.products);
        printf(",\"pce_size_bytes\":%llu,\"pce_synthesis_s\":%.3f,\"pce_rows_hold\":%s", (unsigned long long)pt.size,
               pce_s, pt.rows_hold ? "true" : "false");
        if (!o->witness_only)
            printf(",\"pce_speedup\":%.2f", t_synth.wall / pce_s);
    }
    printf(",\"peak_rss_bytes\":%llu}\n", (unsigned long long)peak_rss());
    return CLI_OK;
}
