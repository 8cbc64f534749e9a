/* G1 multi-scalar multiplication on the device: the kernels of the witness-aware Pippenger
 * of src/gpu/msm.h (host side and the order of the steps: src/gpu/msm.c).
 *
 * Scalars are canonical integers (not Montgomery), 8 little-endian 32-bit limbs each, read
 * through the fr_t struct; bases are affine (g1.h). Per chunk of scalars:
 *   msm_gather_scalars  (density-indexed MSMs only) the chunk's scalars picked from the full
 *                    witness by the dense bases' variable indices
 *   msm_classify     zeros skipped, ones listed (summed by g1_affine_add_pairs after
 *                    msm_gather), the rest ("large") listed; a scalar >= r is reported
 *   msm_histogram    for each large scalar and window its signed digit (Booth recoding, the
 *                    CPU's msm_booth_digit in src/msm/msm_internal.h, as blst's
 *                    booth_encode), counted per (window, |digit|) bucket
 *   msm_scan_tiles / msm_scan_add   exclusive prefix sum of the bucket counts (bucket offsets)
 *   msm_scatter      the (bucket, signed point index) pairs sorted by bucket (counting sort;
 *                    the order inside a bucket depends on the atomics, the sum does not)
 *   msm_accumulate   fixed-length runs of the sorted pairs, one per work-item (balanced for
 *                    any bucket sizes), summed in XYZZ with mixed additions; a bucket wholly
 *                    inside a run is written, the pieces of a bucket cut by run boundaries are
 *                    left per run and msm_bucket_fixup adds them
 *   msm_reduce       the running-sum reduction sum_j (j + 1) B_j of each window, split into
 *                    segments of buckets: segment [lo, hi) gives sum_j (j - lo + 1) B_j plus
 *                    lo * sum_j B_j
 *   msm_sum_groups   the segments of each window summed on the device, a group at a time,
 *                    until a few per window are left; those and the windows combined on the host
 * Reference for the method: Pippenger's bucket method as in Bernstein et al., "Faster batch
 * forgery identification" (INDOCRYPT 2012, section 4); the sort-then-accumulate layout is that
 * of sppark's msm/pippenger.cuh (digits, sort, per-bucket sums, reduction).
 */
#ifndef CUZK_GPU_KERNELS_MSM_H
#define CUZK_GPU_KERNELS_MSM_H

#define MSM_SCAN_THREADS 256
#define MSM_SCAN_TILE 1024 /* elements per work-group of msm_scan_tiles: 4 per thread */
#define MSM_NEG 0x80000000u /* sign bit of a sorted point index: add -P */

/* The point additions of the kernels below: each kernel calls one of them at exactly one site
 * (loops that need two different additions, as msm_reduce's, run them through one site), so
 * CUDA inlines one copy per kernel -- no call passing 192-byte XYZZ points by value through
 * the stack -- and OpenCL compiles one shared copy (DEVICE_SHARED). */
DEVICE_SHARED g1_xyzz_t msm_xyzz_add_(g1_xyzz_t p, g1_xyzz_t q)
{
    return g1_xyzz_add(p, q);
}

DEVICE_SHARED g1_xyzz_t msm_xyzz_madd_(g1_xyzz_t p, g1_affine_t q)
{
    return g1_xyzz_add_affine(p, q);
}

/* Signed window digit w (width c <= 30) of the canonical scalar s:
 * bits [wc, wc + c) + bit (wc - 1) - 2^c bit (wc + c - 1), in [-2^(c-1), 2^(c-1)]. */
DEVICE int msm_booth_digit(fr_t s, u32 w, u32 c)
{
    u32 pos = w * c;
    u64 v;
    if (pos == 0) {
        v = (u64)s.l[0] << 1;
    } else {
        pos -= 1;
        u32 limb = pos >> 5, off = pos & 31;
        if (limb >= FR_LIMBS32)
            return 0;
        u64 hi = limb + 1 < FR_LIMBS32 ? (u64)s.l[limb + 1] : 0;
        v = ((u64)s.l[limb] | (hi << 32)) >> off;
    }
    v &= ((u64)1 << (c + 1)) - 1;
    return (int)((v + 1) >> 1) - (int)((v >> c) << c);
}

/* For i < n, scalar s = scalars[soff + i]: s >= r sets ctr[2] to the smallest such i;
 * s = 0 is skipped; s = 1 appends i to ones (count in ctr[0]); otherwise i goes to big
 * (count in ctr[1]). ctr must start as {0, 0, 0xffffffff}. */
KERNEL void msm_classify(GLOBAL const fr_t *scalars, u32 soff, u32 n, GLOBAL u32 *ones, GLOBAL u32 *big,
                         GLOBAL u32 *ctr)
{
    u32 i = GID;
    if (i >= n)
        return;
    fr_t s = scalars[soff + i];
    if (!fr_lt_mod(s)) {
        ATOMIC_MIN_U32(&ctr[2], i);
        return;
    }
    u32 high = 0;
    UNROLL for (int l = 1; l < FR_LIMBS32; l++) high |= s.l[l];
    if (high == 0 && s.l[0] <= 1) {
        if (s.l[0] == 1)
            ones[ATOMIC_ADD_U32(&ctr[0], 1)] = i;
        return;
    }
    big[ATOMIC_ADD_U32(&ctr[1], 1)] = i;
}

/* The density-selected scalars of one chunk: out[k] = scalars[sfirst + index[i0 + k]] for
 * k < n (index: the variable of each dense base, gpu_msm_density_index). An index >= nscalars
 * sets ctr[3] to the smallest such k (ctr[3] must start as 0xffffffff) and gives zero. */
KERNEL void msm_gather_scalars(GLOBAL const fr_t *scalars, u32 sfirst, u32 nscalars, GLOBAL const u32 *index,
                               u32 i0, u32 n, GLOBAL fr_t *out, GLOBAL u32 *ctr)
{
    u32 k = GID;
    if (k >= n)
        return;
    u32 j = index[i0 + k];
    if (j >= nscalars) {
        ATOMIC_MIN_U32(&ctr[3], k);
        out[k] = fr_zero();
        return;
    }
    out[k] = scalars[sfirst + j];
}

/* out[k] = bases[base0 + idx[k]] for k < n */
KERNEL void msm_gather(GLOBAL const g1_affine_t *bases, u32 base0, GLOBAL const u32 *idx, u32 n,
                       GLOBAL g1_affine_t *out)
{
    u32 k = GID;
    if (k < n)
        out[k] = bases[base0 + idx[k]];
}

/* count[w 2^(c-1) + |d| - 1] += 1 for every non-zero digit d of window w < windows of the
 * large scalars k < m of the batch (scalar scalars[soff + big[j0 + k]]). */
KERNEL void msm_histogram(GLOBAL const fr_t *scalars, u32 soff, GLOBAL const u32 *big, u32 j0, u32 m, u32 c,
                          u32 windows, GLOBAL u32 *count)
{
    u32 k = GID;
    if (k >= m)
        return;
    fr_t s = scalars[soff + big[j0 + k]];
    u32 nb = 1u << (c - 1);
    for (u32 w = 0; w < windows; w++) {
        int d = msm_booth_digit(s, w, c);
        if (d != 0)
            ATOMIC_ADD_U32(&count[w * nb + (u32)(d < 0 ? -d : d) - 1], 1);
    }
}

/* The pairs of msm_histogram's digits placed by bucket: for each, pos = cursor[bucket]++
 * (cursor starts as the exclusive prefix sum of the counts), keys[pos] = bucket,
 * vals[pos] = the scalar's index in the chunk | MSM_NEG for a negative digit. */
KERNEL void msm_scatter(GLOBAL const fr_t *scalars, u32 soff, GLOBAL const u32 *big, u32 j0, u32 m, u32 c,
                        u32 windows, GLOBAL u32 *cursor, GLOBAL u32 *keys, GLOBAL u32 *vals)
{
    u32 k = GID;
    if (k >= m)
        return;
    u32 i = big[j0 + k];
    fr_t s = scalars[soff + i];
    u32 nb = 1u << (c - 1);
    for (u32 w = 0; w < windows; w++) {
        int d = msm_booth_digit(s, w, c);
        if (d == 0)
            continue;
        u32 key = w * nb + (u32)(d < 0 ? -d : d) - 1;
        u32 pos = ATOMIC_ADD_U32(&cursor[key], 1);
        keys[pos] = key;
        vals[pos] = i | (d < 0 ? MSM_NEG : 0u);
    }
}

/* Exclusive prefix sum, tile by tile: out[i] = sum of in[j] for j < i in i's tile of
 * MSM_SCAN_TILE elements (i < n), sums[tile] = the tile's total. in and out may be the same
 * buffer. Grid: ceil(n / MSM_SCAN_TILE) groups of MSM_SCAN_THREADS. */
KERNEL void msm_scan_tiles(GLOBAL const u32 *in, GLOBAL u32 *out, u32 n, GLOBAL u32 *sums)
{
    LOCAL_ARRAY(u32, sh, 2 * MSM_SCAN_THREADS);
    u32 t = LID, base = GROUP_ID * MSM_SCAN_TILE + t * 4;
    u32 x0 = base < n ? in[base] : 0;
    u32 x1 = base + 1 < n ? in[base + 1] : 0;
    u32 x2 = base + 2 < n ? in[base + 2] : 0;
    u32 x3 = base + 3 < n ? in[base + 3] : 0;
    u32 tot = x0 + x1 + x2 + x3;
    sh[t] = tot;
    BARRIER_LOCAL();
    u32 src = 0; /* Hillis-Steele inclusive scan of the per-thread totals, double-buffered */
    for (u32 d = 1; d < MSM_SCAN_THREADS; d <<= 1) {
        u32 v = sh[src * MSM_SCAN_THREADS + t];
        if (t >= d)
            v += sh[src * MSM_SCAN_THREADS + t - d];
        sh[(src ^ 1) * MSM_SCAN_THREADS + t] = v;
        src ^= 1;
        BARRIER_LOCAL();
    }
    u32 incl = sh[src * MSM_SCAN_THREADS + t], run = incl - tot;
    if (base < n)
        out[base] = run;
    run += x0;
    if (base + 1 < n)
        out[base + 1] = run;
    run += x1;
    if (base + 2 < n)
        out[base + 2] = run;
    run += x2;
    if (base + 3 < n)
        out[base + 3] = run;
    if (t == MSM_SCAN_THREADS - 1)
        sums[GROUP_ID] = incl;
}

/* out[i] += sums[i / MSM_SCAN_TILE] for i < n (the tile offsets, once sums is scanned) */
KERNEL void msm_scan_add(GLOBAL u32 *out, u32 n, GLOBAL const u32 *sums)
{
    u32 i = GID;
    if (i < n)
        out[i] += sums[i / MSM_SCAN_TILE];
}

/* Work-item t sums the sorted pairs [t seg, (t + 1) seg) below total, total = offs[nbk]
 * (the scan's last entry), bucket by bucket: bucket[key] = its sum when the bucket lies wholly
 * in the range; otherwise the piece goes to part_first[t] when it starts the range, else to
 * part_last[t] (it ends the range). */
KERNEL void msm_accumulate(GLOBAL const g1_affine_t *bases, u32 base0, GLOBAL const u32 *keys,
                           GLOBAL const u32 *vals, u32 nbk, u32 seg, GLOBAL const u32 *offs,
                           GLOBAL const u32 *count, GLOBAL g1_xyzz_t *buckets, GLOBAL g1_xyzz_t *part_first,
                           GLOBAL g1_xyzz_t *part_last)
{
    u32 t = GID, total = offs[nbk];
    u64 lo64 = (u64)t * seg;
    if (lo64 >= total)
        return;
    u32 lo = (u32)lo64, hi = total - lo < seg ? total : lo + seg;
    for (u32 a = lo; a < hi;) {
        u32 key = keys[a];
        u32 bstart = offs[key], bend = bstart + count[key];
        u32 e = bend < hi ? bend : hi;
        g1_xyzz_t acc = g1_xyzz_infinity();
        for (u32 j = a; j < e; j++) {
            u32 v = vals[j];
            g1_affine_t p = bases[base0 + (v & ~MSM_NEG)];
            if (v & MSM_NEG)
                p = g1_affine_neg(p);
            acc = msm_xyzz_madd_(acc, p);
        }
        if (a == bstart && e == bend)
            buckets[key] = acc;
        else if (a == lo)
            part_first[t] = acc;
        else
            part_last[t] = acc;
        a = e;
    }
}

/* For each bucket b < nbk: infinity when empty; when msm_accumulate's runs of seg pairs cut
 * it, the sum of its pieces (the first run's part, then part_first of every later run). */
KERNEL void msm_bucket_fixup(GLOBAL const u32 *offs, GLOBAL const u32 *count, u32 nbk, u32 seg,
                             GLOBAL const g1_xyzz_t *part_first, GLOBAL const g1_xyzz_t *part_last,
                             GLOBAL g1_xyzz_t *buckets)
{
    u32 b = GID;
    if (b >= nbk)
        return;
    u32 cnt = count[b];
    if (cnt == 0) {
        buckets[b] = g1_xyzz_infinity();
        return;
    }
    u32 s = offs[b], t0 = s / seg, t1 = (s + cnt - 1) / seg;
    if (t0 == t1)
        return; /* written whole by msm_accumulate */
    g1_xyzz_t acc = s == t0 * seg ? part_first[t0] : part_last[t0];
    for (u32 t = t0 + 1; t <= t1; t++)
        acc = msm_xyzz_add_(acc, part_first[t]);
    buckets[b] = acc;
}

/* msm_reduce keeps its three running points in group-shared memory, limb-major by work-item
 * (conflict-free banks), so only the two operands of its one addition live in registers. */
#define MSM_REDUCE_THREADS 64 /* work-items per group of msm_reduce: the host's MSM_GROUP */
#define MSM_XYZZ_WORDS (4 * FP_LIMBS32)

DEVICE g1_xyzz_t msm_sh_get_(LOCAL const u32 *sh, u32 k, u32 t)
{
    g1_xyzz_t p;
    LOCAL const u32 *q = sh + k * MSM_XYZZ_WORDS * MSM_REDUCE_THREADS + t;
    UNROLL for (int l = 0; l < FP_LIMBS32; l++) {
        p.x.l[l] = q[(0 * FP_LIMBS32 + l) * MSM_REDUCE_THREADS];
        p.y.l[l] = q[(1 * FP_LIMBS32 + l) * MSM_REDUCE_THREADS];
        p.zz.l[l] = q[(2 * FP_LIMBS32 + l) * MSM_REDUCE_THREADS];
        p.zzz.l[l] = q[(3 * FP_LIMBS32 + l) * MSM_REDUCE_THREADS];
    }
    return p;
}

DEVICE void msm_sh_set_(LOCAL u32 *sh, u32 k, u32 t, g1_xyzz_t p)
{
    LOCAL u32 *q = sh + k * MSM_XYZZ_WORDS * MSM_REDUCE_THREADS + t;
    UNROLL for (int l = 0; l < FP_LIMBS32; l++) {
        q[(0 * FP_LIMBS32 + l) * MSM_REDUCE_THREADS] = p.x.l[l];
        q[(1 * FP_LIMBS32 + l) * MSM_REDUCE_THREADS] = p.y.l[l];
        q[(2 * FP_LIMBS32 + l) * MSM_REDUCE_THREADS] = p.zz.l[l];
        q[(3 * FP_LIMBS32 + l) * MSM_REDUCE_THREADS] = p.zzz.l[l];
    }
}

/* Segment p < nseg of window w < windows (item w nseg + p), buckets [lo, hi) with lo = p len,
 * hi = min(lo + len, nb), bucket j of weight j + 1:
 *   out[w nseg + p] = sum_{lo <= j < hi} (j + 1) B_j = running sums + lo sum_j B_j.
 * Every step is one XYZZ addition x + y (g1_xyzz_add doubles equal inputs) of the points
 * SUM, RUN, M (shared memory) and the bucket B_j:
 *   for j = hi - 1 down to lo: SUM += B_j, RUN += SUM;
 *   when lo > 0, M = lo SUM by double-and-add from the top bit of lo (M += M for every bit
 *   after the top one, M += SUM for every set bit), then RUN += M.
 * Launch with groups of MSM_REDUCE_THREADS. */
#define MSM_R_SUM 0u
#define MSM_R_RUN 1u
#define MSM_R_M 2u
#define MSM_R_BUCKET 3u
KERNEL void msm_reduce(GLOBAL const g1_xyzz_t *buckets, u32 nb, u32 windows, u32 len, u32 nseg,
                       GLOBAL g1_xyzz_t *out)
{
    LOCAL_ARRAY(u32, sh, 3 * MSM_XYZZ_WORDS * MSM_REDUCE_THREADS);
    u32 id = GID, t = LID;
    if (id >= windows * nseg)
        return;
    u32 w = id / nseg, p = id % nseg;
    u32 lo = p * len, hi = nb - lo < len ? nb : lo + len;
    GLOBAL const g1_xyzz_t *b = buckets + (u64)w * nb;
    g1_xyzz_t inf = g1_xyzz_infinity();
    msm_sh_set_(sh, MSM_R_SUM, t, inf);
    msm_sh_set_(sh, MSM_R_RUN, t, inf);
    msm_sh_set_(sh, MSM_R_M, t, inf);
    u32 nrun = 2 * (hi - lo), step = 0, j = 0;
    u32 i = 0; /* bits of lo still to consume: bit i - 1 next */
    while (i < 32 && (lo >> i))
        i++;
    u32 need_dbl = 0, tail = lo != 0;
    for (;;) {
        u32 xi, yi;
        if (step < nrun) {
            xi = (step & 1) ? MSM_R_RUN : MSM_R_SUM;
            yi = (step & 1) ? MSM_R_SUM : MSM_R_BUCKET;
            j = hi - 1 - (step >> 1);
            step++;
        } else if (i > 0) {
            if (need_dbl) {
                xi = MSM_R_M;
                yi = MSM_R_M;
                need_dbl = 0;
            } else {
                i--;
                need_dbl = i > 0; /* every later bit starts with M += M */
                if (!((lo >> i) & 1))
                    continue;
                xi = MSM_R_M;
                yi = MSM_R_SUM;
            }
        } else if (tail) {
            xi = MSM_R_RUN;
            yi = MSM_R_M;
            tail = 0;
        } else {
            break;
        }
        g1_xyzz_t x = msm_sh_get_(sh, xi, t);
        g1_xyzz_t y = yi == MSM_R_BUCKET ? b[j] : msm_sh_get_(sh, yi, t);
        msm_sh_set_(sh, xi, t, msm_xyzz_add_(x, y));
    }
    out[id] = msm_sh_get_(sh, MSM_R_RUN, t);
}

/* The segment sums of each window added on the device, g at a time: for w < windows and
 * k < nout = ceil(nin / g), out[w nout + k] = sum of in[w nin + i] over k g <= i < min((k + 1) g, nin).
 * The host repeats it until a few sums per window are left (msm_reduce's segments, thousands
 * per window on a large device, are otherwise each one host addition). */
KERNEL void msm_sum_groups(GLOBAL const g1_xyzz_t *in, u32 nin, u32 windows, u32 g, GLOBAL g1_xyzz_t *out)
{
    u32 id = GID, nout = (nin + g - 1) / g;
    if (id >= windows * nout)
        return;
    u32 w = id / nout, k = id % nout;
    u32 lo = k * g, hi = nin - lo < g ? nin : lo + g;
    GLOBAL const g1_xyzz_t *v = in + (u64)w * nin;
    g1_xyzz_t acc = v[lo];
    for (u32 i = lo + 1; i < hi; i++)
        acc = msm_xyzz_add_(acc, v[i]);
    out[id] = acc;
}

#endif
