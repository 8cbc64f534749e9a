/* GetStatus, Prometheus text and the /status JSON document (service.h). */
#include <grpc/status.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/service_internal.h"

typedef struct {
    char name[64];
    uint32_t pending, synthesizing, proving, finishing;
} kind_count;

/* What one prover worker proves, named as the server knows it (request id, circuit name);
 * empty strings / NULL when the worker is idle or its engine job is not in the job table. */
typedef struct {
    char *request_id;
    char kind[64];
} worker_job;

typedef struct {
    cuzk_engine_status es;
    worker_job *workers; /* es.num_workers entries */
    kind_count *kinds;
    size_t n_kinds;
    uint32_t queued, synthesizing, proving, finishing;
    uint64_t retained, completed, failed, cancelled;
    cuzk_srs_entry *srs;
    size_t n_srs;
    double uptime_s;
    backend_device_stats *devs; /* the backend's devices */
    uint32_t n_devs;
    bool gpu;
} snapshot;

static kind_count *kind_entry(snapshot *sn, const char *name)
{
    for (size_t i = 0; i < sn->n_kinds; i++)
        if (!strcmp(sn->kinds[i].name, name))
            return &sn->kinds[i];
    kind_count *k = &sn->kinds[sn->n_kinds++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    return k;
}

static void snapshot_free(snapshot *sn)
{
    for (size_t i = 0; sn->workers && i < sn->es.num_workers; i++)
        free(sn->workers[i].request_id);
    free(sn->workers);
    cuzk_engine_status_free(&sn->es);
    free(sn->kinds);
    free(sn->srs);
    free(sn->devs);
}

/* One consistent view of jobs and stages (under the service lock), then the SRS list. */
static bool take_snapshot(cuzk_service *s, snapshot *sn)
{
    memset(sn, 0, sizeof *sn);
    pthread_mutex_lock(&s->mu);
    cuzk_error e;
    if (cuzk_engine_status_get(s->engine, &sn->es, &e)) {
        pthread_mutex_unlock(&s->mu);
        return false;
    }
    sn->kinds = calloc(s->n_active + 1, sizeof *sn->kinds);
    sn->workers = calloc(sn->es.num_workers + 1, sizeof *sn->workers);
    if (!sn->kinds || !sn->workers) {
        pthread_mutex_unlock(&s->mu);
        snapshot_free(sn);
        return false;
    }
    for (size_t i = 0; i < s->n_active; i++) {
        const svc_job *j = s->active[i];
        kind_count *k = kind_entry(sn, j->kind_name);
        cuzk_job_state state = CUZK_JOB_QUEUED;
        for (size_t q = 0; q < sn->es.num_jobs; q++)
            if (sn->es.jobs[q].job_id == j->engine_id)
                state = sn->es.jobs[q].state;
        if (state != CUZK_JOB_QUEUED && state != CUZK_JOB_RUNNING)
            state = CUZK_JOB_RUNNING; /* terminal in the engine, not yet collected: still in flight */
        svc_stage st = svc_stage_get(s, j->engine_id);
        if (state == CUZK_JOB_QUEUED && st.synth_started == 0) {
            k->pending++;
            sn->queued++;
        } else if (st.synth_ended < j->num_partitions) {
            k->synthesizing++;
            sn->synthesizing++;
        } else if (st.prove_ended < j->num_partitions) {
            k->proving++;
            sn->proving++;
        } else {
            k->finishing++;
            sn->finishing++;
        }
    }
    /* engine job id -> request id: a busy worker's job is in the engine, hence active here */
    for (size_t w = 0; w < sn->es.num_workers; w++) {
        const cuzk_prover_worker_status *ws = &sn->es.workers[w];
        for (size_t i = 0; ws->busy && i < s->n_active; i++) {
            const svc_job *j = s->active[i];
            if (j->engine_id != ws->job_id)
                continue;
            sn->workers[w].request_id = strdup(j->id);
            snprintf(sn->workers[w].kind, sizeof sn->workers[w].kind, "%s", j->kind_name);
            break;
        }
    }
    sn->queued += (uint32_t)s->n_submitting;
    sn->retained = s->n_retained;
    sn->completed = s->completed;
    sn->failed = s->failed;
    sn->cancelled = s->cancelled;
    sn->uptime_s = (svc_now_ms() - s->start_ms) / 1e3;
    pthread_mutex_unlock(&s->mu);
    if (cuzk_registry_list(s->registry, &sn->srs, &sn->n_srs, &e)) {
        snapshot_free(sn);
        return false;
    }
    /* the Filecoin circuits' parameters, after the [[circuits]] / synthetic entries */
    fc_srs_status *fs = NULL;
    size_t nf = 0;
    if (fc_srs_list(prover_stack_fc_srs(s->stack), &fs, &nf, &e)) {
        snapshot_free(sn);
        return false;
    }
    cuzk_srs_entry *all = nf ? realloc(sn->srs, (sn->n_srs + nf) * sizeof *all) : sn->srs;
    if (!all) {
        free(fs);
        snapshot_free(sn);
        return false;
    }
    sn->srs = all;
    for (size_t i = 0; i < nf; i++) {
        cuzk_srs_entry *d = &sn->srs[sn->n_srs++];
        memset(d, 0, sizeof *d);
        snprintf(d->name, sizeof d->name, "%s", fs[i].name);
        d->loaded = fs[i].loaded;
        d->load_failed = fs[i].failed && !fs[i].loaded;
        d->warm = fs[i].tier == FC_SRS_WARM;
        snprintf(d->load_error, sizeof d->load_error, "%s", d->load_failed ? fs[i].error : "");
        d->size_bytes = fs[i].size_bytes;
        d->ref_count = fs[i].ref_count;
        d->idle_ms = fs[i].idle_ms;
    }
    free(fs);
    backend *be = prover_stack_backend(s->stack);
    sn->gpu = backend_is_gpu(be);
    uint32_t nd = backend_num_devices(be);
    if (!(sn->devs = calloc(nd, sizeof *sn->devs))) {
        snapshot_free(sn);
        return false;
    }
    for (uint32_t d = 0; d < nd; d++)
        if (!backend_device_stats_get(be, d, &sn->devs[sn->n_devs], &e))
            sn->n_devs++;
    return true;
}

static char *dup_or_empty(const char *v)
{
    char *d = strdup(v);
    return d ? d : (char *)protobuf_c_empty_string;
}

cuzk_rpc_status cuzk_service_status(cuzk_service *s, Cuzk__V1__GetStatusResponse *resp)
{
    cuzk_rpc_status r = {GRPC_STATUS_OK, ""};
    snapshot sn;
    if (!take_snapshot(s, &sn)) {
        r.code = GRPC_STATUS_RESOURCE_EXHAUSTED;
        snprintf(r.msg, sizeof r.msg, "out of memory for the status snapshot");
        return r;
    }
    size_t nw = sn.es.prover_workers;
    resp->gpus = calloc(nw + 1, sizeof *resp->gpus);
    resp->loaded_srs = calloc(sn.n_srs + 1, sizeof *resp->loaded_srs);
    resp->queues = calloc(sn.n_kinds + 1, sizeof *resp->queues);
    resp->pipeline = calloc(1, sizeof *resp->pipeline);
    resp->devices = calloc(sn.n_devs + 1, sizeof *resp->devices);
    if (!resp->gpus || !resp->loaded_srs || !resp->queues || !resp->pipeline || !resp->devices) {
        snapshot_free(&sn);
        cuzk_service_free_status(resp);
        r.code = GRPC_STATUS_RESOURCE_EXHAUSTED;
        snprintf(r.msg, sizeof r.msg, "out of memory for the status response");
        return r;
    }
    /* Prover workers: one entry each, in worker order (as the reference lists its GPU
     * workers). `ordinal` is the worker's device, shared by the workers of one device; the
     * name gives the device and numbers the workers distinctly; vram_* are the device's. current_job_id / current_proof_kind
     * name the job whose partition the worker has inside prove_start (empty when idle). */
    for (size_t i = 0; i < nw && i < sn.es.num_workers; i++) {
        Cuzk__V1__GPUStatus *g = calloc(1, sizeof *g);
        if (!g)
            break;
        cuzk__v1__gpustatus__init(g);
        g->ordinal = sn.es.workers[i].device;
        char name[224];
        if (sn.gpu && g->ordinal < sn.n_devs) {
            const backend_device_stats *d = &sn.devs[g->ordinal];
            snprintf(name, sizeof name, "%s, prover worker %zu", d->label, i);
            g->vram_total_bytes = d->mem_total_bytes;
            g->vram_free_bytes = d->mem_free_bytes == BACKEND_MEM_UNKNOWN ? 0 : d->mem_free_bytes;
        } else {
            snprintf(name, sizeof name, "cpu device %u, prover worker %zu", g->ordinal, i);
        }
        g->name = dup_or_empty(name);
        if (sn.workers[i].request_id) {
            g->current_job_id = dup_or_empty(sn.workers[i].request_id);
            g->current_proof_kind = dup_or_empty(sn.workers[i].kind);
        }
        resp->gpus[resp->n_gpus++] = g;
    }
    for (uint32_t i = 0; i < sn.n_devs; i++) {
        Cuzk__V1__DeviceStatus *d = calloc(1, sizeof *d);
        if (!d)
            break;
        cuzk__v1__device_status__init(d);
        const backend_device_stats *x = &sn.devs[i];
        d->ordinal = i;
        d->name = dup_or_empty(x->label);
        d->backend = dup_or_empty(sn.gpu ? "gpu" : "cpu");
        d->busy_ms = x->busy_ns / 1000000;
        d->queue_depth = x->in_flight;
        d->partitions_proved = x->partitions;
        d->partitions_failed = x->failures;
        d->cpu_fallbacks = x->fallbacks;
        d->mem_total_bytes = x->mem_total_bytes;
        d->mem_free_bytes = x->mem_free_bytes == BACKEND_MEM_UNKNOWN ? 0 : x->mem_free_bytes;
        d->bases_bytes = x->bases_bytes;
        d->bases_budget_bytes = x->bases_budget_bytes;
        d->staging_bytes = x->staging_bytes;
        d->scalar_upload_bytes = x->scalar_upload_bytes;
        d->abc_direct_bytes = x->abc_direct_bytes;
        d->abc_staged_bytes = x->abc_staged_bytes;
        d->abc_registered_bytes = x->abc_registered_bytes;
        d->bases_resident = x->bases_resident;
        d->bases_evictions = x->bases_evictions;
        resp->devices[resp->n_devices++] = d;
    }
    for (size_t i = 0; i < sn.n_srs; i++) {
        Cuzk__V1__SRSStatus *e = calloc(1, sizeof *e);
        if (!e)
            break;
        cuzk__v1__srsstatus__init(e);
        e->circuit_id = dup_or_empty(sn.srs[i].name);
        e->tier = sn.srs[i].loaded        ? CUZK__V1__SRSSTATUS__TIER__HOT
                  : sn.srs[i].load_failed ? CUZK__V1__SRSSTATUS__TIER__FAILED
                  : sn.srs[i].warm        ? CUZK__V1__SRSSTATUS__TIER__WARM
                                          : CUZK__V1__SRSSTATUS__TIER__COLD;
        if (sn.srs[i].load_failed)
            e->load_error = dup_or_empty(sn.srs[i].load_error);
        e->size_bytes = sn.srs[i].size_bytes;
        e->ref_count = sn.srs[i].ref_count;
        resp->loaded_srs[resp->n_loaded_srs++] = e;
    }
    for (size_t i = 0; i < sn.n_kinds; i++) {
        Cuzk__V1__QueueStatus *q = calloc(1, sizeof *q);
        if (!q)
            break;
        cuzk__v1__queue_status__init(q);
        const kind_count *k = &sn.kinds[i];
        q->proof_kind = dup_or_empty(k->name);
        q->pending = k->pending;
        q->in_progress = k->synthesizing + k->proving + k->finishing;
        q->synthesizing = k->synthesizing;
        q->proving = k->proving;
        q->finishing = k->finishing;
        resp->queues[resp->n_queues++] = q;
    }
    resp->total_proofs_completed = sn.completed;
    resp->total_proofs_failed = sn.failed;
    resp->uptime_seconds = (uint64_t)sn.uptime_s;
    resp->pinned_memory_bytes = sn.es.memory_used_bytes;
    resp->pinned_memory_limit_bytes = sn.es.memory_budget_bytes;
    Cuzk__V1__PipelineStatus *p = resp->pipeline;
    cuzk__v1__pipeline_status__init(p);
    p->jobs_queued = sn.queued;
    p->jobs_synthesizing = sn.synthesizing;
    p->jobs_proving = sn.proving;
    p->jobs_finishing = sn.finishing;
    p->jobs_retained = sn.retained;
    p->total_proofs_cancelled = sn.cancelled;
    const cuzk_counter_value *c = sn.es.counters;
    p->partitions_synthesizing = (uint64_t)c[CUZK_CTR_SYNTHESIZING].current;
    p->partitions_awaiting_send = (uint64_t)c[CUZK_CTR_AWAITING_SEND].current;
    p->partitions_queued = (uint64_t)c[CUZK_CTR_QUEUED].current;
    p->partitions_proving = (uint64_t)c[CUZK_CTR_PROVING].current;
    p->partitions_pending_finish = (uint64_t)c[CUZK_CTR_PENDING_FINISH].current;
    p->permits_held = (uint64_t)c[CUZK_CTR_PERMITS_HELD].current;
    p->memory_used_bytes = sn.es.memory_used_bytes;
    p->memory_limit_bytes = sn.es.memory_budget_bytes;
    p->pool_total_bytes = (uint64_t)c[CUZK_CTR_POOL_TOTAL_BYTES].current;
    p->pool_in_use_bytes = (uint64_t)c[CUZK_CTR_POOL_IN_USE_BYTES].current;
    p->pool_free_bytes = (uint64_t)c[CUZK_CTR_POOL_FREE_BYTES].current;
    snapshot_free(&sn);
    return r;
}

void cuzk_service_free_status(Cuzk__V1__GetStatusResponse *resp)
{
    for (size_t i = 0; i < resp->n_gpus; i++) {
        if (resp->gpus[i]->name != protobuf_c_empty_string)
            free(resp->gpus[i]->name);
        if (resp->gpus[i]->current_job_id != protobuf_c_empty_string)
            free(resp->gpus[i]->current_job_id);
        if (resp->gpus[i]->current_proof_kind != protobuf_c_empty_string)
            free(resp->gpus[i]->current_proof_kind);
        free(resp->gpus[i]);
    }
    for (size_t i = 0; i < resp->n_loaded_srs; i++) {
        if (resp->loaded_srs[i]->circuit_id != protobuf_c_empty_string)
            free(resp->loaded_srs[i]->circuit_id);
        if (resp->loaded_srs[i]->load_error != protobuf_c_empty_string)
            free(resp->loaded_srs[i]->load_error);
        free(resp->loaded_srs[i]);
    }
    for (size_t i = 0; i < resp->n_queues; i++) {
        if (resp->queues[i]->proof_kind != protobuf_c_empty_string)
            free(resp->queues[i]->proof_kind);
        free(resp->queues[i]);
    }
    for (size_t i = 0; i < resp->n_devices; i++) {
        if (resp->devices[i]->name != protobuf_c_empty_string)
            free(resp->devices[i]->name);
        if (resp->devices[i]->backend != protobuf_c_empty_string)
            free(resp->devices[i]->backend);
        free(resp->devices[i]);
    }
    free(resp->devices);
    resp->devices = NULL;
    resp->n_devices = 0;
    free(resp->gpus);
    free(resp->loaded_srs);
    free(resp->queues);
    free(resp->pipeline);
    resp->gpus = NULL;
    resp->loaded_srs = NULL;
    resp->queues = NULL;
    resp->pipeline = NULL;
    resp->n_gpus = resp->n_loaded_srs = resp->n_queues = 0;
}

static void gauge(FILE *f, const char *name, const char *help, double v)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n%s %.17g\n", name, help, name, name, v);
}

char *cuzk_service_metrics_text(cuzk_service *s)
{
    snapshot sn;
    if (!take_snapshot(s, &sn))
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        snapshot_free(&sn);
        return NULL;
    }
    fprintf(f, "# HELP cuzk_proofs_completed_total Proofs completed.\n# TYPE cuzk_proofs_completed_total counter\n"
               "cuzk_proofs_completed_total %llu\n", (unsigned long long)sn.completed);
    fprintf(f, "# HELP cuzk_proofs_failed_total Proofs failed.\n# TYPE cuzk_proofs_failed_total counter\n"
               "cuzk_proofs_failed_total %llu\n", (unsigned long long)sn.failed);
    fprintf(f, "# HELP cuzk_proofs_cancelled_total Proofs cancelled.\n# TYPE cuzk_proofs_cancelled_total counter\n"
               "cuzk_proofs_cancelled_total %llu\n", (unsigned long long)sn.cancelled);
    gauge(f, "cuzk_uptime_seconds", "Seconds since the daemon started.", sn.uptime_s);
    gauge(f, "cuzk_queue_depth", "Jobs waiting for their first partition to start.", sn.queued);
    gauge(f, "cuzk_running_jobs", "Jobs started and not finished.", sn.synthesizing + sn.proving + sn.finishing);
    gauge(f, "cuzk_gpu_workers", "Prover workers (devices x gpu_workers_per_device).", sn.es.prover_workers);
    static const struct {
        const char *name, *help, *type;
    } dm[] = {
        {"cuzk_device_busy_seconds_total", "Time in device work (uploads, H, MSMs).", "counter"},
        {"cuzk_device_queue_depth", "Partitions inside prove_start on the device, waiting or running.", "gauge"},
        {"cuzk_device_partitions_total", "Partitions whose device work completed.", "counter"},
        {"cuzk_device_failures_total", "Partitions whose device work failed.", "counter"},
        {"cuzk_device_cpu_fallbacks_total", "Failed partitions proved on the CPU instead.", "counter"},
        {"cuzk_device_memory_total_bytes", "Device memory.", "gauge"},
        {"cuzk_device_bases_bytes", "Circuit bases resident on the device.", "gauge"},
        {"cuzk_device_bases_budget_bytes", "Budget of the resident bases.", "gauge"},
        {"cuzk_device_bases_evictions_total", "Parameter sets dropped for another circuit (LRU).", "counter"},
        {"cuzk_device_memory_free_bytes", "Free device memory the runtime reports (absent where it cannot tell).", "gauge"},
        {"cuzk_device_staging_bytes", "Pinned host staging of the device's workers.", "gauge"},
        {"cuzk_device_scalar_upload_bytes_total", "Witness scalars uploaded for the L, A and B_G1 MSMs.", "counter"},
        {"cuzk_device_abc_direct_bytes_total", "a/b/c uploaded straight from registered a/b/c pool buffers.", "counter"},
        {"cuzk_device_abc_staged_bytes_total", "a/b/c uploaded through the pinned staging.", "counter"},
        {"cuzk_device_abc_registered_bytes", "a/b/c pool buffers registered with the devices now.", "gauge"},
    };
    for (size_t m = 0; m < sizeof dm / sizeof dm[0]; m++) {
        fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", dm[m].name, dm[m].help, dm[m].name, dm[m].type);
        for (uint32_t i = 0; i < sn.n_devs; i++) {
            const backend_device_stats *x = &sn.devs[i];
            double v[] = {x->busy_ns / 1e9, x->in_flight, (double)x->partitions, (double)x->failures,
                          (double)x->fallbacks, (double)x->mem_total_bytes, (double)x->bases_bytes,
                          (double)x->bases_budget_bytes, (double)x->bases_evictions, (double)x->mem_free_bytes,
                          (double)x->staging_bytes, (double)x->scalar_upload_bytes,
                          (double)x->abc_direct_bytes, (double)x->abc_staged_bytes,
                          (double)x->abc_registered_bytes};
            if (x->mem_free_bytes == BACKEND_MEM_UNKNOWN && !strcmp(dm[m].name, "cuzk_device_memory_free_bytes"))
                continue; /* the runtime cannot tell (OpenCL) */
            fprintf(f, "%s{device=\"%u\",name=\"%s\"} %.17g\n", dm[m].name, i, x->label, v[m]);
        }
    }
    gauge(f, "cuzk_retained_results", "Finished results kept for AwaitProof.", (double)sn.retained);
    fprintf(f, "# HELP cuzk_jobs Unfinished jobs by stage of their least advanced partition.\n# TYPE cuzk_jobs gauge\n");
    fprintf(f, "cuzk_jobs{stage=\"queued\"} %u\ncuzk_jobs{stage=\"synthesizing\"} %u\n", sn.queued, sn.synthesizing);
    fprintf(f, "cuzk_jobs{stage=\"proving\"} %u\ncuzk_jobs{stage=\"finishing\"} %u\n", sn.proving, sn.finishing);
    /* the flight counters by unit (engine/counters.h): partitions a stage, the budget bytes
     * they reserve, and the a/b/c pool's bytes each under a name of its own (the budget in
     * use is cuzk_memory_used_bytes below) */
    fprintf(f, "# HELP cuzk_pipeline_partitions Partitions in each pipeline stage.\n"
               "# TYPE cuzk_pipeline_partitions gauge\n");
    for (int i = CUZK_CTR_PERMITS_HELD; i <= CUZK_CTR_PENDING_FINISH; i++)
        fprintf(f, "cuzk_pipeline_partitions{counter=\"%s\"} %lld\n", cuzk_counter_name((cuzk_counter_id)i),
                (long long)sn.es.counters[i].current);
    fprintf(f, "# HELP cuzk_pipeline_reserved_bytes Memory budget reserved by the partitions in each pipeline stage.\n"
               "# TYPE cuzk_pipeline_reserved_bytes gauge\n");
    for (int i = CUZK_CTR_SYNTHESIZING_BYTES; i <= CUZK_CTR_PENDING_FINISH_BYTES; i++)
        fprintf(f, "cuzk_pipeline_reserved_bytes{counter=\"%s\"} %lld\n", cuzk_counter_name((cuzk_counter_id)i),
                (long long)sn.es.counters[i].current);
    gauge(f, "cuzk_abc_pool_mapped_bytes", "a/b/c buffer pool: bytes mapped (in use + free).",
          (double)sn.es.counters[CUZK_CTR_POOL_TOTAL_BYTES].current);
    gauge(f, "cuzk_abc_pool_in_use_bytes", "a/b/c buffer pool: bytes held by partitions.",
          (double)sn.es.counters[CUZK_CTR_POOL_IN_USE_BYTES].current);
    gauge(f, "cuzk_abc_pool_free_bytes", "a/b/c buffer pool: free bytes, charged to the memory budget.",
          (double)sn.es.counters[CUZK_CTR_POOL_FREE_BYTES].current);
    gauge(f, "cuzk_memory_budget_bytes", "Memory budget limit.", (double)sn.es.memory_budget_bytes);
    gauge(f, "cuzk_memory_used_bytes", "Memory budget in use.", (double)sn.es.memory_used_bytes);
    fprintf(f, "# HELP cuzk_srs_bytes Parameters resident per circuit.\n# TYPE cuzk_srs_bytes gauge\n");
    for (size_t i = 0; i < sn.n_srs; i++)
        fprintf(f, "cuzk_srs_bytes{circuit_id=\"%s\"} %llu\n", sn.srs[i].name, (unsigned long long)sn.srs[i].size_bytes);
    pthread_mutex_lock(&s->mu);
    cuzk_metrics_write(&s->metrics, f);
    pthread_mutex_unlock(&s->mu);
    snapshot_free(&sn);
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

char *cuzk_service_status_json(cuzk_service *s)
{
    snapshot sn;
    if (!take_snapshot(s, &sn))
        return NULL;
    const cuzk_engine_status *es = &sn.es;
    json_t *root = json_object();
    json_object_set_new(root, "uptime_secs", json_real(sn.uptime_s));
    json_object_set_new(root, "memory",
                        json_pack("{s:I,s:I,s:I}", "total_bytes", (json_int_t)es->memory_budget_bytes, "used_bytes",
                                  (json_int_t)es->memory_used_bytes, "available_bytes",
                                  (json_int_t)(es->memory_budget_bytes - es->memory_used_bytes)));
    json_object_set_new(root, "jobs_by_stage",
                        json_pack("{s:i,s:i,s:i,s:i}", "queued", sn.queued, "synthesizing", sn.synthesizing, "proving",
                                  sn.proving, "finishing", sn.finishing));
    json_t *queues = json_array();
    for (size_t i = 0; i < sn.n_kinds; i++) {
        const kind_count *k = &sn.kinds[i];
        json_array_append_new(queues, json_pack("{s:s,s:i,s:i,s:i,s:i}", "proof_kind", k->name, "pending", k->pending,
                                                "synthesizing", k->synthesizing, "proving", k->proving, "finishing",
                                                k->finishing));
    }
    json_object_set_new(root, "queues", queues);
    json_t *jobs = json_array();
    for (size_t i = 0; i < es->num_jobs; i++) {
        const cuzk_job_status *j = &es->jobs[i];
        json_array_append_new(jobs, json_pack("{s:I,s:s,s:s,s:s,s:i,s:i,s:i,s:f}", "engine_job_id", (json_int_t)j->job_id,
                                              "kind", j->kind_name, "priority", cuzk_priority_name(j->priority), "state",
                                              cuzk_job_state_name(j->state), "partitions", j->num_partitions,
                                              "partitions_dispatched", j->partitions_dispatched, "partitions_proved",
                                              j->partitions_proved, "started_secs_ago",
                                              j->timings.started_at_ms >= 0
                                                  ? (es->uptime_ms - j->timings.started_at_ms) / 1e3
                                                  : 0.0));
    }
    json_object_set_new(root, "jobs", jobs);
    json_object_set_new(root, "workers",
                        json_pack("{s:i,s:i,s:i,s:i,s:i}", "partition_workers", es->partition_workers, "channel_capacity",
                                  es->channel_capacity, "prover_workers", es->prover_workers, "finalizer_threads",
                                  es->finalizer_threads, "num_devices", es->num_devices));
    json_object_set_new(root, "counters",
                        json_pack("{s:I,s:I,s:I,s:I,s:i}", "total_completed", (json_int_t)sn.completed, "total_failed",
                                  (json_int_t)sn.failed, "total_cancelled", (json_int_t)sn.cancelled, "retained_results",
                                  (json_int_t)sn.retained, "queue_depth", sn.queued));
    json_t *bufs = json_object();
    for (int i = 0; i < CUZK_COUNTER_COUNT; i++)
        json_object_set_new(bufs, cuzk_counter_name((cuzk_counter_id)i),
                            json_pack("{s:I,s:I,s:I}", "current", (json_int_t)es->counters[i].current, "peak",
                                      (json_int_t)es->counters[i].peak, "low", (json_int_t)es->counters[i].low));
    json_object_set_new(root, "buffers", bufs);
    json_t *srs = json_array();
    for (size_t i = 0; i < sn.n_srs; i++) {
        const cuzk_srs_entry *e = &sn.srs[i];
        json_t *o = json_pack("{s:s,s:s,s:I,s:i,s:f,s:b}", "circuit_id", e->name, "tier",
                              e->loaded ? "hot" : e->load_failed ? "failed" : e->warm ? "warm" : "cold", "bytes", (json_int_t)e->size_bytes,
                              "ref_count", e->ref_count, "last_used_secs_ago", e->idle_ms / 1e3, "evictable",
                              e->loaded && e->ref_count == 0);
        if (o && e->load_failed)
            json_object_set_new(o, "load_error", json_string(e->load_error));
        json_array_append_new(srs, o);
    }
    json_object_set_new(root, "allocations", json_pack("{s:o}", "srs", srs));
    json_t *devs = json_array();
    for (uint32_t i = 0; i < sn.n_devs; i++) {
        const backend_device_stats *x = &sn.devs[i];
        json_t *o = json_pack("{s:i,s:s,s:s,s:f,s:i,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:i,s:I}", "ordinal", (int)i,
                              "name", x->label, "backend", sn.gpu ? "gpu" : "cpu", "busy_secs",
                              x->busy_ns / 1e9, "queue_depth", (int)x->in_flight, "partitions",
                              (json_int_t)x->partitions, "failures", (json_int_t)x->failures,
                              "cpu_fallbacks", (json_int_t)x->fallbacks, "mem_total_bytes",
                              (json_int_t)x->mem_total_bytes, "mem_free_bytes",
                              (json_int_t)(x->mem_free_bytes == BACKEND_MEM_UNKNOWN ? 0 : x->mem_free_bytes),
                              "staging_bytes", (json_int_t)x->staging_bytes,
                              "bases_bytes", (json_int_t)x->bases_bytes,
                              "bases_budget_bytes", (json_int_t)x->bases_budget_bytes,
                              "bases_resident", (int)x->bases_resident, "bases_evictions",
                              (json_int_t)x->bases_evictions);
        if (o) {
            json_object_set_new(o, "scalar_upload_bytes", json_integer((json_int_t)x->scalar_upload_bytes));
            json_object_set_new(o, "abc_direct_bytes", json_integer((json_int_t)x->abc_direct_bytes));
            json_object_set_new(o, "abc_staged_bytes", json_integer((json_int_t)x->abc_staged_bytes));
            json_object_set_new(o, "abc_registered_bytes", json_integer((json_int_t)x->abc_registered_bytes));
            json_array_append_new(devs, o);
        }
    }
    json_object_set_new(root, "devices", devs);
    if (s->journal) {
        cuzk_journal_stats js;
        cuzk_journal_get_stats(s->journal, &js);
        json_object_set_new(root, "journal",
                            json_pack("{s:s,s:I,s:I,s:I,s:I}", "dir", cuzk_journal_dir(s->journal), "entries",
                                      (json_int_t)js.entries, "bytes", (json_int_t)js.bytes, "max_bytes",
                                      (json_int_t)js.max_bytes, "set_aside", (json_int_t)js.set_aside));
    }
    snapshot_free(&sn);
    char *text = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    return text;
}
