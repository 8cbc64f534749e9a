// Oracle vectors for the poly layer (NTT, cosets, Groth16 H), computed with plain BigInt
// arithmetic modulo r by the textbook O(n^2) formulas -- independent of cuzk's FFT code.
//
// Output: one record per line, whitespace-separated; field elements as canonical big-endian hex.
//   root F K w                      primitive 2^K-th root of unity of family F (ff: 7^t, snarkjs: 5^t)
//   ntt F K x_0..x_{n-1} y_0..y_{n-1}       y_j = sum_i x_i w^(ij), w = root(F, K)
//   coset K s x_0..x_{n-1} y_0..y_{n-1}     y_j = sum_i x_i (s w^j)^i, w = root(ff, K)
//   hbell K a.. b.. c.. h_0..h_{m-2}        bellperson H: (A B - C) / (X^m - 1) by long division
//   hsnark K a.. b.. c.. h_0..h_{m-1}       snarkjs H: (A B - C)(w2^(2i+1)), w2 = root(snarkjs, K+1)
// where A, B, C interpolate a, b, c on the family's m-th roots (naive inverse DFT).
// The H inputs are satisfying: a tiny R1CS (x^3 + x + 5 = out, bellperson row layout) and
// random rows with c_i = a_i b_i. Usage: node gen-ntt.mjs [--seed N]
import { Rng, parseArgs } from './rng.mjs';

const r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const mod = (x) => ((x % r) + r) % r;
function pow(b, e) {
  let x = 1n;
  b = mod(b);
  while (e > 0n) {
    if (e & 1n) x = (x * b) % r;
    b = (b * b) % r;
    e >>= 1n;
  }
  return x;
}
const inv = (x) => pow(x, r - 2n);
const hex = (x) => x.toString(16).padStart(64, '0');

const t = (r - 1n) >> 32n;
const GEN = { ff: 7n, snarkjs: 5n };
function root(fam, k) {
  let w = pow(GEN[fam], t); // omega_32
  for (let i = k; i < 32; i++) w = (w * w) % r;
  return w;
}

// y_j = sum_i x_i (s w^j)^i
function evalAt(x, pt) {
  let acc = 0n;
  for (let i = x.length - 1; i >= 0; i--) acc = (acc * pt + x[i]) % r;
  return acc;
}
function dft(x, w, s = 1n) {
  return x.map((_, j) => evalAt(x, (s * pow(w, BigInt(j))) % r));
}
function idft(y, w) {
  const ninv = inv(BigInt(y.length));
  return dft(y, inv(w)).map((v) => (v * ninv) % r);
}
function polyMul(p, q) {
  const out = new Array(p.length + q.length - 1).fill(0n);
  for (let i = 0; i < p.length; i++) for (let j = 0; j < q.length; j++) out[i + j] = (out[i + j] + p[i] * q[j]) % r;
  return out;
}
// quotient of p by X^m - 1; throws if the remainder is not zero
function divZ(p, m) {
  const rem = p.slice();
  const q = new Array(Math.max(rem.length - m, 0)).fill(0n);
  for (let d = rem.length - 1; d >= m; d--) {
    const c = rem[d];
    q[d - m] = c;
    rem[d] = 0n;
    rem[d - m] = mod(rem[d - m] + c);
  }
  if (rem.some((v) => v !== 0n)) throw new Error('A*B - C not divisible by Z: inputs do not satisfy');
  return q;
}

const { seed, rest } = parseArgs(process.argv.slice(2));
if (rest.length) throw new Error(`unexpected arguments ${rest}`);
const rng = new Rng(seed);
const rand = (n) => Array.from({ length: n }, () => rng.below(r));
const lines = [];
const emit = (...f) => lines.push(f.join(' '));

for (const fam of ['ff', 'snarkjs']) for (let k = 0; k <= 32; k++) emit('root', fam, k, hex(root(fam, k)));

for (const fam of ['ff', 'snarkjs'])
  for (let k = 0; k <= 6; k++) {
    const x = rand(1 << k);
    emit('ntt', fam, k, ...x.map(hex), ...dft(x, root(fam, k)).map(hex));
  }
for (const k of [0, 1, 2, 5, 6]) {
  for (const s of [7n, rng.below(r - 1n) + 1n]) {
    const x = rand(1 << k);
    emit('coset', k, hex(s), ...x.map(hex), ...dft(x, root('ff', k), s).map(hex));
  }
}

// H for a set of satisfying rows (a, b, c), zero-padded to m = 2^k.
function hVectors(k, a, b, c) {
  const m = 1 << k;
  const pad = (v) => v.concat(new Array(m - v.length).fill(0n));
  [a, b, c] = [pad(a), pad(b), pad(c)];
  const wf = root('ff', k);
  const [A, B, C] = [a, b, c].map((v) => idft(v, wf));
  const P = polyMul(A, B);
  for (let i = 0; i < m; i++) P[i] = mod(P[i] - C[i]);
  const h = divZ(P, m).concat([0n]).slice(0, m - 1); // degree <= m-2
  emit('hbell', k, ...a.map(hex), ...b.map(hex), ...c.map(hex), ...h.map(hex));

  const ws = root('snarkjs', k);
  const w2 = root('snarkjs', k + 1);
  const [As, Bs, Cs] = [a, b, c].map((v) => idft(v, ws));
  const hs = [];
  for (let i = 0; i < m; i++) {
    const pt = pow(w2, BigInt(2 * i + 1));
    hs.push(mod(evalAt(As, pt) * evalAt(Bs, pt) - evalAt(Cs, pt)));
  }
  emit('hsnark', k, ...a.map(hex), ...b.map(hex), ...c.map(hex), ...hs.map(hex));
}

// Tiny R1CS: x^3 + x + 5 = out. Variables: ONE, out (inputs), x, s1, s2 (aux).
//   x * x = s1;  s1 * x = s2;  (s2 + x + 5) * ONE = out;  then bellperson's input rows
//   ONE * 0 = 0 and out * 0 = 0. Rows: 5, domain m = 8.
{
  const x = rng.below(r);
  const s1 = (x * x) % r, s2 = (s1 * x) % r, out = (s2 + x + 5n) % r;
  const a = [x, s1, (s2 + x + 5n) % r, 1n, out];
  const b = [x, x, 1n, 0n, 0n];
  const c = [s1, s2, out, 0n, 0n];
  hVectors(3, a, b, c);
}
for (const [k, rows] of [[1, 2], [4, 11], [6, 64]]) {
  const a = rand(rows), b = rand(rows);
  hVectors(k, a, b, a.map((v, i) => (v * b[i]) % r));
}
process.stdout.write(lines.join('\n') + '\n');
