/* Internal interfaces of the msm layer (not installed, not for other layers).
 *
 * The driver (msm_driver.c) is group-agnostic: it validates inputs, plans the work
 * (msm_plan.c), cuts it into units (window, point range), runs the units on threads and
 * combines the unit results through a table of group operations. The bucket kernels
 * (msm_g1.c, msm_g2.c, both instantiated from msm_bucket.inc) compute one unit.
 */
#ifndef CUZK_MSM_MSM_INTERNAL_H
#define CUZK_MSM_MSM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msm/msm.h"

/* One unit of work: window `window` (digits of bits [c*window - 1, c*window + c)) over a
 * range of `count` consecutive scalars. Dense: base j of the range is bases[j]. With a
 * density bitmap: scalar j of the range takes part iff bit (bit0 + j) of `density` is
 * set, and the k-th taking part uses bases[k]. Only scalars whose bit length
 * (msm_scalar_bits) lies in [lo_bits, hi_bits] are taken (the split by size of the
 * witness-aware MSM; [1, 255] takes every scalar); their digits are at most
 * `max_digit` in absolute value, a power of two: when it is below the 2^(c-1) buckets,
 * each digit is spread over nb / max_digit buckets ("lanes"). */
typedef struct {
    const void *bases;        /* first base of the range (g1_affine_t / g2_affine_t) */
    const uint64_t *scalars;  /* first scalar of the range, MSM_SCALAR_LIMBS limbs each; NULL in a
                                 sum of ones (hi_bits == 1) over base_idx: every scalar is 1 */
    size_t count;             /* scalars in the range */
    const uint64_t *density;  /* NULL for a dense MSM */
    size_t bit0;              /* bit index of the range's first scalar in `density` */
    const uint32_t *base_idx; /* non-NULL (density NULL): scalar j uses bases[base_idx[j]],
                                 and every pair is known to lie in [lo_bits, hi_bits] with a
                                 base not at infinity (a gathered class: no checks) */
    unsigned window;
    unsigned lo_bits, hi_bits;
    uint64_t max_digit;
} msm_unit_t;

/* A queued batch-affine addition: bucket b += (neg ? -p : p), a doubling when `dbl` (the
 * bucket equals the signed point); p points at an affine point of the unit's group. */
typedef struct {
    const void *p;
    uint32_t b;
    uint8_t neg;
    uint8_t dbl;
} msm_entry_t;

#ifdef CUZK_HAVE_IFMA
/* msm_ifma.c: finish the m queued additions of `batch` into the affine `bucket` array
 * with the AVX-512 IFMA 8-lane kernels, bit-identical to the scalar flush (which also
 * sets the bucket states). Call only when cuzk_cpu_use_ifma(); `scratch` holds
 * msm_ifma_scratch_bytes(cap) bytes for batches of up to cap entries. */
void msm_g1_flush_ifma(const msm_entry_t *batch, size_t m, g1_affine_t *bucket, void *scratch);
void msm_g2_flush_ifma(const msm_entry_t *batch, size_t m, g2_affine_t *bucket, void *scratch);
size_t msm_ifma_scratch_bytes(size_t cap);
#endif

/* Group operations used by the driver; `jac` points at a g1_jac_t / g2_jac_t. */
typedef struct {
    msm_group_id id;
    size_t jac_size;
    /* Per-thread bucket state for window size c; NULL on allocation failure. */
    void *(*worker_new)(unsigned c);
    void (*worker_free)(void *worker);
    /* result = sum over the unit of digit_i * base_i (Jacobian, any Z). */
    void (*run_unit)(void *worker, const msm_unit_t *unit, void *result);
    void (*jac_set_infinity)(void *r);
    void (*jac_add)(void *r, const void *a, const void *b);
    void (*jac_dbl)(void *r, const void *a);
    /* r = the same point with Z = 1, or the canonical infinity. */
    void (*jac_normalize)(void *r);
    /* true iff the affine point (all-zero coordinates) is infinity */
    bool (*aff_is_inf)(const void *p);
} msm_group_t;

/* Storage for a Jacobian point of either group. */
typedef union {
    g1_jac_t g1;
    g2_jac_t g2;
} msm_jac_any;

extern const msm_group_t msm_group_g1;
extern const msm_group_t msm_group_g2;

/* The full MSM over `group` (see msm.h for the contract; density may be NULL). */
cuzk_status msm_run(const msm_group_t *group, void *out, const void *bases, size_t base_size,
                    size_t nbases, const uint64_t *density, const uint64_t *scalars, size_t n,
                    const msm_opts_t *opts, cuzk_error *err);

/* The witness-aware MSM over `group` (msm.h, msm_g1_witness); stats may be NULL. */
cuzk_status msm_run_witness(const msm_group_t *group, void *out, const void *bases,
                            size_t base_size, size_t nbases, const uint64_t *density,
                            const uint64_t *scalars, size_t n, const msm_opts_t *opts,
                            msm_witness_stats_t *stats, cuzk_error *err);

/* Bit length of a 256-bit little-endian scalar: 0 for 0, 1 for 1, ..., 255 below r. */
static inline unsigned msm_scalar_bits(const uint64_t s[MSM_SCALAR_LIMBS])
{
    for (int i = MSM_SCALAR_LIMBS - 1; i >= 0; i--)
        if (s[i])
            return 64 * (unsigned)i + 64 - (unsigned)__builtin_clzll(s[i]);
    return 0;
}

/* Set bits among the first n of a density bitmap; whether s < r. */
size_t msm_density_popcount(const uint64_t *density, size_t n);
int msm_scalar_below_r(const uint64_t *s);

/* The split t (0: none) of the witness-aware MSM: pairs of 2..t bits go to a short
 * Pippenger, longer ones to the full one, minimising the planned cost over hist[b] = pairs
 * of bit length b (msm_witness.c). */
unsigned msm_witness_split(const size_t hist[256], msm_group_id id, const msm_opts_t *opts);

/* The witness-aware MSM over sparse scalars (msm.h, msm_g1_witness_sparse). */
cuzk_status msm_run_witness_sparse(const msm_group_t *group, void *out, const void *bases, size_t base_size,
                                   size_t nbases, const uint64_t *density, const msm_sparse_scalars_t *s,
                                   const msm_opts_t *opts, msm_witness_stats_t *stats, cuzk_error *err);

/* Validation shared by both drivers: NULL pointers, density popcount == nbases, every
 * scalar < r (the message names the first bad index). */
cuzk_status msm_check_inputs(void *out, const void *bases, size_t nbases,
                             const uint64_t *density, const uint64_t *scalars, size_t n,
                             cuzk_error *err);

/* One phase of an MSM: the Pippenger sum over the pairs whose scalar bit length lies in
 * [lo_bits, hi_bits] (hi_bits <= 255), planned for `useful` such pairs, or, with
 * lo_bits == hi_bits == 1, the plain sum of the bases whose scalar is 1 (batch-affine
 * accumulators, no windows). With `base_idx` (density NULL) scalar i pairs with
 * bases[base_idx[i]] (a class of pairs gathered by the witness-aware MSM); a sum of ones over
 * base_idx may pass scalars = NULL. Writes the sum
 * to `acc` (Jacobian, any Z, not normalised). Errors: CUZK_E_NOMEM, CUZK_E_CANCELLED (the
 * cancel flag of opts, else the calling thread's, checked before every unit). */
cuzk_status msm_run_phase(const msm_group_t *group, void *acc, const void *bases,
                          size_t base_size, size_t nbases, const uint64_t *density,
                          const uint32_t *base_idx, const uint64_t *scalars, size_t n,
                          unsigned lo_bits, unsigned hi_bits, size_t useful,
                          const msm_opts_t *opts, cuzk_error *err);

/* Plan of one Pippenger phase over scalars of at most `bits` bits (1..255): as msm_plan
 * with ceil((bits + 1) / c) windows; returns the cost-model estimate (field
 * multiplications) of the chosen plan, so callers can compare splits. */
double msm_plan_bits(msm_plan_t *plan, msm_group_id group, size_t n, unsigned bits,
                     const msm_opts_t *opts);

/* Plan of a sum of n bases (scalars all 1): window_bits sets the 2^(c-1) accumulators
 * per unit, chunks the point ranges (windows = 1); returns the cost estimate. */
double msm_plan_sum(msm_plan_t *plan, msm_group_id group, size_t n, const msm_opts_t *opts);

/* Signed Booth digit of window w (width c, 1 <= c <= 31) of a 256-bit little-endian
 * scalar: digit = bits[wc, wc+c) + bit[wc-1] - 2^c * bit[wc+c-1], in [-2^(c-1), 2^(c-1)].
 * Sum over w of digit_w * 2^(wc) equals the scalar whenever c * windows >= 256 and the
 * scalar is < 2^255 (the top bit telescopes out). Reference: Booth, "A signed binary
 * multiplication technique", 1951; blst's booth_encode uses the same digits. */
static inline int32_t msm_booth_digit(const uint64_t s[MSM_SCALAR_LIMBS], unsigned w,
                                      unsigned c)
{
    /* v = bits [wc - 1, wc + c) as a (c + 1)-bit number, with bit -1 = 0. */
    unsigned pos = w * c;
    uint64_t v;
    unsigned len = c + 1;
    if (pos == 0) {
        v = (s[0] << 1);
    } else {
        pos -= 1;
        unsigned limb = pos >> 6, off = pos & 63;
        if (limb >= MSM_SCALAR_LIMBS)
            return 0;
        v = s[limb] >> off;
        if (off + len > 64 && limb + 1 < MSM_SCALAR_LIMBS)
            v |= s[limb + 1] << (64 - off);
    }
    v &= (((uint64_t)1) << len) - 1;
    int64_t d = (int64_t)((v + 1) >> 1) - (int64_t)((v >> c) << c);
    return (int32_t)d;
}

/* Additions per batch-affine batch for nb buckets: the inversion costs a few hundred
 * multiplications, while a larger batch keeps more buckets BUSY, so more points wait in
 * the stash or, once it is full, take the costlier Jacobian overflow. About
 * sqrt(256 * nb), at most 2048 and at most nb / 4 so that a batch can fill (measured at
 * c = 12..16). Below MSM_MIN_BATCH the kernel adds in Jacobian coordinates instead. */
#define MSM_MIN_BATCH 32
static inline size_t msm_batch_cap(size_t nb)
{
    size_t cap = 8;
    while (cap * cap < 256 * nb && cap < 2048)
        cap *= 2;
    while (cap > 1 && cap > nb / 4)
        cap /= 2;
    return cap;
}

/* Largest |digit| msm_booth_digit can return in window w for scalars < 2^bits
 * (1 <= bits <= 255): 2^(c-1) for every window but the top ones, where the digit is at
 * most 2^(bits - c*w) (the bits above bits - 1 are zero); 0 above the scalar. */
static inline uint64_t msm_window_max_digit_bits(unsigned c, unsigned w, unsigned bits)
{
    uint64_t pos = (uint64_t)c * w;
    if (pos > bits)
        return 0;
    unsigned top = bits - (unsigned)pos;
    return top >= c - 1 ? ((uint64_t)1 << (c - 1)) : ((uint64_t)1 << top);
}

/* msm_window_max_digit_bits for full scalars (< r < 2^255). */
static inline uint64_t msm_window_max_digit(unsigned c, unsigned w)
{
    return msm_window_max_digit_bits(c, w, 255);
}

#endif
