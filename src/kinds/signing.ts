/**
 * Transaction hashing (docs/transactions.md "Hashing and signing"), the same for every kind:
 *   signing hash = BLAKE3("weft/tx/v1" || body)  — covers chain_id, so a signature never replays on another network;
 *   tx hash      = BLAKE3(body || witness)        — the id the APIs show.
 */
import { blake3 } from '../crypto/blake3.ts';
import { signatureBytes } from '../crypto/keys.ts';
import { concatBytes } from '../util/bytes.ts';

const signingTag = new TextEncoder().encode('weft/tx/v1');

/** BLAKE3("weft/tx/v1" || body): what every signature of a transaction signs. Witness-free, so never malleable. */
export function signingHashOfBody(body: Uint8Array): Uint8Array {
  return blake3(concatBytes(signingTag, body));
}

/** body ‖ a 64-byte BIP340 witness: the encoding of the single-signature kinds. `fail` reports a wrong signature. */
export function withSignature(body: Uint8Array, signature: Uint8Array, fail: (message: string) => never): Uint8Array {
  if (!(signature instanceof Uint8Array) || signature.length !== signatureBytes) fail(`transaction signature: expected ${signatureBytes} bytes`);
  return concatBytes(body, signature);
}
