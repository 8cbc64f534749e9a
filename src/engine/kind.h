/* Circuit-kind interface: how the engine turns (job input, partition index) into a
 * synthesized assignment without knowing any circuit or any crypto.
 *
 * A kind is a table of functions plus an opaque context. The "assignment" it produces is
 * opaque to the engine and is handed unchanged to the prover backend, so a kind and the
 * backends it is used with must agree on its layout (for Groth16: the a/b/c evaluation
 * vectors, the input and aux witness, density bitmaps; defined by the groth16 layer).
 *
 * Thread-safety required of implementations: every function may be called concurrently
 * from several engine threads (for different partitions, also of the same job).
 */
#ifndef CUZK_ENGINE_KIND_H
#define CUZK_ENGINE_KIND_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/status.h"

/* Estimated memory working set of one partition, in bytes. abc_bytes is the share that is
 * freed when release_abc runs (the a/b/c vectors), total_bytes - abc_bytes stays until
 * prove_finish returns (witness, density, prover scratch). 0 < total, abc <= total.
 * total_bytes is what the budget reserves: an upper bound, with whatever safety margin the
 * kind adds where a size is only known after synthesis. What a memory model predicts peak
 * RSS from (cuzk-bench batch), without that margin: expected_bytes, the working set of a
 * partition being proved (abc <= expected <= total), and synthesized_bytes, what a
 * synthesized partition holds before the prover takes it (a/b/c and witness; abc <=
 * synthesized <= expected); 0 means total_bytes for either. The engine reads only total
 * and abc. resident_bytes (per job, not per partition) are budget bytes
 * the job's input itself holds while the job runs and that cannot give way (e.g. proving
 * parameters the job uses and that no other job may evict); 0 when none. The submit
 * refuses a job whose partition cannot fit beside them. */
typedef struct {
    uint64_t total_bytes;
    uint64_t abc_bytes;
    uint64_t resident_bytes;
    uint64_t expected_bytes;
    uint64_t synthesized_bytes;
} cuzk_partition_estimate;

typedef struct cuzk_circuit_kind {
    const char *name; /* stable, e.g. "synthetic"; shown in status */
    void *ctx;        /* passed to every function; owned by whoever built the kind */

    /* Working-set estimate for one partition of a job with input `input`. Called once per
     * job, at submit. Errors: any cuzk_status with a message (the submit then fails). */
    cuzk_status (*estimate)(void *ctx, const void *input, cuzk_partition_estimate *out, cuzk_error *err);

    /* Synthesize partition `partition` (0 <= partition < the job's num_partitions) of the
     * job whose input is `input` into a newly allocated assignment stored in *assignment.
     * `cancel` becomes true when the job was cancelled or failed; a long synthesis should
     * poll it and may then return CUZK_E_CANCELLED without producing an assignment.
     * On error *assignment must be left NULL (nothing to free). */
    cuzk_status (*synthesize)(void *ctx, const void *input, uint32_t partition,
                              const atomic_bool *cancel, void **assignment, cuzk_error *err);

    /* Free (or recycle) the a/b/c vectors of `assignment`, keeping the witness that
     * prove_finish may still read. The only place a/b/c are freed once the assignment left
     * synthesize (besides free_assignment when release_abc never ran). Called by the engine
     * exactly once per proved partition, at the moment the backend reports a/b/c done with
     * (backend.h, prove_start's `rel`), at the latest right after prove_start returned
     * (successfully or not); possibly on a thread of the backend's. Must not fail. */
    void (*release_abc)(void *ctx, void *assignment);

    /* Free everything left of `assignment` (whether or not release_abc ran). Called
     * exactly once per assignment, after prove_finish returned, or when the partition is
     * discarded (job cancelled/failed) before proving. Must not fail. */
    void (*free_assignment)(void *ctx, void *assignment);
} cuzk_circuit_kind;

#endif
