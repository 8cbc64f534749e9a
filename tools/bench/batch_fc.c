/* cuzk-bench batch's Filecoin kinds; contracts in batch_fc.h. */
#include "batch_fc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"

fc_job_type batch_fc_type(const char *kind)
{
    static const struct {
        const char *name;
        fc_job_type type;
    } kinds[] = {{"porep", FC_JOB_POREP},
                 {"window-post", FC_JOB_WINDOW_POST},
                 {"winning-post", FC_JOB_WINNING_POST},
                 {"snap", FC_JOB_SNAP}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(kind, kinds[i].name))
            return kinds[i].type;
    return 0;
}

/* A 32-byte option given as 64 hex digits into buf and *out; -1 after a message. */
static int hex32(const char *v, const char *name, uint8_t buf[32], fc_bytes *out)
{
    if (!v) {
        fprintf(stderr, "cuzk-bench batch: %s is required for this kind\n", name);
        return -1;
    }
    if (strlen(v) != 64 || !cuzk_unhex(buf, v, 32)) {
        fprintf(stderr, "cuzk-bench batch: %s needs 64 hex digits, got '%s'\n", name, v);
        return -1;
    }
    *out = (fc_bytes){buf, 32};
    return 0;
}

void batch_fc_srs_config(const batch_fc_opts *o, unsigned threads, fc_srs_config *out)
{
    *out = (fc_srs_config){.param_cache = o->param_cache, .cache_dir = o->cache_dir, .threads = threads,
                           .verify_checksums = true};
}

int batch_fc_load(batch_fc *f, const batch_fc_opts *o, fc_srs *srs)
{
    memset(f, 0, sizeof *f);
    fc_job_request *r = &f->req;
    r->type = o->type;
    r->registered_proof = o->registered_proof;
    r->has_miner = o->type != FC_JOB_POREP || o->has_miner;
    r->miner_id = o->miner;
    r->partition_index = o->partition;
    if (!o->nfiles) {
        fprintf(stderr, "cuzk-bench batch: --kind %s needs %s\n", fc_job_type_name(o->type),
                o->type == FC_JOB_POREP ? "--c1 FILE" : "--vanilla FILE (one or more)");
        return -1;
    }
    if ((o->type == FC_JOB_WINDOW_POST || o->type == FC_JOB_WINNING_POST) &&
        hex32(o->randomness, "--randomness", f->rand, &r->randomness))
        return -1;
    if (o->type == FC_JOB_SNAP && (hex32(o->comm_r_old, "--comm-r-old", f->r_old, &r->comm_r_old) ||
                                   hex32(o->comm_r_new, "--comm-r-new", f->r_new, &r->comm_r_new) ||
                                   hex32(o->comm_d_new, "--comm-d-new", f->d_new, &r->comm_d_new)))
        return -1;
    cuzk_error err = {0};
    f->srs = srs;
    cuzk_status st = fc_input_files_load(&f->files, o->files, o->nfiles, r, &err);
    if (!st)
        st = fc_job_create(r, f->srs, &f->job, &err);
    fc_srs_status *ss = NULL;
    size_t n = 0;
    if (!st && fc_srs_list(f->srs, &ss, &n, &err) == CUZK_OK)
        for (size_t i = 0; i < n; i++)
            f->params_bytes += ss[i].loaded ? ss[i].size_bytes : 0;
    free(ss);
    if (st) {
        fprintf(stderr, "cuzk-bench batch: %s: %s\n", fc_job_type_name(o->type), err.msg);
        return -1;
    }
    return 0;
}

/* Detach the job from the stack's PCE cache and unload the idle PCEs it used, so that their
 * mappings' charge goes back to the budget (no-op without one). */
static void pce_detach(batch_fc *f)
{
    if (!f->pce)
        return;
    cuzk_error err = {0};
    fc_job_use_pce(f->job, NULL, &err);
    pce_cache_status *ps = NULL;
    size_t n = 0;
    uint64_t freed;
    if (pce_cache_list(f->pce, &ps, &n, &err) == CUZK_OK)
        for (size_t i = 0; i < n; i++)
            pce_cache_evict(f->pce, ps[i].circuit, &freed, &err);
    free(ps);
    f->pce = NULL;
}

int batch_fc_use_pce(batch_fc *f, pce_cache *pce)
{
    cuzk_error err = {0};
    f->pce = pce;
    if (fc_job_use_pce(f->job, f->pce, &err)) {
        fprintf(stderr, "cuzk-bench batch: --pce: %s\n", err.msg);
        return -1;
    }
    f->pce_before = fc_job_pce_partitions(f->job);
    pce_cache_status *ps = NULL;
    size_t n = 0;
    int rc = 0;
    if (pce_cache_list(f->pce, &ps, &n, &err)) {
        fprintf(stderr, "cuzk-bench batch: --pce: %s\n", err.msg);
        return -1;
    }
    /* one entry once the job's shape asked for it; none for a kind without a PCE shape */
    if (n && ps[0].state != PCE_CACHE_READY) {
        fprintf(stderr, "cuzk-bench batch: --pce: the %s PCE in %s is %s, not ready%s%s\n", ps[0].circuit,
                fc_srs_cache_dir(f->srs), pce_cache_state_name(ps[0].state), ps[0].error[0] ? ": " : "",
                ps[0].error[0] ? ps[0].error : " (its budget room was not there)");
        rc = -1;
    }
    free(ps);
    return rc;
}

json_t *batch_fc_pce_stop(batch_fc *f)
{
    if (!f->pce)
        return json_pack("{s:b}", "on", 0);
    json_t *j = json_pack("{s:b, s:I}", "on", 1, "partitions",
                          (json_int_t)(fc_job_pce_partitions(f->job) - f->pce_before));
    pce_cache_status *ps = NULL;
    size_t n = 0;
    cuzk_error err = {0};
    if (pce_cache_list(f->pce, &ps, &n, &err) == CUZK_OK && n) {
        json_object_set_new(j, "circuit", json_string(ps[0].circuit));
        json_object_set_new(j, "state", json_string(pce_cache_state_name(ps[0].state)));
        json_object_set_new(j, "mapped_bytes", json_integer((json_int_t)ps[0].size_bytes));
        json_object_set_new(j, "recorded", json_integer((json_int_t)ps[0].recorded));
        json_object_set_new(j, "record_ms", json_real(ps[0].record_ms));
        json_object_set_new(j, "load_ms", json_real(ps[0].load_ms));
    } else {
        json_object_set_new(j, "state", json_string("no PCE shape"));
    }
    free(ps);
    pce_detach(f);
    return j;
}

void batch_fc_free(batch_fc *f)
{
    pce_detach(f);
    fc_job_free(f->job);
    fc_input_files_free(&f->files);
    memset(f, 0, sizeof *f);
}
