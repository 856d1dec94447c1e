// The proof-check port: one batch of mixed schemes (BIP340, ECDSA, unknown) answered in order, identically by the
// in-thread verifier and by the node's worker pool, with tampered proofs refused and unknown schemes never valid.
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifyPool } from '../server/crypto/verify-pool.ts';
import { checkProof, proofVerifierOver, type ProofCheck } from '../src/crypto/proof-check.ts';
import { ecdsaSign, publicKeyFromPrivate, schnorrSign } from '../src/crypto/keys.ts';
import { nobleVerifier } from '../src/crypto/verifier.ts';
import { blake3 } from '../src/crypto/blake3.ts';

const key = (i: number) => {
  const k = new Uint8Array(32);
  k[31] = i + 1;
  return k;
};
const aux = new Uint8Array(32);

function batch(count: number): { checks: ProofCheck[]; expected: boolean[] } {
  const checks: ProofCheck[] = [];
  const expected: boolean[] = [];
  for (let i = 0; i < count; i++) {
    const message = blake3(new Uint8Array([i]));
    const publicKey = publicKeyFromPrivate(key(i));
    const bad = i % 5 === 4;
    const schnorr = schnorrSign(message, key(i), aux);
    const ecdsa = ecdsaSign(message, key(i), aux);
    if (bad) schnorr[3]! ^= 1;
    checks.push({ scheme: 'bip340', signature: schnorr, message, publicKey });
    expected.push(!bad);
    checks.push({ scheme: 'ecdsa-secp256k1', signature: bad ? ecdsaSign(blake3(message), key(i), aux) : ecdsa, message, publicKey });
    expected.push(!bad);
    if (i % 7 === 0) {
      checks.push({ scheme: 'clsag-ed25519', fields: { ring: [] } });
      expected.push(false);
    }
  }
  return { checks, expected };
}

describe('proof-check port', () => {
  const pool = createVerifyPool({ workers: 2 });
  afterAll(() => pool.close());

  it('answers a mixed batch in order on the calling thread', () => {
    const { checks, expected } = batch(12);
    expect(proofVerifierOver(nobleVerifier).verifyProofs(checks)).toEqual(expected);
  });

  it('answers the same in the worker pool, small batches inline and large ones on workers', async () => {
    for (const size of [2, 60]) {
      const { checks, expected } = batch(size);
      expect(await pool.verifyProofs(checks)).toEqual(expected);
    }
  });

  it('never throws on malformed input and never accepts an unknown scheme', () => {
    expect(checkProof({ scheme: 'ecdsa-secp256k1', signature: new Uint8Array(3), message: new Uint8Array(32), publicKey: new Uint8Array(32) })).toBe(false);
    expect(checkProof({ scheme: 'nope', fields: {} })).toBe(false);
  });
});
