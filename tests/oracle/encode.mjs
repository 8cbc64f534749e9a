// Token encodings shared by the oracle vector generators (format: README.md here).
//
// A field value is one token: its canonical integer as lowercase big-endian hex of the
// field's fixed width, no 0x (Fp 96 digits, Fr 64). An extension element is one token:
// the Fp coefficients concatenated in tower order, each 96 digits:
//   Fp2  c0 c1
//   Fp6  c0.c0 c0.c1 c1.c0 c1.c1 c2.c0 c2.c1
//   Fp12 c0 (an Fp6, as above) then c1
// Noble's elements have the same shape: Fp2 {c0, c1}, Fp6 {c0, c1, c2}, Fp12 {c0, c1}.

export const FP_BYTES = 48;
export const FR_BYTES = 32;

/** Big-endian hex of a non-negative bigint padded to `n` bytes (throws if it does not fit). */
export function hexBE(x, n) {
  if (x < 0n) throw new RangeError('hexBE: negative');
  const h = x.toString(16).padStart(2 * n, '0');
  if (h.length !== 2 * n) throw new RangeError(`hexBE: ${x} does not fit in ${n} bytes`);
  return h;
}

/** Little-endian hex of a non-negative bigint in `n` bytes. */
export function hexLE(x, n) {
  return hexBE(x, n).match(/../g).reverse().join('');
}

export const fpHex = (x) => hexBE(x, FP_BYTES);
export const frHex = (x) => hexBE(x, FR_BYTES);
export const fp2Hex = (a) => fpHex(a.c0) + fpHex(a.c1);
export const fp6Hex = (a) => fp2Hex(a.c0) + fp2Hex(a.c1) + fp2Hex(a.c2);
export const fp12Hex = (a) => fp6Hex(a.c0) + fp6Hex(a.c1);

/** Minimal-width big-endian hex of an exponent (at least one byte), for `*_pow` lines. */
export function expHex(e, widthBytes) {
  const h = e.toString(16);
  const n = Math.max(widthBytes ?? 0, Math.ceil(h.length / 2), 1);
  return hexBE(e, n);
}

/** Collects vector lines and writes them to stdout in one go. */
export class Out {
  constructor() {
    this.lines = [];
  }
  /** One vector: op name then its tokens, joined by single spaces. */
  emit(op, ...tokens) {
    this.lines.push([op, ...tokens].join(' '));
  }
  flush() {
    process.stdout.write(this.lines.join('\n') + '\n');
  }
}
