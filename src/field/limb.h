/* 64-bit limb primitives for the Montgomery arithmetic (internal to field/).
 *
 * CUZK_FIELD_PORTABLE selects plain C built from 32x32->64 products (any C11 compiler);
 * otherwise unsigned __int128 is used, which gcc/clang lower to mul/mulx and adc on
 * x86-64. Both give identical results; the field tests run against both builds.
 */
#ifndef CUZK_FIELD_LIMB_H
#define CUZK_FIELD_LIMB_H

#include <stdint.h>

#define LIMB_INLINE static inline __attribute__((always_inline))

#ifdef CUZK_FIELD_PORTABLE
/* (hi, lo) = a * b + c + d; cannot overflow 128 bits. */
LIMB_INLINE uint64_t mac64(uint64_t *hi, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    uint64_t lo = (mid << 32) | (uint32_t)p00;
    uint64_t h = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    lo += c;
    h += lo < c;
    lo += d;
    h += lo < d;
    *hi = h;
    return lo;
}

/* r = a + b + carry_in; *carry_out in {0, 1}. */
LIMB_INLINE uint64_t adc64(uint64_t a, uint64_t b, uint64_t cin, uint64_t *cout)
{
    uint64_t s = a + b;
    uint64_t c = s < a;
    uint64_t t = s + cin;
    c += t < s;
    *cout = c;
    return t;
}

/* r = a - b - borrow_in; *borrow_out in {0, 1}. */
LIMB_INLINE uint64_t sbb64(uint64_t a, uint64_t b, uint64_t bin, uint64_t *bout)
{
    uint64_t d = a - b;
    uint64_t br = a < b;
    uint64_t t = d - bin;
    br += d < bin;
    *bout = br;
    return t;
}
#else
typedef unsigned __int128 u128;

LIMB_INLINE uint64_t mac64(uint64_t *hi, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    u128 t = (u128)a * b + c + d;
    *hi = (uint64_t)(t >> 64);
    return (uint64_t)t;
}

/* clang's add/subtract-with-carry builtins become one adc/sbb chain (the __int128 forms
 * below make it materialise every carry with setc: about 2.5x slower field additions). */
#if defined(__has_builtin)
#if __has_builtin(__builtin_addcll) && __has_builtin(__builtin_subcll)
#define LIMB_HAVE_CARRY_BUILTINS 1
#endif
#endif

LIMB_INLINE uint64_t adc64(uint64_t a, uint64_t b, uint64_t cin, uint64_t *cout)
{
#ifdef LIMB_HAVE_CARRY_BUILTINS
    unsigned long long c;
    uint64_t r = __builtin_addcll(a, b, cin, &c);
    *cout = c;
    return r;
#else
    u128 t = (u128)a + b + cin;
    *cout = (uint64_t)(t >> 64);
    return (uint64_t)t;
#endif
}

LIMB_INLINE uint64_t sbb64(uint64_t a, uint64_t b, uint64_t bin, uint64_t *bout)
{
#ifdef LIMB_HAVE_CARRY_BUILTINS
    unsigned long long c;
    uint64_t r = __builtin_subcll(a, b, bin, &c);
    *bout = c;
    return r;
#else
    u128 t = (u128)a - b - bin;
    *bout = (uint64_t)(t >> 64) & 1;
    return (uint64_t)t;
#endif
}
#endif

#endif
