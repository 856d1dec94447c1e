/**
 * Joining at the heaviest proven pruning point among the peers (docs/pruning-proof.md "Serving and joining"; Kaspa's
 * rule: ask every peer you can reach, compare, keep the heaviest). Every peer asked (up to joinPeersAskedMax) is asked
 * for its proof at once, each answer waited for at most joinProofWaitMs; every proof that arrives is verified (its
 * shape, its PoW, and its level-0 chain's bits against the difficulty adjustment, proof-difficulty.ts); the heaviest
 * by compareProofs (ties keep the earlier peer) is joined from: its trusted data checked (with the bits of its chain
 * stretch), its state downloaded chunk by chunk against the point's root, its acceptance record checked against the
 * totals that state commits to (rules v2, src/state/join-record.ts). A peer whose answer fails a check is dropped with
 * its ban score (the p2p node bans it) and the next heaviest is tried; a lighter or slower peer is never punished.
 *
 * Isomorphic: the full node's start-up (server/node/fast-join.ts) and in-process tests run it over any P2pNode.
 */
import { checkTrustedData } from '../chain/trusted-check.ts';
import type { TrustedData } from '../chain/trusted-data.ts';
import { TrustedDataError } from '../chain/trusted-errors.ts';
import type { BlockHeader } from '../codec/header.ts';
import { genesisHash, type NetworkParams } from '../consensus/params.ts';
import { blockHash } from '../consensus/pow.ts';
import type { WitnessVerifier } from '../crypto/witness-check.ts';
import { compareProofs, type ProofContender } from '../pruning-proof/compare-proofs.ts';
import { proofParamsOf } from '../pruning-proof/level-dag.ts';
import { checkChainDifficulty, checkProofDifficulty } from '../pruning-proof/proof-difficulty.ts';
import { ProofError } from '../pruning-proof/proof-errors.ts';
import type { PruningProof } from '../pruning-proof/pruning-proof.ts';
import { verifyPruningProof, type VerifiedProof } from '../pruning-proof/verify-proof.ts';
import { checkJoinRecord, committedTotals } from '../state/join-record.ts';
import { ledgerKeys } from '../state/ledger-rows.ts';
import { SnapshotError } from '../state/snapshot-errors.ts';
import { createSnapshotImport } from '../state/snapshot-import.ts';
import { createStateTrie } from '../state/trie.ts';
import type { KvStore } from '../storage/kv.ts';
import { toHash0x, toHex } from '../util/bytes.ts';
import type { Clock } from '../util/clock.ts';
import { P2pProtocolError } from './errors.ts';
import type { P2pLogger } from './logger.ts';
import type { P2pNode } from './p2p-node.ts';
import { ProtocolViolationError } from './protocol-errors.ts';
import type { Timer } from './transport.ts';

/** Peers asked for a proof in one round (Kaspa asks all it has; a node keeps at most 8 outbound). */
const joinPeersAskedMax = 16;
/** How long a proof may take to arrive; a slower peer is left out of this round, unpunished. */
const joinProofWaitMs = 15_000;

type JoinPhase = 'proof' | 'trusted-data' | 'state';

export interface JoinProgress {
  readonly phase: JoinPhase;
  /** The peer asked (its NodeID's first 16 hex digits). */
  readonly peer: string;
  readonly pruningPoint?: string;
  readonly stateEntries?: number;
  readonly stateChunks?: number;
}

export interface JoinFromPeersOptions {
  readonly node: P2pNode;
  readonly params: NetworkParams;
  /** The store the point's state is imported into. */
  readonly store: KvStore;
  readonly verifier: WitnessVerifier;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly log: P2pLogger;
  /** Ready peers' NodeIDs (hex) to ask, in preference order (ties between equal proofs go to the earlier). */
  readonly peers: readonly string[];
  /** What a proof must beat: this node's own (a re-join: the joined chain's; a first join: genesis's). */
  readonly defender: ProofContender;
  readonly onProgress?: (progress: JoinProgress) => void;
  /** Logged every this many state chunks (and at the first). */
  readonly chunkLogEvery?: number;
}

export type JoinOutcome =
  | {
      readonly kind: 'joined';
      readonly peer: string;
      readonly trusted: TrustedData;
      /** The verified proof's distinct headers: the joined chain keeps them as header rows. */
      readonly proofHeaders: readonly BlockHeader[];
      readonly proof: VerifiedProof;
      /** Peers dropped for a failed check (banned by the node unless manual). */
      readonly refused: readonly string[];
    }
  | { readonly kind: 'none'; readonly refused: readonly string[]; readonly notHeavier: number; readonly asked: number };

/** A failure the answering peer is to blame for: it is dropped with a ban score and not asked again. */
export function joinPeerFault(error: unknown): P2pProtocolError | undefined {
  if (error instanceof P2pProtocolError) return error.banScore > 0 ? error : undefined;
  if ((error instanceof ProofError || error instanceof TrustedDataError || error instanceof SnapshotError) && error.peerFault) {
    return new ProtocolViolationError(error.message);
  }
  return undefined;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

interface Contender {
  readonly peer: string;
  readonly proof: PruningProof;
  readonly verified: VerifiedProof;
}

/** Waits for `task` at most `ms`; undefined when it did not settle in time. */
function within<T>(timer: Timer, ms: number, task: Promise<T>): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const cancel = timer.setTimeout(() => resolve(undefined), ms);
    task.then(
      (value) => (cancel(), resolve(value)),
      (error: unknown) => (cancel(), reject(error)),
    );
  });
}

export async function joinFromPeers(options: JoinFromPeersOptions): Promise<JoinOutcome> {
  const { node, params, log } = options;
  const proofParams = proofParamsOf(params);
  const refused: string[] = [];
  const report = options.onProgress ?? (() => undefined);
  const drop = (peer: string, error: unknown): boolean => {
    const fault = joinPeerFault(error);
    const who = peer.slice(0, 16);
    if (fault === undefined) {
      log.info({ event: 'fast_join_peer_failed', peer: who, err: errorText(error) }, 'peer could not answer; trying the next');
      return false;
    }
    refused.push(peer);
    node.disconnectPeer(peer, fault);
    log.warn({ event: 'fast_join_peer_refused', peer: who, err: errorText(error) }, 'peer refused for the join: its answer failed its checks');
    return true;
  };

  // Every peer at once: a slow honest peer must not lose to a fast liar.
  const asked = options.peers.slice(0, joinPeersAskedMax);
  for (const peer of asked) report({ phase: 'proof', peer: peer.slice(0, 16) });
  log.info({ event: 'fast_join_phase', phase: 'proof' satisfies JoinPhase, peers: asked.length }, 'fetching pruning-point proofs from every peer');
  const answers = await Promise.all(
    asked.map(async (peer): Promise<Contender | undefined> => {
      try {
        const fetched = await within(options.timer, joinProofWaitMs, node.fetchPruningProof(peer));
        if (fetched === undefined) {
          log.info({ event: 'fast_join_proof_late', peer: peer.slice(0, 16), waitedMs: joinProofWaitMs }, 'no proof in time; left out of this round');
          return undefined;
        }
        const verified = verifyPruningProof(fetched.proof, proofParams);
        checkProofDifficulty(params, fetched.proof, proofParams.genesis);
        return { peer, proof: fetched.proof, verified };
      } catch (error) {
        drop(peer, error);
        return undefined;
      }
    }),
  );
  let contenders = answers.filter((c): c is Contender => c !== undefined && compareProofs(options.defender, tipless(c.verified), proofParams).challengerWins);
  const notHeavier = answers.filter((c) => c !== undefined).length - contenders.length;

  while (contenders.length > 0) {
    // The heaviest left: a challenger replaces the best only when strictly heavier (ties keep the earlier peer).
    let best = contenders[0]!;
    for (const c of contenders.slice(1)) if (compareProofs(tipless(best.verified), tipless(c.verified), proofParams).challengerWins) best = c;
    contenders = contenders.filter((c) => c !== best);
    try {
      return { kind: 'joined', ...(await takeFrom(options, best, report)), refused };
    } catch (error) {
      drop(best.peer, error);
    }
  }
  return { kind: 'none', refused, notHeavier, asked: asked.length };
}

/** A proof as a contender claiming nothing above its pruning point (the peers' tips are checked as their blocks arrive). */
function tipless(proof: VerifiedProof): ProofContender {
  return { proof, tipBlueWork: proof.pruningPoint.blueWork };
}

/** Trusted data, state and record from the winner's peer; throws what its checks throw. */
async function takeFrom(options: JoinFromPeersOptions, winner: Contender, report: (p: JoinProgress) => void) {
  const { node, params, store, log } = options;
  const { peer, proof, verified } = winner;
  const who = peer.slice(0, 16);
  const point = verified.pruningPoint;
  const pruningPoint = blockHash(point);
  log.info({ event: 'fast_join_phase', phase: 'trusted-data' satisfies JoinPhase, peer: who, pruningPoint: toHash0x(pruningPoint), blueScore: point.blueScore }, 'heaviest proof verified; fetching trusted data');
  report({ phase: 'trusted-data', peer: who, pruningPoint: toHash0x(pruningPoint) });
  const trusted = await node.fetchTrustedData(peer, pruningPoint);
  const checked = checkTrustedData(params, trusted, pruningPoint, options.clock.nowMs(), options.verifier);
  const byId = new Map(checked.blocks.map((b) => [b.id, b.block]));
  const chain: BlockHeader[] = [];
  for (let at = byId.get(checked.point.id); at; at = at.ghostdag.selectedParent === null ? undefined : byId.get(at.ghostdag.selectedParent)) chain.push(at.header);
  checkChainDifficulty(params, chain, toHex(genesisHash(params)));

  const target = createSnapshotImport({ store, prefix: ledgerKeys.trieprefix, root: point.stateRoot });
  log.info({ event: 'fast_join_phase', phase: 'state' satisfies JoinPhase, peer: who, blocks: trusted.blocks.length, stateRoot: toHash0x(point.stateRoot), resumedAtEntries: target.entries }, 'trusted data checked; downloading the state at the pruning point');
  let chunks = 0;
  const every = options.chunkLogEvery ?? 64;
  report({ phase: 'state', peer: who, pruningPoint: toHash0x(pruningPoint), stateEntries: target.entries, stateChunks: 0 });
  const state = await node.fetchSnapshot(peer, target, {
    onChunk: (entries) => {
      report({ phase: 'state', peer: who, pruningPoint: toHash0x(pruningPoint), stateEntries: entries, stateChunks: chunks + 1 });
      if (++chunks === 1 || chunks % every === 0) log.info({ event: 'fast_join_state_progress', entries, chunks }, 'state download');
    },
  });
  // The record's totals against those the verified state commits to (rules v2): a lie is this peer's fault.
  const trie = createStateTrie({ store, prefix: ledgerKeys.trieprefix });
  checkJoinRecord(params, point, trusted.stateRecord, () => committedTotals(trie, point.stateRoot));
  log.info({ event: 'fast_join_state_done', entries: state.entries, chunks: state.chunks }, 'state imported; opening the chain at the pruning point');
  const proofHeaders = [...new Map(proof.levels.flat().map((h) => [toHex(blockHash(h)), h])).values()];
  return { peer, trusted, proofHeaders, proof: verified };
}
