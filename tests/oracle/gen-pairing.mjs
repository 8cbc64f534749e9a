// Pairing vectors from @noble/curves (format: README.md here).
//
//   pairing  P.x P.y  Q.x Q.y  e(P,Q)       P in G1 (Fp tokens), Q in G2 (Fp2 tokens),
//                                            e(P,Q) one Fp12 token
//   product_one  n  P1.x P1.y Q1.x Q1.y ... 0|1   whether prod e(Pi,Qi) == 1
// Points are random multiples of the generators drawn from the seeded Rng, plus the
// generators themselves and points at infinity (coordinates 0 0).
import { bls12_381 as bls } from '@noble/curves/bls12-381';
import { Rng, parseArgs } from './rng.mjs';
import { Out, fpHex, fp2Hex, fp12Hex } from './encode.mjs';

const { seed, count } = parseArgs(process.argv.slice(2), { count: 6 });
const rng = new Rng(seed);
const out = new Out();
const r = bls.fields.Fr.ORDER;
const G1 = bls.G1.ProjectivePoint.BASE;
const G2 = bls.G2.ProjectivePoint.BASE;

const g1Tok = (P) => {
  if (P.equals(bls.G1.ProjectivePoint.ZERO)) return [fpHex(0n), fpHex(0n)];
  const a = P.toAffine();
  return [fpHex(a.x), fpHex(a.y)];
};
const g2Tok = (Q) => {
  if (Q.equals(bls.G2.ProjectivePoint.ZERO)) return [fp2Hex({ c0: 0n, c1: 0n }), fp2Hex({ c0: 0n, c1: 0n })];
  const a = Q.toAffine();
  return [fp2Hex(a.x), fp2Hex(a.y)];
};

const scalar = () => 1n + rng.below(r - 1n);
const pairs = [[G1, G2]];
for (let i = 0; i < count; i++) pairs.push([G1.multiply(scalar()), G2.multiply(scalar())]);
for (const [P, Q] of pairs) out.emit('pairing', ...g1Tok(P), ...g2Tok(Q), fp12Hex(bls.pairing(P, Q)));

// e(aP, bQ) * e(-abP, Q) == 1, and a perturbed version that is not 1
for (let i = 0; i < 3; i++) {
  const a = scalar(), b = scalar();
  const P = G1.multiply(scalar()), Q = G2.multiply(scalar());
  const P1 = P.multiply(a), Q1 = Q.multiply(b), P2 = P.multiply((a * b) % r).negate();
  out.emit('product_one', '2', ...g1Tok(P1), ...g2Tok(Q1), ...g1Tok(P2), ...g2Tok(Q), '1');
  out.emit('product_one', '2', ...g1Tok(P1), ...g2Tok(Q1), ...g1Tok(P2.double()), ...g2Tok(Q), '0');
  // a pair with a point at infinity contributes 1
  out.emit('product_one', '3', ...g1Tok(P1), ...g2Tok(Q1), ...g1Tok(bls.G1.ProjectivePoint.ZERO), ...g2Tok(Q),
    ...g1Tok(P2), ...g2Tok(Q), '1');
}
out.flush();
