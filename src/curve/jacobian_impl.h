/* Group law of a short Weierstrass curve y^2 = x^3 + b (a = 0) in Jacobian coordinates,
 * written once and instantiated for G1 (over Fp, g1.c) and G2 (over Fp2, g2.c).
 *
 * Private to src/curve; included once per group after defining:
 *   JFN(name)        public function name, e.g. g1_##name
 *   JF, JAFF, JJAC   field element, affine point and Jacobian point types
 *   JF_ADD, JF_SUB, JF_DBL, JF_NEG, JF_MUL, JF_SQR, JF_INV, JF_IS_ZERO, JF_EQ
 *                    field operations with the signatures of fp.h / tower.h
 *   JF_ZERO, JF_ONE  the constants 0 and 1
 *   JB               pointer to the curve constant b
 *
 * Contracts are those of curve.h. Formulas from the Explicit-Formulas Database,
 * hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html: dbl-2009-l (2M + 5S),
 * add-2007-bl (11M + 5S), madd-2007-bl (7M + 4S). Both additions detect equal inputs
 * (H = 0 and r = 0) and fall back to doubling, and opposite inputs (H = 0, r != 0) and
 * return infinity, so they are complete for all inputs. Scalar multiplication uses a fixed
 * 4-bit window, most significant window first; it is not constant time (the prover's
 * scalars are not long-term secrets and the verifier's are public).
 */

void JFN(affine_set_infinity)(JAFF *r)
{
    r->x = JF_ZERO;
    r->y = JF_ZERO;
}

bool JFN(affine_is_infinity)(const JAFF *p)
{
    return JF_IS_ZERO(&p->x) && JF_IS_ZERO(&p->y);
}

void JFN(jac_set_infinity)(JJAC *r)
{
    r->x = JF_ONE;
    r->y = JF_ONE;
    r->z = JF_ZERO;
}

bool JFN(jac_is_infinity)(const JJAC *p)
{
    return JF_IS_ZERO(&p->z);
}

void JFN(jac_from_affine)(JJAC *r, const JAFF *p)
{
    if (JFN(affine_is_infinity)(p)) {
        JFN(jac_set_infinity)(r);
        return;
    }
    r->x = p->x;
    r->y = p->y;
    r->z = JF_ONE;
}

void JFN(affine_from_jac)(JAFF *r, const JJAC *p)
{
    if (JFN(jac_is_infinity)(p)) {
        JFN(affine_set_infinity)(r);
        return;
    }
    JF zinv, zinv2;
    JF_INV(&zinv, &p->z);
    JF_SQR(&zinv2, &zinv);
    JF x, y;
    JF_MUL(&x, &p->x, &zinv2);
    JF_MUL(&y, &p->y, &zinv2);
    JF_MUL(&y, &y, &zinv);
    r->x = x;
    r->y = y;
}

/* Montgomery's simultaneous inversion. Forward pass: out[i].x holds the product of the
 * Z coordinates of the finite points among in[0..i]. One inversion of the full product,
 * then a backward pass peels off one Z at a time; out[j].x of the previous finite point
 * j < i is still the prefix product when entry i is finished, since i runs downwards. */
void JFN(batch_to_affine)(JAFF *out, const JJAC *in, size_t n)
{
    JF acc = JF_ONE;
    for (size_t i = 0; i < n; i++) {
        if (!JFN(jac_is_infinity)(&in[i]))
            JF_MUL(&acc, &acc, &in[i].z);
        out[i].x = acc;
    }
    JF inv;
    JF_INV(&inv, &acc); /* inverse of the product of all finite Z */
    for (size_t i = n; i-- > 0;) {
        if (JFN(jac_is_infinity)(&in[i])) {
            JFN(affine_set_infinity)(&out[i]);
            continue;
        }
        /* prefix product of the finite Z before i: out[i-1].x (1 when i == 0) */
        JF zinv, zinv2;
        if (i > 0)
            JF_MUL(&zinv, &inv, &out[i - 1].x);
        else
            zinv = inv;
        JF_MUL(&inv, &inv, &in[i].z);
        JF_SQR(&zinv2, &zinv);
        JF_MUL(&out[i].x, &in[i].x, &zinv2);
        JF_MUL(&zinv2, &zinv2, &zinv);
        JF_MUL(&out[i].y, &in[i].y, &zinv2);
    }
}

void JFN(dbl)(JJAC *r, const JJAC *p)
{
    if (JFN(jac_is_infinity)(p)) {
        JFN(jac_set_infinity)(r);
        return;
    }
    /* dbl-2009-l */
    JF a, b, c, d, e, f, t;
    JF_SQR(&a, &p->x);          /* A = X1^2 */
    JF_SQR(&b, &p->y);          /* B = Y1^2 */
    JF_SQR(&c, &b);             /* C = B^2 */
    JF_ADD(&t, &p->x, &b);
    JF_SQR(&t, &t);
    JF_SUB(&t, &t, &a);
    JF_SUB(&t, &t, &c);
    JF_DBL(&d, &t);             /* D = 2*((X1+B)^2-A-C) */
    JF_DBL(&e, &a);
    JF_ADD(&e, &e, &a);         /* E = 3*A */
    JF_SQR(&f, &e);             /* F = E^2 */
    JF z3;
    JF_MUL(&z3, &p->y, &p->z);
    JF_DBL(&z3, &z3);           /* Z3 = 2*Y1*Z1 (before r->y is written) */
    JF x3, y3;
    JF_DBL(&t, &d);
    JF_SUB(&x3, &f, &t);        /* X3 = F-2*D */
    JF_SUB(&t, &d, &x3);
    JF_MUL(&y3, &e, &t);
    JF_DBL(&c, &c);
    JF_DBL(&c, &c);
    JF_DBL(&c, &c);
    JF_SUB(&y3, &y3, &c);       /* Y3 = E*(D-X3)-8*C */
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

/* add and add_mixed when H = 0: the inputs share x, so they are equal (r = 0: double p)
 * or opposite (the sum is infinity). */
static inline void JFN(add_same_x)(JJAC *r, const JJAC *p, const JF *rr)
{
    if (JF_IS_ZERO(rr))
        JFN(dbl)(r, p);
    else
        JFN(jac_set_infinity)(r);
}

/* The tail add-2007-bl and madd-2007-bl share, given r = 2*(S2-S1), J = H*I and V = U1*I:
 * X3 = r^2-J-2*V, Y3 = r*(V-X3)-2*S1*J (the mixed form has U1 = X1, S1 = Y1). */
static inline void JFN(add_tail_xy)(JF *x3, JF *y3, const JF *rr, const JF *j, const JF *v, const JF *s1)
{
    JF t;
    JF_SQR(x3, rr);
    JF_SUB(x3, x3, j);
    JF_DBL(&t, v);
    JF_SUB(x3, x3, &t);         /* X3 = r^2-J-2*V */
    JF_SUB(&t, v, x3);
    JF_MUL(y3, rr, &t);
    JF_MUL(&t, s1, j);
    JF_DBL(&t, &t);
    JF_SUB(y3, y3, &t);         /* Y3 = r*(V-X3)-2*S1*J */
}

void JFN(add)(JJAC *r, const JJAC *p, const JJAC *q)
{
    if (JFN(jac_is_infinity)(p)) {
        *r = *q;
        return;
    }
    if (JFN(jac_is_infinity)(q)) {
        *r = *p;
        return;
    }
    /* add-2007-bl */
    JF z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v;
    JF_SQR(&z1z1, &p->z);
    JF_SQR(&z2z2, &q->z);
    JF_MUL(&u1, &p->x, &z2z2);
    JF_MUL(&u2, &q->x, &z1z1);
    JF_MUL(&s1, &p->y, &q->z);
    JF_MUL(&s1, &s1, &z2z2);    /* S1 = Y1*Z2*Z2Z2 */
    JF_MUL(&s2, &q->y, &p->z);
    JF_MUL(&s2, &s2, &z1z1);    /* S2 = Y2*Z1*Z1Z1 */
    JF_SUB(&h, &u2, &u1);       /* H = U2-U1 */
    JF_SUB(&rr, &s2, &s1);
    if (JF_IS_ZERO(&h)) {
        JFN(add_same_x)(r, p, &rr);
        return;
    }
    JF_DBL(&rr, &rr);           /* r = 2*(S2-S1) */
    JF_DBL(&i, &h);
    JF_SQR(&i, &i);             /* I = (2*H)^2 */
    JF_MUL(&j, &h, &i);         /* J = H*I */
    JF_MUL(&v, &u1, &i);        /* V = U1*I */
    JF x3, y3, z3;
    JFN(add_tail_xy)(&x3, &y3, &rr, &j, &v, &s1);
    JF_ADD(&z3, &p->z, &q->z);
    JF_SQR(&z3, &z3);
    JF_SUB(&z3, &z3, &z1z1);
    JF_SUB(&z3, &z3, &z2z2);
    JF_MUL(&z3, &z3, &h);       /* Z3 = ((Z1+Z2)^2-Z1Z1-Z2Z2)*H */
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

void JFN(add_mixed)(JJAC *r, const JJAC *p, const JAFF *q)
{
    if (JFN(affine_is_infinity)(q)) {
        *r = *p;
        return;
    }
    if (JFN(jac_is_infinity)(p)) {
        JFN(jac_from_affine)(r, q);
        return;
    }
    /* madd-2007-bl */
    JF z1z1, u2, s2, h, hh, i, j, rr, v;
    JF_SQR(&z1z1, &p->z);
    JF_MUL(&u2, &q->x, &z1z1);  /* U2 = X2*Z1Z1 */
    JF_MUL(&s2, &q->y, &p->z);
    JF_MUL(&s2, &s2, &z1z1);    /* S2 = Y2*Z1*Z1Z1 */
    JF_SUB(&h, &u2, &p->x);     /* H = U2-X1 */
    JF_SUB(&rr, &s2, &p->y);
    if (JF_IS_ZERO(&h)) {
        JFN(add_same_x)(r, p, &rr);
        return;
    }
    JF_DBL(&rr, &rr);           /* r = 2*(S2-Y1) */
    JF_SQR(&hh, &h);            /* HH = H^2 */
    JF_DBL(&i, &hh);
    JF_DBL(&i, &i);             /* I = 4*HH */
    JF_MUL(&j, &h, &i);         /* J = H*I */
    JF_MUL(&v, &p->x, &i);      /* V = X1*I */
    JF x3, y3, z3;
    JFN(add_tail_xy)(&x3, &y3, &rr, &j, &v, &p->y);
    JF_ADD(&z3, &p->z, &h);
    JF_SQR(&z3, &z3);
    JF_SUB(&z3, &z3, &z1z1);
    JF_SUB(&z3, &z3, &hh);      /* Z3 = (Z1+H)^2-Z1Z1-HH */
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

void JFN(jac_neg)(JJAC *r, const JJAC *p)
{
    r->x = p->x;
    JF_NEG(&r->y, &p->y);
    r->z = p->z;
}

void JFN(affine_neg)(JAFF *r, const JAFF *p)
{
    r->x = p->x;
    JF_NEG(&r->y, &p->y); /* infinity (0, 0) maps to itself */
}

/* (X1, Y1, Z1) ~ (X2, Y2, Z2) iff X1*Z2^2 = X2*Z1^2 and Y1*Z2^3 = Y2*Z1^3. */
bool JFN(jac_eq)(const JJAC *p, const JJAC *q)
{
    bool pi = JFN(jac_is_infinity)(p), qi = JFN(jac_is_infinity)(q);
    if (pi || qi)
        return pi && qi;
    JF z1z1, z2z2, a, b;
    JF_SQR(&z1z1, &p->z);
    JF_SQR(&z2z2, &q->z);
    JF_MUL(&a, &p->x, &z2z2);
    JF_MUL(&b, &q->x, &z1z1);
    if (!JF_EQ(&a, &b))
        return false;
    JF_MUL(&z1z1, &z1z1, &p->z);
    JF_MUL(&z2z2, &z2z2, &q->z);
    JF_MUL(&a, &p->y, &z2z2);
    JF_MUL(&b, &q->y, &z1z1);
    return JF_EQ(&a, &b);
}

bool JFN(affine_eq)(const JAFF *p, const JAFF *q)
{
    return JF_EQ(&p->x, &q->x) && JF_EQ(&p->y, &q->y);
}

void JFN(mul)(JJAC *r, const JJAC *p, const uint64_t *k, size_t nlimbs)
{
    while (nlimbs > 0 && k[nlimbs - 1] == 0)
        nlimbs--;
    /* table[d] = [d]p for d < 16 (p copied first, so r may alias p) */
    JJAC table[16];
    JFN(jac_set_infinity)(&table[0]);
    table[1] = *p;
    for (int d = 2; d < 16; d++) {
        if (d % 2 == 0)
            JFN(dbl)(&table[d], &table[d / 2]);
        else
            JFN(add)(&table[d], &table[d - 1], &table[1]);
    }
    JJAC acc;
    JFN(jac_set_infinity)(&acc);
    for (size_t w = 16 * nlimbs; w-- > 0;) {
        unsigned d = (unsigned)(k[w / 16] >> (4 * (w % 16))) & 15;
        if (!JFN(jac_is_infinity)(&acc))
            for (int s = 0; s < 4; s++)
                JFN(dbl)(&acc, &acc);
        if (d)
            JFN(add)(&acc, &acc, &table[d]);
    }
    *r = acc;
}

void JFN(mul_fr)(JJAC *r, const JJAC *p, const fr_t *k)
{
    uint64_t limbs[FR_LIMBS];
    fr_to_limbs(limbs, k);
    JFN(mul)(r, p, limbs, FR_LIMBS);
}

bool JFN(affine_is_on_curve)(const JAFF *p)
{
    if (JFN(affine_is_infinity)(p))
        return true;
    JF lhs, rhs;
    JF_SQR(&lhs, &p->y);
    JF_SQR(&rhs, &p->x);
    JF_MUL(&rhs, &rhs, &p->x);
    JF_ADD(&rhs, &rhs, JB);
    return JF_EQ(&lhs, &rhs);
}
