/* A Filecoin job's input files as the command-line tools take them: a PoRep C1 output (any
 * wire form fc_c1_read accepts) or PoSt / SnapDeals vanilla proofs, each file one bincode
 * proof or a JSON array of base64 blobs (Curio's []byte list, filecoin/core/vanilla.h
 * fc_blob_list_from_json), in file order.
 *
 * The files are mapped read-only; the fc_bytes handed out point into the mappings or the
 * decoded blobs and stay valid until fc_input_files_free. Thread-safety: none (one owner).
 */
#ifndef CUZK_KINDS_FILECOIN_FC_INPUTS_H
#define CUZK_KINDS_FILECOIN_FC_INPUTS_H

#include <stddef.h>

#include "common/file_io.h"
#include "common/status.h"
#include "kinds/filecoin/fc_job.h"
#include "filecoin/core/vanilla.h"

typedef struct {
    cuzk_mapped_file *maps; /* one per file */
    size_t nmaps;
    fc_blob_list *blobs; /* one per JSON file */
    size_t nblobs;
    fc_bytes *proofs; /* every proof of every file, in order */
    size_t n;
} fc_input_files;

/* Map `count` files into *f (zeroed first) and set req's inputs: vanilla_proof (the first
 * file) for FC_JOB_POREP, else vanilla_proofs / n_vanilla_proofs.
 * Errors: CUZK_E_INVALID_ARG (PoRep without a file), the mapping's errors (path named),
 * CUZK_E_FORMAT for a bad JSON blob list (path, JSON path and offset named), CUZK_E_NOMEM.
 * On error *f holds what was mapped: free it with fc_input_files_free. */
cuzk_status fc_input_files_load(fc_input_files *f, const char *const *paths, size_t count, fc_job_request *req,
                                cuzk_error *err);
/* Unmap and free everything; the request's pointers into *f become invalid. */
void fc_input_files_free(fc_input_files *f);

#endif
