/* Fr, the 255-bit scalar field of BLS12-381, on 8 x 32-bit limbs (field_impl.h). fr_t is 32
 * bytes, the bytes of the CPU's fr_t (src/field/fr.h: 4 x 64-bit limbs of a R mod r,
 * R = 2^256) on a little-endian host. */
#ifndef CUZK_GPU_KERNELS_FR_H
#define CUZK_GPU_KERNELS_FR_H

#define FR_LIMBS32 8
typedef struct { u32 l[FR_LIMBS32]; } fr_t;

#define F(name) fr_##name
#define F_T fr_t
#define F_N FR_LIMBS32
#define F_MOD_INIT {0x00000001, 0xffffffff, 0xfffe5bfe, 0x53bda402, 0x09a1d805, 0x3339d808, 0x299d7d48, 0x73eda753}
#define F_ONE_INIT {0xfffffffe, 0x00000001, 0x00034802, 0x5884b7fa, 0xecbc4ff5, 0x998c4fef, 0xacc5056f, 0x1824b159}
#define F_R2_INIT {0xf3f29c6d, 0xc999e990, 0x87925c23, 0x2b6cedcb, 0x7254398f, 0x05d31496, 0x9f59ff11, 0x0748d9d9}
#define F_INV 0xffffffffu
#define F_EXP_INIT {0xffffffff, 0xfffffffe, 0xfffe5bfe, 0x53bda402, 0x09a1d805, 0x3339d808, 0x299d7d48, 0x73eda753}
#define F_EXP_BITS 255
#include "field_impl.h" /* undefines the F_ parameters */

#endif
