/**
 * BIP340 verification through libsecp256k1: the native addon on the system's library when it is built
 * (server/crypto/native-verifier.ts), else libsecp256k1 compiled to Wasm (tiny-secp256k1). The Node full node's
 * implementation of the SignatureVerifier port (src/crypto/verifier.ts). It must answer exactly as the @noble/curves
 * reference does; test/integration/server/crypto/crypto-fast-verifier.test.ts holds both backends to the BIP340
 * vectors and to thousands of random valid and bit-flipped signatures. bench/signatures.ts measures the speed-up.
 *
 * libsecp256k1's Schnorr API takes 32-byte messages only here; every Weft signature is over a 32-byte signing hash,
 * and the rare other length (BIP340 allows any) falls back to the reference.
 */
import { verifySchnorr as wasmVerifySchnorr } from 'tiny-secp256k1';
import { publicKeyBytes, schnorrVerify, signatureBytes } from '../../src/crypto/keys.ts';
import type { SignatureVerifier } from '../../src/crypto/verifier.ts';
import { nativeSchnorr } from './native-verifier.ts';

const wasmMessageBytes = 32;

/** BIP340 verification on libsecp256k1 (native or Wasm). Never throws: malformed input is invalid. */
export function fastVerifySchnorr(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (!(signature instanceof Uint8Array) || signature.length !== signatureBytes) return false;
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== publicKeyBytes) return false;
  if (!(message instanceof Uint8Array)) return false;
  if (message.length !== wasmMessageBytes) return schnorrVerify(signature, message, publicKey);
  if (nativeSchnorr !== undefined) return nativeSchnorr.verify(signature, message, publicKey);
  return verifySchnorrOnWasm(signature, message, publicKey);
}

/** The Wasm backend alone, for a 32-byte message (tests and bench/signatures.ts compare the two). */
export function verifySchnorrOnWasm(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    // tiny-secp256k1 throws for a key that is not an x coordinate on the curve, r ≥ p and s ≥ n: BIP340 says fail.
    return wasmVerifySchnorr(message, publicKey, signature);
  } catch {
    return false;
  }
}

export const fastVerifier: SignatureVerifier = {
  name: nativeSchnorr !== undefined ? 'libsecp256k1-native' : 'libsecp256k1-wasm',
  verifySchnorr: fastVerifySchnorr,
  verifySchnorrBatch(items) {
    return items.map((item) => fastVerifySchnorr(item.signature, item.message, item.publicKey));
  },
};
