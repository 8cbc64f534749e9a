/* Fixed-base multiplication for setup; contract in fixed_base.h. */
#include "groth16/fixed_base.h"

#include <pthread.h>
#include <stdlib.h>

#define FB_AFF g1_affine_t
#define FB_JAC g1_jac_t
#define FB(name) g1_##name
#define FB_FN fixed_base_g1
#include "groth16/fixed_base_impl.h"
#undef FB_AFF
#undef FB_JAC
#undef FB
#undef FB_FN

#define FB_AFF g2_affine_t
#define FB_JAC g2_jac_t
#define FB(name) g2_##name
#define FB_FN fixed_base_g2
#include "groth16/fixed_base_impl.h"
