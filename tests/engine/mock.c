#include "mock.h"

#include "engine/budget.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ASSIGN_MAGIC 0x61737367u
#define PENDING_MAGIC 0x70656e64u

typedef struct {
    uint32_t magic;
    uint64_t tag;
    uint32_t partition;
    uint8_t *abc;     /* stands for the a/b/c vectors */
    uint8_t *witness; /* stands for the witness that prove_finish reads */
} mock_assignment;

typedef struct {
    uint32_t magic;
    const mock_assignment *a;
    const mock_input *in;
    uint32_t device;
} mock_pending;

static void violation(mock_ctx *m, const char *fmt, ...)
{
    pthread_mutex_lock(&m->mu);
    if (m->violations++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(m->first_violation, sizeof m->first_violation, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&m->mu);
}

void mock_sleep_us(uint32_t us)
{
    struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

void mock_init(mock_ctx *m)
{
    memset(m, 0, sizeof *m);
    pthread_mutex_init(&m->mu, NULL);
    m->total_bytes = 1000;
    m->abc_bytes = 800;
    m->num_devices = 1;
    m->workers_per_device = 1;
    m->budget_bytes = UINT64_MAX;
    for (int i = 0; i < MOCK_MAX_TAGS; i++)
        atomic_init(&m->synth_by_tag[i], 0);
    atomic_init(&m->synth_log_n, 0);
    atomic_init(&m->hold_synth, false);
    atomic_init(&m->hold_prove, false);
    atomic_init(&m->release_early, false);
}

void mock_destroy(mock_ctx *m)
{
    pthread_mutex_destroy(&m->mu);
}

mock_input mock_input_make(uint64_t tag)
{
    mock_input in = {.tag = tag, .fail_synth_partition = -1, .fail_prove_partition = -1, .corrupt_partition = -1};
    return in;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void mock_proof(uint64_t tag, uint32_t partition, uint8_t out[CUZK_PROOF_BYTES])
{
    uint64_t s = tag * 0x100000001b3ull ^ ((uint64_t)partition << 40) ^ 0xcbf29ce484222325ull;
    for (int i = 0; i < CUZK_PROOF_BYTES; i += 8) {
        uint64_t v = splitmix(&s);
        memcpy(out + i, &v, 8);
    }
}

mock_stats mock_stats_get(mock_ctx *m)
{
    pthread_mutex_lock(&m->mu);
    mock_stats s = {m->live_assignments, m->live_pending, m->live_bytes, m->synth_cancelled, {0}, m->abc_releases};
    memcpy(s.device_active, m->device_active, sizeof s.device_active);
    pthread_mutex_unlock(&m->mu);
    return s;
}

uint64_t mock_synth_calls_for(mock_ctx *m, uint64_t tag)
{
    return atomic_load(&m->synth_by_tag[tag % MOCK_MAX_TAGS]);
}

int mock_synth_position(mock_ctx *m, uint64_t tag, uint32_t partition)
{
    uint32_t n = atomic_load(&m->synth_log_n);
    for (uint32_t i = 0; i < n && i < MOCK_LOG; i++)
        if (m->synth_log[i].tag == tag && m->synth_log[i].partition == partition)
            return (int)i;
    return -1;
}

/* ---- kind ---- */

static cuzk_status k_estimate(void *ctx, const void *input, cuzk_partition_estimate *out, cuzk_error *err)
{
    mock_ctx *m = ctx;
    (void)input;
    out->total_bytes = m->total_bytes;
    out->abc_bytes = m->abc_bytes;
    out->resident_bytes = m->resident_bytes;
    return CUZK_OK;
}

static void live_bytes_add(mock_ctx *m, int64_t delta)
{
    pthread_mutex_lock(&m->mu);
    m->live_bytes += delta;
    if (m->live_bytes > m->peak_live_bytes)
        m->peak_live_bytes = m->live_bytes;
    bool over = m->live_bytes > (int64_t)(m->budget_bytes > INT64_MAX ? INT64_MAX : m->budget_bytes);
    int64_t now = m->live_bytes;
    pthread_mutex_unlock(&m->mu);
    if (over)
        violation(m, "live working set %lld bytes exceeds the budget %llu", (long long)now,
                  (unsigned long long)m->budget_bytes);
}

static cuzk_status k_synthesize(void *ctx, const void *input, uint32_t partition, const atomic_bool *cancel,
                                void **assignment, cuzk_error *err)
{
    mock_ctx *m = ctx;
    const mock_input *in = input;
    pthread_mutex_lock(&m->mu);
    m->synth_calls++;
    pthread_mutex_unlock(&m->mu);
    atomic_fetch_add(&m->synth_by_tag[in->tag % MOCK_MAX_TAGS], 1);
    uint32_t slot = atomic_fetch_add(&m->synth_log_n, 1);
    if (slot < MOCK_LOG) {
        m->synth_log[slot].tag = in->tag;
        m->synth_log[slot].partition = partition;
    }
    const uint32_t synth_us = m->synth_us;
    /* the gate, then the delay; both end early on cancel */
    while (atomic_load(&m->hold_synth) && !atomic_load(cancel))
        mock_sleep_us(200);
    for (uint32_t waited = 0; atomic_load(cancel) || waited < synth_us; waited += 200) {
        if (atomic_load(cancel)) {
            pthread_mutex_lock(&m->mu);
            m->synth_cancelled++;
            pthread_mutex_unlock(&m->mu);
            return cuzk_fail(err, CUZK_E_CANCELLED, "mock synthesis of partition %u cancelled", partition);
        }
        mock_sleep_us(synth_us - waited < 200 ? synth_us - waited : 200);
    }
    if ((int)partition == in->fail_synth_partition)
        return cuzk_fail(err, CUZK_E_FORMAT, "mock witness of partition %u is malformed", partition);
    mock_assignment *a = calloc(1, sizeof *a);
    if (!a)
        return cuzk_fail(err, CUZK_E_NOMEM, "mock assignment");
    a->abc = malloc(64);
    a->witness = malloc(64);
    a->magic = ASSIGN_MAGIC;
    a->tag = in->tag;
    a->partition = partition;
    pthread_mutex_lock(&m->mu);
    m->live_assignments++;
    m->live_abc++;
    pthread_mutex_unlock(&m->mu);
    live_bytes_add(m, (int64_t)m->total_bytes);
    *assignment = a;
    return CUZK_OK;
}

static void k_release_abc(void *ctx, void *assignment)
{
    mock_ctx *m = ctx;
    mock_assignment *a = assignment;
    if (a->magic != ASSIGN_MAGIC || !a->abc) {
        violation(m, "release_abc on a dead assignment or twice");
        return;
    }
    free(a->abc);
    a->abc = NULL;
    pthread_mutex_lock(&m->mu);
    m->abc_releases++;
    m->live_abc--;
    pthread_mutex_unlock(&m->mu);
    live_bytes_add(m, -(int64_t)m->abc_bytes);
}

static void k_free_assignment(void *ctx, void *assignment)
{
    mock_ctx *m = ctx;
    mock_assignment *a = assignment;
    if (a->magic != ASSIGN_MAGIC) {
        violation(m, "free_assignment on a dead assignment");
        return;
    }
    int64_t bytes = (int64_t)m->total_bytes;
    if (a->abc) {
        free(a->abc);
        pthread_mutex_lock(&m->mu);
        m->live_abc--;
        pthread_mutex_unlock(&m->mu);
    } else {
        bytes -= (int64_t)m->abc_bytes;
    }
    free(a->witness);
    a->magic = 0;
    free(a);
    pthread_mutex_lock(&m->mu);
    m->live_assignments--;
    pthread_mutex_unlock(&m->mu);
    live_bytes_add(m, -bytes);
}

cuzk_circuit_kind mock_kind(mock_ctx *m)
{
    cuzk_circuit_kind k = {
        .name = "mock",
        .ctx = m,
        .estimate = k_estimate,
        .synthesize = k_synthesize,
        .release_abc = k_release_abc,
        .free_assignment = k_free_assignment,
    };
    return k;
}

/* ---- backend ---- */

static cuzk_status b_caps(void *ctx, cuzk_backend_caps *out, cuzk_error *err)
{
    mock_ctx *m = ctx;
    out->num_devices = m->num_devices;
    out->is_gpu = false;
    return CUZK_OK;
}

static cuzk_status b_start(void *ctx, uint32_t device, const void *params, const void *assignment,
                           const cuzk_release_cb *rel, void **pending, cuzk_error *err)
{
    mock_ctx *m = ctx;
    const mock_assignment *a = assignment;
    const mock_input *in = params; /* the tests pass the job's mock_input as params */
    if (device >= m->num_devices || device >= MOCK_MAX_DEVICES)
        violation(m, "prove_start on device %u of %u", device, m->num_devices);
    if (a->magic != ASSIGN_MAGIC || !a->abc || !a->witness)
        violation(m, "prove_start got a dead assignment or one without a/b/c");
    if (a->tag != in->tag)
        violation(m, "prove_start params (tag %llu) do not belong to the assignment (tag %llu)",
                  (unsigned long long)in->tag, (unsigned long long)a->tag);
    pthread_mutex_lock(&m->mu);
    m->prove_calls++;
    int64_t active = ++m->device_active[device % MOCK_MAX_DEVICES];
    if (active > m->device_peak[device % MOCK_MAX_DEVICES])
        m->device_peak[device % MOCK_MAX_DEVICES] = active;
    pthread_mutex_unlock(&m->mu);
    if (active > (int64_t)m->workers_per_device)
        violation(m, "%lld concurrent prove_start on device %u (gpu_workers_per_device %u)", (long long)active,
                  device, m->workers_per_device);
    if (atomic_load(&m->release_early)) {
        cuzk_release_cb_call(rel);
        if (a->abc)
            violation(m, "the engine's release callback left the a/b/c of partition %u held", a->partition);
    }
    while (atomic_load(&m->hold_prove))
        mock_sleep_us(200);
    mock_sleep_us(m->prove_us);
    pthread_mutex_lock(&m->mu);
    m->device_active[device % MOCK_MAX_DEVICES]--;
    pthread_mutex_unlock(&m->mu);
    if ((int)a->partition == in->fail_prove_partition)
        return cuzk_fail(err, CUZK_E_INTERNAL, "mock MSM of partition %u failed", a->partition);
    mock_pending *p = calloc(1, sizeof *p);
    if (!p)
        return cuzk_fail(err, CUZK_E_NOMEM, "mock pending");
    p->magic = PENDING_MAGIC;
    p->a = a;
    p->in = in;
    p->device = device;
    pthread_mutex_lock(&m->mu);
    m->live_pending++;
    pthread_mutex_unlock(&m->mu);
    *pending = p;
    return CUZK_OK;
}

static cuzk_status b_finish(void *ctx, void *pending, uint8_t proof[CUZK_PROOF_BYTES], cuzk_error *err)
{
    mock_ctx *m = ctx;
    mock_pending *p = pending;
    if (p->magic != PENDING_MAGIC) {
        violation(m, "prove_finish on a dead pending handle");
        return cuzk_fail(err, CUZK_E_INTERNAL, "dead pending handle");
    }
    const mock_assignment *a = p->a;
    if (a->magic != ASSIGN_MAGIC || !a->witness)
        violation(m, "prove_finish: the witness was freed before prove_finish");
    if (a->abc)
        violation(m, "prove_finish: a/b/c of partition %u still held (engine must free them after prove_start)",
                  a->partition);
    mock_sleep_us(m->finish_us);
    mock_proof(a->tag, a->partition, proof);
    if ((int)a->partition == p->in->corrupt_partition)
        proof[17] ^= 0x40;
    pthread_mutex_lock(&m->mu);
    m->finish_calls++;
    m->live_pending--;
    pthread_mutex_unlock(&m->mu);
    p->magic = 0;
    free(p);
    return CUZK_OK;
}

static cuzk_status b_attach(void *ctx, const cuzk_backend_host *host, cuzk_error *err)
{
    mock_ctx *m = ctx;
    if (!cuzk_budget_try_acquire(host->budget, m->standing_bytes))
        return cuzk_fail(err, CUZK_E_NOMEM, "mock staging of %llu bytes does not fit",
                         (unsigned long long)m->standing_bytes);
    m->standing_budget = host->budget;
    return CUZK_OK;
}

static void b_detach(void *ctx)
{
    mock_ctx *m = ctx;
    cuzk_budget_release(m->standing_budget, m->standing_bytes);
    m->standing_budget = NULL;
}

cuzk_prover_backend mock_backend(mock_ctx *m)
{
    cuzk_prover_backend b = {
        .name = "mock",
        .ctx = m,
        .capabilities = b_caps,
        .prove_start = b_start,
        .prove_finish = b_finish,
        .attach = b_attach,
        .detach = b_detach,
    };
    return b;
}

static cuzk_status v_verify(void *ctx, const void *kind_input, const void *params, uint32_t partition,
                            const uint8_t proof[CUZK_PROOF_BYTES], cuzk_error *err)
{
    mock_ctx *m = ctx;
    const mock_input *in = kind_input;
    uint8_t want[CUZK_PROOF_BYTES];
    mock_proof(in->tag, partition, want);
    pthread_mutex_lock(&m->mu);
    m->verify_calls++;
    pthread_mutex_unlock(&m->mu);
    if (memcmp(want, proof, CUZK_PROOF_BYTES) != 0)
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "mock proof of tag %llu partition %u does not match",
                         (unsigned long long)in->tag, partition);
    return CUZK_OK;
}

cuzk_verify_hook mock_verifier(mock_ctx *m)
{
    cuzk_verify_hook v = {.ctx = m, .verify = v_verify};
    return v;
}
