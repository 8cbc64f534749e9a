/* TEMPORARY stand-in for src/gpu/msm.h (the device G1 MSM, written in parallel): the same
 * functions with the same contract, implemented by keeping the bases on the device and running
 * the CPU's witness-aware MSM (msm_g1_witness, msm/msm.h) on a downloaded copy. Deleted when gpu/msm.h lands.
 *
 * Contract (shared with gpu/msm.h):
 *   gpu_msm_bases     n affine G1 points (CPU g1_affine_t layout) resident on one device.
 *   gpu_msm_bases_upload  uploads `points` through q and waits for the copy; the caller may free
 *                     `points` afterwards. Errors: CUZK_E_INVALID_ARG (NULL), the runtime's
 *                     CUZK_E_NOMEM / CUZK_E_DEVICE naming the device.
 *   gpu_msm_g1        *result = sum_{i<n} scalars[i] * bases[first + i], scalars a device buffer
 *                     of n canonical 32-byte little-endian Fr integers (gpu_fr_from_mont's
 *                     output). Blocks until the result is on the host.
 *   gpu_msm_g1_host   the same with the scalars in host memory.
 * Thread-safety: bases may be read by several queues of their device at once; each call uses
 * its queue as runtime.h requires (one thread at a time).
 */
#ifndef CUZK_BACKENDS_GPU_MSM_STUB_H
#define CUZK_BACKENDS_GPU_MSM_STUB_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "curve/curve.h"
#include "gpu/runtime.h"

typedef struct gpu_msm_bases gpu_msm_bases;

cuzk_status gpu_msm_bases_upload(gpu_queue *q, const g1_affine_t *points, size_t n, gpu_msm_bases **out,
                                 cuzk_error *err);
/* Device bytes the bases hold; their number of points. */
size_t gpu_msm_bases_bytes(const gpu_msm_bases *b);
size_t gpu_msm_bases_count(const gpu_msm_bases *b);
void gpu_msm_bases_free(gpu_msm_bases *b); /* NULL is a no-op */

cuzk_status gpu_msm_g1(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const gpu_buffer *scalars, size_t n,
                       g1_jac_t *result, cuzk_error *err);
cuzk_status gpu_msm_g1_host(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const uint8_t *scalars,
                            size_t n, g1_jac_t *result, cuzk_error *err);

#endif
