/**
 * The state of headers-first initial block download (src/p2p/ibd.ts): the round running — its sync peer, the queue of
 * headers whose bodies are fetched from several peers and handed to the chain in queue order, the batches in flight —
 * and what outlives a round (peers off our pruning point, when each peer last started an ancestors round). The
 * operations are free functions beside it: round.ts (starting, ending and aborting a round), headers.ts (header
 * pages), bodies.ts (body batches and handing blocks to the chain), peer-events.ts (a peer's block, notfound, close).
 */
import type { Block } from '../../codec/block.ts';
import type { Chain } from '../../chain/chain.ts';
import type { Clock } from '../../util/clock.ts';
import type { P2pLogger } from '../logger.ts';
import type { Peer } from '../peer.ts';
import { createSyncProgress, type SyncProgress, type SyncStatus } from '../sync-progress.ts';
import type { Timer } from '../transport.ts';

export interface IbdDeps {
  readonly chain: Chain;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly log: P2pLogger;
  /** Ready peers, the candidates for headers and bodies. */
  readonly peers: () => readonly Peer[];
  /** A block `peer` served failed validation (or the store failed). */
  readonly onBlockRejected: (peer: Peer, error: unknown) => void;
  /** Called after a round applied its last block: relay asks peers for tips it still lacks. */
  readonly onFinished: () => void;
}

/** One queued header: its body once it arrived (and from whom), or the batch that asks for it. */
export interface Entry {
  readonly id: string;
  readonly hash: Uint8Array;
  readonly blueScore: number;
  block?: Block;
  from?: Peer;
  batch?: Batch;
}

/** One getdata of bodies to one peer, dropped (its timeout cancelled) when its last entry is answered. */
export interface Batch {
  readonly peer: Peer;
  readonly entries: Entry[];
  remaining: number;
  cancelTimeout: () => void;
}

export interface IbdState extends IbdDeps {
  readonly progress: SyncProgress;
  /** The peer this round's headers come from; undefined while no round runs. */
  syncPeer: Peer | undefined;
  /** The round's headers in order: bodies are handed to the chain from `head` and asked for from `nextToRequest`. */
  queue: Entry[];
  head: number;
  nextToRequest: number;
  /** Queued entries by id, until handed to the chain. */
  readonly queued: Map<string, Entry>;
  /** Entries asked for again before the queue (their batch's peer closed or answered notfound). */
  retry: Entry[];
  readonly batches: Map<Peer, Set<Batch>>;
  /**
   * Peers other than the sync peer that answered `notfound` for a body of this round: on another fork (a blue score
   * as high as our entries' says nothing about which chain), so they are asked for no more of this round's bodies.
   */
  readonly lacking: Set<Peer>;
  /** Peers whose headers do not connect to a joined chain (off our pruning point): not synced from again. */
  readonly offChain: WeakSet<Peer>;
  headersOutstanding: boolean;
  cancelHeadersTimeout: (() => void) | undefined;
  headersMore: boolean;
  lastHeaderHash: Uint8Array | undefined;
  lastLogMs: number;
  /**
   * Blocks handed to the chain whose store write has not settled: bounded, so a slow disk slows the download instead
   * of piling up memory (and so a kill -9 loses at most this many accepted-but-unwritten blocks).
   */
  unsettled: number;
  cancelNextTurn: (() => void) | undefined;
  /** Blocks handed over since the last yield, across drain calls (every arriving block calls drain). */
  handedThisTurn: number;
  /** When each peer last started an ancestors round (fetchAncestors). */
  readonly ancestorRoundAt: WeakMap<Peer, number>;
  /**
   * Blocks handed to the chain by this sync and not yet settled, each with the chain's answer: their acceptance is
   * not news to announce, and a round is complete once every answer is in (round.ts).
   */
  readonly applying: Map<string, Promise<void>>;
}

export function createIbdState(deps: IbdDeps): IbdState {
  return {
    ...deps,
    progress: createSyncProgress(deps.clock),
    syncPeer: undefined,
    queue: [],
    head: 0,
    nextToRequest: 0,
    queued: new Map(),
    retry: [],
    batches: new Map(),
    lacking: new Set(),
    offChain: new WeakSet(),
    headersOutstanding: false,
    cancelHeadersTimeout: undefined,
    headersMore: false,
    lastHeaderHash: undefined,
    lastLogMs: 0,
    unsettled: 0,
    cancelNextTurn: undefined,
    handedThisTurn: 0,
    ancestorRoundAt: new WeakMap(),
    applying: new Map(),
  };
}

export function tipBlueScore(state: IbdState): number {
  return state.chain.selectedTip().header.blueScore;
}

export function ibdStatus(state: IbdState): SyncStatus {
  return state.progress.status(tipBlueScore(state), state.syncPeer?.nodeIdHex ?? null);
}

/** Whether `peer` is ahead of our selected tip: the sync trigger. */
export function isAhead(chain: Chain, peer: Peer): boolean {
  // A tip this node already refused is no reason to sync: its chain ends in an invalid block.
  return peer.best.blueWork > chain.selectedTip().header.blueWork && peer.best.tip !== '' && !chain.has(peer.best.tip) && !chain.isInvalid(peer.best.tip);
}
