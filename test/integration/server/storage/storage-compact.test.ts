// Compaction at start (server/storage/compact-store.ts, docs/storage.md "Compaction"): a store whose file is mostly
// free pages after deletes is copied compacted with every row intact, a dense one is left alone, and a kill -9 at
// any step of the swap leaves a state the next start finishes or undoes.
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../server/logger.ts';
import { compactStoreIfSparse, recoverCompaction } from '../../../../server/storage/compact-store.ts';
import { openLmdbStore } from '../../../../server/storage/lmdb-store.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const logger = createLogger('silent');
const key = (i: number) => Uint8Array.of(0x42, i >> 16, (i >> 8) & 0xff, i & 0xff);

/** A store of `rows` 200-byte rows with all but `kept` deleted (in batches, as pruning rounds do). */
async function sparseStore(rows: number, kept: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-compact-'));
  dirs.push(dir);
  const path = join(dir, 'chain');
  const store = openLmdbStore(path);
  for (let i = 0; i < rows; i += 1_000) {
    await store.write(Array.from({ length: Math.min(1_000, rows - i) }, (_, j) => ({ type: 'put' as const, key: key(i + j), value: new Uint8Array(200).fill((i + j) & 0xff) })));
  }
  for (let i = 0; i < rows - kept; i += 1_000) {
    await store.write(Array.from({ length: Math.min(1_000, rows - kept - i) }, (_, j) => ({ type: 'del' as const, key: key(i + j) })));
  }
  await store.flush();
  await store.close();
  return path;
}

async function rowsOf(path: string): Promise<[string, number][]> {
  const store = openLmdbStore(path);
  const rows = [...store.entries()].map(([k, v]) => [Buffer.from(k).toString('hex'), v[0]!] as [string, number]);
  await store.close();
  return rows;
}

describe('store compaction at start', () => {
  it('copies a mostly free store compacted with every row intact, then leaves it alone', async () => {
    const path = await sparseStore(20_000, 2_000);
    const before = await rowsOf(path);
    const fileBefore = statSync(join(path, 'data.mdb')).size;
    const report = await compactStoreIfSparse(path, logger);
    expect(report?.method).toBe('sorted-rewrite');
    expect(statSync(join(path, 'data.mdb')).size).toBeLessThan(fileBefore / 3);
    expect(await rowsOf(path)).toEqual(before);
    expect(existsSync(`${path}-compacted`) || existsSync(`${path}-old`)).toBe(false);
    // Dense now: the next start does not copy it again.
    expect((await compactStoreIfSparse(path, logger))?.compactedMb).toBeUndefined();
  });

  it("takes LMDB's compacting page copy above the row-by-row limit, every row intact", async () => {
    const path = await sparseStore(20_000, 2_000);
    const before = await rowsOf(path);
    const fileBefore = statSync(join(path, 'data.mdb')).size;
    const report = await compactStoreIfSparse(path, logger, { sortedRewriteMaxRows: 1_999 });
    expect(report?.method).toBe('page-copy');
    expect(statSync(join(path, 'data.mdb')).size).toBeLessThan(fileBefore / 3);
    expect(await rowsOf(path)).toEqual(before);
    expect(existsSync(`${path}-compacted`) || existsSync(`${path}-old`)).toBe(false);
    expect((await compactStoreIfSparse(path, logger, { sortedRewriteMaxRows: 1_999 }))?.compactedMb).toBeUndefined();
  });

  it('opens the store uncompacted when the copy comes out short or cannot be made, and deletes the copy', async () => {
    for (const sortedRewriteMaxRows of [100_000, 0]) {
      const path = await sparseStore(20_000, 2_000);
      const before = await rowsOf(path);
      const fileBefore = statSync(join(path, 'data.mdb')).size;
      const short = await compactStoreIfSparse(path, logger, {
        sortedRewriteMaxRows,
        afterCopy: async (copy) => {
          const spoiled = openLmdbStore(copy);
          await spoiled.write([{ type: 'del', key: key(19_999) }]);
          await spoiled.flush();
          await spoiled.close();
        },
      });
      expect(short?.compactedMb).toBeUndefined();
      const unmade = await compactStoreIfSparse(path, logger, { sortedRewriteMaxRows, afterCopy: async (copy) => rmSync(join(copy, 'data.mdb')) });
      expect(unmade?.compactedMb).toBeUndefined();
      expect(statSync(join(path, 'data.mdb')).size).toBe(fileBefore);
      expect(await rowsOf(path)).toEqual(before);
      expect(existsSync(`${path}-compacted`) || existsSync(`${path}-old`)).toBe(false);
    }
  });

  it('leaves a dense store alone, and a missing one', async () => {
    const path = await sparseStore(5_000, 5_000);
    const fileBefore = statSync(join(path, 'data.mdb')).size;
    expect((await compactStoreIfSparse(path, logger))?.compactedMb).toBeUndefined();
    expect(statSync(join(path, 'data.mdb')).size).toBe(fileBefore);
    expect(await compactStoreIfSparse(join(path, 'nothing-here'), logger)).toBeUndefined();
  });

  it('after a kill -9 at each step of the swap, the next start opens the full store', async () => {
    const path = await sparseStore(20_000, 2_000);
    const rows = await rowsOf(path);
    // A finished copy to stage the steps with.
    const staged = `${path}-staged`;
    cpSync(path, staged, { recursive: true });
    await compactStoreIfSparse(staged, logger);
    const fresh = () => {
      rmSync(`${path}-compacted`, { recursive: true, force: true });
      rmSync(`${path}-old`, { recursive: true, force: true });
      cpSync(staged, `${path}-compacted`, { recursive: true });
    };

    // Killed while copying: no marker; the copy is discarded, the store untouched.
    fresh();
    expect(recoverCompaction(path)).toBe('discarded');
    expect(await rowsOf(path)).toEqual(rows);

    // Killed after the marker, before either rename.
    const original = `${path}-original`;
    cpSync(path, original, { recursive: true });
    fresh();
    writeFileSync(join(`${path}-compacted`, 'compaction-complete'), '');
    expect(recoverCompaction(path)).toBe('finished');
    expect(await rowsOf(path)).toEqual(rows);
    expect(existsSync(`${path}-old`) || existsSync(`${path}-compacted`)).toBe(false);

    // Killed between the two renames: the store is `-old`, the copy `-compacted`.
    rmSync(path, { recursive: true, force: true });
    cpSync(original, `${path}-old`, { recursive: true });
    fresh();
    writeFileSync(join(`${path}-compacted`, 'compaction-complete'), '');
    expect(recoverCompaction(path)).toBe('finished');
    expect(await rowsOf(path)).toEqual(rows);

    // Killed after the swap, before the old store was deleted.
    cpSync(original, `${path}-old`, { recursive: true });
    expect(recoverCompaction(path)).toBe('finished');
    expect(existsSync(`${path}-old`)).toBe(false);
    expect(await rowsOf(path)).toEqual(rows);
    renameSync(original, `${path}-unused`);
  });
});
