/**
 * The state of a light chain (src/light/light-chain.ts): the header DAG it has verified (a ChainGraph, from genesis
 * or from a join) and what is staged for its store. The operations are free functions beside it: graph.ts builds and
 * extends the graph, add-headers.ts verifies, read.ts answers, persist.ts writes and joins, resume.ts reopens.
 */
import { createIndexedBlock, type IndexedBlock } from '../../chain/block-index.ts';
import type { CommitmentDag } from '../../chain/header-commitments.ts';
import { createGhostdagEngine, type BlockId, type GhostdagEngine } from '../../consensus/ghostdag.ts';
import { genesisHash, type NetworkParams } from '../../consensus/params.ts';
import { blockHash, compactToTarget, workFromTarget } from '../../consensus/pow.ts';
import type { VerifiedProof } from '../../pruning-proof/verify-proof.ts';
import { toHex } from '../../util/bytes.ts';
import type { Clock } from '../../util/clock.ts';
import type { CheckedJoin } from '../light-join.ts';
import type { LightHeaderStore, StoredHeader } from '../light-store.ts';

interface JoinedState {
  readonly point: IndexedBlock;
  readonly lowestChain: IndexedBlock;
  readonly checked: CheckedJoin;
  verified: VerifiedProof | undefined;
}

/** The verified header DAG: replaced whole by a join. */
export interface ChainGraph {
  readonly engine: GhostdagEngine;
  readonly index: Map<BlockId, IndexedBlock>;
  /** Selected-chain ids by height (from the join's lowest chain block up, on a joined chain). */
  readonly chainIds: BlockId[];
  readonly commitments: CommitmentDag;
  readonly joined: JoinedState | undefined;
  tip: IndexedBlock;
  nextSeq: number;
}

export interface LightChainState {
  readonly params: NetworkParams;
  readonly store: LightHeaderStore;
  readonly clock: Clock;
  readonly genesis: IndexedBlock;
  graph: ChainGraph;
  /** Headers verified since the last flush, in verification order. */
  staged: StoredHeader[];
  nextStoredSeq: number;
  /** Headers above the join whose pruning point was not recomputed (join-commitments.ts). */
  deferred: number;
}

export const workOfBits = (bits: number): bigint => workFromTarget(compactToTarget(bits));

export function newEngine(params: NetworkParams): GhostdagEngine {
  return createGhostdagEngine({ k: params.ghostdagK, mergesetSizeLimit: params.mergesetSizeLimit });
}

export function genesisBlockOf(params: NetworkParams): IndexedBlock {
  return createIndexedBlock(toHex(genesisHash(params)), blockHash(params.genesis), params.genesis, null, 0);
}
