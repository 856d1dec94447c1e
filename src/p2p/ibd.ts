/**
 * Headers-first initial block download (docs/p2p.md "Initial sync"). One sync peer at a time serves header pages
 * (getheaders with a locator over our selected chain → headers, ≤ 2000, in topological order, checked in isolation
 * and for PoW as they arrive and required to connect); the bodies of the queued headers are fetched with getdata in
 * batches from every ready peer that is far enough ahead, several batches in flight each, and handed to the chain in
 * header order as soon as the front of the queue has arrived — so blocks from several peers are applied in a
 * topological order without an orphan pool. Header pages stay at most `p2pSyncHeadersAheadMax` ahead of the bodies.
 * A peer that stalls or disconnects gives its batches back; losing the sync peer aborts the round, and the next
 * peer that is ahead starts a new one from our (now longer) chain — which is also how a restarted node resumes.
 *
 * The download's state is one IbdState (ibd/state.ts); each operation is a free function over it in src/p2p/ibd/
 * (round.ts, headers.ts, bodies.ts, peer-events.ts). This file is the wiring.
 */
import type { Block } from '../codec/block.ts';
import type { BlockHeader } from '../codec/header.ts';
import { onHeaders } from './ibd/headers.ts';
import { peerClosed, takeBlock, takeNotFound } from './ibd/peer-events.ts';
import { closeIbd, considerPeer, fetchAncestors } from './ibd/round.ts';
import { createIbdState, ibdStatus, type IbdDeps } from './ibd/state.ts';
import type { InvItem } from './messages/inventory.ts';
import type { Peer } from './peer.ts';
import type { SyncStatus } from './sync-progress.ts';

export interface Ibd {
  running(): boolean;
  syncPeer(): Peer | undefined;
  /** Whether the block being accepted is one this sync applies (history the network has), not a new one. */
  applies(id: string): boolean;
  /** Starts a round from `peer` when it is ahead of us and no round runs. */
  consider(peer: Peer): void;
  /**
   * Starts a round from `peer` whether or not it is ahead, to fetch in one headers round trip the ancestors of a
   * relayed orphan it sent (past(its selected tip) \ past(the fork point)); no-op while a round runs.
   */
  fetchAncestors(peer: Peer): void;
  onHeaders(peer: Peer, headers: readonly BlockHeader[], more: boolean): void;
  /** True when the block is one this sync asked `peer` for (it takes it). */
  onBlock(peer: Peer, block: Block, id: string): boolean;
  /** Items this sync asked for that the peer does not have; returns how many were ours. */
  onNotFound(peer: Peer, items: readonly InvItem[]): number;
  onPeerClosed(peer: Peer): void;
  status(): SyncStatus;
  close(): void;
}

export function createIbd(deps: IbdDeps): Ibd {
  const state = createIbdState(deps);
  return {
    running: () => state.syncPeer !== undefined,
    syncPeer: () => state.syncPeer,
    applies: (id) => state.applying.has(id),
    consider: (peer) => considerPeer(state, peer),
    fetchAncestors: (peer) => fetchAncestors(state, peer),
    onHeaders: (peer, headers, more) => onHeaders(state, peer, headers, more),
    onBlock: (peer, block, id) => takeBlock(state, peer, block, id),
    onNotFound: (peer, items) => takeNotFound(state, peer, items),
    onPeerClosed: (peer) => peerClosed(state, peer),
    status: () => ibdStatus(state),
    close: () => closeIbd(state),
  };
}
