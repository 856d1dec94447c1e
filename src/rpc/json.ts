/**
 * JSON text for RPC answers. The seed types a block's `nonce` as an integer, and Weft nonces are u64: most are above
 * 2^53, where a JSON number parsed into a double loses digits. RFC 8259 §6 allows integers of any size, so results
 * carry such values as `bigint` and this writer prints their exact digits (clients with arbitrary-precision JSON —
 * Python, Go's json.Number, Rust's serde_json arbitrary_precision — read them exactly).
 */
const marker = '\u0000weft-bigint:';
// JSON.stringify escapes the NUL, so the marker can never come from a client's own string.
const markerPattern = /"\\u0000weft-bigint:(-?\d+)"/g;

export function stringifyJson(value: unknown): string {
  // Most answers hold no bigint: plain JSON.stringify (no replacer, several times faster) prints them, and throws a
  // TypeError on the first bigint it meets, which sends the value down the exact path below.
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  let sawBigint = false;
  let collision = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'string' && v.includes(marker)) collision = true;
    if (typeof v !== 'bigint') return v;
    sawBigint = true;
    return `${marker}${v.toString()}`;
  });
  if (!sawBigint) return text;
  // A string that itself carries the marker (say, a signed message echoed back) must never turn into a number:
  // then every bigint goes out as a decimal string instead.
  if (collision) return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return text.replace(markerPattern, '$1');
}
