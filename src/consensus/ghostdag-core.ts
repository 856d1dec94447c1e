/**
 * The GHOSTDAG protocol over interned blocks (dense integers), as rusty-kaspa implements it
 * (`consensus/src/processes/ghostdag/{protocol,mergeset,ordering}.rs`; PHANTOM/GHOSTDAG, eprint 2018/104):
 *
 * 1. selected parent = the parent with the highest (blue work, hash);
 * 2. mergeset = past(B) \ (past(sp) ∪ {sp}), found by a backwards BFS from the other parents that stops at blocks
 *    in past(sp), then sorted ascending by (blue work, hash) — a topological order, since blue work grows on every edge;
 * 3. each candidate in that order is blue iff the blue set stays a k-cluster: the candidate has at most k blues in
 *    its anticone, and no blue in its anticone already has k blues in its own anticone;
 * 4. blue score = sp.blueScore + |blues| and blue work = sp.blueWork + Σ work(blues), the selected parent included.
 *
 * This module reads the store and the reachability index and never writes: the engine stores the result.
 */
import { AssertionError, assert } from '../errors.ts';
import type { GhostdagRecord } from './consensus-store.ts';
import { MergesetTooLargeError } from './ghostdag-errors.ts';

/** What the algorithm reads: each stored block's GHOSTDAG record (consensus-store.ts). */
interface GhostdagReader {
  ghostdag(block: number): GhostdagRecord;
}

export interface CoreContext {
  readonly store: GhostdagReader;
  readonly k: number;
  readonly mergesetSizeLimit: number;
  /** Kaspa's SortableBlock order: blue work, then hash. */
  readonly compare: (a: number, b: number) => number;
  /** Reflexive: `a ∈ past(b) ∪ {b}`. */
  readonly isDagAncestor: (a: number, b: number) => boolean;
  /** Chain-walk reads of stored per-block data, for scaling checks. */
  readonly counters: { storeReads: number };
}

export interface CoreData {
  selectedParent: number;
  blueScore: number;
  blueWork: bigint;
  blues: number[];
  reds: number[];
  anticoneSizes: Map<number, number>;
}

function selectParent(ctx: CoreContext, parents: readonly number[]): number {
  let best = parents[0]!;
  for (let i = 1; i < parents.length; i++) if (ctx.compare(parents[i]!, best) > 0) best = parents[i]!;
  return best;
}

/** past(B) \ (past(sp) ∪ {sp}), unordered; throws as soon as it (with sp) would exceed the mergeset size limit. */
function mergesetWithoutSelectedParent(ctx: CoreContext, sp: number, parents: readonly number[]): number[] {
  const limit = ctx.mergesetSizeLimit;
  const queue: number[] = [];
  for (const p of parents) if (p !== sp) queue.push(p);
  const mergeset = new Set(queue);
  if (mergeset.size + 1 > limit) throw new MergesetTooLargeError(limit);
  const past = new Set<number>();
  for (let q = 0; q < queue.length; q++) {
    for (const p of ctx.store.ghostdag(queue[q]!).parents) {
      if (mergeset.has(p) || past.has(p)) continue;
      if (ctx.isDagAncestor(p, sp)) {
        past.add(p);
        continue;
      }
      mergeset.add(p);
      // Stopping here bounds the work an invalid block can cost (a parent deep in the past).
      if (mergeset.size + 1 > limit) throw new MergesetTooLargeError(limit);
      queue.push(p);
    }
  }
  return queue;
}

/** GHOSTDAG data of a block with these (known, antichain) parents. */
export function computeGhostdag(ctx: CoreContext, parents: readonly number[]): CoreData {
  const { store, k } = ctx;
  const sp = selectParent(ctx, parents);
  const ordered = mergesetWithoutSelectedParent(ctx, sp, parents).sort(ctx.compare);
  const data: CoreData = { selectedParent: sp, blueScore: 0, blueWork: 0n, blues: [sp], reds: [], anticoneSizes: new Map([[sp, 0]]) };
  const touchedBlocks: number[] = [];
  const touchedSizes: number[] = [];
  for (const candidate of ordered) {
    // At most k blues besides the selected parent: checked before any reachability work, as Kaspa does.
    if (data.blues.length === k + 1) {
      data.reds.push(candidate);
      continue;
    }
    touchedBlocks.length = 0;
    touchedSizes.length = 0;
    const size = checkBlueCandidate(ctx, data, candidate, touchedBlocks, touchedSizes);
    if (size < 0) {
      data.reds.push(candidate);
      continue;
    }
    data.blues.push(candidate);
    data.anticoneSizes.set(candidate, size);
    for (let i = 0; i < touchedBlocks.length; i++) data.anticoneSizes.set(touchedBlocks[i]!, touchedSizes[i]! + 1);
  }
  const spRecord = store.ghostdag(sp);
  let blueWork = spRecord.blueWork;
  for (const b of data.blues) blueWork += store.ghostdag(b).work;
  data.blueScore = spRecord.blueScore + data.blues.length;
  data.blueWork = blueWork;
  return data;
}

/**
 * Walks the blues of the new block, then of each chain block down from its selected parent, until a chain block
 * is in the candidate's past (everything below is too). Each blue not in the candidate's past is in its anticone
 * (it cannot be in its future: candidates come in topological order). Returns the candidate's blue anticone size,
 * or -1 for red; fills the anticone sizes of the blues it met (as seen before the candidate).
 */
function checkBlueCandidate(ctx: CoreContext, data: CoreData, candidate: number, touchedBlocks: number[], touchedSizes: number[]): number {
  const { store, k } = ctx;
  let candidateSize = 0;
  let chainBlock = -1; // the new block itself, not stored yet
  let chainBlues: readonly number[] = data.blues;
  let nextChain = data.selectedParent;
  for (;;) {
    if (chainBlock >= 0 && ctx.isDagAncestor(chainBlock, candidate)) return candidateSize;
    for (const peer of chainBlues) {
      if (ctx.isDagAncestor(peer, candidate)) continue;
      const peerSize = blueAnticoneSize(ctx, peer, data);
      touchedBlocks.push(peer);
      touchedSizes.push(peerSize);
      candidateSize++;
      if (candidateSize > k) return -1; // the candidate would see more than k blues in its anticone
      if (peerSize === k) return -1; // the peer would see more than k
      assert(peerSize < k, `blue ${peer} has a blue anticone of ${peerSize} > k`);
    }
    assert(nextChain >= 0, `colouring of ${candidate} walked past genesis`);
    chainBlock = nextChain;
    ctx.counters.storeReads++;
    const record = store.ghostdag(chainBlock);
    chainBlues = record.blues;
    nextChain = record.selectedParent;
  }
}

/** Blue anticone size of `block` from the new block's view: the newest entry down its selected chain. */
function blueAnticoneSize(ctx: CoreContext, block: number, data: CoreData): number {
  const own = data.anticoneSizes.get(block);
  if (own !== undefined) return own;
  const { store } = ctx;
  for (let c = data.selectedParent; c >= 0; ) {
    ctx.counters.storeReads++;
    const record = store.ghostdag(c);
    const pairs = record.anticoneSizes;
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === block) return pairs[i + 1]!;
    c = record.selectedParent;
  }
  throw new AssertionError(`block ${block} is not in the blue set of the new block`);
}
