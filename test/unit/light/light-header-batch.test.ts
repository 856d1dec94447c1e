// The light store's batch codec (src/light/header-batch.ts): what IndexedDB holds per append. Round trips for any
// headers, and stored bytes that were cut short are refused rather than half-read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeaderBatchError, packHeaderBatch, unpackHeaderBatch } from '../../../src/light/header-batch.ts';
import type { StoredHeader } from '../../../src/light/light-store.ts';

const arbitraryBatch = fc.array(
  fc.record({ hash: fc.uint8Array({ minLength: 32, maxLength: 32 }), bytes: fc.uint8Array({ maxLength: 600 }) }),
  { maxLength: 40 },
);
const numbered = (rows: { hash: Uint8Array; bytes: Uint8Array }[], firstSeq: number): StoredHeader[] =>
  rows.map((r, i) => ({ seq: firstSeq + i, ...r }));

describe('header batch codec', () => {
  it('round-trips any batch, numbering from the first seq', () => {
    fc.assert(fc.property(arbitraryBatch, fc.integer({ min: 1, max: 1_000_000 }), (rows, firstSeq) => {
      const headers = numbered(rows, firstSeq);
      expect(unpackHeaderBatch(packHeaderBatch(headers), firstSeq)).toEqual(headers);
    }));
  });

  it('refuses every truncation of a non-empty batch', () => {
    fc.assert(fc.property(arbitraryBatch.filter((r) => r.length > 0), (rows) => {
      const packed = packHeaderBatch(numbered(rows, 1));
      // Cuts that land exactly on a record boundary decode to fewer headers, which the store's seq check catches;
      // every other cut must throw.
      const boundaries = new Set<number>();
      let at = 0;
      for (const r of rows) boundaries.add((at += 34 + r.bytes.length));
      for (let cut = 1; cut < packed.length; cut++) {
        if (boundaries.has(cut)) continue;
        expect(() => unpackHeaderBatch(packed.subarray(0, cut), 1)).toThrow(HeaderBatchError);
      }
    }), { numRuns: 30 });
  });

  it('refuses a hash that is not 32 bytes and a header over 65,535 bytes', () => {
    expect(() => packHeaderBatch([{ seq: 1, hash: new Uint8Array(31), bytes: new Uint8Array(1) }])).toThrow(HeaderBatchError);
    expect(() => packHeaderBatch([{ seq: 1, hash: new Uint8Array(32), bytes: new Uint8Array(65_536) }])).toThrow(HeaderBatchError);
  });
});
