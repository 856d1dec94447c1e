/**
 * The node's KvStore on LMDB (lmdb-js). Keys and values are raw bytes. A batch is one LMDB write transaction:
 * all of it or none of it survives a crash. The store holds on to a batch's value bytes until it is committed, so
 * callers must not change them after `write` (the chain never does: its rows are fresh encodings). lmdb-js groups concurrent batches into one commit, which is what lets
 * the import pipeline reach thousands of blocks a second while every batch stays atomic.
 *
 * Durability: the write promise resolves once LMDB has committed the transaction. A committed transaction survives
 * a kill -9 of the process (the pages are in the OS). `flush()` additionally waits for the disk (power loss).
 */
import { open, type Database, type RootDatabase } from 'lmdb';
import type { KvOp, KvRange, KvStore } from '../../src/storage/kv.ts';
import { rangeBounds } from '../../src/storage/kv.ts';
import { compareBytes } from '../../src/util/bytes.ts';

export interface LmdbStore extends KvStore {
  /** Resolves when every committed batch has reached the disk. */
  flush(): Promise<void>;
  readonly path: string;
}

const asBytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export function openLmdbStore(path: string, options: { mapSizeBytes?: number } = {}): LmdbStore {
  const root: RootDatabase<Buffer, Buffer> = open<Buffer, Buffer>({
    path,
    keyEncoding: 'binary',
    encoding: 'binary',
    compression: false,
    mapSize: options.mapSizeBytes ?? 2 ** 34,
  });
  const db: Database<Buffer, Buffer> = root;

  return {
    path,
    get(key) {
      // getBinary already answers a copy of lmdb-js's shared read buffer: a view of it, not a second copy.
      const value = db.getBinary(asBuffer(key));
      return value === undefined ? undefined : asBytes(value);
    },
    has(key) {
      return db.doesExist(asBuffer(key));
    },
    *entries(range: KvRange = {}) {
      const { start, end } = rangeBounds(range);
      const options: { start?: Buffer; end?: Buffer; reverse?: boolean } = {};
      // lmdb-js walks from `start` (inclusive) towards `end` (exclusive) in either direction, so a reversed
      // [start, end) range starts at `end` (skipped when present) and stops by hand below `start`.
      if (range.reverse) {
        options.reverse = true;
        if (end) options.start = asBuffer(end);
      } else {
        if (start) options.start = asBuffer(start);
        if (end) options.end = asBuffer(end);
      }
      const limit = range.limit ?? Number.POSITIVE_INFINITY;
      let yielded = 0;
      for (const { key, value } of db.getRange(options)) {
        if (yielded >= limit) return;
        const k = asBytes(Buffer.from(key));
        if (range.reverse) {
          if (end && compareBytes(k, end) >= 0) continue;
          if (start && compareBytes(k, start) < 0) return;
        }
        yielded++;
        yield [k, asBytes(Buffer.from(value))] as const;
      }
    },
    async write(ops: readonly KvOp[]) {
      // One batch is one LMDB transaction, all of it or none. `batch` queues the puts as instructions the native
      // write thread applies; a `transaction` callback would run every B-tree insert on the main thread (a full
      // block's ~40,000 rows: ~190 ms of the event loop, issue 29).
      await db.batch(() => {
        for (const op of ops) {
          if (op.type === 'put') void db.put(asBuffer(op.key), asBuffer(op.value));
          else void db.remove(asBuffer(op.key));
        }
      });
    },
    async flush() {
      await root.flushed;
    },
    async close() {
      await root.close();
    },
  };
}
