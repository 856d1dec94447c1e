/**
 * JSON Canonicalization Scheme (RFC 8785) for the API-key signature (docs/auth.md "Request signatures"): object keys
 * sorted by UTF-16 code units, no whitespace, numbers and strings exactly as ECMAScript's JSON.stringify writes them
 * (RFC 8785 §3.2.2 adopts that serialisation). The signed text is canonicalize({method, params, timestamp}).
 */

export function canonicalize(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('canonical JSON has no NaN or Infinity');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalize(v))).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // Default sort compares UTF-16 code units, which is RFC 8785 §3.2.3's order.
    const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalize(record[k])}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
}

/** What a JSON-RPC request signature covers: one call, or a whole batch as method "batch" with the array as params. */
export interface SignedCall {
  readonly method: string;
  readonly params: unknown;
}

/**
 * The exact text the HMAC is computed over (absent params count as `{}`). `timestamp` is the integer of X-Timestamp,
 * or that header's decimal string as sent (clients sign what they send); the node accepts either form.
 */
export function signingText(call: SignedCall, timestamp: number | string): string {
  return canonicalize({ method: call.method, params: call.params ?? {}, timestamp });
}

/**
 * The second accepted form: compact JSON with the keys in the order the client wrote them, i.e. what JavaScript's
 * `JSON.stringify({method, params, timestamp})` gives for the same params object that went into the body.
 */
export function insertionOrderText(call: SignedCall, timestamp: number | string): string {
  return JSON.stringify({ method: call.method, params: call.params ?? {}, timestamp });
}
