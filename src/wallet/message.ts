/**
 * Message signing (`sign_message` / `verify_message`): a signature over BLAKE3("weft/msg/v1" ‖ message), by the
 * key of a standard address, as BIP340 Schnorr or even-y ECDSA (src/crypto/keys.ts, docs/transactions.md). The
 * domain tag differs from the transaction tag ("weft/tx/v1"), so a signed message can never be replayed as a
 * transaction signature, nor the other way round. The tag is a fixed prefix, so the digest is injective in the
 * message. Signatures are 64 bytes either way (Schnorr `R.x ‖ s`, ECDSA compact `r ‖ s` with low s).
 */
import { AddressType } from '../crypto/address.ts';
import { blake3 } from '../crypto/blake3.ts';
import { ecdsaSign, ecdsaVerify, schnorrSign, schnorrVerify } from '../crypto/keys.ts';
import { concatBytes } from '../util/bytes.ts';
import { WalletParamError } from './errors.ts';
import { walletMessageBytesMax } from './wallet-limits.ts';

export type MessageSignatureType = 'ecdsa' | 'schnorr';

const messageTag = new TextEncoder().encode('weft/msg/v1');

function messageBytes(message: string | Uint8Array): Uint8Array {
  const bytes = typeof message === 'string' ? new TextEncoder().encode(message) : message;
  if (!(bytes instanceof Uint8Array) || bytes.length > walletMessageBytesMax) {
    throw new WalletParamError('bad_request', `message: expected at most ${walletMessageBytesMax} bytes`);
  }
  return bytes;
}

/** BLAKE3("weft/msg/v1" ‖ message): what both signature types sign. A string is taken as its UTF-8 bytes. */
export function messageDigest(message: string | Uint8Array): Uint8Array {
  return blake3(concatBytes(messageTag, messageBytes(message)));
}

/** Signs a message with a private key. `auxRand`: 32 fresh random bytes (BIP340 aux / hedged RFC 6979). */
export function signMessageWithKey(
  privateKey: Uint8Array,
  message: string | Uint8Array,
  type: MessageSignatureType,
  auxRand: Uint8Array,
): Uint8Array {
  const digest = messageDigest(message);
  if (type === 'schnorr') return schnorrSign(digest, privateKey, auxRand);
  if (type === 'ecdsa') return ecdsaSign(digest, privateKey, auxRand);
  throw new WalletParamError('bad_request', `signature_type: got ${String(type)}, expected ecdsa or schnorr`);
}

/**
 * True iff `signature` is a valid `type` signature of `message` by the standard address `address` (33 bytes).
 * Pure and total: a multisig address, a malformed signature or an unknown type is simply false.
 */
export function verifyMessage(
  address: Uint8Array,
  message: string | Uint8Array,
  signature: Uint8Array,
  type: MessageSignatureType,
): boolean {
  if (!(address instanceof Uint8Array) || address.length !== 33 || address[0] !== AddressType.Standard) return false;
  let digest: Uint8Array;
  try {
    digest = messageDigest(message);
  } catch {
    return false;
  }
  const publicKey = address.subarray(1);
  if (type === 'schnorr') return schnorrVerify(signature, digest, publicKey);
  if (type === 'ecdsa') return ecdsaVerify(signature, digest, publicKey);
  return false;
}
