/* Fixed-base multiplication for setup; contract in fixed_base.h. */
#include "groth16/fixed_base.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "field/tower.h"

#define FB_AFF g1_affine_t
#define FB_JAC g1_jac_t
#define FB(name) g1_##name
#define FB_F fp_t
#define FBF(op) fp_##op
#define FB_TABLE fixed_base_g1_table
#define FB_NEW fixed_base_g1_new
#define FB_MUL fixed_base_g1_mul
#define FB_FREE fixed_base_g1_free
#include "groth16/fixed_base_impl.h"
#undef FB_AFF
#undef FB_JAC
#undef FB
#undef FB_F
#undef FBF
#undef FB_TABLE
#undef FB_NEW
#undef FB_MUL
#undef FB_FREE

#define FB_AFF g2_affine_t
#define FB_JAC g2_jac_t
#define FB(name) g2_##name
#define FB_F fp2_t
#define FBF(op) fp2_##op
#define FB_TABLE fixed_base_g2_table
#define FB_NEW fixed_base_g2_new
#define FB_MUL fixed_base_g2_mul
#define FB_FREE fixed_base_g2_free
#include "groth16/fixed_base_impl.h"
