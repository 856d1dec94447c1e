/**
 * One level's sub-DAG (docs/pruning-proof.md "The proof"): the blocks of level ≥ L linked by their parents at level
 * L, with GHOSTDAG run on it from a root that hangs from a virtual origin (the root gets blue score 0 and blue work
 * 0, as genesis does, and its own work counts in its children). Builder and verifier share this file, so the block
 * M deep below a level's tip, the level's selected tip and its blue work come out the same on both sides.
 */
import type { BlockHeader } from '../codec/header.ts';
import { blockLevelMax } from '../consensus/block-level.ts';
import { type BlockId, type GhostdagEngine, createGhostdagEngine } from '../consensus/ghostdag.ts';
import { type NetworkParams, genesisHash } from '../consensus/params.ts';
import { compactToTarget, workFromTarget } from '../consensus/pow.ts';
import { toHex } from '../util/bytes.ts';

export type { BlockId };

/** What every proof function needs to know about the network. */
export interface ProofParams {
  /** GHOSTDAG's k (NetworkParams.ghostdagK). */
  readonly k: number;
  /** NetworkParams.mergesetSizeLimit: also bounds what one proof header can cost the verifier. */
  readonly mergesetSizeLimit: number;
  /** NetworkParams.pruningProofM: a level is full at blue score 2M. */
  readonly m: number;
  /** The pow limit (NetworkParams.maxTarget): fixes the top level and every hash's level. */
  readonly maxTarget: bigint;
  /** The genesis hash, lowercase hex: the one root a short level may have, and at the top level by definition. */
  readonly genesis: BlockId;
}

/** A network's proof parameters; `m` defaults to its pruningProofM (docs/pruning-proof.md "The proof"). */
export function proofParamsOf(network: NetworkParams, m: number = network.pruningProofM): ProofParams {
  return { k: network.ghostdagK, mergesetSizeLimit: network.mergesetSizeLimit, m, maxTarget: network.maxTarget, genesis: toHex(genesisHash(network)) };
}

/** Bit length of a hex number, read without building a bigint (ids are hashed on every level of every header). */
function hexBitLength(hex: string): number {
  for (let i = 0; i < hex.length; i++) {
    const digit = Number.parseInt(hex[i]!, 16);
    if (digit !== 0) return (hex.length - i - 1) * 4 + (32 - Math.clz32(digit));
  }
  return 0;
}

let topCache: { maxTarget: bigint; top: number } | undefined;

/** blockLevelMax, remembered for the last pow limit asked about (every network's is 2^255 − 1). */
function topLevel(maxTarget: bigint): number {
  if (topCache?.maxTarget !== maxTarget) topCache = { maxTarget, top: blockLevelMax(maxTarget) };
  return topCache.top;
}

/** A block's level from its id (blockLevel on the hex form); genesis is at the top level. */
export function levelOfId(id: BlockId, params: Pick<ProofParams, 'maxTarget' | 'genesis'>): number {
  const top = topLevel(params.maxTarget);
  if (id === params.genesis) return top;
  return Math.max(0, top - hexBitLength(id));
}

const runIds = new WeakMap<BlockHeader, { parents: readonly BlockId[]; runs: { until: number; ids: readonly BlockId[] }[] }>();

function idsOf(header: BlockHeader): { parents: readonly BlockId[]; runs: { until: number; ids: readonly BlockId[] }[] } {
  let cached = runIds.get(header);
  if (cached === undefined) {
    let level = 0;
    const runs = (header.levelParents ?? []).map((run) => {
      level += run.levels;
      return { until: level, ids: run.parents.map(toHex) };
    });
    cached = { parents: header.parents.map(toHex), runs };
    runIds.set(header, cached);
  }
  return cached;
}

/**
 * A header's parents at `level` as hex ids: `parents` at level 0, else the run that covers the level. A header
 * without runs (version 1: genesis) has none above level 0. Levels of one run share one array, so equal runs
 * compare by identity.
 */
export function levelParentIds(header: BlockHeader, level: number): readonly BlockId[] {
  const { parents, runs } = idsOf(header);
  if (level === 0) return parents;
  for (const run of runs) if (level <= run.until) return run.ids;
  return [];
}

const bitsWork = new WeakMap<BlockHeader, bigint>();

/**
 * A block's work in level L's GHOSTDAG: the work its bits ask for, but at least the work a level-L hash proves
 * (2^(L + 256 − blockLevelMax) expected hashes; Kaspa's `level_work`), so a level's blocks weigh the same whatever
 * the difficulty was when they were mined. Level 0 uses the bits alone. Throws InvalidBitsError on bad bits.
 */
export function levelWork(header: BlockHeader, level: number, maxTarget: bigint): bigint {
  let work = bitsWork.get(header);
  if (work === undefined) {
    work = workFromTarget(compactToTarget(header.bits));
    bitsWork.set(header, work);
  }
  if (level === 0) return work;
  const floor = 1n << BigInt(level + 256 - topLevel(maxTarget));
  return work > floor ? work : floor;
}

/** GHOSTDAG of one block on a level's sub-DAG: what the comparison and the interlock read. */
interface LevelBlock {
  /** null for the level's root. */
  readonly selectedParent: BlockId | null;
  readonly blueScore: number;
  readonly blueWork: bigint;
}

/** A level's sub-DAG as built so far; the first block added is the root. */
export interface LevelDag {
  readonly level: number;
  /** Adds a block whose parents are all in the DAG (none for the first); throws the engine's errors. */
  add(id: BlockId, parents: readonly BlockId[], work: bigint): LevelBlock;
  get(id: BlockId): LevelBlock | undefined;
  has(id: BlockId): boolean;
  size(): number;
  root(): BlockId | undefined;
  /** The block with the highest (level blue work, hash). */
  selectedTip(): BlockId | undefined;
}

export function createLevelDag(level: number, params: Pick<ProofParams, 'k' | 'mergesetSizeLimit'>): LevelDag {
  const engine: GhostdagEngine = createGhostdagEngine({ k: params.k, mergesetSizeLimit: params.mergesetSizeLimit });
  const blocks = new Map<BlockId, LevelBlock>();
  let root: BlockId | undefined;
  return {
    level,
    add(id, parents, work) {
      const data = root === undefined ? engine.addGenesis(id, work) : engine.addBlock(id, parents, work);
      root ??= id;
      const block: LevelBlock = { selectedParent: data.selectedParent, blueScore: data.blueScore, blueWork: data.blueWork };
      blocks.set(id, block);
      return block;
    },
    get: (id) => blocks.get(id),
    has: (id) => blocks.has(id),
    size: () => blocks.size,
    root: () => root,
    selectedTip: () => engine.selectedTip(),
  };
}

/**
 * The block `depth` deep below `high` on a level's selected chain: the first chain block whose blue score is more
 * than `depth` below high's, or the root when the chain is shorter (Kaspa's `block_at_depth`).
 */
export function blockAtDepth(dag: Pick<LevelDag, 'get'>, high: BlockId, depth: number): BlockId {
  const highScore = dag.get(high)!.blueScore;
  let current = high;
  let block = dag.get(current)!;
  while (block.blueScore + depth >= highScore && block.selectedParent !== null) {
    current = block.selectedParent;
    block = dag.get(current)!;
  }
  return current;
}
