// Curve test vectors for tests/curve/test_curve.c, computed with @noble/curves.
//
//   node gen-curve.mjs [--seed N] [--count N]
//
// One vector per line, `<group>_<op>` then hex tokens; group is g1 or g2. A point token is
// its ZCash uncompressed encoding (G1 96 bytes, G2 192 bytes, c1 before c0; infinity is
// 0x40 then zeros), a scalar token a big-endian integer of any width.
//
//   gN_gen     U C           the generator, uncompressed and compressed
//   gN_enc     U C           a subgroup point (or infinity) in both encodings
//   gN_add     P Q R         R = P + Q (includes P = Q, P = -Q, infinity operands)
//   gN_dbl     P R           R = 2P
//   gN_neg     P R           R = -P
//   gN_mul     P K R         R = [K]P for any K (K >= r, P outside the subgroup too)
//   gN_nonsub  U C           a point on the curve outside the order-r subgroup
//   gN_bad     E CODE SUB    decoding E must fail with CODE (cuzk_status name without
//                            CUZK_E_) when check_subgroup = SUB (0/1)
//
// Expected values come from noble's point arithmetic; multiples by scalars outside
// [0, r) and of non-subgroup points use plain double-and-add over noble's add/double.
// Subgroup membership of the non-subgroup points is established as [r]P != 0 (and noble's
// isTorsionFree agrees). Invalid encodings are built to violate exactly one rule, and the
// underlying fact (not a square, not on the curve) is confirmed with noble's fields.
import { bls12_381 } from '@noble/curves/bls12-381';
import { Rng, parseArgs } from './rng.mjs';
import { Out, hexBE, FP_BYTES } from './encode.mjs';

const { Fp, Fp2, Fr } = bls12_381.fields;
const { seed, count } = parseArgs(process.argv.slice(2));
const rng = new Rng(seed);
const out = new Out();
const p = Fp.ORDER;
const r = Fr.ORDER;

const hex = (bytes) => Buffer.from(bytes).toString('hex');
const fromHex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const scalarHex = (k) => hexBE(k, Math.max(1, Math.ceil(k.toString(16).length / 2)));

function mulAny(P, k) {
  let acc = P.constructor.ZERO;
  for (let i = k.toString(2).length - 1; i >= 0; i--) {
    acc = acc.double();
    if ((k >> BigInt(i)) & 1n) acc = acc.add(P);
  }
  return acc;
}

// Small prime factors of the cofactors h1 = (x-1)^2/3 and h2 (trial division).
const SMALL_TORSION = { g1: [3n, 11n, 10177n, 859267n, 52437899n], g2: [13n, 23n, 2713n, 11953n, 262069n] };

function makeGroup(name) {
  const isG1 = name === 'g1';
  const G = isG1 ? bls12_381.G1 : bls12_381.G2;
  const Point = G.Point;
  const F = isG1 ? Fp : Fp2;
  const b = G.CURVE.b;
  const L = isG1 ? FP_BYTES : 2 * FP_BYTES; // compressed length
  const h = G.CURVE.h;
  const coordBytes = isG1 ? (v) => hexBE(v, FP_BYTES) : (v) => hexBE(v.c1, FP_BYTES) + hexBE(v.c0, FP_BYTES);
  const rhs = (x) => F.add(F.mul(F.sqr(x), x), b);
  const sqrtOrNull = (a) => {
    try {
      const y = F.sqrt(a);
      return y !== undefined && F.eql(F.sqr(y), a) ? y : null;
    } catch {
      return null;
    }
  };
  const randomF = () => (isG1 ? rng.below(p) : F.fromBigTuple([rng.below(p), rng.below(p)]));
  const isLargest = (y) =>
    isG1 ? y > (p - 1n) / 2n : y.c1 !== 0n ? y.c1 > (p - 1n) / 2n : y.c0 > (p - 1n) / 2n;

  // Encodings built by hand, so they also work for points outside the subgroup.
  const unc = (P) => {
    if (P.is0()) return '40' + '00'.repeat(2 * L - 1);
    const { x, y } = P.toAffine();
    return coordBytes(x) + coordBytes(y);
  };
  const comp = (P) => {
    if (P.is0()) return 'c0' + '00'.repeat(L - 1);
    const { x, y } = P.toAffine();
    const e = fromHex(coordBytes(x));
    e[0] |= 0x80 | (isLargest(y) ? 0x20 : 0);
    return hex(e);
  };
  const randomSub = () => Point.BASE.multiplyUnsafe(1n + rng.below(r - 1n));
  const randomCurvePoint = () => {
    for (;;) {
      const x = randomF();
      const y = sqrtOrNull(rhs(x));
      if (y !== null) return Point.fromAffine({ x, y: rng.int(2) ? y : F.neg(y) });
    }
  };
  const notInSubgroup = (P) => {
    if (mulAny(P, r).is0() || P.isTorsionFree()) throw new Error(`${name}: expected a non-subgroup point`);
    return P;
  };
  return { name, isG1, G, Point, F, L, h, rhs, sqrtOrNull, randomF, unc, comp, randomSub, randomCurvePoint, notInSubgroup };
}

function emitGroup(g) {
  const { name, Point, F, L } = g;
  const e = (op, ...t) => out.emit(`${name}_${op}`, ...t);

  // Generator and encodings (noble's own encoder for subgroup points).
  e('gen', hex(Point.BASE.toBytes(false)), hex(Point.BASE.toBytes(true)));
  const encPts = [Point.ZERO, Point.BASE, Point.BASE.negate()];
  for (let i = 0; i < count; i++) encPts.push(g.randomSub());
  for (const P of encPts) {
    const U = hex(P.toBytes(false)), C = hex(P.toBytes(true));
    if (U !== g.unc(P) || C !== g.comp(P)) throw new Error(`${name}: hand encoding disagrees with noble`);
    e('enc', U, C);
  }

  // Group law.
  const pts = [Point.BASE];
  for (let i = 0; i < count; i++) pts.push(g.randomSub());
  for (let i = 0; i < pts.length; i++) {
    const P = pts[i], Q = pts[(i + 1) % pts.length];
    e('add', g.unc(P), g.unc(Q), g.unc(P.add(Q)));
    e('add', g.unc(P), g.unc(P), g.unc(P.double()));
    e('add', g.unc(P), g.unc(P.negate()), g.unc(Point.ZERO));
    e('add', g.unc(P), g.unc(Point.ZERO), g.unc(P));
    e('add', g.unc(Point.ZERO), g.unc(P), g.unc(P));
    e('dbl', g.unc(P), g.unc(P.double()));
    e('neg', g.unc(P), g.unc(P.negate()));
  }
  e('add', g.unc(Point.ZERO), g.unc(Point.ZERO), g.unc(Point.ZERO));
  e('dbl', g.unc(Point.ZERO), g.unc(Point.ZERO));
  e('neg', g.unc(Point.ZERO), g.unc(Point.ZERO));

  // Scalar multiplication: random and edge scalars, 4-limb and wider.
  const edge = [0n, 1n, 2n, 3n, 15n, 16n, 17n, r - 1n, r, r + 1n, 2n * r, (1n << 64n) - 1n, 1n << 64n,
    (1n << 128n) + 1n, (1n << 255n) - 1n, 1n << 255n, (1n << 256n) - 1n, p - 1n, (1n << 384n) - 1n];
  for (const P of [Point.BASE, pts[1]]) {
    for (const k of edge) e('mul', g.unc(P), scalarHex(k), g.unc(k < r ? P.multiplyUnsafe(k) : mulAny(P, k)));
    for (let i = 0; i < count; i++) {
      const k = rng.below(r);
      e('mul', g.unc(P), scalarHex(k), g.unc(P.multiplyUnsafe(k)));
      const w = rng.bits(256);
      e('mul', g.unc(P), scalarHex(w), g.unc(mulAny(P, w)));
    }
  }
  e('mul', g.unc(Point.ZERO), scalarHex(r - 1n), g.unc(Point.ZERO));

  // Points outside the subgroup: random curve points (full cofactor component) and
  // subgroup points plus a torsion point of small prime order q | h.
  const nonsub = [];
  for (let i = 0; i < count; i++) nonsub.push(g.notInSubgroup(g.randomCurvePoint()));
  for (const q of SMALL_TORSION[name]) {
    if (g.h % q !== 0n) throw new Error(`${name}: ${q} does not divide h`);
    // Project onto the q-primary part, then multiply by q until one more step gives 0:
    // the result has order exactly q (the q-part may be Z/q x Z/q, so [N/q]P can vanish).
    let m = r * g.h;
    while (m % q === 0n) m /= q;
    let T;
    do T = mulAny(g.randomCurvePoint(), m); while (T.is0());
    for (let U = mulAny(T, q); !U.is0(); U = mulAny(T, q)) T = U;
    nonsub.push(g.notInSubgroup(g.randomSub().add(T)));
  }
  for (const P of nonsub) {
    e('nonsub', g.unc(P), g.comp(P));
    e('mul', g.unc(P), scalarHex(r), g.unc(mulAny(P, r)));
    e('mul', g.unc(P), scalarHex(g.h), g.unc(mulAny(P, g.h)));
    const k = rng.bits(256);
    e('mul', g.unc(P), scalarHex(k), g.unc(mulAny(P, k)));
    const Q = g.randomSub();
    e('add', g.unc(P), g.unc(Q), g.unc(P.add(Q)));
    e('dbl', g.unc(P), g.unc(P.double()));
    e('bad', g.unc(P), 'POINT_NOT_IN_SUBGROUP', 1);
    e('bad', g.comp(P), 'POINT_NOT_IN_SUBGROUP', 1);
  }

  // Invalid encodings.
  const bad = (bytes, code, sub = 0) => e('bad', typeof bytes === 'string' ? bytes : hex(bytes), code, sub);
  const P = g.randomSub();
  const U = fromHex(g.unc(P)), C = fromHex(g.comp(P));
  for (const n of [1, L - 1, L + 1, 2 * L - 1, 2 * L + 1, 3 * L, 4 * L]) bad(rng.bytes(n), 'POINT_LENGTH');
  bad(C.slice(0, L - 1), 'POINT_LENGTH');
  bad(U.slice(0, 2 * L - 1), 'POINT_LENGTH');
  const withByte0 = (bytes, f) => { const c = bytes.slice(); c[0] = f(c[0]); return c; };
  bad(withByte0(C, (v) => v & 0x7f), 'POINT_FLAGS');                 // compressed length, flag clear
  bad(withByte0(U, (v) => v | 0x80), 'POINT_FLAGS');                 // uncompressed length, flag set
  bad(withByte0(U, (v) => v | 0x20), 'POINT_FLAGS');                 // sort flag uncompressed
  bad('e0' + '00'.repeat(L - 1), 'POINT_FLAGS');                      // compressed infinity + sort
  bad('60' + '00'.repeat(2 * L - 1), 'POINT_FLAGS');                  // uncompressed infinity + sort
  bad('20' + '00'.repeat(2 * L - 1), 'POINT_FLAGS');                  // sort only, uncompressed
  bad('c0' + '00'.repeat(L - 2) + '01', 'POINT_INFINITY');            // infinity with junk
  bad('c1' + '00'.repeat(L - 1), 'POINT_INFINITY');
  bad('40' + '00'.repeat(2 * L - 2) + '80', 'POINT_INFINITY');
  bad('40' + '00'.repeat(L) + 'ff' + '00'.repeat(L - 2), 'POINT_INFINITY');
  bad(withByte0(C, (v) => (v | 0x40) & 0xdf), 'POINT_INFINITY');      // infinity flag on a point (sort cleared)
  bad(withByte0(U, (v) => v | 0x40), 'POINT_INFINITY');
  // Coordinates >= p: p itself, p + small, and the largest value the 5 low bits allow.
  const big = [p, p + 1n + rng.below(1000n), (1n << 381n) - 1n];
  for (const v of big) {
    const vx = fromHex(hexBE(v, FP_BYTES));
    const c = C.slice(); c.set(vx, 0); c[0] |= C[0] & 0xe0; bad(c, 'POINT_COORDINATE');
    const u = U.slice(); u.set(vx, 0); bad(u, 'POINT_COORDINATE');
    const uy = U.slice(); uy.set(vx, L); bad(uy, 'POINT_COORDINATE');
    if (!g.isG1) {
      const c0 = C.slice(); c0.set(vx, FP_BYTES); bad(c0, 'POINT_COORDINATE');       // x.c0
      const u3 = U.slice(); u3.set(vx, 3 * FP_BYTES); bad(u3, 'POINT_COORDINATE');  // y.c0
    }
  }
  // Not on the curve: x with no square root of x^3 + b (compressed), and (x, y + 1)
  // and (0, 0) without the infinity flag (uncompressed).
  for (let i = 0; i < count; i++) {
    let x;
    do x = g.randomF(); while (g.sqrtOrNull(g.rhs(x)) !== null);
    const c = fromHex(g.isG1 ? hexBE(x, FP_BYTES) : hexBE(x.c1, FP_BYTES) + hexBE(x.c0, FP_BYTES));
    c[0] |= 0x80 | (rng.int(2) ? 0x20 : 0);
    bad(c, 'POINT_NOT_ON_CURVE');
    const Q = g.randomSub().toAffine();
    const y1 = F.add(Q.y, F.ONE);
    if (F.eql(F.sqr(y1), g.rhs(Q.x))) throw new Error('unexpected curve point');
    const coord = (v) => (g.isG1 ? hexBE(v, FP_BYTES) : hexBE(v.c1, FP_BYTES) + hexBE(v.c0, FP_BYTES));
    bad(coord(Q.x) + coord(y1), 'POINT_NOT_ON_CURVE');
  }
  bad('00'.repeat(2 * L), 'POINT_NOT_ON_CURVE');
}

emitGroup(makeGroup('g1'));
emitGroup(makeGroup('g2'));
out.flush();
