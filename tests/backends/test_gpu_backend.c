/* The GPU prover backend (src/backends) on every OpenCL device (POCL on the CPU in CI; a clean
 * skip, exit 77, where none exists), against the CPU backend as the independent oracle: the
 * CPU path (groth16_prove_start, itself checked against snarkjs / the verifier) with the same
 * fixed r, s must give the same 192 bytes, and every proof must verify.
 *   - the synthetic circuit at two sizes, plain and compact witnesses, several partitions; the
 *     witness uploaded once a partition (32 bytes a variable) for the L, A and B_G1 MSMs, which
 *     select the densities' variables on the device; a partition with another density (one
 *     bit moved) proved from the host's filtered scalars, also identical;
 *   - two workers of one device proving at once;
 *   - the resident bases: uploaded once per parameter set, the least recently used dropped under
 *     a tiny per-device budget (counted in the stats), a set larger than the budget refused
 *     with the device named;
 *   - a/b/c from an engine a/b/c pool whose buffers the backend registered through the pool's
 *     hooks (attach): uploaded straight from them (no staging), a/b/c released once read,
 *     identical proofs; the buffers unregistered at detach;
 *   - injected device failures (the fail hook): a job error naming the device, the next
 *     partition fine; with fallback_to_cpu the partition proved on the CPU, byte-identical;
 *   - configuration errors: unknown backend / device / fail hook.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backends.h"
#include "backends/cpu.h"
#include "check.h"
#include "engine/engine.h"
#include "gpu_test_runtime.h"
#include "gpu/runtime.h"
#include "kinds/builtin/builtin.h"



static fr_t R, S;
static atomic_bool no_cancel;

typedef struct {
    builtin_synthetic *syn;
    const cuzk_circuit_kind *kind;
    const groth16_params_t *pp;
    const cuzk_verify_hook *vh;
    builtin_synthetic_input in;
} circuit;

static void circuit_make(circuit *c, unsigned log2)
{
    cuzk_error err = {0};
    cuzk_status st = builtin_synthetic_create(log2, 2, &c->syn, &err);
    CHECK(!st, "synthetic 2^%u: %s", log2, err.msg);
    if (st)
        exit(check_summary("gpu_backend"));
    c->kind = builtin_synthetic_kind(c->syn);
    c->pp = builtin_synthetic_params(c->syn);
    c->vh = builtin_synthetic_verify_hook(c->syn);
    c->in.seed = 1000 + log2;
}

/* The aux witness of a plain assignment as a compact one (the Filecoin kinds' form). */
static void make_compact(builtin_assignment *as, const groth16_params_t *pp, cs_witness *aux)
{
    memset(aux, 0, sizeof *aux);
    for (size_t i = 0; i < pp->n_aux; i++)
        CHECK(cs_witness_push(aux, &as->w[pp->n_inputs + i]), "cs_witness_push");
    as->compact.inputs = as->w;
    as->compact.aux = aux;
    as->g.w = NULL;
}

static const uint64_t *a_density_override; /* when set, every partition's A density */

static builtin_assignment *synth(const circuit *c, uint32_t partition)
{
    void *a = NULL;
    cuzk_error err = {0};
    cuzk_status st = c->kind->synthesize(c->kind->ctx, &c->in, partition, &no_cancel, &a, &err);
    CHECK(!st && a, "synthesize %u: %s", partition, err.msg);
    if (a && a_density_override)
        ((builtin_assignment *)a)->g.a_density = a_density_override;
    return a;
}

/* Device bytes of a parameter set resident: its G1 bases and the index lists of its densities
 * (4 bytes a dense variable; the synthetic circuit has both densities). */
static uint64_t resident_bytes(const groth16_params_t *pp)
{
    return (uint64_t)(pp->n_h + pp->n_l + pp->n_a + pp->n_b) * sizeof(g1_affine_t) +
           (uint64_t)(pp->n_a + pp->n_b) * sizeof(uint32_t);
}

/* The witness scalars a partition uploads: 32 bytes a variable, once for the L, A and B_G1
 * MSMs (the density's variables selected on the device), not L's, A's and B's lists. */
static uint64_t witness_bytes(const groth16_params_t *pp)
{
    return (uint64_t)(pp->n_inputs + pp->n_aux) * 32;
}

/* The CPU oracle's proof bytes of partition p with R, S. */
static void cpu_proof(const circuit *c, uint32_t p, bool compact, uint8_t out[CUZK_PROOF_BYTES])
{
    builtin_assignment *as = synth(c, p);
    cs_witness aux;
    if (compact)
        make_compact(as, c->pp, &aux);
    groth16_pending_t *pend = NULL;
    cuzk_error err = {0};
    cuzk_status st = backend_cpu_prove_start(2, c->pp, as, NULL, &R, &S, &pend, &err);
    groth16_proof_t pr;
    if (!st)
        st = groth16_prove_finish(pend, 2, &pr, &err);
    CHECK(!st, "cpu proof: %s", err.msg);
    groth16_proof_to_bytes(out, &pr);
    if (compact)
        cs_witness_free(&aux);
    c->kind->free_assignment(c->kind->ctx, as);
}

typedef struct {
    const cuzk_circuit_kind *kind;
    void *as;
    int calls;
} release_ctx;

static void on_release(void *ctx)
{
    release_ctx *r = ctx;
    r->calls++;
    r->kind->release_abc(r->kind->ctx, r->as);
}

static bool fallback_expected; /* the backend under test has fallback_to_cpu */

/* When set, partitions take a/b/c from this pool as the engine runs them: the a/b/c bytes
 * reserved on the budget before synthesis, and after release_abc taken over by the pool
 * (cuzk_abc_pool_adopt) so that the buffer is reused by the next partition. */
static cuzk_abc_pool *pool_on;
static cuzk_budget *pool_budget;

static uint64_t abc_bytes(const groth16_params_t *pp)
{
    return 3 * ((uint64_t)1 << pp->log2_m) * sizeof(fr_t);
}

/* Partition p through backend b on device d as the engine drives it; returns the status of
 * prove_start (prove_finish must succeed after a successful start). */
static cuzk_status gpu_proof(backend *b, uint32_t d, const circuit *c, uint32_t p, bool compact,
                             uint8_t out[CUZK_PROOF_BYTES], cuzk_error *err)
{
    const cuzk_prover_backend *t = backend_table(b);
    if (pool_on)
        CHECK(cuzk_budget_try_acquire(pool_budget, abc_bytes(c->pp)), "reserve a/b/c");
    builtin_assignment *as = synth(c, p);
    cs_witness aux;
    if (compact)
        make_compact(as, c->pp, &aux);
    void *pend = NULL;
    /* the engine's release callback (engine/backend.h): a/b/c freed at most once, inside the
     * call; the GPU backend releases them once they are on the device */
    release_ctx rc = {c->kind, as, 0};
    cuzk_release_cb rel = {on_release, &rc};
    cuzk_status st = t->prove_start(t->ctx, d, c->pp, as, &rel, &pend, err);
    CHECK(rc.calls <= 1, "a/b/c released %d times", rc.calls);
    if (!st && !fallback_expected)
        CHECK(rc.calls == 1 && !as->g.a, "a/b/c released once they are on the device (%d)", rc.calls);
    if (!rc.calls)
        c->kind->release_abc(c->kind->ctx, as);
    if (pool_on)
        cuzk_budget_release(pool_budget, abc_bytes(c->pp) - cuzk_abc_pool_adopt(pool_on, abc_bytes(c->pp)));
    if (!st) {
        st = t->prove_finish(t->ctx, pend, out, err);
        CHECK(!st, "prove_finish: %s", err->msg);
    } else {
        CHECK(pend == NULL, "failed prove_start left a pending handle");
    }
    if (compact)
        cs_witness_free(&aux);
    c->kind->free_assignment(c->kind->ctx, as);
    return st;
}

static void check_identical(backend *b, const circuit *c, uint32_t p, bool compact, const char *what)
{
    uint8_t want[CUZK_PROOF_BYTES], got[CUZK_PROOF_BYTES];
    cpu_proof(c, p, compact, want);
    cuzk_error err = {0};
    cuzk_status st = gpu_proof(b, 0, c, p, compact, got, &err);
    CHECK(!st, "%s: gpu prove: %s", what, err.msg);
    if (st)
        return;
    CHECK(!memcmp(want, got, sizeof got), "%s partition %u%s: GPU proof differs from the CPU's", what, p,
          compact ? " (compact)" : "");
    if (a_density_override)
        return; /* not the key's density: the identity is the check, the proof cannot verify */
    st = c->vh->verify(c->vh->ctx, &c->in, c->pp, p, got, &err);
    CHECK(!st, "%s partition %u: GPU proof does not verify: %s", what, p, err.msg);
}

static backend *open_backend(const char *fail, bool fallback, uint64_t limit, unsigned workers)
{
    backend_config cfg;
    backend_config_default(&cfg);
    cfg.kind = runtime_kind();
    cfg.cpu_threads = 2;
    cfg.workers_per_device = workers;
    cfg.fallback_to_cpu = fallback;
    cfg.device_memory_limit = limit;
    cfg.staging_bytes = 64 << 10; /* several halves per vector: the double buffering runs */
    cfg.fail = fail ? fail : "";
    cfg.test_r = &R;
    cfg.test_s = &S;
    backend *b = NULL;
    cuzk_error err = {0};
    cuzk_status st = backend_open(&cfg, &b, &err);
    if (st == CUZK_E_UNSUPPORTED && !fail) {
        printf("SKIP: no OpenCL device: %s\n", err.msg);
        exit(77);
    }
    CHECK(!st, "backend_open: %s", err.msg);
    if (st)
        exit(check_summary("gpu_backend"));
    CHECK(backend_is_gpu(b) && backend_table(b)->name && !strcmp(backend_table(b)->name, "gpu"), "a GPU backend");
    return b;
}

static backend_device_stats stats_of(backend *b)
{
    backend_device_stats s;
    cuzk_error err = {0};
    CHECK(!backend_device_stats_get(b, 0, &s, &err), "stats: %s", err.msg);
    return s;
}

typedef struct {
    backend *b;
    const circuit *c;
    uint32_t p;
    uint8_t proof[CUZK_PROOF_BYTES];
    cuzk_status st;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    cuzk_error err = {0};
    j->st = gpu_proof(j->b, 0, j->c, j->p, false, j->proof, &err);
    return NULL;
}

static void test_identity(circuit *small, circuit *big)
{
    backend *b = open_backend(NULL, false, 0, 2);
    printf("backend: %s\n", backend_describe(b));
    for (uint32_t p = 0; p < 2; p++)
        check_identical(b, small, p, false, "synthetic 2^8");
    check_identical(b, small, 2, true, "synthetic 2^8");
    check_identical(b, big, 0, false, "synthetic 2^11");
    check_identical(b, big, 1, true, "synthetic 2^11");
    backend_device_stats s = stats_of(b);
    CHECK(s.partitions == 5 && s.failures == 0 && s.in_flight == 0, "stats: %llu partitions, %llu failures, %u in flight",
          (unsigned long long)s.partitions, (unsigned long long)s.failures, s.in_flight);
    CHECK(s.bases_resident == 2 && s.bases_evictions == 0, "2 parameter sets resident, no eviction (got %u, %llu)",
          s.bases_resident, (unsigned long long)s.bases_evictions);
    uint64_t want_bytes = resident_bytes(small->pp) + resident_bytes(big->pp);
    uint64_t want_up = 3 * witness_bytes(small->pp) + 2 * witness_bytes(big->pp);
    CHECK(s.scalar_upload_bytes == want_up, "witness scalars uploaded: %llu bytes, expected %llu (once a partition)",
          (unsigned long long)s.scalar_upload_bytes, (unsigned long long)want_up);
    CHECK(s.bases_bytes == want_bytes, "resident bases %llu bytes, expected %llu", (unsigned long long)s.bases_bytes,
          (unsigned long long)want_bytes);
    CHECK(s.busy_ns > 0 && s.mem_total_bytes > 0 && strstr(s.label, dev0), "stats label / busy / memory");

    /* two workers on one device at once */
    job jobs[2] = {{b, big, 3, {0}, 0}, {b, small, 4, {0}, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, run_job, &jobs[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 2; i++) {
        uint8_t want[CUZK_PROOF_BYTES];
        cpu_proof(jobs[i].c, jobs[i].p, false, want);
        CHECK(!jobs[i].st && !memcmp(want, jobs[i].proof, sizeof want), "concurrent job %d: status %d or bytes differ", i,
              jobs[i].st);
    }
    backend_close(b);
}

static void test_lru(circuit *small, circuit *big)
{
    uint64_t big_bytes = resident_bytes(big->pp), small_bytes = resident_bytes(small->pp);
    /* room for the big set, not for both */
    backend *b = open_backend(NULL, false, big_bytes + small_bytes / 2, 1);
    check_identical(b, small, 0, false, "lru small");
    check_identical(b, big, 0, false, "lru big");
    backend_device_stats s = stats_of(b);
    CHECK(s.bases_evictions == 1 && s.bases_resident == 1 && s.bases_bytes == big_bytes,
          "after small then big: %llu evictions, %u resident, %llu bytes", (unsigned long long)s.bases_evictions,
          s.bases_resident, (unsigned long long)s.bases_bytes);
    check_identical(b, big, 1, false, "lru big again");
    s = stats_of(b);
    CHECK(s.bases_evictions == 1, "a resident set is reused, not uploaded again (%llu evictions)",
          (unsigned long long)s.bases_evictions);
    check_identical(b, small, 1, false, "lru small again");
    s = stats_of(b);
    CHECK(s.bases_evictions == 2 && s.bases_bytes == small_bytes, "small back: %llu evictions, %llu bytes",
          (unsigned long long)s.bases_evictions, (unsigned long long)s.bases_bytes);
    backend_close(b);

    /* a budget below one set: refused, naming the device and the budget */
    b = open_backend(NULL, false, small_bytes / 2, 1);
    uint8_t proof[CUZK_PROOF_BYTES];
    cuzk_error err = {0};
    cuzk_status st = gpu_proof(b, 0, small, 0, false, proof, &err);
    CHECK(st == CUZK_E_NOMEM && strstr(err.msg, dev0) && strstr(err.msg, "budget"),
          "bases over the budget: status %d '%s'", st, err.msg);
    backend_close(b);
}

/* Densities through the index lists and past them: an A density with one bit moved (same
 * popcount) selects through a non-trivial index list; a partition whose density differs from
 * the one the resident lists were made from is proved from the host's filtered scalars; each
 * byte-identical to the CPU's with the same density; the resident lists are kept. */
static void test_other_density(circuit *small)
{
    const groth16_params_t *pp = small->pp;
    size_t nvars = pp->n_inputs + pp->n_aux, words = nvars / 64 + 1;
    builtin_assignment *as = synth(small, 0);
    uint64_t *moved = malloc(words * sizeof *moved);
    memcpy(moved, as->g.a_density, words * sizeof *moved);
    small->kind->free_assignment(small->kind->ctx, as);
    size_t set = 0, clear = nvars;
    for (size_t i = nvars; i-- > 1;)
        if (!(moved[i / 64] >> (i % 64) & 1))
            clear = i;
    while (!(moved[set / 64] >> (set % 64) & 1) || set < pp->n_inputs)
        set++;
    CHECK(clear < nvars, "the synthetic A density has a clear bit");
    moved[set / 64] ^= 1ull << (set % 64);
    moved[clear / 64] ^= 1ull << (clear % 64);

    /* the moved density loads the set (its index list is not the identity past `set`, unlike
     * the synthetic key's A density, whose only clear bit is the last), then the key's own
     * density takes the host path, then the moved one the index path again */
    backend *b = open_backend(NULL, false, 0, 1);
    a_density_override = moved;
    check_identical(b, small, 0, false, "resident moved density");
    a_density_override = NULL;
    check_identical(b, small, 1, false, "the key's density");
    a_density_override = moved;
    check_identical(b, small, 2, true, "resident moved density again");
    a_density_override = NULL;
    backend_device_stats s = stats_of(b);
    uint64_t want = 2 * witness_bytes(pp) + (uint64_t)(pp->n_aux + pp->n_a + pp->n_b) * 32;
    CHECK(s.scalar_upload_bytes == want && s.bases_resident == 1 && s.partitions == 3,
          "other density: %llu scalar bytes (expected %llu), %u resident", (unsigned long long)s.scalar_upload_bytes,
          (unsigned long long)want, s.bases_resident);
    /* one worker: one slot's pinned staging, the 64 KiB of open_backend */
    CHECK(s.staging_bytes == 64 << 10 && s.mem_total_bytes > 0, "staging %llu bytes (expected 65536), memory %llu",
          (unsigned long long)s.staging_bytes, (unsigned long long)s.mem_total_bytes);
    backend_close(b);
    free(moved);
}

/* a/b/c from an a/b/c pool attached to the backend as an engine attaches it: its buffers are
 * registered once each (on_map), partitions upload straight from them, the proofs are the CPU's. */
static void test_pool(circuit *small, circuit *big)
{
    cuzk_error err = {0};
    cuzk_budget budget;
    cuzk_abc_pool *pool = NULL;
    cuzk_abc_pool_config pc;
    cuzk_abc_pool_config_default(&pc);
    pc.idle_ms = 0;
    CHECK(!cuzk_budget_init(&budget, (uint64_t)1 << 30, NULL, &err), "budget: %s", err.msg);
    CHECK(!cuzk_abc_pool_create(&pc, &budget, NULL, &pool, &err), "pool: %s", err.msg);
    if (!pool)
        return;
    backend *b = open_backend(NULL, false, 0, 1);
    const cuzk_prover_backend *t = backend_table(b);
    cuzk_backend_host host = {&budget, pool, 1};
    CHECK(t->attach && !t->attach(t->ctx, &host, &err), "attach: %s", err.msg);
    struct {
        circuit *c;
        uint32_t p;
        bool compact;
    } runs[] = {{small, 0, false}, {small, 1, true}, {big, 0, false}, {small, 2, false}};
    uint64_t want_direct = 0;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        uint8_t want[CUZK_PROOF_BYTES], got[CUZK_PROOF_BYTES];
        cpu_proof(runs[i].c, runs[i].p, runs[i].compact, want);
        pool_on = pool;
        pool_budget = &budget;
        builtin_synthetic_use_pool(runs[i].c->syn, pool);
        cuzk_status st = gpu_proof(b, 0, runs[i].c, runs[i].p, runs[i].compact, got, &err);
        builtin_synthetic_use_pool(runs[i].c->syn, NULL);
        pool_on = NULL;
        CHECK(!st && !memcmp(want, got, sizeof got), "pool run %zu: status %d '%s', or the proof differs from the CPU's",
              i, st, st ? err.msg : "");
        want_direct += abc_bytes(runs[i].c->pp);
    }
    backend_device_stats s = stats_of(b);
    cuzk_abc_pool_stats ps;
    cuzk_abc_pool_stats_get(pool, &ps);
    CHECK(s.abc_direct_bytes == want_direct && s.abc_staged_bytes == 0,
          "a/b/c straight from the pool buffers: %llu direct (expected %llu), %llu staged",
          (unsigned long long)s.abc_direct_bytes, (unsigned long long)want_direct,
          (unsigned long long)s.abc_staged_bytes);
    CHECK(ps.created == 2 && ps.reused == 2 && s.abc_registered_bytes == ps.total_bytes &&
              ps.total_bytes == abc_bytes(small->pp) + abc_bytes(big->pp),
          "one buffer a size, each registered once: created %llu, reused %llu, registered %llu of %llu bytes",
          (unsigned long long)ps.created, (unsigned long long)ps.reused, (unsigned long long)s.abc_registered_bytes,
          (unsigned long long)ps.total_bytes);
    t->detach(t->ctx);
    s = stats_of(b);
    CHECK(s.abc_registered_bytes == 0, "detach unregisters every pool buffer (%llu bytes left)",
          (unsigned long long)s.abc_registered_bytes);
    /* without the pool's hooks: the same memory now goes through the staging */
    uint8_t want[CUZK_PROOF_BYTES], got[CUZK_PROOF_BYTES];
    cpu_proof(small, 3, false, want);
    CHECK(!t->attach(t->ctx, &(cuzk_backend_host){&budget, NULL, 1}, &err), "attach without a pool: %s", err.msg);
    pool_on = pool;
    builtin_synthetic_use_pool(small->syn, pool);
    cuzk_status st = gpu_proof(b, 0, small, 3, false, got, &err);
    builtin_synthetic_use_pool(small->syn, NULL);
    pool_on = NULL;
    t->detach(t->ctx);
    s = stats_of(b);
    CHECK(!st && !memcmp(want, got, sizeof got) && s.abc_staged_bytes == abc_bytes(small->pp),
          "an unregistered pool buffer through the staging: status %d, %llu staged bytes", st,
          (unsigned long long)s.abc_staged_bytes);
    cuzk_abc_pool_destroy(pool);
    CHECK(cuzk_budget_used(&budget) == 0, "budget back at zero (%llu)", (unsigned long long)cuzk_budget_used(&budget));
    cuzk_budget_destroy(&budget);
    backend_close(b);
}

static void test_failures(circuit *small)
{
    static const char *const stages[] = {"bases", "upload", "h", "msm"};
    for (int i = 0; i < 4; i++) {
        char spec[32];
        snprintf(spec, sizeof spec, "%s:0:1", stages[i]);
        backend *b = open_backend(spec, false, 0, 1);
        uint8_t proof[CUZK_PROOF_BYTES];
        cuzk_error err = {0};
        cuzk_status st = gpu_proof(b, 0, small, 0, false, proof, &err);
        CHECK(st == CUZK_E_DEVICE && strstr(err.msg, dev0) && strstr(err.msg, stages[i]),
              "injected %s: status %d '%s'", stages[i], st, err.msg);
        /* only that partition: the next one is proved, identical to the CPU's */
        check_identical(b, small, 1, false, spec);
        backend_device_stats s = stats_of(b);
        CHECK(s.failures == 1 && s.partitions == 1 && s.fallbacks == 0 && s.in_flight == 0,
              "%s: %llu failures, %llu partitions", spec, (unsigned long long)s.failures,
              (unsigned long long)s.partitions);
        backend_close(b);
    }
    /* with the fallback configured: every device failure proved on the CPU instead (which
     * releases a/b/c after its H MSM) */
    fallback_expected = true;
    for (int i = 0; i < 4; i++) {
        backend *b = open_backend(stages[i], true, 0, 1);
        check_identical(b, small, 2, i == 3, stages[i]);
        backend_device_stats s = stats_of(b);
        CHECK(s.failures == 1 && s.fallbacks == 1, "fallback %s: %llu failures, %llu fallbacks", stages[i],
              (unsigned long long)s.failures, (unsigned long long)s.fallbacks);
        backend_close(b);
    }
    fallback_expected = false;
    /* a device that fails to open: an error naming it */
    backend_config cfg;
    backend_config_default(&cfg);
    cfg.kind = runtime_kind();
    cfg.fail = "open";
    backend *b = NULL;
    cuzk_error err = {0};
    cuzk_status st = backend_open(&cfg, &b, &err);
    CHECK(st == CUZK_E_DEVICE && !b && strstr(err.msg, dev0), "open failure: %d '%s'", st, err.msg);
}

static void test_config_errors(void)
{
    backend_kind k;
    cuzk_error err = {0};
    CHECK(backend_kind_parse("vulkan", &k, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "vulkan"), "bad kind");
    CHECK(!backend_kind_parse("opencl", &k, &err) && k == BACKEND_OPENCL, "opencl kind");
    static const char *const bad_hooks[] = {"melt", "h:x", "h:0:0", "msm:0:-2", "upload:99999"};
    for (int i = 0; i < 5; i++) {
        backend_config cfg;
        backend_config_default(&cfg);
        cfg.kind = BACKEND_CPU;
        cfg.fail = bad_hooks[i];
        backend *b = NULL;
        cuzk_status st = backend_open(&cfg, &b, &err);
        /* the CPU backend never reads the hook; an OpenCL one must refuse it */
        backend_close(b);
        cfg.kind = runtime_kind();
        b = NULL;
        st = backend_open(&cfg, &b, &err);
        CHECK(st == CUZK_E_INVALID_ARG && !b && strstr(err.msg, "hook"), "fail hook '%s': %d '%s'", bad_hooks[i], st,
              err.msg);
        backend_close(b);
    }
    backend_config cfg;
    backend_config_default(&cfg);
    cfg.kind = runtime_kind();
    uint32_t dev = 0;
    CHECK(backend_config_flag(&cfg, &dev, "--device", "63", &err) == 1 && cfg.n_devices == 1 && dev == 63,
          "--device 63");
    backend *b = NULL;
    cuzk_status st = backend_open(&cfg, &b, &err);
    CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "device 63"), "unknown device: %d '%s'", st, err.msg);
    /* more workers a device than the GPU backend has slots: refused, not capped */
    backend_config wcfg;
    backend_config_default(&wcfg);
    wcfg.kind = runtime_kind();
    wcfg.workers_per_device = CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE + 1;
    b = NULL;
    st = backend_open(&wcfg, &b, &err);
    CHECK(st == CUZK_E_INVALID_ARG && !b && strstr(err.msg, "workers_per_device 65 is out of range (1..64)"),
          "workers_per_device 65: %d '%s'", st, err.msg);
    backend_close(b);
    CHECK(backend_config_flag(&cfg, &dev, "--device", "x", &err) == -1, "--device x");
    CHECK(backend_config_flag(&cfg, &dev, "--backend", "gpu", &err) == -1 && strstr(err.msg, "gpu"), "--backend gpu");
    CHECK(backend_config_flag(&cfg, &dev, "--backend", NULL, &err) == -1, "--backend without a value");
    CHECK(backend_config_flag(&cfg, &dev, "--threads", "2", &err) == 0, "not a backend flag");
    /* auto never takes an OpenCL CPU device: with only POCL it is the CPU backend */
    gpu_report rep;
    if (!gpu_discover(GPU_RUNTIME_OPENCL, &rep, &err)) {
        bool only_cpu = true;
        for (size_t i = 0; i < rep.ndevices; i++)
            only_cpu &= rep.devices[i].is_cpu;
        gpu_report cuda;
        bool no_cuda = !gpu_discover(GPU_RUNTIME_CUDA, &cuda, &err) && cuda.ndevices == 0;
        gpu_report_free(&cuda);
        if (only_cpu && no_cuda) {
            backend_config_default(&cfg);
            b = NULL;
            st = backend_open(&cfg, &b, &err);
            CHECK(!st && b && !backend_is_gpu(b) && strstr(backend_describe(b), "cpu"), "auto -> cpu: %s",
                  b ? backend_describe(b) : err.msg);
            backend_close(b);
            /* nor when the device list names the CPU device */
            if (rep.ndevices) {
                backend_config_default(&cfg);
                CHECK(backend_config_flag(&cfg, &dev, "--device", "0", &err) == 1, "--device 0");
                b = NULL;
                st = backend_open(&cfg, &b, &err);
                CHECK(!st && b && !backend_is_gpu(b) && strstr(backend_describe(b), "device 0 is a CPU device"),
                      "auto with devices [0] -> cpu: %s", b ? backend_describe(b) : err.msg);
                backend_close(b);
            }
        }
    }
    gpu_report_free(&rep);
}

int main(void)
{
    fr_from_u64(&R, 0x1234567);
    fr_from_u64(&S, 0x7654321);
    circuit small, big;
    circuit_make(&small, 8);
    circuit_make(&big, 11);
    test_identity(&small, &big);
    test_lru(&small, &big);
    test_other_density(&small);
    test_pool(&small, &big);
    test_failures(&small);
    test_config_errors();
    builtin_synthetic_free(small.syn);
    builtin_synthetic_free(big.syn);
    return check_summary("gpu_backend");
}
