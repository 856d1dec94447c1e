/**
 * Opening the p2p node's state (state.ts) from its options, every default resolved, with sync, relay, fast sync and
 * the dialer wired to its operations; and closing it.
 */
import { genesisHash } from '../../consensus/params.ts';
import { createAddressBook } from '../address-book.ts';
import { createStemRoutes } from '../dandelion.ts';
import { createDialer } from '../dialer.ts';
import { createFastSync } from '../fast-sync.ts';
import { createIbd } from '../ibd.ts';
import { p2pInboundPeersMax, p2pOutboundPeersMax } from '../limits.ts';
import { silentLogger } from '../logger.ts';
import { Services } from '../messages/version.ts';
import type { Peer } from '../peer.ts';
import { createRelay } from '../relay.ts';
import { onPeerClosed, onPeerReady, startPeer } from './connections.ts';
import { dispatchMessage } from './dispatch.ts';
import { onBlockRejected } from './misbehaviour.ts';
import type { P2pNodeOptions } from './options.ts';
import { persist, readyPeers, type P2pNodeState } from './state.ts';

export function openP2pNode(options: P2pNodeOptions): P2pNodeState {
  const { chain, clock, timer } = options;
  const log = options.log ?? silentLogger;
  const randomInt = (n: number): number => new DataView(options.randomBytes(4).buffer).getUint32(0) % n;
  const book = createAddressBook(options.peerStore?.load());
  const peers = new Set<Peer>();
  const ready = (): Peer[] => readyPeers(state);
  const rejected = (peer: Peer, error: unknown): void => onBlockRejected(state, peer, error);
  const ibd = createIbd({ chain, clock, timer, log, peers: ready, onBlockRejected: rejected, onFinished: () => relay.requestPeerTips() });
  const stems = createStemRoutes({ defaultHops: options.mixnetHops ?? 0, timer, randomInt });
  const relay = createRelay({ chain, clock, ibd, readyPeers: ready, onBlockRejected: rejected, txPort: options.txPort, stems, randomInt, timer });
  const fastSync = createFastSync({
    ports: options.fastSync ?? {}, clock, timer, log, pruningPoint: () => (chain.pruning()?.pruningPoint ?? chain.genesis).hash,
  });
  // Blocks a sync round applies are history the network already has; every other valid block (mined here,
  // submitted over RPC, relayed by a peer) is news, announced even while a round runs — as soon as it is validated,
  // not once its batch is durable: each hop would otherwise add its commit (an fsync) to the block's way across
  // the network, and a block peers hold is one a crash here cannot lose.
  const stopAnnouncing = chain.onBlockValidated((event) => {
    if (!ibd.applies(event.block.id)) relay.announceBlock(event.block.id, event.body);
  });
  const dialer = createDialer({
    book, clock, timer, log, peers, outboundMax: options.outboundMax ?? p2pOutboundPeersMax, randomInt, persist: () => persist(state),
    seeds: options.seeds ?? [], connectOnly: options.connectOnly ?? false, ownNodeId: options.staticKey.publicKey,
    ...(options.dial ? { dial: options.dial } : {}),
    startPeer: (port, host, portNumber, manual, pinned) => startPeer(state, port, { host, port: portNumber, transport: 'tcp' }, 'outbound', manual, pinned),
    isClosed: () => state.closed,
  });
  const state: P2pNodeState = {
    chain, clock, timer, log, staticKey: options.staticKey, randomBytes: options.randomBytes, randomInt,
    randomNonce: () => new DataView(options.randomBytes(8).buffer).getBigUint64(0),
    userAgent: options.userAgent, listenPort: options.listenPort, services: options.services ?? Services.full | Services.compactBlocks | Services.prefilledBlocks | Services.shortTxInv | Services.pushSelection,
    suite: options.suite, inboundMax: options.inboundMax ?? p2pInboundPeersMax, blockSync: options.blockSync ?? true,
    peerStore: options.peerStore, onMisbehaviour: options.onMisbehaviour, blockRefused: options.blockRefused,
    genesis: genesisHash(chain.params), book, peers, handshaking: { tcp: 0, ws: 0 }, ownNonces: new Set(),
    peerHandlers: {
      onReady: (peer) => onPeerReady(state, peer),
      onMessage: (peer, message) => dispatchMessage(state, peer, message),
      onClose: (peer, error) => onPeerClosed(state, peer, error),
      isOwnNonce: (nonce) => state.ownNonces.has(nonce),
    },
    ibd, stems, relay, fastSync, dialer, stopAnnouncing, sent: new Map(), seq: 0, closed: false,
  };
  return state;
}

/** Stops dialling and every part, drops every peer and saves the address book. */
export async function closeP2pNode(state: P2pNodeState): Promise<void> {
  if (state.closed) return;
  state.closed = true;
  state.dialer.stop();
  state.stopAnnouncing();
  state.ibd.close();
  state.relay.close();
  state.fastSync.close();
  for (const peer of [...state.peers]) peer.disconnect();
  persist(state);
}
