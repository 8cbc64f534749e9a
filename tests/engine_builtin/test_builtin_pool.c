/* The a/b/c pool with the real CPU Groth16 backend and the synthetic kind:
 *  - reuse: consecutive partitions and a second job are served by the pool's buffers (no
 *    new mapping for the second job), every proof verifies (groth16_verify through the
 *    kind's hook), and at the end the flight counters are zero except the pool's, whose
 *    free bytes equal what the pool mapped and what the budget still holds;
 *  - reclaim: a job of a bigger circuit whose partition needs the room of the pool's free
 *    buffers completes (waits are bounded: a deadlock fails the test instead of hanging);
 *  - proofs byte-identical with and without the pool for fixed r, s: the same partition
 *    synthesized into a reused (dirty) pool buffer and into malloc'ed vectors proves to
 *    the same 192 bytes. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "backends/cpu.h"
#include "kinds/builtin/builtin.h"
#include "engine/engine.h"
#include "pool_settled.h"

static cuzk_engine *start(cuzk_prover_backend *be, uint64_t budget)
{
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.partition_workers = 1;
    cfg.finalizer_threads = 1;
    cfg.memory_budget_auto = false;
    cfg.memory_budget_bytes = budget;
    cfg.abc_pool = true;
    cfg.abc_pool_cfg.idle_ms = 0;
    cfg.backend = be;
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    CHECK(cuzk_engine_create(&cfg, &e, &err) == CUZK_OK, "engine: %s", err.msg);
    return e;
}

static bool run_job(cuzk_engine *e, builtin_synthetic *s, uint64_t seed, uint32_t parts, const char *name)
{
    builtin_synthetic_input in = {seed};
    cuzk_job_request req = {
        .kind = builtin_synthetic_kind(s),
        .kind_input = &in,
        .params = builtin_synthetic_params(s),
        .num_partitions = parts,
        .priority = CUZK_PRIORITY_NORMAL,
        .verify = builtin_synthetic_verify_hook(s),
    };
    uint64_t id = 0;
    cuzk_error err = {0};
    cuzk_job_result r = {0};
    bool ok = cuzk_engine_submit(e, &req, &id, &err) == CUZK_OK && cuzk_engine_wait(e, id, 120000, &r, &err) == CUZK_OK;
    CHECK(ok && r.state == CUZK_JOB_DONE && r.verified_partitions == parts, "%s: state %d, %u of %u verified: %s",
          name, (int)r.state, r.verified_partitions, parts, ok ? r.error.msg : err.msg);
    ok = ok && r.state == CUZK_JOB_DONE;
    cuzk_job_result_free(&r);
    return ok;
}

static void test_reuse(void)
{
    cuzk_error err = {0};
    builtin_synthetic *small = NULL;
    CHECK(builtin_synthetic_create(10, 1, &small, &err) == CUZK_OK, "synthetic circuit: %s", err.msg);
    if (!small)
        return;
    cuzk_prover_backend be;
    backend_cpu_init(&be, 1);
    const uint64_t small_abc = 3 * ((uint64_t)1 << 10) * sizeof(fr_t);
    /* room for every partition in flight and every free buffer at once: no reclaim, so the
     * counts below depend only on the pipeline's bounds, not on thread timing */
    cuzk_engine *e = start(&be, 1ull << 30);
    cuzk_abc_pool *pool = cuzk_engine_abc_pool(e);
    CHECK(pool != NULL, "engine has no pool with abc_pool on");
    if (!e || !pool)
        return;
    builtin_synthetic_use_pool(small, pool);

    run_job(e, small, 7, 6, "reuse job 1");
    check_pool_settled(e, "after job 1", 0); /* only the pool's free buffers stay charged */
    cuzk_abc_pool_stats a, b;
    cuzk_abc_pool_stats_get(pool, &a);
    /* pw 1, channel capacity 1, one prover: at most one partition synthesizing, one queued
     * and one proving hold a buffer */
    CHECK(a.created >= 1 && a.created <= 3 && a.created + a.reused == 6 && a.released == 0 &&
              a.total_bytes == a.created * small_abc,
          "job 1: created %llu, reused %llu, released %llu for 6 partitions, %llu bytes",
          (unsigned long long)a.created, (unsigned long long)a.reused, (unsigned long long)a.released,
          (unsigned long long)a.total_bytes);
    run_job(e, small, 8, 6, "reuse job 2");
    check_pool_settled(e, "after job 2", 0);
    cuzk_abc_pool_stats_get(pool, &b);
    CHECK(b.created == a.created && b.reused == a.reused + 6, "job 2: %llu new buffers, %llu reused (want 0, 6)",
          (unsigned long long)(b.created - a.created), (unsigned long long)(b.reused - a.reused));
    cuzk_engine_destroy(e);
    builtin_synthetic_free(small);
}

static void test_reclaim(void)
{
    cuzk_error err = {0};
    builtin_synthetic *small = NULL, *big = NULL;
    CHECK(builtin_synthetic_create(10, 1, &small, &err) == CUZK_OK && builtin_synthetic_create(12, 1, &big, &err) ==
              CUZK_OK, "synthetic circuits: %s", err.msg);
    if (!small || !big)
        return;
    cuzk_prover_backend be;
    backend_cpu_init(&be, 1);
    /* room for the big partition, but not for it and a free small buffer at once */
    const uint64_t budget = builtin_synthetic_partition_bytes(big);
    cuzk_engine *e = start(&be, budget);
    cuzk_abc_pool *pool = cuzk_engine_abc_pool(e);
    CHECK(pool != NULL, "engine has no pool with abc_pool on");
    if (!e || !pool)
        return;
    builtin_synthetic_use_pool(small, pool);
    builtin_synthetic_use_pool(big, pool);
    run_job(e, small, 7, 6, "small job");
    check_pool_settled(e, "after the small job", 0);
    cuzk_abc_pool_stats a, c;
    cuzk_abc_pool_stats_get(pool, &a);
    CHECK(a.free_bytes > 0, "the small job left no free buffer in the pool");
    run_job(e, big, 9, 2, "reclaim job");
    check_pool_settled(e, "after the reclaim job", 0);
    cuzk_abc_pool_stats_get(pool, &c);
    CHECK(c.released > a.released, "reclaim: the big job ran without giving back a small buffer (budget %llu)",
          (unsigned long long)budget);
    cuzk_engine_destroy(e);
    builtin_synthetic_free(small);
    builtin_synthetic_free(big);
}

/* Prove partition `p` of `s` with fixed r, s into out; with a pool, reserve and give back
 * the a/b/c share around it as the engine does (so the returned buffer is adopted). */
static bool prove_fixed(builtin_synthetic *s, uint32_t p, cuzk_abc_pool *pool, cuzk_budget *budget,
                        uint8_t out[CUZK_PROOF_BYTES])
{
    const uint64_t abc = 3 * ((size_t)1 << 9) * sizeof(fr_t);
    const cuzk_circuit_kind *k = builtin_synthetic_kind(s);
    builtin_synthetic_input in = {42};
    atomic_bool cancel = false;
    void *as = NULL;
    cuzk_error err = {0};
    fr_t r, t;
    fr_from_u64(&r, 0x1234567), fr_from_u64(&t, 0x7654321);
    groth16_pending_t *pend = NULL;
    groth16_proof_t proof;
    if (pool)
        CHECK(cuzk_budget_acquire(budget, abc, NULL, NULL, &err) == CUZK_OK, "reserve: %s", err.msg);
    bool ok = k->synthesize(k->ctx, &in, p, &cancel, &as, &err) == CUZK_OK;
    if (ok) {
        const builtin_assignment *ba = as;
        groth16_assignment_t g = ba->g;
        g.release_abc = (cuzk_release_cb){0};
        ok = groth16_prove_start(builtin_synthetic_params(s), &g, &r, &t, 1, &pend, &err) == CUZK_OK &&
             groth16_prove_finish(pend, 1, &proof, &err) == CUZK_OK;
        k->free_assignment(k->ctx, as);
    }
    if (pool)
        cuzk_budget_release(budget, abc - cuzk_abc_pool_adopt(pool, abc));
    CHECK(ok, "prove partition %u: %s", p, err.msg);
    if (ok)
        groth16_proof_to_bytes(out, &proof);
    return ok;
}

static void test_same_bytes(void)
{
    cuzk_error err = {0};
    builtin_synthetic *s = NULL;
    CHECK(builtin_synthetic_create(9, 1, &s, &err) == CUZK_OK, "synthetic: %s", err.msg);
    if (!s)
        return;
    uint8_t plain[2][CUZK_PROOF_BYTES], pooled[2][CUZK_PROOF_BYTES];
    bool ok = prove_fixed(s, 0, NULL, NULL, plain[0]) && prove_fixed(s, 1, NULL, NULL, plain[1]);
    cuzk_budget budget;
    cuzk_abc_pool *pool = NULL;
    cuzk_abc_pool_config cfg;
    cuzk_abc_pool_config_default(&cfg);
    cfg.idle_ms = 0;
    CHECK(cuzk_budget_init(&budget, 1ull << 30, NULL, &err) == CUZK_OK &&
              cuzk_abc_pool_create(&cfg, &budget, NULL, &pool, &err) == CUZK_OK,
          "pool: %s", err.msg);
    builtin_synthetic_use_pool(s, pool);
    /* partition 1 goes into the buffer partition 0 left dirty */
    ok = ok && prove_fixed(s, 0, pool, &budget, pooled[0]) && prove_fixed(s, 1, pool, &budget, pooled[1]);
    cuzk_abc_pool_stats ps;
    cuzk_abc_pool_stats_get(pool, &ps);
    CHECK(ps.created == 1 && ps.reused == 1, "pooled proofs: created %llu, reused %llu (want 1, 1)",
          (unsigned long long)ps.created, (unsigned long long)ps.reused);
    CHECK(ok && !memcmp(plain, pooled, sizeof plain), "proofs with and without the pool differ for fixed r, s");
    CHECK(memcmp(plain[0], plain[1], CUZK_PROOF_BYTES) != 0, "partitions 0 and 1 gave the same proof");
    builtin_synthetic_use_pool(s, NULL);
    cuzk_abc_pool_destroy(pool);
    cuzk_budget_destroy(&budget);
    builtin_synthetic_free(s);
}

int main(void)
{
    test_reuse();
    test_reclaim();
    test_same_bytes();
    return check_summary("builtin_pool");
}
