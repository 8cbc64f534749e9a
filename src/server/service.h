/* The proving service behind every RPC of cuzk.v1.ProvingEngine (proto/cuzk/v1/proving.proto),
 * independent of the transport: requests and responses are the protobuf-c messages, the
 * outcome is a gRPC status code (grpc/status.h values) with a message.
 *
 * Filecoin kinds (POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE, WINDOW_POST_PARTITION,
 * WINNING_POST) are parsed and validated once (kinds/filecoin/fc_job.h), proved partition by
 * partition, every partition self-verified, and answered with the partition proofs
 * concatenated; priority 0 takes the kind's default (WinningPoSt CRITICAL, WindowPoSt HIGH,
 * others NORMAL). Their parameters are the official v28 files ([srs], kinds/filecoin/fc_srs.h),
 * listed in GetStatus as "porep-32g", "wpost-2k", ...; PreloadSRS / EvictSRS take those ids.
 *
 * Jobs: keyed by request_id (a UUIDv4 is generated when it is empty), compared as the whole
 * string: at most CUZK_REQUEST_ID_MAX bytes (longer is INVALID_ARGUMENT), and never with a
 * NUL inside (the gRPC transport refuses those before decoding, pb_strings.h). A request_id
 * that is being submitted, queued, running or retained COMPLETED returns that job (never a
 * second computation); one whose retained result is CANCELLED or FAILED is run again by the
 * new request (the old result is dropped). Finished results are retained for config result_retention after they
 * finish (and while anyone awaits them), then pruned; AwaitProof of a pruned id is
 * NOT_FOUND. One collector thread collects settled engine jobs, releases their circuit
 * and input buffers, records metrics and wakes the waiters.
 *
 * Status codes (the reference's, docs/engine.md#grpc-contract, with its gaps closed):
 *   SubmitProof/Prove: INVALID_ARGUMENT for a request_id over CUZK_REQUEST_ID_MAX bytes,
 *     proof_kind 0 or unknown values, a missing `submit` (Prove), a missing/invalid
 *     `circuit` input or witness, and any bad Filecoin request (malformed or inconsistent
 *     vanilla proofs, commitments or randomness that are not 32 canonical bytes, unknown
 *     registered_proof, miner_id / sector_number that do not give the C1's replica_id,
 *     sector_size of another size: the message names the field, offset or JSON path);
 *     FAILED_PRECONDITION when the Filecoin parameters are missing from [srs] param_cache
 *     (or FIL_PROOFS_PARAMETER_CACHE), or a circuit's files cannot be read; NOT_FOUND for an
 *     unknown circuit name; RESOURCE_EXHAUSTED when max_jobs unfinished jobs exist or a
 *     partition or the parameters can never fit the memory budget; UNAVAILABLE while
 *     shutting down; INTERNAL when a circuit fails to load otherwise.
 *   AwaitProof: NOT_FOUND for an unknown (or pruned) id; expiry of timeout_ms is status
 *     TIMEOUT in an OK response. CancelProof: NOT_FOUND for an unknown id.
 *   PreloadSRS/EvictSRS: NOT_FOUND for an unknown circuit (the reference answers INTERNAL
 *     for PreloadSRS); FAILED_PRECONDITION for EvictSRS of a circuit in use and for missing
 *     or unusable parameter files; RESOURCE_EXHAUSTED when the parameters do not fit the
 *     memory budget now; INTERNAL when loading fails otherwise.
 *
 * Parameters: every circuit's (the [[circuits]], synthetic-<k>, the Filecoin ones) live in
 * one parameter manager (engine/params_mgr.h) charged to the engine's memory budget: HOT
 * while resident, unloaded (WARM) when idle and the budget needs room, COLD when evicted.
 *
 * Thread-safety: every function may be called from any thread concurrently, except
 * create/destroy.
 */
#ifndef CUZK_SERVER_SERVICE_H
#define CUZK_SERVER_SERVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/status.h"
#include "cuzk/v1/proving.pb-c.h"
#include "server/config.h"

typedef struct cuzk_service cuzk_service;

/* Longest request_id accepted, in bytes. */
#define CUZK_REQUEST_ID_MAX 256

/* Outcome of one RPC: `code` is a grpc_status_code (0 = OK). */
typedef struct {
    int code;
    char msg[512];
} cuzk_rpc_status;

/* Create the backend, the engine, the parameter manager with its providers (the circuit
 * registry, the Filecoin parameters), the PCEs and the collector thread from
 * `cfg` (borrowed only during the call). Errors: engine/registry creation errors. */
cuzk_status cuzk_service_create(const cuzk_server_config *cfg, cuzk_service **out, cuzk_error *err);

/* Choose and open the prover backend of cfg's [gpus] keys exactly as cuzk_service_create
 * does (backends/backends.h backend_open: devices found, kernels built or loaded), start the
 * engine of cfg's [engine] and [memory] keys over it as cuzk_service_create does
 * (engine/engine.h cuzk_engine_create: the memory budget resolved, the backend's pinned
 * staging charged to it), then stop and close both: the daemon's --check-config, so that it
 * refuses what the daemon's start refuses. On success `describe` (cap bytes, may be 0)
 * receives backend_describe's line. Errors: backend_open's, message prefixed "[gpus] "
 * (CUZK_E_UNSUPPORTED "[gpus] backend cuda: no device (...)", CUZK_E_INVALID_ARG,
 * CUZK_E_DEVICE, CUZK_E_NOMEM); cuzk_engine_create's, prefixed "cannot start the engine: "
 * (CUZK_E_INVALID_ARG "... memory safety_margin N bytes leaves no budget ...", CUZK_E_NOMEM
 * "... pinned staging of N bytes ... does not fit the host memory budget ..."). No job runs
 * meanwhile; call it from one thread. */
cuzk_status cuzk_service_check_backend(const cuzk_server_config *cfg, char *describe, size_t cap, cuzk_error *err);


/* Stop: every unfinished job is cancelled, threads joined, everything freed. */
void cuzk_service_destroy(cuzk_service *s);

/* Polled by blocking calls every ~100 ms; returning true abandons the wait (the client
 * went away). May be NULL. */
typedef bool (*cuzk_abort_fn)(void *ctx);

/* SubmitProof. Fills resp (job_id is malloc'ed: free with cuzk_service_free_submit). */
cuzk_rpc_status cuzk_service_submit(cuzk_service *s, const Cuzk__V1__SubmitProofRequest *req,
                                    Cuzk__V1__SubmitProofResponse *resp);
void cuzk_service_free_submit(Cuzk__V1__SubmitProofResponse *resp);

/* AwaitProof (timeout_ms 0 = forever). `resp` must be initialised with
 * CUZK__V1__AWAIT_PROOF_RESPONSE__INIT; its strings and proof are malloc'ed (free with
 * cuzk_service_free_await). If `abort` fires, returns code CANCELLED and resp is empty. */
cuzk_rpc_status cuzk_service_await(cuzk_service *s, const Cuzk__V1__AwaitProofRequest *req,
                                   cuzk_abort_fn abort, void *abort_ctx, Cuzk__V1__AwaitProofResponse *resp);
void cuzk_service_free_await(Cuzk__V1__AwaitProofResponse *resp);

/* Prove = SubmitProof + AwaitProof(forever). A client that goes away (abort) does not
 * stop the job: a retry with the same request_id joins it. resp->result is malloc'ed
 * (free with cuzk_service_free_prove). */
cuzk_rpc_status cuzk_service_prove(cuzk_service *s, const Cuzk__V1__ProveRequest *req, cuzk_abort_fn abort,
                                   void *abort_ctx, Cuzk__V1__ProveResponse *resp);
void cuzk_service_free_prove(Cuzk__V1__ProveResponse *resp);

cuzk_rpc_status cuzk_service_cancel(cuzk_service *s, const Cuzk__V1__CancelProofRequest *req,
                                    Cuzk__V1__CancelProofResponse *resp);

/* GetStatus; free with cuzk_service_free_status. loaded_srs lists every configured circuit
 * and every loaded synthetic one: tier HOT (resident), COLD (not loaded), or FAILED with
 * load_error set (the last load failed; proving.proto SRSStatus). */
cuzk_rpc_status cuzk_service_status(cuzk_service *s, Cuzk__V1__GetStatusResponse *resp);
void cuzk_service_free_status(Cuzk__V1__GetStatusResponse *resp);

/* Prometheus exposition text (GetMetrics and HTTP /metrics), malloc'ed, or NULL on
 * allocation failure. */
char *cuzk_service_metrics_text(cuzk_service *s);

/* HTTP /status JSON document, malloc'ed, or NULL on allocation failure. Its
 * allocations.srs entries mirror GetStatus: "tier" is "hot", "cold" or "failed" (then
 * with "load_error"). */
char *cuzk_service_status_json(cuzk_service *s);

cuzk_rpc_status cuzk_service_preload(cuzk_service *s, const Cuzk__V1__PreloadSrsRequest *req,
                                     Cuzk__V1__PreloadSrsResponse *resp);
cuzk_rpc_status cuzk_service_evict(cuzk_service *s, const Cuzk__V1__EvictSrsRequest *req,
                                   Cuzk__V1__EvictSrsResponse *resp);

/* Shutdown, step 1: refuse new submissions (UNAVAILABLE) and report unhealthy. */
void cuzk_service_stop_accepting(cuzk_service *s);
/* True until cuzk_service_stop_accepting. */
bool cuzk_service_healthy(cuzk_service *s);
/* Shutdown, step 2: wait up to grace_ms for unfinished jobs to finish, then cancel the
 * rest ("cancelled by shutdown"; running partitions stop between MSM chunks) and wait until
 * they are settled (waiters receive CANCELLED). Returns the number of jobs that had to be
 * cancelled. The RPCs keep being served meanwhile (GetStatus shows the drain). */
unsigned cuzk_service_drain(cuzk_service *s, uint64_t grace_ms);

#endif
