/* A Filecoin job's input files; contracts in fc_inputs.h. */
#include "kinds/filecoin/fc_inputs.h"

#include <stdlib.h>
#include <string.h>

static bool is_blob_list(const cuzk_mapped_file *m) { return m->len && m->data[0] == '['; }

cuzk_status fc_input_files_load(fc_input_files *f, const char *const *paths, size_t count, fc_job_request *req,
                                cuzk_error *err)
{
    memset(f, 0, sizeof *f);
    f->maps = calloc(count ? count : 1, sizeof *f->maps);
    f->blobs = calloc(count ? count : 1, sizeof *f->blobs);
    if (!f->maps || !f->blobs)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
    for (size_t i = 0; i < count; i++) {
        cuzk_status st = cuzk_file_map(&f->maps[f->nmaps], paths[i], err);
        if (st)
            return st;
        f->nmaps++;
    }
    if (req->type == FC_JOB_POREP) {
        if (!f->nmaps)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "no C1 file given");
        req->vanilla_proof = (fc_bytes){f->maps[0].data, f->maps[0].len};
        return CUZK_OK;
    }
    size_t total = 0;
    for (size_t i = 0; i < f->nmaps; i++) {
        if (is_blob_list(&f->maps[i])) {
            cuzk_error e;
            cuzk_status st = fc_blob_list_from_json(&f->blobs[f->nblobs], f->maps[i].data, f->maps[i].len, &e);
            if (st)
                return cuzk_fail(err, st, "%s: %s", paths[i], e.msg);
            total += f->blobs[f->nblobs++].n;
        } else {
            total++;
        }
    }
    f->proofs = calloc(total ? total : 1, sizeof *f->proofs);
    if (!f->proofs)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
    size_t b = 0;
    for (size_t i = 0; i < f->nmaps; i++) {
        const cuzk_mapped_file *m = &f->maps[i];
        if (is_blob_list(m)) {
            for (size_t j = 0; j < f->blobs[b].n; j++)
                f->proofs[f->n++] = (fc_bytes){f->blobs[b].data[j], f->blobs[b].len[j]};
            b++;
        } else {
            f->proofs[f->n++] = (fc_bytes){m->data, m->len};
        }
    }
    req->vanilla_proofs = f->proofs;
    req->n_vanilla_proofs = f->n;
    return CUZK_OK;
}

void fc_input_files_free(fc_input_files *f)
{
    for (size_t i = 0; i < f->nmaps; i++)
        cuzk_file_unmap(&f->maps[i]);
    for (size_t i = 0; i < f->nblobs; i++)
        fc_blob_list_free(&f->blobs[i]);
    free(f->maps);
    free(f->blobs);
    free(f->proofs);
    memset(f, 0, sizeof *f);
}
