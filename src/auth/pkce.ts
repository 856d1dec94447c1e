/**
 * PKCE (RFC 7636) checks for the node's OAuth server: only the S256 method (plain is refused, RFC 9700 §2.1.1),
 * verifiers and challenges of the RFC's alphabet and length.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base64urlnopad } from '@scure/base';
import { pkceVerifierCharsMax, pkceVerifierCharsMin } from './auth-limits.ts';

const unreserved = /^[A-Za-z0-9\-._~]+$/;

/** RFC 7636 §4.1: 43–128 characters of [A-Z a-z 0-9 - . _ ~]. */
function isValidVerifier(verifier: string): boolean {
  return verifier.length >= pkceVerifierCharsMin && verifier.length <= pkceVerifierCharsMax && unreserved.test(verifier);
}

/** An S256 challenge is BASE64URL(SHA-256(verifier)) without padding: exactly 43 characters. */
export function isValidChallenge(challenge: string): boolean {
  return challenge.length === 43 && /^[A-Za-z0-9\-_]+$/.test(challenge);
}

/** RFC 7636 §4.2. */
export function s256Challenge(verifier: string): string {
  return base64urlnopad.encode(sha256(utf8ToBytes(verifier)));
}

/** RFC 7636 §4.6: the verifier hashes to the challenge stored with the code. */
export function verifyS256(verifier: string, challenge: string): boolean {
  if (!isValidVerifier(verifier)) return false;
  const computed = s256Challenge(verifier);
  // Both sides are public-length base64url strings; compare without an early exit anyway.
  if (computed.length !== challenge.length) return false;
  let diff = 0;
  for (let i = 0; i < computed.length; i++) diff |= computed.charCodeAt(i) ^ challenge.charCodeAt(i);
  return diff === 0;
}
