/**
 * The state of block and transaction relay (src/p2p/relay.ts): block requests in flight, announcements deferred
 * during a sync round, the transactions kept to answer getdata and rebuild compact blocks, the compact blocks waiting
 * for their transactions, the transaction announcements queued for their flush, and whose block pushes we keep. The
 * operations are free functions beside it: block-requests.ts, blocks.ts, compact.ts, inventory.ts, transactions.ts,
 * push-selection.ts, close.ts.
 */
import type { Chain } from '../../chain/chain.ts';
import { createBoundedMap, createBoundedSet, type BoundedMap, type BoundedSet } from '../../util/bounded-set.ts';
import type { Clock } from '../../util/clock.ts';
import { createCompactRelayState, forgetTransaction, type CompactRelayState } from '../compact-relay.ts';
import type { StemRoutes } from '../dandelion.ts';
import type { Ibd } from '../ibd.ts';
import { p2pKnownInventoryMax } from '../limits.ts';
import type { InvItem } from '../messages/inventory.ts';
import { txShortKey } from '../messages/tx-inventory.ts';
import type { Peer } from '../peer.ts';
import type { Timer } from '../transport.ts';

/** The mempool as relay sees it. `submitRaw` rejects with an error carrying `banScore` when the tx is invalid. */
export interface TxRelayPort {
  submitRaw(bytes: Uint8Array): Promise<unknown>;
  /** Every transaction admitted (from RPC or from peers): relay announces it. */
  onAdded(callback: (tx: { readonly hash: Uint8Array; readonly raw: Uint8Array }) => void): () => void;
}

export interface RelayDeps {
  readonly chain: Chain;
  readonly clock: Clock;
  readonly ibd: Ibd;
  readonly readyPeers: () => readonly Peer[];
  readonly onBlockRejected: (peer: Peer, error: unknown) => void;
  readonly txPort?: TxRelayPort;
  readonly stems: StemRoutes;
  readonly randomInt: (n: number) => number;
  /** Runs the batched transaction announcements after p2pTxAnnounceDelayMs, and compact blocks' timers. */
  readonly timer: Timer;
}

export interface RelayState extends RelayDeps {
  /** Block requests in flight: who was asked and when (an unanswered one may be asked of another peer later). */
  readonly requested: Map<string, { peer: Peer; atMs: number }>;
  /** Announced transactions by id, kept to answer getdata and rebuild compact blocks (transactions.ts). */
  readonly txCache: BoundedMap<string, Uint8Array>;
  /** The ids of txCache by short key (messages/tx-inventory.ts), to answer `gettx` and skip a `txinv` we hold. */
  readonly txIdByShortKey: Map<string, string>;
  /**
   * Transactions of the blocks this node validated lately, by short key (Bitcoin's recently-confirmed filter): an
   * announcement of one is not fetched. A block that carried a transaction this node had not yet fetched (prefilled
   * or asked by index) would otherwise still draw a fetch from each peer that announces it, and a refusal.
   */
  readonly txConfirmedRecently: BoundedSet<string>;
  /** Transactions asked for (`getdata` or `gettx`), by short key: not asked again of the next peer that announces them. */
  readonly txRequested: BoundedSet<string>;
  /** The peer each transaction under admission came from: not announced back to it. */
  readonly txSources: Map<string, Peer>;
  /** Block announcements that arrived during a sync round; fetched after it (unmerged tips are in no header page). */
  readonly deferred: Map<string, Peer>;
  readonly compact: CompactRelayState;
  /** The fallback timer of each compact block waiting for its transactions (compact.ts). */
  readonly completionTimers: Map<string, () => void>;
  /** The timer of each such block's next announcer, asked for it whole if the transactions stay away (compact.ts). */
  readonly backupTimers: Map<string, () => void>;
  /**
   * How many orphan levels below a relayed block a requested parent is: a parent that is itself an orphan means a
   * gap of unknown depth, fetched headers-first in one round trip instead of one level per round trip.
   */
  readonly orphanLevel: Map<string, number>;
  /** Relayed blocks handed to the chain and not yet settled (in their preverify): a child of one is no gap. */
  readonly adding: Set<string>;
  /** Transaction announcements waiting for the next flush (p2pTxAnnounceDelayMs), a peer's in one message. */
  readonly txInvQueue: Map<Peer, QueuedTxInv[]>;
  /** Cancels the scheduled flush; undefined when none is. */
  cancelTxInvFlush: (() => void) | undefined;
  /** The peers whose pushes we keep, the one that brought a new block first most lately last (push-selection.ts). */
  readonly pushers: Peer[];
  /** Peers we told to announce their new blocks instead of pushing them (`pushblocks` false). */
  readonly pushesDeclined: Set<Peer>;
  /** Peers that told us to announce our new blocks to them instead of pushing them. */
  readonly announceOnly: Set<Peer>;
  /** Detaches from the mempool's admissions (set once subscribed: relay.ts). */
  unsubscribeTx: (() => void) | undefined;
}

/** Short keys of recently confirmed transactions kept (a minute of blocks at ~800 transactions each). */
const txConfirmedRecentlyMax = 50_000;

/** A transaction announcement waiting for its flush: the item, and the peer's known-set key for it. */
interface QueuedTxInv {
  readonly item: InvItem;
  readonly key: string;
}

/** Whether the peer's version offers a service bit (messages/version.ts `Services`). */
export function wants(peer: Peer, service: bigint): boolean {
  return ((peer.version()?.services ?? 0n) & service) !== 0n;
}

/**
 * Transactions kept to answer getdata after they were announced (Bitcoin's mapRelay) and to rebuild compact blocks
 * from: as many as the pool holds (mempoolTxCountMax), so a block of pooled transactions is rebuilt without asking.
 */
const relayedTxCacheMax = 50_000;

/** A transaction the cache let go for room: no longer answered or rebuilt from. */
function forgetRelayed(state: RelayState, id: string): void {
  const key = txShortKey(id);
  if (state.txIdByShortKey.get(key) === id) state.txIdByShortKey.delete(key);
  forgetTransaction(state.compact, id);
}

export function createRelayState(deps: RelayDeps): RelayState {
  const state: RelayState = {
    ...deps,
    requested: new Map(),
    txCache: createBoundedMap<string, Uint8Array>(relayedTxCacheMax, (id) => forgetRelayed(state, id)),
    txIdByShortKey: new Map(),
    txRequested: createBoundedSet<string>(p2pKnownInventoryMax),
    txConfirmedRecently: createBoundedSet<string>(txConfirmedRecentlyMax),
    txSources: new Map(),
    deferred: new Map(),
    compact: createCompactRelayState(),
    completionTimers: new Map(),
    backupTimers: new Map(),
    orphanLevel: new Map(),
    adding: new Set(),
    txInvQueue: new Map(),
    cancelTxInvFlush: undefined,
    pushers: [],
    pushesDeclined: new Set(),
    announceOnly: new Set(),
    unsubscribeTx: undefined,
  };
  return state;
}
