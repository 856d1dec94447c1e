/**
 * The transaction pool (docs/design.md "Consensus" and "State, accounts and energy", docs/mempool.md): admission, per-sender nonce queues, ordering by fee
 * rate, replacement, bounds with eviction of the cheapest, expiry, removal when chain blocks accept transactions,
 * re-admission when blocks leave the selected chain, and block-template selection.
 *
 * Admission runs in three stages, cheap before expensive (docs/style.md habit 4):
 *   1. shape  — size bound, decode (canonical), chain id, minimum fee rate, already known;
 *   2. proof  — every proof the batch's kinds ask for in ONE call to the proof-check port (a worker pool on the node);
 *   3. state  — synchronous against the account view: nonce window, replacement, conflict keys, balance with pending
 *               spends, room (eviction). Stage 3 never awaits, so concurrent batches cannot interleave inside it.
 *
 * What a transaction spends, its conflict keys and its mass come from its kind (src/kinds/), via the entry.
 */
import { asProofVerifier, type AsyncProofVerifier, type ProofVerifier } from '../crypto/proof-check.ts';
import type { AsyncSignatureVerifier, SignatureVerifier } from '../crypto/verifier.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { DecodeError, ErrorCode, WeftError } from '../errors.ts';
import type { Account, AccountReader } from '../state/account.ts';
import type { Clock } from '../util/clock.ts';
import { fromHex, toHex } from '../util/bytes.ts';
import { compareFeeRate, compareForBlock, parseTransaction, type ParsedTransaction, type PoolEntry } from './entry.ts';
import { InsufficientBalanceError, TransactionRejectedError } from './errors.ts';
import { chooseVictims } from './eviction.ts';
import { defaultMempoolLimits, type MempoolLimits } from './mempool-limits.ts';
import { selectTransactions, type SelectRequest, type Selection } from './select.ts';
import { firstOverspend, indexOfNonce, trySpend, budgetOf, withEntry, type SenderQueue } from './sender-queue.ts';

/** The conflict-key prefix of a confidential input's key image (src/kinds/confidential/ring-spend.ts). */
const keyImagePrefix = 'key_image:';

export type RemovalReason = 'accepted' | 'replaced' | 'evicted' | 'expired' | 'invalidated';

export type MempoolEvent =
  | { readonly type: 'added'; readonly entry: PoolEntry }
  | { readonly type: 'removed'; readonly entry: PoolEntry; readonly reason: RemovalReason };

export type AdmitResult =
  | { readonly ok: true; readonly entry: PoolEntry; readonly replaced: PoolEntry | undefined }
  | { readonly ok: false; readonly error: WeftError };

/** docs/design.md "Consensus" statuses the pool can speak for: pending, or dropped (evicted, expired, invalidated, replaced). */
export type PoolStatus =
  | { readonly status: 'pending'; readonly entry: PoolEntry }
  | { readonly status: 'dropped'; readonly reason: Exclude<RemovalReason, 'accepted'>; readonly entry: PoolEntry };

export interface MempoolOptions {
  readonly params: Pick<NetworkParams, 'chainId'>;
  readonly accounts: AccountReader;
  /** Sync (noble, the Wasm verifier) or async (the worker pool), Schnorr-only or a full proof verifier: stage 2 awaits any. */
  readonly verifier: SignatureVerifier | AsyncSignatureVerifier | ProofVerifier | AsyncProofVerifier;
  readonly clock: Clock;
  readonly limits?: Partial<MempoolLimits>;
  /**
   * Whether a key image is already spent in the ledger's state (the `key_image` namespace). Given, a transaction
   * with a `key_image:<hex>` conflict key (src/kinds/confidential/) whose image is spent is refused
   * ('key_image_spent') instead of waiting in the pool for a block that would never accept it.
   */
  readonly keyImageSpent?: (keyImage: Uint8Array) => boolean;
  /**
   * The energy pool of the agent account at `payer` (undefined: none), so a pool-paid `use_energy` fee of an agent or
   * escrow transaction is judged against the pool, as acceptance does (docs/settlement.md "Fees and the energy pool").
   * Left out, such fees are judged against the account energy.
   */
  readonly agentPool?: (payer: Uint8Array) => bigint | undefined;
  /** A listener that throws is a bug; by default it is rethrown on a microtask (crashes loudly, pool intact). */
  readonly onListenerError?: (error: unknown) => void;
}

export interface Mempool {
  readonly limits: MempoolLimits;
  /** Admits one transaction or throws its typed rejection. */
  add(bytes: Uint8Array): Promise<PoolEntry>;
  /** Admits many with one verifier call; one result per item, in order. */
  addBatch(items: readonly Uint8Array[]): Promise<AdmitResult[]>;
  /** Transactions of blocks that left the selected chain come back (same rules; failures are reported, not thrown). */
  readmit(items: readonly Uint8Array[]): Promise<AdmitResult[]>;
  /** Chain blocks accepted these: remove them and recheck their senders against the new account view. */
  removeAccepted(txHashes: readonly Uint8Array[]): PoolEntry[];
  /**
   * Chain blocks accepted transactions holding these conflict keys (src/kinds/kind.ts `conflictKeys`: key images,
   * created outputs): pending transactions holding any of them can never be accepted now and are invalidated.
   */
  removeConflicting(conflictKeys: readonly string[]): PoolEntry[];
  /** Rechecks senders (all when omitted) against the account view: stale nonces and overspends are invalidated. */
  revalidate(addresses?: readonly Uint8Array[]): PoolEntry[];
  /** Drops transactions older than `txAgeMaxMs`; returns how many. */
  expire(): number;
  selectForBlock(request: SelectRequest): Selection;
  get(txHash: Uint8Array): PoolEntry | undefined;
  status(txHash: Uint8Array): PoolStatus | undefined;
  /** Every pending transaction, best-paying first. */
  pending(): PoolEntry[];
  /** One sender's pending transactions in nonce order. */
  pendingFor(address: Uint8Array): PoolEntry[];
  /** The nonce a new transaction from `address` should use: the account's, past its contiguous pending run. */
  nextNonce(address: Uint8Array): bigint;
  subscribe(listener: (event: MempoolEvent) => void): () => void;
  readonly size: number;
  readonly bytes: number;
}

export function createMempool(options: MempoolOptions): Mempool {
  const limits: MempoolLimits = { ...defaultMempoolLimits, ...options.limits };
  const { accounts, clock } = options;
  const verifier = asProofVerifier(options.verifier);
  const byId = new Map<string, PoolEntry>();
  /** Conflict key → the pending entry holding it (src/kinds/kind.ts `conflictKeys`). */
  const byConflict = new Map<string, PoolEntry>();
  const bySender = new Map<string, SenderQueue>();
  const dropped = new Map<string, { reason: Exclude<RemovalReason, 'accepted'>; entry: PoolEntry }>();
  const listeners = new Set<(event: MempoolEvent) => void>();
  let totalBytes = 0;
  let nextSeq = 0;
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

  const forget = (entry: PoolEntry, reason: Exclude<RemovalReason, 'accepted'>) => {
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
      if (queue.length === 0) bySender.delete(entry.sender);
      else bySender.set(entry.sender, queue);
    }
    if (reason !== 'accepted') forget(entry, reason);
    emit({ type: 'removed', entry, reason });
  };

  const revalidateSender = (sender: string, known?: Account): PoolEntry[] => {
    const queue = bySender.get(sender);
    if (queue === undefined || queue.length === 0) return [];
    const account = known ?? accounts.account(queue[0]!.spend.payer);
    const budget = budgetOf(account, options.agentPool?.(queue[0]!.spend.payer));
    const invalid = queue.filter((e) => e.spend.nonce < account.nonce || !trySpend(e.spend, budget));
    for (const entry of invalid) removeEntry(entry, 'invalidated');
    return invalid;
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

  const admitVerified = (parsed: ParsedTransaction): AdmitResult => {
    if (byId.has(parsed.id)) throw new TransactionRejectedError('already_known', `${parsed.id} is already pending`);
    const { spend } = parsed;
    const account = accounts.account(spend.payer);
    revalidateSender(parsed.sender, account);
    if (spend.nonce < account.nonce) {
      throw new TransactionRejectedError('nonce_too_low', `nonce ${spend.nonce}, account is at ${account.nonce}`);
    }
    if (spend.nonce > account.nonce + limits.nonceAheadMax) {
      throw new TransactionRejectedError('nonce_too_high', `nonce ${spend.nonce}, at most ${limits.nonceAheadMax} past ${account.nonce}`);
    }
    if (options.keyImageSpent !== undefined) {
      for (const key of parsed.conflicts) {
        if (key.startsWith(keyImagePrefix) && options.keyImageSpent(fromHex(key.slice(keyImagePrefix.length)))) {
          throw new TransactionRejectedError('key_image_spent', `key image ${key.slice(keyImagePrefix.length)} is already spent`);
        }
      }
    }
    const { checks: _verified, ...fields } = parsed;
    const entry: PoolEntry = {
      ...fields,
      size: parsed.bytes.length,
      addedMs: clock.nowMs(),
      seq: nextSeq++,
    };
    const current = bySender.get(parsed.sender) ?? [];
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
    const overspend = firstOverspend(queue, account, options.agentPool?.(spend.payer));
    if (overspend !== undefined) {
      const message = `balance ${account.balance} does not cover ${overspend.needed} of pending spends up to nonce ${overspend.entry.spend.nonce}`;
      throw new InsufficientBalanceError(message, { balance: account.balance, needed: overspend.needed });
    }
    const victims = makeRoom(entry, queue, replaced);
    if (replaced !== undefined) removeEntry(replaced, 'replaced', true);
    bySender.set(entry.sender, queue);
    for (const victim of victims) removeEntry(victim, 'evicted');
    byId.set(entry.id, entry);
    for (const key of entry.conflicts) byConflict.set(key, entry);
    totalBytes += entry.size;
    dropped.delete(entry.id);
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
    const parsed: (ParsedTransaction | undefined)[] = items.map((bytes, i) => attempt(results, i, () => shapeCheck(bytes)));
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
      for (const sender of senders) revalidateSender(sender);
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
      const senders = addresses === undefined ? [...bySender.keys()] : addresses.map(senderKey);
      return senders.flatMap((sender) => revalidateSender(sender));
    },
    expire() {
      const now = clock.nowMs();
      const old = [...byId.values()].filter((e) => now - e.addedMs >= limits.txAgeMaxMs);
      for (const entry of old) removeEntry(entry, 'expired');
      return old.length;
    },
    selectForBlock(request) {
      return selectTransactions(bySender, accounts, request, options.agentPool);
    },
    get: (hash) => byId.get(toHex(hash)),
    status(hash) {
      const id = toHex(hash);
      const entry = byId.get(id);
      if (entry !== undefined) return { status: 'pending', entry };
      const gone = dropped.get(id);
      return gone === undefined ? undefined : { status: 'dropped', reason: gone.reason, entry: gone.entry };
    },
    pending: () => [...byId.values()].sort(compareForBlock),
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
