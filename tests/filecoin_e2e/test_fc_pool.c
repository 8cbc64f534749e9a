/* The engine's a/b/c pool under a Filecoin kind (fc_job_use_abc_pool), on a WinningPoSt of a
 * sealed 2 KiB sector (vanilla proof by cuzk-bench gen-vanilla, test parameters of the
 * fc_params fixture), proved by the CPU backend:
 *   - reuse: the job's partition takes its a/b/c from the pool; a second job, and a third
 *     synthesized through the PCE, are served by the same buffer (pool stats: one buffer
 *     created, two reuses), every partition self-verifies, and at the end every flight
 *     counter is zero but the pool's, whose free bytes are what the budget still holds;
 *   - byte-identical with and without the pool for fixed r, s: the partition synthesized into
 *     a reused pool buffer that was filled with garbage first, directly and through the PCE,
 *     has the a/b/c of malloc'ed direct synthesis over the whole domain and proves to the
 *     same 192 bytes, which verify.
 * Counts are deterministic: one partition a job, one job at a time, a budget with room for
 * everything (no reclaim).
 * Usage: test_fc_pool <WinningPoSt vanilla proof (bincode)> <parameter dir> <scratch dir> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "backends/cpu.h"
#include "common/file_io.h"
#include "kinds/builtin/builtin.h"
#include "engine/engine.h"
#include "kinds/filecoin/fc_job.h"
#include "pool_settled.h"

typedef struct {
    fr_t *abc; /* a | b | c, rows each */
    uint64_t rows;
    uint8_t proof[CUZK_PROOF_BYTES];
} outcome;

/* Synthesize partition 0 of job (a/b/c wherever the job takes them), keep a copy of a/b/c and
 * prove it with fixed r, s. With a pool, the a/b/c share is reserved around it and adopted
 * after, as the engine does. */
static bool prove_fixed(const fc_job *job, cuzk_abc_pool *pool, cuzk_budget *budget, outcome *out)
{
    const cuzk_circuit_kind *k = fc_job_kind(job);
    const groth16_params_t *pk = fc_job_params(job);
    out->rows = (uint64_t)1 << pk->log2_m;
    const uint64_t abc = 3 * out->rows * sizeof(fr_t);
    atomic_bool cancel = false;
    void *as = NULL;
    cuzk_error err = {0};
    fr_t r, s;
    fr_from_u64(&r, 0x1234567), fr_from_u64(&s, 0x7654321);
    groth16_pending_t *pend = NULL;
    groth16_proof_t proof;
    if (pool)
        CHECK(cuzk_budget_acquire(budget, abc, NULL, NULL, &err) == CUZK_OK, "reserve: %s", err.msg);
    bool ok = k->synthesize(k->ctx, job, 0, &cancel, &as, &err) == CUZK_OK;
    if (ok) {
        const builtin_assignment *ba = as;
        CHECK((ba->pool != NULL) == (pool != NULL), "a/b/c %s the pool", ba->pool ? "from" : "not from");
        out->abc = malloc(abc);
        memcpy(out->abc, ba->g.a, abc / 3);
        memcpy(out->abc + out->rows, ba->g.b, abc / 3);
        memcpy(out->abc + 2 * out->rows, ba->g.c, abc / 3);
        groth16_assignment_t g = ba->g;
        g.release_abc = (cuzk_release_cb){0};
        ok = groth16_prove_start_compact(pk, &g, &ba->compact, &r, &s, 2, &pend, &err) == CUZK_OK &&
             groth16_prove_finish(pend, 2, &proof, &err) == CUZK_OK;
        k->free_assignment(k->ctx, as);
    }
    if (pool)
        cuzk_budget_release(budget, abc - cuzk_abc_pool_adopt(pool, abc));
    CHECK(ok, "prove: %s", err.msg);
    if (ok)
        groth16_proof_to_bytes(out->proof, &proof);
    return ok;
}

static bool run_job(cuzk_engine *e, const fc_job *job, const char *name)
{
    cuzk_job_request req = {fc_job_kind(job), job, fc_job_params(job), fc_job_partitions(job),
                            fc_job_default_priority(fc_job_type_of(job)), fc_job_verify_hook(job)};
    uint64_t id = 0;
    cuzk_error err = {0};
    cuzk_job_result r = {0};
    bool ok = cuzk_engine_submit(e, &req, &id, &err) == CUZK_OK && cuzk_engine_wait(e, id, 600000, &r, &err) == CUZK_OK;
    CHECK(ok && r.state == CUZK_JOB_DONE && r.verified_partitions == fc_job_partitions(job),
          "%s: state %d, %u of %u verified: %s", name, (int)r.state, r.verified_partitions, fc_job_partitions(job),
          ok ? r.error.msg : err.msg);
    ok = ok && r.state == CUZK_JOB_DONE;
    cuzk_job_result_free(&r);
    return ok;
}

/* Bytes the PCE manager charges (its mapped PCEs). */
static int64_t pce_bytes(pce_cache *m)
{
    pce_cache_status *st = NULL;
    size_t n = 0;
    cuzk_error err;
    int64_t sum = 0;
    if (pce_cache_list(m, &st, &n, &err) == CUZK_OK)
        for (size_t i = 0; i < n; i++)
            sum += st[i].state == PCE_CACHE_READY ? (int64_t)st[i].size_bytes : 0;
    free(st);
    return sum;
}

static void expect_stats(cuzk_abc_pool *pool, uint64_t created, uint64_t reused, uint64_t bytes, const char *when)
{
    cuzk_abc_pool_stats ps;
    cuzk_abc_pool_stats_get(pool, &ps);
    CHECK(ps.created == created && ps.reused == reused && ps.released == 0 && ps.total_bytes == bytes,
          "%s: created %llu, reused %llu, released %llu, %llu bytes (want %llu, %llu, 0, %llu)", when,
          (unsigned long long)ps.created, (unsigned long long)ps.reused, (unsigned long long)ps.released,
          (unsigned long long)ps.total_bytes, (unsigned long long)created, (unsigned long long)reused,
          (unsigned long long)bytes);
}

static void expect_same(const outcome *x, const outcome *y, const char *what)
{
    CHECK(x->rows == y->rows && !memcmp(x->abc, y->abc, 3 * x->rows * sizeof(fr_t)), "%s: a/b/c differ", what);
    CHECK(!memcmp(x->proof, y->proof, CUZK_PROOF_BYTES), "%s: proofs differ for the same r, s", what);
}

/* Fill the pool's free buffer(s) of `bytes` with garbage (a later get reuses it dirty). */
static void dirty_free_buffer(cuzk_abc_pool *pool, cuzk_budget *budget, uint64_t bytes)
{
    cuzk_error err = {0};
    void *mem = NULL;
    CHECK(cuzk_budget_acquire(budget, bytes, NULL, NULL, &err) == CUZK_OK, "reserve: %s", err.msg);
    CHECK(cuzk_abc_pool_get(pool, bytes, &mem, &err) == CUZK_OK, "get: %s", err.msg);
    if (mem) {
        memset(mem, 0x5a, bytes);
        cuzk_abc_pool_put(pool, mem);
    }
    cuzk_budget_release(budget, bytes - cuzk_abc_pool_adopt(pool, bytes));
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_fc_pool <winning vanilla proof> <parameter dir> <scratch dir>\n");
        return 2;
    }
    cuzk_mapped_file vp;
    cuzk_error err = {0};
    if (cuzk_file_map(&vp, argv[1], &err) != CUZK_OK) {
        CHECK(false, "%s", err.msg);
        return check_summary("fc_pool");
    }
    char cache[512], pce_dir[512];
    snprintf(cache, sizeof cache, "%s/points", argv[3]);
    snprintf(pce_dir, sizeof pce_dir, "%s/pce", argv[3]);
    static const uint8_t R[32] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
                                  3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    fc_bytes one = {vp.data, vp.len};
    fc_job_request req = {.type = FC_JOB_WINNING_POST, .vanilla_proofs = &one, .n_vanilla_proofs = 1,
                          .registered_proof = 0, .has_miner = true, .miner_id = 1000, .randomness = {R, 32}};
    fc_srs_config sc = {.param_cache = argv[2], .cache_dir = cache, .threads = 2};
    fc_srs *srs = NULL;
    fc_job *job = NULL;
    if (fc_srs_create(&sc, &srs, &err) || fc_job_create(&req, srs, &job, &err)) {
        CHECK(false, "job: %s", err.msg);
        fc_srs_destroy(srs);
        return check_summary("fc_pool");
    }
    const groth16_params_t *pk = fc_job_params(job);
    const uint64_t abc = 3 * ((uint64_t)1 << pk->log2_m) * sizeof(fr_t);

    /* without the pool: malloc'ed a/b/c, the reference outcome */
    outcome plain = {0}, pooled = {0}, via_pce = {0};
    bool have_plain = prove_fixed(job, NULL, NULL, &plain);

    cuzk_prover_backend be;
    backend_cpu_init(&be, 2);
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.partition_workers = 1;
    cfg.finalizer_threads = 1;
    cfg.memory_budget_auto = false;
    cfg.memory_budget_bytes = 8ull << 30; /* room for everything at once: no reclaim */
    cfg.abc_pool = true;
    cfg.abc_pool_cfg.idle_ms = 0;
    cfg.backend = &be;
    cuzk_engine *e = NULL;
    CHECK(cuzk_engine_create(&cfg, &e, &err) == CUZK_OK, "engine: %s", err.msg);
    cuzk_abc_pool *pool = e ? cuzk_engine_abc_pool(e) : NULL;
    if (!pool) {
        fc_job_free(job);
        fc_srs_destroy(srs);
        return check_summary("fc_pool");
    }
    fc_job_use_abc_pool(job, pool);

    /* reuse across jobs: one buffer, created by the first, reused by the second */
    run_job(e, job, "job 1");
    check_pool_settled(e, "after job 1", 0); /* the parameters are charged to no budget here */
    expect_stats(pool, 1, 0, abc, "job 1");
    run_job(e, job, "job 2");
    check_pool_settled(e, "after job 2", 0);
    expect_stats(pool, 1, 1, abc, "job 2");

    /* the same outcome from a dirty reused buffer, for fixed r, s */
    dirty_free_buffer(pool, cuzk_engine_budget(e), abc);
    if (prove_fixed(job, pool, cuzk_engine_budget(e), &pooled) && have_plain)
        expect_same(&plain, &pooled, "direct synthesis into a reused pool buffer vs malloc");
    expect_stats(pool, 1, 3, abc, "after the fixed-r,s proof");

    /* through the PCE: its products land in the pool's buffer too */
    pce_cache_config pc = {pce_dir, cuzk_engine_budget(e), false, true, 2};
    pce_cache *m = NULL;
    CHECK(pce_cache_create(&pc, &m, &err) == CUZK_OK && fc_job_use_pce(job, m, &err) == CUZK_OK, "PCE: %s", err.msg);
    run_job(e, job, "job 3 (PCE)");
    check_pool_settled(e, "after job 3", pce_bytes(m));
    expect_stats(pool, 1, 4, abc, "job 3 (PCE)");
    CHECK(fc_job_pce_partitions(job) == 1, "job 3 synthesized through the PCE (%u)", fc_job_pce_partitions(job));
    dirty_free_buffer(pool, cuzk_engine_budget(e), abc);
    if (prove_fixed(job, pool, cuzk_engine_budget(e), &via_pce) && have_plain)
        expect_same(&plain, &via_pce, "PCE products into a reused pool buffer vs malloc'ed direct synthesis");
    CHECK(fc_job_pce_partitions(job) == 2, "the fixed-r,s proof went through the PCE");
    expect_stats(pool, 1, 6, abc, "after the PCE's fixed-r,s proof");
    check_pool_settled(e, "at the end", pce_bytes(m));

    /* what stays charged: the pool's free buffer and the PCE (the parameters are charged to
     * no budget here), nothing else */
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(e, v);
    uint64_t pool_bytes = (uint64_t)v[CUZK_CTR_POOL_FREE_BYTES].current;
    cuzk_abc_pool_reclaim(pool, UINT64_MAX);
    pce_cache_destroy(m); /* the PCE's charge */
    cuzk_engine_counters(e, v);
    CHECK(pool_bytes == abc && v[CUZK_CTR_POOL_TOTAL_BYTES].current == 0,
          "the pool held %llu free bytes (want %llu), %lld after reclaim", (unsigned long long)pool_bytes,
          (unsigned long long)abc, (long long)v[CUZK_CTR_POOL_TOTAL_BYTES].current);
    CHECK(cuzk_budget_used(cuzk_engine_budget(e)) == 0 && v[CUZK_CTR_MEMORY_USED_BYTES].current == 0,
          "budget at zero at the end (%llu)", (unsigned long long)cuzk_budget_used(cuzk_engine_budget(e)));
    cuzk_engine_destroy(e);
    fc_job_free(job);
    fc_srs_destroy(srs);
    free(plain.abc), free(pooled.abc), free(via_pce.abc);
    cuzk_file_unmap(&vp);
    return check_summary("fc_pool");
}
