/**
 * BIP340 verification through libsecp256k1 compiled to Wasm (tiny-secp256k1): the Node full node's implementation of
 * the SignatureVerifier port (src/crypto/verifier.ts). It must answer exactly as the @noble/curves reference does;
 * test/integration/server/crypto/crypto-fast-verifier.test.ts holds it to the BIP340 vectors and to thousands of random valid and bit-flipped
 * signatures. bench/signatures.ts measures the speed-up (docs/transactions.md quotes it).
 *
 * libsecp256k1's Schnorr API takes 32-byte messages only; every Weft signature is over a 32-byte signing hash, and
 * the rare other length (BIP340 allows any) falls back to the reference.
 */
import { verifySchnorr as wasmVerifySchnorr } from 'tiny-secp256k1';
import { publicKeyBytes, schnorrVerify, signatureBytes } from '../../src/crypto/keys.ts';
import type { SignatureVerifier } from '../../src/crypto/verifier.ts';

const wasmMessageBytes = 32;

/** BIP340 verification on libsecp256k1. Never throws: tiny-secp256k1 throws on malformed input, which is invalid. */
export function fastVerifySchnorr(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (!(signature instanceof Uint8Array) || signature.length !== signatureBytes) return false;
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== publicKeyBytes) return false;
  if (!(message instanceof Uint8Array)) return false;
  if (message.length !== wasmMessageBytes) return schnorrVerify(signature, message, publicKey);
  try {
    // tiny-secp256k1 throws for a key that is not an x coordinate on the curve, r ≥ p and s ≥ n: BIP340 says fail.
    return wasmVerifySchnorr(message, publicKey, signature);
  } catch {
    return false;
  }
}

export const fastVerifier: SignatureVerifier = {
  name: 'libsecp256k1-wasm',
  verifySchnorr: fastVerifySchnorr,
  verifySchnorrBatch(items) {
    return items.map((item) => fastVerifySchnorr(item.signature, item.message, item.publicKey));
  },
};
