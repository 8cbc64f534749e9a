/* Element-wise wrappers of the field and curve functions, so the host tests
 * (tests/gpu/test_gpu_arith.c) can check every device function against the oracle vectors and
 * the CPU code. `op` selects the function (uniform across the launch); one work-item per
 * element, n elements. The op numbers are GPU_TEST_* in src/gpu/test_ops.h. */
#ifndef CUZK_GPU_KERNELS_TEST_KERNELS_H
#define CUZK_GPU_KERNELS_TEST_KERNELS_H

#include "test_ops.h"

/* Field ops: r[i] = op(a[i], b[i]); r is Montgomery form except for FROM_MONT; EQ and
 * IS_ZERO write 1 or 0 into the low limb of an otherwise zero r[i]. */
#define TEST_FIELD_KERNEL(name, T, P)                                                        \
    KERNEL void name(u32 op, GLOBAL const T *a, GLOBAL const T *b, GLOBAL T *r, u32 n)       \
    {                                                                                        \
        u32 i = GID;                                                                         \
        if (i >= n)                                                                          \
            return;                                                                          \
        T x = a[i], y = b[i], z = P##zero();                                                 \
        switch (op) {                                                                        \
        case GPU_TEST_ADD: z = P##add(x, y); break;                                          \
        case GPU_TEST_SUB: z = P##sub(x, y); break;                                          \
        case GPU_TEST_MUL: z = P##mul(x, y); break;                                          \
        case GPU_TEST_SQR: z = P##sqr(x); break;                                             \
        case GPU_TEST_NEG: z = P##neg(x); break;                                             \
        case GPU_TEST_DBL: z = P##dbl(x); break;                                             \
        case GPU_TEST_INV: z = P##inv(x); break;                                             \
        case GPU_TEST_TO_MONT: z = P##to_mont(x); break;                                     \
        case GPU_TEST_FROM_MONT: z = P##from_mont(x); break;                                 \
        case GPU_TEST_EQ: z.l[0] = P##eq(x, y) ? 1u : 0u; break;                             \
        case GPU_TEST_IS_ZERO: z.l[0] = P##is_zero(x) ? 1u : 0u; break;                      \
        case GPU_TEST_ONE: z = P##one(); break;                                              \
        case GPU_TEST_POW_U32: z = P##pow_u32(x, y.l[0]); break;                             \
        default: break;                                                                      \
        }                                                                                    \
        r[i] = z;                                                                            \
    }

TEST_FIELD_KERNEL(gpu_test_fp, fp_t, fp_)
TEST_FIELD_KERNEL(gpu_test_fr, fr_t, fr_)

/* The curve functions behind out-of-line wrappers: each is compiled once, which keeps nvcc's
 * time on this test-only program in check (inlined into one switch it is many times slower). */
DEVICE_NOINLINE g1_xyzz_t t_xadd(g1_xyzz_t a, g1_xyzz_t b) { return g1_xyzz_add(a, b); }
DEVICE_NOINLINE g1_xyzz_t t_xmadd(g1_xyzz_t a, g1_affine_t b) { return g1_xyzz_add_affine(a, b); }
DEVICE_NOINLINE g1_xyzz_t t_xdbl(g1_xyzz_t a) { return g1_xyzz_dbl(a); }
DEVICE_NOINLINE g1_affine_t t_xaff(g1_xyzz_t a) { return g1_xyzz_to_affine(a); }
DEVICE_NOINLINE g1_jac_t t_jadd(g1_jac_t a, g1_jac_t b) { return g1_jac_add(a, b); }
DEVICE_NOINLINE g1_jac_t t_jmadd(g1_jac_t a, g1_affine_t b) { return g1_jac_add_affine(a, b); }
DEVICE_NOINLINE g1_jac_t t_jdbl(g1_jac_t a) { return g1_jac_dbl(a); }
DEVICE_NOINLINE g1_affine_t t_jaff(g1_jac_t a) { return g1_jac_to_affine(a); }
DEVICE_NOINLINE g1_xyzz_t t_xfromj(g1_jac_t a) { return g1_xyzz_from_jac(a); }

/* Curve ops on affine inputs p[i], q[i]; the result is converted to affine on the device. */
KERNEL void gpu_test_g1(u32 op, GLOBAL const g1_affine_t *p, GLOBAL const g1_affine_t *q, GLOBAL g1_affine_t *r,
                        u32 n)
{
    u32 i = GID;
    if (i >= n)
        return;
    g1_affine_t a = p[i], b = q[i], z = g1_affine_infinity();
    g1_xyzz_t xa = g1_xyzz_from_affine(a), xb = g1_xyzz_from_affine(b);
    g1_jac_t ja = g1_jac_from_affine(a), jb = g1_jac_from_affine(b);
    switch (op) {
    case GPU_TEST_G1_XYZZ_ADD: z = t_xaff(t_xadd(xa, xb)); break;
    case GPU_TEST_G1_XYZZ_ADD_AFFINE: z = t_xaff(t_xmadd(xa, b)); break;
    case GPU_TEST_G1_XYZZ_DBL: z = t_xaff(t_xdbl(xa)); break;
    case GPU_TEST_G1_XYZZ_NEG: z = t_xaff(g1_xyzz_neg(xa)); break;
    case GPU_TEST_G1_JAC_ADD: z = t_jaff(t_jadd(ja, jb)); break;
    case GPU_TEST_G1_JAC_ADD_AFFINE: z = t_jaff(t_jmadd(ja, b)); break;
    case GPU_TEST_G1_JAC_DBL: z = t_jaff(t_jdbl(ja)); break;
    case GPU_TEST_G1_AFFINE_ADD: {
        g1_add_den_t den = g1_affine_add_den(a, b);
        z = g1_affine_add_with_inv(a, b, den.kind, fp_inv(den.d));
        break;
    }
    case GPU_TEST_G1_MIXED_CHAIN: {
        /* 3p + 4q with projective (Z != 1) operands in every formula:
         * s = 2 (p + q) (XYZZ), t = 2q + p (XYZZ), u = s + t; the same in Jacobian through
         * g1_xyzz_from_jac, and the two sums added: 2 (3p + 4q) -- checked as [6]p + [8]q. */
        g1_xyzz_t s = t_xdbl(t_xmadd(xa, b));
        g1_xyzz_t t = t_xmadd(t_xdbl(xb), a);
        g1_xyzz_t u = t_xadd(s, t);
        g1_jac_t js = t_jdbl(t_jmadd(ja, b));
        g1_jac_t jt = t_jmadd(t_jdbl(jb), a);
        g1_jac_t ju = t_jadd(js, jt);
        z = t_xaff(t_xadd(u, t_xfromj(ju)));
        break;
    }
    default: break;
    }
    r[i] = z;
}

#endif
