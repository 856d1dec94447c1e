/**
 * The node's p2p side (docs/p2p.md): its persistent identity, the TCP listener on `p2p-port` (2080; config `port=`),
 * the dialer for `addnode` seeds and the address book, the browser bridge handler for ws://…:8081/p2p, and the
 * peer view and sync status that /health, get_info and get_peer_info read.
 */
import { createServer, type Server } from 'node:net';
import { randomBytes } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Chain } from '../../src/chain/chain.ts';
import { createP2pNode, type P2pNode, type SeedEndpoint, type P2pNodeOptions } from '../../src/p2p/p2p-node.ts';
import type { SyncStatus } from '../../src/p2p/sync-progress.ts';
import type { TxRelayPort } from '../../src/p2p/relay.ts';
import type { Timer } from '../../src/p2p/transport.ts';
import { buildPruningProofInSteps } from '../../src/pruning-proof/build-proof.ts';
import { buildTrustedData } from '../../src/chain/trusted-data.ts';
import { proofParamsOf } from '../../src/pruning-proof/level-dag.ts';
import { ProofBuildError } from '../../src/pruning-proof/proof-errors.ts';
import { createSnapshotServing } from '../../src/p2p/snapshot-serve.ts';
import { ledgerKeys } from '../../src/state/ledger-rows.ts';
import { createStateTrie } from '../../src/state/trie.ts';
import type { RpcPeerInfo } from '../../src/rpc/ports.ts';
import type { KvStore } from '../../src/storage/kv.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { systemClock } from '../../src/util/clock.ts';
import { ConfigError, type NodeConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { loadOrCreateNodeKey } from './node-key.ts';
import { nodeNoiseSuite } from './node-crypto-suite.ts';
import { createFilePeerStore } from './peer-file.ts';
import { dialTcp, socketPort } from './tcp-port.ts';
import { createBridgeUpgradeHandler } from './ws-bridge.ts';

export const nodeTimer: Timer = {
  setTimeout(callback, delayMs) {
    const handle = setTimeout(callback, delayMs);
    handle.unref();
    return () => clearTimeout(handle);
  },
};

/** `host:port`, `[v6]:port`, `host` (default port) or `<NodeID hex>@host:port` (pinned). */
export function parseSeed(text: string, defaultPort: number): SeedEndpoint {
  const at = text.indexOf('@');
  const pinned = at === -1 ? undefined : text.slice(0, at).toLowerCase();
  const rest = at === -1 ? text : text.slice(at + 1);
  if (pinned !== undefined && !/^[0-9a-f]{64}$/.test(pinned)) throw new ConfigError(`addnode '${text}': the part before @ must be a 64-hex-digit NodeID`);
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest) ?? /^([^:]+)(?::(\d+))?$/.exec(rest);
  if (!m) throw new ConfigError(`addnode '${text}': expected host:port`);
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConfigError(`addnode '${text}': port must be within 1..65535`);
  return { host: m[1]!, port, ...(pinned ? { nodeId: fromHex(pinned) } : {}) };
}

export interface RunningP2p {
  readonly node: P2pNode;
  /** The TCP port actually bound (config 0 = any). */
  readonly port: number;
  readonly nodeId: string;
  syncStatus(): SyncStatus;
  /** For the RPC `peers` port. */
  readonly peerView: { peers(): readonly RpcPeerInfo[]; sentByMessage(): ReturnType<P2pNode['sentByMessage']> };
  /** Register with the WebSocket server: `ws.registerUpgradeHandler(p2pBridgePath, p2p.bridge)`. */
  readonly bridge: ReturnType<typeof createBridgeUpgradeHandler>['handle'];
  close(): Promise<void>;
}

export interface StartP2pOptions {
  readonly config: NodeConfig;
  readonly chain: Chain;
  readonly logger: Logger;
  readonly version: string;
  readonly txPort?: TxRelayPort;
  readonly onMisbehaviour?: P2pNodeOptions['onMisbehaviour'];
  /** The chain's store: snapshot chunks are read from the ledger's state trie in it (docs/p2p.md "Fast sync"). */
  readonly store?: KvStore;
  /** A joined node's guard judges refused blocks first (src/p2p/join-guard.ts; server/node/rejoin.ts acts on it). */
  readonly blockRefused?: P2pNodeOptions['blockRefused'];
}

const normaliseHost = (host: string | undefined): string => (host ?? 'unknown').replace(/^::ffff:/, '');

export async function startP2p(options: StartP2pOptions): Promise<RunningP2p> {
  const { config, chain, logger } = options;
  const seeds = config.addnode.map((text) => parseSeed(text, config.params.ports.p2p));
  const identity = loadOrCreateNodeKey(config.datadir);
  const server: Server = createServer({ noDelay: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.p2pPort, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.p2pPort;
  // Joining nodes download the state of our pruning point (and above) from the ledger's trie, after the proof that
  // the point is on the heaviest chain. Only version 2 headers carry the level parents a proof is built from: a
  // version 1 network answers `getpruningproof` with `notfound`.
  const snapshots = options.store ? createSnapshotServing({ chain, trie: createStateTrie({ store: options.store, prefix: ledgerKeys.trieprefix }) }) : undefined;
  const proofParams = proofParamsOf(config.params);
  const pruningPointId = (): string => toHex((chain.pruning()?.pruningPoint ?? chain.genesis).hash);
  const pruningProof = config.params.headerVersion === 2
    ? async () => {
        const point = pruningPointId();
        const proof = await buildPruningProofInSteps({ header: (id) => chain.get(id)?.header }, point, proofParams, yieldToEventLoop);
        // Header pruning runs between the levels: once the point moved, headers the build read may have gone.
        if (pruningPointId() !== point) throw new ProofBuildError('pruning proof: the pruning point moved while it was built', { point });
        return proof;
      }
    : undefined;
  // The trusted data a joiner builds its chain on, at the same pruning point as the proof (docs/pruning-proof.md).
  const trustedData = async () => buildTrustedData(chain, pruningPointId());
  const fastSync = { ...(snapshots ? { snapshotChunk: snapshots.snapshotChunk } : {}), ...(pruningProof ? { pruningProof, trustedData } : {}) };
  const node = createP2pNode({
    chain, staticKey: identity.key, clock: systemClock, timer: nodeTimer, randomBytes: (n) => new Uint8Array(randomBytes(n)),
    userAgent: `/weft:${options.version}/`, listenPort: port, seeds, connectOnly: config.connectOnly, dial: dialTcp, peerStore: createFilePeerStore(config.datadir),
    suite: nodeNoiseSuite, log: logger, mixnetHops: config.mixnetHops, ...(options.txPort ? { txPort: options.txPort } : {}),
    ...(options.onMisbehaviour ? { onMisbehaviour: options.onMisbehaviour } : {}),
    ...(options.blockRefused ? { blockRefused: options.blockRefused } : {}),
    fastSync,
  });
  server.on('connection', (socket) => node.accept(socketPort(socket), { host: normaliseHost(socket.remoteAddress), port: socket.remotePort ?? 0, transport: 'tcp' }));
  const bridge = createBridgeUpgradeHandler(node);
  const nodeId = toHex(identity.key.publicKey);
  logger.info({ url: `tcp://${config.host}:${port}`, port, nodeId, keyFile: identity.path, seeds: config.addnode }, 'p2p listening');
  node.start();
  return {
    node,
    port,
    nodeId,
    syncStatus: () => node.syncStatus(),
    peerView: {
      peers: () =>
        node.peers().map((p) => ({
          id: p.nodeId, address: p.address, direction: p.direction, transport: p.transport === 'ws' ? 'websocket' : 'tcp',
          connectedAtMs: systemClock.nowMs() - p.connectedSeconds * 1000, height: p.blueScore, banScore: 0,
        })),
      sentByMessage: () => node.sentByMessage(),
    },
    bridge: bridge.handle,
    async close() {
      bridge.close();
      snapshots?.close();
      await node.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
