/* WindowPoSt / WinningPoSt jobs: one partition assembled and validated from the request
 * (filecoin/post/post.h fc_post_partition_from_bytes), one FallbackPoSt circuit.
 * Contracts in fc_job.h. */
#include <stdlib.h>
#include <string.h>

#include "kinds/filecoin/fc_job_internal.h"
#include "filecoin/post/post.h"

static cuzk_status synth(const fc_job *j, cs_t *cs, uint32_t k, cuzk_error *err)
{
    (void)k;
    return fc_post_partition_synthesize(cs, j->data, err);
}

static cuzk_status inputs(const fc_job *j, uint32_t k, fr_t *out, size_t cap, size_t *n, cuzk_error *err)
{
    (void)k;
    const fc_post_partition *part = j->data;
    size_t need = fc_post_public_input_count(part->proof);
    if (cap < need)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "public inputs: %zu values needed, room for %zu", need, cap);
    *n = need;
    return fc_post_partition_public_inputs(part, out, err);
}

static void free_data(void *p)
{
    if (p)
        fc_post_partition_free(p);
    free(p);
}

static void shape_of(const fc_job *j, void *out)
{
    const fc_post_partition *part = j->data;
    fc_post_shape s;
    fc_post_shape_of(part->proof, &s);
    memcpy(out, &s, sizeof s);
}

static cuzk_status synth_shape(const void *shape, cs_t *cs, cuzk_error *err)
{
    return fc_post_synthesize(cs, shape, NULL, 0, err);
}

_Static_assert(sizeof(fc_post_shape) <= PCE_CACHE_SHAPE_MAX, "PoSt shape fits a PCE circuit");

/* pce_faster: direct synthesis of Poseidon's long linear combinations builds, normalises and
 * evaluates LCs that the PCE's products replace (the word-form fast paths that made PoRep's
 * direct synthesis faster than its PCE do not reach them). */
static const fc_job_ops OPS = {synth, inputs, free_data, shape_of, synth_shape, true};

cuzk_status fc_job_init_post(fc_job *j, const fc_job_request *req, cuzk_error *err)
{
    const fc_post_proof *p;
    cuzk_status st = fc_post_proof_get(req->registered_proof, &p, err);
    if (st)
        return st;
    bool winning = req->type == FC_JOB_WINNING_POST;
    if (p->winning != winning)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "registered_proof %u (%s) is a %s proof, the request is %s", p->id,
                         p->name, p->winning ? "WinningPoSt" : "WindowPoSt", winning ? "WINNING_POST" : "WINDOW_POST_PARTITION");
    uint8_t rand[32];
    if ((st = fc_job_bytes32(&req->randomness, "randomness", rand, err)))
        return st;
    if (!req->has_miner)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "miner_id is required for PoSt (it gives the prover id)");
    if (req->n_vanilla_proofs == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "vanilla_proofs is empty: one FallbackPoStSectorProof per sector");
    if (req->n_vanilla_proofs > UINT32_MAX)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "vanilla_proofs: %zu proofs", req->n_vanilla_proofs);
    /* WinningPoSt proves the one challenged sector: upstream's generate_winning_post_with_vanilla
     * (filecoin-proofs src/api/winning_post.rs) requires exactly sector_count = 1 vanilla
     * proofs; more would be ignored silently, so they are refused */
    if (winning && req->n_vanilla_proofs != 1)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "vanilla_proofs: %zu proofs, but a WinningPoSt (%s) proves exactly 1 sector: send the one "
                         "vanilla proof of the challenged sector",
                         req->n_vanilla_proofs, p->name);
    uint32_t n = (uint32_t)req->n_vanilla_proofs;
    const uint8_t **blobs;
    size_t *lens;
    if ((st = fc_job_vanilla_arrays(req, &blobs, &lens, err)))
        return st;
    fc_post_partition *part = calloc(1, sizeof *part);
    if (!part) {
        free(blobs), free(lens);
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
    }
    /* verify-only: the vanilla proofs give the public side; whether the proof holds for the
     * request's randomness and partition is the verification's answer */
    st = (req->verify_only ? fc_post_partition_public_from_bytes : fc_post_partition_from_bytes)(
        part, p, rand, req->miner_id, winning ? 0 : req->partition_index, blobs, lens, n, err);
    free(blobs), free(lens);
    if (st) {
        free(part);
        return st;
    }
    j->ops = &OPS;
    j->data = part;
    j->circuit = fc_post_circuit(p);
    j->partitions = 1;
    j->public_inputs = fc_post_public_input_count(p);
    return CUZK_OK;
}
