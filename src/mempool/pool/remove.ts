/**
 * Leaving the pool (src/mempool/mempool.ts): an entry comes out of every index, is remembered as dropped or carried,
 * and the listeners hear of it. Also the pool's event fan-out, where a listener that throws is reported, not fatal.
 */
import type { PoolEntry } from '../entry.ts';
import type { MempoolEvent, RemovalReason } from '../pool-api.ts';
import type { DropReason, MempoolState } from './state.ts';

export function emit(state: MempoolState, event: MempoolEvent): void {
  for (const listener of state.listeners) {
    try {
      listener(event);
    } catch (error) {
      state.reportListenerError(error);
    }
  }
}

export function subscribe(state: MempoolState, listener: (event: MempoolEvent) => void): () => boolean {
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

/** Remembers a dropped entry (status() answers for it), the oldest forgotten past `droppedRememberedMax`. */
function forget(state: MempoolState, entry: PoolEntry, reason: DropReason): void {
  const { dropped } = state;
  dropped.set(entry.id, { reason, entry });
}

/** Takes `entry` out of every index (its queue too unless `keepQueue`, when the caller rewrote the queue). */
export function removeEntry(state: MempoolState, entry: PoolEntry, reason: RemovalReason, keepQueue = false): void {
  const { byConflict, bySender, candidates, carried } = state;
  state.byId.delete(entry.id);
  for (const key of entry.conflicts) if (byConflict.get(key) === entry) byConflict.delete(key);
  state.totalBytes -= entry.size;
  if (!keepQueue) {
    const queue = (bySender.get(entry.sender) ?? []).filter((e) => e !== entry);
    if (queue.length === 0) {
      bySender.delete(entry.sender);
      candidates.forget(entry.sender);
    } else {
      bySender.set(entry.sender, queue);
      candidates.cut(entry.sender, entry);
    }
  }
  if (reason === 'carried') {
    carried.set(entry.id, entry);
  } else if (reason !== 'accepted') forget(state, entry, reason);
  emit(state, { type: 'removed', entry, reason });
}
