/* Generic Montgomery arithmetic over N 64-bit limbs (internal to field/).
 *
 * Every routine is always-inlined with N a compile-time constant at each call site, so the
 * compiler fully unrolls the loops for Fp (N = 6) and Fr (N = 4). Inputs are fully reduced
 * (< m); outputs are fully reduced. Aliasing of r with a or b is allowed.
 *
 * mont_mul is CIOS without the extra carry word (Koc et al. 1996; the "no-carry"
 * condition m[N-1] < 2^63 - 1 holds for both BLS12-381 moduli), so the running product
 * stays in N limbs.
 */
#ifndef CUZK_FIELD_MONT_H
#define CUZK_FIELD_MONT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "field/limb.h"

/* r = a - m if a >= m else a, where a < 2m (a given as N limbs, no extra bit). */
LIMB_INLINE void mont_reduce_once(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t N)
{
    uint64_t t[8], b = 0;
    for (size_t i = 0; i < N; i++)
        t[i] = sbb64(a[i], m[i], b, &b);
    /* b == 1 means a < m: keep a. Select without a branch. */
    uint64_t mask = 0 - b;
    for (size_t i = 0; i < N; i++)
        r[i] = (a[i] & mask) | (t[i] & ~mask);
}

LIMB_INLINE void mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t N)
{
    uint64_t s[8], c = 0;
    for (size_t i = 0; i < N; i++)
        s[i] = adc64(a[i], b[i], c, &c);
    /* both moduli leave a spare top bit, so a + b < 2^(64N) and c == 0 here */
    mont_reduce_once(r, s, m, N);
}

LIMB_INLINE void mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t N)
{
    uint64_t d[8], br = 0, c = 0;
    for (size_t i = 0; i < N; i++)
        d[i] = sbb64(a[i], b[i], br, &br);
    uint64_t mask = 0 - br;
    for (size_t i = 0; i < N; i++)
        r[i] = adc64(d[i], m[i] & mask, c, &c);
}

LIMB_INLINE void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                          uint64_t minv, size_t N)
{
    uint64_t t[8] = {0};
    for (size_t i = 0; i < N; i++) {
        uint64_t A, C, mm;
        t[0] = mac64(&A, a[0], b[i], t[0], 0);
        mm = t[0] * minv;
        (void)mac64(&C, mm, m[0], t[0], 0);
        for (size_t j = 1; j < N; j++) {
            t[j] = mac64(&A, a[j], b[i], t[j], A);
            t[j - 1] = mac64(&C, mm, m[j], t[j], C);
        }
        t[N - 1] = C + A;
    }
    mont_reduce_once(r, t, m, N);
}

/* r[0 .. 2N-1] = a * b, the plain 2N-limb product (schoolbook, operand scanning); r must
 * not overlap a or b. The double-width half of lazy reduction (field/wide.h). */
LIMB_INLINE void mont_mulw(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t N)
{
    for (size_t i = 0; i < 2 * N; i++)
        r[i] = 0;
    for (size_t i = 0; i < N; i++) {
        uint64_t c = 0;
        for (size_t j = 0; j < N; j++)
            r[i + j] = mac64(&c, a[j], b[i], r[i + j], c);
        r[i + N] = c;
    }
}

/* r = t * 2^-64N mod m, fully reduced, for a 2N-limb t < m 2^64N (Montgomery's word-by-word
 * reduction, Math. Comp. 1985): N rounds u = (u + (u_0 minv) m) / 2^64 on the low half
 * (u stays below 2^(64N - 64) + m, and ends at most m), then the high half (< m) is added
 * and one conditional subtraction brings the sum (< 2m) below m. r may alias t. Needs
 * m < 2^(64N - 1), as both BLS12-381 moduli are. */
LIMB_INLINE void mont_redc(uint64_t *r, const uint64_t *t, const uint64_t *m, uint64_t minv, size_t N)
{
    uint64_t u[8], c;
    for (size_t i = 0; i < N; i++)
        u[i] = t[i];
    for (size_t i = 0; i < N; i++) {
        uint64_t C, mm = u[0] * minv;
        (void)mac64(&C, mm, m[0], u[0], 0);
        for (size_t j = 1; j < N; j++)
            u[j - 1] = mac64(&C, mm, m[j], u[j], C);
        u[N - 1] = C;
    }
    c = 0;
    for (size_t i = 0; i < N; i++)
        u[i] = adc64(u[i], t[N + i], c, &c);
    mont_reduce_once(r, u, m, N);
}

LIMB_INLINE bool limbs_is_zero(const uint64_t *a, size_t N)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < N; i++)
        acc |= a[i];
    return acc == 0;
}

/* true iff a < m (canonical check). */
LIMB_INLINE bool limbs_lt(const uint64_t *a, const uint64_t *m, size_t N)
{
    uint64_t b = 0;
    for (size_t i = 0; i < N; i++)
        (void)sbb64(a[i], m[i], b, &b);
    return b != 0;
}

#endif
