// The chain's read-your-writes view: a batch still being committed is visible to get/has/entries (puts and
// deletes, merged in key order both ways), and once durable the reads go back to the store.
import { describe, expect, it } from 'vitest';
import { createPendingStore } from '../../../src/chain/pending-store.ts';
import type { KvOp, KvStore } from '../../../src/storage/kv.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';

const k = (...bytes: number[]) => Uint8Array.from(bytes);

describe('pending store', () => {
  it('shows in-flight puts and deletes in get, has and ordered entries, then hands reads back to the store', async () => {
    const base = createMemoryStore();
    await base.write([{ type: 'put', key: k(1, 1), value: k(10) }, { type: 'put', key: k(1, 3), value: k(30) }, { type: 'put', key: k(1, 5), value: k(50) }]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: KvStore = {
      get: (key) => base.get(key),
      has: (key) => base.has(key),
      entries: (range) => base.entries(range),
      async write(ops: readonly KvOp[]) {
        await gate;
        await base.write(ops);
      },
      close: () => base.close(),
    };
    const store = createPendingStore(slow);
    const durable = store.write([{ type: 'put', key: k(1, 2), value: k(20) }, { type: 'del', key: k(1, 3) }, { type: 'put', key: k(1, 5), value: k(55) }]);
    expect(base.get(k(1, 2))).toBeUndefined();
    expect(store.get(k(1, 2))).toEqual(k(20));
    expect(store.has(k(1, 3))).toBe(false);
    const list = (reverse: boolean, limit?: number) =>
      [...store.entries({ prefix: k(1), reverse, ...(limit === undefined ? {} : { limit }) })].map(([key, v]) => [key[1], v[0]]);
    expect(list(false)).toEqual([[1, 10], [2, 20], [5, 55]]);
    expect(list(true)).toEqual([[5, 55], [2, 20], [1, 10]]);
    expect(list(false, 2)).toEqual([[1, 10], [2, 20]]);
    release();
    await durable;
    expect(store.get(k(1, 2))).toEqual(k(20));
    expect(list(false)).toEqual([[1, 10], [2, 20], [5, 55]]);
    // Nothing is pending any more: a write behind the view's back is what reads see.
    await base.write([{ type: 'put', key: k(1, 2), value: k(21) }]);
    expect(store.get(k(1, 2))).toEqual(k(21));
  });
});
