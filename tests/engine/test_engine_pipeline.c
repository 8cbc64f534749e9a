/* Engine pipeline tests with the mock kind/backend (mock.h) and the per-step invariant
 * checker (checker.h): slow prover + fast synthesis and the reverse, memory-bound runs,
 * a job that can never fit, cancel of queued and running jobs, failures, priority order,
 * the status snapshot (incl. what each prover worker proves), a cuzk-bench-style "keep J in flight" loop and shutdown with work
 * in flight, all idle workers waking for one job. Every scenario ends by asserting that all
 * flight counters are back to zero, never went negative, and that the mock holds no
 * assignment or pending handle. States a check depends on (pipeline backed up, all workers
 * synthesizing, ...) are produced with the mock's gates and waited for as events with a
 * generous deadline (wait_state), never assumed after a fixed sleep. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "checker.h"
#include "engine/engine.h"
#include "engine/log.h"
#include "engine/sync.h"
#include "mock.h"

typedef struct {
    uint32_t pw, lookahead, gw, devices, finalizers;
    uint64_t budget;
} eng_params;

typedef struct {
    mock_ctx mock;
    checker chk;
    cuzk_circuit_kind kind;
    cuzk_prover_backend backend;
    cuzk_verify_hook verifier;
    cuzk_engine *e;
    uint32_t capacity;
} harness;

/* Generous deadline for a pipeline state a test waits on: long enough for a loaded 2-core CI
 * machine under ThreadSanitizer, short enough that a real failure still ends the run. */
#define EVENT_TIMEOUT_MS 20000

typedef bool (*state_pred)(harness *h, const cuzk_counter_value *v, void *ctx);

/* Poll the engine's counters (and, through pred, the mock) every 0.2 ms until pred holds or
 * EVENT_TIMEOUT_MS passed; returns pred's last value and leaves the last counters in v.
 * Tests hold a stage with a mock gate and wait for the resulting state as an event. */
static bool wait_state(harness *h, state_pred pred, void *ctx, cuzk_counter_value v[CUZK_COUNTER_COUNT])
{
    int64_t deadline = cuzk_now_ns() + (int64_t)EVENT_TIMEOUT_MS * 1000000;
    for (;;) {
        cuzk_engine_counters(h->e, v);
        if (pred(h, v, ctx))
            return true;
        if (cuzk_now_ns() > deadline)
            return false;
        mock_sleep_us(200);
    }
}

/* With prove_start held and pw, capacity as configured: one partition per prover worker
 * inside prove_start, the channel full and every synthesis worker blocked on the send with
 * its permit (ctx: the number of prover workers). The counters are read one by one, so a
 * partition moving from awaiting-send to queued can be seen in both; the mock's count of
 * finished syntheses (taken under its lock) must also have reached the total that fits. */
static bool backed_up(harness *h, const cuzk_counter_value *v, void *ctx)
{
    uint32_t provers = *(const uint32_t *)ctx;
    return mock_stats_get(&h->mock).live_assignments == (int64_t)(provers + h->capacity + h->chk.pw) &&
           v[CUZK_CTR_PROVING].current == provers && v[CUZK_CTR_QUEUED].current == h->capacity &&
           v[CUZK_CTR_AWAITING_SEND].current == h->chk.pw && v[CUZK_CTR_PERMITS_HELD].current == h->chk.pw;
}

static void harness_start(harness *h, eng_params p)
{
    h->mock.num_devices = p.devices;
    h->mock.workers_per_device = p.gw;
    h->mock.budget_bytes = p.budget;
    h->capacity = p.lookahead > p.pw ? p.lookahead : p.pw;
    checker_init(&h->chk, p.pw, h->capacity, p.budget);
    h->kind = mock_kind(&h->mock);
    h->backend = mock_backend(&h->mock);
    h->verifier = mock_verifier(&h->mock);
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.partition_workers = p.pw;
    cfg.synthesis_lookahead = p.lookahead;
    cfg.gpu_workers_per_device = p.gw;
    cfg.finalizer_threads = p.finalizers;
    cfg.memory_budget_auto = false;
    cfg.memory_budget_bytes = p.budget;
    cfg.backend = &h->backend;
    cfg.on_event = checker_on_event;
    cfg.event_ctx = &h->chk;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_create(&cfg, &h->e, &err);
    CHECK(st == CUZK_OK, "engine_create: %s", err.msg);
    atomic_store(&h->chk.engine, h->e);
}

/* Submit one job of `n` partitions for `in` (which must outlive the job). */
static uint64_t submit(harness *h, mock_input *in, uint32_t n, cuzk_priority prio, bool verify)
{
    cuzk_job_request req = {
        .kind = &h->kind,
        .kind_input = in,
        .params = in,
        .num_partitions = n,
        .priority = prio,
        .verify = verify ? &h->verifier : NULL,
    };
    uint64_t id = 0;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_submit(h->e, &req, &id, &err);
    CHECK(st == CUZK_OK, "submit: %s", err.msg);
    return id;
}

/* Every proof of a DONE result equals the mock's expected proof. */
static bool proofs_ok(const cuzk_job_result *r, uint64_t tag)
{
    if (r->state != CUZK_JOB_DONE || !r->proofs)
        return false;
    for (uint32_t p = 0; p < r->num_partitions; p++) {
        uint8_t want[CUZK_PROOF_BYTES];
        mock_proof(tag, p, want);
        if (memcmp(want, r->proofs + (size_t)p * CUZK_PROOF_BYTES, CUZK_PROOF_BYTES) != 0)
            return false;
    }
    return true;
}

/* Drain, then check counters, the checker and the mock; destroy everything. */
static void harness_finish(harness *h, const char *name)
{
    cuzk_error err = {0};
    CHECK(cuzk_engine_wait_idle(h->e, 20000, &err) == CUZK_OK, "%s: wait_idle: %s", name, err.msg);
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(h->e, v);
    for (int i = 0; i < CUZK_COUNTER_COUNT; i++) {
        /* a backend's standing charge stays until destroy */
        int64_t rest = i == CUZK_CTR_MEMORY_USED_BYTES ? (int64_t)h->mock.standing_bytes : 0;
        CHECK(v[i].current == rest, "%s: counter %s is %lld after drain", name, cuzk_counter_name(i),
              (long long)v[i].current);
        CHECK(v[i].low == 0, "%s: counter %s went down to %lld", name, cuzk_counter_name(i), (long long)v[i].low);
    }
    CHECK(v[CUZK_CTR_PERMITS_HELD].peak <= h->chk.pw, "%s: peak permits %lld > pw %u", name,
          (long long)v[CUZK_CTR_PERMITS_HELD].peak, h->chk.pw);
    CHECK(v[CUZK_CTR_QUEUED].peak <= h->capacity, "%s: peak queued %lld > capacity %u", name,
          (long long)v[CUZK_CTR_QUEUED].peak, h->capacity);
    CHECK(v[CUZK_CTR_MEMORY_USED_BYTES].peak <= (int64_t)h->chk.budget, "%s: peak memory %lld > budget %llu", name,
          (long long)v[CUZK_CTR_MEMORY_USED_BYTES].peak, (unsigned long long)h->chk.budget);
    cuzk_engine_destroy(h->e);
    CHECK(h->chk.violations == 0, "%s: %llu invariant violations, first: %s", name,
          (unsigned long long)h->chk.violations, h->chk.first_violation);
    CHECK(h->chk.events > 0, "%s: no events seen", name);
    CHECK(h->mock.violations == 0, "%s: %llu mock contract violations, first: %s", name,
          (unsigned long long)h->mock.violations, h->mock.first_violation);
    CHECK(h->mock.live_assignments == 0 && h->mock.live_abc == 0 && h->mock.live_pending == 0 &&
              h->mock.live_bytes == 0,
          "%s: leaked assignments %lld, a/b/c %lld, pending %lld, bytes %lld", name,
          (long long)h->mock.live_assignments, (long long)h->mock.live_abc, (long long)h->mock.live_pending,
          (long long)h->mock.live_bytes);
    CHECK(h->mock.peak_live_bytes <= (int64_t)h->chk.budget, "%s: mock live bytes peaked at %lld > budget", name,
          (long long)h->mock.peak_live_bytes);
    checker_destroy(&h->chk);
}

typedef struct {
    uint32_t jobs, parts;
    mock_input *in;
    uint64_t *ids;
} batch;

/* Submit `jobs` jobs of `parts` partitions each at once. */
static batch batch_submit(harness *h, uint32_t jobs, uint32_t parts)
{
    batch b = {jobs, parts, calloc(jobs, sizeof *b.in), calloc(jobs, sizeof *b.ids)};
    for (uint32_t j = 0; j < jobs; j++) {
        b.in[j] = mock_input_make(100 + j);
        b.ids[j] = submit(h, &b.in[j], parts, CUZK_PRIORITY_NORMAL, true);
    }
    return b;
}

/* Wait for every job of the batch, check its proofs, read the counters into out. */
static void batch_collect(harness *h, const char *name, batch *b, cuzk_counter_value out[])
{
    uint32_t jobs = b->jobs, parts = b->parts;
    mock_input *in = b->in;
    uint64_t *ids = b->ids;
    uint32_t good = 0;
    for (uint32_t j = 0; j < jobs; j++) {
        cuzk_job_result r;
        cuzk_error err = {0};
        if (cuzk_engine_wait(h->e, ids[j], 30000, &r, &err) != CUZK_OK) {
            CHECK(false, "%s: wait job %llu: %s", name, (unsigned long long)ids[j], err.msg);
            continue;
        }
        good += proofs_ok(&r, in[j].tag) && r.verified_partitions == parts && r.error.code == CUZK_OK;
        cuzk_job_result_free(&r);
    }
    CHECK(good == jobs, "%s: %u of %u jobs done with correct, verified proofs", name, good, jobs);
    cuzk_engine_counters(h->e, out);
    free(in);
    free(ids);
}

static void test_slow_prover_fast_synthesis(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.synth_us = 100;
    h.mock.prove_us = 3000;
    h.mock.finish_us = 500;
    harness_start(&h, (eng_params){.pw = 2, .lookahead = 3, .gw = 1, .devices = 1, .finalizers = 1, .budget = 1 << 20});
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    /* synthesis outruns the prover: the channel fills to capacity and workers then hold
     * their permits while blocked on the send, never more than pw of them. The first
     * prove_start is held until that state is seen, so it does not depend on timing. */
    atomic_store(&h.mock.hold_prove, true);
    batch b = batch_submit(&h, 6, 4);
    uint32_t provers = 1;
    CHECK(wait_state(&h, backed_up, &provers, v),
          "slow prover: pipeline never backed up: proving %lld, queued %lld, awaiting send %lld, permits %lld",
          (long long)v[CUZK_CTR_PROVING].current, (long long)v[CUZK_CTR_QUEUED].current,
          (long long)v[CUZK_CTR_AWAITING_SEND].current, (long long)v[CUZK_CTR_PERMITS_HELD].current);
    atomic_store(&h.mock.hold_prove, false);
    batch_collect(&h, "slow prover", &b, v);
    CHECK(v[CUZK_CTR_QUEUED].peak == 3, "slow prover: queued peaked at %lld, want the capacity 3",
          (long long)v[CUZK_CTR_QUEUED].peak);
    CHECK(v[CUZK_CTR_PERMITS_HELD].peak == 2, "slow prover: permits peaked at %lld, want pw 2",
          (long long)v[CUZK_CTR_PERMITS_HELD].peak);
    CHECK(v[CUZK_CTR_AWAITING_SEND].peak >= 1, "slow prover: no partition ever waited for the channel");
    CHECK(h.chk.peak_held == 2, "slow prover: event-tracked permits peaked at %lld", (long long)h.chk.peak_held);
    CHECK(h.mock.device_peak[0] == 1, "slow prover: device 0 concurrency %lld", (long long)h.mock.device_peak[0]);
    harness_finish(&h, "slow prover");
    mock_destroy(&h.mock);
}

static bool synthesizing_all(harness *h, const cuzk_counter_value *v, void *ctx)
{
    (void)ctx;
    return v[CUZK_CTR_SYNTHESIZING].current == h->chk.pw;
}

/* Every prover worker is inside prove_start: gw per device on each device. */
static bool devices_full(harness *h, const cuzk_counter_value *v, void *ctx)
{
    (void)v;
    (void)ctx;
    mock_stats ms = mock_stats_get(&h->mock);
    for (uint32_t d = 0; d < h->mock.num_devices; d++)
        if (ms.device_active[d] != (int64_t)h->mock.workers_per_device)
            return false;
    return true;
}

static void test_fast_prover_slow_synthesis(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.synth_us = 3000;
    h.mock.prove_us = 200;
    h.mock.finish_us = 200;
    harness_start(&h, (eng_params){.pw = 3, .lookahead = 1, .gw = 2, .devices = 2, .finalizers = 2, .budget = 1 << 20});
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    /* hold synthesis until all pw workers are inside it, then hold prove_start until every
     * prover worker (gw on each of the 2 devices) is inside it */
    atomic_store(&h.mock.hold_synth, true);
    atomic_store(&h.mock.hold_prove, true);
    batch b = batch_submit(&h, 5, 5);
    CHECK(wait_state(&h, synthesizing_all, NULL, v), "slow synthesis: %lld of 3 workers synthesizing",
          (long long)v[CUZK_CTR_SYNTHESIZING].current);
    atomic_store(&h.mock.hold_synth, false);
    CHECK(wait_state(&h, devices_full, NULL, v), "slow synthesis: devices busy %lld/%lld, want 2/2",
          (long long)mock_stats_get(&h.mock).device_active[0], (long long)mock_stats_get(&h.mock).device_active[1]);
    atomic_store(&h.mock.hold_prove, false);
    batch_collect(&h, "slow synthesis", &b, v);
    CHECK(v[CUZK_CTR_SYNTHESIZING].peak == 3, "slow synthesis: synthesizing peaked at %lld, want pw 3",
          (long long)v[CUZK_CTR_SYNTHESIZING].peak);
    CHECK(v[CUZK_CTR_PERMITS_HELD].peak == 3, "slow synthesis: permits peaked at %lld",
          (long long)v[CUZK_CTR_PERMITS_HELD].peak);
    CHECK(h.mock.device_peak[0] == 2 && h.mock.device_peak[1] == 2,
          "slow synthesis: device concurrency %lld/%lld (gw 2, both devices used)", (long long)h.mock.device_peak[0],
          (long long)h.mock.device_peak[1]);
    harness_finish(&h, "slow synthesis");
    mock_destroy(&h.mock);
}

static bool two_reserved(harness *h, const cuzk_counter_value *v, void *ctx)
{
    (void)h;
    (void)ctx;
    return v[CUZK_CTR_MEMORY_USED_BYTES].current == 2000 && v[CUZK_CTR_SYNTHESIZING].current == 2;
}

/* One job of pw partitions submitted to an idle engine (every worker asleep) is
 * synthesized by all pw workers at once, not by the one worker a single wake-up reaches. */
static void test_idle_workers_wake(void)
{
    harness h;
    mock_init(&h.mock);
    harness_start(&h, (eng_params){.pw = 3, .lookahead = 1, .gw = 1, .devices = 1, .finalizers = 1, .budget = 1 << 20});
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    batch warm = batch_submit(&h, 1, 1); /* a first job, so the workers are asleep afterwards */
    batch_collect(&h, "idle wake", &warm, v);
    atomic_store(&h.mock.hold_synth, true);
    batch b = batch_submit(&h, 1, 3);
    CHECK(wait_state(&h, synthesizing_all, NULL, v), "idle wake: %lld of 3 idle workers took a partition",
          (long long)v[CUZK_CTR_SYNTHESIZING].current);
    atomic_store(&h.mock.hold_synth, false);
    batch_collect(&h, "idle wake", &b, v);
    harness_finish(&h, "idle wake");
    mock_destroy(&h.mock);
}

static void test_memory_bound(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.synth_us = 1000;
    h.mock.prove_us = 1000;
    h.mock.finish_us = 3000; /* long finish: the rest share stays reserved for a while */
    h.mock.total_bytes = 1000;
    h.mock.abc_bytes = 700;
    /* 2.5 partitions fit: memory, not pw = 4, limits admission */
    harness_start(&h, (eng_params){.pw = 4, .lookahead = 4, .gw = 1, .devices = 1, .finalizers = 1, .budget = 2500});
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    /* hold synthesis until two partitions have reserved (2000 bytes) and the other workers
     * wait on the budget, so the memory peak does not depend on timing */
    atomic_store(&h.mock.hold_synth, true);
    batch b = batch_submit(&h, 4, 4);
    CHECK(wait_state(&h, two_reserved, NULL, v), "memory bound: used %lld bytes, %lld synthesizing (want 2000, 2)",
          (long long)v[CUZK_CTR_MEMORY_USED_BYTES].current, (long long)v[CUZK_CTR_SYNTHESIZING].current);
    atomic_store(&h.mock.hold_synth, false);
    batch_collect(&h, "memory bound", &b, v);
    CHECK(v[CUZK_CTR_MEMORY_USED_BYTES].peak <= 2500 && v[CUZK_CTR_MEMORY_USED_BYTES].peak >= 2000,
          "memory bound: memory peak %lld (want 2000..2500)", (long long)v[CUZK_CTR_MEMORY_USED_BYTES].peak);
    CHECK(v[CUZK_CTR_PERMITS_HELD].peak <= 2, "memory bound: %lld permits held although only 2 partitions fit",
          (long long)v[CUZK_CTR_PERMITS_HELD].peak);
    CHECK(v[CUZK_CTR_PENDING_FINISH_BYTES].peak >= 300, "memory bound: pending_finish_bytes peak %lld",
          (long long)v[CUZK_CTR_PENDING_FINISH_BYTES].peak);
    harness_finish(&h, "memory bound");
    mock_destroy(&h.mock);
}

/* Partition 0 inside prove_start (held) and partition 1 synthesized into the channel. */
static bool proving_one_queued_one(harness *h, const cuzk_counter_value *v, void *ctx)
{
    (void)h;
    (void)ctx;
    return v[CUZK_CTR_PROVING].current == 1 && v[CUZK_CTR_QUEUED].current == 1;
}

/* Partition 0 inside prove_start (held), nothing else reserved or synthesizing. */
static bool proving_one(harness *h, const cuzk_counter_value *v, void *ctx)
{
    (void)h;
    (void)ctx;
    return v[CUZK_CTR_PROVING].current == 1 && v[CUZK_CTR_MEMORY_USED_BYTES].current == 1000 &&
           v[CUZK_CTR_SYNTHESIZING].current == 0;
}

/* backend.h's a/b/c rule: a backend that calls the release callback inside prove_start
 * (a GPU backend once a/b/c are uploaded) gets release_abc run at that moment, exactly
 * once, and the a/b/c share leaves PROVING_BYTES and the budget then, while prove_start
 * still blocks: the next partition's reservation fits only because of it (budget 1500,
 * partitions of 1000 with 600 of a/b/c). Without the early call the engine releases after
 * prove_start returns, also exactly once. */
static void test_early_abc_release(void)
{
    for (int early = 1; early >= 0; early--) {
        const char *name = early ? "early a/b/c release" : "a/b/c release after prove_start";
        harness h;
        mock_init(&h.mock);
        h.mock.total_bytes = 1000;
        h.mock.abc_bytes = 600;
        atomic_store(&h.mock.release_early, early != 0);
        harness_start(&h,
                      (eng_params){.pw = 2, .lookahead = 1, .gw = 1, .devices = 1, .finalizers = 1, .budget = 1500});
        cuzk_counter_value v[CUZK_COUNTER_COUNT];
        atomic_store(&h.mock.hold_prove, true);
        batch b = batch_submit(&h, 1, 2);
        if (early) {
            CHECK(wait_state(&h, proving_one_queued_one, NULL, v),
                  "%s: partition 1 never reserved while partition 0 blocks in prove_start: proving %lld, queued "
                  "%lld, memory used %lld",
                  name, (long long)v[CUZK_CTR_PROVING].current, (long long)v[CUZK_CTR_QUEUED].current,
                  (long long)v[CUZK_CTR_MEMORY_USED_BYTES].current);
            CHECK(v[CUZK_CTR_PROVING_BYTES].current == 400 && v[CUZK_CTR_MEMORY_USED_BYTES].current == 1400 &&
                      mock_stats_get(&h.mock).abc_releases == 1,
                  "%s: while blocked: proving_bytes %lld (want 400), memory used %lld (want 1400), releases %llu "
                  "(want 1)",
                  name, (long long)v[CUZK_CTR_PROVING_BYTES].current, (long long)v[CUZK_CTR_MEMORY_USED_BYTES].current,
                  (unsigned long long)mock_stats_get(&h.mock).abc_releases);
        } else {
            CHECK(wait_state(&h, proving_one, NULL, v), "%s: partition 0 never blocked in prove_start alone", name);
            CHECK(v[CUZK_CTR_PROVING_BYTES].current == 1000 && mock_stats_get(&h.mock).abc_releases == 0,
                  "%s: while blocked: proving_bytes %lld (want 1000), releases %llu (want 0)", name,
                  (long long)v[CUZK_CTR_PROVING_BYTES].current,
                  (unsigned long long)mock_stats_get(&h.mock).abc_releases);
        }
        atomic_store(&h.mock.hold_prove, false);
        batch_collect(&h, name, &b, v);
        CHECK(mock_stats_get(&h.mock).abc_releases == 2, "%s: release_abc ran %llu times for 2 partitions", name,
              (unsigned long long)mock_stats_get(&h.mock).abc_releases);
        CHECK(v[CUZK_CTR_PROVING_BYTES].peak == 1000 && v[CUZK_CTR_PENDING_FINISH_BYTES].peak >= 400,
              "%s: proving_bytes peak %lld (want 1000), pending_finish_bytes peak %lld", name,
              (long long)v[CUZK_CTR_PROVING_BYTES].peak, (long long)v[CUZK_CTR_PENDING_FINISH_BYTES].peak);
        harness_finish(&h, name);
        mock_destroy(&h.mock);
    }
}

static void test_never_fits(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.total_bytes = 5000;
    h.mock.abc_bytes = 4000;
    harness_start(&h, (eng_params){.pw = 2, .lookahead = 1, .gw = 1, .devices = 1, .finalizers = 1, .budget = 4096});
    mock_input in = mock_input_make(7);
    cuzk_job_request req = {.kind = &h.kind, .kind_input = &in, .params = &in, .num_partitions = 3,
                            .priority = CUZK_PRIORITY_NORMAL};
    uint64_t id = 0;
    cuzk_error err = {0};
    int64_t t0 = cuzk_now_ns();
    cuzk_status st = cuzk_engine_submit(h.e, &req, &id, &err);
    double ms = (double)(cuzk_now_ns() - t0) * 1e-6;
    CHECK(st == CUZK_E_NOMEM, "never fits: submit returned %s", cuzk_status_name(st));
    CHECK(strstr(err.msg, "can never run") && strstr(err.msg, "5000") && strstr(err.msg, "4096"),
          "never fits: unclear message '%s'", err.msg);
    CHECK(ms < 5000, "never fits: took %.1f ms to fail", ms);
    CHECK(mock_synth_calls_for(&h.mock, 7) == 0, "never fits: synthesis ran");
    cuzk_engine_status s;
    CHECK(cuzk_engine_status_get(h.e, &s, &err) == CUZK_OK && s.num_jobs == 0 && s.num_queues == 0,
          "never fits: job left in the engine");
    cuzk_engine_status_free(&s);
    /* estimate inconsistent: abc > total */
    h.mock.abc_bytes = 6000;
    CHECK(cuzk_engine_submit(h.e, &req, &id, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "abc_bytes"),
          "inconsistent estimate accepted: %s", err.msg);
    h.mock.abc_bytes = 4000;
    req.num_partitions = 0;
    CHECK(cuzk_engine_submit(h.e, &req, &id, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "num_partitions"),
          "0 partitions accepted: %s", err.msg);
    /* the engine still proves a job that fits */
    h.mock.total_bytes = 4096;
    h.mock.abc_bytes = 4000;
    mock_input ok = mock_input_make(8);
    id = submit(&h, &ok, 3, CUZK_PRIORITY_NORMAL, true);
    cuzk_job_result r;
    CHECK(cuzk_engine_wait(h.e, id, 20000, &r, &err) == CUZK_OK && proofs_ok(&r, 8), "never fits: a fitting job: %s",
          err.msg);
    cuzk_job_result_free(&r);
    harness_finish(&h, "never fits");
    mock_destroy(&h.mock);
}

/* A partition that fits the total but not beside what cannot give way: the job's own
 * resident bytes (refused at submit) or a standing charge of the backend (the waiting
 * partition fails the job once nothing in flight can free room); neither may hang. */
static void test_never_fits_beside_held(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.total_bytes = 3000;
    h.mock.abc_bytes = 2000;
    h.mock.resident_bytes = 2000;
    harness_start(&h, (eng_params){.pw = 2, .lookahead = 1, .gw = 1, .devices = 1, .finalizers = 1, .budget = 4096});
    mock_input in = mock_input_make(21);
    cuzk_job_request req = {.kind = &h.kind, .kind_input = &in, .params = &in, .num_partitions = 2,
                            .priority = CUZK_PRIORITY_NORMAL};
    uint64_t id = 0;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_submit(h.e, &req, &id, &err);
    CHECK(st == CUZK_E_NOMEM, "beside resident: submit returned %s", cuzk_status_name(st));
    CHECK(strstr(err.msg, "can never run") && strstr(err.msg, "3000") && strstr(err.msg, "2000") &&
              strstr(err.msg, "4096") && strstr(err.msg, "[memory] total_budget"),
          "beside resident: unclear message '%s'", err.msg);
    if (st == CUZK_OK) {
        cuzk_engine_cancel(h.e, id, NULL);
        cuzk_job_result r;
        if (cuzk_engine_wait(h.e, id, EVENT_TIMEOUT_MS, &r, &err) == CUZK_OK)
            cuzk_job_result_free(&r);
    }
    CHECK(mock_synth_calls_for(&h.mock, 21) == 0, "beside resident: synthesis ran");
    /* what fits beside the resident bytes runs */
    h.mock.total_bytes = 2000;
    h.mock.abc_bytes = 1000;
    mock_input fits = mock_input_make(24);
    id = submit(&h, &fits, 2, CUZK_PRIORITY_NORMAL, true);
    cuzk_job_result rf;
    CHECK(cuzk_engine_wait(h.e, id, 20000, &rf, &err) == CUZK_OK && proofs_ok(&rf, 24),
          "beside resident: a fitting job: %s", err.msg);
    cuzk_job_result_free(&rf);
    harness_finish(&h, "beside resident");
    mock_destroy(&h.mock);

    /* a backend's standing charge: 3000 + 2000 > 4096, not known to the submit */
    mock_init(&h.mock);
    h.mock.total_bytes = 3000;
    h.mock.abc_bytes = 2000;
    h.mock.standing_bytes = 2000;
    harness_start(&h, (eng_params){.pw = 2, .lookahead = 1, .gw = 1, .devices = 1, .finalizers = 1, .budget = 4096});
    in = mock_input_make(22);
    id = 0;
    st = cuzk_engine_submit(h.e, &req, &id, &err);
    CHECK(st == CUZK_OK, "beside standing: submit %s", err.msg);
    cuzk_job_result r;
    cuzk_status wst = cuzk_engine_wait(h.e, id, EVENT_TIMEOUT_MS, &r, &err);
    CHECK(wst == CUZK_OK, "beside standing: the job never settled: %s", err.msg);
    if (wst != CUZK_OK) { /* unblock the hang so that the run goes on */
        cuzk_engine_cancel(h.e, id, NULL);
        wst = cuzk_engine_wait(h.e, id, EVENT_TIMEOUT_MS, &r, &err);
    }
    if (wst == CUZK_OK) {
        CHECK(r.state == CUZK_JOB_FAILED && r.error.code == CUZK_E_NOMEM && strstr(r.error.msg, "3000") &&
                  strstr(r.error.msg, "2000") && strstr(r.error.msg, "4096") &&
                  strstr(r.error.msg, "[memory] total_budget"),
              "beside standing: state %s, error %s '%s'", cuzk_job_state_name(r.state),
              cuzk_status_name(r.error.code), r.error.msg);
        cuzk_job_result_free(&r);
    }
    CHECK(mock_synth_calls_for(&h.mock, 22) == 0, "beside standing: synthesis ran");
    /* the engine still proves a job that fits beside the standing charge */
    h.mock.total_bytes = 2000;
    h.mock.abc_bytes = 1000;
    mock_input ok = mock_input_make(23);
    id = submit(&h, &ok, 3, CUZK_PRIORITY_NORMAL, true);
    CHECK(cuzk_engine_wait(h.e, id, 20000, &r, &err) == CUZK_OK && proofs_ok(&r, 23),
          "beside standing: a fitting job: %s", err.msg);
    cuzk_job_result_free(&r);
    harness_finish(&h, "beside standing");
    mock_destroy(&h.mock);
}

/* A job whose partition a synthesis worker took is running, also while that partition
 * waits for memory budget (before any synthesis started): the cancel reports RUNNING. */
static bool job_running(harness *h, const cuzk_counter_value *v, void *ctx)
{
    (void)v;
    uint64_t id = *(const uint64_t *)ctx;
    cuzk_engine_status s;
    if (cuzk_engine_status_get(h->e, &s, NULL) != CUZK_OK)
        return false;
    bool running = false;
    for (size_t i = 0; i < s.num_jobs; i++)
        if (s.jobs[i].job_id == id)
            running = s.jobs[i].state == CUZK_JOB_RUNNING;
    cuzk_engine_status_free(&s);
    return running;
}

static bool synthesizing_one(harness *h, const cuzk_counter_value *v, void *ctx)
{
    (void)h, (void)ctx;
    return v[CUZK_CTR_SYNTHESIZING].current == 1;
}

static void test_cancel_waiting_for_budget(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.total_bytes = 3000;
    h.mock.abc_bytes = 2000;
    harness_start(&h, (eng_params){.pw = 2, .lookahead = 1, .gw = 1, .devices = 1, .finalizers = 1, .budget = 4096});
    atomic_store(&h.mock.hold_synth, true);
    mock_input a = mock_input_make(31), b = mock_input_make(32), c = mock_input_make(33);
    uint64_t ida = submit(&h, &a, 1, CUZK_PRIORITY_NORMAL, true);
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    CHECK(wait_state(&h, synthesizing_one, NULL, v), "cancel waiting: job a never synthesized");
    uint64_t idb = submit(&h, &b, 1, CUZK_PRIORITY_NORMAL, true);
    CHECK(wait_state(&h, job_running, &idb, v), "cancel waiting: job b's partition never taken");
    /* both workers are taken (a's synthesis, b's budget wait): c stays queued */
    uint64_t idc = submit(&h, &c, 1, CUZK_PRIORITY_NORMAL, true);
    CHECK(mock_synth_calls_for(&h.mock, 32) == 0, "cancel waiting: b synthesized beside a");
    cuzk_job_state was = CUZK_JOB_DONE;
    cuzk_error err = {0};
    /* c first: once b's partition leaves the budget wait, the freed worker takes c's */
    CHECK(cuzk_engine_cancel_why(h.e, idc, "cancelled by request", &was, &err) == CUZK_OK && was == CUZK_JOB_QUEUED,
          "cancel queued: c was %s (%s)", cuzk_job_state_name(was), err.msg);
    CHECK(cuzk_engine_cancel_why(h.e, idb, "cancelled by request", &was, &err) == CUZK_OK && was == CUZK_JOB_RUNNING,
          "cancel waiting: b was %s (%s)", cuzk_job_state_name(was), err.msg);
    CHECK(cuzk_engine_cancel_why(h.e, idb, "again", &was, &err) == CUZK_E_INVALID_ARG && was == CUZK_JOB_CANCELLED,
          "cancel again: b was %s", cuzk_job_state_name(was));
    atomic_store(&h.mock.hold_synth, false);
    cuzk_job_result r;
    CHECK(cuzk_engine_wait(h.e, ida, 20000, &r, &err) == CUZK_OK && proofs_ok(&r, 31), "cancel waiting: a: %s",
          err.msg);
    cuzk_job_result_free(&r);
    for (int i = 0; i < 2; i++) {
        CHECK(cuzk_engine_wait(h.e, i ? idc : idb, 20000, &r, &err) == CUZK_OK && r.state == CUZK_JOB_CANCELLED,
              "cancel waiting: wait %s", err.msg);
        cuzk_job_result_free(&r);
    }
    harness_finish(&h, "cancel waiting");
    mock_destroy(&h.mock);
}

static void test_cancel_queued(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.synth_us = 5000;
    h.mock.prove_us = 500;
    harness_start(&h, (eng_params){.pw = 1, .lookahead = 1, .gw = 1, .devices = 1, .finalizers = 1, .budget = 1 << 20});
    mock_input a = mock_input_make(1), b = mock_input_make(2);
    /* the single worker is held inside job a's first partition, so b (behind a's other two
     * partitions) is still queued when it is cancelled, however slow this thread is */
    atomic_store(&h.mock.hold_synth, true);
    uint64_t ida = submit(&h, &a, 3, CUZK_PRIORITY_NORMAL, true);
    uint64_t idb = submit(&h, &b, 3, CUZK_PRIORITY_NORMAL, true);
    cuzk_error err = {0};
    CHECK(cuzk_engine_cancel(h.e, idb, &err) == CUZK_OK, "cancel queued: %s", err.msg);
    CHECK(cuzk_engine_cancel(h.e, idb, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "cancelled"),
          "second cancel: %s", err.msg);
    cuzk_job_result r;
    CHECK(cuzk_engine_wait(h.e, idb, EVENT_TIMEOUT_MS, &r, &err) == CUZK_OK, "wait cancelled: %s", err.msg);
    CHECK(r.state == CUZK_JOB_CANCELLED && r.error.code == CUZK_E_CANCELLED && !r.proofs,
          "cancelled job state %s", cuzk_job_state_name(r.state));
    cuzk_job_result_free(&r);
    atomic_store(&h.mock.hold_synth, false);
    CHECK(cuzk_engine_wait(h.e, ida, 20000, &r, &err) == CUZK_OK && proofs_ok(&r, 1),
          "job before the cancelled one: %s", err.msg);
    cuzk_job_result_free(&r);
    CHECK(mock_synth_calls_for(&h.mock, 2) == 0, "cancelled queued job was synthesized %llu times",
          (unsigned long long)mock_synth_calls_for(&h.mock, 2));
    CHECK(cuzk_engine_wait(h.e, idb, 0, &r, &err) == CUZK_E_INVALID_ARG, "collected job waited twice");
    harness_finish(&h, "cancel queued");
    mock_destroy(&h.mock);
}

static void test_cancel_running(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.synth_us = 2000;
    h.mock.prove_us = 8000;
    h.mock.finish_us = 2000;
    harness_start(&h, (eng_params){.pw = 2, .lookahead = 2, .gw = 1, .devices = 1, .finalizers = 1, .budget = 1 << 20});
    mock_input a = mock_input_make(11), b = mock_input_make(12);
    /* fill the pipeline with prove_start held: one partition proving, the channel full and
     * both workers blocked on the send; cancel there (the held prove_start then completes) */
    atomic_store(&h.mock.hold_prove, true);
    uint64_t ida = submit(&h, &a, 10, CUZK_PRIORITY_NORMAL, true);
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    uint32_t provers = 1;
    CHECK(wait_state(&h, backed_up, &provers, v), "cancel running: pipeline never filled (queued %lld, proving %lld)",
          (long long)v[CUZK_CTR_QUEUED].current, (long long)v[CUZK_CTR_PROVING].current);
    cuzk_error err = {0};
    CHECK(cuzk_engine_cancel(h.e, ida, &err) == CUZK_OK, "cancel running: %s", err.msg);
    atomic_store(&h.mock.hold_prove, false);
    cuzk_job_result r;
    CHECK(cuzk_engine_wait(h.e, ida, EVENT_TIMEOUT_MS, &r, &err) == CUZK_OK && r.state == CUZK_JOB_CANCELLED,
          "cancel running: wait %s", err.msg);
    cuzk_job_result_free(&r);
    /* settled means released: nothing of the job is left anywhere */
    cuzk_engine_counters(h.e, v);
    for (int i = 0; i < CUZK_COUNTER_COUNT; i++)
        CHECK(v[i].current == 0, "cancel running: counter %s = %lld after the job settled", cuzk_counter_name(i),
              (long long)v[i].current);
    mock_stats ms = mock_stats_get(&h.mock);
    CHECK(ms.live_assignments == 0 && ms.live_pending == 0 && ms.live_bytes == 0,
          "cancel running: %lld assignments, %lld pending, %lld bytes left", (long long)ms.live_assignments,
          (long long)ms.live_pending, (long long)ms.live_bytes);
    /* at the cancel: 1 proving + 2 in the channel + 2 awaiting the send; none after it */
    CHECK(mock_synth_calls_for(&h.mock, 11) == 5, "cancel running: %llu partitions synthesized, want 5 of 10",
          (unsigned long long)mock_synth_calls_for(&h.mock, 11));
    /* the engine is healthy afterwards */
    uint64_t idb = submit(&h, &b, 3, CUZK_PRIORITY_NORMAL, true);
    CHECK(cuzk_engine_wait(h.e, idb, 20000, &r, &err) == CUZK_OK && proofs_ok(&r, 12), "after cancel: %s", err.msg);
    cuzk_job_result_free(&r);

    /* cancel while synthesis runs: synthesis is held until it sees the cancel flag, so the
     * job can settle only if the engine interrupts it (no time limit to race against) */
    atomic_store(&h.mock.hold_synth, true);
    mock_input c = mock_input_make(13);
    uint64_t idc = submit(&h, &c, 2, CUZK_PRIORITY_NORMAL, true);
    CHECK(wait_state(&h, synthesizing_all, NULL, v), "cancel synthesizing: %lld of 2 partitions in synthesis",
          (long long)v[CUZK_CTR_SYNTHESIZING].current);
    uint64_t cancelled_before = mock_stats_get(&h.mock).synth_cancelled;
    CHECK(cuzk_engine_cancel(h.e, idc, &err) == CUZK_OK, "cancel synthesizing: %s", err.msg);
    cuzk_status wst = cuzk_engine_wait(h.e, idc, EVENT_TIMEOUT_MS, &r, &err);
    CHECK(wst == CUZK_OK && r.state == CUZK_JOB_CANCELLED, "cancel synthesizing: synthesis was not interrupted: %s",
          err.msg);
    CHECK(mock_stats_get(&h.mock).synth_cancelled == cancelled_before + 2,
          "cancel synthesizing: the kind saw the cancel flag in %llu of 2 partitions",
          (unsigned long long)(mock_stats_get(&h.mock).synth_cancelled - cancelled_before));
    atomic_store(&h.mock.hold_synth, false); /* lets the run end even if the cancel was missed */
    if (wst == CUZK_OK)
        cuzk_job_result_free(&r);
    harness_finish(&h, "cancel running");
    mock_destroy(&h.mock);
}

static void test_failures(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.synth_us = 300;
    h.mock.prove_us = 1000;
    harness_start(&h, (eng_params){.pw = 2, .lookahead = 2, .gw = 1, .devices = 1, .finalizers = 2, .budget = 1 << 20});
    mock_input in[4] = {mock_input_make(21), mock_input_make(22), mock_input_make(23), mock_input_make(24)};
    in[0].fail_synth_partition = 2;
    in[1].fail_prove_partition = 1;
    in[2].corrupt_partition = 3;
    uint64_t ids[4];
    for (int i = 0; i < 4; i++)
        ids[i] = submit(&h, &in[i], 5, CUZK_PRIORITY_NORMAL, true);
    cuzk_job_result r[4];
    cuzk_error err = {0};
    for (int i = 0; i < 4; i++)
        CHECK(cuzk_engine_wait(h.e, ids[i], 20000, &r[i], &err) == CUZK_OK, "failures: wait %d: %s", i, err.msg);
    CHECK(r[0].state == CUZK_JOB_FAILED && r[0].error.code == CUZK_E_FORMAT &&
              strstr(r[0].error.msg, "partition 2 synthesis failed") && strstr(r[0].error.msg, "malformed"),
          "synthesis failure: %s %s", cuzk_job_state_name(r[0].state), r[0].error.msg);
    CHECK(r[1].state == CUZK_JOB_FAILED && strstr(r[1].error.msg, "partition 1 prove_start"),
          "prove failure: %s %s", cuzk_job_state_name(r[1].state), r[1].error.msg);
    CHECK(r[2].state == CUZK_JOB_FAILED && r[2].error.code == CUZK_E_VERIFY_FAILED &&
              strstr(r[2].error.msg, "partition 3 proof failed verification"),
          "verify failure: %s %s", cuzk_job_state_name(r[2].state), r[2].error.msg);
    CHECK(proofs_ok(&r[3], 24) && r[3].verified_partitions == 5, "good job next to failing ones: %s",
          r[3].error.msg);
    for (int i = 0; i < 4; i++) {
        CHECK((r[i].proofs != NULL) == (i == 3), "failed jobs carry no proofs");
        cuzk_job_result_free(&r[i]);
    }
    cuzk_engine_status s;
    CHECK(cuzk_engine_status_get(h.e, &s, &err) == CUZK_OK, "status: %s", err.msg);
    CHECK(s.failed_total == 3 && s.completed_total == 1 && s.cancelled_total == 0, "failures: totals %llu/%llu/%llu",
          (unsigned long long)s.completed_total, (unsigned long long)s.failed_total,
          (unsigned long long)s.cancelled_total);
    cuzk_engine_status_free(&s);
    harness_finish(&h, "failures");
    mock_destroy(&h.mock);
}

static void test_priority(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.synth_us = 200;
    h.mock.prove_us = 6000;
    h.mock.finish_us = 200;
    harness_start(&h, (eng_params){.pw = 1, .lookahead = 1, .gw = 1, .devices = 1, .finalizers = 1, .budget = 1 << 20});
    enum { NORMAL_JOBS = 8 };
    mock_input in[NORMAL_JOBS + 2];
    uint64_t ids[NORMAL_JOBS + 2];
    /* prove_start is held until the pipeline is backed up (NORMAL job 0 proving and queued,
     * job 1's first partition awaiting the send), so exactly jobs 0 and 1 have started when
     * the CRITICAL job arrives, however the threads are scheduled */
    atomic_store(&h.mock.hold_prove, true);
    for (int i = 0; i < NORMAL_JOBS; i++) {
        in[i] = mock_input_make(30 + i);
        ids[i] = submit(&h, &in[i], 2, CUZK_PRIORITY_NORMAL, false);
    }
    in[NORMAL_JOBS] = mock_input_make(50);
    ids[NORMAL_JOBS] = submit(&h, &in[NORMAL_JOBS], 2, CUZK_PRIORITY_LOW, false);
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    uint32_t provers = 1;
    CHECK(wait_state(&h, backed_up, &provers, v), "priority: pipeline never backed up (queued %lld, proving %lld)",
          (long long)v[CUZK_CTR_QUEUED].current, (long long)v[CUZK_CTR_PROVING].current);
    in[NORMAL_JOBS + 1] = mock_input_make(60);
    ids[NORMAL_JOBS + 1] = submit(&h, &in[NORMAL_JOBS + 1], 2, CUZK_PRIORITY_CRITICAL, false);
    atomic_store(&h.mock.hold_prove, false);

    cuzk_job_result r[NORMAL_JOBS + 2];
    cuzk_error err = {0};
    for (int i = 0; i < NORMAL_JOBS + 2; i++) {
        CHECK(cuzk_engine_wait(h.e, ids[i], 30000, &r[i], &err) == CUZK_OK, "priority: wait: %s", err.msg);
        CHECK(proofs_ok(&r[i], in[i].tag), "priority: job %d proofs", i);
    }
    const cuzk_job_timings *crit = &r[NORMAL_JOBS + 1].timings;
    int normal_after = 0, normal_queued_at_submit = 0;
    for (int i = 0; i < NORMAL_JOBS; i++) {
        if (r[i].timings.started_at_ms > crit->submitted_at_ms) {
            normal_queued_at_submit++;
            CHECK(crit->finished_at_ms < r[i].timings.finished_at_ms,
                  "priority: NORMAL job %d (queued when CRITICAL arrived) finished first", i);
        }
        normal_after += crit->finished_at_ms < r[i].timings.finished_at_ms;
        if (i > 0)
            CHECK(r[i - 1].timings.finished_at_ms <= r[i].timings.finished_at_ms,
                  "priority: NORMAL jobs %d and %d finished out of FIFO order", i - 1, i);
    }
    CHECK(normal_queued_at_submit == NORMAL_JOBS - 2 && normal_after >= NORMAL_JOBS - 2,
          "priority: only %d NORMAL jobs were still queued and %d finished after the CRITICAL one",
          normal_queued_at_submit, normal_after);
    CHECK(r[NORMAL_JOBS].timings.finished_at_ms > r[NORMAL_JOBS - 1].timings.finished_at_ms,
          "priority: LOW job finished before the last NORMAL job");
    for (int i = 0; i < NORMAL_JOBS + 2; i++)
        cuzk_job_result_free(&r[i]);
    harness_finish(&h, "priority");
    mock_destroy(&h.mock);
}

/* A CRITICAL job (WinningPoSt) submitted while a NORMAL multi-partition job (PoRep) has
 * partitions proving, queued, awaiting the channel and still waiting in the scheduler is
 * synthesized before every NORMAL partition that had not started (issue 11;
 * docs/engine.md#backpressure: no CRITICAL job waits behind inline work), and finishes first. */
static void test_critical_overtakes_partitions(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.synth_us = 300;
    h.mock.prove_us = 2000;
    harness_start(&h, (eng_params){.pw = 1, .lookahead = 1, .gw = 1, .devices = 1, .finalizers = 1, .budget = 1 << 20});
    atomic_store(&h.mock.hold_prove, true);
    mock_input porep = mock_input_make(80), winning = mock_input_make(81);
    uint64_t id_porep = submit(&h, &porep, 10, CUZK_PRIORITY_NORMAL, true);
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    uint32_t provers = 1;
    CHECK(wait_state(&h, backed_up, &provers, v), "critical: pipeline never backed up");
    uint64_t id_win = submit(&h, &winning, 1, CUZK_PRIORITY_CRITICAL, true);
    atomic_store(&h.mock.hold_prove, false);
    cuzk_job_result rp, rw;
    cuzk_error err = {0};
    CHECK(cuzk_engine_wait(h.e, id_win, 30000, &rw, &err) == CUZK_OK && proofs_ok(&rw, 81), "critical: wait: %s",
          err.msg);
    CHECK(cuzk_engine_wait(h.e, id_porep, 30000, &rp, &err) == CUZK_OK && proofs_ok(&rp, 80), "critical: porep: %s",
          err.msg);
    int w = mock_synth_position(&h.mock, 81, 0);
    for (uint32_t k = 0; k < 10; k++) {
        int p = mock_synth_position(&h.mock, 80, k);
        /* partitions 0..2 were proving / queued / awaiting the send when it arrived */
        CHECK(k < 3 ? p < w : w < p, "critical: NORMAL partition %u synthesized at %d, CRITICAL at %d", k, p, w);
    }
    CHECK(rw.timings.finished_at_ms < rp.timings.finished_at_ms, "critical: finished after the NORMAL job");
    cuzk_job_result_free(&rp);
    cuzk_job_result_free(&rw);
    harness_finish(&h, "critical");
    mock_destroy(&h.mock);
}

static const cuzk_queue_depth *find_queue(const cuzk_engine_status *s, cuzk_priority p)
{
    for (size_t i = 0; i < s->num_queues; i++)
        if (s->queues[i].priority == p && strcmp(s->queues[i].kind_name, "mock") == 0)
            return &s->queues[i];
    return NULL;
}

static void test_status_snapshot(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.synth_us = 1000;
    h.mock.prove_us = 5000;
    h.mock.finish_us = 1000;
    harness_start(&h, (eng_params){.pw = 1, .lookahead = 1, .gw = 1, .devices = 1, .finalizers = 1, .budget = 1 << 20});
    mock_input in[5];
    uint64_t ids[5];
    /* snapshot while prove_start is held with the pipeline backed up: 3 partitions started,
     * 12 still waiting, no job finished */
    atomic_store(&h.mock.hold_prove, true);
    for (int i = 0; i < 5; i++) {
        in[i] = mock_input_make(70 + i);
        ids[i] = submit(&h, &in[i], 3, i == 4 ? CUZK_PRIORITY_HIGH : CUZK_PRIORITY_NORMAL, false);
    }
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    uint32_t provers = 1;
    CHECK(wait_state(&h, backed_up, &provers, v), "status: pipeline never backed up (queued %lld, proving %lld)",
          (long long)v[CUZK_CTR_QUEUED].current, (long long)v[CUZK_CTR_PROVING].current);
    cuzk_engine_status s;
    cuzk_error err = {0};
    CHECK(cuzk_engine_status_get(h.e, &s, &err) == CUZK_OK, "status: %s", err.msg);
    CHECK(s.num_jobs == 5, "status: %zu jobs", s.num_jobs);
    const cuzk_queue_depth *qn = find_queue(&s, CUZK_PRIORITY_NORMAL), *qh = find_queue(&s, CUZK_PRIORITY_HIGH);
    CHECK(qn && qh, "status: missing queue entries (%zu)", s.num_queues);
    if (qn && qh) {
        CHECK(qn->queued_jobs + qn->running_jobs + qh->queued_jobs + qh->running_jobs == 5,
              "status: queue depths do not add up to 5 jobs");
        CHECK(qn->queued_jobs >= 2, "status: %u NORMAL jobs queued", qn->queued_jobs);
        CHECK(qn->partitions_waiting + qh->partitions_waiting == 12 && qn->partitions_waiting >= 6,
              "status: partitions waiting %llu/%llu", (unsigned long long)qn->partitions_waiting,
              (unsigned long long)qh->partitions_waiting);
    }
    CHECK(s.memory_budget_bytes == 1 << 20 && s.partition_workers == 1 && s.channel_capacity == 1 &&
              s.prover_workers == 1 && s.num_devices == 1 && s.finalizer_threads == 1,
          "status: configuration echo");
    CHECK(s.num_workers == 1 && s.workers[0].busy && s.workers[0].partition < 3, "status: worker 0 not busy");
    for (size_t i = 0; i < s.num_jobs && s.num_workers == 1; i++)
        if (s.jobs[i].job_id == s.workers[0].job_id)
            CHECK(s.jobs[i].state == CUZK_JOB_RUNNING && s.jobs[i].partitions_dispatched > s.workers[0].partition,
                  "status: worker 0's job %llu is not running that partition", (unsigned long long)s.jobs[i].job_id);
    CHECK(s.memory_used_bytes > 0 && s.memory_used_bytes <= s.memory_budget_bytes, "status: memory used %llu",
          (unsigned long long)s.memory_used_bytes);
    for (size_t i = 0; i < s.num_jobs; i++) {
        const cuzk_job_status *js = &s.jobs[i];
        CHECK(js->timings.queue_wait_ms >= 0 && js->timings.total_ms >= js->timings.queue_wait_ms &&
                  strcmp(js->kind_name, "mock") == 0 && js->num_partitions == 3,
              "status: job %llu timings/kind", (unsigned long long)js->job_id);
        CHECK((js->state == CUZK_JOB_QUEUED) == (js->timings.started_at_ms < 0), "status: started_at vs state");
    }
    cuzk_engine_status_free(&s);
    atomic_store(&h.mock.hold_prove, false);

    cuzk_job_result r;
    for (int i = 0; i < 5; i++) {
        CHECK(cuzk_engine_wait(h.e, ids[i], 30000, &r, &err) == CUZK_OK && proofs_ok(&r, in[i].tag), "status: wait");
        const cuzk_job_timings *t = &r.timings;
        CHECK(t->prove_ms >= 3 * 5.0 * 0.9 && t->synthesis_ms >= 3 * 1.0 * 0.9 && t->finish_ms >= 3 * 1.0 * 0.9,
              "status: job %d stage sums %.2f/%.2f/%.2f ms too small", i, t->synthesis_ms, t->prove_ms, t->finish_ms);
        CHECK(t->total_ms >= t->queue_wait_ms && t->finished_at_ms >= t->started_at_ms &&
                  t->started_at_ms >= t->submitted_at_ms,
              "status: job %d timeline %.2f %.2f %.2f", i, t->submitted_at_ms, t->started_at_ms, t->finished_at_ms);
        cuzk_job_result_free(&r);
    }
    CHECK(cuzk_engine_status_get(h.e, &s, &err) == CUZK_OK && s.num_jobs == 0 && s.num_queues == 0 &&
              s.completed_total == 5 && s.memory_used_bytes == 0,
          "status after drain: %zu jobs, %zu queues, %llu completed", s.num_jobs, s.num_queues,
          (unsigned long long)s.completed_total);
    cuzk_engine_status_free(&s);
    harness_finish(&h, "status");
    mock_destroy(&h.mock);
}

static bool proving_two(harness *h, const cuzk_counter_value *v, void *ctx)
{
    (void)h;
    (void)ctx;
    return v[CUZK_CTR_PROVING].current == 2;
}

/* Per-prover-worker status: 3 workers (one per device), one job of 2 partitions with
 * prove_start held. Exactly two workers show the job and partitions {0, 1}; the third is
 * idle (no job, partition 0, no kind). After the job finishes every worker is idle. */
static void test_worker_status(void)
{
    harness h;
    mock_init(&h.mock);
    harness_start(&h, (eng_params){.pw = 2, .lookahead = 2, .gw = 1, .devices = 3, .finalizers = 1, .budget = 1 << 20});
    atomic_store(&h.mock.hold_prove, true);
    mock_input in = mock_input_make(90);
    uint64_t id = submit(&h, &in, 2, CUZK_PRIORITY_NORMAL, false);
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    CHECK(wait_state(&h, proving_two, NULL, v), "workers: %lld partitions proving, want 2",
          (long long)v[CUZK_CTR_PROVING].current);
    cuzk_engine_status s;
    cuzk_error err = {0};
    CHECK(cuzk_engine_status_get(h.e, &s, &err) == CUZK_OK, "workers: %s", err.msg);
    CHECK(s.num_workers == 3 && s.prover_workers == 3, "workers: %zu entries, %u prover workers", s.num_workers,
          s.prover_workers);
    uint32_t busy = 0, idle = 0, parts_seen = 0;
    for (size_t i = 0; i < s.num_workers; i++) {
        const cuzk_prover_worker_status *w = &s.workers[i];
        CHECK(w->index == i && w->device == i, "workers: entry %zu has index %u device %u", i, w->index, w->device);
        if (w->busy) {
            busy++;
            CHECK(w->job_id == id && w->partition < 2 && w->kind_name && strcmp(w->kind_name, "mock") == 0,
                  "workers: busy worker %zu shows job %llu partition %u kind %s, want job %llu", i,
                  (unsigned long long)w->job_id, w->partition, w->kind_name ? w->kind_name : "(null)",
                  (unsigned long long)id);
            parts_seen |= 1u << (w->partition & 31);
        } else {
            idle++;
            CHECK(w->job_id == 0 && w->partition == 0 && !w->kind_name,
                  "workers: idle worker %zu shows job %llu partition %u", i, (unsigned long long)w->job_id,
                  w->partition);
        }
    }
    CHECK(busy == 2 && idle == 1 && parts_seen == 3, "workers: %u busy, %u idle, partitions mask %#x (want 2, 1, 0x3)",
          busy, idle, parts_seen);
    cuzk_engine_status_free(&s);
    atomic_store(&h.mock.hold_prove, false);

    cuzk_job_result r;
    CHECK(cuzk_engine_wait(h.e, id, 30000, &r, &err) == CUZK_OK && proofs_ok(&r, in.tag), "workers: wait: %s",
          err.msg);
    cuzk_job_result_free(&r);
    CHECK(cuzk_engine_status_get(h.e, &s, &err) == CUZK_OK, "workers after: %s", err.msg);
    for (size_t i = 0; i < s.num_workers; i++)
        CHECK(!s.workers[i].busy && s.workers[i].job_id == 0 && !s.workers[i].kind_name,
              "workers after: worker %zu still shows job %llu", i, (unsigned long long)s.workers[i].job_id);
    cuzk_engine_status_free(&s);
    harness_finish(&h, "workers");
    mock_destroy(&h.mock);
}

/* What cuzk-bench batch does: C jobs, J in flight, wait_any + wait, verify, counter peaks. */
static void test_bench_loop(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.synth_us = 500;
    h.mock.prove_us = 1000;
    h.mock.finish_us = 300;
    harness_start(&h, (eng_params){.pw = 3, .lookahead = 2, .gw = 2, .devices = 1, .finalizers = 2, .budget = 1 << 20});
    /* counters are logged at DEBUG level only: capture them in a file for this run */
    char log_path[] = "/tmp/cuzk-engine-log-XXXXXX";
    FILE *log = fdopen(mkstemp(log_path), "w+");
    cuzk_log_set_sink(log);
    cuzk_log_set_level(CUZK_LOG_DEBUG);
    enum { C = 12, J = 3, N = 4 };
    mock_input in[C];
    uint32_t submitted = 0, done = 0, verified = 0, in_flight = 0, max_in_flight = 0;
    cuzk_error err = {0};
    while (done < C) {
        while (submitted < C && in_flight < J) {
            in[submitted] = mock_input_make(200 + submitted);
            submit(&h, &in[submitted], N, CUZK_PRIORITY_NORMAL, true);
            submitted++;
            if (++in_flight > max_in_flight)
                max_in_flight = in_flight;
        }
        uint64_t id;
        if (cuzk_engine_wait_any(h.e, 30000, &id, &err) != CUZK_OK) {
            CHECK(false, "bench: wait_any: %s", err.msg);
            break;
        }
        cuzk_job_result r;
        CHECK(cuzk_engine_wait(h.e, id, 0, &r, &err) == CUZK_OK, "bench: collect %llu: %s", (unsigned long long)id,
              err.msg);
        verified += r.state == CUZK_JOB_DONE && r.verified_partitions == N && proofs_ok(&r, in[id - 1].tag);
        cuzk_job_result_free(&r);
        done++;
        in_flight--;
    }
    cuzk_log_set_level(CUZK_LOG_WARN);
    cuzk_log_set_sink(NULL);
    rewind(log);
    char line[1024];
    int counter_lines = 0;
    while (fgets(line, sizeof line, log))
        counter_lines += strstr(line, "DEBUG engine: partition finished") && strstr(line, "permits_held=") &&
                         strstr(line, "memory_used=");
    fclose(log);
    unlink(log_path);
    CHECK(counter_lines == C * N, "bench: %d debug counter lines, want one per partition (%d)", counter_lines, C * N);
    uint64_t id;
    CHECK(cuzk_engine_wait_any(h.e, 0, &id, &err) == CUZK_E_INVALID_ARG, "bench: wait_any with nothing pending");
    CHECK(verified == C && max_in_flight == J, "bench: %u verified, %u max in flight", verified, max_in_flight);
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(h.e, v);
    CHECK(v[CUZK_CTR_PERMITS_HELD].peak >= 1 && v[CUZK_CTR_PERMITS_HELD].peak <= 3, "bench: peak_permits_held %lld",
          (long long)v[CUZK_CTR_PERMITS_HELD].peak);
    harness_finish(&h, "bench loop");
    mock_destroy(&h.mock);
}

/* Destroy with queued, synthesizing, queued-for-prover and finishing work. */
static void test_destroy_in_flight(void)
{
    harness h;
    mock_init(&h.mock);
    h.mock.synth_us = 2000;
    h.mock.prove_us = 4000;
    h.mock.finish_us = 2000;
    harness_start(&h, (eng_params){.pw = 2, .lookahead = 2, .gw = 1, .devices = 1, .finalizers = 1, .budget = 1 << 20});
    mock_input in[6];
    for (int i = 0; i < 6; i++) {
        in[i] = mock_input_make(300 + i);
        submit(&h, &in[i], 4, CUZK_PRIORITY_NORMAL, true);
    }
    mock_sleep_us(15000);
    cuzk_engine_destroy(h.e);
    CHECK(h.chk.violations == 0, "destroy: %s", h.chk.first_violation);
    CHECK(h.mock.violations == 0, "destroy: mock %s", h.mock.first_violation);
    CHECK(h.mock.live_assignments == 0 && h.mock.live_pending == 0 && h.mock.live_bytes == 0,
          "destroy: leaked %lld assignments, %lld pending", (long long)h.mock.live_assignments,
          (long long)h.mock.live_pending);
    CHECK(h.chk.settled == 6, "destroy: %llu of 6 jobs settled", (unsigned long long)h.chk.settled);
    checker_destroy(&h.chk);
    mock_destroy(&h.mock);
}

static void test_config_errors(void)
{
    mock_ctx m;
    mock_init(&m);
    cuzk_prover_backend be = mock_backend(&m);
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.backend = &be;
    cfg.memory_budget_auto = false;
    cfg.memory_budget_bytes = 1000;
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    cfg.partition_workers = 0;
    CHECK(cuzk_engine_create(&cfg, &e, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "partition_workers") && !e,
          "pw 0: %s", err.msg);
    cfg.partition_workers = 1;
    cfg.memory_budget_bytes = 0;
    CHECK(cuzk_engine_create(&cfg, &e, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "total_budget"), "budget 0: %s",
          err.msg);
    cfg.memory_budget_bytes = 1000;
    m.num_devices = 0;
    CHECK(cuzk_engine_create(&cfg, &e, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "0 devices"), "0 devices: %s",
          err.msg);
    m.num_devices = 1;

    /* upper bounds: rejected before any thread starts, naming the field and the value */
    static const struct {
        const char *field;
        size_t offset;
        uint32_t max;
    } bounds[] = {
        {"partition_workers", offsetof(cuzk_engine_config, partition_workers), CUZK_ENGINE_MAX_PARTITION_WORKERS},
        {"synthesis_lookahead", offsetof(cuzk_engine_config, synthesis_lookahead), CUZK_ENGINE_MAX_SYNTHESIS_LOOKAHEAD},
        {"gpu_workers_per_device", offsetof(cuzk_engine_config, gpu_workers_per_device),
         CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE},
        {"finalizer_threads", offsetof(cuzk_engine_config, finalizer_threads), CUZK_ENGINE_MAX_FINALIZER_THREADS},
    };
    CHECK(CUZK_ENGINE_MAX_PARTITION_WORKERS == 4096 && CUZK_ENGINE_MAX_SYNTHESIS_LOOKAHEAD == 65536 &&
              CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE == 64 && CUZK_ENGINE_MAX_FINALIZER_THREADS == 256 &&
              CUZK_ENGINE_MAX_PROVER_WORKERS == 4096,
          "config bounds changed");
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
        const uint32_t bad[] = {bounds[i].max + 1, 100000000u, UINT32_MAX};
        for (size_t j = 0; j < 3; j++) {
            cuzk_engine_config c = cfg;
            memcpy((char *)&c + bounds[i].offset, &bad[j], sizeof bad[j]);
            char value[16];
            snprintf(value, sizeof value, "%u", bad[j]);
            err.msg[0] = 0;
            int64_t t0 = cuzk_now_ns();
            cuzk_status st = cuzk_engine_create(&c, &e, &err);
            double ms = (double)(cuzk_now_ns() - t0) * 1e-6;
            CHECK(st == CUZK_E_INVALID_ARG && !e && strstr(err.msg, bounds[i].field) && strstr(err.msg, value),
                  "%s = %s: %s (%s)", bounds[i].field, value, cuzk_status_name(st), err.msg);
            CHECK(ms < 5000, "%s = %s: took %.1f ms to be rejected", bounds[i].field, value, ms);
            if (e) {
                cuzk_engine_destroy(e);
                e = NULL;
            }
        }
    }
    /* the largest lookahead is accepted (it sizes a channel, starts no thread) */
    cfg.synthesis_lookahead = CUZK_ENGINE_MAX_SYNTHESIS_LOOKAHEAD;
    CHECK(cuzk_engine_create(&cfg, &e, &err) == CUZK_OK, "lookahead at the bound: %s", err.msg);
    if (e) {
        cuzk_engine_status s;
        CHECK(cuzk_engine_status_get(e, &s, &err) == CUZK_OK && s.channel_capacity == 65536,
              "lookahead at the bound: capacity %u", s.channel_capacity);
        cuzk_engine_status_free(&s);
        cuzk_engine_destroy(e);
        e = NULL;
    }
    cfg.synthesis_lookahead = 1;
    /* prover threads = devices x gpu_workers_per_device: 65 x 64 = 4160 > 4096 */
    m.num_devices = 65;
    cfg.gpu_workers_per_device = 64;
    CHECK(cuzk_engine_create(&cfg, &e, &err) == CUZK_E_INVALID_ARG && !e && strstr(err.msg, "gpu_workers_per_device") &&
              strstr(err.msg, "65 devices") && strstr(err.msg, "4160"),
          "65 devices x 64 workers: %s", err.msg);
    m.num_devices = 1;
    cfg.gpu_workers_per_device = 1;
    cfg.backend = NULL;
    CHECK(cuzk_engine_create(&cfg, &e, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "backend"), "no backend: %s",
          err.msg);

    /* auto budget from a meminfo fixture: MemTotal - margin */
    char path[] = "/tmp/cuzk-meminfo-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "MemFree:  1 kB\nMemTotal:       16384 kB\nBuffers: 2 kB\n");
    fclose(f);
    cfg.backend = &be;
    cfg.memory_budget_auto = true;
    cfg.meminfo_path = path;
    cfg.safety_margin_bytes = 1 << 20;
    CHECK(cuzk_engine_create(&cfg, &e, &err) == CUZK_OK, "auto budget: %s", err.msg);
    if (e) {
        cuzk_engine_status s;
        CHECK(cuzk_engine_status_get(e, &s, &err) == CUZK_OK && s.memory_budget_bytes == 16384ull * 1024 - (1 << 20),
              "auto budget: %llu", (unsigned long long)s.memory_budget_bytes);
        cuzk_engine_status_free(&s);
        cuzk_engine_destroy(e);
        e = NULL;
    }
    cfg.safety_margin_bytes = 16384ull * 1024;
    CHECK(cuzk_engine_create(&cfg, &e, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "safety_margin"),
          "margin >= MemTotal: %s", err.msg);
    unlink(path);
    mock_destroy(&m);
}

int main(void)
{
    cuzk_log_set_level(CUZK_LOG_WARN);
    test_slow_prover_fast_synthesis();
    test_fast_prover_slow_synthesis();
    test_idle_workers_wake();
    test_memory_bound();
    test_early_abc_release();
    test_never_fits();
    test_never_fits_beside_held();
    test_cancel_queued();
    test_cancel_waiting_for_budget();
    test_cancel_running();
    test_failures();
    test_priority();
    test_critical_overtakes_partitions();
    test_status_snapshot();
    test_worker_status();
    test_bench_loop();
    test_destroy_in_flight();
    test_config_errors();
    return check_summary("engine_pipeline");
}
