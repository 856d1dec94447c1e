import fc from 'fast-check';
import { signSchnorr, xOnlyPointFromScalar } from 'tiny-secp256k1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { fastVerifier, fastVerifySchnorr, verifySchnorrOnWasm } from '../../../../server/crypto/fast-verifier.ts';
import { nativeSchnorr, nativeSchnorrStatus } from '../../../../server/crypto/native-verifier.ts';
import { createVerifyPool, type VerifyPool } from '../../../../server/crypto/verify-pool.ts';
import { nobleVerifier, type SchnorrCheck } from '../../../../src/crypto/verifier.ts';
import { readBip340Vectors } from '../../../bip340-vectors.ts';

const vectors = readBip340Vectors();

/** Deterministic pseudo-random bytes (xorshift32): the corpus is the same on every run. */
function createBytes(seed: number): (n: number) => Uint8Array {
  let state = seed >>> 0 || 1;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      out[i] = state & 0xff;
    }
    return out;
  };
}

/** `count` valid signatures (made by libsecp256k1, checked by both) and, for each, one copy with one bit flipped. */
function corpus(count: number, seed: number): { valid: SchnorrCheck[]; flipped: SchnorrCheck[] } {
  const bytes = createBytes(seed);
  const valid: SchnorrCheck[] = [];
  const flipped: SchnorrCheck[] = [];
  for (let i = 0; i < count; i++) {
    const secret = bytes(32);
    secret[0] = 0x7f; // < n, ≠ 0
    const message = bytes(32);
    const check = { signature: signSchnorr(message, secret, bytes(32)), message, publicKey: xOnlyPointFromScalar(secret) };
    valid.push(check);
    const bit = bytes(2)[0]! + 256 * (i % 2);
    const field = (['signature', 'message', 'publicKey'] as const)[i % 3]!;
    const copy = Uint8Array.from(check[field]);
    copy[(bit >> 3) % copy.length]! ^= 1 << (bit & 7);
    flipped.push({ ...check, [field]: copy });
  }
  return { valid, flipped };
}

describe('fast verifier (libsecp256k1, native when built, else Wasm)', () => {
  for (const v of vectors) {
    it(`BIP340 row ${v.index} → ${v.valid}, as the reference says`, () => {
      expect(fastVerifySchnorr(v.signature, v.message, v.publicKey)).toBe(v.valid);
      expect(nobleVerifier.verifySchnorr(v.signature, v.message, v.publicKey)).toBe(v.valid);
    });
  }

  it('agrees with @noble/curves on 1,000 valid and 1,000 single-bit-flipped signatures', () => {
    const { valid, flipped } = corpus(1_000, 0x5eed);
    expect(fastVerifier.verifySchnorrBatch(valid).every((ok) => ok)).toBe(true);
    expect(nobleVerifier.verifySchnorrBatch(valid).every((ok) => ok)).toBe(true);
    const fast = fastVerifier.verifySchnorrBatch(flipped);
    expect(fast).toEqual(nobleVerifier.verifySchnorrBatch(flipped));
    expect(fast.filter((ok) => ok)).toHaveLength(0);
  });

  it('agrees with the reference on arbitrary bytes (keys off the curve, r ≥ p, s ≥ n): never throws', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.boolean(),
        (signature, message, publicKey, saturate) => {
          if (saturate) signature.fill(0xff, 0, 32);
          expect(fastVerifySchnorr(signature, message, publicKey)).toBe(nobleVerifier.verifySchnorr(signature, message, publicKey));
        },
      ),
      { numRuns: 200 },
    );
    expect(fastVerifySchnorr(new Uint8Array(63), new Uint8Array(32), new Uint8Array(32))).toBe(false);
    expect(fastVerifySchnorr(vectors[1]!.signature, vectors[1]!.message, new Uint8Array(33))).toBe(false);
  });
});

describe('verify pool (worker threads)', () => {
  let pool: VerifyPool;
  beforeAll(async () => {
    pool = createVerifyPool({ workers: 2 });
    await pool.ready();
  });
  afterAll(async () => {
    await pool.close();
  });

  it('answers a large mixed batch exactly as the reference, in order', async () => {
    const { valid, flipped } = corpus(300, 0xb10c);
    const batch = valid.flatMap((check, i) => [check, flipped[i]!]);
    const answers = await pool.verifySchnorrBatch(batch);
    expect(answers).toEqual(batch.map((_, i) => i % 2 === 0));
  });

  it('answers small batches, odd message lengths and malformed items', async () => {
    const rows = vectors.map((v) => ({ signature: v.signature, message: v.message, publicKey: v.publicKey }));
    expect(await pool.verifySchnorrBatch(rows)).toEqual(vectors.map((v) => v.valid));
    const { valid } = corpus(40, 7);
    const mixed = [...valid, { ...valid[0]!, signature: new Uint8Array(10) }, ...rows];
    expect(await pool.verifySchnorrBatch(mixed)).toEqual(nobleVerifier.verifySchnorrBatch(mixed));
    expect(await pool.verifySchnorrBatch([])).toEqual([]);
  });

  it('runs batches concurrently and refuses work after close()', async () => {
    const { valid } = corpus(100, 99);
    const results = await Promise.all([pool.verifySchnorrBatch(valid), pool.verifySchnorrBatch(valid.slice(50))]);
    expect(results[0]!.every((ok) => ok) && results[1]!.length === 50).toBe(true);
    const other = createVerifyPool({ workers: 1 });
    await other.close();
    await expect(other.verifySchnorrBatch(valid)).rejects.toThrow(/after close/);
  });
});

/** Packs checks as the verify pool does (64, 32 and 32 bytes each) and runs the addon's batch call. */
function nativeBatch(checks: readonly SchnorrCheck[]): boolean[] {
  const results = new Uint8Array(checks.length);
  const pack = (field: 'signature' | 'message' | 'publicKey', size: number) => {
    const out = new Uint8Array(size * checks.length);
    checks.forEach((c, i) => out.set(c[field], size * i));
    return out;
  };
  nativeSchnorr!.verifyBatch(pack('signature', 64), pack('message', 32), pack('publicKey', 32), results);
  return [...results].map((r) => r === 1);
}

describe('the two libsecp256k1 backends, each alone', () => {
  const messages32 = vectors.filter((v) => v.message.length === 32);

  it('Wasm: every 32-byte-message BIP340 row and the corpus as the reference says', () => {
    for (const v of messages32) expect(verifySchnorrOnWasm(v.signature, v.message, v.publicKey)).toBe(v.valid);
    const { valid, flipped } = corpus(300, 0xa5a5);
    expect(valid.map((c) => verifySchnorrOnWasm(c.signature, c.message, c.publicKey))).toEqual(valid.map(() => true));
    expect(flipped.map((c) => verifySchnorrOnWasm(c.signature, c.message, c.publicKey))).toEqual(nobleVerifier.verifySchnorrBatch(flipped));
  });

  // The addon is built by `npm run build` wherever the system has libsecp256k1's headers (bin/build-native.mjs; CI
  // installs libsecp256k1-dev): there it must load, else the node would silently verify ~6x slower.
  const buildable = ['/usr/include/secp256k1_schnorrsig.h', '/usr/local/include/secp256k1_schnorrsig.h'].some((path) => existsSync(path));

  it(`native: ${buildable ? 'built and loaded, and' : 'not buildable here, so the node reports Wasm;'} answers as the reference`, () => {
    if (!buildable) {
      expect(nativeSchnorr).toBeUndefined();
      expect(fastVerifier.name).toBe('libsecp256k1-wasm');
      return;
    }
    expect(nativeSchnorrStatus).toMatch(/^loaded from /);
    expect(fastVerifier.name).toBe('libsecp256k1-native');
    for (const v of messages32) expect(nativeSchnorr!.verify(v.signature, v.message, v.publicKey)).toBe(v.valid);
    expect(nativeBatch(messages32.map((v) => ({ signature: v.signature, message: v.message, publicKey: v.publicKey })))).toEqual(messages32.map((v) => v.valid));
    const { valid, flipped } = corpus(500, 0x0b0e);
    expect(nativeBatch(valid).every((ok) => ok)).toBe(true);
    expect(nativeBatch(flipped)).toEqual(nobleVerifier.verifySchnorrBatch(flipped));
    // Wrong lengths: not valid one by one, a RangeError for a batch whose buffers do not match its count.
    expect(nativeSchnorr!.verify(new Uint8Array(63), new Uint8Array(32), new Uint8Array(32))).toBe(false);
    expect(() => nativeSchnorr!.verifyBatch(new Uint8Array(64), new Uint8Array(32), new Uint8Array(32), new Uint8Array(2))).toThrow(RangeError);
  });

  it('native and Wasm agree on arbitrary bytes (keys off the curve, r ≥ p, s ≥ n)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (signature, message, publicKey) => {
        const wasm = verifySchnorrOnWasm(signature, message, publicKey);
        expect(fastVerifySchnorr(signature, message, publicKey)).toBe(wasm);
        if (nativeSchnorr !== undefined) expect(nativeSchnorr.verify(signature, message, publicKey)).toBe(wasm);
      }),
      { numRuns: 300 },
    );
  });
});
