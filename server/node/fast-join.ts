/**
 * Joining a network of any age (docs/pruning-proof.md "Serving and joining", issue 19): a pruned node started on an
 * empty datadir of a version 2 network asks its peers, before its chain opens, for a pruning-point proof, verifies it,
 * fetches and checks the trusted data at the proven point, and downloads the point's state chunk by chunk (each chunk
 * checked against the header's state root). It answers the trusted data; the caller opens the chain with `join`, and
 * the ordinary IBD fetches what lies above the point.
 *
 * The questions go through a P2pNode on a placeholder chain (genesis, in memory) with block sync off: the real chain
 * cannot open before its trusted data is here, and a block download from genesis is what pruned peers cannot serve.
 *
 * Resumable: a kill -9 while the state downloads leaves the import's cursor row, which the next start continues (the
 * same point's root); one during the chain's import leaves its `joining` row, which the next start's trusted data
 * redoes. Every ready peer is asked for its proof at once and the heaviest wins (src/p2p/join-from-peers.ts, Kaspa's
 * rule), ties going to addnode order; one whose proof, trusted data, chunk or acceptance record fails its checks is
 * dropped with a ban score (banned, unless it is an addnode peer) and not asked again.
 */
import { randomBytes } from 'node:crypto';
import { chainKeys } from '../../src/chain/chain-store.ts';
import type { TrustedData } from '../../src/chain/trusted-data.ts';
import type { BlockHeader } from '../../src/codec/header.ts';
import { consensusKeys } from '../../src/consensus/consensus-rows.ts';
import { genesisHash } from '../../src/consensus/params.ts';
import { asWitnessVerifier, type WitnessVerifier } from '../../src/crypto/witness-check.ts';
import { addressKey } from '../../src/p2p/address-book.ts';
import { createP2pNode, type P2pNode } from '../../src/p2p/p2p-node.ts';
import { joinFromPeers, type JoinProgress } from '../../src/p2p/join-from-peers.ts';
import { buildPruningProof } from '../../src/pruning-proof/build-proof.ts';
import { proofParamsOf } from '../../src/pruning-proof/level-dag.ts';
import { verifyPruningProof, type VerifiedProof } from '../../src/pruning-proof/verify-proof.ts';
import { openLedgerChain } from '../../src/state/ledger.ts';
import type { KvStore } from '../../src/storage/kv.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { toHex } from '../../src/util/bytes.ts';
import { systemClock } from '../../src/util/clock.ts';
import type { NodeConfig } from '../config.ts';
import { fastVerifier } from '../crypto/fast-verifier.ts';
import type { Logger } from '../logger.ts';
import { nodeNoiseSuite } from '../p2p/node-crypto-suite.ts';
import { loadOrCreateNodeKey } from '../p2p/node-key.ts';
import { createFilePeerStore } from '../p2p/peer-file.ts';
import { nodeTimer, parseSeed } from '../p2p/start-p2p.ts';
import { dialTcp } from '../p2p/tcp-port.ts';

/** How long a join waits for a peer to ask (each round); with none it gives up and the node syncs from genesis. */
const fastJoinPeerWaitMs = 20_000;
/** How long the other addnode peers may take to connect once the first has. */
const fastJoinSettleMs = 3_000;
/** Rounds over the peers before giving up (a peer's point can move between its proof and its data). */
const fastJoinRoundsMax = 5;
/** State download progress is logged every this many chunks. */
const chunkLogEvery = 64;

export interface FastJoinOptions {
  readonly config: NodeConfig;
  /** The node's (empty or half-joined) store: the state is imported into it. */
  readonly store: KvStore;
  readonly logger: Logger;
  readonly version: string;
  /** Told each phase and state chunk as they happen (the join's /health, join-health.ts). */
  readonly onProgress?: (progress: FastJoinProgress) => void;
  /** Peers (hex NodeIDs) never asked: a re-join leaves out the peer that served a poisoned join (rejoin.ts). */
  readonly exclude?: ReadonlySet<string>;
}

/** Where a join stands: what /health shows while the API is not open yet. */
export type FastJoinProgress = JoinProgress;

/** Why a join is not attempted, or undefined when it is to be (an empty store, or one whose join did not finish). */
export function fastJoinSkipReason(config: NodeConfig, store: KvStore): string | undefined {
  if (!config.fastSync) return '--fast-sync=false';
  if (config.archive) return 'an archive node keeps everything from genesis';
  if (config.params.headerVersion !== 2) return 'version 1 headers carry no pruning-point proof';
  if (config.addnode.length === 0) return 'no --addnode peers to ask';
  if (store.get(chainKeys.joinedAt) !== undefined) return 'the chain joined already';
  const half = store.get(chainKeys.joining) !== undefined;
  if (!half && (store.get(consensusKeys.blockCount) !== undefined || store.get(chainKeys.selectedTip) !== undefined)) return 'the store holds a chain';
  return undefined;
}

/**
 * The peers to ask, addnode order first. Once one is connected, the rest of the addnode peers get up to
 * fastJoinSettleMs to connect too, so the order holds on a slow box rather than whoever connected first.
 */
async function readyPeers(node: P2pNode, seeds: readonly string[], skip: ReadonlySet<string>): Promise<string[]> {
  const began = Date.now();
  let firstReadyAt: number | undefined;
  for (;;) {
    const ready = node.peers().filter((p) => !skip.has(p.nodeId));
    if (ready.length > 0) firstReadyAt ??= Date.now();
    const connected = new Set(node.peers().map((p) => p.address));
    const settled = firstReadyAt !== undefined && (seeds.every((s) => connected.has(s)) || Date.now() - firstReadyAt >= fastJoinSettleMs);
    if (ready.length > 0 && settled) {
      const rank = (address: string): number => {
        const i = seeds.indexOf(address);
        return i === -1 ? seeds.length : i;
      };
      return ready.sort((a, b) => rank(a.address) - rank(b.address)).map((p) => p.nodeId);
    }
    if (Date.now() - began > fastJoinPeerWaitMs) return [];
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What a join hands the chain: the checked trusted data and the verified proof's headers (kept as header rows). */
export interface FastJoinResult {
  readonly trusted: TrustedData;
  readonly proofHeaders: readonly BlockHeader[];
  /** The peer whose proof won and whose data was taken (hex NodeID). */
  readonly peer: string;
  /** The proof the join verified: the join guard's defender until the chain's point moves (src/p2p/join-guard.ts). */
  readonly proof: VerifiedProof;
}

/**
 * Runs the join when fastJoinSkipReason says to; answers what to open the chain with (the point's state already in
 * `store`), or undefined when the node is to start as usual (nothing to join, no peer to join from).
 */
export async function fastJoin(options: FastJoinOptions): Promise<FastJoinResult | undefined> {
  const { config, store, logger } = options;
  const report = options.onProgress ?? (() => undefined);
  const skip = fastJoinSkipReason(config, store);
  if (skip !== undefined) {
    logger.debug({ event: 'fast_join_skipped', reason: skip }, 'not joining by proof');
    return undefined;
  }
  const params = config.params;
  const proofParams = proofParamsOf(params);
  const verifier = asWitnessVerifier(fastVerifier) as WitnessVerifier;
  // Our own proof: a chain at genesis (compareProofs decides against it, as against any defender).
  const placeholder = await openLedgerChain({ params, store: createMemoryStore(), clock: systemClock });
  const genesisId = toHex(genesisHash(params));
  const ours: VerifiedProof = verifyPruningProof(buildPruningProof({ header: (id) => placeholder.chain.get(id)?.header }, genesisId, proofParams), proofParams);
  const seeds = config.addnode.map((text) => parseSeed(text, params.ports.p2p));
  const node = createP2pNode({
    chain: placeholder.chain, staticKey: loadOrCreateNodeKey(config.datadir).key, clock: systemClock, timer: nodeTimer,
    randomBytes: (n) => new Uint8Array(randomBytes(n)), userAgent: `/weft:${options.version}/`, listenPort: 0, seeds, connectOnly: config.connectOnly, dial: dialTcp,
    peerStore: createFilePeerStore(config.datadir), suite: nodeNoiseSuite, log: logger, blockSync: false,
  });
  const seedOrder = seeds.map((s) => addressKey(s.host, s.port));
  const refused = new Set<string>(options.exclude ?? []);
  if (refused.size > 0) logger.info({ event: 'fast_join_excluding', peers: [...refused].map((p) => p.slice(0, 16)) }, 'not asking the peers excluded from this join');
  node.start();
  try {
    for (let round = 0; round < fastJoinRoundsMax; round++) {
      const candidates = await readyPeers(node, seedOrder, refused);
      if (candidates.length === 0) break;
      // Every ready peer is asked at once and the heaviest proof wins (join-from-peers.ts), not the first answer.
      const outcome = await joinFromPeers({
        node, params, store, verifier, clock: systemClock, timer: nodeTimer, log: logger, peers: candidates,
        defender: { proof: ours, tipBlueWork: 0n }, onProgress: report, chunkLogEvery,
      });
      if (outcome.kind === 'joined') return { trusted: outcome.trusted, proofHeaders: outcome.proofHeaders, peer: outcome.peer, proof: outcome.proof };
      for (const peer of outcome.refused) refused.add(peer);
      // Every peer answered with a proof no heavier than genesis: nothing to join.
      if (outcome.notHeavier === candidates.length) {
        logger.info({ event: 'fast_join_peer_at_genesis', peers: candidates.length }, "the peers' pruning point is genesis: nothing to join");
        break;
      }
    }
    logger.warn({ event: 'fast_join_gave_up', refused: refused.size }, 'no peer to join by proof from: syncing from genesis');
    return undefined;
  } finally {
    await node.close();
    await placeholder.chain.settled();
  }
}
