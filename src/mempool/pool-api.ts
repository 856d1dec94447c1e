/**
 * The pool's contract (mempool.ts implements it): options, the operations, results, statuses and events.
 */
import type { AsyncWitnessVerifier, WitnessVerifier } from '../crypto/witness-check.ts';
import type { AsyncSignatureVerifier, SignatureVerifier } from '../crypto/verifier.ts';
import type { NetworkParams } from '../consensus/params.ts';
import type { WeftError } from '../errors.ts';
import type { MassRules, RecordNamespace } from '../kinds/kind.ts';
import type { AccountReader } from '../state/account.ts';
import type { Clock } from '../util/clock.ts';
import type { StateChange } from './candidates.ts';
import type { PoolEntry } from './entry.ts';
import type { MempoolLimits } from './mempool-limits.ts';
import type { SelectRequest, Selection } from './select.ts';

/**
 * `carried`: a block in the virtual's past carries it and the virtual state accepts it, but no chain block has yet:
 * it leaves the candidates (no template carries it twice) and stays pending to the API until a chain block accepts it.
 */
export type RemovalReason = 'accepted' | 'carried' | 'replaced' | 'evicted' | 'expired' | 'invalidated';

export type MempoolEvent =
  | { readonly type: 'added'; readonly entry: PoolEntry }
  | { readonly type: 'removed'; readonly entry: PoolEntry; readonly reason: RemovalReason };

export type AdmitResult =
  | { readonly ok: true; readonly entry: PoolEntry; readonly replaced: PoolEntry | undefined }
  | { readonly ok: false; readonly error: WeftError };

/** docs/design.md "Consensus" statuses the pool can speak for: pending, or dropped (evicted, expired, invalidated, replaced). */
export type PoolStatus =
  | { readonly status: 'pending'; readonly entry: PoolEntry }
  | { readonly status: 'dropped'; readonly reason: Exclude<RemovalReason, 'accepted' | 'carried'>; readonly entry: PoolEntry };

/** What one block did, as the pool needs it (server/node/mempool-service.ts builds it from the chain's events). */
export interface BlockUpdate {
  readonly accepted: readonly Uint8Array[];
  readonly refused: readonly Uint8Array[];
  readonly conflictKeys: readonly string[];
  readonly change: StateChange | 'all';
  /** Ids (hex) of the transactions the new block carries: refused by the recheck only because of it, they are `carried`. */
  readonly carried?: readonly string[];
}

export interface MempoolOptions {
  readonly params: Pick<NetworkParams, 'chainId'>;
  /** Accounts at the virtual state. */
  readonly accounts: AccountReader;
  /** Records at the virtual state (src/state/namespaces.ts); left out, every record reads as absent. */
  readonly records?: (namespace: RecordNamespace, id: Uint8Array) => Uint8Array | undefined;
  /** The DAA score the next acceptance runs at; left out, 0. */
  readonly daaScore?: () => number;
  /** Whether rules v2 govern the next acceptance (src/consensus/activation.ts); default: version 1 rules. */
  readonly rulesV2?: () => boolean;
  /** The mass rules of the next block (massRulesAt); default: those before v3. Templates weigh again (select.ts). */
  readonly massRules?: () => MassRules;
  /**
   * A number that changes whenever the virtual state may have (the chain's block count): admission reuses its state
   * check from before the proofs when neither this nor the sender's queue moved meanwhile. Left out, it checks twice.
   */
  readonly stateVersion?: () => number;
  /** Sync (noble, the Wasm verifier) or async (the worker pool), Schnorr-only or a full witness verifier: stage 2 awaits any. */
  readonly verifier: SignatureVerifier | AsyncSignatureVerifier | WitnessVerifier | AsyncWitnessVerifier;
  readonly clock: Clock;
  readonly limits?: Partial<MempoolLimits>;
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
  /**
   * Rechecks senders (all when omitted) against the state: stale nonces, overspends and transactions their kind's
   * state rules now refuse are invalidated, and the candidate set follows.
   */
  revalidate(addresses?: readonly Uint8Array[]): PoolEntry[];
  /** The state moved (a block): rechecks exactly the senders `change` can affect (candidates.ts); 'all' after a reorg. */
  stateChanged(change: StateChange | 'all'): PoolEntry[];
  /**
   * A block changed the virtual state (docs/mempool.md "After each block"): transactions chain blocks accepted leave
   * the pool, so do those acceptance refused and those holding a conflict key an accepted one took; then exactly
   * the senders `change` can affect (and those that lost a transaction) are rechecked. Returns what left.
   */
  blockApplied(update: BlockUpdate): PoolEntry[];
  /** The candidate set: each sender's executable, state-checked run, by sender (hex payer). */
  candidates(): Map<string, readonly PoolEntry[]>;
  /** The candidate set recomputed from scratch against the state (audits and tests; changes nothing). */
  recomputeCandidates(): Map<string, readonly PoolEntry[]>;
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
  /** Transactions in the candidate set. */
  readonly candidateCount: number;
}
