#!/usr/bin/env python3
"""Derive the BLS12-381 curve constants hardcoded in src/curve/curve_constants.c.

Prints C initialisers (little-endian 64-bit limbs, Montgomery form with R = 2^384) and
asserts every property the C code relies on, so a wrong constant cannot be printed.

Inputs (BLS12-381 specification, draft-irtf-cfrg-pairing-friendly-curves section 4.2.1):
p, r, the curve parameter x = -0xd201000000010000, b = 4 (G1), b' = 4(u + 1) (G2, M-type
twist over Fp2 = Fp[u]/(u^2 + 1)), and the standard generators.

Derived here:
* beta: the primitive cube root of unity in Fp for which the GLV endomorphism
  phi(x, y) = (beta*x, y) acts on G1 as multiplication by -x^2 (the eigenvalue of the
  other cube root is x^2 - 1). The G1 subgroup check is then phi(P) == -[x^2]P
  (Scott, ePrint 2021/1130 section 6, proof of sufficiency in ePrint 2022/352; the
  endomorphism approach originates in Bowe, ePrint 2019/814).
* psi coefficients: psi = untwist o Frobenius o twist on E'(Fp2) is
  psi(x, y) = (cx * conj(x), cy * conj(y)) with cx = 1/(u+1)^((p-1)/3),
  cy = 1/(u+1)^((p-1)/2); on G2 it acts as multiplication by x, and the G2 subgroup check
  is psi(Q) == [x]Q (Scott, ePrint 2021/1130 section 4; ePrint 2022/352).

Run: python3 tools/gen/curve_constants.py
"""
P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
X = -0xd201000000010000

G1 = (0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb,
      0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1)
G2 = ((0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8,
       0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e),
      (0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801,
       0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be))


class F1:
    """Fp arithmetic on Python ints."""
    zero, one = 0, 1
    add = staticmethod(lambda a, b: (a + b) % P)
    sub = staticmethod(lambda a, b: (a - b) % P)
    mul = staticmethod(lambda a, b: a * b % P)
    inv = staticmethod(lambda a: pow(a, P - 2, P))
    neg = staticmethod(lambda a: -a % P)


class F2:
    """Fp2 = Fp[u]/(u^2 + 1) on (c0, c1) tuples."""
    zero, one = (0, 0), (1, 0)
    add = staticmethod(lambda a, b: ((a[0] + b[0]) % P, (a[1] + b[1]) % P))
    sub = staticmethod(lambda a, b: ((a[0] - b[0]) % P, (a[1] - b[1]) % P))
    neg = staticmethod(lambda a: (-a[0] % P, -a[1] % P))

    @staticmethod
    def mul(a, b):
        return ((a[0] * b[0] - a[1] * b[1]) % P, (a[0] * b[1] + a[1] * b[0]) % P)

    @staticmethod
    def inv(a):
        n = pow((a[0] * a[0] + a[1] * a[1]) % P, P - 2, P)
        return (a[0] * n % P, -a[1] * n % P)


def f2_pow(a, e):
    r = F2.one
    while e:
        if e & 1:
            r = F2.mul(r, a)
        a = F2.mul(a, a)
        e >>= 1
    return r


def conj(a):
    return (a[0], -a[1] % P)


# Affine points; None is the point at infinity.
def ec_add(F, p, q):
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0]:
        if F.add(p[1], q[1]) == F.zero:
            return None
        t = F.mul(F.mul(3 if F is F1 else (3, 0), F.mul(p[0], p[0])), F.inv(F.add(p[1], p[1])))
    else:
        t = F.mul(F.sub(q[1], p[1]), F.inv(F.sub(q[0], p[0])))
    x = F.sub(F.sub(F.mul(t, t), p[0]), q[0])
    return (x, F.sub(F.mul(t, F.sub(p[0], x)), p[1]))


def ec_neg(F, p):
    return None if p is None else (p[0], F.neg(p[1]))


def ec_mul(F, p, k):
    if k < 0:
        return ec_mul(F, ec_neg(F, p), -k)
    acc = None
    while k:
        if k & 1:
            acc = ec_add(F, acc, p)
        p = ec_add(F, p, p)
        k >>= 1
    return acc


def on_curve(F, p, b):
    x, y = p
    return F.mul(y, y) == F.add(F.mul(F.mul(x, x), x), b)


def limbs(v):
    return [(v >> (64 * i)) & (2**64 - 1) for i in range(6)]


def c_fp(v):
    return "{{" + ", ".join("0x%016xULL" % x for x in limbs(v * 2**384 % P)) + "}}"


def c_fp2(a):
    return "{%s, %s}" % (c_fp(a[0]), c_fp(a[1]))


def main():
    b1, b2 = 4, (4, 4)
    assert on_curve(F1, G1, b1) and ec_mul(F1, G1, R) is None
    assert on_curve(F2, G2, b2) and ec_mul(F2, G2, R) is None

    # A point on E(Fp) outside G1 (cofactor h1 > 1), for the negative checks below.
    x = 1
    while pow((x**3 + 4) % P, (P - 1) // 2, P) != 1:
        x += 1
    y = pow((x**3 + 4) % P, (P + 1) // 4, P)
    bad1 = (x, y)
    assert on_curve(F1, bad1, b1) and ec_mul(F1, bad1, R) is not None

    # Cube roots of unity: w = g^((p-1)/3) for a cubic non-residue g.
    g = 2
    while pow(g, (P - 1) // 3, P) == 1:
        g += 1
    w = pow(g, (P - 1) // 3, P)
    betas = [w, w * w % P]
    phi = lambda pt, beta: (pt[0] * beta % P, pt[1])
    target = ec_mul(F1, G1, -X * X)
    chosen = [bt for bt in betas if phi(G1, bt) == target]
    assert len(chosen) == 1
    beta = chosen[0]
    assert phi(bad1, beta) != ec_mul(F1, bad1, -X * X)

    xi = (1, 1)
    cx = F2.inv(f2_pow(xi, (P - 1) // 3))
    cy = F2.inv(f2_pow(xi, (P - 1) // 2))
    psi = lambda q: (F2.mul(cx, conj(q[0])), F2.mul(cy, conj(q[1])))
    assert psi(G2) == ec_mul(F2, G2, X)
    # psi maps E' to itself; check on a non-subgroup point that the test rejects it.
    xx = (1, 0)
    while True:
        rhs = F2.add(F2.mul(F2.mul(xx, xx), xx), b2)
        # Fp2 element is a square iff its norm is a square in Fp.
        if pow((rhs[0] ** 2 + rhs[1] ** 2) % P, (P - 1) // 2, P) == 1:
            break
        xx = (xx[0] + 1, 0)
    # Find y by exponentiation: for p = 3 mod 4 use the standard Fp2 square root.
    a1 = f2_pow(rhs, (P - 3) // 4)
    alpha = F2.mul(a1, F2.mul(a1, rhs))
    x0 = F2.mul(a1, rhs)
    if alpha == F2.neg(F2.one):
        yy = F2.mul((0, 1), x0)
    else:
        yy = F2.mul(f2_pow(F2.add(F2.one, alpha), (P - 1) // 2), x0)
    bad2 = (xx, yy)
    assert on_curve(F2, bad2, b2)
    assert ec_mul(F2, bad2, R) is not None and psi(bad2) != ec_mul(F2, bad2, X)

    print("/* G1: b, generator x, y */")
    print("b", c_fp(b1))
    print("g1_x", c_fp(G1[0]))
    print("g1_y", c_fp(G1[1]))
    print("/* G2: b' = 4(u+1), generator x, y */")
    print("b2", c_fp2(b2))
    print("g2_x", c_fp2(G2[0]))
    print("g2_y", c_fp2(G2[1]))
    print("/* GLV cube root of unity: phi(P) = -[x^2]P on G1 */")
    print("beta", c_fp(beta), "canonical 0x%x" % beta)
    print("/* psi coefficients: 1/(u+1)^((p-1)/3), 1/(u+1)^((p-1)/2) */")
    print("psi_cx", c_fp2(cx))
    print("psi_cy", c_fp2(cy))


if __name__ == "__main__":
    main()
