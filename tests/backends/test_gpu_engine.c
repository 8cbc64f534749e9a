/* The engine (src/engine) driving the GPU backend on an OpenCL device (POCL in CI; exit 77, a
 * skip, without one), as the daemon runs it: synthetic jobs of several partitions, two
 * prover workers on the device, two partition workers.
 *   - stress: every partition proof verified (the synthetic kind's verify hook), permits held
 *     never above partition_workers (event hook), every flight counter back at zero;
 *   - cancellation mid-flight: a long job cancelled after its first partition was proved
 *     ends CANCELLED while the others complete, counters back at zero;
 *   - an injected device failure (the backend's fail hook, one partition): exactly one job
 *     FAILED with an error naming the device, every other job DONE and verified;
 *   - the engine's a/b/c pool: its buffers registered with the device through the pool's hooks,
 *     every partition's a/b/c uploaded straight from them, each job verified, counters back
 *     at zero but the pool's free buffers and the staging, the buffers unregistered at destroy;
 *   - the workers' pinned staging charged to the engine's memory budget while the engine
 *     exists (the memory counter holds exactly that when idle), an engine whose budget is
 *     below it refused.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backends.h"
#include "check.h"
#include "gpu_test_runtime.h"
#include "kinds/builtin/builtin.h"
#include "engine/engine.h"



static atomic_int permits, peak_permits, proved;

static void on_event(void *ctx, const cuzk_engine_event *ev)
{
    (void)ctx;
    if (ev->type == CUZK_EV_SYNTH_START) {
        int p = atomic_fetch_add(&permits, 1) + 1, q = atomic_load(&peak_permits);
        while (p > q && !atomic_compare_exchange_weak(&peak_permits, &q, p)) {
        }
    } else if (ev->type == CUZK_EV_PERMIT_RELEASED) {
        atomic_fetch_sub(&permits, 1);
    } else if (ev->type == CUZK_EV_PROVE_END) {
        atomic_fetch_add(&proved, 1);
    }
}

#define PW 2

#define STAGING ((uint64_t)1 << 20) /* [gpus] staging_buffer of the backend under test */
/* What the backend charges the engine's budget for as long as the engine exists: the pinned
 * staging of each of the engine's 2 prover workers on the one device. */
#define STAGING_CHARGED (2 * STAGING)

static cuzk_status engine_try(backend *b, uint64_t budget, bool pool, cuzk_engine **e, cuzk_error *err)
{
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.abc_pool = pool;
    cfg.partition_workers = PW;
    cfg.synthesis_lookahead = 2;
    cfg.gpu_workers_per_device = 2;
    cfg.backend = backend_table(b);
    cfg.on_event = on_event;
    if (budget) {
        cfg.memory_budget_auto = false;
        cfg.memory_budget_bytes = budget;
    }
    return cuzk_engine_create(&cfg, e, err);
}

static cuzk_engine *engine_on(backend *b)
{
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    CHECK(!engine_try(b, 0, false, &e, &err), "engine: %s", err.msg);
    return e;
}

static backend *open_gpu(const char *fail)
{
    backend_config cfg;
    backend_config_default(&cfg);
    cfg.kind = runtime_kind();
    cfg.cpu_threads = 2;
    cfg.workers_per_device = 2;
    cfg.staging_bytes = STAGING;
    cfg.fail = fail;
    backend *b = NULL;
    cuzk_error err = {0};
    cuzk_status st = backend_open(&cfg, &b, &err);
    if (st == CUZK_E_UNSUPPORTED) {
        printf("SKIP: no OpenCL device: %s\n", err.msg);
        exit(77);
    }
    CHECK(!st, "backend_open: %s", err.msg);
    if (st)
        exit(check_summary("gpu_engine"));
    return b;
}

static void counters_zero(cuzk_engine *e, const char *what)
{
    cuzk_error err = {0};
    CHECK(!cuzk_engine_wait_idle(e, 60000, &err), "%s: idle: %s", what, err.msg);
    cuzk_counter_value c[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(e, c);
    for (int i = 0; i < CUZK_COUNTER_COUNT; i++) {
        int64_t want = i == CUZK_CTR_MEMORY_USED_BYTES ? (int64_t)STAGING_CHARGED : 0;
        CHECK(c[i].current == want, "%s: counter %s = %lld at the end, expected %lld", what,
              cuzk_counter_name((cuzk_counter_id)i), (long long)c[i].current, (long long)want);
    }
    CHECK(atomic_load(&permits) == 0 && atomic_load(&peak_permits) <= PW, "%s: permits %d now, peak %d (pw %d)", what,
          atomic_load(&permits), atomic_load(&peak_permits), PW);
}

#define JOBS 6

int main(void)
{
    builtin_synthetic *syn = NULL;
    cuzk_error err = {0};
    CHECK(!builtin_synthetic_create(8, 2, &syn, &err), "synthetic: %s", err.msg);
    const cuzk_circuit_kind *kind = builtin_synthetic_kind(syn);
    const groth16_params_t *pp = builtin_synthetic_params(syn);
    const cuzk_verify_hook *vh = builtin_synthetic_verify_hook(syn);
    builtin_synthetic_input in[JOBS + 1];
    for (int i = 0; i <= JOBS; i++)
        in[i].seed = 77 + 1000 * (uint64_t)i;

    /* stress, then a cancellation mid-flight */
    backend *b = open_gpu("");
    cuzk_engine *e = engine_on(b);
    uint64_t ids[JOBS + 1];
    for (int i = 0; i < JOBS; i++) {
        cuzk_job_request rq = {kind, &in[i], pp, 3, CUZK_PRIORITY_NORMAL, vh};
        CHECK(!cuzk_engine_submit(e, &rq, &ids[i], &err), "submit %d: %s", i, err.msg);
    }
    for (int i = 0; i < JOBS; i++) {
        cuzk_job_result r;
        CHECK(!cuzk_engine_wait(e, ids[i], -1, &r, &err), "wait %d: %s", i, err.msg);
        CHECK(r.state == CUZK_JOB_DONE && r.verified_partitions == 3, "job %d: %s, %u verified (%s)", i,
              cuzk_job_state_name(r.state), r.verified_partitions, r.error.msg);
        cuzk_job_result_free(&r);
    }
    counters_zero(e, "stress");
    atomic_store(&proved, 0);
    cuzk_job_request longjob = {kind, &in[JOBS], pp, 40, CUZK_PRIORITY_NORMAL, vh};
    CHECK(!cuzk_engine_submit(e, &longjob, &ids[JOBS], &err), "submit long: %s", err.msg);
    cuzk_job_request other = {kind, &in[0], pp, 2, CUZK_PRIORITY_NORMAL, vh};
    uint64_t other_id;
    CHECK(!cuzk_engine_submit(e, &other, &other_id, &err), "submit other: %s", err.msg);
    for (int spins = 0; atomic_load(&proved) < 1 && spins < 60000; spins++)
        usleep(1000);
    CHECK(!cuzk_engine_cancel(e, ids[JOBS], &err), "cancel: %s", err.msg);
    cuzk_job_result r;
    CHECK(!cuzk_engine_wait(e, ids[JOBS], -1, &r, &err) && r.state == CUZK_JOB_CANCELLED,
          "the long job is cancelled mid-flight: %s", cuzk_job_state_name(r.state));
    cuzk_job_result_free(&r);
    CHECK(!cuzk_engine_wait(e, other_id, -1, &r, &err) && r.state == CUZK_JOB_DONE && r.verified_partitions == 2,
          "the other job completes: %s", cuzk_job_state_name(r.state));
    cuzk_job_result_free(&r);
    counters_zero(e, "cancel");
    cuzk_engine_destroy(e);

    /* with the engine's a/b/c pool: the backend registers its buffers (attach sets the pool's
     * hooks) and every partition's a/b/c go to the device straight from them; the free buffers
     * are the only bytes beside the staging left on the budget */
    CHECK(!engine_try(b, 0, true, &e, &err), "engine with the a/b/c pool: %s", err.msg);
    builtin_synthetic_use_pool(syn, cuzk_engine_abc_pool(e));
    backend_device_stats s0;
    CHECK(!backend_device_stats_get(b, 0, &s0, &err), "stats: %s", err.msg);
    for (int i = 0; i < JOBS; i++) {
        cuzk_job_request rq = {kind, &in[i], pp, 3, CUZK_PRIORITY_NORMAL, vh};
        CHECK(!cuzk_engine_submit(e, &rq, &ids[i], &err), "submit %d: %s", i, err.msg);
    }
    for (int i = 0; i < JOBS; i++) {
        cuzk_job_result r;
        CHECK(!cuzk_engine_wait(e, ids[i], -1, &r, &err), "wait %d: %s", i, err.msg);
        CHECK(r.state == CUZK_JOB_DONE && r.verified_partitions == 3, "pool job %d: %s, %u verified (%s)", i,
              cuzk_job_state_name(r.state), r.verified_partitions, r.error.msg);
        cuzk_job_result_free(&r);
    }
    CHECK(!cuzk_engine_wait_idle(e, 60000, &err), "pool: idle: %s", err.msg);
    backend_device_stats s1;
    CHECK(!backend_device_stats_get(b, 0, &s1, &err), "stats: %s", err.msg);
    uint64_t abc = 3 * ((uint64_t)1 << pp->log2_m) * sizeof(fr_t);
    cuzk_counter_value pc[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(e, pc);
    int64_t pool_free = pc[CUZK_CTR_POOL_FREE_BYTES].current;
    CHECK(s1.abc_direct_bytes - s0.abc_direct_bytes == (uint64_t)JOBS * 3 * abc &&
              s1.abc_staged_bytes == s0.abc_staged_bytes && s1.abc_registered_bytes == (uint64_t)pool_free &&
              pool_free > 0 && pool_free <= (int64_t)(PW + 2 * 2) * (int64_t)abc,
          "pool: %llu a/b/c bytes direct (expected %llu), %llu staged, %llu registered, %lld free in the pool",
          (unsigned long long)(s1.abc_direct_bytes - s0.abc_direct_bytes), (unsigned long long)JOBS * 3 * abc,
          (unsigned long long)(s1.abc_staged_bytes - s0.abc_staged_bytes),
          (unsigned long long)s1.abc_registered_bytes, (long long)pool_free);
    for (int i = 0; i < CUZK_COUNTER_COUNT; i++) {
        int64_t want = 0;
        if (i == CUZK_CTR_MEMORY_USED_BYTES)
            want = (int64_t)STAGING_CHARGED + pool_free;
        else if (i == CUZK_CTR_POOL_TOTAL_BYTES || i == CUZK_CTR_POOL_FREE_BYTES)
            want = pool_free;
        CHECK(pc[i].current == want, "pool: counter %s = %lld at the end, expected %lld",
              cuzk_counter_name((cuzk_counter_id)i), (long long)pc[i].current, (long long)want);
    }
    builtin_synthetic_use_pool(syn, NULL);
    cuzk_engine_destroy(e);
    CHECK(!backend_device_stats_get(b, 0, &s1, &err) && s1.abc_registered_bytes == 0,
          "the pool's buffers unregistered with the engine gone: %llu bytes", (unsigned long long)s1.abc_registered_bytes);

    /* the staging charge: held from create to destroy (a second engine on the same backend
     * gets it again), refused by a budget below it, naming the key */
    CHECK(!engine_try(b, 64 << 20, false, &e, &err), "engine again: %s", err.msg);
    cuzk_counter_value cv[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(e, cv);
    CHECK(cv[CUZK_CTR_MEMORY_USED_BYTES].current == (int64_t)STAGING_CHARGED, "staging charged: %lld bytes",
          (long long)cv[CUZK_CTR_MEMORY_USED_BYTES].current);
    cuzk_engine_destroy(e);
    e = NULL;
    cuzk_status st = engine_try(b, STAGING_CHARGED - 1, false, &e, &err);
    CHECK(st == CUZK_E_NOMEM && !e && strstr(err.msg, "staging_buffer") && strstr(err.msg, "budget"),
          "staging over the budget: %s '%s'", cuzk_status_name(st), err.msg);
    backend_close(b);

    /* one injected device failure fails only its job */
    b = open_gpu("msm:0:1");
    e = engine_on(b);
    for (int i = 0; i < JOBS; i++) {
        cuzk_job_request rq = {kind, &in[i], pp, 2, CUZK_PRIORITY_NORMAL, vh};
        CHECK(!cuzk_engine_submit(e, &rq, &ids[i], &err), "submit %d: %s", i, err.msg);
    }
    int failed = 0, done = 0;
    for (int i = 0; i < JOBS; i++) {
        CHECK(!cuzk_engine_wait(e, ids[i], -1, &r, &err), "wait %d: %s", i, err.msg);
        if (r.state == CUZK_JOB_FAILED) {
            failed++;
            CHECK(strstr(r.error.msg, dev0) && strstr(r.error.msg, "injected"), "the failure names the device: %s",
                  r.error.msg);
        } else if (r.state == CUZK_JOB_DONE && r.verified_partitions == 2) {
            done++;
        }
        cuzk_job_result_free(&r);
    }
    CHECK(failed == 1 && done == JOBS - 1, "one job failed (%d), the others done (%d)", failed, done);
    counters_zero(e, "failure");
    cuzk_engine_destroy(e);
    backend_device_stats s;
    CHECK(!backend_device_stats_get(b, 0, &s, &err) && s.failures == 1 && s.in_flight == 0,
          "device stats after the failure: %llu failures", (unsigned long long)s.failures);
    backend_close(b);
    builtin_synthetic_free(syn);
    return check_summary("gpu_engine");
}
