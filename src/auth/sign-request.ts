/**
 * The client side of API-key request signatures (docs/auth.md "Request signatures"), for browser wallets and tests:
 * X-Signature = hex(HMAC-SHA256(key = the API key's UTF-8 bytes, message = signingText(call, timestamp))).
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { signingText, type SignedCall } from './canonical-json.ts';

/**
 * How `timestamp` appears in the signed object: `number` (the integer, the default) or `string` (X-Timestamp's decimal
 * text exactly as sent, the seed client's form). The node accepts both (docs/auth.md "Request signatures").
 */
export type SignedTimestampForm = 'number' | 'string';

export function signCall(apiKey: string, call: SignedCall, timestampMs: number, form: SignedTimestampForm = 'number'): string {
  const timestamp = form === 'string' ? String(timestampMs) : timestampMs;
  return bytesToHex(hmac(sha256, utf8ToBytes(apiKey), utf8ToBytes(signingText(call, timestamp))));
}

/** The three headers of a signed request. */
export function signedHeaders(apiKey: string, call: SignedCall, timestampMs: number, form: SignedTimestampForm = 'number'): Record<string, string> {
  return { 'X-API-Key': apiKey, 'X-Timestamp': String(timestampMs), 'X-Signature': signCall(apiKey, call, timestampMs, form) };
}
