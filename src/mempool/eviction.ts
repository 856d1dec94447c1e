/**
 * Making room in a full pool. Only a sender's *last* pending transaction may be evicted: taking one from the middle
 * would strand every later nonce of that sender behind a gap. So the victims are the cheapest tails (by fee rate,
 * the later-admitted first on a tie), taken one at a time, and each must pay strictly less per byte than the
 * newcomer: the pool never evicts to admit a cheaper transaction. If room cannot be made on those terms, nothing is
 * evicted and the newcomer is refused.
 *
 * Cost: O(senders) per victim. Eviction happens only at the bounds (docs/mempool.md "Bounds").
 */
import { compareFeeRate, compareForBlock, type PoolEntry } from './entry.ts';
import type { SenderQueue } from './sender-queue.ts';

export interface RoomRequest {
  /** The queues as they would be with the newcomer in place (its own sender's queue included). */
  readonly queues: ReadonlyMap<string, SenderQueue>;
  readonly newcomer: PoolEntry;
  /** How many transactions and bytes must go. */
  readonly count: number;
  readonly bytes: number;
}

/** The entries to evict, cheapest first; undefined if room cannot be made without evicting a better payer. */
export function chooseVictims(request: RoomRequest): PoolEntry[] | undefined {
  const tails = new Map<string, number>();
  const victims: PoolEntry[] = [];
  let count = 0;
  let bytes = 0;
  while (count < request.count || bytes < request.bytes) {
    let worst: PoolEntry | undefined;
    for (const [sender, queue] of request.queues) {
      const at = tails.get(sender) ?? queue.length - 1;
      if (at < 0) continue;
      const tail = queue[at]!;
      // The newcomer is its sender's tail: neither it nor anything beneath it can go.
      if (tail === request.newcomer) continue;
      if (worst === undefined || compareForBlock(tail, worst) > 0) worst = tail;
    }
    if (worst === undefined || compareFeeRate(worst, request.newcomer) >= 0) return undefined;
    victims.push(worst);
    tails.set(worst.sender, (tails.get(worst.sender) ?? request.queues.get(worst.sender)!.length - 1) - 1);
    count += 1;
    bytes += worst.size;
  }
  return victims;
}
