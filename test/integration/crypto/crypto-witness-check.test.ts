// The witness-check port: one batch of mixed schemes (BIP340, ECDSA, unknown) answered in order, identically by the
// in-thread verifier and by the node's worker pool, with tampered proofs refused and unknown schemes never valid;
// range proofs checked as one batch that still blames only the bad proof.
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifyPool } from '../../../server/crypto/verify-pool.ts';
import { checkWitness, checkWitnesses, witnessVerifierOver, type WitnessCheck } from '../../../src/crypto/witness-check.ts';
import { commit } from '../../../src/crypto/monero/commitment.ts';
import { encodePoint } from '../../../src/crypto/monero/point.ts';
import { encodeBulletproofPlus } from '../../../src/crypto/monero/proof-codec.ts';
import { bulletproofPlusScheme } from '../../../src/crypto/monero/proof-schemes.ts';
import { proveBulletproofPlus } from '../../../src/crypto/monero/bulletproofs-plus/prove.ts';
import { createSeededRandom } from '../../helpers/monero-test-rng.ts';
import { ecdsaSign, publicKeyFromPrivate, schnorrSign } from '../../../src/crypto/keys.ts';
import { nobleVerifier } from '../../../src/crypto/verifier.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';

const key = (i: number) => {
  const k = new Uint8Array(32);
  k[31] = i + 1;
  return k;
};
const aux = new Uint8Array(32);

function batch(count: number): { checks: WitnessCheck[]; expected: boolean[] } {
  const checks: WitnessCheck[] = [];
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

describe('witness-check port', () => {
  const pool = createVerifyPool({ workers: 2 });
  afterAll(() => pool.close());

  it('answers a mixed batch in order on the calling thread', () => {
    const { checks, expected } = batch(12);
    expect(witnessVerifierOver(nobleVerifier).verifyWitnesses(checks)).toEqual(expected);
  });

  it('answers the same in the worker pool, small batches inline and large ones on workers', async () => {
    for (const size of [2, 60]) {
      const { checks, expected } = batch(size);
      expect(await pool.verifyWitnesses(checks)).toEqual(expected);
    }
  });

  it('checks range proofs as one batch and still blames only the bad one, in-thread and in the pool', async () => {
    const random = createSeededRandom(17);
    const rangeCheck = (amount: bigint, mask: bigint, tamper?: (proof: Uint8Array) => void): WitnessCheck => {
      const proof = encodeBulletproofPlus(proveBulletproofPlus([{ amount, mask }], random));
      tamper?.(proof);
      return { scheme: bulletproofPlusScheme, fields: { commitments: [encodePoint(commit(mask, amount))], proof } };
    };
    const good = [rangeCheck(5n, 11n), rangeCheck(1n << 40n, 13n), rangeCheck(0n, 17n)];
    // r1's low byte flipped: still a canonical scalar, so only the batch equation can notice.
    const tampered = rangeCheck(7n, 19n, (proof) => (proof[3 * 32]! ^= 1));
    const malformed: WitnessCheck = { scheme: bulletproofPlusScheme, fields: { commitments: [encodePoint(commit(3n, 3n))], proof: new Uint8Array(5) } };
    const checks = [good[0]!, tampered, good[1]!, malformed, good[2]!];
    const expected = [true, false, true, false, true];
    expect(checkWitnesses(checks)).toEqual(expected);
    expect(checkWitnesses(good)).toEqual([true, true, true]);
    expect(witnessVerifierOver(nobleVerifier).verifyWitnesses(checks)).toEqual(expected);
    // With the signature batch around them the pool sends the range proofs to its workers, each chunk one batch.
    const { checks: signatures, expected: signatureVerdicts } = batch(6);
    expect(await pool.verifyWitnesses([...checks, ...signatures])).toEqual([...expected, ...signatureVerdicts]);
  });

  it('never throws on malformed input and never accepts an unknown scheme', () => {
    expect(checkWitness({ scheme: 'ecdsa-secp256k1', signature: new Uint8Array(3), message: new Uint8Array(32), publicKey: new Uint8Array(32) })).toBe(false);
    expect(checkWitness({ scheme: 'nope', fields: {} })).toBe(false);
  });
});
