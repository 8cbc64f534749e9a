/* G1 = E(Fp), E: y^2 = x^3 + 4: group law, conversions and scalar multiplication
 * (the shared Jacobian template jacobian_impl.h instantiated over Fp) and the generator.
 */
#include "curve/curve.h"
#include "curve/curve_internal.h"

#define JFN(name) g1_##name
#define JF fp_t
#define JAFF g1_affine_t
#define JJAC g1_jac_t
#define JF_ADD fp_add
#define JF_SUB fp_sub
#define JF_DBL fp_dbl
#define JF_NEG fp_neg
#define JF_MUL fp_mul
#define JF_SQR fp_sqr
#define JF_INV fp_inv
#define JF_IS_ZERO fp_is_zero
#define JF_EQ fp_eq
#define JF_ZERO FP_ZERO
#define JF_ONE FP_ONE
#define JB (&CURVE_G1_B)
#include "curve/jacobian_impl.h"

void g1_generator(g1_affine_t *r)
{
    r->x = CURVE_G1_GEN_X;
    r->y = CURVE_G1_GEN_Y;
}
