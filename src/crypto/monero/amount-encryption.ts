/**
 * Compact amount encryption, Monero's ecdhInfo v2 (HF v10+, note §1.9): with the per-output shared secret
 * s = Hs(D ‖ varint(i)) (stealth.ts `derivationToScalar`),
 * - encrypted amount = LE64(amount) ⊕ keccak("amount" ‖ s)[0..8] — only these 8 bytes go on chain;
 * - commitment mask = Hs("commitment_mask" ‖ s), which the receiver recomputes instead of reading it.
 * Anyone holding the view key opens the amount and checks it against the output's commitment.
 */
import { concatBytes } from '../../util/bytes.ts';
import { bytesToNumberLE, numberToBytesLE } from '@noble/curves/utils.js';
import { PrivacyEncodingError } from './errors.ts';
import { assertAmount } from './commitment.ts';
import { encodeScalar, fastHash, hashToScalar } from './scalar.ts';

export const encryptedAmountBytes = 8;
const amountSalt = new TextEncoder().encode('amount');
const maskSalt = new TextEncoder().encode('commitment_mask');

function amountPad(sharedSecret: bigint): Uint8Array {
  return fastHash(concatBytes(amountSalt, encodeScalar(sharedSecret))).subarray(0, encryptedAmountBytes);
}

function xor8(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(encryptedAmountBytes);
  for (let i = 0; i < encryptedAmountBytes; i++) out[i] = a[i]! ^ b[i]!;
  return out;
}

/** Monero `genCommitmentMask`: Hs("commitment_mask" ‖ s). */
export function commitmentMask(sharedSecret: bigint): bigint {
  return hashToScalar(maskSalt, encodeScalar(sharedSecret));
}

export function encryptAmount(amount: bigint, sharedSecret: bigint): Uint8Array {
  return xor8(numberToBytesLE(assertAmount(amount), encryptedAmountBytes), amountPad(sharedSecret));
}

export function decryptAmount(encrypted: Uint8Array, sharedSecret: bigint): bigint {
  if (encrypted.length !== encryptedAmountBytes) {
    throw new PrivacyEncodingError(`encrypted amount: got ${encrypted.length} bytes, expected ${encryptedAmountBytes}`);
  }
  return bytesToNumberLE(xor8(encrypted, amountPad(sharedSecret)));
}
