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

DEVICE F_T F(sqr)(F_T a)
{
    return F(mul)(a, a);
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
