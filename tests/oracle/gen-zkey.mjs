// Oracle for tests/iden3/test_zkey.c: what snarkjs's own reader (snarkjs.zKey.exportJson,
// i.e. readZKey with points as affine canonical integers and coefficients divided by R^2)
// finds in a .zkey, so cuzk's reader is checked against an independent implementation.
//
// Usage: node gen-zkey.mjs FILE.zkey[,FILE.zkey...] [...]   (commas: one ctest argument)
// Output, per file (values canonical big-endian hex; Fp 96 digits, Fr 64 digits; a point at
// infinity is the token "inf"):
//   file PATH
//   header nVars nPublic domainSize nCoefs             (decimal)
//   g1 NAME INDEX X Y | g1 NAME INDEX inf              NAME: alpha1 beta1 delta1 IC A B1 C H
//   g2 NAME INDEX X.c0 X.c1 Y.c0 Y.c1 | ... inf        NAME: beta2 gamma2 delta2 B2
//   coef INDEX MATRIX CONSTRAINT SIGNAL VALUE          (decimal indices, VALUE in Fr)
//   end
// Arrays are sampled (first, last and every STRIDE-th entry) to keep the output small.
import * as snarkjs from 'snarkjs';

const STRIDE = 7;
const hex = (v, digits) => BigInt(v).toString(16).padStart(digits, '0');
const lines = [];

function g1(name, idx, p) {
  // toObject gives [x, y, z] with z = 0 for infinity, z = 1 otherwise.
  if (BigInt(p[2]) === 0n) lines.push(`g1 ${name} ${idx} inf`);
  else lines.push(`g1 ${name} ${idx} ${hex(p[0], 96)} ${hex(p[1], 96)}`);
}
function g2(name, idx, p) {
  if (BigInt(p[2][0]) === 0n && BigInt(p[2][1]) === 0n) lines.push(`g2 ${name} ${idx} inf`);
  else
    lines.push(
      `g2 ${name} ${idx} ${hex(p[0][0], 96)} ${hex(p[0][1], 96)} ${hex(p[1][0], 96)} ${hex(p[1][1], 96)}`,
    );
}
function sample(n) {
  const out = [];
  for (let i = 0; i < n; i++) if (i < 3 || i === n - 1 || i % STRIDE === 0) out.push(i);
  return out;
}

for (const file of process.argv.slice(2).flatMap((a) => a.split(','))) {
  const z = await snarkjs.zKey.exportJson(file);
  lines.push(`file ${file}`);
  lines.push(`header ${z.nVars} ${z.nPublic} ${z.domainSize} ${z.ccoefs.length}`);
  g1('alpha1', 0, z.vk_alpha_1);
  g1('beta1', 0, z.vk_beta_1);
  g1('delta1', 0, z.vk_delta_1);
  g2('beta2', 0, z.vk_beta_2);
  g2('gamma2', 0, z.vk_gamma_2);
  g2('delta2', 0, z.vk_delta_2);
  for (let i = 0; i < z.IC.length; i++) g1('IC', i, z.IC[i]);
  for (const i of sample(z.nVars)) {
    g1('A', i, z.A[i]);
    g1('B1', i, z.B1[i]);
    g2('B2', i, z.B2[i]);
  }
  // z.C is indexed by signal (nPublic+1 .. nVars-1); cuzk's c[] starts at 0.
  const nC = z.nVars - z.nPublic - 1;
  for (const j of sample(nC)) g1('C', j, z.C[z.nPublic + 1 + j]);
  for (const i of sample(z.domainSize)) g1('H', i, z.hExps[i]);
  for (const i of sample(z.ccoefs.length)) {
    const c = z.ccoefs[i];
    lines.push(`coef ${i} ${c.matrix} ${c.constraint} ${c.signal} ${hex(c.value, 64)}`);
  }
  lines.push('end');
}
// snarkjs keeps worker threads alive: exit explicitly, but only once stdout (a pipe under
// ctest, written asynchronously) has taken all the output.
process.stdout.write(lines.join('\n') + '\n', () => process.exit(0));
