import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EncodeError } from '../../../src/codec/bytes-writer.ts';
import { decodeHeader, encodeHeader, encodedHeaderBytes, levelParentsAt, type BlockHeader, type LevelParentsRun } from '../../../src/codec/header.ts';
import { DecodeError } from '../../../src/errors.ts';
import { headerBytesMax, headerLevelRunsMax, headerLevelsCovered, headerParentsMax } from '../../../src/limits.ts';
import { compareBytes, concatBytes, toHex } from '../../../src/util/bytes.ts';

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });
const sortedHashes = (min: number): fc.Arbitrary<Uint8Array[]> =>
  fc.uniqueArray(hash, { minLength: min, maxLength: headerParentsMax, selector: (h) => toHex(h) }).map((ps) => [...ps].sort(compareBytes));

/** Splits 255 levels into `cuts`-given runs whose neighbours differ (a repeated list is merged into its neighbour). */
const runsArb: fc.Arbitrary<LevelParentsRun[]> = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 1, max: headerLevelsCovered - 1 }), { maxLength: 12 }), fc.array(sortedHashes(1), { minLength: 13, maxLength: 13 }))
  .map(([cuts, lists]) => {
    const bounds = [0, ...[...cuts].sort((a, b) => a - b), headerLevelsCovered];
    const runs: LevelParentsRun[] = [];
    for (let i = 1; i < bounds.length; i++) {
      const parents = lists[i - 1]!;
      const last = runs[runs.length - 1];
      const levels = bounds[i]! - bounds[i - 1]!;
      if (last && toHex(concatBytes(...last.parents)) === toHex(concatBytes(...parents))) runs[runs.length - 1] = { levels: last.levels + levels, parents };
      else runs.push({ levels, parents });
    }
    return runs;
  });

const headerV2Arb: fc.Arbitrary<BlockHeader> = fc.record({
  version: fc.constant(2),
  parents: sortedHashes(0),
  levelParents: runsArb,
  txRoot: hash,
  stateRoot: hash,
  pruningPoint: hash,
  timestampMs: fc.maxSafeNat(),
  bits: fc.integer({ min: 0, max: 0xffffffff }),
  daaScore: fc.maxSafeNat(),
  blueScore: fc.maxSafeNat(),
  blueWork: fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
  miner: fc.tuple(fc.constantFrom(0, 1), hash).map(([t, p]) => concatBytes(Uint8Array.of(t), p)),
  gpuMining: fc.boolean(),
  nonce: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
});

const filled = (byte: number): Uint8Array => new Uint8Array(32).fill(byte);

function sampleV2(): BlockHeader {
  return {
    version: 2,
    parents: [filled(1), filled(2)],
    levelParents: [
      { levels: 3, parents: [filled(1)] },
      { levels: headerLevelsCovered - 3, parents: [filled(9)] },
    ],
    txRoot: filled(0xaa),
    stateRoot: filled(0xbb),
    pruningPoint: filled(0xdd),
    timestampMs: 1_767_225_600_123,
    bits: 0x1f008000,
    daaScore: 7,
    blueScore: 6,
    blueWork: 0x0102n,
    miner: concatBytes(Uint8Array.of(0), filled(0xcc)),
    gpuMining: false,
    nonce: 5n,
  };
}

describe('header version 2 codec', () => {
  it('round-trips: decode(encode(h)) = h and encode(decode(x)) = x', () => {
    fc.assert(
      fc.property(headerV2Arb, (h) => {
        const bytes = encodeHeader(h);
        expect(bytes.length).toBeLessThanOrEqual(headerBytesMax);
        const back = decodeHeader(bytes);
        expect(back).toEqual(h);
        expect(encodeHeader(back)).toEqual(bytes);
      }),
    );
  });

  it('a mutated encoding is refused or decodes to a header that re-encodes to exactly those bytes', () => {
    fc.assert(
      fc.property(headerV2Arb, fc.nat(), fc.integer({ min: 1, max: 255 }), (h, at, xor) => {
        const bytes = encodeHeader(h);
        const mutated = bytes.slice();
        mutated[at % bytes.length]! ^= xor;
        let decoded: BlockHeader;
        try {
          decoded = decodeHeader(mutated);
        } catch (error) {
          expect(error).toBeInstanceOf(DecodeError);
          return;
        }
        expect(encodeHeader(decoded)).toEqual(mutated);
      }),
      { numRuns: 500 },
    );
  });

  it('lays out the runs after the parents and the pruning point after the state root', () => {
    const hex = toHex(encodeHeader(sampleV2()));
    const expected =
      '0200' + '02' + '01'.repeat(32) + '02'.repeat(32) +
      '02' + '03' + '01' + '01'.repeat(32) + 'fc' + '01' + '09'.repeat(32) + // two runs: 3 levels, then 252
      'aa'.repeat(32) + 'bb'.repeat(32) + 'dd'.repeat(32);
    expect(hex.startsWith(expected)).toBe(true);
    expect(hex.length / 2).toBe(expected.length / 2 + 8 + 4 + 8 + 8 + 3 + 33 + 1 + 8);
  });

  it('reads the parents at a level from the runs', () => {
    const h = sampleV2();
    expect(levelParentsAt(h, 1)).toEqual([filled(1)]);
    expect(levelParentsAt(h, 3)).toEqual([filled(1)]);
    expect(levelParentsAt(h, 4)).toEqual([filled(9)]);
    expect(levelParentsAt(h, 255)).toEqual([filled(9)]);
    expect(levelParentsAt({ ...h, version: 1, levelParents: undefined }, 1)).toBeUndefined();
  });

  it('reaches headerBytesMax exactly with the most runs of the most parents', () => {
    const runs: LevelParentsRun[] = Array.from({ length: headerLevelRunsMax }, (_, r) => ({
      levels: r === 0 ? headerLevelsCovered - headerLevelRunsMax + 1 : 1,
      parents: Array.from({ length: headerParentsMax }, (_, i) => concatBytes(Uint8Array.of(r), new Uint8Array(31).fill(i))),
    }));
    const parents = Array.from({ length: headerParentsMax }, (_, i) => filled(i + 1));
    const big = { ...sampleV2(), parents, levelParents: runs, blueWork: (1n << 256n) - 1n };
    const bytes = encodeHeader(big);
    expect(bytes.length).toBe(headerBytesMax);
    expect(decodeHeader(bytes)).toEqual(big);
  });

  const h = sampleV2();
  const runsRefused: [string, Partial<BlockHeader>, RegExp][] = [
    ['no runs', { levelParents: [] }, /expected 1..128 runs, got 0/],
    ['a run of 0 levels', { levelParents: [{ levels: 0, parents: [filled(1)] }, { levels: 255, parents: [filled(2)] }] }, /covers 0 levels/],
    ['an empty run', { levelParents: [{ levels: 255, parents: [] }] }, /has 0 parents/],
    ['unsorted run parents', { levelParents: [{ levels: 255, parents: [filled(2), filled(1)] }] }, /strictly ascending/],
    ['repeated run parents', { levelParents: [{ levels: 255, parents: [filled(2), filled(2)] }] }, /strictly ascending/],
    ['neighbouring runs alike', { levelParents: [{ levels: 5, parents: [filled(1)] }, { levels: 250, parents: [filled(1)] }] }, /same parents/],
    ['too few levels', { levelParents: [{ levels: 254, parents: [filled(1)] }] }, /cover 254 levels, expected exactly 255/],
    ['too many levels', { levelParents: [{ levels: 200, parents: [filled(1)] }, { levels: 56, parents: [filled(2)] }] }, /cover 256 levels/],
    ['too many run parents', { levelParents: [{ levels: 255, parents: Array.from({ length: 11 }, (_, i) => filled(i)) }] }, /has 11 parents/],
    ['no pruning point', { pruningPoint: undefined }, /needs levelParents and pruningPoint/],
    ['no level parents', { levelParents: undefined }, /needs levelParents and pruningPoint/],
  ];
  it.each(runsRefused)('encoding and decoding refuse %s', (_, patch, message) => {
    const bad = { ...h, ...patch };
    expect(() => encodeHeader(bad)).toThrow(EncodeError);
    expect(() => encodeHeader(bad)).toThrow(message);
  });

  it('decoding refuses the same run faults in bytes', () => {
    const good = encodeHeader(h);
    const runsAt = 2 + 1 + 64;
    const patched = (offset: number, ...bytes: number[]): Uint8Array => {
      const copy = good.slice();
      copy.set(bytes, offset);
      return copy;
    };
    expect(() => decodeHeader(patched(runsAt, 0))).toThrow(/expected 1..128 runs, got 0/);
    expect(() => decodeHeader(patched(runsAt, 129))).toThrow(/expected 1..128 runs, got 129/);
    expect(() => decodeHeader(patched(runsAt + 1, 0))).toThrow(/covers 0 levels/);
    expect(() => decodeHeader(patched(runsAt + 1, 4))).toThrow(/cover 256 levels/);
    expect(() => decodeHeader(patched(runsAt + 2, 0))).toThrow(/has 0 parents/);
    expect(() => decodeHeader(patched(runsAt + 2, 11))).toThrow(/has 11 parents/);
    // The second run's parent made equal to the first's: neighbours alike.
    expect(() => decodeHeader(patched(runsAt + 3 + 32 + 2, ...filled(1)))).toThrow(/same parents/);
  });

  it('a version 1 header keeps its bytes and carries neither field', () => {
    const v1 = { ...h, version: 1 } as BlockHeader;
    delete (v1 as { levelParents?: unknown }).levelParents;
    delete (v1 as { pruningPoint?: unknown }).pruningPoint;
    const back = decodeHeader(encodeHeader(v1));
    expect('levelParents' in back).toBe(false);
    expect('pruningPoint' in back).toBe(false);
    expect(encodeHeader(v1).length).toBe(encodeHeader(h).length - 1 - 2 * (2 + 32) - 32);
  });
});

describe('encodedHeaderBytes', () => {
  it('is the length of the encoding, both versions', () => {
    fc.assert(
      fc.property(headerV2Arb, (h) => {
        expect(encodedHeaderBytes(h)).toBe(encodeHeader(h).length);
        const { levelParents: _runs, pruningPoint: _point, ...v1 } = h;
        expect(encodedHeaderBytes({ ...v1, version: 1 })).toBe(encodeHeader({ ...v1, version: 1 }).length);
      }),
    );
  });
});
