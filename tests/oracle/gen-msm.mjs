// MSM test vectors for tests/msm/test_msm.c, computed with @noble/curves.
//
//   node gen-msm.mjs [--seed N]
//
// Each case is a block of lines (field tokens as in encode.mjs: canonical big-endian hex;
// G2 coordinates as Fp2 tokens c0 || c1; the point at infinity as x = y = 0):
//
//   case <g1|g2> <name> <n>       header
//   p <bit> <x> <y> <scalar>      n lines: density bit (1 = takes part), base, scalar
//   expect <x> <y>                affine sum over the lines with bit 1 of scalar * base
//
// For a dense case every bit is 1; for a density case the test builds the bitmap from
// the bits and passes only the bases whose bit is set (bellperson's convention). Bases
// are [k]G for random k, with infinity, repeated and negated bases mixed in; scalars
// are random below r with the edge values 0, 1, 2, r-1, r-2 and powers of two mixed in.
// The expected sum is computed naively as sum of P.multiplyUnsafe(s), not with an MSM.
// The last cases (witness_*) are shaped like Groth16 witnesses: mostly 0 and 1.
import { bls12_381 } from '@noble/curves/bls12-381';
import { Rng, parseArgs } from './rng.mjs';
import { Out, fpHex, fp2Hex, frHex } from './encode.mjs';

const { seed } = parseArgs(process.argv.slice(2));
const rng = new Rng(seed);
const out = new Out();
const r = bls12_381.fields.Fr.ORDER;
const G1 = bls12_381.G1.ProjectivePoint;
const G2 = bls12_381.G2.ProjectivePoint;

const EDGE_SCALARS = [0n, 1n, 2n, r - 1n, r - 2n, 1n << 64n, 1n << 128n, 1n << 254n, (r - 1n) / 2n];

const randPoint = (G) => G.BASE.multiply(rng.below(r - 1n) + 1n);

/** Bases: random, plus (when `mix`) infinity, repeats and negations of earlier ones. */
function makeBases(G, n, mix) {
  const bases = [];
  for (let i = 0; i < n; i++) {
    const roll = mix && i > 0 ? rng.int(10) : 9;
    if (roll === 0) bases.push(G.ZERO);
    else if (roll === 1) bases.push(bases[rng.int(i)]);
    else if (roll === 2) bases.push(bases[rng.int(i)].negate());
    else bases.push(randPoint(G));
  }
  return bases;
}

function makeScalars(n, mix) {
  const scalars = [];
  for (let i = 0; i < n; i++) {
    const roll = mix ? rng.int(4) : 3;
    scalars.push(roll === 0 ? EDGE_SCALARS[rng.int(EDGE_SCALARS.length)] : rng.below(r));
  }
  return scalars;
}

function emitCase(group, name, bases, scalars, bits) {
  const G = group === 'g1' ? G1 : G2;
  const coord = group === 'g1' ? fpHex : fp2Hex;
  const n = bases.length;
  out.emit('case', group, name, String(n));
  let sum = G.ZERO;
  for (let i = 0; i < n; i++) {
    const a = bases[i].toAffine();
    out.emit('p', String(bits[i]), coord(a.x), coord(a.y), frHex(scalars[i]));
    if (bits[i]) sum = sum.add(bases[i].multiplyUnsafe(scalars[i]));
  }
  const e = sum.toAffine();
  out.emit('expect', coord(e.x), coord(e.y));
}

const ones = (n) => new Array(n).fill(1);

function dense(group, name, n, mix = true) {
  const G = group === 'g1' ? G1 : G2;
  emitCase(group, name, makeBases(G, n, mix), makeScalars(n, mix), ones(n));
}

// G1: the required sizes, edge scalars, edge bases.
for (const n of [1, 2, 3, 100, 1000]) dense('g1', `random_${n}`, n);
for (const [i, s] of EDGE_SCALARS.entries())
  emitCase('g1', `single_edge_${i}`, [randPoint(G1)], [s], [1]);
emitCase('g1', 'single_infinity', [G1.ZERO], [rng.below(r)], [1]);
{
  // One base repeated with equal scalars (bucket doublings), and P, -P pairs (cancel).
  const P = randPoint(G1);
  const s = rng.below(r);
  emitCase('g1', 'repeated_equal', new Array(64).fill(P), new Array(64).fill(s), ones(64));
  const bases = [], scalars = [];
  for (let i = 0; i < 32; i++) {
    const Q = randPoint(G1);
    const t = rng.below(r);
    bases.push(Q, Q.negate(), Q);
    scalars.push(t, t, t);
  }
  emitCase('g1', 'negated_pairs', bases, scalars, ones(bases.length));
  // Boolean-heavy witness: scalars 0 and 1 only.
  const bb = makeBases(G1, 200, false);
  emitCase('g1', 'booleans', bb, bb.map(() => BigInt(rng.int(2))), ones(200));
  emitCase('g1', 'all_zero', bb.slice(0, 20), new Array(20).fill(0n), ones(20));
}
// Density: a bitmap over the full assignment, bases only where the bit is set.
{
  const n = 300;
  const bits = Array.from({ length: n }, () => (rng.int(3) === 0 ? 0 : 1));
  const bases = makeBases(G1, n, true);
  emitCase('g1', 'density_300', bases, makeScalars(n, true), bits);
  emitCase('g1', 'density_none', bases.slice(0, 10), makeScalars(10, false), new Array(10).fill(0));
}
// G2.
dense('g2', 'random_100', 100);
dense('g2', 'random_3', 3);
{
  const n = 40;
  const bits = Array.from({ length: n }, () => rng.int(2));
  emitCase('g2', 'density_40', makeBases(G2, n, true), makeScalars(n, true), bits);
}
// Witness-shaped cases for the witness-aware MSM (mostly 0 and 1, some small values,
// a few full-size ones), appended last so the cases above keep their values.
function witnessScalars(n, pZero, pOne, pSmall, smallBits) {
  const scalars = [];
  for (let i = 0; i < n; i++) {
    const u = rng.int(1000) / 1000;
    if (u < pZero) scalars.push(0n);
    else if (u < pZero + pOne) scalars.push(1n);
    else if (u < pZero + pOne + pSmall) {
      const bits = 2 + rng.int(smallBits - 1); // bit length 2 .. smallBits
      scalars.push((1n << BigInt(bits - 1)) | rng.below(1n << BigInt(bits - 1)));
    } else scalars.push(rng.below(r));
  }
  return scalars;
}
{
  emitCase('g1', 'witness_bool90', makeBases(G1, 1000, true), witnessScalars(1000, 0.45, 0.45, 0.05, 16),
           ones(1000));
  emitCase('g1', 'witness_small', makeBases(G1, 300, true), witnessScalars(300, 0.1, 0.1, 0.75, 8), ones(300));
  emitCase('g1', 'witness_small64', makeBases(G1, 300, true), witnessScalars(300, 0.1, 0.1, 0.75, 64),
           ones(300));
  // Ones on one base and its negation: the sum's accumulators double and cancel.
  const P = randPoint(G1);
  const pm = Array.from({ length: 200 }, () => (rng.int(3) === 0 ? P.negate() : P));
  emitCase('g1', 'witness_ones_pm', pm, new Array(200).fill(1n), ones(200));
  const n = 600;
  const bits = Array.from({ length: n }, () => (rng.int(4) === 0 ? 0 : 1));
  emitCase('g1', 'witness_density', makeBases(G1, n, true), witnessScalars(n, 0.4, 0.4, 0.1, 32), bits);
  emitCase('g2', 'witness_bool90', makeBases(G2, 120, true), witnessScalars(120, 0.45, 0.45, 0.05, 16),
           ones(120));
}
out.flush();
