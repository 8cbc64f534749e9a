/* Counts of the Filecoin circuits for `cuzk circuit-info` (docs/circuits.md):
 * shape-mode synthesis (no values, O(1) memory per constraint) with density
 * tracking.
 *
 * Circuits and parameters ("key=value"):
 *   porep           sector-size=2KiB|8MiB|512MiB|32GiB|64GiB (production StackedDrg
 *                   partition circuit), or the stacked_circuit.rs test circuits with
 *                   nodes=N, layers=L, challenges=C, tree=B-S-T (Poseidon tree R/C shape)
 *   winning-post, window-post   sector-size=2KiB|8MiB|512MiB|32GiB|64GiB (production
 *                   FallbackPoSt partition: WinningPoSt 66 sectors x 1 challenge, WindowPoSt
 *                   2 / 2,349 / 2,300 sectors x 10), or a test circuit: leaves=N with
 *                   tree=B-S-T (default 8-0-0), challenges=C (default 1 winning, 10 window),
 *                   sectors=N (default 66 winning, 2 window); fallback_circuit.rs: tree=8-0-0,
 *                   leaves=64, challenges=5, sectors=3 -> 16,869 constraints, 19 inputs
 *   snap, snap-poseidon         sector-size=S: the EmptySectorUpdate partition circuit of
 *                   any size storage-proofs-update allows (1KiB .. 32KiB, 8MiB, 16MiB test
 *                   sizes; 2KiB, 8MiB, 512MiB, 32GiB, 64GiB published), "<n>KiB|MiB|GiB" or
 *                   bytes
 * Errors: CUZK_E_UNSUPPORTED when `name` is not a Filecoin circuit (the caller may try the
 * gadget circuits), CUZK_E_INVALID_ARG naming a bad parameter, synthesis errors.
 * Thread-safe (each call has its own cs). */
#ifndef CUZK_FILECOIN_CORE_CIRCUIT_INFO_H
#define CUZK_FILECOIN_CORE_CIRCUIT_INFO_H

#include <stdbool.h>
#include <stddef.h>

#include "cs/cs.h"
#include "filecoin/core/registry.h"

cuzk_status fc_circuit_info(const char *name, const char *const *params, size_t nparams, cs_counts *out,
                            cuzk_error *err);

/* Synthesize the published circuit `c` (one partition of it) without values, in CS_SHAPE or
 * CS_RECORD mode, e.g. to record its matrices for a test-only setup (`cuzk params gen`).
 * Errors: CUZK_E_INVALID_ARG (a cs with values), CUZK_E_UNSUPPORTED (no such circuit at this
 * size), synthesis errors. */
cuzk_status fc_circuit_synthesize_blank(cs_t *cs, const fc_circuit_id *c, cuzk_error *err);

/* The per-family handlers fc_circuit_info dispatches to (<family>/<family>_info.c). */
cuzk_status fc_porep_circuit_info(const char *const *params, size_t nparams, cs_counts *out, cuzk_error *err);
cuzk_status fc_post_circuit_info(bool winning, const char *const *params, size_t nparams, cs_counts *out,
                                 cuzk_error *err);
cuzk_status fc_snap_circuit_info(bool poseidon, const char *const *params, size_t nparams, cs_counts *out,
                                 cuzk_error *err);

#endif
