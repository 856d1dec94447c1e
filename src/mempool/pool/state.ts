/**
 * The state of a transaction pool (src/mempool/mempool.ts): its indexes (by id, by conflict key, by sender), the
 * candidate set, what it remembers of transactions that left, its listeners and counters. The operations are free
 * functions beside it: admit.ts (admission's stages), remove.ts (leaving the pool, events), recheck.ts (senders
 * against the state), block.ts (a block's removals and rechecks, expiry), read.ts (templates, statuses, queries).
 */
import { asWitnessVerifier, type AsyncWitnessVerifier, type WitnessVerifier } from '../../crypto/witness-check.ts';
import type { AccountReader } from '../../state/account.ts';
import { createBoundedMap, createBoundedSet, type BoundedMap, type BoundedSet } from '../../util/bounded-set.ts';
import type { Clock } from '../../util/clock.ts';
import { createCandidateSet, type CandidateSet } from '../candidates.ts';
import type { PoolEntry } from '../entry.ts';
import { defaultMempoolLimits, type MempoolLimits } from '../mempool-limits.ts';
import type { PoolState } from '../pool-state.ts';
import type { MempoolEvent, MempoolOptions, RemovalReason } from '../pool-api.ts';
import type { Selection } from '../select.ts';
import type { SenderQueue } from '../sender-queue.ts';

/** Why a transaction left the pool for good (status() answers `dropped` with it). */
export type DropReason = Exclude<RemovalReason, 'accepted' | 'carried'>;

export interface MempoolState {
  readonly limits: MempoolLimits;
  readonly chainId: number;
  readonly accounts: AccountReader;
  readonly clock: Clock;
  /** The virtual state the kinds' state rules read (pool-state.ts). */
  readonly virtualState: PoolState;
  readonly verifier: WitnessVerifier | AsyncWitnessVerifier;
  readonly agentPool: MempoolOptions['agentPool'];
  readonly byId: Map<string, PoolEntry>;
  /** Conflict key → the pending entry holding it (src/kinds/kind.ts `conflictKeys`). */
  readonly byConflict: Map<string, PoolEntry>;
  readonly bySender: Map<string, SenderQueue>;
  readonly candidates: CandidateSet;
  /** The last droppedRememberedMax dropped, for status(). */
  readonly dropped: BoundedMap<string, { reason: DropReason; entry: PoolEntry }>;
  /**
   * Transactions blocks carry that no chain block has accepted yet (ids of the latest blocks' transactions), and the
   * entries that left the candidates because of it: still pending to the API, until a chain block accepts them.
   */
  readonly carriedIds: BoundedSet<string>;
  readonly carried: BoundedMap<string, PoolEntry>;
  readonly listeners: Set<(event: MempoolEvent) => void>;
  readonly reportListenerError: (error: unknown) => void;
  totalBytes: number;
  nextSeq: number;
  /** The last template and the request and candidate-set version it answered (the miner asks again and again). */
  lastSelection: { key: string; version: number; selection: Selection } | undefined;
}

export function createMempoolState(options: MempoolOptions): MempoolState {
  const { accounts, clock } = options;
  const virtualState: PoolState = {
    account: (address) => accounts.account(address),
    record: options.records ?? (() => undefined),
    daaScore: options.daaScore ?? (() => 0),
    ...(options.rulesV2 ? { rulesV2: options.rulesV2 } : {}),
    ...(options.stateVersion ? { version: options.stateVersion } : {}),
    ...(options.massRules ? { massRules: options.massRules } : {}),
  };
  const limits = { ...defaultMempoolLimits, ...options.limits };
  return {
    limits,
    chainId: options.params.chainId,
    accounts,
    clock,
    virtualState,
    verifier: asWitnessVerifier(options.verifier),
    agentPool: options.agentPool,
    byId: new Map(),
    byConflict: new Map(),
    bySender: new Map(),
    candidates: createCandidateSet(),
    dropped: createBoundedMap(limits.droppedRememberedMax),
    carriedIds: createBoundedSet(limits.txCountMax),
    carried: createBoundedMap(limits.txCountMax),
    listeners: new Set(),
    reportListenerError:
      options.onListenerError ??
      ((error: unknown) =>
        queueMicrotask(() => {
          throw error;
        })),
    totalBytes: 0,
    nextSeq: 0,
    lastSelection: undefined,
  };
}
