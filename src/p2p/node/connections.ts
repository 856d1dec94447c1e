/**
 * A connection's life in the node (docs/p2p.md "Peers"): accepted within its transport's inbound cap, taken through
 * the secure and version handshakes, greeted with our tips once ready, and forgotten (banned when its error scores
 * high enough, redialled when it was an addnode peer) once closed.
 */
import { equalBytes, toHex } from '../../util/bytes.ts';
import { addressKey, backoffMs } from '../address-book.ts';
import type { P2pProtocolError } from '../errors.ts';
import { p2pBanScoreThreshold, p2pBrowserPeersMax, p2pProtocolVersion } from '../limits.ts';
import { InvType } from '../messages/inventory.ts';
import type { VersionMessage } from '../messages/version.ts';
import { createPeer, type Peer, type PeerEndpoint } from '../peer.ts';
import { PeerBannedError, PeerLimitError, SelfConnectionError } from '../protocol-errors.ts';
import { openSecureSession } from '../secure-session.ts';
import type { DuplexPort } from '../transport.ts';
import { banPeer } from './misbehaviour.ts';
import { isLocalHost, type P2pNodeState } from './state.ts';

/** Takes an inbound connection (TCP listener, WebSocket bridge) unless its transport's slots are full or it is banned. */
export function acceptConnection(state: P2pNodeState, port: DuplexPort, endpoint: PeerEndpoint): void {
  const { handshaking } = state;
  const now = state.clock.nowMs();
  const cap = endpoint.transport === 'ws' ? p2pBrowserPeersMax : state.inboundMax;
  const started = [...state.peers].filter((p) => p.direction === 'inbound' && p.endpoint.transport === endpoint.transport).length;
  if (state.closed || started + handshaking[endpoint.transport] >= cap || (!isLocalHost(endpoint.host) && state.book.isBanned(`ip:${endpoint.host}`, now))) {
    port.close();
    return;
  }
  // Released once the handshake ends either way: a started peer is then in `peers`, counted until it closes.
  handshaking[endpoint.transport]++;
  startPeer(state, port, endpoint, 'inbound', false)
    .catch((error: unknown) => {
      state.log.debug({ event: 'inbound_failed', address: endpoint.host, err: error instanceof Error ? error.message : String(error) }, 'inbound connection failed');
    })
    .finally(() => void handshaking[endpoint.transport]--);
}

/** Runs the secure handshake on a connection and, unless the remote is refused, makes it a peer. */
export async function startPeer(
  state: P2pNodeState, port: DuplexPort, endpoint: PeerEndpoint, direction: 'inbound' | 'outbound', manual: boolean, pinned?: Uint8Array,
): Promise<void> {
  const { chain, clock, staticKey } = state;
  const session = await openSecureSession({
    port, role: direction === 'outbound' ? 'initiator' : 'responder', staticKey, network: chain.params.name,
    protocolVersion: p2pProtocolVersion, randomBytes: state.randomBytes, timer: state.timer, suite: state.suite,
    ...(pinned ? { expectedRemoteStatic: pinned } : {}),
  });
  const nodeHex = toHex(session.remoteStatic);
  let refusal: P2pProtocolError | undefined;
  if (state.closed) refusal = new PeerLimitError('node is shutting down');
  else if (equalBytes(session.remoteStatic, staticKey.publicKey)) refusal = new SelfConnectionError();
  else if (!manual && state.book.isBanned(`node:${nodeHex}`, clock.nowMs())) refusal = new PeerBannedError(`node ${nodeHex.slice(0, 16)}`);
  else if ([...state.peers].some((p) => p.nodeIdHex === nodeHex)) refusal = new PeerLimitError('already connected to this node');
  if (refusal) {
    state.log.debug({ event: 'peer_refused', peer: nodeHex.slice(0, 16), reason: refusal.message }, 'peer refused');
    session.close();
    throw refusal;
  }
  const peer = createPeer({
    seq: ++state.seq, session, direction, endpoint, manual, clock, timer: state.timer, ownVersion: ownVersion(state), randomNonce: state.randomNonce,
    handlers: state.peerHandlers, sent: state.sent,
  });
  if (!peer.isClosed()) state.peers.add(peer);
}

/** The peer finished the version handshake: it learns our tips, and may start a sync round. */
export function onPeerReady(state: P2pNodeState, peer: Peer): void {
  const { book, clock } = state;
  const v = peer.version()!;
  state.log.info(
    { event: 'peer_connected', peer: peer.nodeIdHex.slice(0, 16), address: addressKey(peer.endpoint.host, peer.endpoint.port), direction: peer.direction, transport: peer.endpoint.transport, userAgent: v.userAgent, blueScore: v.bestBlueScore },
    'peer connected',
  );
  state.dialer.networkUp();
  if (peer.direction === 'outbound') {
    book.markSuccess(peer.endpoint.host, peer.endpoint.port, clock.nowMs(), peer.nodeIdHex);
    peer.send({ type: 'getaddr' });
  } else if (v.listenPort > 0 && peer.endpoint.transport === 'tcp') {
    book.add(peer.endpoint.host, v.listenPort, clock.nowMs(), peer.nodeIdHex);
  }
  // Our tips not in the peer's past let it merge what we mined while apart (the partition case).
  const tips = state.chain.tips().slice(0, 16).map((t) => ({ kind: InvType.block, hash: t.hash }));
  peer.send({ type: 'inv', items: tips });
  for (const t of tips) peer.known.add(toHex(t.hash));
  if (state.blockSync) state.ibd.consider(peer);
}

export function onPeerClosed(state: P2pNodeState, peer: Peer, error: P2pProtocolError | undefined): void {
  if (!state.peers.delete(peer)) return;
  state.ibd.onPeerClosed(peer);
  state.relay.onPeerClosed(peer);
  state.fastSync.onPeerClosed(peer);
  state.log.info(
    { event: 'peer_disconnected', peer: peer.nodeIdHex.slice(0, 16), address: addressKey(peer.endpoint.host, peer.endpoint.port), code: error?.code, banScore: error?.banScore, reason: error?.message },
    'peer disconnected',
  );
  if (error && error.banScore >= p2pBanScoreThreshold) banPeer(state, peer, error);
  if (peer.manual && !state.closed) state.dialer.scheduleRound(backoffMs(1));
}

function ownVersion(state: P2pNodeState): VersionMessage {
  const { chain } = state;
  const tip = chain.selectedTip();
  const nonce = state.randomNonce();
  state.ownNonces.add(nonce);
  return {
    type: 'version', protocolVersion: p2pProtocolVersion, network: chain.params.name, chainId: chain.params.chainId, genesis: state.genesis,
    services: state.services, timestampMs: state.clock.nowMs(), nonce, userAgent: state.userAgent,
    listenPort: state.listenPort, bestBlueScore: tip.header.blueScore, bestBlueWork: tip.header.blueWork, selectedTip: tip.hash, relay: true,
  };
}
