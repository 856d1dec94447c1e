/**
 * Stealth addresses (docs/privacy.md "Stealth addresses"): the public spend key B and view key A of a Monero-style
 * dual-key account, optionally with an 8-byte payment id (an integrated address). They are destinations only —
 * nothing on chain ever carries one; senders derive a fresh one-time key from them for every output.
 *
 * String form: bech32m (like standard addresses) with the network's prefix plus `s` (`wefts`, `twefts`, `dwefts`,
 * `rwefts`), so a stealth address can never be mistaken for a standard one; the data part is
 *   version u8 (0 standard, 1 integrated) | spend [32] | view [32] | payment_id [8] (version 1 only)
 * Points are decoded strictly (canonical, not small-order): a malformed key is a -40006 privacy error naming it.
 */
import { bech32m } from '@scure/base';
import { concatBytes } from '../util/bytes.ts';
import { PrivacyEncodingError } from './monero/errors.ts';
import { paymentIdBytes } from './monero/payment-id.ts';
import { decodePublicPoint, encodePoint, type Point } from './monero/point.ts';

/** 1 + 64 + 8 bytes are 117 five-bit words: with a 6-letter prefix and checksum, 130 characters at most. */
export const stealthAddressCharsMax = 140;
const versionStandard = 0;
const versionIntegrated = 1;

export interface StealthAddress {
  readonly spendPublic: Point;
  readonly viewPublic: Point;
  /** Present for an integrated address. */
  readonly paymentId?: Uint8Array;
}

/** The stealth prefix of a network whose standard prefix is `hrp`. */
function stealthHrp(hrp: string): string {
  return `${hrp}s`;
}

function refuse(message: string, reason: string): never {
  throw new PrivacyEncodingError(message, { reason });
}

export function encodeStealthAddress(hrp: string, address: StealthAddress): string {
  const keys = concatBytes(encodePoint(address.spendPublic), encodePoint(address.viewPublic));
  let data: Uint8Array;
  if (address.paymentId === undefined) data = concatBytes(Uint8Array.of(versionStandard), keys);
  else {
    if (address.paymentId.length !== paymentIdBytes) refuse(`payment_id: got ${address.paymentId.length} bytes, expected ${paymentIdBytes}`, 'bad_payment_id');
    data = concatBytes(Uint8Array.of(versionIntegrated), keys, address.paymentId);
  }
  return bech32m.encode(stealthHrp(hrp), bech32m.toWords(data), stealthAddressCharsMax);
}

/** True when `text` carries the network's stealth prefix (cheap: no checksum), so callers can route it. */
export function looksLikeStealthAddress(text: string, hrp: string): boolean {
  return typeof text === 'string' && text.toLowerCase().startsWith(`${stealthHrp(hrp)}1`);
}

/** Parses a stealth address of the network `hrp`; throws PrivacyEncodingError (-40006) with a reason. */
export function decodeStealthAddress(text: string, hrp: string): StealthAddress {
  if (typeof text !== 'string' || text.length > stealthAddressCharsMax) refuse(`stealth address: expected at most ${stealthAddressCharsMax} characters`, 'bad_stealth_address');
  const lower = text.toLowerCase();
  if (text !== lower && text !== text.toUpperCase()) refuse('stealth address: got mixed case', 'bad_stealth_address');
  const expected = stealthHrp(hrp);
  const separator = lower.lastIndexOf('1');
  if (lower.slice(0, Math.max(separator, 0)) !== expected) refuse(`stealth address: expected the prefix "${expected}1"`, 'bad_stealth_address');
  const decoded = bech32m.decodeUnsafe(lower, stealthAddressCharsMax);
  if (decoded === undefined) refuse('stealth address: bech32m checksum or characters invalid', 'bad_stealth_address');
  const data = bech32m.fromWordsUnsafe(decoded.words);
  if (data === undefined) refuse('stealth address: non-zero or excess padding bits', 'bad_stealth_address');
  const version = data[0];
  const length = version === versionStandard ? 65 : version === versionIntegrated ? 65 + paymentIdBytes : -1;
  if (data.length !== length) refuse(`stealth address: got version ${String(version)} with ${data.length} bytes`, 'bad_stealth_address');
  return {
    spendPublic: decodePublicPoint(data.subarray(1, 33), 'public spend key'),
    viewPublic: decodePublicPoint(data.subarray(33, 65), 'public view key'),
    ...(version === versionIntegrated ? { paymentId: data.slice(65) } : {}),
  };
}
