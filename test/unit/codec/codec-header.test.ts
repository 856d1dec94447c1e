import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createByteReader } from '../../../src/codec/bytes-reader.ts';
import { createByteWriter, EncodeError } from '../../../src/codec/bytes-writer.ts';
import {
  decodeHeader,
  encodeHeader,
  encodePrePowHeader,
  readHeader,
  writeHeader,
  type BlockHeader,
} from '../../../src/codec/header.ts';
import { DecodeError } from '../../../src/errors.ts';
import { headerBytesMax, headerBytesMin, headerParentsMax, headerV1BytesMax } from '../../../src/limits.ts';
import { compareBytes, concatBytes, toHex } from '../../../src/util/bytes.ts';

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });

const headerArb: fc.Arbitrary<BlockHeader> = fc.record({
  version: fc.constant(1),
  parents: fc
    .uniqueArray(hash, { maxLength: headerParentsMax, selector: (h) => toHex(h) })
    .map((ps) => [...ps].sort(compareBytes)),
  txRoot: hash,
  stateRoot: hash,
  timestampMs: fc.maxSafeNat(),
  bits: fc.integer({ min: 0, max: 0xffffffff }),
  daaScore: fc.maxSafeNat(),
  blueScore: fc.maxSafeNat(),
  blueWork: fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
  miner: fc.tuple(fc.constantFrom(0, 1), hash).map(([t, p]) => concatBytes(Uint8Array.of(t), p)),
  gpuMining: fc.boolean(),
  nonce: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
});

function sampleHeader(parentCount: number, blueWork = 0x0102n): BlockHeader {
  const parents = Array.from({ length: parentCount }, (_, i) => new Uint8Array(32).fill(i + 1));
  return {
    version: 1,
    parents,
    txRoot: new Uint8Array(32).fill(0xaa),
    stateRoot: new Uint8Array(32).fill(0xbb),
    timestampMs: 1_767_225_600_123,
    bits: 0x1f008000,
    daaScore: 7,
    blueScore: 6,
    blueWork,
    miner: concatBytes(Uint8Array.of(0), new Uint8Array(32).fill(0xcc)),
    gpuMining: true,
    nonce: 0x0102030405060708n,
  };
}

/** Little-endian hex of an unsigned integer. */
const le = (n: bigint, bytes: number): string =>
  Array.from({ length: bytes }, (_, i) => ((n >> BigInt(8 * i)) & 0xffn).toString(16).padStart(2, '0')).join('');

/** Offset of the blueWork length byte for a header with `parents` parents. */
const blueWorkOffset = (parents: number): number => 2 + 1 + 32 * parents + 32 + 32 + 8 + 4 + 8 + 8;

describe('header codec', () => {
  it('round-trips any valid header and re-encodes to the same bytes', () => {
    fc.assert(
      fc.property(headerArb, (h) => {
        const bytes = encodeHeader(h);
        expect(bytes.length).toBeGreaterThanOrEqual(headerBytesMin);
        expect(bytes.length).toBeLessThanOrEqual(headerBytesMax);
        const back = decodeHeader(bytes);
        expect(back).toEqual(h);
        expect(encodeHeader(back)).toEqual(bytes);
      }),
    );
  });

  it('pre-PoW bytes are the encoding minus its last 8 bytes (the nonce)', () => {
    fc.assert(
      fc.property(headerArb, (h) => {
        const bytes = encodeHeader(h);
        expect(encodePrePowHeader(h)).toEqual(bytes.subarray(0, bytes.length - 8));
        expect(encodePrePowHeader({ ...h, nonce: h.nonce ^ 1n })).toEqual(encodePrePowHeader(h));
      }),
    );
  });

  it('lays the fields out little-endian in the documented order', () => {
    const hex = toHex(encodeHeader(sampleHeader(1)));
    const expected =
      '0100' + // version
      '01' + '01'.repeat(32) + // parents
      'aa'.repeat(32) + 'bb'.repeat(32) + // txRoot, stateRoot
      le(1_767_225_600_123n, 8) + // timestampMs
      le(0x1f008000n, 4) + // bits
      le(7n, 8) + le(6n, 8) + // daaScore, blueScore
      '020102' + // blueWork: length 2, then 0x0102 big-endian
      '00' + 'cc'.repeat(32) + // miner
      '01' + // gpuMining
      '0807060504030201'; // nonce
    expect(hex).toBe(expected);
    expect(hex.length / 2).toBe(headerBytesMin + 32 + 2);
  });

  it('reaches headerBytesMin and headerV1BytesMax exactly', () => {
    expect(encodeHeader(sampleHeader(0, 0n)).length).toBe(headerBytesMin);
    expect(encodeHeader(sampleHeader(headerParentsMax, (1n << 256n) - 1n)).length).toBe(headerV1BytesMax);
  });

  it('readHeader/writeHeader compose inside a larger message', () => {
    const w = createByteWriter();
    writeHeader(w, sampleHeader(2));
    w.u8(0x42);
    const r = createByteReader(w.finish());
    expect(readHeader(r)).toEqual(sampleHeader(2));
    expect(r.u8()).toBe(0x42);
    r.end();
  });
});

describe('header decoding bounds', () => {
  const good = encodeHeader(sampleHeader(2));
  const patched = (offset: number, ...bytes: number[]): Uint8Array => {
    const copy = good.slice();
    copy.set(bytes, offset);
    return copy;
  };

  it('refuses an unknown version', () => {
    expect(() => decodeHeader(patched(0, 3, 0))).toThrow(/header.version: expected one of 1, 2, got 3/);
  });

  it(`refuses more than ${headerParentsMax} parents`, () => {
    const h = encodeHeader(sampleHeader(headerParentsMax));
    const extra = concatBytes(h.subarray(0, 2), Uint8Array.of(11), h.subarray(3, 3 + 320), new Uint8Array(32).fill(0xfe), h.subarray(323));
    expect(() => decodeHeader(extra)).toThrow(DecodeError);
    expect(() => decodeHeader(extra)).toThrow(/at most 10, got 11/);
    expect(() => readHeader(createByteReader(extra))).toThrow(/header.parents: expected at most 10, got 11/);
  });

  it('refuses parents out of order or repeated', () => {
    const swapped = concatBytes(good.subarray(0, 3), good.subarray(35, 67), good.subarray(3, 35), good.subarray(67));
    expect(() => decodeHeader(swapped)).toThrow(/strictly ascending/);
    const repeated = concatBytes(good.subarray(0, 3), good.subarray(3, 35), good.subarray(3, 35), good.subarray(67));
    expect(() => decodeHeader(repeated)).toThrow(/strictly ascending/);
  });

  it('refuses a blueWork longer than 32 bytes or with a leading zero', () => {
    const off = blueWorkOffset(2);
    expect(good[off]).toBe(2);
    expect(() => decodeHeader(patched(off, 33))).toThrow(/header.blueWork: expected at most 32 bytes, got 33/);
    expect(() => decodeHeader(patched(off + 1, 0))).toThrow(/leading zero/);
  });

  it('refuses a gpuMining byte other than 0 or 1, and an unknown miner address type', () => {
    expect(() => decodeHeader(patched(good.length - 9, 2))).toThrow(/header.gpuMining: expected 0 or 1, got 2/);
    expect(() => decodeHeader(patched(good.length - 9 - 33, 2))).toThrow(/header.miner: expected address type/);
  });

  it('refuses a timestamp or score above 2^53-1', () => {
    const tsOffset = 3 + 64 + 64;
    expect(() => decodeHeader(patched(tsOffset + 6, 0x20))).toThrow(/header.timestampMs: expected a u64 ≤ 2\^53-1/);
  });

  it('refuses truncated input and trailing bytes', () => {
    expect(() => decodeHeader(good.subarray(0, good.length - 1))).toThrow(/header.nonce: expected 8 bytes/);
    expect(() => decodeHeader(concatBytes(good, Uint8Array.of(0)))).toThrow(/trailing/);
    expect(() => decodeHeader(new Uint8Array(headerBytesMax + 1))).toThrow(`expected at most ${headerBytesMax} bytes, got ${headerBytesMax + 1}`);
  });

  it('every error above is a DecodeError', () => {
    for (const bad of [patched(0, 9, 9), good.subarray(0, 10), patched(good.length - 9, 7)]) {
      expect(() => decodeHeader(bad)).toThrow(DecodeError);
    }
  });
});

describe('header encoding refuses what decoding would refuse', () => {
  const h = sampleHeader(2);
  it.each([
    ['unknown version', { version: 3 }],
    ['version 2 without its fields', { version: 2 }],
    ['version 1 with a pruning point', { pruningPoint: new Uint8Array(32) }],
    ['too many parents', { parents: Array.from({ length: 11 }, (_, i) => new Uint8Array(32).fill(i)) }],
    ['unsorted parents', { parents: [...h.parents].reverse() }],
    ['short parent', { parents: [new Uint8Array(31)] }],
    ['short txRoot', { txRoot: new Uint8Array(31) }],
    ['unsafe timestamp', { timestampMs: 2 ** 53 }],
    ['bits out of u32', { bits: 2 ** 32 }],
    ['negative blueWork', { blueWork: -1n }],
    ['blueWork ≥ 2^256', { blueWork: 1n << 256n }],
    ['miner length', { miner: new Uint8Array(32) }],
    ['miner type', { miner: new Uint8Array(33).fill(2) }],
    ['nonce ≥ 2^64', { nonce: 1n << 64n }],
  ] as [string, Partial<BlockHeader>][])('%s', (_, patch) => {
    expect(() => encodeHeader({ ...h, ...patch })).toThrow(EncodeError);
  });
});
