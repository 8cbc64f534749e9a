/* NTTs over Fr and the Groth16 H polynomial on a GPU, bit-identical to src/poly (ntt.h, h.h).
 *
 * Layout: a vector of n = 2^log_n Fr elements in a gpu_buffer, the CPU's fr_t bytes (Montgomery
 * form, R = 2^256), natural order in and out, exactly as poly_ntt / poly_h_compute take them.
 * Transforms (omega the primitive n-th root of the domain's family, poly/roots.h; g = 7):
 *   GPU_NTT_FORWARD        v_j <- sum_i v_i omega^(ij)                        (poly_ntt)
 *   GPU_NTT_INVERSE        v_i <- n^-1 sum_j v_j omega^(-ij)                  (poly_intt)
 *   GPU_NTT_COSET_FORWARD  v_j <- P(g omega^j)                                (poly_coset_ntt)
 *   GPU_NTT_COSET_INVERSE  its inverse                                        (poly_coset_intt)
 * gpu_h_compute is poly_h_compute: the same two forms (h.h), the same input contract, the same
 * result bytes in a[0 .. poly_h_len(form, m)), still in Montgomery form; gpu_fr_from_mont turns a
 * range into canonical integers for an MSM that reads digits.
 *
 * Algorithm (kernels/ntt.h): radix-2^k passes (k <= 10) in group-shared memory, 1024 elements
 * and 256 threads per work-group, as a decimation-in-frequency network (natural -> bit-reversed)
 * and its transpose (bit-reversed -> natural), so the H pipeline needs no permutation between
 * its inverse and forward transforms; the scalings (n^-1, coset powers, 1/Z) are fused into the
 * last pass where they follow it. Passes per transform: ceil(log_n / 10). Per H: 7 transforms,
 * one element-wise a b - c, and (bellperson form) one bit-reversal permutation.
 *
 * Domains: the twiddle tables of one (root family, log_n) -- omega_1024^(+-i), i < 512, and
 * omega_n^(+-e) as two tables of 2^ceil(log_n/2) and 2^floor(log_n/2) entries, plus the scaling
 * tables of each transform -- are built once with the CPU field code, uploaded, and kept on the
 * device by a gpu_ntt_cache (one per device; about 7 MiB per domain at log_n = 28, 0.2 MiB at 2^20).
 *
 * Thread-safety: a gpu_ntt_cache and its domains may be shared by every worker of the device
 * (creation and lazily built tables under the cache's lock); transforms run on the caller's
 * queue, one thread per queue as runtime.h requires, on buffers the caller keeps apart.
 * Errors: CUZK_E_INVALID_ARG (NULL, log_n > POLY_MAX_LOG2, a buffer too small, an unknown form
 * or op, a domain of the other family for the H form, a domain of another device), and the
 * runtime's CUZK_E_NOMEM / CUZK_E_DEVICE naming the device; on error the vectors hold
 * unspecified values.
 */
#ifndef CUZK_GPU_NTT_H
#define CUZK_GPU_NTT_H

#include "common/status.h"
#include "field/fr.h"
#include "gpu/runtime.h"
#include "poly/h.h"
#include "poly/roots.h"

typedef enum {
    GPU_NTT_FORWARD = 0,
    GPU_NTT_INVERSE = 1,
    GPU_NTT_COSET_FORWARD = 2,
    GPU_NTT_COSET_INVERSE = 3,
} gpu_ntt_op;

typedef struct gpu_ntt_cache gpu_ntt_cache;
typedef struct gpu_ntt_domain gpu_ntt_domain;

/* A cache of domains for `dev` (tables uploaded on first use). Free with gpu_ntt_cache_free
 * after every transform using it has finished. */
cuzk_status gpu_ntt_cache_create(gpu_device *dev, gpu_ntt_cache **out, cuzk_error *err);
void gpu_ntt_cache_free(gpu_ntt_cache *c); /* NULL is a no-op */
/* The domain of (roots, log_n), created and uploaded through q on first use (blocking until the
 * tables are on the device). Owned by the cache. */
cuzk_status gpu_ntt_domain_get(gpu_ntt_cache *c, gpu_queue *q, poly_roots roots, unsigned log_n,
                               const gpu_ntt_domain **out, cuzk_error *err);
/* Device bytes the cache's tables hold. */
size_t gpu_ntt_cache_bytes(gpu_ntt_cache *c);

/* Transform the first 2^log_n elements of v (d's size) in place; enqueued on q, asynchronous. */
cuzk_status gpu_ntt(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *v, gpu_ntt_op op, cuzk_error *err);

/* H of the witness evaluations a, b, c (each 2^log_m elements of its buffer, d's size and
 * family: POLY_ROOTS_FF for POLY_H_BELLPERSON, POLY_ROOTS_SNARKJS for POLY_H_SNARKJS) in place
 * into a, as poly_h_compute; b and c are overwritten. Enqueued on q, asynchronous. */
cuzk_status gpu_h_compute(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *a, gpu_buffer *b, gpu_buffer *c,
                          poly_h_form form, cuzk_error *err);

/* gpu_h_compute in two steps, so that a caller can start on one vector while the next is still
 * being uploaded (on another queue, ordered with gpu_queue_wait_event): gpu_h_to_coset takes one
 * of a, b, c (in place) from its values on the domain to its values on the coset, and once all
 * three have been through it, gpu_h_combine forms H into a (b, c are only read). The two steps
 * enqueue exactly gpu_h_compute's work, so the bytes are the same. */
cuzk_status gpu_h_to_coset(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *v, poly_h_form form, cuzk_error *err);
cuzk_status gpu_h_combine(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *a, const gpu_buffer *b,
                          const gpu_buffer *c, poly_h_form form, cuzk_error *err);

/* v[i] = the canonical integer of v[i] (fr_to_limbs' bytes) for i < n; enqueued on q. */
cuzk_status gpu_fr_from_mont(gpu_queue *q, gpu_buffer *v, size_t n, cuzk_error *err);

#endif
