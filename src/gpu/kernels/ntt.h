/* Radix-2^k NTT passes over Fr in group-shared memory, and the element-wise kernels of the
 * Groth16 H polynomial (host side: src/gpu/ntt.h).
 *
 * Decomposition (Cooley-Tukey with N = n1 n2, the "four-step" form of Bailey, "FFTs in external
 * or hierarchical memory", J. Supercomputing 4, 1990): a DFT of size S = 2^s on a contiguous block
 * is n2 = 2^b column DFTs of size n1 = 2^k (b = s - k) over the elements g * 2^b + lo (g < 2^k,
 * fixed lo), each in shared memory with its output bit-reversed, then a multiplication of element
 * (g, lo) by omega_S^(lo * bitrev_k(g)), then 2^k independent DFTs of size 2^b on the contiguous
 * blocks -- the next pass. With every sub-DFT bit-reversed, the whole is the radix-2 decimation-
 * in-frequency network: natural order in, bit-reversed order out (DIF). Its transpose, the same
 * passes in reverse order with the twiddle multiplication before each column DFT and the column
 * DFTs run as decimation-in-time from bit-reversed input, maps bit-reversed input to natural
 * output (DIT). Both are exact, so any such network gives the CPU's bytes.
 *
 * One work-group: NTT_WG_THREADS threads, NTT_WG_ELEMS elements (4 per thread, 2 butterflies per
 * thread per stage) held limb-major in shared memory (conflict-free banks), C = NTT_WG_ELEMS / 2^k
 * consecutive columns, so global loads and stores are runs of consecutive lo.
 * Twiddles: roots[i] = omega_1024^i (i < 512) of the family and direction give every column root
 * omega_{2h}^j = roots[j * 512 / h] (k <= 10); the cross twiddles omega_N^e (e < N = 2^log_n) are
 * tw_lo[e mod 2^split] * tw_hi[e >> split]. All tables are built on the host by the CPU field code
 * and stay on the device per domain (src/gpu/ntt.c).
 */
#ifndef CUZK_GPU_KERNELS_NTT_H
#define CUZK_GPU_KERNELS_NTT_H

#define NTT_WG_THREADS 256
#define NTT_WG_ELEMS 1024
#define NTT_MAX_K 10

DEVICE u32 ntt_bitrev(u32 x, u32 bits)
{
    u32 r = 0;
    for (u32 i = 0; i < bits; i++) {
        r = (r << 1) | (x & 1);
        x >>= 1;
    }
    return r;
}

DEVICE fr_t ntt_sh_load(LOCAL const u32 *sh, u32 i)
{
    fr_t r;
    UNROLL for (int l = 0; l < FR_LIMBS32; l++) r.l[l] = sh[l * NTT_WG_ELEMS + i];
    return r;
}

DEVICE void ntt_sh_store(LOCAL u32 *sh, u32 i, fr_t x)
{
    UNROLL for (int l = 0; l < FR_LIMBS32; l++) sh[l * NTT_WG_ELEMS + i] = x.l[l];
}

/* omega_N^e from the two-level table */
DEVICE fr_t ntt_twiddle(GLOBAL const fr_t *tw_lo, GLOBAL const fr_t *tw_hi, u32 split, u32 e)
{
    return fr_mul(tw_lo[e & ((1u << split) - 1)], tw_hi[e >> split]);
}

/* Global position of element g of column col (blocks of 2^s, columns of stride 2^b, the column's
 * offset in its block lo = col mod 2^b). */
DEVICE u32 ntt_position(u32 col, u32 g, u32 b, u32 s)
{
    return ((col >> b) << s) | (g << b) | (col & ((1u << b) - 1));
}

/* The four-step twiddle of element (g, lo): x omega_N^((lo bitrev_k(g)) 2^shift) */
DEVICE fr_t ntt_cross(fr_t x, u32 lo, u32 g, u32 k, u32 shift, GLOBAL const fr_t *tw_lo, GLOBAL const fr_t *tw_hi,
                      u32 split)
{
    if (lo == 0) /* omega^0 (and every lo when b = 0) */
        return x;
    return fr_mul(x, ntt_twiddle(tw_lo, tw_hi, split, (lo * ntt_bitrev(g, k)) << shift));
}

/* One pass of the network on v (N = 2^log_n elements, in place) for blocks of 2^s elements and
 * columns of 2^k (k <= min(s, 10)); dit = 0: column DIF then twiddles, dit = 1: twiddles then
 * column DIT. When `scale` is set, every element is finally multiplied by
 * sc_lo[i mod 2^split] * sc_hi[i >> split] with i = bitrev(position) over log_n bits (the last DIF
 * pass: i is the coefficient index of the bit-reversed output). Grid: ceil(N / NTT_WG_ELEMS)
 * groups of NTT_WG_THREADS. */
KERNEL void ntt_pass(GLOBAL fr_t *v, GLOBAL const fr_t *roots, GLOBAL const fr_t *tw_lo, GLOBAL const fr_t *tw_hi,
                     GLOBAL const fr_t *sc_lo, GLOBAL const fr_t *sc_hi, u32 log_n, u32 s, u32 k, u32 split, u32 dit,
                     u32 scale)
{
    LOCAL_ARRAY(u32, sh, FR_LIMBS32 * NTT_WG_ELEMS);
    u32 b = s - k;
    u32 logc = 10 - k;                       /* C = 2^logc columns per group */
    u32 ncols = 1u << (log_n - k);
    u32 col0 = GROUP_ID << logc;
    u32 t = LID;

    /* load: local index l = g * C + cc */
    for (u32 r = 0; r < 4; r++) {
        u32 l = t + r * NTT_WG_THREADS, g = l >> logc, col = col0 + (l & ((1u << logc) - 1)), lo;
        if (col < ncols) {
            u32 gi = ntt_position(col, g, b, s);
            lo = col & ((1u << b) - 1);
            fr_t x = v[gi];
            if (dit)
                x = ntt_cross(x, lo, g, k, log_n - s, tw_lo, tw_hi, split);
            ntt_sh_store(sh, l, x);
        }
    }
    BARRIER_LOCAL();

    /* k column stages, 2 butterflies per thread each */
    u32 nb = 1u << (k - 1); /* butterflies per column per stage */
    for (u32 st = 0; st < k; st++) {
        u32 h = dit ? (1u << st) : (nb >> st); /* DIT: h = 1, 2, ...; DIF: h = 2^(k-1), ... */
        u32 logh = dit ? st : (k - 1 - st);
        for (u32 r = 0; r < 2; r++) {
            u32 beta = t + r * NTT_WG_THREADS;   /* butterfly index in [0, 512) */
            u32 cc = beta & ((1u << logc) - 1), p = beta >> logc;
            if (p < nb && col0 + cc < ncols) {
                u32 j = p & (h - 1);
                u32 g = ((p >> logh) << (logh + 1)) | j;
                u32 i0 = (g << logc) | cc, i1 = ((g + h) << logc) | cc;
                fr_t x = ntt_sh_load(sh, i0), y = ntt_sh_load(sh, i1);
                fr_t w = roots[j << (9 - logh)];  /* omega_{2h}^j = omega_1024^(j * 512 / h) */
                if (dit) {
                    y = fr_mul(y, w);
                    ntt_sh_store(sh, i0, fr_add(x, y));
                    ntt_sh_store(sh, i1, fr_sub(x, y));
                } else {
                    ntt_sh_store(sh, i0, fr_add(x, y));
                    ntt_sh_store(sh, i1, fr_mul(fr_sub(x, y), w));
                }
            }
        }
        BARRIER_LOCAL();
    }

    /* store */
    for (u32 r = 0; r < 4; r++) {
        u32 l = t + r * NTT_WG_THREADS, g = l >> logc, col = col0 + (l & ((1u << logc) - 1)), lo;
        if (col < ncols) {
            u32 gi = ntt_position(col, g, b, s);
            lo = col & ((1u << b) - 1);
            fr_t x = ntt_sh_load(sh, l);
            if (!dit)
                x = ntt_cross(x, lo, g, k, log_n - s, tw_lo, tw_hi, split);
            if (scale)
                x = fr_mul(x, ntt_twiddle(sc_lo, sc_hi, split, ntt_bitrev(gi, log_n)));
            v[gi] = x;
        }
    }
}

/* v[pos] *= sc_lo[i mod 2^split] * sc_hi[i >> split], i = pos (rev = 0) or bitrev(pos) over log_n
 * bits (rev = 1), for pos < n. */
KERNEL void ntt_scale(GLOBAL fr_t *v, GLOBAL const fr_t *sc_lo, GLOBAL const fr_t *sc_hi, u32 log_n, u32 split,
                      u32 rev, u32 n)
{
    u32 pos = GID;
    if (pos >= n)
        return;
    u32 i = rev ? ntt_bitrev(pos, log_n) : pos;
    v[pos] = fr_mul(v[pos], ntt_twiddle(sc_lo, sc_hi, split, i));
}

/* In-place bit-reversal permutation of n = 2^log_n elements: each pair swapped once. */
KERNEL void ntt_bitrev_permute(GLOBAL fr_t *v, u32 log_n, u32 n)
{
    u32 i = GID;
    if (i >= n)
        return;
    u32 j = ntt_bitrev(i, log_n);
    if (i < j) {
        fr_t x = v[i];
        v[i] = v[j];
        v[j] = x;
    }
}

/* a[i] = a[i] b[i] - c[i] for i < n (the H numerator on the coset) */
KERNEL void ntt_ab_minus_c(GLOBAL fr_t *a, GLOBAL const fr_t *b, GLOBAL const fr_t *c, u32 n)
{
    u32 i = GID;
    if (i < n)
        a[i] = fr_sub(fr_mul(a[i], b[i]), c[i]);
}

/* v[i] = canonical (non-Montgomery) form of v[i], for i < n: the H scalars for an MSM that reads
 * canonical digits. */
KERNEL void fr_from_mont_n(GLOBAL fr_t *v, u32 n)
{
    u32 i = GID;
    if (i < n)
        v[i] = fr_from_mont(v[i]);
}

#endif
