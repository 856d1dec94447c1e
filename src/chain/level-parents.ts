/**
 * A version 2 header's level parents (docs/pruning-proof.md "Header version 2"; rusty-kaspa's parents_builder.rs):
 * for each level L ≥ 1, the maximal blocks of level ≥ L in the block's past, found from its direct parents alone —
 * each parent P gives itself when level(P) ≥ L, else its own level-L parents; a candidate in another's past is
 * dropped. By induction that is exactly the set of maximal level-≥L blocks of the past (a maximal one is either a
 * direct parent or maximal in the past of a parent below L). Templates and header-in-context both call it, over
 * whatever holds the DAG: the full node's block index and engine, or the light chain's in-memory ones.
 */
import { levelParentsAt, type BlockHeader, type LevelParentsRun } from '../codec/header.ts';
import { blockLevel, blockLevelMax } from '../consensus/block-level.ts';
import type { BlockId } from '../consensus/ghostdag.ts';
import { compareHashesDefault } from '../consensus/ghostdag-order.ts';
import { assert, WeftError } from '../errors.ts';
import { headerLevelsCovered, headerParentsMax } from '../limits.ts';
import { compareBytes, fromHex, toHex } from '../util/bytes.ts';

/**
 * What the computation reads of the DAG. A block may be held as a header only, with no reachability data: one below
 * a pruned node's kept set, or below a joined chain's trusted blocks (kept for the pruning-point proof). Such a block
 * is older than every block with reachability data (blue score grows along every edge and the kept set is everything
 * above a blue score), so it is never in their future; whether it is in their past is found by walking level parents
 * down from them (`isAncestorAtLevel`), which gives the same answer reachability would.
 */
export interface LevelParentsSource {
  /** The header of a block held by id, with or without reachability data; undefined when not held at all. */
  header(id: BlockId): BlockHeader | undefined;
  /** The block's level (src/consensus/block-level.ts); genesis is at the top level. */
  level(id: BlockId): number;
  /** Whether `isDagAncestorOf` can answer for this block. */
  hasReachability(id: BlockId): boolean;
  /** a ∈ past(b), a ≠ b; both have reachability data. */
  isDagAncestorOf(a: BlockId, b: BlockId): boolean;
  /** Blue work of a block with reachability data (ties among too many parents). */
  blueWork(id: BlockId): bigint;
}

/** Blocks one ancestry walk may visit before the block is refused as undecidable here (never on honest DAGs). */
const levelWalkVisitsMax = 10_000;

export interface LevelParentsOptions {
  /** Levels the runs cover (1..levels); default 255, every Weft network's top level. */
  readonly levels?: number;
  /** Most parents a level keeps (those of highest blue work, ties to the higher hash); default headerParentsMax. */
  readonly maxParents?: number;
}

/** A block's level from its id, genesis at the top: what a LevelParentsSource's `level` usually is. */
export function levelOfBlock(maxTarget: bigint, genesisId: BlockId): (id: BlockId) => number {
  const top = blockLevelMax(maxTarget);
  return (id) => (id === genesisId ? top : blockLevel(fromHex(id), maxTarget));
}

/** The runs of a new block whose direct parents are `parents` (known blocks). */
export function computeLevelParents(source: LevelParentsSource, parents: readonly BlockId[], options: LevelParentsOptions = {}): LevelParentsRun[] {
  const levels = options.levels ?? headerLevelsCovered;
  const maxParents = options.maxParents ?? headerParentsMax;
  const parentLevels = parents.map((p) => source.level(p));
  // The candidates can change only where a parent drops below the level or one of its own runs starts: the answer is
  // computed once per such segment, with at most one set of reachability queries each.
  const starts = new Set<number>([1]);
  parents.forEach((p, i) => {
    if (parentLevels[i]! >= levels) return;
    starts.add(parentLevels[i]! + 1);
    let start = 1;
    for (const run of headerOf(source, p).levelParents ?? []) {
      if (start > parentLevels[i]!) starts.add(start);
      start += run.levels;
    }
  });
  const bounds = [...starts].filter((l) => l <= levels).sort((a, b) => a - b);
  const runs: LevelParentsRun[] = [];
  bounds.forEach((level, i) => {
    const width = (bounds[i + 1] ?? levels + 1) - level;
    const candidates = new Set<BlockId>();
    parents.forEach((p, j) => {
      if (parentLevels[j]! >= level) {
        candidates.add(p);
        return;
      }
      const own = levelParentsAt(headerOf(source, p), level);
      assert(own !== undefined, `block ${p} below level ${level} carries no level parents (a version 1 block under a version 2 one)`);
      for (const q of own) candidates.add(toHex(q));
    });
    const chosen = maximalOf(source, [...candidates], level, maxParents);
    const last = runs[runs.length - 1];
    if (last !== undefined && sameIds(last.parents, chosen)) runs[runs.length - 1] = { levels: last.levels + width, parents: last.parents };
    else runs.push({ levels: width, parents: chosen.map(fromHex).sort(compareBytes) });
  });
  return runs;
}

function headerOf(source: LevelParentsSource, id: BlockId): BlockHeader {
  const header = source.header(id);
  if (header === undefined) throw new LevelParentsUnknownError(`level parents: block ${id} is not held here, not even as a header`);
  return header;
}

/** The candidates in no other candidate's past; past `maxParents`, those of highest (blue work, hash). */
function maximalOf(source: LevelParentsSource, candidates: BlockId[], level: number, maxParents: number): BlockId[] {
  const maximal = candidates.filter((c) => !candidates.some((d) => d !== c && isAncestorAtLevel(source, c, d, level)));
  if (maximal.length <= maxParents) return maximal;
  const work = (id: BlockId): bigint => (source.hasReachability(id) ? source.blueWork(id) : headerOf(source, id).blueWork);
  const byWork = (a: BlockId, b: BlockId): number => {
    const wa = work(a);
    const wb = work(b);
    return wa === wb ? compareHashesDefault(b, a) : wa > wb ? -1 : 1;
  };
  return maximal.sort(byWork).slice(0, maxParents);
}

/**
 * a ∈ past(b), for two blocks of level ≥ `level`. With reachability data for both, the engine answers. Otherwise a
 * is held as a header only, so it is older than every block with reachability data: when b has reachability and a
 * does not, a may still be in b's past, which the walk finds — every level-≥L block of b's past is a level parent of
 * b or in the past of one, so walking level-L parents down from b, never below a's blue score, reaches a exactly
 * when a ∈ past(b). When b lacks reachability and a has it, a is newer than b: not in its past.
 */
function isAncestorAtLevel(source: LevelParentsSource, a: BlockId, b: BlockId, level: number): boolean {
  const aKnown = source.hasReachability(a);
  const bKnown = source.hasReachability(b);
  if (aKnown && bKnown) return source.isDagAncestorOf(a, b);
  if (aKnown) return false;
  const floor = headerOf(source, a).blueScore;
  const seen = new Set<BlockId>([b]);
  const stack = [b];
  while (stack.length > 0) {
    for (const hash of levelParentsAt(headerOf(source, stack.pop()!), level) ?? []) {
      const id = toHex(hash);
      if (id === a) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      if (seen.size > levelWalkVisitsMax) throw new LevelParentsUnknownError(`level parents: deciding whether ${a} is in the past of ${b} at level ${level} visits more than ${levelWalkVisitsMax} blocks`);
      // Only a block newer than a can have a in its past; every block with reachability data is newer.
      if (!source.hasReachability(id) && headerOf(source, id).blueScore <= floor) continue;
      stack.push(id);
    }
  }
  return false;
}

/**
 * A level-parents question this node cannot answer from what it holds (a block it never had, or a walk too long).
 * Not a block rule: the block is not marked invalid, since another node holding more could validate it.
 */
class LevelParentsUnknownError extends WeftError {
  constructor(message: string) {
    super('internal', message);
  }
}

const sameIds = (hashes: readonly Uint8Array[], ids: readonly BlockId[]): boolean => {
  if (hashes.length !== ids.length) return false;
  const set = new Set(ids);
  return hashes.every((h) => set.has(toHex(h)));
};

/** True when two run lists are the same runs of the same parents. */
export function sameLevelParents(a: readonly LevelParentsRun[], b: readonly LevelParentsRun[]): boolean {
  return a.length === b.length && a.every((run, i) => {
    const other = b[i]!;
    return run.levels === other.levels && run.parents.length === other.parents.length && run.parents.every((p, j) => compareBytes(p, other.parents[j]!) === 0);
  });
}

/** A short human form of runs for error messages: "3×[ab12…, cd34…] 252×[ef56…]". */
export function describeLevelParents(runs: readonly LevelParentsRun[] | undefined): string {
  if (runs === undefined) return 'none';
  return runs.map((run) => `${run.levels}×[${run.parents.map((p) => `${toHex(p).slice(0, 8)}…`).join(', ')}]`).join(' ');
}
