/**
 * The signature-verification port. Block and mempool validation verify thousands of BIP340 signatures; the core
 * asks this port rather than a library, so the Node full node can plug in libsecp256k1 (Wasm) and worker threads
 * (server/crypto/fast-verifier.ts, server/crypto/verify-pool.ts) while browsers keep the pure-JS reference.
 *
 * Every implementation must agree with `nobleVerifier` bit for bit: a verifier that accepted one signature the
 * reference refuses would split consensus. Verification never throws on bad input; it answers false.
 */
import { schnorrVerify } from './keys.ts';

/** One BIP340 check: `signature` (64 bytes) over `message` by the x-only `publicKey` (32 bytes). */
export interface SchnorrCheck {
  readonly signature: Uint8Array;
  /** 32 bytes in every Weft use (a signing hash); other lengths are valid BIP340 and answered too. */
  readonly message: Uint8Array;
  readonly publicKey: Uint8Array;
}

export interface SignatureVerifier {
  readonly name: string;
  verifySchnorr(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
  /** One answer per item, in order. May be sequential. */
  verifySchnorrBatch(items: readonly SchnorrCheck[]): boolean[];
}

/** A verifier that works off the calling thread (worker pools): same answers, delivered later. */
export interface AsyncSignatureVerifier {
  readonly name: string;
  verifySchnorrBatch(items: readonly SchnorrCheck[]): Promise<boolean[]>;
}

/** The reference: @noble/curves' BIP340, one signature at a time. Runs everywhere (src/ is isomorphic). */
export const nobleVerifier: SignatureVerifier = {
  name: 'noble',
  verifySchnorr: schnorrVerify,
  verifySchnorrBatch(items) {
    return items.map((item) => schnorrVerify(item.signature, item.message, item.publicKey));
  },
};
