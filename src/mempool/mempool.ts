/**
 * The transaction pool (docs/design.md "Consensus" and "State, accounts and energy", docs/mempool.md): admission, per-sender nonce queues, ordering by fee
 * rate, replacement, bounds with eviction of the cheapest, expiry, removal when chain blocks accept transactions,
 * re-admission when blocks leave the selected chain, and block-template selection.
 *
 * Admission runs in stages, cheap before expensive (docs/style.md habit 4):
 *   1. shape  — size bound, decode (canonical), chain id, minimum fee rate, already known;
 *   2. state  — synchronous against the virtual state (pool-state.ts): nonce window, replacement, conflict keys,
 *               balance with pending spends, and the kind's own state rules (`checkContext`, the rules acceptance
 *               runs) on top of the sender's earlier pending transactions; a transaction acceptance would refuse
 *               never reaches stage 3;
 *   3. proof  — every proof the batch's survivors ask for in ONE call to the proof-check port (a worker pool);
 *   4. commit — stage 2 again, authoritative (the state may have moved during the await), then room (eviction).
 *               It never awaits, so concurrent batches cannot interleave inside it.
 *
 * The pool keeps its candidate set (candidates.ts) — every sender's executable, state-checked run — up to date on
 * each change and each block (`stateChanged`), so a template (`selectForBlock`) reads no state.
 * What a transaction spends, its conflict keys and its mass come from its kind (src/kinds/), via the entry.
 */
import { asProofVerifier } from '../crypto/proof-check.ts';
import { DecodeError, WeftError } from '../errors.ts';
import { toHex } from '../util/bytes.ts';
import { createCandidateSet } from './candidates.ts';
import { compareFeeRate, compareForBlock, parseTransaction, type ParsedTransaction, type PoolEntry } from './entry.ts';
import { InsufficientBalanceError, TransactionRejectedError } from './errors.ts';
import { chooseVictims } from './eviction.ts';
import { defaultMempoolLimits, type MempoolLimits } from './mempool-limits.ts';
import { simulateRun, type PoolState, type SenderRun } from './pool-state.ts';
import type { AdmitResult, BlockUpdate, Mempool, MempoolEvent, MempoolOptions, PoolStatus, RemovalReason } from './pool-api.ts';
import { selectTransactions, type Selection } from './select.ts';
import { refusedEntries, stateRuleError, withoutRefused } from './sender-check.ts';
import { firstOverspend, indexOfNonce, withEntry, type SenderQueue } from './sender-queue.ts';

export type { AdmitResult, BlockUpdate, Mempool, MempoolEvent, MempoolOptions, PoolStatus, RemovalReason };

export function createMempool(options: MempoolOptions): Mempool {
  const limits: MempoolLimits = { ...defaultMempoolLimits, ...options.limits };
  const { accounts, clock } = options;
  const records = options.records ?? (() => undefined);
  const daaScore = options.daaScore ?? (() => 0);
  const state: PoolState = { account: (address) => accounts.account(address), record: records, daaScore, ...(options.rulesV2 ? { rulesV2: options.rulesV2 } : {}) };
  const verifier = asProofVerifier(options.verifier);
  const byId = new Map<string, PoolEntry>();
  /** Conflict key → the pending entry holding it (src/kinds/kind.ts `conflictKeys`). */
  const byConflict = new Map<string, PoolEntry>();
  const bySender = new Map<string, SenderQueue>();
  const candidates = createCandidateSet();
  const dropped = new Map<string, { reason: Exclude<RemovalReason, 'accepted' | 'carried'>; entry: PoolEntry }>();
  // Transactions blocks carry that no chain block has accepted yet (ids of the latest blocks' transactions), and the
  // entries that left the candidates because of it: still pending to the API, until a chain block accepts them.
  const carriedIds = new Set<string>();
  const carried = new Map<string, PoolEntry>();
  const listeners = new Set<(event: MempoolEvent) => void>();
  let totalBytes = 0;
  let nextSeq = 0;
  let lastSelection: { key: string; version: number; selection: Selection } | undefined;
  const reportListenerError =
    options.onListenerError ??
    ((error: unknown) =>
      queueMicrotask(() => {
        throw error;
      }));

  const emit = (event: MempoolEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        reportListenerError(error);
      }
    }
  };

  const forget = (entry: PoolEntry, reason: Exclude<RemovalReason, 'accepted' | 'carried'>) => {
    dropped.delete(entry.id);
    dropped.set(entry.id, { reason, entry });
    if (dropped.size > limits.droppedRememberedMax) dropped.delete(dropped.keys().next().value!);
  };

  /** Takes `entry` out of every index (its queue too unless `keepQueue`, when the caller rewrote the queue). */
  const removeEntry = (entry: PoolEntry, reason: RemovalReason, keepQueue = false) => {
    byId.delete(entry.id);
    for (const key of entry.conflicts) if (byConflict.get(key) === entry) byConflict.delete(key);
    totalBytes -= entry.size;
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
      if (carried.size > limits.txCountMax) carried.delete(carried.keys().next().value!);
    } else if (reason !== 'accepted') forget(entry, reason);
    emit({ type: 'removed', entry, reason });
  };

  /** Entries of `queue` the state refuses; an agent pool is read only when a fee may come from one. */
  const refusedBy = (queue: SenderQueue, result: SenderRun): Set<PoolEntry> =>
    refusedEntries(queue, result, queue.some((e) => e.spend.feeFromAgentPool === true) ? options.agentPool?.(queue[0]!.spend.payer) : undefined);

  /** Brings one sender's candidates up to date with the state; what the state refuses leaves the pool. */
  const recheckSender = (sender: string): PoolEntry[] => {
    const queue = bySender.get(sender);
    if (queue === undefined || queue.length === 0) {
      candidates.forget(sender);
      return [];
    }
    const result = simulateRun(queue, state);
    const refused = refusedBy(queue, result);
    candidates.set(sender, withoutRefused(result, refused));
    for (const entry of refused) removeEntry(entry, carriedIds.has(entry.id) ? 'carried' : 'invalidated');
    return [...refused];
  };

  const shapeCheck = (bytes: Uint8Array): ParsedTransaction => {
    if (!(bytes instanceof Uint8Array)) throw new DecodeError('transaction: expected bytes');
    if (bytes.length > limits.txBytesMax) {
      throw new TransactionRejectedError('too_large', `got ${bytes.length} bytes, at most ${limits.txBytesMax} relayed`);
    }
    const parsed = parseTransaction(bytes);
    if (parsed.tx.chainId !== options.params.chainId) {
      throw new TransactionRejectedError('wrong_chain', `chain id ${parsed.tx.chainId}, this network is ${options.params.chainId}`);
    }
    const feeMin = limits.feeRateMinUnitsPerByte * BigInt(bytes.length);
    if (parsed.spend.fee < feeMin) {
      throw new TransactionRejectedError('fee_rate_too_low', `fee ${parsed.spend.fee} for ${bytes.length} bytes, at least ${feeMin}`);
    }
    if (byId.has(parsed.id)) throw new TransactionRejectedError('already_known', `${parsed.id} is already pending`);
    if (parsed.checks === undefined) throw new TransactionRejectedError('bad_signature', 'multisig script does not hash to from');
    return parsed;
  };

  /**
   * Stage 2, changing nothing: every pool and state rule `entry` must pass with its sender's queue as it is now.
   * Returns the queue with it in place, what it replaces, and the sender's run simulated on the state.
   */
  const stateCheck = (entry: PoolEntry) => {
    if (byId.has(entry.id)) throw new TransactionRejectedError('already_known', `${entry.id} is already pending`);
    const { spend } = entry;
    const account = accounts.account(spend.payer);
    if (spend.nonce < account.nonce) {
      throw new TransactionRejectedError('nonce_too_low', `nonce ${spend.nonce}, account is at ${account.nonce}`);
    }
    if (spend.nonce > account.nonce + limits.nonceAheadMax) {
      throw new TransactionRejectedError('nonce_too_high', `nonce ${spend.nonce}, at most ${limits.nonceAheadMax} past ${account.nonce}`);
    }
    const current = (bySender.get(entry.sender) ?? []).filter((e) => e.spend.nonce >= account.nonce);
    const { queue, replaced } = withEntry(current, entry);
    for (const key of entry.conflicts) {
      const holder = byConflict.get(key);
      if (holder !== undefined && holder !== replaced) {
        throw new TransactionRejectedError('conflict', `conflicts with pending ${holder.id} on ${key}`, { conflictsWith: holder.id });
      }
    }
    if (replaced !== undefined) checkReplacement(entry, replaced);
    else if (current.length >= limits.txPerAddressMax) {
      throw new TransactionRejectedError('sender_queue_full', `sender has ${current.length} pending, at most ${limits.txPerAddressMax}`);
    }
    const overspend = firstOverspend(queue, account, spend.feeFromAgentPool === true ? options.agentPool?.(spend.payer) : undefined);
    if (overspend !== undefined) {
      const message = `balance ${account.balance} does not cover ${overspend.needed} of pending spends up to nonce ${overspend.entry.spend.nonce}`;
      throw new InsufficientBalanceError(message, { balance: account.balance, needed: overspend.needed });
    }
    const result = simulateRun(queue, state);
    if (result.failed?.entry === entry) throw stateRuleError(entry, result.failed.reason, account.balance);
    return { queue, replaced, result };
  };

  const toEntry = (parsed: ParsedTransaction, seq: number): PoolEntry => {
    const { checks: _verified, ...fields } = parsed;
    return { ...fields, size: parsed.bytes.length, addedMs: clock.nowMs(), seq };
  };

  /** Stage 4: stage 2 again, authoritative, then room and the indexes. Synchronous. */
  const admitVerified = (parsed: ParsedTransaction): AdmitResult => {
    const entry = toEntry(parsed, nextSeq);
    const { queue, replaced, result } = stateCheck(entry);
    const victims = makeRoom(entry, queue, replaced);
    nextSeq++;
    for (const stale of (bySender.get(entry.sender) ?? []).filter((e) => !queue.includes(e) && e !== replaced)) removeEntry(stale, 'invalidated');
    if (replaced !== undefined) removeEntry(replaced, 'replaced', true);
    bySender.set(entry.sender, queue);
    byId.set(entry.id, entry);
    for (const key of entry.conflicts) byConflict.set(key, entry);
    totalBytes += entry.size;
    dropped.delete(entry.id);
    const refused = refusedBy(queue, result);
    candidates.set(entry.sender, withoutRefused(result, refused));
    for (const gone of refused) removeEntry(gone, 'invalidated');
    for (const victim of victims) removeEntry(victim, 'evicted');
    emit({ type: 'added', entry });
    return { ok: true, entry, replaced };
  };

  const checkReplacement = (entry: PoolEntry, replaced: PoolEntry) => {
    const bumped = (replaced.spend.fee * (100n + limits.replaceBumpPercentMin) + 99n) / 100n;
    if (entry.spend.fee <= replaced.spend.fee || entry.spend.fee < bumped || compareFeeRate(entry, replaced) < 0) {
      throw new TransactionRejectedError(
        'replacement_underpriced',
        `fee ${entry.spend.fee} replaces ${replaced.spend.fee} at nonce ${entry.spend.nonce}; needs at least ${bumped} (+${limits.replaceBumpPercentMin}%) and no lower fee rate`,
        { replaces: replaced.id, feeMin: bumped.toString() },
      );
    }
  };

  /** The victims that make room for `entry` (queue = its sender's queue with it in place); throws pool_full. */
  const makeRoom = (entry: PoolEntry, queue: SenderQueue, replaced: PoolEntry | undefined): PoolEntry[] => {
    const count = byId.size + (replaced === undefined ? 1 : 0) - limits.txCountMax;
    const bytes = totalBytes + entry.size - (replaced?.size ?? 0) - limits.bytesMax;
    if (count <= 0 && bytes <= 0) return [];
    const previous = bySender.get(entry.sender);
    bySender.set(entry.sender, queue);
    const victims = chooseVictims({ queues: bySender, newcomer: entry, count, bytes });
    if (previous === undefined) bySender.delete(entry.sender);
    else bySender.set(entry.sender, previous);
    if (victims === undefined) {
      throw new TransactionRejectedError('pool_full', 'the pool is full and every evictable transaction pays at least this fee rate');
    }
    return victims;
  };

  const addBatch = async (items: readonly Uint8Array[]): Promise<AdmitResult[]> => {
    if (!Array.isArray(items) || items.length > limits.batchTxMax) {
      throw new WeftError('invalid_params', `transaction batch: expected an array of at most ${limits.batchTxMax}`);
    }
    const results: AdmitResult[] = new Array(items.length);
    // Shape and state first: what the state refuses costs no proof verification.
    const parsed: (ParsedTransaction | undefined)[] = items.map((bytes, i) =>
      attempt(results, i, () => {
        const p = shapeCheck(bytes);
        stateCheck(toEntry(p, nextSeq));
        return p;
      }),
    );
    const checks = parsed.flatMap((p) => p?.checks ?? []);
    const verdicts = checks.length === 0 ? [] : await verifier.verifyProofs(checks);
    let at = 0;
    parsed.forEach((p, i) => {
      if (p === undefined) return;
      const ok = p.checks!.every((_, k) => verdicts[at + k] === true);
      at += p.checks!.length;
      attempt(results, i, () => {
        if (!ok) throw new TransactionRejectedError('bad_signature', 'a signature does not verify');
        results[i] = admitVerified(p);
      });
    });
    return results;
  };

  const senderKey = (address: Uint8Array) => toHex(address);

  const recheckAll = () => [...bySender.keys()].flatMap((sender) => recheckSender(sender));

  return {
    limits,
    async add(bytes) {
      const [result] = await addBatch([bytes]);
      if (!result!.ok) throw result!.error;
      return result!.entry;
    },
    addBatch,
    readmit: addBatch,
    removeAccepted(txHashes) {
      const removed: PoolEntry[] = [];
      const senders = new Set<string>();
      for (const hash of txHashes) {
        const entry = byId.get(toHex(hash));
        if (entry === undefined) continue;
        removeEntry(entry, 'accepted');
        removed.push(entry);
        senders.add(entry.sender);
      }
      for (const sender of senders) recheckSender(sender);
      return removed;
    },
    removeConflicting(conflictKeys) {
      const holders = new Set<PoolEntry>();
      for (const key of conflictKeys) {
        const holder = byConflict.get(key);
        if (holder !== undefined) holders.add(holder);
      }
      for (const entry of holders) removeEntry(entry, 'invalidated');
      return [...holders];
    },
    revalidate(addresses) {
      if (addresses === undefined) return recheckAll();
      return addresses.map(senderKey).flatMap((sender) => recheckSender(sender));
    },
    blockApplied(update) {
      for (const hash of update.accepted) carried.delete(toHex(hash));
      for (const id of update.carried ?? []) carriedIds.add(id);
      while (carriedIds.size > limits.txCountMax) carriedIds.delete(carriedIds.values().next().value!);
      const left: PoolEntry[] = [];
      const senders = new Set<string>();
      const take = (entry: PoolEntry | undefined, reason: RemovalReason) => {
        if (entry === undefined || !byId.has(entry.id)) return;
        removeEntry(entry, reason);
        left.push(entry);
        senders.add(entry.sender);
      };
      for (const hash of update.accepted) take(byId.get(toHex(hash)), 'accepted');
      for (const hash of update.refused) take(byId.get(toHex(hash)), 'invalidated');
      for (const key of update.conflictKeys) take(byConflict.get(key), 'invalidated');
      if (update.change === 'all') return [...left, ...recheckAll()];
      for (const sender of candidates.affected(update.change)) senders.add(sender);
      for (const sender of senders) left.push(...recheckSender(sender));
      return left;
    },
    stateChanged(change) {
      if (change === 'all') return recheckAll();
      return [...candidates.affected(change)].flatMap((sender) => recheckSender(sender));
    },
    candidates() {
      const out = new Map<string, readonly PoolEntry[]>();
      for (const sender of bySender.keys()) {
        const run = candidates.run(sender);
        if (run.length > 0) out.set(sender, run);
      }
      return out;
    },
    recomputeCandidates() {
      const out = new Map<string, readonly PoolEntry[]>();
      for (const [sender, queue] of bySender) {
        const result = simulateRun(queue, state);
        const { run } = withoutRefused(result, refusedBy(queue, result));
        if (run.length > 0) out.set(sender, run);
      }
      return out;
    },
    expire() {
      const now = clock.nowMs();
      const old = [...byId.values()].filter((e) => now - e.addedMs >= limits.txAgeMaxMs);
      for (const entry of old) removeEntry(entry, 'expired');
      return old.length;
    },
    selectForBlock(request) {
      const key = `${request.maxBytes}|${request.maxCount}|${request.maxMass ?? ''}`;
      if (lastSelection?.key === key && lastSelection.version === candidates.version) return lastSelection.selection;
      const selection = selectTransactions(candidates.runs(), request);
      lastSelection = { key, version: candidates.version, selection };
      return selection;
    },
    get: (hash) => byId.get(toHex(hash)),
    status(hash) {
      const id = toHex(hash);
      const entry = byId.get(id) ?? carried.get(id);
      if (entry !== undefined) return { status: 'pending', entry };
      const gone = dropped.get(id);
      return gone === undefined ? undefined : { status: 'dropped', reason: gone.reason, entry: gone.entry };
    },
    pending: () => [...byId.values(), ...carried.values()].sort(compareForBlock),
    pendingFor: (address) => [...(bySender.get(senderKey(address)) ?? [])],
    nextNonce(address) {
      const queue = bySender.get(senderKey(address)) ?? [];
      let nonce = accounts.account(address).nonce;
      while (indexOfNonce(queue, nonce) >= 0) nonce += 1n;
      return nonce;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get size() {
      return byId.size;
    },
    get bytes() {
      return totalBytes;
    },
    get candidateCount() {
      return candidates.size;
    },
  };
}

/** Runs one item's stage; a WeftError becomes its failed result, anything else is a bug and propagates. */
function attempt<T>(results: AdmitResult[], i: number, stage: () => T): T | undefined {
  try {
    return stage();
  } catch (error) {
    if (!(error instanceof WeftError)) throw error;
    results[i] = { ok: false, error };
    return undefined;
  }
}
