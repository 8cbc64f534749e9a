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

int batch_fc_load(batch_fc *f, const batch_fc_opts *o)
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
    fc_srs_config sc = {.param_cache = o->param_cache, .cache_dir = o->cache_dir, .threads = o->threads,
                        .verify_checksums = true};
    cuzk_status st = fc_input_files_load(&f->files, o->files, o->nfiles, r, &err);
    if (!st)
        st = fc_srs_create(&sc, &f->srs, &err);
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

void batch_fc_free(batch_fc *f)
{
    fc_job_free(f->job);
    fc_srs_destroy(f->srs);
    fc_input_files_free(&f->files);
    memset(f, 0, sizeof *f);
}
