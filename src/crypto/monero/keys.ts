/**
 * Monero wallet keys (note §1.2, §4.2): a spend secret b and a view secret a = Hs(b), so one seed restores both;
 * public keys B = b·G and A = a·G. `secretKeyToPublicKey` is Monero's: it refuses a non-canonical secret (sc_check).
 */
import { Point, mulBase } from './point.ts';
import { decodeScalar, encodeScalar, hashToScalar } from './scalar.ts';

export interface MoneroKeys {
  readonly spendSecret: bigint;
  readonly viewSecret: bigint;
  readonly spendPublic: Point;
  readonly viewPublic: Point;
}

/** Monero `secret_key_to_public_key`: s·G for a canonical s (throws PrivacyEncodingError otherwise). */
export function secretKeyToPublicKey(secret: Uint8Array): Point {
  const s = decodeScalar(secret, 'secret key');
  // Zero is canonical, and Monero answers the identity for it; noble's constant-time multiply refuses 0.
  return s === 0n ? Point.ZERO : mulBase(s);
}

/** The view secret Monero wallets derive from the spend secret: a = Hs(b). */
function viewSecretFromSpendSecret(spendSecret: bigint): bigint {
  return hashToScalar(encodeScalar(spendSecret));
}

export function keysFromSpendSecret(spendSecret: bigint): MoneroKeys {
  const viewSecret = viewSecretFromSpendSecret(spendSecret);
  return { spendSecret, viewSecret, spendPublic: mulBase(spendSecret), viewPublic: mulBase(viewSecret) };
}
