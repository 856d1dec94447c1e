/** What the node reports of itself: its sync status and its ready peers. */
import { addressKey } from '../address-book.ts';
import { SessionClosedError } from '../errors.ts';
import { isAhead } from '../ibd/state.ts';
import type { Peer } from '../peer.ts';
import type { SyncStatus } from '../sync-progress.ts';
import { readyPeers, type P2pNodeState } from './state.ts';

export interface PeerInfo {
  readonly nodeId: string;
  readonly address: string;
  readonly direction: 'inbound' | 'outbound';
  readonly transport: 'tcp' | 'ws';
  readonly manual: boolean;
  readonly userAgent: string;
  readonly blueScore: number;
  readonly connectedSeconds: number;
}

/** The sync's status; not synced while no round runs but a ready peer is ahead of us. */
export function syncStatus(state: P2pNodeState): SyncStatus {
  const status = state.ibd.status();
  const behind = !state.ibd.running() && readyPeers(state).some((p) => isAhead(state.chain, p));
  return behind ? { ...status, synced: false } : status;
}

export function peerInfos(state: P2pNodeState): PeerInfo[] {
  return readyPeers(state).map((p) => ({
    nodeId: p.nodeIdHex, address: addressKey(p.endpoint.host, p.endpoint.port), direction: p.direction, transport: p.endpoint.transport,
    manual: p.manual, userAgent: p.version()?.userAgent ?? '', blueScore: p.best.blueScore, connectedSeconds: Math.floor((state.clock.nowMs() - p.connectedAtMs) / 1000),
  }));
}

/** Ready peer `nodeId` (hex, any case), or SessionClosedError. */
export function readyPeer(state: P2pNodeState, nodeId: string): Peer {
  const peer = readyPeers(state).find((p) => p.nodeIdHex === nodeId.toLowerCase());
  if (peer === undefined) throw new SessionClosedError(`no ready peer ${nodeId.slice(0, 16)}`);
  return peer;
}
