/* G1 multi-scalar multiplication on a GPU, for the Groth16 queries of the prover:
 *
 *   result = sum_{i < n} s_i * bases[first + i]
 *
 * with the bases resident on the device (uploaded once per parameter set) and the scalars on
 * the device (e.g. H after gpu_h_compute and gpu_fr_from_mont) or on the host.
 *
 * Method (kernels/msm.h), witness-aware as the CPU's msm_g1_witness (src/msm/msm.h): per chunk
 * of scalars the device classifies them -- zeros skipped, ones listed and their bases summed by
 * batch-affine pairwise additions (gpu_g1_sum_affine, g1_sum.h), the rest ("large") listed --
 * and runs a signed-digit Pippenger over the large ones only: Booth digits of c bits (c chosen
 * from the count of large scalars, 2^(c-1) buckets per window, as the CPU's msm_booth_digit),
 * a counting sort of the (bucket, point) pairs on the device (histogram, prefix scan, scatter),
 * bucket sums in XYZZ coordinates over equal-length runs of the sorted pairs (balanced for any
 * bucket sizes, so repeated or boolean-heavy scalars do not serialise), the running-sum bucket
 * reduction split into segments across work-items, and the segments and windows combined on
 * the host with the CPU curve code. Reference: Pippenger's bucket method as in Bernstein et al.,
 * "Faster batch forgery identification" (INDOCRYPT 2012, section 4); the witness split follows
 * bellperson's multiexp (src/multiexp.rs) and supraseal-c2's separate boolean "batch add".
 * Exact arithmetic: the result does not depend on the order of the device's atomics, the
 * chunking or the window size, and it is normalised (Z = 1, or the canonical infinity of
 * g1_jac_set_infinity), so it is byte-identical to msm_g1's.
 *
 * Device memory: the bases, n_b * 96 bytes (gpu_msm_bases_bytes), plus temporaries freed
 * before each call returns. With k = min(n, chunk) scalars per chunk (chunk default
 * GPU_MSM_CHUNK), W = ceil(256 / c) windows, NB = W 2^(c-1) buckets and P = the pairs of one
 * sort batch (at most max_pairs, default GPU_MSM_MAX_PAIRS, and about k W when all are large):
 *   scalar lists 8 k + scalars staged from the host 32 k (host entry point only)
 *   ones: gathered bases 96 k1 + gpu_g1_sum_affine's temporaries (about 96 k1), k1 <= k ones
 *   Pippenger: 8 P (sorted pairs) + 12 NB (counts, offsets, cursors) + 192 NB (buckets)
 *              + 384 R (run pieces, R = the runs of accumulation, about the device's
 *              compute units x 1024) + 144 W S (segment sums, S segments per window)
 * e.g. about 1.5 GiB at the defaults (k = 2^22, c = 16, P = 2^26).
 *
 * Errors (nothing aborts; *result is untouched on error): CUZK_E_INVALID_ARG naming the
 * argument (NULL, bases of another device, first + n beyond the bases, a scalar buffer too
 * small or of another device, n >= 2^32, a scalar >= r: the message gives its index), the
 * runtime's CUZK_E_NOMEM / CUZK_E_DEVICE naming the device.
 * Thread-safety: a gpu_msm_bases may be read by any number of concurrent MSMs on queues of its
 * device; each call uses its queue as runtime.h requires (one thread at a time per queue).
 */
#ifndef CUZK_GPU_MSM_H
#define CUZK_GPU_MSM_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "curve/curve.h"
#include "gpu/runtime.h"

/* Scalars per chunk and (bucket, point) pairs per sort batch by default. */
#define GPU_MSM_CHUNK ((size_t)1 << 22)
#define GPU_MSM_MAX_PAIRS ((size_t)1 << 26)
/* Window sizes the device Pippenger takes. */
#define GPU_MSM_MIN_WINDOW 2
#define GPU_MSM_MAX_WINDOW 16

typedef struct gpu_msm_bases gpu_msm_bases; /* one G1 base table resident on one device */

/* Upload n < 2^32 affine points (CPU g1_affine_t layout, infinity = (0, 0)) through q into a
 * new table *out (owned by the caller: gpu_msm_bases_free); blocks until they are on the device.
 * n = 0 gives an empty table. The points are not checked (as msm_g1: bases off the curve give
 * an unspecified result). Errors: CUZK_E_INVALID_ARG (NULL, n too large), CUZK_E_NOMEM /
 * CUZK_E_DEVICE from the runtime. */
cuzk_status gpu_msm_bases_upload(gpu_queue *q, const g1_affine_t *points, size_t n, gpu_msm_bases **out,
                                 cuzk_error *err);
size_t gpu_msm_bases_bytes(const gpu_msm_bases *b); /* device bytes held (0 for NULL) */
size_t gpu_msm_bases_count(const gpu_msm_bases *b); /* points (0 for NULL) */
void gpu_msm_bases_free(gpu_msm_bases *b);          /* NULL is a no-op; no MSM may still use it */

/* *result = sum_{i < n} s_i * bases[first + i]. Scalars: n canonical Fr integers, 32 bytes each
 * little-endian (fr_to_limbs form), at the start of `scalars`, a buffer of q's device (left
 * unchanged). first + n <= count. n = 0 gives infinity (scalars may then be NULL). Blocks until
 * the result is on the host. */
cuzk_status gpu_msm_g1(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const gpu_buffer *scalars, size_t n,
                       g1_jac_t *result, cuzk_error *err);
/* The same with the scalars in host memory (n * 32 bytes, uploaded chunk by chunk through q). */
cuzk_status gpu_msm_g1_host(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const uint8_t *scalars,
                            size_t n, g1_jac_t *result, cuzk_error *err);

/* Tuning of gpu_msm_g1_ex; a zero field means the default. */
typedef struct {
    size_t chunk;         /* scalars classified and summed per round; default GPU_MSM_CHUNK */
    unsigned window_bits; /* Pippenger window c in [GPU_MSM_MIN_WINDOW, GPU_MSM_MAX_WINDOW];
                             default: chosen per chunk from its count of large scalars */
    size_t max_pairs;     /* (bucket, point) pairs per sort batch, at least one scalar's
                             windows; default GPU_MSM_MAX_PAIRS */
    size_t segments;      /* bucket segments per window of the reduction, one work-item each
                             (at most the window's 2^(c-1) buckets); their sums are added on
                             the device, 16 at a time, until at most 16 a window are left for
                             the host; default: about 256 work-items per compute unit over all
                             windows */
} gpu_msm_opts;

/* How one MSM went. */
typedef struct {
    size_t zeros, ones, large; /* scalars by class */
    size_t chunks;             /* rounds of classification */
    size_t batches;            /* Pippenger sort batches, over all chunks */
    unsigned window_bits;      /* c of the last Pippenger batch (0: none ran) */
    size_t segments;           /* reduction segments per window of the last batch */
    unsigned sum_rounds;       /* device rounds adding the segment sums in the last batch */
} gpu_msm_stats;

/* gpu_msm_g1 (device_scalars set, host_scalars NULL) or gpu_msm_g1_host (the reverse) with
 * tuning `opts` (may be NULL) and the split reported in `stats` (may be NULL). Out-of-range
 * opts fields are CUZK_E_INVALID_ARG. */
cuzk_status gpu_msm_g1_ex(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const gpu_buffer *device_scalars,
                          const uint8_t *host_scalars, size_t n, const gpu_msm_opts *opts, gpu_msm_stats *stats,
                          g1_jac_t *result, cuzk_error *err);

/* ---- Density-filtered queries over one resident witness ----
 * A Groth16 query of a density-filtered key (bellperson's A and B_G1: one base per variable
 * whose density bit is set, src/msm/msm.h msm_g1_density) is
 *   sum_{i < n} w[v_i] * bases[first + i],   v_i = the variable of the i-th set density bit,
 * so with the full witness w on the device once, each query reads its scalars in place through
 * the index list (v_i), uploaded once per parameter set, and no host copy of the filtered
 * scalars is made or uploaded. */

/* The index list of a density bitmap: the positions of its set bits among the first nbits
 * (bit i = (density[i / 64] >> (i % 64)) & 1, LSB first, as msm_g1_density), increasing, as
 * u32 in a new device buffer *out (owned by the caller: gpu_buffer_free; NULL when no bit is
 * set) uploaded through q; blocks until it is on the device. *count = the popcount.
 * Errors: CUZK_E_INVALID_ARG (NULL, nbits >= 2^32), CUZK_E_NOMEM / CUZK_E_DEVICE. */
cuzk_status gpu_msm_density_index(gpu_queue *q, const uint64_t *density, size_t nbits, gpu_buffer **out,
                                  size_t *count, cuzk_error *err);

/* *result = sum_{i < n} S_i * bases[first + i] with, in the device buffer `scalars` (canonical
 * scalars as gpu_msm_g1's, of q's device, left unchanged), the window
 * W = scalars[sfirst .. sfirst + nscalars) and
 *   S_i = W[index[i]]   (index: a device buffer of at least n u32, e.g. gpu_msm_density_index)
 *   S_i = W[i]          (index NULL; n <= nscalars).
 * Method, result and blocking as gpu_msm_g1_ex (opts, stats may be NULL); with an index each
 * chunk's scalars are first gathered into a temporary of 32 bytes a scalar of the chunk.
 * Errors as gpu_msm_g1_ex, and CUZK_E_INVALID_ARG for an index entry >= nscalars (found on the
 * device: the message gives its position), sfirst + nscalars >= 2^32 or past the buffer, an
 * index buffer shorter than n. */
cuzk_status gpu_msm_g1_indexed(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const gpu_buffer *scalars,
                               size_t sfirst, size_t nscalars, const gpu_buffer *index, size_t n,
                               const gpu_msm_opts *opts, gpu_msm_stats *stats, g1_jac_t *result, cuzk_error *err);

/* The window size the device Pippenger takes for m large scalars: c minimising
 * ceil(256 / c) (m + 3 2^(c-1)) (accumulation plus reduction additions per window) over
 * [GPU_MSM_MIN_WINDOW, GPU_MSM_MAX_WINDOW]. */
unsigned gpu_msm_window_bits(size_t m);

#endif
