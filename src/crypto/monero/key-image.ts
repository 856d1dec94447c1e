/**
 * Key images (Monero `generate_key_image`, note §1.7): I = x·Hp(P) with Hp = hash_to_ec of the one-time key's
 * encoding. The same output always yields the same I, so a second spend is visible as a repeated key image.
 * Verifiers decode I with `decodeSubgroupPoint` (torsion-free, not the identity): Monero's 2017 fix.
 */
import { hashToEc } from './hash-to-ec.ts';
import { mulSecret, type Point } from './point.ts';

export function generateKeyImage(oneTimePublicKey: Uint8Array, oneTimeSecret: bigint): Point {
  return mulSecret(hashToEc(oneTimePublicKey), oneTimeSecret);
}
