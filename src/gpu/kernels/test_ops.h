/* Operation numbers of the test kernels (test_kernels.h), shared by the device code and the
 * host tests (tests/gpu). Plain #defines: valid C, OpenCL C and CUDA. */
#ifndef CUZK_GPU_KERNELS_TEST_OPS_H
#define CUZK_GPU_KERNELS_TEST_OPS_H

/* gpu_test_fp / gpu_test_fr */
#define GPU_TEST_ADD 0
#define GPU_TEST_SUB 1
#define GPU_TEST_MUL 2
#define GPU_TEST_SQR 3
#define GPU_TEST_NEG 4
#define GPU_TEST_DBL 5
#define GPU_TEST_INV 6
#define GPU_TEST_TO_MONT 7   /* a canonical -> Montgomery form */
#define GPU_TEST_FROM_MONT 8 /* a Montgomery -> canonical limbs */
#define GPU_TEST_EQ 9
#define GPU_TEST_IS_ZERO 10
#define GPU_TEST_ONE 11
#define GPU_TEST_POW_U32 12  /* a^e, e = the low limb of b */

/* gpu_test_g1 (affine in, affine out) */
#define GPU_TEST_G1_XYZZ_ADD 0
#define GPU_TEST_G1_XYZZ_ADD_AFFINE 1
#define GPU_TEST_G1_XYZZ_DBL 2
#define GPU_TEST_G1_XYZZ_NEG 3
#define GPU_TEST_G1_JAC_ADD 4
#define GPU_TEST_G1_JAC_ADD_AFFINE 5
#define GPU_TEST_G1_JAC_DBL 6
#define GPU_TEST_G1_AFFINE_ADD 7   /* g1_affine_add_den + g1_affine_add_with_inv */
#define GPU_TEST_G1_MIXED_CHAIN 8  /* [6]p + [8]q through XYZZ and Jacobian, projective operands */

#endif
