/**
 * In-memory KvStore: a sorted array of keys beside a hex-keyed map. Used by tests, simulations and tools; the full
 * node uses LMDB. Writes are atomic (validated first, then applied) and "durable" as soon as they are applied.
 */
import { compareBytes, toHex } from '../util/bytes.ts';
import { rangeBounds, type KvOp, type KvRange, type KvStore } from './kv.ts';

export function createMemoryStore(): KvStore {
  const values = new Map<string, Uint8Array>();
  let keys: Uint8Array[] = []; // sorted
  let closed = false;

  const indexOf = (key: Uint8Array): number => {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareBytes(keys[mid]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const put = (key: Uint8Array, value: Uint8Array): void => {
    const id = toHex(key);
    if (!values.has(id)) {
      const at = indexOf(key);
      keys.splice(at, 0, key.slice());
    }
    values.set(id, value.slice());
  };

  const del = (key: Uint8Array): void => {
    const id = toHex(key);
    if (!values.delete(id)) return;
    const at = indexOf(key);
    keys.splice(at, 1);
  };

  return {
    get: (key) => values.get(toHex(key))?.slice(),
    has: (key) => values.has(toHex(key)),
    *entries(range: KvRange = {}) {
      const { start: lower, end: upper } = rangeBounds(range);
      const from = lower ? indexOf(lower) : 0;
      const to = upper ? indexOf(upper) : keys.length;
      const snapshot = keys.slice(from, to);
      if (range.reverse) snapshot.reverse();
      const limit = range.limit ?? Number.POSITIVE_INFINITY;
      let yielded = 0;
      for (const key of snapshot) {
        if (yielded >= limit) return;
        const value = values.get(toHex(key));
        if (value === undefined) continue;
        yielded++;
        yield [key.slice(), value.slice()] as const;
      }
    },
    async write(ops: readonly KvOp[]) {
      if (closed) throw new Error('memory store is closed');
      for (const op of ops) {
        if (op.type === 'put') put(op.key, op.value);
        else del(op.key);
      }
    },
    async close() {
      closed = true;
      keys = [];
      values.clear();
    },
  };
}
