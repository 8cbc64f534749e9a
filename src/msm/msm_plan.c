/* Work planning for the MSM: window size c and point ranges per window.
 *
 * Cost model, in units of one field multiplication (Fp, and Fp2 scaled alike):
 *   unit(c, k) = (n / k) * add(c) + 2^(c-1) * reduce(c) + UNIT_FIXED
 *   total      = ceil(windows(c) * k / T) * unit(c, k),  windows(c) = ceil((bits + 1) / c)
 * with bits = 255 for full scalars and less for the short part of the witness-aware MSM
 * (msm_plan_bits). A sum of bases (the scalars 1, msm_plan_sum) has one window: each point
 * is one addition into accumulators taken in turn, plus one Jacobian addition per
 * accumulator at the end.
 * add(c): one bucket addition; batch-affine (5M + 1S, field additions, a 1/cap share of
 * the batch inversion) when the batch is large enough (msm_batch_cap), else a mixed
 * Jacobian addition (7M + 4S plus field additions). reduce(c) per bucket: two
 * batch-affine additions in batches of cap / 4 plus the segment tail (msm_bucket.inc,
 * reduce_affine), or one mixed plus one full Jacobian addition (REDUCE_JACOBIAN) for
 * small windows; UNIT_FIXED: final inversions, bucket reset. This is Pippenger's classic
 * trade-off (Bernstein et al. 2012, §4) with threads executing whole units. Bucket arrays
 * beyond CACHE_BYTES cost CACHE_PENALTY more per addition for every doubling of their size
 * (random bucket accesses leave L2; fitted to G1 runs at 2^16..2^18 with c = 12..15 on a
 * 1 MiB L2).
 */
#include <unistd.h>

#include "msm/msm.h"
#include "msm/msm_internal.h"

#define COST_AFFINE_ADD 7.0
#define COST_INVERSION 550.0
#define COST_JACOBIAN_ADD 15.0
#define COST_REDUCE_JACOBIAN 30.0
#define COST_SEGMENT_TAIL 42.0
#define COST_UNIT_FIXED 1200.0
#define CACHE_BYTES (512.0 * 1024)
#define CACHE_PENALTY 1.0
/* Automatic planning stays at or below this window so one thread's buckets
 * (2^(c-1) affine points plus overflow accumulators) stay cache-sized. */
#define AUTO_MAX_WINDOW_BITS 16
#define MIN_POINTS_PER_THREAD 1024
#define SUM_MAX_BITS 14
#define SUM_POINTS_PER_ACC 16

unsigned msm_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 1 ? (unsigned)n : 1;
}

/* Booth windows for scalars of at most `bits` bits: c * windows >= bits + 1. */
static unsigned windows_for(unsigned c, unsigned bits) { return (bits + c) / c; }

/* Cost of one batch-affine or Jacobian bucket addition for 2^(c-1) buckets of
 * point_bytes, cache penalty included. */
static double add_cost(unsigned c, size_t point_bytes)
{
    size_t nb = (size_t)1 << (c - 1), cap = msm_batch_cap(nb);
    double add = cap >= MSM_MIN_BATCH ? COST_AFFINE_ADD + COST_INVERSION / (double)cap
                                      : COST_JACOBIAN_ADD;
    /* (math.h is avoided: its FP_ZERO macro clashes with field/fp.h) */
    for (double bytes = (double)nb * (double)point_bytes; bytes > CACHE_BYTES; bytes /= 2)
        add += CACHE_PENALTY;
    return add;
}

static double plan_cost(size_t n, unsigned c, unsigned k, unsigned threads, size_t point_bytes,
                        unsigned bits)
{
    size_t units = (size_t)windows_for(c, bits) * k;
    size_t rounds = (units + threads - 1) / threads;
    size_t nb = (size_t)1 << (c - 1), cap = msm_batch_cap(nb);
    double add = add_cost(c, point_bytes);
    double reduce = COST_REDUCE_JACOBIAN;
    if (cap >= MSM_MIN_BATCH) {
        double segments = (double)(cap / 4);
        reduce = 2 * (COST_AFFINE_ADD + COST_INVERSION / segments) +
                 COST_SEGMENT_TAIL * segments / (double)nb;
    }
    double unit = (double)n / k * add + (double)nb * reduce + COST_UNIT_FIXED;
    return (double)rounds * unit;
}

static size_t point_bytes_of(msm_group_id group)
{
    return group == MSM_G2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
}

/* Thread count, forced window (0 = free) and forced chunk count (0 = free) of opts. */
static void opts_fields(const msm_opts_t *opts, unsigned *threads, unsigned *fixed_c,
                        unsigned *fixed_k)
{
    *threads = opts && opts->threads ? opts->threads : msm_default_threads();
    *fixed_c = opts ? opts->window_bits : 0;
    *fixed_k = opts ? opts->chunks : 0;
    if (*fixed_c > MSM_MAX_WINDOW_BITS)
        *fixed_c = MSM_MAX_WINDOW_BITS;
    if (*fixed_k > MSM_MAX_CHUNKS)
        *fixed_k = MSM_MAX_CHUNKS;
}

/* Fewer threads for small work: at least MIN_POINTS_PER_THREAD point-windows each. */
static unsigned threads_for(size_t units, size_t point_windows, unsigned threads)
{
    size_t useful = point_windows / MIN_POINTS_PER_THREAD;
    if (units > useful)
        units = useful ? useful : 1;
    return units < threads ? (unsigned)units : threads;
}

void msm_plan(msm_plan_t *plan, msm_group_id group, size_t n, const msm_opts_t *opts)
{
    (void)msm_plan_bits(plan, group, n, 255, opts);
}

double msm_plan_bits(msm_plan_t *plan, msm_group_id group, size_t n, unsigned bits,
                     const msm_opts_t *opts)
{
    size_t point_bytes = point_bytes_of(group);
    unsigned threads, fixed_c, fixed_k;
    opts_fields(opts, &threads, &fixed_c, &fixed_k);

    unsigned c_lo = fixed_c ? fixed_c : 1, c_hi = fixed_c ? fixed_c : AUTO_MAX_WINDOW_BITS;
    /* More ranges than points, or many more than threads, only add reductions. */
    size_t k_cap = 4 * (size_t)threads;
    if (k_cap > n)
        k_cap = n ? n : 1;
    if (k_cap > MSM_MAX_CHUNKS)
        k_cap = MSM_MAX_CHUNKS;
    unsigned k_lo = fixed_k ? fixed_k : 1, k_hi = fixed_k ? fixed_k : (unsigned)k_cap;

    unsigned best_c = c_lo, best_k = k_lo;
    double best = -1.0;
    for (unsigned c = c_lo; c <= c_hi; c++) {
        for (unsigned k = k_lo; k <= k_hi; k++) {
            double cost = plan_cost(n, c, k, threads, point_bytes, bits);
            if (best < 0 || cost < best) {
                best = cost;
                best_c = c;
                best_k = k;
            }
        }
    }
    plan->window_bits = best_c;
    plan->windows = windows_for(best_c, bits);
    plan->chunks = best_k;
    /* A thread start costs about as much as a few hundred bucket additions: small MSMs
     * use fewer threads (at least MIN_POINTS_PER_THREAD points each). */
    plan->threads = threads_for((size_t)plan->windows * best_k, n * plan->windows, threads);
    return best;
}

double msm_plan_sum(msm_plan_t *plan, msm_group_id group, size_t n, const msm_opts_t *opts)
{
    size_t point_bytes = point_bytes_of(group);
    unsigned threads, fixed_c, fixed_k;
    opts_fields(opts, &threads, &fixed_c, &fixed_k);
    /* Every point is one addition into one of 2^(c-1) accumulators taken in turn, so
     * batches never wait for a busy one; more accumulators give larger batches (cheaper
     * inversions) but cost one Jacobian addition each at the end: c up to SUM_MAX_BITS
     * with at least SUM_POINTS_PER_ACC points per accumulator. */
    size_t k = fixed_k ? fixed_k : 2 * (size_t)threads;
    if (!fixed_k && k > n / MIN_POINTS_PER_THREAD)
        k = n / MIN_POINTS_PER_THREAD ? n / MIN_POINTS_PER_THREAD : 1;
    unsigned c = fixed_c;
    if (!c)
        for (c = 1; c < SUM_MAX_BITS && ((size_t)1 << c) * SUM_POINTS_PER_ACC <= n / k; c++)
            ;
    size_t nb = (size_t)1 << (c - 1);
    plan->window_bits = c;
    plan->windows = 1;
    plan->chunks = (unsigned)k;
    plan->threads = threads_for(k, n, threads);
    size_t rounds = (k + plan->threads - 1) / plan->threads;
    return (double)rounds * ((double)n / (double)k * add_cost(c, point_bytes) +
                             (double)nb * COST_JACOBIAN_ADD + COST_UNIT_FIXED);
}
