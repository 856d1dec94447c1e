import fc from 'fast-check';
import { createBLAKE3 } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import type { BlockHeader } from '../../../src/codec/header.ts';
import { encodePrePowHeader } from '../../../src/codec/header.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';
import {
  blockHash,
  compactToTarget,
  difficultyFromTarget,
  hashMeetsTarget,
  InvalidBitsError,
  powHash,
  powInput,
  prePowHash,
  searchNonce,
  targetFirstWord,
  targetFromWork,
  targetMax,
  targetToCompact,
  workFromTarget,
} from '../../../src/consensus/pow.ts';
import { createPowHasher, searchNonceFast } from '../../../src/consensus/pow-fast.ts';
import { DecodeError } from '../../../src/errors.ts';
import { bigIntToBytesBE, concatBytes, toHex } from '../../../src/util/bytes.ts';

/** The common vector of notes/pow-kernels-and-webgpu.md: bytes 0..55 = (i*7+1) & 0xff, 56..63 = nonce LE. */
function noteMessage(lo: number, hi: number): Uint8Array {
  const m = Uint8Array.from({ length: 64 }, (_, i) => (i * 7 + 1) & 0xff);
  const view = new DataView(m.buffer);
  view.setUint32(56, lo, true);
  view.setUint32(60, hi, true);
  return m;
}

const noteDigests: [number, number, string][] = [
  [1234567, 0, '0f355e5d588fe8a01f7441287c80f8e410ad55a32c4720fb45f1a8a4aa314d9a'],
  [5, 1, 'f79de476f4f36ec731e50093d7ef545ab63b82778095ec6f9d9441c8f7333986'],
  [0xffffffff, 0xdeadbeef, 'cdb430781de3a06a3cab546b8a322a28139c11e0db31ebf7bdb97b18923a5040'],
];

/** Weft's own PoW vectors: prePow = the note's first 32 bytes, bytes 32..55 zero (docs/consensus.md). */
const notePrePow = noteMessage(0, 0).slice(0, 32);
const weftDigests: [bigint, string][] = [
  [1234567n, 'd82af77cfc9dbc62f76755508e8211a9076f4dcd84faf1d82b5464949d14b54b'],
  [(1n << 32n) | 5n, 'a996ca83550cd597a1d7b96d59ec9b39753462fa9f5ab0ba61a6891e6d1dfc4f'],
  [(0xdeadbeefn << 32n) | 0xffffffffn, 'e9653adcc6a7995e0ef111c712c5eabdacdadd7516778264f3c513d15a414d50'],
];

const nonceOf = (lo: number, hi: number): bigint => (BigInt(hi) << 32n) | BigInt(lo);

describe('PoW hash', () => {
  it('BLAKE3 of the note raw 64-byte messages gives the note reference digests', () => {
    for (const [lo, hi, digest] of noteDigests) expect(toHex(blake3(noteMessage(lo, hi)))).toBe(digest);
  });

  it('powInput is prePow || 24 zero bytes || nonce little-endian', () => {
    for (const [lo, hi] of noteDigests) {
      const input = powInput(notePrePow, nonceOf(lo, hi));
      const expected = noteMessage(lo, hi);
      expected.fill(0, 32, 56);
      expect(toHex(input)).toBe(toHex(expected));
    }
  });

  it('powHash agrees with BLAKE3 of the hand-built message and with hash-wasm', async () => {
    const reference = await createBLAKE3();
    for (const [lo, hi] of noteDigests) {
      const message = noteMessage(lo, hi);
      message.fill(0, 32, 56);
      const digest = toHex(powHash(notePrePow, nonceOf(lo, hi)));
      expect(digest).toBe(toHex(blake3(message)));
      reference.init();
      reference.update(message);
      expect(digest).toBe(reference.digest('hex'));
    }
  });

  it('pins Weft PoW vectors for the kernel ports', () => {
    const got = weftDigests.map(([nonce]) => toHex(powHash(notePrePow, nonce)));
    expect(got).toEqual(weftDigests.map(([, d]) => d));
  });

  it('17 hits in nonces 0..65535 at first word < 0x00100000 (the note cross-check)', () => {
    // The note's filter is "first 4 digest bytes, big-endian, < 0x00100000": the same as the full 256-bit
    // comparison hash ≤ 0x00100000·2^224 − 1, which is what hashMeetsTarget and targetFirstWord are checked on.
    const target = (0x00100000n << 224n) - 1n;
    expect(targetFirstWord(target)).toBe(0x000fffff);
    const message = noteMessage(0, 0);
    let hits = 0;
    let filterHits = 0;
    for (let lo = 0; lo < 65536; lo++) {
      new DataView(message.buffer).setUint32(56, lo, true);
      const digest = blake3(message);
      if (hashMeetsTarget(digest, target)) hits++;
      if (new DataView(digest.buffer, digest.byteOffset).getUint32(0, false) <= targetFirstWord(target)) filterHits++;
    }
    expect(hits).toBe(17);
    expect(filterHits).toBe(17);
  });

  it('26 hits in the 512 nonces crossing the 2^32 carry (hi = 7) at first word < 0x10000000', () => {
    const target = (0x10000000n << 224n) - 1n;
    const message = noteMessage(0, 0);
    const view = new DataView(message.buffer);
    let hits = 0;
    for (let i = 0n; i < 512n; i++) {
      view.setBigUint64(56, nonceOf(0xffffff00, 7) + i, true);
      if (hashMeetsTarget(blake3(message), target)) hits++;
    }
    expect(hits).toBe(26);
  });

  it('blockHash = powHash(prePowHash(header), nonce) with prePowHash = BLAKE3(pre-PoW bytes)', () => {
    const h: BlockHeader = {
      version: 1,
      parents: [],
      txRoot: new Uint8Array(32),
      stateRoot: new Uint8Array(32),
      timestampMs: 1,
      bits: 0x207fffff,
      daaScore: 0,
      blueScore: 0,
      blueWork: 0n,
      miner: new Uint8Array(33),
      gpuMining: false,
      nonce: 42n,
    };
    expect(prePowHash(h)).toEqual(blake3(encodePrePowHeader(h)));
    expect(blockHash(h)).toEqual(powHash(prePowHash(h), 42n));
    expect(prePowHash({ ...h, nonce: 7n })).toEqual(prePowHash(h));
    expect(blockHash({ ...h, nonce: 7n })).not.toEqual(blockHash(h));
  });

  it('refuses a prePow that is not 32 bytes and a nonce outside u64', () => {
    expect(() => powInput(new Uint8Array(31), 0n)).toThrow(DecodeError);
    expect(() => powInput(notePrePow, 1n << 64n)).toThrow(DecodeError);
    expect(() => powInput(notePrePow, -1n)).toThrow(DecodeError);
  });

  it('hashMeetsTarget reads the hash big-endian and accepts equality', () => {
    const t = 0x1234n << 200n;
    expect(hashMeetsTarget(bigIntToBytesBE(t, 32), t)).toBe(true);
    expect(hashMeetsTarget(bigIntToBytesBE(t + 1n, 32), t)).toBe(false);
    expect(hashMeetsTarget(bigIntToBytesBE(t - 1n, 32), t)).toBe(true);
  });

  it('searchNonce returns the first winner in range order, matching a brute-force scan', () => {
    const target = 1n << 250n; // 1 in 64
    const start = (1n << 64n) - 100n; // wraps at 2^64
    const found = searchNonce(notePrePow, target, start, 400);
    let expected: bigint | null = null;
    for (let i = 0n; i < 400n && expected === null; i++) {
      const n = (start + i) % (1n << 64n);
      if (hashMeetsTarget(powHash(notePrePow, n), target)) expected = n;
    }
    expect(expected).not.toBeNull();
    expect(found.nonce).toBe(expected);
    expect(found.hashes).toBe(Number((expected! - start + (1n << 64n)) % (1n << 64n)) + 1);
    expect(searchNonce(notePrePow, 0n, 0n, 50)).toEqual({ nonce: null, hashes: 50 });
  });
});

describe('compact bits', () => {
  it('decodes Bitcoin arith_uint256 vectors and refuses the malformed ones', () => {
    expect(compactToTarget(0x1d00ffff)).toBe(0xffffn << 208n);
    expect(compactToTarget(0x01120000)).toBe(0x12n);
    expect(compactToTarget(0x02008000)).toBe(0x80n);
    expect(compactToTarget(0x05009234)).toBe(0x92340000n);
    expect(compactToTarget(0x04123456)).toBe(0x12345600n);
    expect(compactToTarget(0x20123456)).toBe(0x123456n << 232n);
    expect(compactToTarget(0x207fffff)).toBe(0x7fffffn << 232n);
    expect(() => compactToTarget(0x04923456)).toThrow(/sign bit set/);
    expect(() => compactToTarget(0x01803456)).toThrow(/sign bit set/);
    expect(() => compactToTarget(0x00000000)).toThrow(/zero target/);
    expect(() => compactToTarget(0x01003456)).toThrow(/non-canonical/); // Bitcoin reads 0
    expect(() => compactToTarget(0x20000080)).toThrow(/non-canonical/); // = 2^239 = 0x1f008000
    expect(() => compactToTarget(0xff123456)).toThrow(/overflows/);
    expect(() => compactToTarget(0x22000100)).toThrow(/overflows/);
    expect(() => compactToTarget(-1)).toThrow(InvalidBitsError);
    expect(() => compactToTarget(2 ** 32)).toThrow(InvalidBitsError);
    expect(() => compactToTarget(0x1d00ffff)).not.toThrow();
  });

  it('encodes like Bitcoin GetCompact', () => {
    expect(targetToCompact(0x80n)).toBe(0x02008000);
    expect(targetToCompact(0x12n)).toBe(0x01120000);
    expect(targetToCompact(0x12345600n)).toBe(0x04123456);
    expect(targetToCompact(1n << 239n)).toBe(0x1f008000);
    expect(targetToCompact(targetMax)).toBe(0x2100ffff);
    expect(() => targetToCompact(0n)).toThrow(InvalidBitsError);
    expect(() => targetToCompact(1n << 256n)).toThrow(InvalidBitsError);
  });

  it('round-trips: bits → target → bits exactly, target → bits → target keeps the top 3 bytes', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: targetMax }), (target) => {
        const bits = targetToCompact(target);
        const back = compactToTarget(bits);
        expect(targetToCompact(back)).toBe(bits);
        const shift = BigInt(Math.max(0, target.toString(2).length - 24)) & ~7n;
        expect(back).toBeLessThanOrEqual(target);
        expect(target - back).toBeLessThan(1n << (shift + 8n));
      }),
    );
  });

  it('every u32 is either refused with InvalidBitsError or is canonical', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (bits) => {
        let target: bigint;
        try {
          target = compactToTarget(bits);
        } catch (e) {
          expect(e).toBeInstanceOf(InvalidBitsError);
          return;
        }
        expect(targetToCompact(target)).toBe(bits);
      }),
    );
  });
});

describe('work and difficulty', () => {
  it('work = ⌊2^256 / (target + 1)⌋', () => {
    expect(workFromTarget((1n << 255n) - 1n)).toBe(2n);
    expect(workFromTarget(targetMax)).toBe(1n);
    expect(workFromTarget(0n)).toBe(1n << 256n);
    expect(workFromTarget((1n << 239n) - 1n)).toBe(1n << 17n);
  });

  it('work never increases as the target grows', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: targetMax }), fc.bigInt({ min: 0n, max: targetMax }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(workFromTarget(lo)).toBeGreaterThanOrEqual(workFromTarget(hi));
      }),
    );
  });

  it('targetFromWork is the easiest target whose work is at least the given work', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n, max: 1n << 200n }), (work) => {
        const target = targetFromWork(work);
        expect(workFromTarget(target)).toBeGreaterThanOrEqual(work);
        expect(workFromTarget(target + 1n)).toBeLessThan(work);
      }),
    );
    expect(workFromTarget(targetFromWork(1n << 17n))).toBe(1n << 17n);
    expect(targetFromWork(0n)).toBe(targetMax);
  });

  it('difficulty = ⌊maxTarget / target⌋', () => {
    const maxTarget = (1n << 255n) - 1n;
    expect(difficultyFromTarget(maxTarget, maxTarget)).toBe(1);
    expect(difficultyFromTarget(1n << 239n, maxTarget)).toBe(65535);
    expect(difficultyFromTarget(compactToTarget(0x1d00ffff), (0xffffn << 208n))).toBe(1);
    expect(() => difficultyFromTarget(0n, maxTarget)).toThrow(InvalidBitsError);
  });

  it('workFromTarget and difficulty agree with a concatBytes-built target', () => {
    const target = BigInt(`0x${toHex(concatBytes(new Uint8Array(2), new Uint8Array(30).fill(0xff)))}`);
    expect(workFromTarget(target)).toBe(1n << 16n);
  });
});

describe('fast PoW path (pow-fast.ts) against the noble reference', () => {
  it('hash() equals powHash for any prePow and nonce', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (pre, nonce) => {
        expect(toHex(createPowHasher(pre).hash(nonce))).toBe(toHex(powHash(pre, nonce)));
      }),
    );
  });

  it('firstWord() is the first four hash bytes big-endian', () => {
    const hasher = createPowHasher(notePrePow);
    for (const [lo, hi] of noteDigests) {
      const digest = powHash(notePrePow, nonceOf(lo, hi));
      expect(hasher.firstWord(lo, hi)).toBe(new DataView(digest.buffer).getUint32(0, false));
    }
  });

  it('searchNonceFast finds what searchNonce finds, across the 2^32 carry and the 2^64 wrap', () => {
    const target = 1n << 249n; // 1 in 128
    for (const start of [0n, nonceOf(0xffffff00, 7), (1n << 64n) - 300n]) {
      expect(searchNonceFast(notePrePow, target, start, 600)).toEqual(searchNonce(notePrePow, target, start, 600));
    }
    expect(searchNonceFast(notePrePow, 0n, 0n, 100)).toEqual({ nonce: null, hashes: 100 });
  });

  it('counts the same hits as the reference over 65536 nonces (Weft layout, first word < 0x00100000)', () => {
    const target = (0x00100000n << 224n) - 1n;
    const hasher = createPowHasher(notePrePow);
    let fast = 0;
    for (let lo = 0; lo < 65536; lo++) if (hasher.firstWord(lo, 0) <= targetFirstWord(target)) fast++;
    let reference = 0;
    let start = 0n;
    for (;;) {
      const r = searchNonce(notePrePow, target, start, 65536 - Number(start));
      if (r.nonce === null) break;
      reference++;
      start = r.nonce + 1n;
    }
    expect(fast).toBe(reference);
    expect(reference).toBeGreaterThan(5);
  });

  it('refuses a prePow that is not 32 bytes', () => {
    expect(() => createPowHasher(new Uint8Array(33))).toThrow(DecodeError);
  });
});
