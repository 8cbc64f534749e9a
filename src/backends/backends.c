/* The backend choice from the configuration; contract in backends.h. */
#include "backends/backends.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu.h"
#include "backends/gpu_internal.h"
#include "kinds/builtin/builtin.h"
#include "engine/log.h"

struct backend {
    cuzk_prover_backend table;
    gpu_backend *gpu; /* NULL for the CPU backend */
    cuzk_prover_backend cpu; /* the CPU backend (prove_finish of the fixed-r, s table) */
    unsigned cpu_threads;
    bool fixed_rs;
    fr_t r, s;
    char desc[1024];
};

/* The CPU backend with the test hook's fixed r, s (backend_config.test_r / test_s). */
static cuzk_status fixed_caps(void *ctx, cuzk_backend_caps *out, cuzk_error *err)
{
    backend *b = ctx;
    return b->cpu.capabilities(b->cpu.ctx, out, err);
}

static cuzk_status fixed_start(void *ctx, uint32_t device, const void *params, const void *assignment,
                               const cuzk_release_cb *rel, void **pending, cuzk_error *err)
{
    (void)device;
    backend *b = ctx;
    groth16_pending_t *p = NULL;
    cuzk_status st = backend_cpu_prove_start(b->cpu_threads, params, assignment, rel, &b->r, &b->s, &p, err);
    *pending = p;
    return st;
}

static cuzk_status fixed_finish(void *ctx, void *pending, uint8_t proof[CUZK_PROOF_BYTES], cuzk_error *err)
{
    backend *b = ctx;
    return b->cpu.prove_finish(b->cpu.ctx, pending, proof, err);
}

int backend_config_flag(backend_config *cfg, uint32_t *device_slot, const char *flag, const char *value,
                        cuzk_error *err)
{
    bool is_backend = !strcmp(flag, "--backend"), is_device = !strcmp(flag, "--device");
    if (!is_backend && !is_device)
        return 0;
    if (!value) {
        cuzk_fail(err, CUZK_E_INVALID_ARG, "%s needs a value", flag);
        return -1;
    }
    if (is_backend) {
        cuzk_error e2;
        if (backend_kind_parse(value, &cfg->kind, &e2)) {
            cuzk_fail(err, CUZK_E_INVALID_ARG, "--backend: %s", e2.msg);
            return -1;
        }
        return 1;
    }
    char *end;
    unsigned long d = strtoul(value, &end, 10);
    if (!*value || *end || *value == '-' || d >= BACKEND_MAX_DEVICES) {
        cuzk_fail(err, CUZK_E_INVALID_ARG, "--device needs a device index in 0..%d, got '%s'", BACKEND_MAX_DEVICES - 1,
                  value);
        return -1;
    }
    *device_slot = (uint32_t)d;
    cfg->devices = device_slot;
    cfg->n_devices = 1;
    return 1;
}

/* The test hook environment variable `name` when cfg opted in (env_test_hooks), else NULL,
 * with a warning when it is set but ignored. */
static const char *hook_env(const backend_config *cfg, const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return NULL;
    if (cfg->env_test_hooks)
        return v;
    cuzk_log(CUZK_LOG_WARN,
             "prover backend: %s is set but ignored: test hooks are off (the daemon's [gpus] test_hooks = true, "
             "cuzk prove --test-hooks)",
             name);
    return NULL;
}

/* r, s of the test hook: cfg's, else CUZK_TEST_FIXED_RS's seed (when cfg opted in). */
static cuzk_status fixed_rs_of(const backend_config *cfg, backend_config *eff, fr_t rs[2], cuzk_error *err)
{
    if (cfg->test_r && cfg->test_s)
        return CUZK_OK;
    const char *env = hook_env(cfg, "CUZK_TEST_FIXED_RS");
    if (!env)
        return CUZK_OK;
    char *end;
    unsigned long long k = strtoull(env, &end, 10);
    if (*end || *env == '-' || k > UINT64_MAX / 2 - 1)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "CUZK_TEST_FIXED_RS='%.40s' is not a decimal seed", env);
    fr_from_u64(&rs[0], 2 * k + 1);
    fr_from_u64(&rs[1], 2 * k + 2);
    eff->test_r = &rs[0];
    eff->test_s = &rs[1];
    return CUZK_OK;
}

static const char *const kind_names[] = {"auto", "cpu", "cuda", "opencl"};

const char *backend_kind_name(backend_kind k)
{
    return (unsigned)k < 4 ? kind_names[k] : "?";
}

cuzk_status backend_kind_parse(const char *name, backend_kind *out, cuzk_error *err)
{
    for (int i = 0; name && i < 4; i++)
        if (!strcmp(name, kind_names[i])) {
            *out = (backend_kind)i;
            return CUZK_OK;
        }
    return cuzk_fail(err, CUZK_E_INVALID_ARG, "backend '%s' is not one of auto, cpu, cuda, opencl",
                     name ? name : "(null)");
}

void backend_config_default(backend_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->kind = BACKEND_AUTO;
    cfg->cpu_threads = 1;
    cfg->workers_per_device = 1;
    cfg->device_memory_fraction = 0.5;
}

/* The devices of rt to open: cfg's list (each checked to exist) or every one, GPUs only when
 * gpus_only. *n = 0 when there is none (reason in `why`). */
static cuzk_status pick(gpu_runtime rt, const backend_config *cfg, bool gpus_only, unsigned *idx, size_t *n,
                        char *why, size_t whylen, cuzk_error *err)
{
    *n = 0;
    gpu_report rep;
    cuzk_status st = gpu_discover(rt, &rep, err);
    if (st) {
        gpu_report_free(&rep);
        return st;
    }
    snprintf(why, whylen, "%s: %s", gpu_runtime_name(rt), rep.reason[0] ? rep.reason : "no GPU device");
    if (cfg->n_devices) {
        for (size_t i = 0; i < cfg->n_devices && !st; i++) {
            if (cfg->devices[i] >= rep.ndevices)
                st = cuzk_fail(err, CUZK_E_INVALID_ARG, "[gpus] devices: %s device %u does not exist (%zu found%s%s)",
                               gpu_runtime_name(rt), cfg->devices[i], rep.ndevices, rep.reason[0] ? ": " : "",
                               rep.reason);
            else if (gpus_only && rep.devices[cfg->devices[i]].is_cpu)
                snprintf(why, whylen, "%s: device %u is a CPU device (auto takes GPUs only; backend = \"%s\" to use it)",
                         gpu_runtime_name(rt), cfg->devices[i], gpu_runtime_name(rt));
            else
                idx[(*n)++] = cfg->devices[i];
        }
    } else {
        for (size_t i = 0; i < rep.ndevices && *n < BACKEND_MAX_DEVICES; i++)
            if (!gpus_only || !rep.devices[i].is_cpu)
                idx[(*n)++] = rep.devices[i].index;
    }
    gpu_report_free(&rep);
    return st;
}

cuzk_status backend_open(const backend_config *cfg, backend **out, cuzk_error *err)
{
    *out = NULL;
    if (cfg->device_memory_fraction < 0 || cfg->device_memory_fraction > 1)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "device_memory_fraction %g is not in (0, 1]",
                         cfg->device_memory_fraction);
    if (cfg->n_devices > BACKEND_MAX_DEVICES)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%zu devices listed, at most %d", cfg->n_devices,
                         BACKEND_MAX_DEVICES);
    if (cfg->workers_per_device > CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "workers_per_device %u is out of range (1..%u)",
                         cfg->workers_per_device, CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE);
    backend_config eff = *cfg;
    fr_t rs[2];
    cuzk_status st = fixed_rs_of(cfg, &eff, rs, err);
    if (!eff.fail)
        eff.fail = hook_env(cfg, "CUZK_GPU_FAIL");
    if (st)
        return st;
    cfg = &eff;
    backend *b = calloc(1, sizeof *b);
    if (!b)
        return cuzk_fail(err, CUZK_E_NOMEM, "backend: out of memory");
    unsigned threads = cfg->cpu_threads ? cfg->cpu_threads : 1;
    unsigned idx[BACKEND_MAX_DEVICES];
    size_t n = 0;
    char why[2][400] = {"", ""};
    gpu_runtime rt = GPU_RUNTIME_OPENCL;
    switch (cfg->kind) {
    case BACKEND_CPU:
        break;
    case BACKEND_CUDA:
    case BACKEND_OPENCL:
        rt = cfg->kind == BACKEND_CUDA ? GPU_RUNTIME_CUDA : GPU_RUNTIME_OPENCL;
        st = pick(rt, cfg, false, idx, &n, why[0], sizeof why[0], err);
        if (!st && !n)
            st = cuzk_fail(err, CUZK_E_UNSUPPORTED, "backend %s: no device (%s)", backend_kind_name(cfg->kind),
                           why[0]);
        break;
    default: /* auto: CUDA devices, else OpenCL GPUs, else the CPU */
        rt = GPU_RUNTIME_CUDA;
        st = pick(rt, cfg, false, idx, &n, why[0], sizeof why[0], err);
        if (st == CUZK_E_INVALID_ARG || (!st && !n)) {
            rt = GPU_RUNTIME_OPENCL;
            n = 0;
            st = pick(rt, cfg, true, idx, &n, why[1], sizeof why[1], err);
            if (st == CUZK_E_INVALID_ARG && !cfg->n_devices)
                st = CUZK_OK;
        }
        break;
    }
    if (!st && n)
        st = gpu_backend_open(rt, idx, n, cfg, &b->gpu, err);
    if (st) {
        free(b);
        return st;
    }
    if (b->gpu) {
        gpu_backend_table(b->gpu, &b->table);
        int len = snprintf(b->desc, sizeof b->desc, "%s:", gpu_runtime_name(rt));
        for (uint32_t i = 0; i < b->gpu->ndevs && len < (int)sizeof b->desc; i++)
            len += snprintf(b->desc + len, sizeof b->desc - (size_t)len, "%s %s (bases budget %llu MiB)",
                            i ? "," : "", b->gpu->devs[i].label,
                            (unsigned long long)(b->gpu->devs[i].bases_budget >> 20));
        if (len < (int)sizeof b->desc)
            snprintf(b->desc + len, sizeof b->desc - (size_t)len, "; %u workers a device%s", b->gpu->max_slots,
                     cfg->fallback_to_cpu ? "; fallback_to_cpu" : "");
    } else {
        backend_cpu_init(&b->cpu, threads);
        b->table = b->cpu;
        b->cpu_threads = threads;
        if (cfg->test_r && cfg->test_s) {
            b->fixed_rs = true;
            b->r = *cfg->test_r;
            b->s = *cfg->test_s;
            b->table = (cuzk_prover_backend){
                .name = "cpu", .ctx = b, .capabilities = fixed_caps, .prove_start = fixed_start, .prove_finish = fixed_finish};
        }
        snprintf(b->desc, sizeof b->desc, "cpu (%u threads)%s%s%s", threads, cfg->kind == BACKEND_AUTO ? "; auto found no GPU: " : "",
                 cfg->kind == BACKEND_AUTO ? why[0] : "", cfg->kind == BACKEND_AUTO && why[1][0] ? "; " : "");
        if (cfg->kind == BACKEND_AUTO)
            strncat(b->desc, why[1], sizeof b->desc - strlen(b->desc) - 1);
    }
    if (cfg->test_r && cfg->test_s) {
        strncat(b->desc, "; TEST ONLY: fixed proof randomness r, s (not zero-knowledge)",
                sizeof b->desc - strlen(b->desc) - 1);
        cuzk_log(CUZK_LOG_WARN, "prover backend %s: TEST ONLY: every proof uses a fixed r, s (not zero-knowledge)",
                 b->table.name);
    }
    *out = b;
    return CUZK_OK;
}

void backend_close(backend *b)
{
    if (!b)
        return;
    gpu_backend_close(b->gpu);
    free(b);
}

const cuzk_prover_backend *backend_table(backend *b)
{
    return &b->table;
}

bool backend_is_gpu(const backend *b)
{
    return b->gpu != NULL;
}

const char *backend_describe(const backend *b)
{
    return b->desc;
}

uint32_t backend_num_devices(const backend *b)
{
    return b->gpu ? b->gpu->ndevs : 1;
}

gpu_device *backend_gpu_device(backend *b, uint32_t d)
{
    return b->gpu && d < b->gpu->ndevs ? b->gpu->devs[d].dev : NULL;
}

cuzk_status backend_device_stats_get(backend *b, uint32_t i, backend_device_stats *out, cuzk_error *err)
{
    if (i >= backend_num_devices(b))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "device %u of %u", i, backend_num_devices(b));
    memset(out, 0, sizeof *out);
    if (!b->gpu) {
        snprintf(out->label, sizeof out->label, "cpu");
        out->mem_free_bytes = GPU_MEM_UNKNOWN;
        return CUZK_OK;
    }
    gpu_dev *d = &b->gpu->devs[i];
    snprintf(out->label, sizeof out->label, "%s", d->label);
    uint64_t free_b = GPU_MEM_UNKNOWN, total = d->mem_total;
    if (gpu_device_mem_info(d->dev, &free_b, &total, NULL))
        free_b = GPU_MEM_UNKNOWN;
    out->mem_total_bytes = total;
    out->mem_free_bytes = free_b;
    pthread_mutex_lock(&d->mu);
    out->busy_ns = d->busy_ns;
    out->in_flight = d->in_flight;
    out->partitions = d->partitions;
    out->failures = d->failures;
    out->fallbacks = d->fallbacks;
    out->bases_bytes = d->bases_bytes;
    out->bases_budget_bytes = d->bases_budget;
    out->staging_bytes = (uint64_t)d->nslots * b->gpu->staging_bytes;
    out->bases_resident = d->n_resident;
    out->bases_evictions = d->evictions;
    out->scalar_upload_bytes = d->scalar_bytes;
    out->abc_direct_bytes = d->abc_direct_bytes;
    out->abc_staged_bytes = d->abc_staged_bytes;
    pthread_mutex_unlock(&d->mu);
    pthread_mutex_lock(&b->gpu->pins.mu);
    out->abc_registered_bytes = b->gpu->pins.bytes;
    pthread_mutex_unlock(&b->gpu->pins.mu);
    return CUZK_OK;
}
