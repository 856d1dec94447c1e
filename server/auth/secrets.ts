/**
 * Secrets the node hands out (API keys, OAuth client secrets, codes, tokens): 32 random bytes, base64url, behind a
 * recognisable prefix so secret scanners and people can tell them apart. Only their SHA-256 is stored; they are
 * high-entropy, so a fast hash is enough (no password stretching needed).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** A short random id (public: key ids, client ids). */
export function newId(bytes = 8): string {
  return randomBytes(bytes).toString('hex');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Equal-length hex or text compared without an early exit. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
