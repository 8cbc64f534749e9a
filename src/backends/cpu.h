/* The CPU prover backend: the engine's split prove (engine/backend.h) on
 * groth16_prove_start / groth16_prove_finish (bellperson src/groth16/prover.rs split at the
 * B_G2 MSM).
 *
 * `params` passed by the engine must be a `const groth16_params_t *`; assignments must be
 * builtin_assignment (kinds/builtin/builtin.h). r and s come from getrandom. One device.
 * Thread-safety: prove_start / prove_finish may run concurrently on any threads.
 */
#ifndef CUZK_BACKENDS_CPU_H
#define CUZK_BACKENDS_CPU_H

#include "engine/backend.h"
#include "kinds/builtin/builtin.h"
#include "groth16/groth16.h"

/* Fill *out with the CPU backend; prove_start / prove_finish use `threads` threads each
 * (0 is taken as 1). The struct is plain data (ctx holds the thread count by value); no
 * cleanup needed. */
void backend_cpu_init(cuzk_prover_backend *out, unsigned threads);

/* The CPU backend's prove_start with a given r, s (the GPU backend's fallback runs it):
 * groth16_prove_start, or groth16_prove_start_compact for a compact witness, on `threads`
 * threads; a/b/c used as scratch and reported done with through `rel` (may be NULL) after the
 * H MSM, as engine/backend.h says. Errors as those functions. */
cuzk_status backend_cpu_prove_start(unsigned threads, const groth16_params_t *params, const builtin_assignment *as,
                                    const cuzk_release_cb *rel, const fr_t *r, const fr_t *s,
                                    groth16_pending_t **pending, cuzk_error *err);

#endif
