// No copied block (six lines or more) in src/, server/ or web/ outside the pairs docs/style.md "Copied blocks" lists
// with a reason; a listed pair that no longer shares a block is a stale row and fails too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../vectors.ts';
import { type CopiedBlock, findCopiedBlocks, readCopyExceptions } from './copied-blocks.ts';

const exceptions = readCopyExceptions(readFileSync(join(repoRoot, 'docs/style.md'), 'utf8'));
const pairKey = (files: readonly [string, string]): string => files.join(' ');
let blocks: CopiedBlock[] = [];

describe('copied blocks (jscpd, six lines or more)', () => {
  // jscpd reads every production file; on a loaded two-core box that takes most of a minute.
  beforeAll(async () => {
    blocks = await findCopiedBlocks(repoRoot);
  }, 300_000);

  it('reads the exception table, each row with a reason', () => {
    for (const row of exceptions) expect(row.reason, pairKey(row.files)).not.toBe('');
    const keys = exceptions.map((row) => pairKey(row.files));
    expect(new Set(keys).size, 'a pair listed twice').toBe(keys.length);
  });

  it('finds no copied block outside the listed pairs', () => {
    const listed = new Set(exceptions.map((row) => pairKey(row.files)));
    const unlisted = blocks.filter((b) => !listed.has(pairKey(b.files))).map((b) => `${b.where} (${b.lines} lines)`);
    expect(unlisted, 'make these one helper, or list the pair with a reason in docs/style.md "Copied blocks"').toEqual([]);
  });

  it('lists no pair of files that no longer shares a block (stale rows)', () => {
    const found = new Set(blocks.map((b) => pairKey(b.files)));
    const stale = exceptions.filter((row) => !found.has(pairKey(row.files))).map((row) => pairKey(row.files));
    expect(stale, 'drop these rows from docs/style.md "Copied blocks"').toEqual([]);
  });
});
