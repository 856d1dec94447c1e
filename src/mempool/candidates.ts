/**
 * The candidate set (docs/mempool.md "Candidates"): every sender's executable run — what a block may carry now —
 * kept up to date as the pool and the state change, so a template is a read of it, never a walk of the pool against
 * state. A run is recomputed (pool-state.ts `simulateRun`) only for the senders a change can affect:
 *   - the sender's queue changed (admission, replacement, eviction, expiry, removal);
 *   - a block changed the sender's own account (it paid in the block: its nonce or balance moved);
 *   - a block wrote a record its run read (a key image now spent, an output now taken);
 *   - every block, for a *volatile* run: one whose verdict depends on time or on records no block summary names
 *     (escrows, agent accounts, contracts);
 *   - everything, on a reorganisation.
 * Credits never turn a passing run into a failing one, so receiving coins is not a dependency.
 */
import type { PoolEntry } from './entry.ts';
import type { SenderRun } from './pool-state.ts';

/** What changed in the state since the last look: the payers whose accounts moved and the records written. */
export interface StateChange {
  /** Lowercase hex addresses of accounts a block debited (payers of its transactions). */
  readonly payers: Iterable<string>;
  /** recordKey()s a block wrote (key images, confidential outputs). */
  readonly records: Iterable<string>;
}

export interface CandidateSet {
  /** Records a sender's freshly computed run (an empty run forgets the sender). */
  set(sender: string, result: SenderRun): void;
  /** Cuts a sender's run before `entry` (it left the pool: what followed it is behind a gap now). */
  cut(sender: string, entry: PoolEntry): void;
  forget(sender: string): void;
  /** The senders `change` can affect, volatile ones included. */
  affected(change: StateChange): Set<string>;
  /** Every sender's run (non-empty ones only). */
  runs(): IterableIterator<readonly PoolEntry[]>;
  run(sender: string): readonly PoolEntry[];
  /** Bumped on every change to any run: templates cache on it. */
  readonly version: number;
  /** Transactions in all runs. */
  readonly size: number;
}

interface Held {
  run: readonly PoolEntry[];
  reads: readonly string[];
  volatile: boolean;
}

export function createCandidateSet(): CandidateSet {
  const bySender = new Map<string, Held>();
  /** Read key → senders whose run read it. */
  const readers = new Map<string, Set<string>>();
  const volatile = new Set<string>();
  let version = 0;
  let size = 0;

  const unindex = (sender: string, held: Held) => {
    for (const key of held.reads) {
      const set = readers.get(key);
      set?.delete(sender);
      if (set?.size === 0) readers.delete(key);
    }
    volatile.delete(sender);
    size -= held.run.length;
  };

  const forget = (sender: string) => {
    const held = bySender.get(sender);
    if (held === undefined) return;
    unindex(sender, held);
    bySender.delete(sender);
    version++;
  };

  return {
    set(sender, result) {
      const held = bySender.get(sender);
      if (held !== undefined) unindex(sender, held);
      if (result.run.length === 0 && result.reads.length === 0 && !result.volatile) {
        if (held !== undefined) bySender.delete(sender);
      } else {
        bySender.set(sender, { run: result.run, reads: result.reads, volatile: result.volatile });
        for (const key of result.reads) {
          let set = readers.get(key);
          if (set === undefined) readers.set(key, (set = new Set()));
          set.add(sender);
        }
        if (result.volatile) volatile.add(sender);
        size += result.run.length;
      }
      version++;
    },
    cut(sender, entry) {
      const held = bySender.get(sender);
      if (held === undefined) return;
      const at = held.run.indexOf(entry);
      if (at < 0) return;
      size -= held.run.length - at;
      held.run = held.run.slice(0, at);
      version++;
    },
    forget,
    affected(change) {
      const senders = new Set(volatile);
      for (const payer of change.payers) {
        senders.add(payer);
        for (const sender of readers.get(`account:${payer}`) ?? []) senders.add(sender);
      }
      for (const key of change.records) for (const sender of readers.get(key) ?? []) senders.add(sender);
      return senders;
    },
    *runs() {
      for (const held of bySender.values()) if (held.run.length > 0) yield held.run;
    },
    run: (sender) => bySender.get(sender)?.run ?? [],
    get version() {
      return version;
    },
    get size() {
      return size;
    },
  };
}
