/* NTT butterflies on 8 lanes with AVX-512 IFMA (field/frv_ifma.h); contracts in
 * ntt_engine.h. Compiled with CUZK_IFMA_FLAGS, called only when cuzk_cpu_use_ifma().
 * Butterfly (x, y) <- (x + w y, x - w y) on fully reduced values: t = w y < 1.03 r, so
 * x + t < 2.03 r and x - t + 2r < 3 r, both fully reduced by two conditional subtractions;
 * bit-identical to the scalar butterfly. */
#include "field/frv_ifma.h"
#include "poly/ntt_engine.h"

size_t ntt_ifma_twiddle_bytes(size_t cnt)
{
    return (cnt + FRV_LANES - 1) / FRV_LANES * sizeof(frv_t);
}

void ntt_ifma_twiddles(void *w8, const fr_t *tw, size_t cnt, bool scaled)
{
    frv_t *out = w8;
    fr_t buf[FRV_LANES];
    for (size_t c = 0; c < cnt; c += FRV_LANES) {
        for (size_t l = 0; l < FRV_LANES; l++) {
            const fr_t *w = c + l < cnt ? &tw[c + l] : &FR_ZERO;
            if (scaled)
                buf[l] = *w;
            else
                fr_mul(&buf[l], w, &NTT_IFMA_SIXTEEN);
        }
        frv_load(&out[c / FRV_LANES], buf);
    }
}

void ntt_ifma_butterflies(fr_t *x, fr_t *y, const void *w8, size_t cnt)
{
    const frv_t *w = w8;
    for (size_t c = 0; c < cnt; c += FRV_LANES) {
        frv_t a, b, t, s, d;
        frv_load(&a, x + c);
        frv_load(&b, y + c);
        frv_mul_r260(&t, &b, &w[c / FRV_LANES]);
        frv_add(&s, &a, &t);
        frv_reduce3(&s);
        frv_sub_k(&d, &a, &t, FRV_2R);
        frv_reduce3(&d);
        frv_store(x + c, &s);
        frv_store(y + c, &d);
    }
}

const fr_t NTT_IFMA_SIXTEEN = {{0x00000022ffffffddULL, 0x8d12939700396c23ULL, 0xff1776e6aedf7745ULL,
                                0x26821fa14f77df20ULL}};
