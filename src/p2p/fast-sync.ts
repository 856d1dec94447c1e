/**
 * The fast-sync messages of a p2p node (docs/p2p.md "Fast sync"): serving `getpruningproof`, `gettrusteddata` and
 * `getsnapshotchunk` from the ports the host gives (a full node: its proof builder and its state trie), rate-limited
 * per peer, and asking a peer for them, one request per peer at a time, matched to its answer, with a timeout.
 *
 * The state is one FastSyncState (fast-sync/state.ts); serving is fast-sync/serve.ts, asking and taking answers
 * fast-sync/request.ts. This file is the wiring.
 */
import type { TrustedData } from '../chain/trusted-data.ts';
import type { SnapshotChunk } from '../state/snapshot-codec.ts';
import type { SnapshotImport } from '../state/snapshot-import.ts';
import { SessionClosedError } from './errors.ts';
import {
  closeRequests, downloadPruningProof, downloadSnapshot, downloadTrustedData, requestPage, requestSnapshotChunk, settle, takeAnswer, takeNotFound,
} from './fast-sync/request.ts';
import { servePage, serveSnapshotChunk } from './fast-sync/serve.ts';
import { createFastSyncState, type FastSyncDeps } from './fast-sync/state.ts';
import type { InvItem } from './messages/inventory.ts';
import type { Peer } from './peer.ts';
import type { ProofPage } from './paged-fetch.ts';
import type { FetchedPruningProof } from './proof-fetch.ts';
import type { SnapshotFetchOptions, SnapshotFetchResult } from './snapshot-fetch.ts';

export type { FastSyncDeps, FastSyncPorts } from './fast-sync/state.ts';

export interface FastSync {
  onGetPruningProof(peer: Peer, pruningPoint: Uint8Array, offset: number): void;
  onGetSnapshotChunk(peer: Peer, root: Uint8Array, from: Uint8Array, entriesMax: number): void;
  onGetTrustedData(peer: Peer, pruningPoint: Uint8Array, offset: number): void;
  onPruningProof(peer: Peer, page: ProofPage): void;
  onTrustedData(peer: Peer, page: ProofPage): void;
  onSnapshotChunk(peer: Peer, root: Uint8Array, from: Uint8Array, chunk: SnapshotChunk): void;
  /** Takes the fast-sync items of a `notfound`; answers the rest (blocks, transactions) for relay. */
  onNotFound(peer: Peer, items: readonly InvItem[]): InvItem[];
  /** Asks `peer` for one proof page; `pruningPoint` zeros = its current proof. */
  requestProofPage(peer: Peer, pruningPoint: Uint8Array, offset: number): Promise<ProofPage>;
  /** Asks `peer` for one page of its trusted data at `pruningPoint`. */
  requestTrustedDataPage(peer: Peer, pruningPoint: Uint8Array, offset: number): Promise<ProofPage>;
  requestSnapshotChunk(peer: Peer, root: Uint8Array, from: Uint8Array, entriesMax?: number): Promise<SnapshotChunk>;
  /** Downloads the state into `target` from `peer` (snapshot-fetch.ts); a chunk that fails verification bans it. */
  fetchSnapshot(peer: Peer, target: SnapshotImport, options?: SnapshotFetchOptions & { entriesMax?: number }): Promise<SnapshotFetchResult>;
  /** Downloads `peer`'s pruning-point proof (proof-fetch.ts); one that does not decode bans it. */
  fetchPruningProof(peer: Peer): Promise<FetchedPruningProof>;
  /** Downloads `peer`'s trusted data at `pruningPoint` (trusted-data-fetch.ts), unchecked; data that does not decode bans it. */
  fetchTrustedData(peer: Peer, pruningPoint: Uint8Array): Promise<TrustedData>;
  onPeerClosed(peer: Peer): void;
  close(): void;
}

export function createFastSync(deps: FastSyncDeps): FastSync {
  const state = createFastSyncState(deps);
  return {
    onGetPruningProof: (peer, pruningPoint, offset) => servePage(state, peer, 'proof', pruningPoint, offset),
    onGetTrustedData: (peer, pruningPoint, offset) => servePage(state, peer, 'trusted', pruningPoint, offset),
    onGetSnapshotChunk: (peer, root, from, entriesMax) => serveSnapshotChunk(state, peer, root, from, entriesMax),
    onPruningProof: (peer, page) => takeAnswer(state, peer, { kind: 'proof', page }, 'pruningproof'),
    onTrustedData: (peer, page) => takeAnswer(state, peer, { kind: 'trusted', page }, 'trusteddata'),
    onSnapshotChunk: (peer, root, from, chunk) => takeAnswer(state, peer, { kind: 'snapshot', root, from, chunk }, 'snapshotchunk'),
    onNotFound: (peer, items) => takeNotFound(state, peer, items),
    requestProofPage: (peer, pruningPoint, offset) => requestPage(state, peer, 'proof', pruningPoint, offset),
    requestTrustedDataPage: (peer, pruningPoint, offset) => requestPage(state, peer, 'trusted', pruningPoint, offset),
    requestSnapshotChunk: (peer, root, from, entriesMax = 0) => requestSnapshotChunk(state, peer, root, from, entriesMax),
    fetchSnapshot: (peer, target, options = {}) => downloadSnapshot(state, peer, target, options),
    fetchPruningProof: (peer) => downloadPruningProof(state, peer),
    fetchTrustedData: (peer, pruningPoint) => downloadTrustedData(state, peer, pruningPoint),
    onPeerClosed: (peer) => void settle(state, peer)?.reject(new SessionClosedError(`peer ${peer.nodeIdHex.slice(0, 16)} disconnected`)),
    close: () => closeRequests(state),
  };
}
