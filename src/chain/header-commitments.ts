/**
 * What a version 2 header commits to beyond version 1 (docs/pruning-proof.md "Header version 2"): its level-parent
 * runs and the pruning point seen from its selected parent. Both are functions of the parents, so templates fill
 * them in and header-in-context (full node and light chain alike) recomputes and compares them.
 */
import type { BlockHeader, LevelParentsRun } from '../codec/header.ts';
import type { BlockId, GhostdagEngine } from '../consensus/ghostdag.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { assert } from '../errors.ts';
import { toHash0x, toHex } from '../util/bytes.ts';
import type { IndexedBlock } from './block-index.ts';
import { BlockRuleError } from './errors.ts';
import { computeLevelParents, describeLevelParents, levelOfBlock, sameLevelParents, type LevelParentsSource } from './level-parents.ts';
import { nextPruningPoint } from './pruning-point.ts';

/** The DAG as the commitments read it: indexed blocks (headers, selected chains) and the GHOSTDAG engine. */
export interface CommitmentDag {
  readonly params: NetworkParams;
  readonly genesis: IndexedBlock;
  get(id: BlockId): IndexedBlock | undefined;
  readonly engine: Pick<GhostdagEngine, 'isDagAncestorOf' | 'get' | 'has'>;
  /**
   * A header held without consensus data (kept for the pruning-point proof below a pruned or joined chain's kept
   * blocks); level parents reach such blocks at high levels. Absent: every header is an indexed block's.
   */
  headerOnly?(id: BlockId): BlockHeader | undefined;
  /**
   * A chain joined at a pruning point: the lowest block of that point's selected chain it holds. Within about a
   * pruning window above the join, a block's pruning point is computed from chain blocks below it, which the chain
   * does not hold (`pruningPointReadable`); there only the level parents are checked, and the committed point stands
   * on the block's PoW and the proof the chain joined by (docs/pruning-proof.md "Joining").
   */
  lowestChain?(): IndexedBlock;
}

export interface HeaderCommitments {
  readonly levelParents: LevelParentsRun[];
  readonly pruningPoint: Uint8Array;
}

const known = (dag: CommitmentDag, id: BlockId): IndexedBlock => {
  const block = dag.get(id);
  assert(block !== undefined, `block ${id} is not indexed`);
  return block;
};

/** The level-parents reader over a CommitmentDag. */
export function levelParentsSource(dag: CommitmentDag): LevelParentsSource {
  return {
    // A joined chain's genesis is a stand-in outside its store; high levels name it all the same.
    header: (id) => dag.get(id)?.header ?? (id === dag.genesis.id ? dag.genesis.header : dag.headerOnly?.(id)),
    level: levelOfBlock(dag.params.maxTarget, dag.genesis.id),
    hasReachability: (id) => dag.engine.has(id),
    isDagAncestorOf: (a, b) => dag.engine.isDagAncestorOf(a, b),
    blueWork: (id) => dag.engine.get(id)!.blueWork,
  };
}

/** pruningPointOf(X): X's own committed pruning point, genesis for genesis (and any version 1 block). */
export function pruningPointOf(dag: CommitmentDag, block: IndexedBlock): IndexedBlock {
  const point = block.header.pruningPoint;
  return point === undefined ? dag.genesis : known(dag, toHex(point));
}

/** Both commitments of a new block with these parents and this selected parent. */
export function headerCommitments(dag: CommitmentDag, parentIds: readonly BlockId[], selectedParent: IndexedBlock): HeaderCommitments {
  const levelParents = computeLevelParents(levelParentsSource(dag), parentIds);
  // Just above a join the point cannot be recomputed: the selected parent's own stands until the chain can.
  if (dag.lowestChain !== undefined && !pruningPointReadable(dag, selectedParent, dag.lowestChain())) {
    return { levelParents, pruningPoint: selectedParent.header.pruningPoint ?? dag.genesis.hash };
  }
  const point = nextPruningPoint(dag.params, selectedParent, pruningPointOf(dag, selectedParent));
  return { levelParents, pruningPoint: point.hash };
}

/** Header in context for version 2: refuses level parents or a pruning point other than the recomputed ones. */
export function validateHeaderCommitments(dag: CommitmentDag, header: BlockHeader, parentIds: readonly BlockId[], selectedParent: IndexedBlock): void {
  if (header.version < 2) return;
  if (dag.lowestChain !== undefined && !pruningPointReadable(dag, selectedParent, dag.lowestChain())) return validateLevelParents(dag, header, parentIds);
  const point = nextPruningPoint(dag.params, selectedParent, pruningPointOf(dag, selectedParent));
  if (header.pruningPoint === undefined || toHex(header.pruningPoint) !== point.id) {
    const got = header.pruningPoint === undefined ? 'none' : toHash0x(header.pruningPoint);
    throw new BlockRuleError('context.pruning-point.mismatch', `pruning point ${got}, the selected parent's chain gives ${toHash0x(point.hash)}`);
  }
  validateLevelParents(dag, header, parentIds);
}

/** The level-parents half alone (a joined light chain checks it where the pruning point reads below what it holds). */
export function validateLevelParents(dag: CommitmentDag, header: BlockHeader, parentIds: readonly BlockId[]): void {
  const expected = computeLevelParents(levelParentsSource(dag), parentIds);
  if (header.levelParents === undefined || !sameLevelParents(header.levelParents, expected)) {
    throw new BlockRuleError('context.level-parents.mismatch', `level parents ${describeLevelParents(header.levelParents)}, the parents give ${describeLevelParents(expected)}`);
  }
}

/**
 * Whether nextPruningPoint(selectedParent, its committed point) reads only blocks this chain holds: its committed
 * point's header is known, and either the point cannot move yet or both binary searches down the selected chain
 * (to the deepest chain block `pruningDepth` below, then to the start of that block's finality interval) stay above
 * `lowestChain`. Chain blue scores grow by at most k + 1 a step, so the deepest block is within k of the limit.
 */
export function pruningPointReadable(dag: CommitmentDag, selectedParent: IndexedBlock, lowestChain: IndexedBlock): boolean {
  const { finalityDepth, pruningDepth, ghostdagK } = dag.params;
  const committed = selectedParent.header.pruningPoint;
  const current = committed === undefined ? dag.genesis : dag.get(toHex(committed));
  if (current === undefined) return false;
  if (lowestChain.height === 0) return true; // the chain reaches genesis: every walk stays on it
  const limit = selectedParent.header.blueScore - pruningDepth;
  if (limit < (Math.floor(current.header.blueScore / finalityDepth) + 1) * finalityDepth) return true;
  const boundary = Math.floor((limit - ghostdagK) / finalityDepth) * finalityDepth;
  return lowestChain.header.blueScore <= boundary - 1;
}
