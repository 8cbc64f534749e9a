// Deterministic pseudo-random source for the oracle vector generators.
//
// Every generator draws its random field elements and scalars from here, so the same seed
// gives byte-identical vectors on every machine and Node.js version. Not cryptographic.
//
// Algorithm: xoshiro128** 1.1 (Blackman, Vigna, "Scrambled linear pseudorandom number
// generators", ACM TOMS 2021), state seeded by splitmix32 steps from a 32-bit seed.
//
// Usage:
//   import { Rng, parseArgs } from './rng.mjs';
//   const { seed, count } = parseArgs(process.argv.slice(2));   // --seed N --count N
//   const rng = new Rng(seed);
//   rng.below(p)   // uniform bigint in [0, p)
//   rng.bits(k)    // uniform bigint in [0, 2^k)

export const DEFAULT_SEED = 0x6375_7a6b; // "cuzk"

function splitmix32(state) {
  // Returns [next state, output]; all arithmetic mod 2^32.
  const s = (state + 0x9e3779b9) >>> 0;
  let z = s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return [s, (z ^ (z >>> 16)) >>> 0];
}

const rotl = (x, k) => ((x << k) | (x >>> (32 - k))) >>> 0;

export class Rng {
  /** @param {number} seed integer, reduced mod 2^32 */
  constructor(seed = DEFAULT_SEED) {
    let st = Number(BigInt.asUintN(32, BigInt(seed)));
    this.s = new Uint32Array(4);
    for (let i = 0; i < 4; i++) {
      let out;
      [st, out] = splitmix32(st);
      this.s[i] = out;
    }
    if (this.s.every((w) => w === 0)) this.s[0] = 1; // all-zero state is a fixed point
  }

  /** Next uniform 32-bit unsigned integer (a Number). */
  u32() {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  }

  /** Uniform bigint in [0, 2^k). */
  bits(k) {
    let v = 0n;
    for (let have = 0; have < k; have += 32) v = (v << 32n) | BigInt(this.u32());
    return BigInt.asUintN(k, v);
  }

  /** Uniform bigint in [0, n) for n >= 1, by rejection sampling. */
  below(n) {
    if (n <= 0n) throw new RangeError('below: n must be positive');
    const k = n.toString(2).length;
    for (;;) {
      const v = this.bits(k);
      if (v < n) return v;
    }
  }

  /** Uniform integer in [0, n) for a small Number n (n <= 2^32). */
  int(n) {
    return Number(this.below(BigInt(n)));
  }

  /** Uniform byte string of length n. */
  bytes(n) {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }
}

/**
 * Parse the common generator options: `--seed N` (decimal or 0x hex) and `--count N`
 * (random vectors per operation). Unknown options throw, so typos fail the test.
 * @returns {{seed: number, count: number, rest: string[]}}
 */
export function parseArgs(argv, defaults = {}) {
  const opts = { seed: DEFAULT_SEED, count: 8, ...defaults, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seed' || a === '--count') {
      const v = argv[++i];
      if (v === undefined || !/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(v))
        throw new Error(`${a} needs a non-negative integer, got ${v}`);
      opts[a.slice(2)] = Number(BigInt(v));
    } else if (a.startsWith('--')) {
      throw new Error(`unknown option ${a}`);
    } else {
      opts.rest.push(a);
    }
  }
  return opts;
}
