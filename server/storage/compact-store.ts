/**
 * Compaction of the node's LMDB store at start (docs/storage.md "Compaction"). LMDB never returns pages to the file
 * system: what pruning deletes becomes free pages inside the data file, reused by later writes, so the file keeps
 * its high-water mark, and B-tree pages left half full by deletes stay half full. When at least half the file is
 * not B-tree pages in use, the node rewrites the store before it opens it and swaps the copy in, one of two ways:
 * - up to `sortedRewriteMaxRows` rows, every row in key order into a fresh environment, appended, so every page is
 *   full and none is free (~200,000 rows a second on the 2-core box: at most about half a second);
 * - above that, LMDB's own compacting copy (mdb_env_copy2 with MDB_CP_COMPACT): only the pages in use, each as full
 *   as deletes left it, at the disk's speed (752 MB of pages in 1.2 s). The row-by-row rewrite of a 7-day
 *   mainnet-depth store would hold a start for many seconds; this bounds what a start pays.
 *
 * Crash safety: the copy is written to `<store>-compacted`, fsynced, checked to hold every row, marked complete, then
 * the store is renamed to `<store>-old` and the copy to `<store>`, and the directory fsynced before the old store
 * is deleted. Each step is a rename or a delete; a start after a kill -9 at any point finds one of these states and
 * finishes or undoes it (`recoverCompaction`), and never opens a half-written copy. A copy that fails or comes out
 * short is deleted and the store opens uncompacted.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import type { Logger } from '../logger.ts';

/** Compact when the data file is at least this many times the B-tree pages in use. */
const compactWhenFileOverPages = 2;

const compactedPath = (path: string): string => `${path}-compacted`;
const oldPath = (path: string): string => `${path}-old`;
const completeMarker = 'compaction-complete';

/** fsync of a file or a directory (a directory's entries: renames and new files). */
function syncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Finishes or undoes a compaction a kill -9 interrupted; returns what it did (for the log). */
export function recoverCompaction(path: string): 'none' | 'finished' | 'discarded' {
  const copy = compactedPath(path);
  const old = oldPath(path);
  let did: 'none' | 'finished' | 'discarded' = 'none';
  if (existsSync(copy)) {
    if (!existsSync(join(copy, completeMarker))) {
      rmSync(copy, { recursive: true, force: true }); // the copy was cut short: the store is untouched
      did = 'discarded';
    } else {
      if (existsSync(path)) renameSync(path, old); // killed before the first rename
      renameSync(copy, path);
      syncPath(dirname(path)); // both renames on disk before the old store may go
      did = 'finished';
    }
  }
  rmSync(join(path, completeMarker), { force: true });
  if (existsSync(old) && existsSync(path)) {
    rmSync(old, { recursive: true, force: true });
    if (did === 'none') did = 'finished';
  }
  return did;
}

/** The most rows a start rewrites one by one; a larger store gets LMDB's compacting copy (module comment). */
const sortedRewriteMaxRows = 100_000;

/** Rows copied per write transaction of the rewrite. */
const rewriteBatchRows = 10_000;

/**
 * Every row of `source`, in key order, appended to a fresh environment at `path` (MDB_APPEND): pages are filled
 * whole, where LMDB's own compacting copy keeps each page as full as deletes left it.
 */
async function rewriteSorted(source: RootDatabase<Buffer, Buffer>, path: string): Promise<void> {
  const target = open<Buffer, Buffer>({ path, keyEncoding: 'binary', encoding: 'binary', compression: false, mapSize: 2 ** 34 });
  try {
    let batch: [Buffer, Buffer][] = [];
    const write = (): void => {
      const rows = batch;
      batch = [];
      target.transactionSync(() => {
        for (const [key, value] of rows) target.putSync(key, value, { append: true });
      });
    };
    for (const { key, value } of source.getRange({})) {
      batch.push([Buffer.from(key), Buffer.from(value)]);
      if (batch.length >= rewriteBatchRows) write();
    }
    write();
    await target.flushed;
  } finally {
    await target.close();
  }
}

async function rowCount(path: string): Promise<number> {
  const copy = open<Buffer, Buffer>({ path, keyEncoding: 'binary', encoding: 'binary', compression: false, readOnly: true });
  try {
    return (copy.getStats() as { entryCount: number }).entryCount;
  } finally {
    await copy.close();
  }
}

export interface CompactionReport {
  readonly fileMb: number;
  readonly pagesMb: number;
  /** The data file after, when compacted. */
  readonly compactedMb?: number;
  /** How: every row appended in key order, or LMDB's compacting page copy. */
  readonly method?: 'sorted-rewrite' | 'page-copy';
  readonly ms?: number;
}

export interface CompactOptions {
  /** Defaults to `sortedRewriteMaxRows`; tests lower it to take the page-copy path on a small store. */
  readonly sortedRewriteMaxRows?: number;
  /** Runs on the finished copy before it is checked (tests spoil it there). */
  readonly afterCopy?: (copyPath: string) => Promise<void>;
}

/** Compacts the store at `path` (an LMDB environment directory) when it is sparse enough; see the module comment. */
export async function compactStoreIfSparse(path: string, logger: Logger, options: CompactOptions = {}): Promise<CompactionReport | undefined> {
  const recovered = recoverCompaction(path);
  if (recovered !== 'none') logger.info({ event: 'store_compaction_recovered', outcome: recovered }, 'an interrupted store compaction was ' + recovered);
  const dataFile = join(path, 'data.mdb');
  if (!existsSync(dataFile)) return undefined;
  const fileBytes = statSync(dataFile).size;
  const root = open<Buffer, Buffer>({ path, keyEncoding: 'binary', encoding: 'binary', compression: false });
  let closed = false;
  const close = async (): Promise<void> => {
    if (!closed) await root.close();
    closed = true;
  };
  try {
    const stats = root.getStats() as { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number; entryCount: number };
    const pagesBytes = (stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages) * stats.pageSize;
    const report = { fileMb: fileBytes / 2 ** 20, pagesMb: pagesBytes / 2 ** 20 };
    if (fileBytes < compactWhenFileOverPages * pagesBytes) return report;
    const began = performance.now();
    const copy = compactedPath(path);
    rmSync(copy, { recursive: true, force: true });
    const method: CompactionReport['method'] = stats.entryCount <= (options.sortedRewriteMaxRows ?? sortedRewriteMaxRows) ? 'sorted-rewrite' : 'page-copy';
    try {
      mkdirSync(copy, { recursive: true });
      if (method === 'sorted-rewrite') await rewriteSorted(root, copy);
      else await root.backup(copy, true);
      await options.afterCopy?.(copy);
      // LMDB's copy is not fsynced (mdb_env_copy2): the copy must be on disk before anything points at it.
      syncPath(join(copy, 'data.mdb'));
      const copied = await rowCount(copy);
      if (copied !== stats.entryCount) throw new Error(`the copy holds ${copied} rows, the store ${stats.entryCount}`);
      writeFileSync(join(copy, completeMarker), '');
      syncPath(copy);
    } catch (error) {
      // A copy that failed (disk full, a fault) costs the compaction, never the start: the store opens as it is.
      rmSync(copy, { recursive: true, force: true });
      logger.warn({ event: 'store_compaction_failed', method, err: error instanceof Error ? error.message : String(error) }, 'store compaction failed; the store opens uncompacted');
      return report;
    }
    await close();
    renameSync(path, oldPath(path));
    recoverCompaction(path);
    const compacted = { ...report, compactedMb: statSync(dataFile).size / 2 ** 20, method, ms: Math.round(performance.now() - began) };
    logger.info({ event: 'store_compacted', ...compacted }, 'store compacted: pruning had left most of its file free');
    return compacted;
  } finally {
    await close();
  }
}
