/**
 * The storage port: an ordered key-value store with prefix iteration and atomic batches. The full node plugs in
 * LMDB (server/storage/lmdb-store.ts); tests and light tools use the in-memory backend (src/storage/memory-store.ts).
 *
 * Reads are synchronous (LMDB reads are memory-mapped and cheap; the validation pipeline reads a lot). Writes go in
 * atomic batches whose promise resolves only once the batch is durable: a caller reports a block or transaction as
 * accepted only after that, so a kill -9 loses nothing that was acknowledged.
 */
import { compareBytes } from '../util/bytes.ts';

export type KvOp =
  | { readonly type: 'put'; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly type: 'del'; readonly key: Uint8Array };

export interface KvRange {
  /** Only keys starting with these bytes. */
  readonly prefix?: Uint8Array;
  /** Inclusive lower bound (within the prefix when both are given). */
  readonly start?: Uint8Array;
  /** Exclusive upper bound. */
  readonly end?: Uint8Array;
  readonly reverse?: boolean;
  readonly limit?: number;
}

/** Keys are non-empty and start with a non-zero byte (a one-letter table prefix in practice). */
export interface KvStore {
  get(key: Uint8Array): Uint8Array | undefined;
  has(key: Uint8Array): boolean;
  /** Entries in key order (byte-lexicographic), or reverse order. */
  entries(range?: KvRange): Iterable<readonly [Uint8Array, Uint8Array]>;
  /** Applies every op or none; resolves when the batch is durable and visible to `get`. */
  write(ops: readonly KvOp[]): Promise<void>;
  close(): Promise<void>;
}

/** A range's effective bounds: the prefix folded into [start, end). */
export function rangeBounds(range: KvRange): { start: Uint8Array | undefined; end: Uint8Array | undefined } {
  let start = range.start;
  let end = range.end;
  if (range.prefix) {
    if (!start || compareBytes(start, range.prefix) < 0) start = range.prefix;
    const prefixEnd = prefixUpperBound(range.prefix);
    if (prefixEnd && (!end || compareBytes(prefixEnd, end) < 0)) end = prefixEnd;
  }
  return { start, end };
}

/** The smallest key greater than every key that starts with `prefix` (undefined when there is none: all 0xff). */
function prefixUpperBound(prefix: Uint8Array): Uint8Array | undefined {
  const end = prefix.slice();
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  return undefined;
}
