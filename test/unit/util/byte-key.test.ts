import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteKey } from '../../../src/util/byte-key.ts';
import { equalBytes } from '../../../src/util/bytes.ts';

describe('byteKey', () => {
  it('is one character per byte, each the byte’s value', () => {
    const key = byteKey(Uint8Array.of(0, 1, 0x7f, 0x80, 0xff));
    expect(key.length).toBe(5);
    expect([...key].map((c) => c.charCodeAt(0))).toEqual([0, 1, 0x7f, 0x80, 0xff]);
    expect(byteKey(new Uint8Array(0))).toBe('');
  });

  it('gives equal keys exactly for equal bytes (a Map keyed by it never merges two byte strings)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.uint8Array({ maxLength: 80 }), (a, b) => {
        expect(byteKey(a) === byteKey(b)).toBe(equalBytes(a, b));
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads a view’s own bytes, not its whole buffer', () => {
    const buffer = Uint8Array.of(9, 1, 2, 3, 9);
    expect(byteKey(buffer.subarray(1, 4))).toBe(byteKey(Uint8Array.of(1, 2, 3)));
  });
});
