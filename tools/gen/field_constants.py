#!/usr/bin/env python3
"""Derive the BLS12-381 field constants used by src/field/*.c.

Prints C initialisers (little-endian 64-bit limbs, Montgomery form where noted).
Sources: p, r and the curve parameter x from the BLS12-381 specification
(draft-irtf-cfrg-pairing-friendly-curves, section 4.2.1); the Frobenius constants are
powers of the non-residue xi = u + 1 computed here.
"""
P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001


def limbs(v, n):
    return [(v >> (64 * i)) & (2**64 - 1) for i in range(n)]


def c_limbs(v, n):
    return "{" + ", ".join("0x%016xULL" % x for x in limbs(v, n)) + "}"


def radix(v, bits, n):
    return "{" + ", ".join("0x%xULL" % ((v >> (bits * i)) & (2**bits - 1)) for i in range(n)) + "}"


def mont(v, mod, n):
    return v * pow(2, 64 * n, mod) % mod


def fp2_mul(a, b):
    return ((a[0] * b[0] - a[1] * b[1]) % P, (a[0] * b[1] + a[1] * b[0]) % P)


def fp2_pow(a, e):
    r = (1, 0)
    while e:
        if e & 1:
            r = fp2_mul(r, a)
        a = fp2_mul(a, a)
        e >>= 1
    return r


def fp2_c(a):
    return "{%s, %s}" % (c_limbs(mont(a[0], P, 6), 6), c_limbs(mont(a[1], P, 6), 6))


def main():
    print("/* Fp */")
    print("modulus", c_limbs(P, 6))
    print("inv", "0x%016xULL" % ((-pow(P, -1, 2**64)) % 2**64))
    print("one", c_limbs(mont(1, P, 6), 6))
    print("r2", c_limbs(pow(2, 768, P), 6))
    print("/* Fr */")
    print("modulus", c_limbs(R, 4))
    print("inv", "0x%016xULL" % ((-pow(R, -1, 2**64)) % 2**64))
    print("one", c_limbs(mont(1, R, 4), 4))
    print("r2", c_limbs(pow(2, 512, R), 4))
    t = (R - 1) >> 32
    print("root_of_unity_2^32", c_limbs(mont(pow(7, t, R), R, 4), 4))
    print("generator_7", c_limbs(mont(7, R, 4), 4))
    xi = (1, 1)
    print("/* Fp6 frobenius: c1 coefficient xi^((p^k-1)/3), c2 coefficient xi^(2(p^k-1)/3) */")
    for k in (1, 2, 3):
        e = (P**k - 1) // 3
        print("fp6_c1[%d]" % k, fp2_c(fp2_pow(xi, e)))
        print("fp6_c2[%d]" % k, fp2_c(fp2_pow(xi, 2 * e)))
    print("/* Fp12 frobenius: w coefficient xi^((p^k-1)/6) */")
    for k in (1, 2, 3):
        print("fp12_c1[%d]" % k, fp2_c(fp2_pow(xi, (P**k - 1) // 6)))
    print("/* IFMA kernels: Fp in radix 2^48 (field/fpv_ifma.h), Fr in radix 2^52 (frv_ifma.h) */")
    for k in (1, 2, 4):
        print("fpv_%dp" % k, radix(k * P, 48, 8))
    print("fpv_pinv48", "0x%012xULL" % ((-pow(P, -1, 2**48)) % 2**48))
    for k in (1, 2):
        print("frv_%dr" % k, radix(k * R, 52, 5))
    print("frv_rinv52", "0x%013xULL" % ((-pow(R, -1, 2**52)) % 2**52))
    print("ntt_ifma_sixteen (16 in Montgomery form)", c_limbs(mont(16, R, 4), 4))


if __name__ == "__main__":
    main()
