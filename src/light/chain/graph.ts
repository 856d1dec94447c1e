/**
 * Building and extending a light chain's header DAG: from genesis, or from a join's trusted blocks hung from the
 * engine's virtual origin with the GHOSTDAG data they came with (docs/pruning-proof.md "The tab").
 */
import { createIndexedBlock, skipPointer, type IndexedBlock } from '../../chain/block-index.ts';
import type { CommitmentDag } from '../../chain/header-commitments.ts';
import { checkAroundPoint } from '../../chain/trusted-check.ts';
import { TrustedDataError } from '../../chain/trusted-errors.ts';
import type { BlockHeader } from '../../codec/header.ts';
import type { BlockId } from '../../consensus/ghostdag.ts';
import type { NetworkParams } from '../../consensus/params.ts';
import { blockHash } from '../../consensus/pow.ts';
import { toHex } from '../../util/bytes.ts';
import { LightSyncError } from '../errors.ts';
import { joinedCommitmentDag } from '../join-commitments.ts';
import type { CheckedJoin } from '../light-join.ts';
import { moveChainTo } from './move-chain.ts';
import { newEngine, workOfBits, type ChainGraph } from './state.ts';

export function graphFromGenesis(params: NetworkParams, genesis: IndexedBlock): ChainGraph {
  const engine = newEngine(params);
  engine.addGenesis(genesis.id, workOfBits(params.genesis.bits));
  const index = new Map<BlockId, IndexedBlock>([[genesis.id, genesis]]);
  const commitments: CommitmentDag = { params, genesis, get: (id) => index.get(id), engine };
  return { engine, index, chainIds: [genesis.id], commitments, joined: undefined, tip: genesis, nextSeq: 1 };
}

function trustedInvalid(error: unknown): never {
  if (error instanceof TrustedDataError) {
    throw new LightSyncError('trusted-invalid', `the trusted data was refused (${error.reason}): ${error.message}`, { trustedReason: error.reason, cause: error });
  }
  // Mergesets that contradict the DAG the headers form trip the reachability index's invariants.
  throw new LightSyncError('trusted-invalid', `the trusted blocks' GHOSTDAG data does not fit their DAG: ${String((error as Error)?.message ?? error)}`, { trustedReason: 'ghostdag-inconsistent', cause: error });
}

/** The trusted blocks under a virtual origin, checked around the point; throws LightSyncError, changes nothing. */
export function graphFromJoin(params: NetworkParams, genesis: IndexedBlock, checked: CheckedJoin): ChainGraph {
  const engine = newEngine(params);
  const index = new Map<BlockId, IndexedBlock>();
  let nextSeq = 1;
  try {
    engine.addTrustedOrigin();
    for (const { id, block, work } of checked.trusted.blocks) engine.addTrustedBlock(id, block.header.parents.map(toHex), work, block.ghostdag, block.height);
    checkAroundPoint(params, engine, checked.trusted, { headersOnly: true });
  } catch (error) {
    trustedInvalid(error);
  }
  for (const { id, hash, block } of checked.trusted.blocks) {
    const sp = block.ghostdag.selectedParent === null ? null : (index.get(block.ghostdag.selectedParent) ?? null);
    // Real heights: a block whose selected parent is below the set starts its chain there (block-index.ts).
    const skip = skipPointer(sp, block.height);
    index.set(id, { id, hash, header: block.header, selectedParent: sp, height: block.height, skip, seq: nextSeq++ });
  }
  const point = index.get(checked.trusted.point.id)!;
  engine.setSelectedTip(point.id);
  const chainIds: BlockId[] = [];
  let lowestChain = point;
  for (let walk: IndexedBlock | null = point; walk; walk = walk.selectedParent) {
    chainIds[walk.height] = walk.id;
    lowestChain = walk;
  }
  const proven = new Map<BlockId, { hash: Uint8Array; header: BlockHeader }>();
  for (const level of checked.proof.levels) {
    for (const header of level) {
      const hash = blockHash(header);
      proven.set(toHex(hash), { hash, header });
    }
  }
  const commitments = joinedCommitmentDag({ params, genesis, get: (id) => index.get(id), engine }, { proven, lowestChain });
  return { engine, index, chainIds, commitments, joined: { point, lowestChain, checked, verified: checked.verified }, tip: point, nextSeq };
}

/** Adds a header whose checks passed (or that this client checked before it stored it) to the engine and index. */
export function insertHeader(graph: ChainGraph, id: BlockId, hash: Uint8Array, header: BlockHeader, parentIds: BlockId[], work: bigint): IndexedBlock {
  const { engine, index } = graph;
  const data = engine.addBlock(id, parentIds, work);
  const entry = createIndexedBlock(id, hash, header, index.get(data.selectedParent!)!, graph.nextSeq++);
  index.set(id, entry);
  if (engine.compareBlocks(id, graph.tip.id) > 0) moveChainTo(graph, entry);
  return entry;
}
