/**
 * A version 2 header's commitments (src/chain/header-commitments.ts) read blocks below a joined light chain's trusted
 * set: the level parents of a block above the pruning point P name old blocks of high level, and its pruning point
 * is computed from its selected parent's committed point down P's selected chain (docs/web.md "Joining at a pruning
 * point"). This is the DAG those checks read on a joined chain:
 *
 * - headers: the chain's own (trusted blocks and everything verified above them), then the proof's — every one of
 *   them PoW-checked by verifyPruningProof;
 * - ancestry: the engine's among blocks it holds; genesis is in every block's past; a block the engine holds (T or
 *   above, blue score at least the floor's) is in no older block's past, since blue score grows along every edge;
 *   an older block A is in B's past exactly when a walk down level(A)'s parents from B reaches it (the level-L
 *   parents of a block are the maximal blocks of level ≥ L in its past, so level-L parent links reach every block of
 *   level ≥ L in it). The walk stops below A's blue work (an ancestor has strictly less) and at headers neither the
 *   chain nor the proof holds — those answer "not an ancestor", which can only make an honest header's level
 *   parents disagree (a refusal), never make a forged one agree.
 *
 * The pruning-point commitment is recomputed only when its chain walks stay inside the trusted chain
 * (`pruningPointReadable`): the trusted set reaches trustedChainDepth below P, a pruning window (pruningDepth +
 * finalityDepth) is usually more, so headers up to about a pruning window above P carry a point the tab cannot
 * recompute; their level parents are checked all the same (`joinedCommitmentsDeferred` counts them).
 */
import { createIndexedBlock, type IndexedBlock } from '../chain/block-index.ts';
import type { CommitmentDag } from '../chain/header-commitments.ts';
import { levelOfBlock } from '../chain/level-parents.ts';
import type { BlockHeader } from '../codec/header.ts';
import type { BlockId, GhostdagData, GhostdagEngine } from '../consensus/ghostdag.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { levelParentIds } from '../pruning-proof/level-dag.ts';

export interface BelowJoin {
  /** The proof's headers by id (PoW-checked when the proof was verified). */
  readonly proven: ReadonlyMap<BlockId, { readonly hash: Uint8Array; readonly header: BlockHeader }>;
  /** The lowest block of P's selected chain the chain holds: its walks stop there. */
  readonly lowestChain: IndexedBlock;
}

export interface JoinedDagSource {
  readonly params: NetworkParams;
  readonly genesis: IndexedBlock;
  get(id: BlockId): IndexedBlock | undefined;
  readonly engine: GhostdagEngine;
}

/** The CommitmentDag of a joined light chain (see the module comment). */
export function joinedCommitmentDag(source: JoinedDagSource, below: BelowJoin): CommitmentDag {
  const { params, genesis, engine } = source;
  const detached = new Map<BlockId, IndexedBlock>();
  const get = (id: BlockId): IndexedBlock | undefined => {
    if (id === genesis.id) return genesis;
    const own = source.get(id);
    if (own !== undefined) return own;
    const proven = below.proven.get(id);
    if (proven === undefined) return undefined;
    // Headers only: no selected parent or height is known below the trusted set, and no rule walks from one.
    let entry = detached.get(id);
    if (entry === undefined) detached.set(id, (entry = createIndexedBlock(id, proven.hash, proven.header, null, 0)));
    return entry;
  };
  const headerOf = (id: BlockId): BlockHeader | undefined => get(id)?.header;
  const levelOf = levelOfBlock(params.maxTarget, genesis.id);

  const reachedByLevelWalk = (ancestor: BlockId, from: BlockId): boolean => {
    const target = headerOf(ancestor);
    const start = headerOf(from);
    if (target === undefined || start === undefined) return false;
    const level = levelOf(ancestor);
    const seen = new Set<BlockId>();
    const stack = [...levelParentIds(start, level)];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id === ancestor) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      const header = headerOf(id);
      if (header === undefined || header.blueWork <= target.blueWork) continue;
      stack.push(...levelParentIds(header, level));
    }
    return false;
  };

  const isDagAncestorOf = (a: BlockId, b: BlockId): boolean => {
    if (a === b) return false;
    if (a === genesis.id) return true;
    if (b === genesis.id) return false;
    const aHeld = engine.has(a);
    if (aHeld && engine.has(b)) return engine.isDagAncestorOf(a, b);
    if (aHeld) return false;
    return reachedByLevelWalk(a, b);
  };

  const ghostdagOf = (id: BlockId): GhostdagData | undefined => {
    if (engine.has(id)) return engine.get(id);
    const header = headerOf(id);
    if (header === undefined) return undefined;
    // Only blue work is read below the set (the level-parents cap keeps the heaviest): the header's claim, PoW-bound.
    return { selectedParent: null, blueScore: header.blueScore, blueWork: header.blueWork, mergesetBlues: [], mergesetReds: [], bluesAnticoneSizes: new Map(), mergesetSize: 0 };
  };

  // `has` and `headerOnly` as the full node's CommitmentDag carries them for blocks held as headers only (built apart
  // so the shape is not held to this version's narrower interface).
  const view = { isDagAncestorOf, get: ghostdagOf as GhostdagEngine['get'], has: (id: BlockId) => engine.has(id) };
  const dag = { params, genesis, get, engine: view, headerOnly: (id: BlockId) => below.proven.get(id)?.header };
  return dag;
}
