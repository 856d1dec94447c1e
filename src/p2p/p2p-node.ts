/**
 * The p2p node: connection slots, the secure handshake and the version handshake per connection, dispatch of
 * protocol messages to sync (ibd.ts) and relay (relay.ts), the address book, bans and reconnection (docs/p2p.md).
 * Transport-agnostic: the host hands in accepted ports (TCP, WebSocket) and a dialer; the same object runs in a
 * browser tab with a WebSocket dialer and no listener.
 *
 * The node's state is one P2pNodeState (node/state.ts); each operation is a free function over it in src/p2p/node/
 * (open.ts, connections.ts, dispatch.ts, misbehaviour.ts, views.ts). This file is the wiring.
 */
import type { WireCount } from './wire-tally.ts';
import type { TrustedData } from '../chain/trusted-data.ts';
import type { SnapshotImport } from '../state/snapshot-import.ts';
import { toHex } from '../util/bytes.ts';
import type { P2pProtocolError } from './errors.ts';
import { acceptConnection } from './node/connections.ts';
import { disconnectPeer } from './node/misbehaviour.ts';
import { closeP2pNode, openP2pNode } from './node/open.ts';
import type { P2pNodeOptions } from './node/options.ts';
import { readyPeers } from './node/state.ts';
import { peerInfos, readyPeer, syncStatus, type PeerInfo } from './node/views.ts';
import type { PeerEndpoint } from './peer.ts';
import type { FetchedPruningProof } from './proof-fetch.ts';
import type { SnapshotFetchOptions, SnapshotFetchResult } from './snapshot-fetch.ts';
import type { SyncStatus } from './sync-progress.ts';
import type { DuplexPort } from './transport.ts';

export type { SeedEndpoint } from './dialer.ts';
export type { MisbehaviourEvent, P2pNodeOptions } from './node/options.ts';

export interface P2pNode {
  start(): void;
  /** Hands an accepted connection over (TCP listener, WebSocket bridge). */
  accept(port: DuplexPort, endpoint: PeerEndpoint): void;
  /** Dials once (tests, addnode at runtime); resolves when the secure handshake is done. */
  connect(host: string, port: number, manual?: boolean, nodeId?: Uint8Array): Promise<void>;
  syncStatus(): SyncStatus;
  peers(): PeerInfo[];
  /** Our own transaction `txHash` travels a Dandelion++ stem of `hops` (0: announced at once); before admission. */
  routeOwnTransaction(txHash: Uint8Array, hops: number): void;
  peerCount(): number;
  /** Messages and payload bytes sent to peers since start, by message type (src/p2p/wire-tally.ts). */
  sentByMessage(): ReadonlyMap<string, Readonly<WireCount>>;
  isBanned(identity: string): boolean;
  /** Downloads state `target.root` from the ready peer `nodeId` (hex) into `target`, resuming at its cursor; bans a peer that sends a bad chunk. */
  fetchSnapshot(nodeId: string, target: SnapshotImport, options?: SnapshotFetchOptions & { entriesMax?: number }): Promise<SnapshotFetchResult>;
  /** Downloads the pruning-point proof of the ready peer `nodeId` (hex), unverified; bans a peer whose proof does not decode. */
  fetchPruningProof(nodeId: string): Promise<FetchedPruningProof>;
  /** Downloads the trusted data at `pruningPoint` from the ready peer `nodeId` (hex), unchecked; bans a peer whose data does not decode. */
  fetchTrustedData(nodeId: string, pruningPoint: Uint8Array): Promise<TrustedData>;
  /** Drops peer `nodeId` (hex) for `error`: one with a ban score bans it as any misbehaviour does (a joiner's verdict on its proof or data). */
  disconnectPeer(nodeId: string, error: P2pProtocolError): void;
  readonly nodeId: Uint8Array;
  close(): Promise<void>;
}

export function createP2pNode(options: P2pNodeOptions): P2pNode {
  const state = openP2pNode(options);
  const { book, clock, dialer, fastSync } = state;
  return {
    nodeId: options.staticKey.publicKey,
    routeOwnTransaction: (txHash, hops) => state.stems.markOwn(toHex(txHash), hops),
    start: () => dialer.start(),
    accept: (port, endpoint) => acceptConnection(state, port, endpoint),
    connect: (host, port, manual = false, nodeId) => dialer.dialOnce(host, port, manual, nodeId),
    syncStatus: () => syncStatus(state),
    peers: () => peerInfos(state),
    peerCount: () => readyPeers(state).length,
    sentByMessage: () => state.sent,
    isBanned: (identity) => book.isBanned(identity, clock.nowMs()),
    fetchSnapshot: async (nodeId, target, fetchOptions) => fastSync.fetchSnapshot(readyPeer(state, nodeId), target, fetchOptions),
    fetchPruningProof: async (nodeId) => fastSync.fetchPruningProof(readyPeer(state, nodeId)),
    fetchTrustedData: async (nodeId, pruningPoint) => fastSync.fetchTrustedData(readyPeer(state, nodeId), pruningPoint),
    disconnectPeer: (nodeId, error) => disconnectPeer(state, nodeId, error),
    close: () => closeP2pNode(state),
  };
}
