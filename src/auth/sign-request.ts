/**
 * The client side of API-key request signatures (docs/auth.md "Request signatures"), for browser wallets and tests:
 * X-Signature = hex(HMAC-SHA256(key = the API key's UTF-8 bytes, message = signingText(call, timestamp))).
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { signingText, type SignedCall } from './canonical-json.ts';

export function signCall(apiKey: string, call: SignedCall, timestampMs: number): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(apiKey), utf8ToBytes(signingText(call, timestampMs))));
}

/** The three headers of a signed request. */
export function signedHeaders(apiKey: string, call: SignedCall, timestampMs: number): Record<string, string> {
  return { 'X-API-Key': apiKey, 'X-Timestamp': String(timestampMs), 'X-Signature': signCall(apiKey, call, timestampMs) };
}
