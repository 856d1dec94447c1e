/**
 * A fast path for Weft's PoW hash (src/consensus/pow.ts is the reference): one BLAKE3 compression of the 64-byte
 * pow input, written out on 32-bit words instead of going through the general hasher. The input is always one
 * block (flags CHUNK_START | CHUNK_END | ROOT = 11, counter 0, block length 64, CV = IV), bytes 32..55 are zero
 * and the nonce is message words 14–15, so the first seven G calls of round one are the same for every nonce and
 * are computed once per job (the midstate, docs/design.md "Consensus"). Tested bit for bit against noble.
 */
import { DecodeError } from '../errors.ts';
import { hashMeetsTarget, prePowHashBytes, targetFirstWord, type NonceSearchResult } from './pow.ts';

const IV = Uint32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19);
const blockLenBytes = 64;
/** CHUNK_START | CHUNK_END | ROOT (BLAKE3 spec §2.1). */
const singleBlockRootFlags = 1 | 2 | 8;
/** BLAKE3's message permutation, applied between rounds. */
const permutation = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
const rounds = 7;
const u64Max = (1n << 64n) - 1n;

/** Message word index for each of the 16 G inputs of each round: the permutation applied r times. */
const schedule: Uint8Array = (() => {
  const out = new Uint8Array(rounds * 16);
  let order = Array.from({ length: 16 }, (_, i) => i);
  for (let r = 0; r < rounds; r++) {
    out.set(order, r * 16);
    order = permutation.map((p) => order[p]!);
  }
  return out;
})();

function g(v: Uint32Array, a: number, b: number, c: number, d: number, x: number, y: number): void {
  let va = v[a]!;
  let vb = v[b]!;
  let vc = v[c]!;
  let vd = v[d]!;
  va = (va + vb + x) | 0;
  vd ^= va;
  vd = (vd >>> 16) | (vd << 16);
  vc = (vc + vd) | 0;
  vb ^= vc;
  vb = (vb >>> 12) | (vb << 20);
  va = (va + vb + y) | 0;
  vd ^= va;
  vd = (vd >>> 8) | (vd << 24);
  vc = (vc + vd) | 0;
  vb ^= vc;
  vb = (vb >>> 7) | (vb << 25);
  v[a] = va;
  v[b] = vb;
  v[c] = vc;
  v[d] = vd;
}

/** State words (a, b, c, d) of the 8 G calls of a round: 4 columns, then 4 diagonals. */
const gWords = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 5, 10, 15, 1, 6, 11, 12, 2, 7, 8, 13, 3, 4, 9, 14];

/** G calls [from, to) of round r: used for the midstate, round one's first 7 calls (they never read m14, m15). */
function round(v: Uint32Array, m: Uint32Array, r: number, from: number, to: number): void {
  const s = r * 16;
  for (let k = from; k < to; k++) {
    g(v, gWords[4 * k]!, gWords[4 * k + 1]!, gWords[4 * k + 2]!, gWords[4 * k + 3]!, m[schedule[s + 2 * k]!]!, m[schedule[s + 2 * k + 1]!]!);
  }
}

/** Rounds 2–7 and the last G of round one on local words; writes the 8 output words into `out`. */
function finish(mid: Uint32Array, m: Uint32Array, out: Uint32Array): void {
  let v0 = mid[0]!, v1 = mid[1]!, v2 = mid[2]!, v3 = mid[3]!, v4 = mid[4]!, v5 = mid[5]!, v6 = mid[6]!, v7 = mid[7]!;
  let v8 = mid[8]!, v9 = mid[9]!, v10 = mid[10]!, v11 = mid[11]!, v12 = mid[12]!, v13 = mid[13]!, v14 = mid[14]!, v15 = mid[15]!;
  v3 = (v3 + v4 + m[14]!) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m[15]!) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24);
  v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  for (let s = 16; s < rounds * 16; s += 16) {
    v0 = (v0 + v4 + m[schedule[s + 0]!]!) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16);
    v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
    v0 = (v0 + v4 + m[schedule[s + 1]!]!) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24);
    v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
    v1 = (v1 + v5 + m[schedule[s + 2]!]!) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16);
    v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
    v1 = (v1 + v5 + m[schedule[s + 3]!]!) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24);
    v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
    v2 = (v2 + v6 + m[schedule[s + 4]!]!) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16);
    v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
    v2 = (v2 + v6 + m[schedule[s + 5]!]!) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24);
    v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
    v3 = (v3 + v7 + m[schedule[s + 6]!]!) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16);
    v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
    v3 = (v3 + v7 + m[schedule[s + 7]!]!) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24);
    v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
    v0 = (v0 + v5 + m[schedule[s + 8]!]!) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16);
    v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
    v0 = (v0 + v5 + m[schedule[s + 9]!]!) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24);
    v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
    v1 = (v1 + v6 + m[schedule[s + 10]!]!) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16);
    v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
    v1 = (v1 + v6 + m[schedule[s + 11]!]!) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24);
    v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
    v2 = (v2 + v7 + m[schedule[s + 12]!]!) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16);
    v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
    v2 = (v2 + v7 + m[schedule[s + 13]!]!) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24);
    v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
    v3 = (v3 + v4 + m[schedule[s + 14]!]!) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16);
    v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
    v3 = (v3 + v4 + m[schedule[s + 15]!]!) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24);
    v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  }
  out[0] = v0 ^ v8; out[1] = v1 ^ v9; out[2] = v2 ^ v10; out[3] = v3 ^ v11;
  out[4] = v4 ^ v12; out[5] = v5 ^ v13; out[6] = v6 ^ v14; out[7] = v7 ^ v15;
}

export interface PowHasher {
  /** The 32-byte PoW hash of this job's prePow with `nonce`: equal to powHash(prePow, nonce). */
  hash(nonce: bigint): Uint8Array;
  /** The first four hash bytes as a big-endian u32 (the miner pre-filter), from the nonce's two 32-bit halves. */
  firstWord(nonceLo: number, nonceHi: number): number;
}

/** A per-job hasher: the midstate after round one's first seven G calls is computed here, once. */
export function createPowHasher(prePow: Uint8Array): PowHasher {
  if (prePow.length !== prePowHashBytes) {
    throw new DecodeError(`prePowHash: expected ${prePowHashBytes} bytes, got ${prePow.length}`);
  }
  const m = new Uint32Array(16);
  const pre = new DataView(prePow.buffer, prePow.byteOffset, prePowHashBytes);
  for (let i = 0; i < 8; i++) m[i] = pre.getUint32(4 * i, true);
  const midstate = new Uint32Array(16);
  midstate.set(IV, 0);
  midstate.set(IV.subarray(0, 4), 8);
  midstate[14] = blockLenBytes;
  midstate[15] = singleBlockRootFlags;
  round(midstate, m, 0, 0, 7);
  const words = new Uint32Array(8);

  function compress(lo: number, hi: number): void {
    m[14] = lo;
    m[15] = hi;
    finish(midstate, m, words);
  }

  return {
    hash(nonce: bigint): Uint8Array {
      if (nonce < 0n || nonce > u64Max) throw new DecodeError(`nonce: expected a u64, got ${nonce}`);
      compress(Number(nonce & 0xffffffffn), Number(nonce >> 32n));
      const out = new Uint8Array(32);
      const view = new DataView(out.buffer);
      for (let i = 0; i < 8; i++) view.setUint32(4 * i, words[i]!, true);
      return out;
    },
    firstWord(nonceLo: number, nonceHi: number): number {
      compress(nonceLo | 0, nonceHi | 0);
      const w = words[0]!;
      return ((w << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24)) >>> 0;
    },
  };
}

/** searchNonce (pow.ts) on the fast hasher: the same answer, pre-filtered on the first word. */
export function searchNonceFast(prePow: Uint8Array, target: bigint, nonceStart: bigint, nonceCount: number): NonceSearchResult {
  const hasher = createPowHasher(prePow);
  const limit = targetFirstWord(target > (1n << 256n) - 1n ? (1n << 256n) - 1n : target);
  let lo = Number(nonceStart & 0xffffffffn);
  let hi = Number((nonceStart >> 32n) & 0xffffffffn);
  for (let i = 0; i < nonceCount; i++) {
    if (hasher.firstWord(lo, hi) <= limit) {
      const nonce = (BigInt(hi) << 32n) | BigInt(lo);
      if (hashMeetsTarget(hasher.hash(nonce), target)) return { nonce, hashes: i + 1 };
    }
    lo = (lo + 1) >>> 0;
    if (lo === 0) hi = (hi + 1) >>> 0;
  }
  return { nonce: null, hashes: nonceCount };
}
