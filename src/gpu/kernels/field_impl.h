/* Montgomery arithmetic on N little-endian 32-bit limbs, written once and instantiated for Fp
 * (fp.h) and Fr (fr.h). No include guard: included once per field after defining
 *
 *   F(name)       the function name, e.g. fp_##name
 *   F_T           the element type: struct { u32 l[F_N]; }
 *   F_N           the number of 32-bit limbs (12 for Fp, 8 for Fr)
 *   F_MOD_INIT, F_ONE_INIT, F_R2_INIT   initialisers of the modulus m, R mod m and R^2 mod m
 *                 (R = 2^(32 F_N): 2^384 for Fp, 2^256 for Fr -- the CPU's R, so the bytes
 *                 of a CPU fp_t / fr_t are the bytes of the device element)
 *   F_INV         -m^-1 mod 2^32
 *   F_EXP_INIT    m - 2 (Fermat inversion exponent); F_EXP_BITS its bit length
 *
 * The file undefines these parameters at its end, ready for the next instantiation.
 *
 * Elements are always fully reduced (< m), as on the CPU. Every function takes and returns
 * values (no pointers), so the code is the same for OpenCL private memory and CUDA registers.
 *
 * Multiplication: CIOS Montgomery multiplication without the extra carry word (Koc, Acar,
 * Kaliski, "Analyzing and comparing Montgomery multiplication algorithms", IEEE Micro 1996;
 * the no-carry condition of Gueron-Krasnov / gnark holds for 32-bit words since the top limb of
 * both moduli is below 2^31 - 1), the same algorithm as src/field/mont.h on 64-bit words: the
 * result a*b*R^-1 mod m is the same number, so the output is bit-identical to the CPU's.
 * Inversion: Fermat's little theorem a^(m-2) (square-and-multiply over the fixed exponent;
 * the inverse of 0 is 0, as on the CPU).
 */

DEVICE F_T F(zero)(void)
{
    F_T r;
    UNROLL for (int i = 0; i < F_N; i++) r.l[i] = 0;
    return r;
}

DEVICE F_T F(one)(void)
{
    const u32 one[F_N] = F_ONE_INIT;
    F_T r;
    UNROLL for (int i = 0; i < F_N; i++) r.l[i] = one[i];
    return r;
}

DEVICE bool F(is_zero)(F_T a)
{
    u32 acc = 0;
    UNROLL for (int i = 0; i < F_N; i++) acc |= a.l[i];
    return acc == 0;
}

DEVICE bool F(eq)(F_T a, F_T b)
{
    u32 acc = 0;
    UNROLL for (int i = 0; i < F_N; i++) acc |= a.l[i] ^ b.l[i];
    return acc == 0;
}

/* a < m: a is a fully reduced element (or, read as an integer, a canonical one) */
DEVICE bool F(lt_mod)(F_T a)
{
    const u32 m[F_N] = F_MOD_INIT;
    for (int i = F_N - 1; i >= 0; i--)
        if (a.l[i] != m[i])
            return a.l[i] < m[i];
    return false;
}

/* a - m if a >= m else a (a < 2m, F_N limbs: both moduli leave the top bit free) */
DEVICE F_T F(reduce_once_)(F_T a)
{
    const u32 m[F_N] = F_MOD_INIT;
    F_T t;
    u32 bw = 0;
    UNROLL for (int i = 0; i < F_N; i++) SUBB(t.l[i], bw, a.l[i], m[i]);
    return bw ? a : t;
}

DEVICE F_T F(add)(F_T a, F_T b)
{
    F_T s;
    u32 c = 0;
    UNROLL for (int i = 0; i < F_N; i++) ADDC(s.l[i], c, a.l[i], b.l[i]);
    return F(reduce_once_)(s);
}

DEVICE F_T F(dbl)(F_T a)
{
    return F(add)(a, a);
}

DEVICE F_T F(sub)(F_T a, F_T b)
{
    const u32 m[F_N] = F_MOD_INIT;
    F_T d;
    u32 bw = 0;
    UNROLL for (int i = 0; i < F_N; i++) SUBB(d.l[i], bw, a.l[i], b.l[i]);
    u32 mask = 0u - bw, c = 0;
    UNROLL for (int i = 0; i < F_N; i++) ADDC(d.l[i], c, d.l[i], m[i] & mask);
    return d;
}

DEVICE F_T F(neg)(F_T a)
{
    return F(sub)(F(zero)(), a);
}

DEVICE F_T F(mul)(F_T a, F_T b)
{
    const u32 m[F_N] = F_MOD_INIT;
    u32 t[F_N];
    UNROLL for (int j = 0; j < F_N; j++) t[j] = 0;
    UNROLL for (int i = 0; i < F_N; i++) {
        u32 bi = b.l[i];
        u64 A = MUL_WIDE(a.l[0], bi) + t[0];
        t[0] = (u32)A;
        u32 mm = t[0] * (u32)F_INV;
        u64 C = MUL_WIDE(mm, m[0]) + t[0];
        UNROLL for (int j = 1; j < F_N; j++) {
            A = MUL_WIDE(a.l[j], bi) + t[j] + (A >> 32);
            t[j] = (u32)A;
            C = MUL_WIDE(mm, m[j]) + t[j] + (C >> 32);
            t[j - 1] = (u32)C;
        }
        t[F_N - 1] = (u32)(C >> 32) + (u32)(A >> 32);
    }
    F_T r;
    UNROLL for (int j = 0; j < F_N; j++) r.l[j] = t[j];
    return F(reduce_once_)(r);
}

/* a^2: separated operand scanning (Koc, Acar, Kaliski 1996, as above) with the square's
 * symmetry: the products a_i a_j (i < j) once, doubled, plus the diagonal a_i^2 (N (N + 1) / 2
 * word products instead of N^2), then N Montgomery reduction rows. The result a^2 R^-1 mod m
 * is the same number as F(mul)(a, a), so the bytes are the same. */
DEVICE F_T F(sqr)(F_T a)
{
    const u32 m[F_N] = F_MOD_INIT;
    u32 t[2 * F_N];
    UNROLL for (int k = 0; k < 2 * F_N; k++) t[k] = 0;
    UNROLL for (int i = 0; i < F_N - 1; i++) { /* row i: a_i a_j for j > i at t[i + j] */
        u64 c = 0;
        UNROLL for (int j = i + 1; j < F_N; j++) {
            c = MUL_WIDE(a.l[i], a.l[j]) + t[i + j] + (c >> 32);
            t[i + j] = (u32)c;
        }
        t[i + F_N] = (u32)(c >> 32);
    }
    /* doubled (the sum is below a^2 < 2^(64 N): no bit leaves t), plus the diagonal */
    UNROLL for (int k = 2 * F_N - 1; k > 0; k--) t[k] = (t[k] << 1) | (t[k - 1] >> 31);
    t[0] <<= 1;
    u32 c = 0;
    UNROLL for (int i = 0; i < F_N; i++) {
        u64 d = MUL_WIDE(a.l[i], a.l[i]);
        ADDC(t[2 * i], c, t[2 * i], (u32)d);
        ADDC(t[2 * i + 1], c, t[2 * i + 1], (u32)(d >> 32));
    }
    /* reduction row i adds mm m 2^(32 i), clearing t[i]; its carry out of t[i + N] waits in hi
     * for the next row's t[i + N + 1]. (a^2 + M m) / R < 2m < 2^(32 N): hi ends as 0. */
    u32 hi = 0;
    UNROLL for (int i = 0; i < F_N; i++) {
        u32 mm = t[i] * (u32)F_INV;
        u64 C = MUL_WIDE(mm, m[0]) + t[i];
        UNROLL for (int j = 1; j < F_N; j++) {
            C = MUL_WIDE(mm, m[j]) + t[i + j] + (C >> 32);
            t[i + j] = (u32)C;
        }
        u64 e = (u64)t[i + F_N] + (C >> 32) + hi;
        t[i + F_N] = (u32)e;
        hi = (u32)(e >> 32);
    }
    F_T r;
    UNROLL for (int j = 0; j < F_N; j++) r.l[j] = t[F_N + j];
    return F(reduce_once_)(r);
}

/* Montgomery form <-> canonical: to_mont(x) = x R mod m (x canonical, < m), from_mont(a) =
 * a R^-1 mod m. */
DEVICE F_T F(to_mont)(F_T x)
{
    const u32 r2[F_N] = F_R2_INIT;
    F_T t;
    UNROLL for (int i = 0; i < F_N; i++) t.l[i] = r2[i];
    return F(mul)(x, t);
}

DEVICE F_T F(from_mont)(F_T a)
{
    F_T one;
    UNROLL for (int i = 0; i < F_N; i++) one.l[i] = i == 0;
    return F(mul)(a, one);
}

/* a^e for a 32-bit exponent e (left to right) */
DEVICE F_T F(pow_u32)(F_T a, u32 e)
{
    F_T r = F(one)();
    for (int i = 31; i >= 0; i--) {
        r = F(sqr)(r);
        if ((e >> i) & 1)
            r = F(mul)(r, a);
    }
    return r;
}

/* a^-1 = a^(m-2); 0 gives 0. Kept out of line: it is long and rarely on a hot path. */
DEVICE_NOINLINE F_T F(inv)(F_T a)
{
    const u32 e[F_N] = F_EXP_INIT;
    F_T r = a; /* the exponent's top bit is set: start from it */
    for (int i = F_EXP_BITS - 2; i >= 0; i--) {
        r = F(sqr)(r);
        if ((e[i >> 5] >> (i & 31)) & 1)
            r = F(mul)(r, a);
    }
    return r;
}

#undef F
#undef F_T
#undef F_N
#undef F_MOD_INIT
#undef F_ONE_INIT
#undef F_R2_INIT
#undef F_INV
#undef F_EXP_INIT
#undef F_EXP_BITS
