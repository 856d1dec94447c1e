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
import { assert } from '../errors.ts';
import { headerLevelsCovered, headerParentsMax } from '../limits.ts';
import { compareBytes, fromHex, toHex } from '../util/bytes.ts';

/** What the computation reads of the DAG; every id it asks about is a known block. */
export interface LevelParentsSource {
  header(id: BlockId): BlockHeader;
  /** The block's level (src/consensus/block-level.ts); genesis is at the top level. */
  level(id: BlockId): number;
  /** a ∈ past(b), a ≠ b. */
  isDagAncestorOf(a: BlockId, b: BlockId): boolean;
  blueWork(id: BlockId): bigint;
}

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
    for (const run of source.header(p).levelParents ?? []) {
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
      const own = levelParentsAt(source.header(p), level);
      assert(own !== undefined, `block ${p} below level ${level} carries no level parents (a version 1 block under a version 2 one)`);
      for (const q of own) candidates.add(toHex(q));
    });
    const chosen = maximalOf(source, [...candidates], maxParents);
    const last = runs[runs.length - 1];
    if (last !== undefined && sameIds(last.parents, chosen)) runs[runs.length - 1] = { levels: last.levels + width, parents: last.parents };
    else runs.push({ levels: width, parents: chosen.map(fromHex).sort(compareBytes) });
  });
  return runs;
}

/** The candidates in no other candidate's past; past `maxParents`, those of highest (blue work, hash). */
function maximalOf(source: LevelParentsSource, candidates: BlockId[], maxParents: number): BlockId[] {
  const maximal = candidates.filter((c) => !candidates.some((d) => d !== c && source.isDagAncestorOf(c, d)));
  if (maximal.length <= maxParents) return maximal;
  const byWork = (a: BlockId, b: BlockId): number => {
    const wa = source.blueWork(a);
    const wb = source.blueWork(b);
    return wa === wb ? compareHashesDefault(b, a) : wa > wb ? -1 : 1;
  };
  return maximal.sort(byWork).slice(0, maxParents);
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
