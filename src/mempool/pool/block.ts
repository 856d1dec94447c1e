/**
 * The pool after the state moves (src/mempool/mempool.ts, docs/mempool.md "After each block"): transactions chain
 * blocks accepted leave, so do those acceptance refused and those holding a conflict key an accepted one took; then
 * exactly the senders a change can affect are rechecked (candidates.ts). Also revalidation on demand and expiry.
 */
import { toHex } from '../../util/bytes.ts';
import type { StateChange } from '../candidates.ts';
import type { PoolEntry } from '../entry.ts';
import type { BlockUpdate, RemovalReason } from '../pool-api.ts';
import { recheckAll, recheckSender } from './recheck.ts';
import { removeEntry } from './remove.ts';
import type { MempoolState } from './state.ts';

/** Chain blocks accepted these: remove them and recheck their senders against the new account view. */
export function removeAccepted(state: MempoolState, txHashes: readonly Uint8Array[]): PoolEntry[] {
  const removed: PoolEntry[] = [];
  const senders = new Set<string>();
  for (const hash of txHashes) {
    const entry = state.byId.get(toHex(hash));
    if (entry === undefined) continue;
    removeEntry(state, entry, 'accepted');
    removed.push(entry);
    senders.add(entry.sender);
  }
  for (const sender of senders) recheckSender(state, sender);
  return removed;
}

/** Pending transactions holding any of these conflict keys can never be accepted now: invalidated. */
export function removeConflicting(state: MempoolState, conflictKeys: readonly string[]): PoolEntry[] {
  const holders = new Set<PoolEntry>();
  for (const key of conflictKeys) {
    const holder = state.byConflict.get(key);
    if (holder !== undefined) holders.add(holder);
  }
  for (const entry of holders) removeEntry(state, entry, 'invalidated');
  return [...holders];
}

/** Rechecks these senders (all when omitted) against the state. */
export function revalidate(state: MempoolState, addresses: readonly Uint8Array[] | undefined): PoolEntry[] {
  if (addresses === undefined) return recheckAll(state);
  return addresses.map((address) => toHex(address)).flatMap((sender) => recheckSender(state, sender));
}

/** The state moved (a block): rechecks exactly the senders `change` can affect; everyone after a reorg. */
export function stateChanged(state: MempoolState, change: StateChange | 'all'): PoolEntry[] {
  if (change === 'all') return recheckAll(state);
  return [...state.candidates.affected(change)].flatMap((sender) => recheckSender(state, sender));
}

/** A block changed the virtual state: what it settled leaves, the senders it can affect are rechecked. */
export function blockApplied(state: MempoolState, update: BlockUpdate): PoolEntry[] {
  const { byId, carried, carriedIds } = state;
  for (const hash of update.accepted) carried.delete(toHex(hash));
  for (const id of update.carried ?? []) carriedIds.add(id);
  const left: PoolEntry[] = [];
  const senders = new Set<string>();
  const take = (entry: PoolEntry | undefined, reason: RemovalReason) => {
    if (entry === undefined || !byId.has(entry.id)) return;
    removeEntry(state, entry, reason);
    left.push(entry);
    senders.add(entry.sender);
  };
  for (const hash of update.accepted) take(byId.get(toHex(hash)), 'accepted');
  for (const hash of update.refused) take(byId.get(toHex(hash)), 'invalidated');
  for (const key of update.conflictKeys) take(state.byConflict.get(key), 'invalidated');
  if (update.change === 'all') return [...left, ...recheckAll(state)];
  for (const sender of state.candidates.affected(update.change)) senders.add(sender);
  for (const sender of senders) left.push(...recheckSender(state, sender));
  return left;
}

/** Drops transactions older than `txAgeMaxMs`; returns how many. */
export function expire(state: MempoolState): number {
  const now = state.clock.nowMs();
  const old = [...state.byId.values()].filter((e) => now - e.addedMs >= state.limits.txAgeMaxMs);
  for (const entry of old) removeEntry(state, entry, 'expired');
  return old.length;
}
