/**
 * Senders against the state (src/mempool/mempool.ts, docs/mempool.md "Candidates"): a sender's queue is simulated on
 * the virtual state (pool-state.ts), its candidates follow, and what the state refuses leaves the pool.
 */
import type { PoolEntry } from '../entry.ts';
import { simulateRun, type SenderRun } from '../pool-state.ts';
import { refusedEntries, withoutRefused } from '../sender-check.ts';
import type { SenderQueue } from '../sender-queue.ts';
import { removeEntry } from './remove.ts';
import type { MempoolState } from './state.ts';

/** Entries of `queue` the state refuses; an agent pool is read only when a fee may come from one. */
export function refusedBy(state: MempoolState, queue: SenderQueue, result: SenderRun): Set<PoolEntry> {
  const agentPool = queue.some((e) => e.spend.feeFromAgentPool === true) ? state.agentPool?.(queue[0]!.spend.payer) : undefined;
  return refusedEntries(queue, result, agentPool);
}

/** Brings one sender's candidates up to date with the state; what the state refuses leaves the pool. */
export function recheckSender(state: MempoolState, sender: string): PoolEntry[] {
  const queue = state.bySender.get(sender);
  if (queue === undefined || queue.length === 0) {
    state.candidates.forget(sender);
    return [];
  }
  const result = simulateRun(queue, state.virtualState);
  const refused = refusedBy(state, queue, result);
  state.candidates.set(sender, withoutRefused(result, refused));
  for (const entry of refused) removeEntry(state, entry, state.carriedIds.has(entry.id) ? 'carried' : 'invalidated');
  return [...refused];
}

export function recheckAll(state: MempoolState): PoolEntry[] {
  return [...state.bySender.keys()].flatMap((sender) => recheckSender(state, sender));
}

/** Each sender's executable run recomputed from scratch against the state (audits and tests; changes nothing). */
export function recomputeCandidates(state: MempoolState): Map<string, readonly PoolEntry[]> {
  const out = new Map<string, readonly PoolEntry[]>();
  for (const [sender, queue] of state.bySender) {
    const result = simulateRun(queue, state.virtualState);
    const { run } = withoutRefused(result, refusedBy(state, queue, result));
    if (run.length > 0) out.set(sender, run);
  }
  return out;
}
