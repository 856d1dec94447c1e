/**
 * The p2p node: connection slots, the secure handshake and the version handshake per connection, dispatch of
 * protocol messages to sync (ibd.ts) and relay (relay.ts), the address book, bans and reconnection (docs/p2p.md).
 * Transport-agnostic: the host hands in accepted ports (TCP, WebSocket) and a dialer; the same object runs in a
 * browser tab with a WebSocket dialer and no listener.
 */
import { BlockRuleError, ChainStorageError } from '../chain/errors.ts';
import type { Chain } from '../chain/chain.ts';
import type { TrustedData } from '../chain/trusted-data.ts';
import { genesisHash } from '../consensus/params.ts';
import { equalBytes, fromHex, toHex } from '../util/bytes.ts';
import type { Clock } from '../util/clock.ts';
import { createAddressBook, addressKey, backoffMs, type AddressBook, type PeerStore } from './address-book.ts';
import { createDialer, type SeedEndpoint } from './dialer.ts';
import { P2pProtocolError, SessionClosedError } from './errors.ts';
import { createFastSync, type FastSync, type FastSyncPorts } from './fast-sync.ts';
import type { FetchedPruningProof } from './proof-fetch.ts';
import type { SnapshotFetchOptions, SnapshotFetchResult } from './snapshot-fetch.ts';
import type { SnapshotImport } from '../state/snapshot-import.ts';
import { createIbd, type Ibd } from './ibd.ts';
import { isAhead } from './ibd/state.ts';
import {
  p2pAddrEntriesMax,
  p2pBanDurationMs,
  p2pBanScoreThreshold,
  p2pBrowserPeersMax,
  p2pInboundPeersMax,
  p2pOutboundPeersMax,
  p2pProtocolVersion,
} from './limits.ts';
import { collectHeaders } from './locator.ts';
import { silentLogger, type P2pLogger } from './logger.ts';
import type { Message } from './messages.ts';
import { InvType } from './messages/inventory.ts';
import { Services, type VersionMessage } from './messages/version.ts';
import { createPeer, type Peer, type PeerEndpoint } from './peer.ts';
import { InvalidBlockRelayedError, PeerBannedError, PeerLimitError, SelfConnectionError } from './protocol-errors.ts';
import { createStemRoutes } from './dandelion.ts';
import { createRelay, type Relay, type TxRelayPort } from './relay.ts';
import { openSecureSession } from './secure-session.ts';
import type { SyncStatus } from './sync-progress.ts';
import type { KeyPair, NoiseSuite } from './noise/suites.ts';
import type { DuplexPort, Timer } from './transport.ts';

export type { SeedEndpoint } from './dialer.ts';

export interface MisbehaviourEvent {
  readonly kind: 'banned' | 'invalid_block';
  readonly peer: string;
  readonly reason: string;
}

export interface P2pNodeOptions {
  readonly chain: Chain;
  readonly staticKey: KeyPair;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly randomBytes: (n: number) => Uint8Array;
  readonly userAgent: string;
  /** The TCP port we accept on (announced in version); 0 when not listening. */
  readonly listenPort: number;
  /** addnode peers: always reconnected, never banned. */
  readonly seeds?: readonly SeedEndpoint[];
  /** Dial only `seeds`, never the address book's entries (`--connect-only`; dialer.ts); inbound and addr work as ever. */
  readonly connectOnly?: boolean;
  readonly dial?: (host: string, port: number) => Promise<DuplexPort>;
  readonly peerStore?: PeerStore;
  readonly txPort?: TxRelayPort;
  /** Dandelion++ stem length for our own transactions unless one asks otherwise (0: plain diffusion; dandelion.ts). */
  readonly mixnetHops?: number;
  /** Told of bans and of invalid blocks peers sent (the node's alert monitor raises `security` alerts from them). */
  readonly onMisbehaviour?: (event: MisbehaviourEvent) => void;
  readonly suite?: NoiseSuite;
  readonly log?: P2pLogger;
  readonly outboundMax?: number;
  readonly inboundMax?: number;
  /** Browser nodes set `browser` (they never listen). */
  readonly services?: bigint;
  /** What this node serves to joining nodes (fast-sync.ts); left out, those requests are answered `notfound`. */
  readonly fastSync?: FastSyncPorts;
  /**
   * false: a node that only asks fast-sync questions — a joining node before its chain opens (server/node/fast-join.ts),
   * whose placeholder chain must not start a block download from genesis that pruned peers cannot serve.
   */
  readonly blockSync?: boolean;
  /**
   * Asked first when a peer's block is refused by a rule: true spares the sender its ban score (a joined node's guard,
   * join-guard.ts, judges refusals that may be its own join's fault, and heavier proofs behind them).
   */
  readonly blockRefused?: (peer: string, error: BlockRuleError) => boolean;
}

interface PeerInfo {
  readonly nodeId: string;
  readonly address: string;
  readonly direction: 'inbound' | 'outbound';
  readonly transport: 'tcp' | 'ws';
  readonly manual: boolean;
  readonly userAgent: string;
  readonly blueScore: number;
  readonly connectedSeconds: number;
}

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

/** Bitcoin Core does not discourage local addresses (it would ban every peer on the host): it bans the NodeID. */
function isLocalHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^(::ffff:)?127\./.test(host);
}

export function createP2pNode(options: P2pNodeOptions): P2pNode {
  const { chain, clock, timer } = options;
  const log = options.log ?? silentLogger;
  const outboundMax = options.outboundMax ?? p2pOutboundPeersMax;
  const inboundMax = options.inboundMax ?? p2pInboundPeersMax;
  const blockSync = options.blockSync ?? true;
  const randomInt = (n: number): number => new DataView(options.randomBytes(4).buffer).getUint32(0) % n;
  const randomNonce = (): bigint => new DataView(options.randomBytes(8).buffer).getBigUint64(0);
  const book: AddressBook = createAddressBook(options.peerStore?.load());
  const peers = new Set<Peer>();
  // Inbound connections still in their Noise handshake, by transport. Each holds its slot from `accept` on: counting
  // only started peers let connections opened at once all pass the cap (the lab's eclipse run held 150 of 117).
  const handshaking = { tcp: 0, ws: 0 };
  const ownNonces = new Set<bigint>();
  const genesis = genesisHash(chain.params);
  let seq = 0;
  let closed = false;

  // A failed save (disk full, datadir removed) costs the book's freshness, never the node.
  const persist = (): void => {
    try {
      options.peerStore?.save(book.snapshot(clock.nowMs()));
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, 'address book not saved');
    }
  };

  const readyPeers = (): Peer[] => [...peers].filter((p) => p.isReady());

  const ownVersion = (): VersionMessage => {
    const tip = chain.selectedTip();
    const nonce = randomNonce();
    ownNonces.add(nonce);
    return {
      type: 'version', protocolVersion: p2pProtocolVersion, network: chain.params.name, chainId: chain.params.chainId, genesis,
      services: options.services ?? Services.full | Services.compactBlocks, timestampMs: clock.nowMs(), nonce, userAgent: options.userAgent,
      listenPort: options.listenPort, bestBlueScore: tip.header.blueScore, bestBlueWork: tip.header.blueWork, selectedTip: tip.hash, relay: true,
    };
  };

  const ban = (peer: Peer, error: P2pProtocolError): void => {
    if (peer.manual) return;
    const until = clock.nowMs() + p2pBanDurationMs;
    book.ban(`node:${peer.nodeIdHex}`, until, error.message);
    if (!isLocalHost(peer.endpoint.host)) book.ban(`ip:${peer.endpoint.host}`, until, error.message);
    log.warn({ event: 'peer_banned', peer: peer.nodeIdHex.slice(0, 16), address: peer.endpoint.host, code: error.code, reason: error.message }, 'peer banned');
    options.onMisbehaviour?.({ kind: 'banned', peer: `${peer.endpoint.host} (${peer.nodeIdHex.slice(0, 16)})`, reason: error.message });
    persist();
  };

  const onBlockRejected = (peer: Peer, error: unknown): void => {
    if (error instanceof BlockRuleError) {
      if (options.blockRefused?.(peer.nodeIdHex, error) === true) {
        log.info({ event: 'block_refusal_spared', peer: peer.nodeIdHex.slice(0, 16), rule: error.rule }, 'refused block not held against its sender yet');
        return;
      }
      options.onMisbehaviour?.({ kind: 'invalid_block', peer: peer.endpoint.host, reason: error.rule });
      const relayed = new InvalidBlockRelayedError(error.rule, error.banScore, error.message);
      if (error.banScore > 0) peer.disconnect(relayed);
      else peer.anomaly(error.message);
      return;
    }
    if (error instanceof P2pProtocolError) return peer.disconnect(error);
    log.warn({ err: error instanceof ChainStorageError ? error.message : String(error) }, 'block from peer not stored');
  };

  const ibd: Ibd = createIbd({ chain, clock, timer, log, peers: readyPeers, onBlockRejected, onFinished: () => relay.requestPeerTips() });
  const stems = createStemRoutes({ defaultHops: options.mixnetHops ?? 0, timer, randomInt });
  const relay: Relay = createRelay({ chain, clock, ibd, readyPeers, onBlockRejected, txPort: options.txPort, stems, randomInt, timer });

  const fastSync: FastSync = createFastSync({
    ports: options.fastSync ?? {}, clock, timer, log, pruningPoint: () => (chain.pruning()?.pruningPoint ?? chain.genesis).hash,
  });
  const readyPeer = (nodeId: string): Peer => {
    const peer = readyPeers().find((p) => p.nodeIdHex === nodeId.toLowerCase());
    if (peer === undefined) throw new SessionClosedError(`no ready peer ${nodeId.slice(0, 16)}`);
    return peer;
  };

  // Blocks a sync round applies are history the network already has; every other accepted block (mined here,
  // submitted over RPC, relayed by a peer) is news, announced even while a round runs.
  const unsubscribeAccepted = chain.onBlockAccepted((event) => {
    if (!ibd.applies(event.block.id)) relay.announceBlock(event.block.id);
  });

  const dispatch = (peer: Peer, message: Message): void => {
    switch (message.type) {
      case 'getheaders': {
        const page = collectHeaders(chain, message.locator, message.stop);
        return peer.send({ type: 'headers', headers: page.headers, more: page.more });
      }
      case 'headers':
        return ibd.onHeaders(peer, message.headers, message.more);
      case 'inv':
        return blockSync ? relay.onInv(peer, message.items) : undefined;
      case 'getdata':
        return relay.onGetData(peer, message.items);
      case 'notfound': {
        const rest = fastSync.onNotFound(peer, message.items);
        return rest.length > 0 ? relay.onNotFound(peer, rest) : undefined;
      }
      case 'getpruningproof':
        return fastSync.onGetPruningProof(peer, message.pruningPoint, message.offset);
      case 'pruningproof':
        return fastSync.onPruningProof(peer, message);
      case 'getsnapshotchunk':
        return fastSync.onGetSnapshotChunk(peer, message.root, message.from, message.entriesMax);
      case 'gettrusteddata':
        return fastSync.onGetTrustedData(peer, message.pruningPoint, message.offset);
      case 'trusteddata':
        return fastSync.onTrustedData(peer, message);
      case 'snapshotchunk':
        return fastSync.onSnapshotChunk(peer, message.root, message.from, message.chunk);
      case 'block':
        return relay.onBlock(peer, message.block);
      case 'cmpctblock':
        return blockSync ? relay.onCompactBlock(peer, message) : undefined;
      case 'getblocktxn':
        return relay.onGetBlockTxn(peer, message.hash, message.indexes);
      case 'blocktxn':
        return relay.onBlockTxn(peer, message.hash, message.transactions);
      case 'tx':
        return relay.onTx(peer, message.tx);
      case 'stemtx':
        return relay.onStemTx(peer, message.hops, message.tx);
      case 'getaddr': {
        if (peer.answeredGetaddr) return void peer.anomaly('repeated getaddr');
        peer.answeredGetaddr = true;
        const entries = book.sample(p2pAddrEntriesMax, randomInt).map((e) => ({
          timestampMs: e.lastSeenMs, services: Services.full, nodeId: e.nodeId ? fromHex(e.nodeId) : new Uint8Array(32), host: e.host, port: e.port,
        }));
        return peer.send({ type: 'addr', entries });
      }
      case 'addr':
        for (const e of message.entries) {
          if (!peer.addrAllowance.take()) break;
          book.add(e.host, e.port, Math.min(e.timestampMs, clock.nowMs()), e.nodeId.every((b) => b === 0) ? undefined : toHex(e.nodeId));
        }
        return;
      case 'reject':
        log.info({ event: 'peer_reject', peer: peer.nodeIdHex.slice(0, 16), code: message.code, banScore: message.banScore, reason: message.text }, 'peer sent reject');
        return;
      default:
        peer.anomaly(`unexpected ${message.type}`);
    }
  };

  const onReady = (peer: Peer): void => {
    const v = peer.version()!;
    log.info(
      { event: 'peer_connected', peer: peer.nodeIdHex.slice(0, 16), address: addressKey(peer.endpoint.host, peer.endpoint.port), direction: peer.direction, transport: peer.endpoint.transport, userAgent: v.userAgent, blueScore: v.bestBlueScore },
      'peer connected',
    );
    dialer.networkUp();
    if (peer.direction === 'outbound') {
      book.markSuccess(peer.endpoint.host, peer.endpoint.port, clock.nowMs(), peer.nodeIdHex);
      peer.send({ type: 'getaddr' });
    } else if (v.listenPort > 0 && peer.endpoint.transport === 'tcp') {
      book.add(peer.endpoint.host, v.listenPort, clock.nowMs(), peer.nodeIdHex);
    }
    // Our tips not in the peer's past let it merge what we mined while apart (the partition case).
    const tips = chain.tips().slice(0, 16).map((t) => ({ kind: InvType.block, hash: t.hash }));
    peer.send({ type: 'inv', items: tips });
    for (const t of tips) peer.known.add(toHex(t.hash));
    if (blockSync) ibd.consider(peer);
  };

  const onClose = (peer: Peer, error: P2pProtocolError | undefined): void => {
    if (!peers.delete(peer)) return;
    ibd.onPeerClosed(peer);
    relay.onPeerClosed(peer);
    fastSync.onPeerClosed(peer);
    log.info(
      { event: 'peer_disconnected', peer: peer.nodeIdHex.slice(0, 16), address: addressKey(peer.endpoint.host, peer.endpoint.port), code: error?.code, banScore: error?.banScore, reason: error?.message },
      'peer disconnected',
    );
    if (error && error.banScore >= p2pBanScoreThreshold) ban(peer, error);
    if (peer.manual && !closed) dialer.scheduleRound(backoffMs(1));
  };

  const startPeer = async (port: DuplexPort, endpoint: PeerEndpoint, direction: 'inbound' | 'outbound', manual: boolean, pinned?: Uint8Array): Promise<void> => {
    const session = await openSecureSession({
      port, role: direction === 'outbound' ? 'initiator' : 'responder', staticKey: options.staticKey, network: chain.params.name,
      protocolVersion: p2pProtocolVersion, randomBytes: options.randomBytes, timer, suite: options.suite,
      ...(pinned ? { expectedRemoteStatic: pinned } : {}),
    });
    const nodeHex = toHex(session.remoteStatic);
    let refusal: P2pProtocolError | undefined;
    if (closed) refusal = new PeerLimitError('node is shutting down');
    else if (equalBytes(session.remoteStatic, options.staticKey.publicKey)) refusal = new SelfConnectionError();
    else if (!manual && book.isBanned(`node:${nodeHex}`, clock.nowMs())) refusal = new PeerBannedError(`node ${nodeHex.slice(0, 16)}`);
    else if ([...peers].some((p) => p.nodeIdHex === nodeHex)) refusal = new PeerLimitError('already connected to this node');
    if (refusal) {
      log.debug({ event: 'peer_refused', peer: nodeHex.slice(0, 16), reason: refusal.message }, 'peer refused');
      session.close();
      throw refusal;
    }
    const peer = createPeer({
      seq: ++seq, session, direction, endpoint, manual, clock, timer, ownVersion: ownVersion(), randomNonce,
      handlers: { onReady, onMessage: dispatch, onClose, isOwnNonce: (n) => ownNonces.has(n) },
    });
    if (!peer.isClosed()) peers.add(peer);
  };

  const dialer = createDialer({
    book, clock, timer, log, peers, outboundMax, randomInt, persist, seeds: options.seeds ?? [], connectOnly: options.connectOnly ?? false, ownNodeId: options.staticKey.publicKey,
    ...(options.dial ? { dial: options.dial } : {}),
    startPeer: (port, host, portNumber, manual, pinned) => startPeer(port, { host, port: portNumber, transport: 'tcp' }, 'outbound', manual, pinned),
    isClosed: () => closed,
  });

  return {
    nodeId: options.staticKey.publicKey,
    routeOwnTransaction: (txHash, hops) => stems.markOwn(toHex(txHash), hops),
    start: () => dialer.start(),
    accept(port, endpoint) {
      const now = clock.nowMs();
      const cap = endpoint.transport === 'ws' ? p2pBrowserPeersMax : inboundMax;
      const started = [...peers].filter((p) => p.direction === 'inbound' && p.endpoint.transport === endpoint.transport).length;
      if (closed || started + handshaking[endpoint.transport] >= cap || (!isLocalHost(endpoint.host) && book.isBanned(`ip:${endpoint.host}`, now))) {
        port.close();
        return;
      }
      // Released once the handshake ends either way: a started peer is then in `peers`, counted until it closes.
      handshaking[endpoint.transport]++;
      startPeer(port, endpoint, 'inbound', false)
        .catch((error: unknown) => {
          log.debug({ event: 'inbound_failed', address: endpoint.host, err: error instanceof Error ? error.message : String(error) }, 'inbound connection failed');
        })
        .finally(() => void handshaking[endpoint.transport]--);
    },
    connect: (host, port, manual = false, nodeId) => dialer.dialOnce(host, port, manual, nodeId),
    syncStatus() {
      const status = ibd.status();
      const behind = !ibd.running() && readyPeers().some((p) => isAhead(chain, p));
      return behind ? { ...status, synced: false } : status;
    },
    peers: () =>
      readyPeers().map((p) => ({
        nodeId: p.nodeIdHex, address: addressKey(p.endpoint.host, p.endpoint.port), direction: p.direction, transport: p.endpoint.transport,
        manual: p.manual, userAgent: p.version()?.userAgent ?? '', blueScore: p.best.blueScore, connectedSeconds: Math.floor((clock.nowMs() - p.connectedAtMs) / 1000),
      })),
    peerCount: () => readyPeers().length,
    isBanned: (identity) => book.isBanned(identity, clock.nowMs()),
    fetchSnapshot: async (nodeId, target, fetchOptions) => fastSync.fetchSnapshot(readyPeer(nodeId), target, fetchOptions),
    fetchPruningProof: async (nodeId) => fastSync.fetchPruningProof(readyPeer(nodeId)),
    fetchTrustedData: async (nodeId, pruningPoint) => fastSync.fetchTrustedData(readyPeer(nodeId), pruningPoint),
    disconnectPeer(nodeId, error) {
      readyPeers().find((p) => p.nodeIdHex === nodeId.toLowerCase())?.disconnect(error);
    },
    async close() {
      if (closed) return;
      closed = true;
      dialer.stop();
      unsubscribeAccepted();
      ibd.close();
      relay.close();
      fastSync.close();
      for (const peer of [...peers]) peer.disconnect();
      persist();
    },
  };
}
