// The private scan's progress line (web/wallet/private-progress.ts) and the restore height as typed
// (web/wallet/private-start.ts): blocks scanned of the total and the time left from the first block, and a height
// that is not one refused with the field's error.
import { describe, expect, it } from 'vitest';
import { scanProgressText } from '../../../../web/wallet/private-progress.ts';
import { parseRestoreHeight } from '../../../../web/wallet/private-start.ts';

describe('scan progress', () => {
  it('says the total from the start, before any block is read', () => {
    expect(scanProgressText({ from: 100, height: 99, tip: 1_099 }, 0)).toBe('scanning: 0 of 1,000 blocks (from block 100 to 1099), time left: estimating…');
  });
  it('estimates the time left at the rate so far', () => {
    expect(scanProgressText({ from: 0, height: 49, tip: 149 }, 5_000)).toBe('scanning: 50 of 150 blocks (from block 0 to 149), about 10 s left');
    expect(scanProgressText({ from: 0, height: 9, tip: 10_009 }, 10_000)).toMatch(/about 2 h 46 min left$/);
  });
  it('says where it got to once done', () => {
    expect(scanProgressText({ from: 7, height: 20, tip: 20 }, 1_000)).toBe('scanned through block 20 (from block 7)');
  });
});

describe('restore height', () => {
  it('reads a height, or nothing for genesis', () => {
    expect(parseRestoreHeight('')).toBeUndefined();
    expect(parseRestoreHeight(' 12,345 ')).toBe(12_345);
  });
  it('refuses what is not a height, as an error about its field', () => {
    for (const text of ['yesterday', '-5', '1.5', '9'.repeat(20)]) {
      expect(() => parseRestoreHeight(text)).toThrow(/^restore height: expected a block height/);
      try {
        parseRestoreHeight(text);
      } catch (error) {
        expect((error as { field?: string }).field).toBe('restore-height');
      }
    }
  });
});
