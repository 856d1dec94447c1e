/**
 * API-key request signatures (docs/design.md "Node APIs and access", docs/auth.md "Request signatures"): X-Signature is the hex
 * HMAC-SHA256, keyed with the API key, of the canonical JSON of {method, params, timestamp} (src/auth/canonical-json.ts)
 * with X-Timestamp in milliseconds. Checks, each with its own -32001 reason, in this order: headers well formed,
 * timestamp within 5 minutes of the node's clock, signature equal (constant time), signature not seen before.
 * Only good signatures enter the replay cache, and only until their timestamp leaves the window.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { hmacReplayCacheEntriesMax, hmacSignatureHexChars, hmacTimestampWindowMs } from '../../src/auth/auth-limits.ts';
import { UnauthorizedError } from '../../src/auth/auth-errors.ts';
import { insertionOrderText, signingText, type SignedCall } from '../../src/auth/canonical-json.ts';
import { LimitExceededError } from '../../src/rpc/errors.ts';
import type { Clock } from '../../src/util/clock.ts';

interface SignatureInput {
  readonly apiKey: string;
  readonly keyId: string;
  readonly timestamp: string | undefined;
  readonly signature: string | undefined;
  /** What the request asks for; undefined when its body is not JSON (nothing can be verified then). */
  readonly call: SignedCall | undefined;
}

export interface SignatureVerifier {
  verify(input: SignatureInput): void;
  /** Signatures remembered now. */
  cacheSize(): number;
}

const fail = (reason: ConstructorParameters<typeof UnauthorizedError>[0], detail: string, data: Record<string, unknown> = {}) =>
  new UnauthorizedError(reason, detail, 'api_key', data);

function hmacHex(key: string, text: string): Buffer {
  return createHmac('sha256', key).update(text, 'utf8').digest();
}

export function createSignatureVerifier(options: { clock: Clock; cacheMax?: number; windowMs?: number }): SignatureVerifier {
  const { clock } = options;
  const cacheMax = options.cacheMax ?? hmacReplayCacheEntriesMax;
  const windowMs = options.windowMs ?? hmacTimestampWindowMs;
  // signature id → the time after which its timestamp is stale anyway (a replay would fail the window check).
  const seen = new Map<string, number>();

  const remember = (id: string, timestampMs: number): void => {
    const now = clock.nowMs();
    if (seen.size >= cacheMax) for (const [k, until] of seen) if (until < now) seen.delete(k);
    // Still full of live signatures: refuse rather than forget one (forgetting would let its replay through).
    if (seen.size >= cacheMax) throw new LimitExceededError('too many signed requests in the last 5 minutes', { reason: 'replay_cache_full', limit: cacheMax });
    seen.set(id, timestampMs + windowMs);
  };

  return {
    verify({ apiKey, keyId, timestamp, signature, call }) {
      if (signature === undefined) throw fail('signature_required', 'this API key must sign its requests (X-Timestamp and X-Signature)');
      if (timestamp === undefined || !/^\d{1,16}$/.test(timestamp)) {
        throw fail('signature_malformed', 'X-Timestamp must be milliseconds since the Unix epoch as a decimal integer');
      }
      if (signature.length !== hmacSignatureHexChars || !/^[0-9a-fA-F]+$/.test(signature)) {
        throw fail('signature_malformed', `X-Signature must be ${hmacSignatureHexChars} hex digits (HMAC-SHA256)`);
      }
      if (call === undefined) throw fail('signature_malformed', 'a signed request needs a JSON body to verify');
      const timestampMs = Number(timestamp);
      const skew = timestampMs - clock.nowMs();
      if (Math.abs(skew) > windowMs) {
        throw fail('timestamp_out_of_window', `X-Timestamp is ${Math.round(skew / 1000)} s from the node's clock; at most ${windowMs / 1000} s either way`, {
          skew_ms: skew,
          window_ms: windowMs,
        });
      }
      const given = Buffer.from(signature.toLowerCase(), 'hex');
      // `timestamp` may be signed as the integer or as X-Timestamp's decimal string exactly as sent (docs/auth.md).
      const forms = [timestampMs, timestamp].flatMap((t) => [signingText(call, t), insertionOrderText(call, t)]);
      const matched = forms.map((text) => timingSafeEqual(given, hmacHex(apiKey, text))).includes(true);
      if (!matched) throw fail('signature_mismatch', 'X-Signature does not match the request (method, params, timestamp) under this key');
      const id = `${keyId}:${signature.toLowerCase()}`;
      if (seen.has(id) && seen.get(id)! >= clock.nowMs()) throw fail('signature_replayed', 'this signature was already used; sign each request with a fresh timestamp');
      remember(id, timestampMs);
    },
    cacheSize: () => seen.size,
  };
}
