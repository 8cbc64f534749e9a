/* Multi-scalar multiplication (MSM) over G1 and G2 of BLS12-381:
 *
 *   out = sum_{i < n} s_i * P_i
 *
 * Algorithm: Pippenger's bucket method (Bernstein et al., "Faster batch forgery
 * identification", INDOCRYPT 2012, §4) with
 *   - signed (Booth) window digits in [-2^(c-1), 2^(c-1)], so each window needs only
 *     2^(c-1) buckets and a negative digit adds -P_i (the same recoding as blst's
 *     booth_encode);
 *   - batch-affine bucket accumulation: the bucket additions of one window are gathered
 *     into batches of independent affine additions that share one field inversion
 *     (Montgomery's trick, "Speeding the Pollard and elliptic curve methods of
 *     factorization", Math. Comp. 1987); a point whose bucket already has an addition
 *     pending waits in a stash for the next batch (or, when the stash is full, goes to a
 *     Jacobian overflow accumulator of that bucket); P + P and P + (-P) are detected
 *     when an addition is queued; details in msm_bucket.inc;
 *   - bucket reduction by running sums, batch-affine over segments of buckets that
 *     advance together (Jacobian for small windows), windows combined by Horner's rule
 *     (c doublings per window);
 *   - hot buckets (boolean or repeated scalars) get spare affine accumulators, so their
 *     additions stay batch-affine;
 *   - threads: the work is cut into units (window, point range); each unit is computed
 *     by one thread; unit results are summed in a fixed order and the result is
 *     normalised (Z = 1), so `out` is bit-identical for every thread count, window size
 *     and chunk count.
 *
 * Shapes and layouts (all functions):
 *   bases    n affine points (g1_affine_t / g2_affine_t, Montgomery coordinates as in
 *            curve/curve.h); the point at infinity is all-zero coordinates. Bases must
 *            be on the curve and in the prime-order subgroup (or infinity); for other
 *            inputs the result is unspecified (but memory-safe). Repeated bases are fine.
 *   scalars  n canonical (NOT Montgomery) integers, 4 x uint64_t each, little-endian
 *            limbs: scalar i is scalars[4*i + 0] (least significant) .. scalars[4*i + 3].
 *            Every scalar must be < r (fr.h); 0 is allowed. Use fr_to_limbs to convert
 *            an fr_t.
 *   out      Jacobian; normalised: either Z = 1 or the infinity of
 *            g1_jac_set_infinity / g2_jac_set_infinity.
 *   n = 0    gives infinity.
 *
 * Errors: CUZK_E_INVALID_ARG (NULL pointer with n > 0, a scalar >= r: the message names
 * the index, a density bitmap whose popcount differs from the base count),
 * CUZK_E_NOMEM, CUZK_E_CANCELLED (msm_opts_t.cancel). On error `out` is untouched.
 * Thread-safety: reentrant; inputs are only read; spawns up to opts->threads - 1
 * pthreads (fewer for small n, see msm_plan) that are joined before return; if a thread
 * cannot be started the others do its share. Ownership: nothing is retained after return.
 * Memory: per thread about 2^(c-1) * (affine + Jacobian point) bytes of buckets
 * (c = 13: 1 MiB for G1, 2 MiB for G2), plus O(windows * chunks) points.
 */
#ifndef CUZK_MSM_MSM_H
#define CUZK_MSM_MSM_H

#include <stddef.h>
#include <stdint.h>

#include "common/cancel.h"
#include "common/status.h"
#include "curve/curve.h"

/* Limbs per scalar in the `scalars` arrays. */
#define MSM_SCALAR_LIMBS 4

/* Tuning knobs; a NULL opts pointer or a zero field means "choose automatically". */
typedef struct {
    unsigned threads;     /* worker threads incl. the caller; 0 = msm_default_threads() */
    unsigned window_bits; /* Pippenger window c in [1, MSM_MAX_WINDOW_BITS]; 0 = planned */
    unsigned chunks;      /* point ranges per window in [1, MSM_MAX_CHUNKS]; 0 = planned */
    /* checked before every work unit (one window of one chunk); once set, the MSM stops
     * and returns CUZK_E_CANCELLED ("msm: cancelled"), `out` untouched. NULL = the calling
     * thread's bound flag (common/cancel.h), none if unbound. */
    const atomic_bool *cancel;
} msm_opts_t;

#define MSM_MAX_WINDOW_BITS 20
#define MSM_MAX_CHUNKS 1024

/* The work split of one MSM, as chosen by msm_plan. */
typedef struct {
    unsigned window_bits; /* c */
    unsigned windows;     /* ceil(256 / c): Booth digits of a 255-bit scalar */
    unsigned chunks;      /* point ranges per window */
    unsigned threads;     /* threads that will run: <= windows * chunks, and fewer for
                             small n (at least ~1024 point-windows per thread) */
} msm_plan_t;

/* Number of online CPUs (sysconf), at least 1. Thread-safe. */
unsigned msm_default_threads(void);

/* Groups, for msm_plan. */
typedef enum { MSM_G1 = 1, MSM_G2 = 2 } msm_group_id;

/* Choose window size and chunking for `n` points of `group` on opts->threads threads
 * (0 = default), honouring non-zero fields of `opts` (may be NULL); minimises a cost
 * model (msm_plan.c) counting bucket additions, running-sum reduction and a cache
 * penalty for bucket arrays beyond L2 size, over the rounds of units that the threads
 * execute. Out-of-range opts fields are clamped. Never fails; thread-safe. msm_g1 etc.
 * use exactly this plan. */
void msm_plan(msm_plan_t *plan, msm_group_id group, size_t n, const msm_opts_t *opts);

/* out = sum s_i * bases[i] over i < n (layouts above). */
cuzk_status msm_g1(g1_jac_t *out, const g1_affine_t *bases, const uint64_t *scalars,
                   size_t n, const msm_opts_t *opts, cuzk_error *err);
cuzk_status msm_g2(g2_jac_t *out, const g2_affine_t *bases, const uint64_t *scalars,
                   size_t n, const msm_opts_t *opts, cuzk_error *err);

/* Density-filtered MSM, bellperson's convention (DensityTracker + multiexp with a
 * density map, bellperson src/multiexp.rs):
 *
 *   out = sum over i < n with bit i set of  s_i * bases[rank(i)]
 *
 * where rank(i) is the number of set bits below i.
 *   density  bitmap over the full assignment, ceil(n / 64) words; bit i is
 *            (density[i / 64] >> (i % 64)) & 1 (least significant bit first); bits at
 *            positions >= n are ignored.
 *   scalars  the full list: n scalars (layout above), one per assignment variable,
 *            including those whose bit is clear (they are ignored but must be < r).
 *   bases    the compacted query: nbases points, one per set bit, in order;
 *            nbases must equal the number of set bits among the first n bits
 *            (CUZK_E_INVALID_ARG otherwise).
 */
cuzk_status msm_g1_density(g1_jac_t *out, const g1_affine_t *bases, size_t nbases,
                           const uint64_t *density, const uint64_t *scalars, size_t n,
                           const msm_opts_t *opts, cuzk_error *err);
cuzk_status msm_g2_density(g2_jac_t *out, const g2_affine_t *bases, size_t nbases,
                           const uint64_t *density, const uint64_t *scalars, size_t n,
                           const msm_opts_t *opts, cuzk_error *err);

/* How a witness-aware MSM split its pairs, by scalar (a pair whose base is at infinity is
 * counted by its scalar and contributes nothing). */
typedef struct {
    size_t zeros;        /* skipped: scalar 0 */
    size_t ones;         /* scalar 1: summed with batch-affine additions */
    size_t small;        /* 2 <= scalar < 2^small_bits: short Pippenger */
    size_t full;         /* the rest: full-length Pippenger */
    unsigned small_bits; /* chosen split; 0 when there is no short Pippenger */
} msm_witness_stats_t;

/* Witness-aware MSM: the same sum, contract, errors and (normalised, bit-identical)
 * output as msm_g1_density (density may be NULL: then nbases must equal n and the MSM
 * is dense, as msm_g1), computed after splitting the pairs by scalar size, for the
 * witness queries of Groth16 where most values are 0 or 1 (boolean gadgets; the
 * queries of bellperson prover/native.rs):
 *   - scalar 0 (or base at infinity): skipped;
 *   - scalar 1: the bases are summed directly, with batch-affine additions into
 *     2^(c-1) accumulators per range of points, no windows;
 *   - 2 <= scalar < 2^t: a short Pippenger over ceil((t + 1) / c) windows;
 *   - the rest: the full Pippenger of msm_g1.
 * The split t (0 = no short part) minimises the planner's cost model (msm_plan) over
 * the bit-length histogram of the scalars, taken in one pass before the sums. opts
 * (threads, window_bits, chunks) applies to every part; `stats` (may be NULL) receives
 * the split. Extra memory: that of the largest part, as msm_g1.
 * Thread-safety and ownership as msm_g1. */
cuzk_status msm_g1_witness(g1_jac_t *out, const g1_affine_t *bases, size_t nbases,
                           const uint64_t *density, const uint64_t *scalars, size_t n,
                           const msm_opts_t *opts, msm_witness_stats_t *stats, cuzk_error *err);
cuzk_status msm_g2_witness(g2_jac_t *out, const g2_affine_t *bases, size_t nbases,
                           const uint64_t *density, const uint64_t *scalars, size_t n,
                           const msm_opts_t *opts, msm_witness_stats_t *stats, cuzk_error *err);

/* A witness in sparse form: n scalars, scalar i being 1 when bit (first + i) of `ones` is
 * set, the next of big_scalars (in index order, counting the `big` bits from `first`) when
 * bit (first + i) of `big` is set, else 0. Both bitmaps cover bits [0, first + n) (LSB
 * first) and never have the same bit set. big_scalars: canonical limbs as above, n_big of
 * them at least as many as the big bits of the range. The form in which the Groth16 prover
 * holds a Filecoin witness (cs/witness.h): two bits a value, full values only for the few
 * that are neither 0 nor 1. */
typedef struct {
    size_t n;
    size_t first;
    const uint64_t *ones, *big;
    const uint64_t *big_scalars;
    size_t n_big;
} msm_sparse_scalars_t;

/* msm_g1_witness / msm_g2_witness over sparse scalars: the same sum, density convention,
 * split and (normalised, bit-identical) result, without ever expanding the scalars: the
 * ones and big scalars are listed from the bitmaps (base indices: 4 bytes per one, 36 per
 * big value) and summed class by class. Errors as msm_g1_witness, and CUZK_E_INVALID_ARG
 * for a scalar marked both 1 and big, fewer big_scalars than big bits, n >= 2^32. */
cuzk_status msm_g1_witness_sparse(g1_jac_t *out, const g1_affine_t *bases, size_t nbases,
                                  const uint64_t *density, const msm_sparse_scalars_t *s,
                                  const msm_opts_t *opts, msm_witness_stats_t *stats, cuzk_error *err);
cuzk_status msm_g2_witness_sparse(g2_jac_t *out, const g2_affine_t *bases, size_t nbases,
                                  const uint64_t *density, const msm_sparse_scalars_t *s,
                                  const msm_opts_t *opts, msm_witness_stats_t *stats, cuzk_error *err);

#endif
