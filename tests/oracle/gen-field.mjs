// Field test vectors for tests/field/test_field.c, computed with @noble/curves.
//
//   node gen-field.mjs [--seed N] [--count N]
//
// Writes one vector per line (format: README.md here) for Fp, Fr, Fp2, Fp6 and Fp12 on
// edge values (0, 1, 2, p-1, p-2, (p-1)/2, (p+1)/2, powers of two, Montgomery constants)
// and `count` random values per operation. Expected values come from noble's field
// objects; Frobenius maps are computed as plain powers a^(p^k) so they do not rely on
// anyone's precomputed Frobenius constants; sparse products as full products with a
// sparse operand.
import { bls12_381 } from '@noble/curves/bls12-381';
import { Rng, parseArgs } from './rng.mjs';
import { Out, hexBE, hexLE, expHex, fpHex, frHex, fp2Hex, fp6Hex, fp12Hex, FP_BYTES, FR_BYTES } from './encode.mjs';

const { Fp, Fr, Fp2, Fp6, Fp12 } = bls12_381.fields;
const { seed, count } = parseArgs(process.argv.slice(2));
const rng = new Rng(seed);
const out = new Out();
const p = Fp.ORDER;

const legendre = (F, a) => {
  const t = F.pow(a, (F.ORDER - 1n) / 2n);
  return F.is0(t) ? 0 : F.eql(t, F.ONE) ? 1 : -1;
};

// ---------------------------------------------------------------- Fp and Fr
function edgeValues(F, nbytes) {
  const m = F.ORDER;
  const R = (1n << BigInt(8 * nbytes)) % m; // Montgomery R = 2^(64*limbs)
  const vals = [0n, 1n, 2n, m - 1n, m - 2n, (m - 1n) / 2n, (m + 1n) / 2n, R, (R * R) % m, F.inv(R)];
  for (const k of [63, 64, 127, 128, 191, 192, 253, 254, 255, 256, 319, 320, 380]) {
    const v = 1n << BigInt(k);
    if (v < m) vals.push(v);
  }
  return [...new Set(vals)];
}

function primeField(name, F, nbytes) {
  const m = F.ORDER;
  const hex = (x) => hexBE(x, nbytes);
  const edges = edgeValues(F, nbytes);
  const rand = () => rng.below(m);
  const randoms = Array.from({ length: count }, rand);
  const unary = [...edges, ...randoms];

  // Binary operations: every pair of edge values, edge x random, random x random.
  const pairs = [];
  for (const a of edges) for (const b of edges) pairs.push([a, b]);
  for (const a of edges) pairs.push([a, rand()], [rand(), a]);
  for (let i = 0; i < count; i++) pairs.push([rand(), rand()]);
  for (const [a, b] of pairs) {
    out.emit(`${name}_add`, hex(a), hex(b), hex(F.add(a, b)));
    out.emit(`${name}_sub`, hex(a), hex(b), hex(F.sub(a, b)));
    out.emit(`${name}_mul`, hex(a), hex(b), hex(F.mul(a, b)));
  }

  for (const a of unary) {
    out.emit(`${name}_neg`, hex(a), hex(F.neg(a)));
    out.emit(`${name}_dbl`, hex(a), hex(F.add(a, a)));
    out.emit(`${name}_sqr`, hex(a), hex(F.sqr(a)));
    out.emit(`${name}_inv`, hex(a), hex(F.is0(a) ? 0n : F.inv(a)));
    out.emit(`${name}_legendre`, hex(a), String(legendre(F, a)));
    out.emit(`${name}_bytes`, hex(a), hexLE(a, nbytes));
    if (name === 'fp') {
      out.emit('fp_half', hex(a), hex(F.div(a, 2n)));
      out.emit('fp_lexlargest', hex(a), a > (m - 1n) / 2n ? '1' : '0');
    }
  }

  // Square roots: flag only (either root is valid; the test checks r^2 == a).
  const sqrtInputs = [...unary];
  for (let i = 0; i < count; i++) sqrtInputs.push(F.sqr(rand()));
  for (let found = 0; found < count; ) {
    const a = rand();
    if (legendre(F, a) === -1) { sqrtInputs.push(a); found++; }
  }
  for (const a of sqrtInputs) out.emit(`${name}_sqrt`, hex(a), legendre(F, a) === -1 ? '0' : '1');

  // Exponentiation: exponents shorter, as long as and longer than the field, padded.
  const bits = m.toString(2).length;
  const exps = [[0n], [1n], [2n], [3n], [m - 1n], [m - 2n], [(m - 1n) / 2n], [rng.bits(64)],
    [rng.bits(bits)], [rng.bits(512)], [5n, 24], [(1n << 64n) - 1n], [1n << 64n]];
  const bases = [0n, 1n, m - 1n, ...Array.from({ length: Math.max(2, count / 2) }, rand)];
  for (const a of bases)
    for (const [e, width] of exps) out.emit(`${name}_pow`, hex(a), expHex(e, width), hex(F.pow(a, e)));

  // u64 conversion.
  for (const v of [0n, 1n, 7n, (1n << 64n) - 1n, rng.bits(64), rng.bits(32)])
    out.emit(`${name}_from_u64`, hexBE(v, 8), hex(v % m));

  // Non-canonical encodings: integers in [m, 2^(8*nbytes)) must be rejected.
  const top = 1n << BigInt(8 * nbytes);
  const nonCanon = [m, m + 1n, m + (1n << 64n), 2n * m - 1n, top - 1n];
  for (let i = 0; i < count; i++) nonCanon.push(m + rng.below(top - m));
  for (const x of nonCanon) out.emit(`${name}_noncanon`, hex(x));
}

primeField('fp', Fp, FP_BYTES);
primeField('fr', Fr, FR_BYTES);

// Fr extras: reduction of arbitrary 256-bit integers, generator, roots of unity, batch inverse.
{
  const r = Fr.ORDER;
  const xs = [0n, r - 1n, r, r + 1n, 2n * r, (1n << 256n) - 1n];
  for (let i = 0; i < count; i++) xs.push(rng.bits(256));
  for (const x of xs) out.emit('fr_reduce', frHex(x), frHex(x % r));
  out.emit('fr_generator', frHex(7n));
  for (let k = 0; k <= 32; k++) out.emit('fr_root_of_unity', String(k), frHex(Fr.pow(7n, (r - 1n) >> BigInt(k))));
  for (const v of [0n, 1n, 2n, (1n << 64n) - 1n, rng.bits(64)])
    out.emit('fr_pow_u64', frHex(3n), hexBE(v, 8), frHex(Fr.pow(3n, v)));
  for (const n of [1, 2, 5, 17]) {
    const toks = [];
    for (let i = 0; i < n; i++) {
      const a = i % 4 === 1 ? 0n : rng.below(r);
      toks.push(frHex(a), frHex(a === 0n ? 0n : Fr.inv(a)));
    }
    out.emit('fr_batch_inv', ...toks);
  }
}

// ---------------------------------------------------------------- Fp2
const randFp2 = () => ({ c0: rng.below(p), c1: rng.below(p) });
const fp2Edges = [
  Fp2.ZERO, Fp2.ONE, { c0: 0n, c1: 1n }, { c0: p - 1n, c1: 0n }, { c0: 1n, c1: 1n },
  { c0: p - 1n, c1: p - 1n }, { c0: 0n, c1: p - 1n }, { c0: (p - 1n) / 2n, c1: (p + 1n) / 2n },
  { c0: 5n, c1: 0n }, // 5 is a quadratic non-residue in Fp: its root in Fp2 is imaginary
  { c0: 0n, c1: 5n },
];
{
  const xs = [...fp2Edges, ...Array.from({ length: count }, randFp2)];
  const pairs = [];
  for (const a of fp2Edges) pairs.push([a, randFp2()]);
  for (let i = 0; i < count; i++) pairs.push([randFp2(), randFp2()]);
  for (const a of fp2Edges.slice(0, 4)) for (const b of fp2Edges) pairs.push([a, b]);
  for (const [a, b] of pairs) {
    out.emit('fp2_add', fp2Hex(a), fp2Hex(b), fp2Hex(Fp2.add(a, b)));
    out.emit('fp2_sub', fp2Hex(a), fp2Hex(b), fp2Hex(Fp2.sub(a, b)));
    out.emit('fp2_mul', fp2Hex(a), fp2Hex(b), fp2Hex(Fp2.mul(a, b)));
    out.emit('fp2_mul_fp', fp2Hex(a), fpHex(b.c0), fp2Hex(Fp2.mul(a, { c0: b.c0, c1: 0n })));
  }
  const half = (p - 1n) / 2n;
  for (const a of xs) {
    out.emit('fp2_neg', fp2Hex(a), fp2Hex(Fp2.neg(a)));
    out.emit('fp2_dbl', fp2Hex(a), fp2Hex(Fp2.add(a, a)));
    out.emit('fp2_conj', fp2Hex(a), fp2Hex({ c0: a.c0, c1: Fp.neg(a.c1) }));
    out.emit('fp2_sqr', fp2Hex(a), fp2Hex(Fp2.sqr(a)));
    out.emit('fp2_mul_by_nonresidue', fp2Hex(a), fp2Hex(Fp2.mul(a, { c0: 1n, c1: 1n })));
    out.emit('fp2_inv', fp2Hex(a), fp2Hex(Fp2.is0(a) ? Fp2.ZERO : Fp2.inv(a)));
    out.emit('fp2_frobenius', fp2Hex(a), fp2Hex(Fp2.pow(a, p)));
    out.emit('fp2_legendre', fp2Hex(a), String(legendre(Fp2, a)));
    const lex = a.c1 !== 0n ? a.c1 > half : a.c0 > half;
    out.emit('fp2_lexlargest', fp2Hex(a), lex ? '1' : '0');
  }
  const sq = [...xs];
  for (let i = 0; i < count; i++) sq.push(Fp2.sqr(randFp2()));
  for (const a of sq) out.emit('fp2_sqrt', fp2Hex(a), legendre(Fp2, a) === -1 ? '0' : '1');
  for (const e of [0n, 1n, rng.bits(64), rng.bits(381), p * p - 2n])
    for (const a of [randFp2(), { c0: 1n, c1: 1n }])
      out.emit('fp2_pow', fp2Hex(a), expHex(e), fp2Hex(Fp2.pow(a, e)));
}

// ---------------------------------------------------------------- double width (field/wide.h)
// Exact integer specifications on the Montgomery images A = a 2^384 mod p of Fp inputs
// (the limbs the C code holds): fp_mulw is the 768-bit product A B; fpw_add/sub work
// modulo p 2^384 on integers below it; fp_redc W is the element W 2^-768 mod p (what the
// reduced Montgomery value means); fp2_mulw / fp2_sqrw are the Karatsuba forms of wide.h.
{
  const R = 1n << 384n, pR = p * R, toM = (a) => (a * R) % p;
  const wHex = (x) => hexBE(x, 2 * FP_BYTES);
  const Rinv2 = Fp.inv((R * R) % p);
  const fpEdges = edgeValues(Fp, FP_BYTES);
  const fps = [...fpEdges, ...Array.from({ length: count }, () => rng.below(p))];
  for (let i = 0; i < fps.length; i++) {
    const a = fps[i], b = i < fpEdges.length ? fps[(i * 7 + 3) % fps.length] : rng.below(p);
    out.emit('fp_mulw', fpHex(a), fpHex(b), wHex(toM(a) * toM(b)));
  }
  const ws = [0n, 1n, p, p * p, (p - 1n) * (p - 1n), 9n * p * p, R, R * (p - 1n), pR - 1n, pR - R];
  for (let i = 0; i < count; i++) ws.push(rng.below(pR));
  for (const w of ws) out.emit('fp_redc', wHex(w), fpHex(((w % p) * Rinv2) % p));
  for (const w of ws)
    for (const v of [0n, pR - 1n, ws[ws.length - 1], rng.below(pR)]) {
      out.emit('fpw_add', wHex(w), wHex(v), wHex((w + v) % pR));
      out.emit('fpw_sub', wHex(w), wHex(v), wHex((((w - v) % pR) + pR) % pR));
    }
  const fp2s = [
    { c0: 0n, c1: 0n }, { c0: p - 1n, c1: p - 1n }, { c0: 0n, c1: p - 1n }, { c0: p - 1n, c1: 0n },
    { c0: 1n, c1: p - 1n }, ...Array.from({ length: count }, () => ({ c0: rng.below(p), c1: rng.below(p) })),
  ];
  for (const a of fp2s)
    for (const b of [fp2s[1], fp2s[2], { c0: rng.below(p), c1: rng.below(p) }]) {
      const [a0, a1, b0, b1] = [toM(a.c0), toM(a.c1), toM(b.c0), toM(b.c1)];
      const t0 = a0 * b0, t1 = a1 * b1;
      out.emit('fp2_mulw', fp2Hex(a), fp2Hex(b), wHex((((t0 - t1) % pR) + pR) % pR),
        wHex((a0 + a1) * (b0 + b1) - t0 - t1));
    }
  for (const a of fp2s) {
    const [a0, a1] = [toM(a.c0), toM(a.c1)];
    out.emit('fp2_sqrw', fp2Hex(a), wHex((a0 + a1) * ((((a0 - a1) % p) + p) % p)), wHex(2n * a0 * a1));
  }
}

// ---------------------------------------------------------------- Fp6
const randFp6 = () => ({ c0: randFp2(), c1: randFp2(), c2: randFp2() });
const Z2 = Fp2.ZERO;
{
  const xs = [Fp6.ZERO, Fp6.ONE, { c0: Z2, c1: Fp2.ONE, c2: Z2 }, ...Array.from({ length: count }, randFp6)];
  for (const a of xs) {
    const b = randFp6();
    out.emit('fp6_add', fp6Hex(a), fp6Hex(b), fp6Hex(Fp6.add(a, b)));
    out.emit('fp6_sub', fp6Hex(a), fp6Hex(b), fp6Hex(Fp6.sub(a, b)));
    out.emit('fp6_mul', fp6Hex(a), fp6Hex(b), fp6Hex(Fp6.mul(a, b)));
    out.emit('fp6_neg', fp6Hex(a), fp6Hex(Fp6.neg(a)));
    out.emit('fp6_sqr', fp6Hex(a), fp6Hex(Fp6.sqr(a)));
    out.emit('fp6_inv', fp6Hex(a), fp6Hex(Fp6.is0(a) ? Fp6.ZERO : Fp6.inv(a)));
    out.emit('fp6_mul_by_nonresidue', fp6Hex(a), fp6Hex(Fp6.mul(a, { c0: Z2, c1: Fp2.ONE, c2: Z2 })));
    const b0 = randFp2(), b1 = randFp2();
    out.emit('fp6_mul_by_01', fp6Hex(a), fp2Hex(b0), fp2Hex(b1), fp6Hex(Fp6.mul(a, { c0: b0, c1: b1, c2: Z2 })));
    out.emit('fp6_mul_by_1', fp6Hex(a), fp2Hex(b1), fp6Hex(Fp6.mul(a, { c0: Z2, c1: b1, c2: Z2 })));
    for (const k of [1, 2, 3]) out.emit('fp6_frobenius', String(k), fp6Hex(a), fp6Hex(Fp6.pow(a, p ** BigInt(k))));
  }
  // mul operands equal (the squaring path through mul) and aliasing-sensitive shapes
  for (let i = 0; i < 2; i++) {
    const a = randFp6();
    out.emit('fp6_mul', fp6Hex(a), fp6Hex(a), fp6Hex(Fp6.sqr(a)));
  }
}

// ---------------------------------------------------------------- Fp12
const randFp12 = () => ({ c0: randFp6(), c1: randFp6() });
const Z6 = Fp6.ZERO;
{
  const wOnly = { c0: Z6, c1: Fp6.ONE };
  const xs = [Fp12.ONE, wOnly, ...Array.from({ length: count }, randFp12)];
  for (const a of xs) {
    const b = randFp12();
    out.emit('fp12_mul', fp12Hex(a), fp12Hex(b), fp12Hex(Fp12.mul(a, b)));
    out.emit('fp12_sqr', fp12Hex(a), fp12Hex(Fp12.sqr(a)));
    out.emit('fp12_inv', fp12Hex(a), fp12Hex(Fp12.inv(a)));
    out.emit('fp12_conj', fp12Hex(a), fp12Hex({ c0: a.c0, c1: Fp6.neg(a.c1) }));
    for (const k of [1, 2, 3]) out.emit('fp12_frobenius', String(k), fp12Hex(a), fp12Hex(Fp12.pow(a, p ** BigInt(k))));
    // Sparse line: nonzero Fp2 slots 0, 1, 4 = c0.c0, c0.c1, c1.c1.
    const o0 = randFp2(), o1 = randFp2(), o4 = randFp2();
    const line = { c0: { c0: o0, c1: o1, c2: Z2 }, c1: { c0: Z2, c1: o4, c2: Z2 } };
    out.emit('fp12_mul_by_014', fp12Hex(a), fp2Hex(o0), fp2Hex(o1), fp2Hex(o4), fp12Hex(Fp12.mul(a, line)));
    // Normalised line: slot 4 equal to one.
    const unit = { c0: { c0: o0, c1: o1, c2: Z2 }, c1: { c0: Z2, c1: Fp2.ONE, c2: Z2 } };
    out.emit('fp12_mul_by_014_unit', fp12Hex(a), fp2Hex(o0), fp2Hex(o1), fp12Hex(Fp12.mul(a, unit)));
  }
  // Cyclotomic squaring needs an element of the cyclotomic subgroup: f^((p^6-1)(p^2+1)).
  for (let i = 0; i < Math.max(2, count / 2); i++) {
    const f = randFp12();
    let g = Fp12.mul(Fp12.conjugate(f), Fp12.inv(f));
    g = Fp12.mul(Fp12.frobeniusMap(g, 2), g);
    out.emit('fp12_cyclotomic_sqr', fp12Hex(g), fp12Hex(Fp12.sqr(g)));
  }
  // Powers in the cyclotomic subgroup (compressed squarings over long zero runs): the BLS
  // parameter |x|, runs of every length class, the edges of the 64-bit range, random.
  const cyclo = () => {
    const f = randFp12();
    const g = Fp12.mul(Fp12.conjugate(f), Fp12.inv(f));
    return Fp12.mul(Fp12.frobeniusMap(g, 2), g);
  };
  const pows = [0n, 1n, 2n, 3n, 0xd201000000010000n, 1n << 63n, (1n << 64n) - 1n, 0x8000000000000001n,
    0x11n, 0x1111111111111111n, 0x8421084210842108n, rng.bits(64), rng.bits(64), rng.bits(20)];
  for (const e of pows) {
    const g = cyclo();
    out.emit('fp12_cyclotomic_pow', fp12Hex(g), hexBE(e, 8), fp12Hex(Fp12.pow(g, e)));
  }
  out.emit('fp12_cyclotomic_pow', fp12Hex(Fp12.ONE), hexBE(0xd201000000010000n, 8), fp12Hex(Fp12.ONE));
  const blsX = 0xd201000000010000n;
  for (const e of [0n, 1n, blsX, rng.bits(128)]) {
    const a = randFp12();
    out.emit('fp12_pow', fp12Hex(a), expHex(e), fp12Hex(Fp12.pow(a, e)));
  }
}

out.flush();
