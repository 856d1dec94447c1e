/**
 * Rebroadcast of the node's own transactions (docs/mempool.md "Durability"): those its clients submitted, and those
 * its journal restored at start, are announced again while they wait in the pool — a peer that connected after the
 * first announcement, or a node restarted before it could announce (the journal is read before p2p starts), would
 * otherwise never hear of them. Relay skips peers already known to have an item, so an announcement reaches only
 * peers that have not seen it. Time comes from the clock port; the node calls `tick` on a timer.
 */
import type { Clock } from '../util/clock.ts';
import type { PoolEntry } from './entry.ts';
import type { Mempool } from './mempool.ts';

export interface Rebroadcaster {
  /** Marks a pooled transaction as the node's own. */
  track(entry: PoolEntry): void;
  /** Announces each own transaction still pooled and last announced `intervalMs` ago or more; forgets the rest. */
  tick(): void;
  onRebroadcast(listener: (entry: PoolEntry) => void): () => void;
  /** Own transactions tracked. */
  readonly size: number;
}

export function createRebroadcaster(options: { pool: Pick<Mempool, 'get'>; clock: Clock; intervalMs: number; trackedMax: number }): Rebroadcaster {
  const { pool, clock, intervalMs } = options;
  /** Own transaction id → when it was last announced (its admission, at first). */
  const own = new Map<string, { hash: Uint8Array; announcedMs: number }>();
  const listeners = new Set<(entry: PoolEntry) => void>();
  return {
    track(entry) {
      if (own.size >= options.trackedMax) own.delete(own.keys().next().value as string);
      own.set(entry.id, { hash: entry.hash, announcedMs: entry.addedMs });
    },
    tick() {
      const now = clock.nowMs();
      for (const [id, mine] of own) {
        const entry = pool.get(mine.hash);
        if (entry === undefined) {
          own.delete(id);
          continue;
        }
        if (now - mine.announcedMs < intervalMs) continue;
        mine.announcedMs = now;
        for (const listener of listeners) listener(entry);
      }
    },
    onRebroadcast(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get size() {
      return own.size;
    },
  };
}
