/**
 * A read-your-writes view over a KvStore whose batches are pipelined. The chain validates block N+1 while block N's
 * batch is still being committed; block N+1 reads N's rows (its block bytes, state-trie nodes, acceptance rows), so
 * every written op stays visible here until its batch is durable, then reads go to the store again. Durability is
 * unchanged: `write` resolves only when the underlying store's batch has.
 *
 * Bounded by the writes in flight (the store groups them into commits every few milliseconds).
 */
import { rangeBounds, type KvOp, type KvRange, type KvStore } from '../storage/kv.ts';
import { byteKey as keyString } from '../util/byte-key.ts';
import { compareBytes } from '../util/bytes.ts';

interface PendingEntry {
  readonly key: Uint8Array;
  /** null: a pending delete. */
  readonly value: Uint8Array | null;
  readonly batch: number;
}


function inRange(key: Uint8Array, start: Uint8Array | undefined, end: Uint8Array | undefined): boolean {
  return (start === undefined || compareBytes(key, start) >= 0) && (end === undefined || compareBytes(key, end) < 0);
}

export function createPendingStore(store: KvStore): KvStore {
  const pending = new Map<string, PendingEntry>();
  let batches = 0;

  function* merged(range: KvRange): Iterable<readonly [Uint8Array, Uint8Array]> {
    const { start, end } = rangeBounds(range);
    const sign = range.reverse ? -1 : 1;
    const overlay = [...pending.values()].filter((e) => inRange(e.key, start, end));
    overlay.sort((a, b) => sign * compareBytes(a.key, b.key));
    const limit = range.limit ?? Number.POSITIVE_INFINITY;
    let yielded = 0;
    let i = 0;
    const { limit: _drop, ...unbounded } = range;
    for (const [key, value] of store.entries(unbounded)) {
      while (i < overlay.length && sign * compareBytes(overlay[i]!.key, key) < 0) {
        const e = overlay[i++]!;
        if (e.value === null) continue;
        if (yielded++ >= limit) return;
        yield [e.key, e.value] as const;
      }
      if (pending.has(keyString(key))) continue; // overridden (or deleted) by a pending op, yielded from the overlay
      if (yielded++ >= limit) return;
      yield [key, value] as const;
    }
    for (; i < overlay.length; i++) {
      const e = overlay[i]!;
      if (e.value === null) continue;
      if (yielded++ >= limit) return;
      yield [e.key, e.value] as const;
    }
  }

  return {
    get(key) {
      const entry = pending.get(keyString(key));
      if (entry !== undefined) return entry.value ?? undefined;
      return store.get(key);
    },
    has(key) {
      const entry = pending.get(keyString(key));
      return entry !== undefined ? entry.value !== null : store.has(key);
    },
    entries(range = {}) {
      return pending.size === 0 ? store.entries(range) : merged(range);
    },
    write(ops: readonly KvOp[]) {
      const batch = ++batches;
      const keys: string[] = new Array<string>(ops.length);
      ops.forEach((op, i) => {
        const k = keyString(op.key);
        keys[i] = k;
        pending.set(k, { key: op.key, value: op.type === 'put' ? op.value : null, batch });
      });
      return store.write(ops).then(() => {
        // A later batch may have rewritten the same key; its entry stays until that batch is durable too.
        for (const k of keys) if (pending.get(k)?.batch === batch) pending.delete(k);
      });
    },
    close: () => store.close(),
  };
}
