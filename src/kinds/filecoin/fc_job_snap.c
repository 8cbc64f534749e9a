/* SnapDeals (EmptySectorUpdate) jobs: every partition proof parsed and validated once
 * (filecoin/snap/snap.h fc_snap_request_from_bytes), one circuit per partition; public
 * inputs from the request's commitments alone, so a verify-only job needs no vanilla proofs.
 * Contracts in fc_job.h. */
#include <stdlib.h>
#include <string.h>

#include "kinds/filecoin/fc_job_internal.h"
#include "field/fr.h"
#include "filecoin/snap/snap.h"

typedef struct {
    bool have_request; /* vanilla proofs given (else: verification only) */
    fc_snap_request req;
    fc_snap_shape shape;
    fc_snap_public pub;
} snap_data;

static cuzk_status synth(const fc_job *j, cs_t *cs, uint32_t k, cuzk_error *err)
{
    const snap_data *d = j->data;
    if (!d->have_request)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "snap-update: no vanilla proofs (a verification-only job)");
    return fc_snap_request_synthesize(cs, &d->req, k, err);
}

static cuzk_status inputs(const fc_job *j, uint32_t k, fr_t *out, size_t cap, size_t *n, cuzk_error *err)
{
    const snap_data *d = j->data;
    if (cap < 4)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "public inputs: 4 values needed, room for %zu", cap);
    fc_snap_public pub = d->pub;
    pub.k = k;
    *n = 4;
    return fc_snap_public_inputs(&d->shape, &pub, out, err);
}

static void free_data(void *p)
{
    snap_data *d = p;
    if (d && d->have_request)
        fc_snap_request_free(&d->req);
    free(d);
}

static void shape_of(const fc_job *j, void *out)
{
    const snap_data *d = j->data;
    memcpy(out, &d->shape, sizeof d->shape);
}

static cuzk_status synth_shape(const void *shape, cs_t *cs, cuzk_error *err)
{
    return fc_snap_synthesize(cs, shape, NULL, NULL, err);
}

_Static_assert(sizeof(fc_snap_shape) <= PCE_CACHE_SHAPE_MAX, "SnapDeals shape fits a PCE circuit");

/* pce_faster: like PoSt, a Poseidon-heavy circuit (tree R paths, the encoding's field
 * arithmetic) whose direct synthesis builds long linear combinations. */
static const fc_job_ops OPS = {synth, inputs, free_data, shape_of, synth_shape, true};

static cuzk_status comm(const fc_bytes *b, const char *field, uint8_t raw[32], fr_t *v, cuzk_error *err)
{
    cuzk_status st = fc_job_bytes32(b, field, raw, err);
    if (!st && fr_from_bytes_le(v, raw))
        st = cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s is not a canonical field element (>= r)", field);
    return st;
}

cuzk_status fc_job_init_snap(fc_job *j, const fc_job_request *req, cuzk_error *err)
{
    const fc_snap_proof *u;
    cuzk_status st = fc_snap_proof_get(req->registered_proof, &u, err);
    if (st)
        return st;
    snap_data *d = calloc(1, sizeof *d);
    if (!d)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
    j->ops = &OPS;
    j->data = d;
    uint8_t r_old[32], d_new[32], r_new[32];
    if ((st = comm(&req->comm_r_old, "comm_r_old", r_old, &d->pub.comm_r_old, err)) ||
        (st = comm(&req->comm_d_new, "comm_d_new", d_new, &d->pub.comm_d_new, err)) ||
        (st = comm(&req->comm_r_new, "comm_r_new", r_new, &d->pub.comm_r_new, err)))
        return st;
    if ((st = fc_snap_shape_for_nodes(u->shape->nodes, req->snap_poseidon, &d->shape, err)))
        return st;
    j->circuit = fc_snap_circuit(u, req->snap_poseidon);
    j->partitions = d->shape.partitions;
    j->public_inputs = 4;
    if (req->n_vanilla_proofs == 0) {
        if (!req->verify_only)
            return cuzk_fail(err, CUZK_E_INVALID_ARG,
                             "vanilla_proofs is empty: one PartitionProof per partition (%u for %s)",
                             d->shape.partitions, u->name);
        return CUZK_OK;
    }
    if (req->n_vanilla_proofs != d->shape.partitions)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "vanilla_proofs: %zu partition proofs, %s has %u partitions",
                         req->n_vanilla_proofs, u->name, d->shape.partitions);
    const uint8_t **blobs;
    size_t *lens;
    if ((st = fc_job_vanilla_arrays(req, &blobs, &lens, err)))
        return st;
    st = fc_snap_request_from_bytes(&d->req, u, req->snap_poseidon, r_old, d_new, r_new, blobs, lens,
                                    (uint32_t)req->n_vanilla_proofs, err);
    free(blobs), free(lens);
    d->have_request = st == CUZK_OK;
    return st;
}
