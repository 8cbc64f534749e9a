/* The engine's built-in circuit kinds (engine/kind.h) on top of the Groth16 layer: two
 * circuit kinds and the matching verify hooks.
 *
 * Assignment layout shared by the kinds and the prover backends (src/backends):
 * builtin_assignment (below). The kinds allocate it and own it throughout; a backend's
 * prove_start reports a/b/c done with through the engine's release callback, which runs
 * builtin_release_abc (CPU: once H is done; GPU: once a/b/c are on the device); the witness
 * stays until free_assignment.
 *
 * Kinds:
 *   "synthetic"  a built-in circuit of 2^k rows: constraints y_{i+1} = (y_i + i + 1) * y_i
 *                for i < 2^k - 2 with y_0 = x (the one public input), plus the 2 input rows.
 *                Partition p's witness starts from x = splitmix64(seed + p) mod r, so every
 *                partition is a different valid instance. Parameters come from
 *                groth16_setup (bellperson form, random toxic waste) at circuit creation.
 *   "r1cs"       a circom .r1cs circuit held once in CSR form with a snarkjs .zkey; partition
 *                p proves witness p of the job (a .wtns each): a = A.w, b = B.w, c = C.w by
 *                SpMV (cs/spmv.h) plus snarkjs's input rows.
 * Thread-safety: all functions may run concurrently, as kind.h/backend.h require; circuit
 * objects are immutable after creation.
 */
#ifndef CUZK_KINDS_BUILTIN_BUILTIN_H
#define CUZK_KINDS_BUILTIN_BUILTIN_H

#include <stdint.h>

#include "cs/r1cs.h"
#include "engine/abc_pool.h"
#include "engine/backend.h"
#include "engine/kind.h"
#include "groth16/groth16.h"
#include "groth16/zkey.h"

typedef struct {
    groth16_assignment_t g; /* a/b/c owned until builtin_release_abc; g.w points at w */
    fr_t *w;                /* owned witness: n_inputs + n_aux values */
    /* or a compact witness (g.w and w NULL; owned by whoever made the assignment): the
     * backend then proves with groth16_prove_start_compact */
    groth16_compact_witness_t compact;
    /* where a/b/c live: one region of 3 vectors from this pool (abc_pool.h), or NULL when
     * a, b, c are separate malloc blocks */
    cuzk_abc_pool *pool;
    void *abc_mem;
} builtin_assignment;

/* kind.release_abc of builtin_assignment (also of layouts that begin with one): returns
 * a/b/c to their pool (or frees them) and sets g.a, g.b, g.c to NULL. Idempotent. */
void builtin_release_abc(void *ctx, void *assignment);

/* ---- synthetic kind ---- */

typedef struct builtin_synthetic builtin_synthetic;

/* Build the synthetic circuit with 2^log2_rows rows (2 <= log2_rows <= 26) and its
 * Groth16 parameters (bellperson form, random toxic waste; `threads` for setup).
 * Errors: CUZK_E_INVALID_ARG (size), CUZK_E_NOMEM, setup errors. */
cuzk_status builtin_synthetic_create(unsigned log2_rows, unsigned threads, builtin_synthetic **out,
                                     cuzk_error *err);
void builtin_synthetic_free(builtin_synthetic *s);
/* The kind table (ctx = s) and the parameters to pass as the job's `params`. */
const cuzk_circuit_kind *builtin_synthetic_kind(builtin_synthetic *s);
const groth16_params_t *builtin_synthetic_params(const builtin_synthetic *s);
/* Verify hook for synthetic jobs: kind_input must point at a builtin_synthetic_input. */
const cuzk_verify_hook *builtin_synthetic_verify_hook(builtin_synthetic *s);
/* Bytes of one partition's working set (a/b/c + witness + prover copies). */
uint64_t builtin_synthetic_partition_bytes(const builtin_synthetic *s);
/* Take partitions' a/b/c from `pool` (the engine's, cuzk_engine_abc_pool, of the engine
 * its jobs run on; borrowed, must outlive the jobs) or, with NULL, from malloc. Set it
 * before submitting jobs. */
void builtin_synthetic_use_pool(builtin_synthetic *s, cuzk_abc_pool *pool);

/* Job input of a synthetic job (the kind_input): partition p uses seed + p. */
typedef struct {
    uint64_t seed;
} builtin_synthetic_input;

/* ---- r1cs kind ---- */

typedef struct builtin_r1cs builtin_r1cs;

/* Bind a circuit (.r1cs) and its proving key (.zkey) for proving; both are borrowed and
 * must outlive the object. Errors: CUZK_E_INVALID_ARG when they do not belong together
 * (wire/variable counts, public counts, domain too small). */
cuzk_status builtin_r1cs_create(const r1cs_t *r1cs, const zkey_t *zkey, builtin_r1cs **out, cuzk_error *err);
void builtin_r1cs_free(builtin_r1cs *c);
const cuzk_circuit_kind *builtin_r1cs_kind(builtin_r1cs *c);
/* Parameters (snarkjs form, borrowing the zkey's arrays) to pass as the job's params. */
const groth16_params_t *builtin_r1cs_params(const builtin_r1cs *c);
const cuzk_verify_hook *builtin_r1cs_verify_hook(builtin_r1cs *c);
/* As builtin_synthetic_use_pool. */
void builtin_r1cs_use_pool(builtin_r1cs *c, cuzk_abc_pool *pool);

/* Job input of an r1cs job: one witness per partition (Montgomery fr_t, n_wires each,
 * borrowed until the job is collected). */
typedef struct {
    const fr_t *const *witnesses;
    uint32_t count;
} builtin_r1cs_input;

#endif
