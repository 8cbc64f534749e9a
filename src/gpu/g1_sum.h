/* Sum of many affine G1 points on the device by batch-affine pairwise additions: the building
 * block of the boolean part of the witness-aware MSM (the bases of the scalar-1 entries summed
 * directly) and its test.
 *
 * Algorithm: levels of out[k] = in[2k] + in[2k+1] (kernel g1_affine_add_pairs,
 * kernels/g1_batch.h), each work-item adding a run of consecutive pairs with one field
 * inversion by Montgomery's simultaneous-inversion trick, until one point remains; an odd last
 * point is carried to the next level. Exact arithmetic, so the sum equals the CPU's for any
 * grouping. Cost: n - 1 affine additions (about 6 multiplications each) plus one inversion per
 * run of up to 64 pairs per level.
 */
#ifndef CUZK_GPU_G1_SUM_H
#define CUZK_GPU_G1_SUM_H

#include <stddef.h>

#include "common/status.h"
#include "curve/curve.h"
#include "gpu/runtime.h"

/* *sum = sum of the n affine points (CPU g1_affine_t layout, infinity (0, 0) allowed) at the
 * start of `points`, a buffer of q's device holding at least n * sizeof(g1_affine_t) bytes and
 * left unchanged. n = 0 gives infinity; n < 2^32. Blocks until the result is on the host.
 * Device memory: about n/2 * 96 + n/4 * 96 + n/2 * 48 bytes of temporaries, freed before
 * returning. Errors: CUZK_E_INVALID_ARG (NULL, a buffer too small, n too large), the runtime's
 * CUZK_E_NOMEM / CUZK_E_DEVICE naming the device. Thread-safety: as for q (one thread at a
 * time per queue). */
cuzk_status gpu_g1_sum_affine(gpu_queue *q, gpu_buffer *points, size_t n, g1_affine_t *sum, cuzk_error *err);

#endif
