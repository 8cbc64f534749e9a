/* Fp, the 381-bit base field of BLS12-381, on 12 x 32-bit limbs (field_impl.h). fp_t is 48
 * bytes, the bytes of the CPU's fp_t (src/field/fp.h: 6 x 64-bit limbs of a R mod p,
 * R = 2^384) on a little-endian host. */
#ifndef CUZK_GPU_KERNELS_FP_H
#define CUZK_GPU_KERNELS_FP_H

#define FP_LIMBS32 12
typedef struct { u32 l[FP_LIMBS32]; } fp_t;

#define F(name) fp_##name
#define F_T fp_t
#define F_N FP_LIMBS32
#define F_MOD_INIT                                                                          \
    {0xffffaaab, 0xb9feffff, 0xb153ffff, 0x1eabfffe, 0xf6b0f624, 0x6730d2a0,                \
     0xf38512bf, 0x64774b84, 0x434bacd7, 0x4b1ba7b6, 0x397fe69a, 0x1a0111ea}
#define F_ONE_INIT                                                                          \
    {0x0002fffd, 0x76090000, 0xc40c0002, 0xebf4000b, 0x53c758ba, 0x5f489857,                \
     0x70525745, 0x77ce5853, 0xa256ec6d, 0x5c071a97, 0xfa80e493, 0x15f65ec3}
#define F_R2_INIT                                                                           \
    {0x1c341746, 0xf4df1f34, 0x09d104f1, 0x0a76e6a6, 0x4c95b6d5, 0x8de5476c,                \
     0x939d83c0, 0x67eb88a9, 0xb519952d, 0x9a793e85, 0x92cae3aa, 0x11988fe5}
#define F_INV 0xfffcfffdu
#define F_EXP_INIT                                                                          \
    {0xffffaaa9, 0xb9feffff, 0xb153ffff, 0x1eabfffe, 0xf6b0f624, 0x6730d2a0,                \
     0xf38512bf, 0x64774b84, 0x434bacd7, 0x4b1ba7b6, 0x397fe69a, 0x1a0111ea}
#define F_EXP_BITS 381
#include "field_impl.h" /* undefines the F_ parameters */

#endif
