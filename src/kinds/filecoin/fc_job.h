/* Filecoin proof jobs for the engine: the adapter between a proving request (what Curio
 * sends in SubmitProofRequest, or what the CLI reads from files) and the engine's
 * crypto-free kind / backend interfaces (engine/kind.h, engine/backend.h).
 *
 * A job parses and validates its vanilla data once (shared by all its partitions:
 * docs/engine.md#inputs-per-proof-kind), acquires its circuit's parameters (fc_srs.h), and
 * then serves:
 *   kind        estimate (a/b/c of the 2^log2_m domain + witness + prover copies),
 *               synthesize partition k (CS_PROVE sized from the parameters, so a/b/c are
 *               written where the prover reads them), release_abc, free_assignment;
 *   params      the groth16_params_t to pass to the CPU backend;
 *   verify      every partition proof is checked with the circuit's verifying key against
 *               public inputs derived from the request alone (never from the vanilla
 *               proofs), before the job may complete.
 * Assignments are builtin_assignment-compatible (the CPU backend's layout).
 *
 * Kinds and their inputs (docs/engine.md#inputs-per-proof-kind):
 *   FC_JOB_POREP          vanilla_proof = C1 output (Curio envelope, JSON or bincode);
 *                         miner_id / sector_number, when set, must agree with the C1
 *                         (docs/engine.md#what-curio-sends).
 *                         Partitions: the registered proof's (1 / 10; NI 13 / 126: the
 *                         partition proofs are returned concatenated, not SnarkPack-aggregated).
 *   FC_JOB_SNAP           vanilla_proofs = one PartitionProof per partition; registered_proof =
 *                         RegisteredUpdateProof; comm_r_old, comm_r_new, comm_d_new (32 bytes).
 *   FC_JOB_WINDOW_POST    vanilla_proofs = one FallbackPoStSectorProof per sector of the
 *                         partition; registered_proof = RegisteredPoStProof 5..14; randomness;
 *                         miner_id; partition_index. One partition.
 *   FC_JOB_WINNING_POST   vanilla_proofs[0] = the sector's proof with 66 challenges;
 *                         registered_proof 0..4; randomness; miner_id. One partition.
 *
 * Thread-safety: a created job is immutable (but for an atomic count of PCE partitions); its
 * kind and hook may be called from any engine thread concurrently. Ownership: the job copies nothing it does not need; the request's
 * buffers are only read during fc_job_create.
 */
#ifndef CUZK_KINDS_FILECOIN_FC_JOB_H
#define CUZK_KINDS_FILECOIN_FC_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "cs/cs.h"
#include "engine/backend.h"
#include "engine/engine.h"
#include "kinds/pce_cache.h"
#include "kinds/filecoin/fc_srs.h"
#include "engine/kind.h"

/* Same numbers as the proto's ProofKind. */
typedef enum {
    FC_JOB_POREP = 1,
    FC_JOB_SNAP = 2,
    FC_JOB_WINDOW_POST = 3,
    FC_JOB_WINNING_POST = 4,
} fc_job_type;

/* "porep-c2", "snap-update", "window-post", "winning-post" (the reference's display names). */
const char *fc_job_type_name(fc_job_type t);
/* Default engine priority of a kind: WinningPoSt CRITICAL, WindowPoSt HIGH, others NORMAL. */
cuzk_priority fc_job_default_priority(fc_job_type t);

typedef struct {
    const uint8_t *data;
    size_t len;
} fc_bytes;

typedef struct {
    fc_job_type type;
    fc_bytes vanilla_proof;        /* PoRep */
    const fc_bytes *vanilla_proofs; /* PoSt / SnapDeals */
    size_t n_vanilla_proofs;
    uint64_t registered_proof;     /* PoSt / SnapDeals; PoRep: 0 or the C1's own (else refused) */
    bool has_miner;                /* miner_id set */
    uint64_t miner_id;
    bool has_sector;               /* sector_number set */
    uint64_t sector_number;
    fc_bytes randomness;           /* PoSt: 32 bytes */
    uint32_t partition_index;      /* WindowPoSt */
    fc_bytes comm_r_old, comm_r_new, comm_d_new; /* SnapDeals: 32 bytes each */
    bool snap_poseidon;            /* SnapDeals: the EmptySectorUpdate-Poseidon circuit */
    /* Only the public side is given, for verification (SnapDeals may then omit its vanilla
     * proofs; the job can verify but not synthesize). */
    bool verify_only;
    /* While fc_job_create waits for memory budget room for the parameters (fc_srs_acquire),
     * abort(abort_ctx) true gives up with CUZK_E_CANCELLED; abort may be NULL. */
    cuzk_abort_fn abort;
    void *abort_ctx;
} fc_job_request;

typedef struct fc_job fc_job;

/* Parse, validate and bind a request to its parameters. Errors: CUZK_E_FORMAT /
 * CUZK_E_INVALID_ARG / CUZK_E_VERIFY_FAILED / CUZK_E_FIELD_NONCANONICAL / CUZK_E_UNSUPPORTED
 * for bad requests (the message names the field, offset or JSON path, and the expected and
 * actual values: a daemon answers INVALID_ARGUMENT), CUZK_E_IO when the parameters are
 * missing (FAILED_PRECONDITION), CUZK_E_NOMEM. */
cuzk_status fc_job_create(const fc_job_request *req, fc_srs *srs, fc_job **out, cuzk_error *err);
/* Synthesize the job's partitions through the PCE manager `m` (kinds/pce_cache.h; NULL: directly):
 * the job's circuit and parameters name its PCE; creating the job's first use starts the
 * PCE's loading or recording when it is absent (in the background when the manager is so
 * configured). Each partition then uses the PCE if it is ready at that moment: witness-only
 * synthesis and the PCE's products, bit-identical to direct synthesis; otherwise CS_PROVE.
 * A PCE whose products fail a constraint that direct synthesis of the same witness
 * satisfies is rejected (pce_cache_reject) and the partition is synthesized directly. Kinds
 * without a PCE shape ignore `m`. Call before submitting; `m` must outlive the job.
 * Errors: CUZK_E_INVALID_ARG for a job created without parameters. */
cuzk_status fc_job_use_pce(fc_job *j, pce_cache *m, cuzk_error *err);
/* Whether the job's circuit family is synthesized through its PCE under the daemon's
 * [srs] pce = "auto" (fc_job_use_pce is then called): not PoRep, whose direct synthesis
 * measured faster than its PCE (bench/synth-filecoin.sh --porep --pce, docs/engine.md#pce);
 * PoSt and SnapDeals, Poseidon-heavy, yes. Thread-safe (reads constant operations). */
bool fc_job_pce_faster(const fc_job *j);

/* Take every partition's a/b/c (one region of 3 x the domain's rows, the estimate's
 * abc_bytes) from `pool`, the engine's (cuzk_engine_abc_pool of the engine the job runs
 * on; borrowed, must outlive the job), and give it back at kind.release_abc; NULL (the
 * default): malloc. Direct synthesis writes into the region (cs_prove_hint.abc_alloc), the
 * PCE's products too. Call before submitting. */
void fc_job_use_abc_pool(fc_job *j, cuzk_abc_pool *pool);

/* Partitions of this job synthesized through the PCE so far (thread-safe). */
uint32_t fc_job_pce_partitions(const fc_job *j);

/* Release the parameters and free everything. The engine must be done with the job. */
void fc_job_free(fc_job *j);

fc_job_type fc_job_type_of(const fc_job *j);
uint32_t fc_job_partitions(const fc_job *j);
/* Milliseconds fc_job_create spent loading (or building the point cache of) the
 * parameters; 0 when they were resident already or the job is check-only. */
uint64_t fc_job_srs_load_ms(const fc_job *j);
/* Engine plumbing: kind (kind_input = the job itself), params for the backend, verify hook. */
const cuzk_circuit_kind *fc_job_kind(const fc_job *j);
const void *fc_job_params(const fc_job *j);
const cuzk_verify_hook *fc_job_verify_hook(const fc_job *j);
/* Circuit id ("porep-2k") and its constraint-system size. */
void fc_job_circuit_name(const fc_job *j, char *out, size_t cap);

/* Check one partition of the job in CS_CHECK mode (no parameters needed when the job was
 * created with srs = NULL): *satisfied, and on failure the constraint index and its
 * namespaced gadget path in `where` (cap bytes). *constraints receives the count.
 * Errors: synthesis errors. */
cuzk_status fc_job_check_partition(const fc_job *j, uint32_t k, bool *satisfied, uint64_t *constraints,
                                   uint64_t *failed_index, char *where, size_t cap, cuzk_error *err);

/* Synthesize partition k of the job into `cs`, which the caller created in any mode (the
 * engine uses CS_PROVE sized from the parameters; benchmarks and checks use the others).
 * Errors: synthesis errors (the cs's sticky status is copied into err). */
cuzk_status fc_job_synthesize(const fc_job *j, uint32_t k, cs_t *cs, cuzk_error *err);

/* Verify a finished proof of this job (partitions x 192 bytes) with the job's vk.
 * Errors: CUZK_E_VERIFY_FAILED naming the first bad partition, CUZK_E_FORMAT (length), the
 * proof decoding errors (point and partition named). */
cuzk_status fc_job_verify_proof(const fc_job *j, const uint8_t *proof, size_t len, cuzk_error *err);

/* Verify a proof of a request against an explicit verifying key (no proving key needed):
 * used by `cuzk verify-c2 / verify-post / verify-snap`. */
cuzk_status fc_job_verify_with_vk(const fc_job *j, const groth16_vk_t *vk, const uint8_t *proof, size_t len,
                                  cuzk_error *err);

/* The circuit of a request (for fc_srs_read_vk before verifying). */
fc_circuit_id fc_job_circuit(const fc_job *j);

#endif
