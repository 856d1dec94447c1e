/**
 * `sign_message` with `signature_type: ring` (docs/privacy.md "Ring-signed messages"): a linkable ring signature by
 * a stealth account's spend key b, hidden among other public keys of the chain (one-time output keys). It is
 * Monero's CryptoNote ring signature (src/crypto/monero/cryptonote-signature.ts) over the message digest of
 * src/wallet/message.ts (BLAKE3("weft/msg/v1" ‖ message)), with the key image I = b·Hp(B): every message one account
 * signs carries the same I (linkable), and I is unrelated to the key images of its outputs, so signing a message
 * reveals nothing about its spends.
 *
 * The ring is sorted, so a member's position is its key's rank: the same ring encodes the same whichever member
 * signed, and only the proof (which hides the index) depends on the signer. Signing needs a ring of at least 2.
 *
 * Encoding: ring_size u8 (1..16) | ring keys [32 × n] (strictly ascending) | key image [32] | (c, r) [64 × n].
 * Verification still accepts n = 1 (a signature made before rings were required), and answers the ring size.
 */
import { checkRingSignature, generateRingSignature } from '../crypto/monero/cryptonote-signature.ts';
import { generateKeyImage } from '../crypto/monero/key-image.ts';
import { encodePoint } from '../crypto/monero/point.ts';
import type { MoneroKeys } from '../crypto/monero/keys.ts';
import type { RandomBytes } from '../crypto/monero/scalar.ts';
import { PrivacyEncodingError } from '../crypto/monero/errors.ts';
import { compareBytes, concatBytes, equalBytes } from '../util/bytes.ts';
import { messageDigest } from './message.ts';

const messageRingSizeMax = 16;
/** A ring of one is a plain signature that names its signer: a message ring needs at least one decoy. */
export const messageRingSizeMin = 2;

export interface RingMessageSignature {
  readonly ring: readonly Uint8Array[];
  readonly keyImage: Uint8Array;
  readonly signatures: readonly Uint8Array[];
}

/** Signs `message` with `keys`' spend secret inside a ring made of `decoys` (other public keys) and its own key. */
export function signRingMessage(keys: MoneroKeys, message: string, decoys: readonly Uint8Array[], random: RandomBytes): Uint8Array {
  const own = encodePoint(keys.spendPublic);
  const ring = [own, ...decoys.filter((d) => !equalBytes(d, own))].sort(compareBytes);
  if (ring.length > messageRingSizeMax) throw new PrivacyEncodingError(`ring: got ${ring.length} keys, expected at most ${messageRingSizeMax}`, { reason: 'ring_size' });
  if (ring.length < messageRingSizeMin) throw new PrivacyEncodingError(`ring: got ${ring.length} key, expected at least ${messageRingSizeMin}: a ring of one names its signer`, { reason: 'not_enough_decoys' });
  for (let i = 1; i < ring.length; i++) {
    if (equalBytes(ring[i - 1]!, ring[i]!)) throw new PrivacyEncodingError('ring: a key is repeated', { reason: 'ring_size' });
  }
  const keyImage = generateKeyImage(own, keys.spendSecret);
  const signatures = generateRingSignature(messageDigest(message), keyImage, ring, keys.spendSecret, ring.findIndex((k) => equalBytes(k, own)), random);
  return concatBytes(Uint8Array.of(ring.length), ...ring, encodePoint(keyImage), ...signatures);
}

/** The parts of an encoded ring signature, or undefined when the bytes have the wrong shape. */
export function decodeRingMessageSignature(bytes: Uint8Array): RingMessageSignature | undefined {
  const n = bytes[0] ?? 0;
  if (n < 1 || n > messageRingSizeMax || bytes.length !== 1 + 32 * n + 32 + 64 * n) return undefined;
  const ring = Array.from({ length: n }, (_, i) => bytes.slice(1 + 32 * i, 33 + 32 * i));
  for (let i = 1; i < n; i++) if (compareBytes(ring[i - 1]!, ring[i]!) >= 0) return undefined;
  const keyImageAt = 1 + 32 * n;
  const signatures = Array.from({ length: n }, (_, i) => bytes.slice(keyImageAt + 32 + 64 * i, keyImageAt + 96 + 64 * i));
  return { ring, keyImage: bytes.slice(keyImageAt, keyImageAt + 32), signatures };
}

/**
 * True iff `signature` is a valid ring signature of `message` whose ring includes `spendPublic` (the stealth
 * address the caller names): "one of these keys, among them this address's, signed it". Total: bad bytes are false.
 */
export function verifyRingMessage(spendPublic: Uint8Array, message: string, signature: Uint8Array): boolean {
  const decoded = decodeRingMessageSignature(signature);
  if (decoded === undefined || !decoded.ring.some((k) => equalBytes(k, spendPublic))) return false;
  let digest: Uint8Array;
  try {
    digest = messageDigest(message);
  } catch {
    return false;
  }
  return checkRingSignature(digest, decoded.keyImage, decoded.ring, decoded.signatures);
}
