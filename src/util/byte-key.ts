/**
 * A byte string as a compact Map or Set key: one UTF-16 unit per byte, so distinct bytes give distinct keys (the map
 * is injective: equal keys, equal bytes). Built in one call: concatenating a character per byte makes a rope V8
 * flattens again on every hash, ~5× slower for the tens of thousands of keys a block writes (issue 29). Not for
 * display (use toHex) and not for inputs over ~64 KiB (the argument list of one call).
 */
export function byteKey(bytes: Uint8Array): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[]);
}
