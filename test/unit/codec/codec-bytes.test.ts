import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createByteReader } from '../../../src/codec/bytes-reader.ts';
import { createByteWriter, EncodeError } from '../../../src/codec/bytes-writer.ts';
import { DecodeError } from '../../../src/errors.ts';
import { toHex } from '../../../src/util/bytes.ts';

describe('ByteWriter / ByteReader', () => {
  it('round-trips every field type in order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xff }),
        fc.integer({ min: 0, max: 0xffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.maxSafeNat(),
        fc.maxSafeNat(),
        fc.uint8Array({ maxLength: 300 }),
        (a, b, c, d, e, f, g) => {
          const w = createByteWriter(1); // grows many times
          w.u8(a);
          w.u16(b);
          w.u32(c);
          w.u64(d);
          w.u64Number(e);
          w.varint(f, Number.MAX_SAFE_INTEGER);
          w.lengthPrefixed(g, 300);
          const r = createByteReader(w.finish());
          expect(r.u8()).toBe(a);
          expect(r.u16()).toBe(b);
          expect(r.u32()).toBe(c);
          expect(r.u64()).toBe(d);
          expect(r.u64Number()).toBe(e);
          expect(r.varint(Number.MAX_SAFE_INTEGER)).toBe(f);
          expect(r.lengthPrefixed(300)).toEqual(g);
          expect(r.remaining).toBe(0);
          r.end();
        },
      ),
    );
  });

  it('writes little-endian integers and LEB128 varints', () => {
    const w = createByteWriter();
    w.u16(0x0102);
    w.u32(0x01020304);
    w.u64(0x0102030405060708n);
    w.u64Number(2 ** 40 + 5);
    w.varint(300, 1000);
    expect(toHex(w.finish())).toBe('0201' + '04030201' + '0807060504030201' + '0500000000010000' + 'ac02');
  });

  it('refuses out-of-range values when writing', () => {
    const w = createByteWriter();
    expect(() => w.u8(256)).toThrow(EncodeError);
    expect(() => w.u16(-1)).toThrow(EncodeError);
    expect(() => w.u32(2 ** 32)).toThrow(EncodeError);
    expect(() => w.u64(1n << 64n)).toThrow(EncodeError);
    expect(() => w.u64Number(2 ** 53)).toThrow(EncodeError);
    expect(() => w.varint(11, 10)).toThrow(EncodeError);
    expect(() => w.bytes(new Uint8Array(3), 4)).toThrow(EncodeError);
    expect(() => w.lengthPrefixed(new Uint8Array(5), 4)).toThrow(EncodeError);
    expect(w.length).toBe(0);
  });

  it('refuses reading past the end, saying what was expected and got', () => {
    const r = createByteReader(Uint8Array.of(1, 2, 3));
    expect(() => r.u32('field')).toThrow(/field: expected 4 bytes at offset 0, got 3/);
    expect(r.u16()).toBe(0x0201);
    expect(() => r.bytes(2)).toThrow(DecodeError);
  });

  it('refuses a u64 above the safe-integer range where a number is wanted', () => {
    const w = createByteWriter();
    w.u64(1n << 53n);
    expect(() => createByteReader(w.finish()).u64Number('ts')).toThrow(/ts: expected a u64 ≤ 2\^53-1/);
    const ok = createByteWriter();
    ok.u64(2n ** 53n - 1n);
    expect(createByteReader(ok.finish()).u64Number()).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses non-minimal, overlong and over-max varints', () => {
    expect(() => createByteReader(Uint8Array.of(0x80, 0x00)).varint(1000)).toThrow(/non-minimal/);
    expect(() => createByteReader(new Uint8Array(9).fill(0x81)).varint(Number.MAX_SAFE_INTEGER)).toThrow(/longer/);
    expect(() => createByteReader(Uint8Array.of(0xac, 0x02)).varint(299)).toThrow(/at most 299, got 300/);
    expect(createByteReader(Uint8Array.of(0x00)).varint(0)).toBe(0);
  });

  it('refuses a length prefix above its named max before reading the bytes', () => {
    const r = createByteReader(Uint8Array.of(5, 1, 2, 3, 4, 5));
    expect(() => r.lengthPrefixed(4, 'memo')).toThrow(/memo length: expected at most 4, got 5/);
  });

  it('end() refuses trailing bytes', () => {
    const r = createByteReader(Uint8Array.of(1, 2));
    r.u8();
    expect(() => r.end('thing')).toThrow(/thing: expected end of input at offset 1, got 1 trailing bytes/);
  });

  it('returns copies, never views of the input', () => {
    const input = Uint8Array.of(1, 2, 3);
    const out = createByteReader(input).bytes(3);
    input[0] = 9;
    expect(out[0]).toBe(1);
  });
});
