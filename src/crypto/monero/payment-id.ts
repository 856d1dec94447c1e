/**
 * Encrypted payment ids (Monero `encrypt_payment_id`, note §1.5): an integrated address's 8-byte payment id goes on
 * chain as pid ⊕ keccak(D ‖ 0x8d)[0..8], with D the key derivation of the transaction (8·r·A = 8·a·R). Only the
 * holder of the view key reads it. Long unencrypted 32-byte ids are not accepted (docs/privacy.md "Decisions").
 */
import { concatBytes } from '../../util/bytes.ts';
import { PrivacyEncodingError } from './errors.ts';
import { fastHash } from './scalar.ts';

export const paymentIdBytes = 8;
/** Monero `ENCRYPTED_PAYMENT_ID_TAIL`. */
const encryptedPaymentIdTail = new Uint8Array([0x8d]);

/** XORs the id with the derivation's pad: the same call encrypts and decrypts. */
export function cryptPaymentId(paymentId: Uint8Array, derivation: Uint8Array): Uint8Array {
  if (paymentId.length !== paymentIdBytes) {
    throw new PrivacyEncodingError(`payment id: got ${paymentId.length} bytes, expected ${paymentIdBytes}`);
  }
  const pad = fastHash(concatBytes(derivation, encryptedPaymentIdTail));
  return paymentId.map((b, i) => b ^ pad[i]!);
}
