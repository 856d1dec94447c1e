/**
 * Records as JSON under a one-letter prefix of a KvStore: the auth and alert stores keep a few thousand small
 * records, read on every authenticated request (an LMDB get) and written rarely.
 */
import type { KvOp, KvStore } from '../../src/storage/kv.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface JsonTable<T> {
  get(id: string): T | undefined;
  /** The stored bytes of a record (a cache compares them to know the record has not changed). */
  getBytes(id: string): Uint8Array | undefined;
  put(id: string, value: T): Promise<void>;
  delete(id: string): Promise<void>;
  /** The op a caller batches with others (atomic multi-record updates). */
  putOp(id: string, value: T): KvOp;
  deleteOp(id: string): KvOp;
  all(): Iterable<readonly [string, T]>;
  count(): number;
}

export function jsonTable<T>(kv: KvStore, prefix: string): JsonTable<T> {
  const prefixBytes = encoder.encode(`${prefix}/`);
  const keyOf = (id: string) => encoder.encode(`${prefix}/${id}`);
  const putOp = (id: string, value: T): KvOp => ({ type: 'put', key: keyOf(id), value: encoder.encode(JSON.stringify(value)) });
  const deleteOp = (id: string): KvOp => ({ type: 'del', key: keyOf(id) });
  return {
    get(id) {
      const bytes = kv.get(keyOf(id));
      return bytes === undefined ? undefined : (JSON.parse(decoder.decode(bytes)) as T);
    },
    getBytes: (id) => kv.get(keyOf(id)),
    put: (id, value) => kv.write([putOp(id, value)]),
    delete: (id) => kv.write([deleteOp(id)]),
    putOp,
    deleteOp,
    *all() {
      for (const [key, value] of kv.entries({ prefix: prefixBytes })) {
        yield [decoder.decode(key).slice(prefixBytes.length), JSON.parse(decoder.decode(value)) as T] as const;
      }
    },
    count() {
      let n = 0;
      for (const _ of kv.entries({ prefix: prefixBytes })) n++;
      return n;
    },
  };
}
