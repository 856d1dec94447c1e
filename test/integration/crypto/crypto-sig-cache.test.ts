// Verify once (issue 29): the salted, bounded verification cache; cached verifiers that skip what was verified
// before and never remember a failure; the worker pool coalescing single submissions into one batch (the main
// thread verifies nothing); and a chain whose block signatures admission already verified re-verifying none.
import { signSchnorr, xOnlyPointFromScalar } from 'tiny-secp256k1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChain } from '../../../src/chain/chain.ts';
import { createBodyPreverifier } from '../../../src/chain/preverify-body.ts';
import { encodeTransaction, signingHash, type TransferTransaction } from '../../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../../src/codec/transaction-kinds.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { standardAddress } from '../../../src/crypto/address.ts';
import { cachedWitnessVerifier } from '../../../src/crypto/cached-witness-verifier.ts';
import { witnessVerifierOver, type WitnessCheck, type WitnessVerifier } from '../../../src/crypto/witness-check.ts';
import { createSigCache } from '../../../src/crypto/sig-cache.ts';
import type { SchnorrCheck } from '../../../src/crypto/verifier.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { createVerifyPool, type VerifyPool } from '../../../server/crypto/verify-pool.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';

function secretOf(seed: number): Uint8Array {
  const secret = new Uint8Array(32);
  new DataView(secret.buffer).setUint32(28, seed + 1);
  return secret;
}

function checks(count: number, seed: number): (SchnorrCheck & { scheme: 'bip340' })[] {
  return Array.from({ length: count }, (_, i) => {
    const secret = secretOf(seed * 10_000 + i);
    const message = new Uint8Array(32).fill((seed + i) & 0xff);
    message[0] = i & 0xff;
    return { scheme: 'bip340' as const, signature: signSchnorr(message, secret, new Uint8Array(32)), message, publicKey: xOnlyPointFromScalar(secret) };
  });
}

/** The fast verifier, counting what reaches it. */
function counting(): WitnessVerifier & { seen: number } {
  const inner = witnessVerifierOver(fastVerifier);
  const v = {
    name: 'counting',
    seen: 0,
    verifyWitnesses(c: readonly WitnessCheck[]) {
      v.seen += c.length;
      return inner.verifyWitnesses(c);
    },
  };
  return v;
}

describe('sig cache', () => {
  it('keys on every byte and on the salt, and evicts the oldest entry past its bound', () => {
    const [a, b] = checks(2, 1);
    const cache = createSigCache(2, new Uint8Array(32).fill(1));
    const key = cache.keyOf(a!)!;
    expect(key).toHaveLength(16); // 16 bytes of BLAKE3, a character each
    expect(createSigCache(2, new Uint8Array(32).fill(2)).keyOf(a!)).not.toBe(key);
    for (const field of ['signature', 'message', 'publicKey'] as const) {
      const copy = Uint8Array.from(a![field]);
      copy[5]! ^= 1;
      expect(cache.keyOf({ ...a!, [field]: copy })).not.toBe(key);
    }
    expect(cache.keyOf({ scheme: 'clsag', fields: {} })).toBeUndefined();
    cache.add(key);
    cache.add(cache.keyOf(b!)!);
    cache.add('third');
    expect(cache.has(key)).toBe(false);
    expect(cache.has(cache.keyOf(b!)!)).toBe(true);
    expect(cache.stats()).toMatchObject({ entries: 2, inserted: 3, evicted: 1, hits: 1, misses: 1 });
  });

  it('lets a cached verifier skip what it verified before, never a failure, with the same answers', () => {
    const inner = counting();
    const verifier = cachedWitnessVerifier(inner, createSigCache());
    const good = checks(20, 2);
    const bad = { ...good[0]!, message: new Uint8Array(32) };
    expect(verifier.verifyWitnesses([...good, bad])).toEqual([...good.map(() => true), false]);
    expect(inner.seen).toBe(21);
    expect(verifier.verifyWitnesses([bad, ...good.slice(5)])).toEqual([false, ...good.slice(5).map(() => true)]);
    expect(inner.seen).toBe(22); // only the failure went back to the verifier
  });
});

describe('verify pool: every check on the workers, coalesced, behind the cache', () => {
  let pool: VerifyPool;
  beforeAll(async () => {
    pool = createVerifyPool({ workers: 2, cache: createSigCache() });
    await pool.ready();
  });
  afterAll(async () => {
    await pool.close();
  });

  it('sends 40 single-signature submissions of one turn as one batch, and none of them again', async () => {
    const items = checks(40, 3);
    const before = pool.sent();
    const answers = await Promise.all(items.map((item) => pool.verifyWitnesses([item])));
    expect(answers.flat()).toEqual(items.map(() => true));
    const after = pool.sent();
    expect(after.items - before.items).toBe(40);
    expect(after.chunks - before.chunks).toBe(1);
    expect(await pool.verifySchnorrBatch(items)).toEqual(items.map(() => true));
    expect(pool.sent().items).toBe(after.items);
    const flipped = { ...items[0]!, signature: Uint8Array.from(items[0]!.signature, (x, i) => (i === 3 ? x ^ 1 : x)) };
    expect(await pool.verifyWitnesses([flipped])).toEqual([false]);
    expect(pool.queueLength()).toEqual({ queuedItems: 0, chunksInFlight: 0 });
  });

  it('verifies a block on the pool before its stages, so the stages verify none of the signatures again', async () => {
    const cache = createSigCache();
    const blockPool = createVerifyPool({ workers: 2, cache });
    const stages = counting();
    try {
      const chain = await openChain({
        params: regtestParams, store: createMemoryStore(), clock: systemClock,
        verifier: cachedWitnessVerifier(stages, cache), preverify: createBodyPreverifier(regtestParams, blockPool),
      });
      const to = standardAddress(xOnlyPointFromScalar(secretOf(999)));
      const transactions = Array.from({ length: 50 }, (_, i) => {
        const secret = secretOf(500 + i);
        const body = { kind: TxKind.Transfer, chainId: regtestParams.chainId, from: standardAddress(xOnlyPointFromScalar(secret)), to, amount: 1n, fee: 1n, nonce: 0n, useEnergy: false, memo: new Uint8Array(0) } as const;
        const tx: TransferTransaction = { ...body, signature: signSchnorr(signingHash(body), secret, new Uint8Array(32)) };
        return encodeTransaction(tx);
      });
      const block = makeBlock(chain, { timestampMs: Date.now(), transactions });
      expect((await chain.addBlock(block)).status).toBe('accepted');
      expect(blockPool.sent().items).toBe(50);
      expect(stages.seen).toBe(0);
      // A block with one bad signature is still refused: the stages verify what the cache does not hold.
      const forged = Uint8Array.from(transactions[0]!);
      forged[forged.length - 1]! ^= 1;
      await expect(chain.addBlock(makeBlock(chain, { timestampMs: Date.now() + 1, transactions: [forged] }))).rejects.toThrow(/invalid signature/);
      expect(stages.seen).toBe(1);
    } finally {
      await blockPool.close();
    }
  });
});
