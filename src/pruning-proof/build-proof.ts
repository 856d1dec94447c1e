/**
 * Builds the pruning-point proof (docs/pruning-proof.md "The proof"; rusty-kaspa's `build.rs`, simplified): for each
 * level from the top down, the headers of level L's sub-DAG between a root and the level's selected tip, in
 * topological order. The root is sought along the level's heaviest parents: deep enough that the tip's blue score at
 * the level is ≥ 2M (or it is genesis), and an ancestor of the block M deep below level L + 1's tip (the interlock).
 *
 * Work bound, per level: the headers read are those of level ≥ L in the tip's past whose claimed blue work lies
 * above the final root's, i.e. the final list plus the side blocks beside it, once each (parents are cached across
 * attempts). The first attempt puts the root max(2M, e) heaviest-parent steps below the tip, e being the interlock
 * block's depth (≈ 2M, since level L + 1 is half as dense); each retry deepens by the blue-score shortfall and at
 * least an eighth, so the root overshoots what is needed by at most an eighth and an honest DAG needs one or two
 * attempts (each a GHOSTDAG pass over the list). A level therefore reads about 2M–2.5M headers plus side blocks.
 */
import type { BlockHeader } from '../codec/header.ts';
import { blockLevelMax } from '../consensus/block-level.ts';
import { type BlockId, type LevelDag, type ProofParams, blockAtDepth, createLevelDag, levelOfId, levelParentIds, levelWork } from './level-dag.ts';
import { ProofBuildError } from './proof-errors.ts';
import type { PruningProof } from './pruning-proof.ts';

/** What the builder reads: headers by id (the full node's header store; a Map in tests). */
export interface ProofHeaderSource {
  /** The header whose hash is `id` (lowercase hex), or undefined when this node does not hold it. */
  header(id: BlockId): BlockHeader | undefined;
}

/** Per-level figures, for tests and logs. */
export interface ProofLevelStats {
  readonly level: number;
  readonly root: BlockId;
  readonly tip: BlockId;
  readonly headers: number;
  readonly tipBlueScore: number;
  /** Distinct headers whose parents at this level were read. */
  readonly visited: number;
  /** Roots tried (GHOSTDAG passes over a candidate list). */
  readonly attempts: number;
}

export function buildPruningProof(
  source: ProofHeaderSource,
  pruningPoint: BlockId,
  params: ProofParams,
  onLevel?: (stats: ProofLevelStats) => void,
): PruningProof {
  const levels = buildLevels(source, pruningPoint, params, onLevel);
  for (let step = levels.next(); ; step = levels.next()) if (step.done) return step.value;
}

/**
 * The same proof, built a level at a time with `pause()` awaited between levels, so a serving node's event loop
 * (blocks, RPC) waits for one level's work at most — about a fifth of the whole at mainnet's M = 1,000 — not all of it.
 */
export async function buildPruningProofInSteps(
  source: ProofHeaderSource,
  pruningPoint: BlockId,
  params: ProofParams,
  pause: () => Promise<void>,
): Promise<PruningProof> {
  const levels = buildLevels(source, pruningPoint, params);
  for (let step = levels.next(); ; step = levels.next()) {
    if (step.done) return step.value;
    await pause();
  }
}

/** Yields between the levels it builds, from the top level down; returns the proof. */
function* buildLevels(
  source: ProofHeaderSource,
  pruningPoint: BlockId,
  params: ProofParams,
  onLevel?: (stats: ProofLevelStats) => void,
): Generator<number, PruningProof> {
  const top = blockLevelMax(params.maxTarget);
  const header = (id: BlockId): BlockHeader => {
    const h = source.header(id);
    if (h === undefined) throw new ProofBuildError(`pruning proof: header ${id} is not in the store`, { id });
    return h;
  };
  const ppHeader = header(pruningPoint);
  const ppLevel = levelOfId(pruningPoint, params);
  const levels: BlockHeader[][] = new Array(top + 1);
  let above: { dag: LevelDag; tip: BlockId } | undefined;
  for (let level = top; level >= 0; level--) {
    const tip = level <= ppLevel ? pruningPoint : heaviest(levelParentIds(ppHeader, level).filter((p) => source.header(p) !== undefined), source);
    if (tip === undefined) throw new ProofBuildError(`pruning proof: the pruning point has no stored parent at level ${level}`, { level });
    const required = above === undefined ? tip : blockAtDepth(above.dag, above.tip, params.m);
    const built = buildLevel(source, header, level, tip, required, params);
    levels[level] = built.ids.map(header);
    onLevel?.({ level, root: built.ids[0]!, tip, headers: built.ids.length, tipBlueScore: built.dag.get(tip)!.blueScore, visited: built.visited, attempts: built.attempts });
    above = { dag: built.dag, tip };
    if (level > 0) yield level;
  }
  return { levels };
}

/** The parent of highest (claimed blue work, hash): the builder's guess at the level's selected chain. */
function heaviest(ids: readonly BlockId[], source: ProofHeaderSource): BlockId | undefined {
  let best: BlockId | undefined;
  let bestWork = -1n;
  for (const id of ids) {
    const work = source.header(id)!.blueWork;
    if (work > bestWork || (work === bestWork && id > best!)) {
      best = id;
      bestWork = work;
    }
  }
  return best;
}

interface BuiltLevel {
  readonly ids: BlockId[];
  readonly dag: LevelDag;
  readonly visited: number;
  readonly attempts: number;
}

function buildLevel(
  source: ProofHeaderSource,
  header: (id: BlockId) => BlockHeader,
  level: number,
  tip: BlockId,
  required: BlockId,
  params: ProofParams,
): BuiltLevel {
  const parentsCache = new Map<BlockId, readonly BlockId[]>();
  // Parents a pruned store no longer holds are skipped: a root only needs to be deep enough, not the deepest.
  const parentsOf = (id: BlockId): readonly BlockId[] => {
    let parents = parentsCache.get(id);
    if (parents === undefined) {
      parents = levelParentIds(header(id), level).filter((p) => source.header(p) !== undefined);
      parentsCache.set(id, parents);
    }
    return parents;
  };
  const work = (id: BlockId): bigint => header(id).blueWork;
  const heavyParent = (id: BlockId): BlockId | undefined => heaviest(parentsOf(id), source);

  // e: the interlock block's depth below the tip, counted along the tip's heaviest parents.
  let e = 0;
  for (let c: BlockId | undefined = tip; c !== undefined && work(c) > work(required); c = heavyParent(c)) e++;
  let depth = Math.max(2 * params.m, e);
  for (let attempts = 1; ; attempts++) {
    let root = required;
    for (let s = e; s < depth; s++) {
      const next = heavyParent(root);
      if (next === undefined) break;
      root = next;
    }
    const ids = diamond(root, tip, parentsOf, work);
    if (!ids.includes(required) || !ids.includes(tip)) {
      throw new ProofBuildError(`pruning proof level ${level}: block ${required} (M deep at level ${level + 1}) is not in the past of the tip ${tip}`, { level });
    }
    const dag = createLevelDag(level, params);
    for (const id of ids) dag.add(id, id === root ? [] : parentsOf(id).filter((p) => dag.has(p)), levelWork(header(id), level, params.maxTarget));
    const score = dag.get(tip)!.blueScore;
    if (root === params.genesis || score >= 2 * params.m) return { ids, dag, visited: parentsCache.size, attempts };
    if (heavyParent(root) === undefined) {
      throw new ProofBuildError(`pruning proof level ${level}: blue score ${score} < 2M and no header below ${root}`, { level, root });
    }
    depth += Math.max(2 * params.m - score, Math.ceil(depth / 8));
  }
}

/**
 * future(root) ∩ past(tip) at this level, with both ends, sorted by (claimed blue work, id): a topological order,
 * since blue work grows along every edge. Walks back from the tip over blocks heavier than the root (no lighter one
 * can be in the root's future), then keeps what the root reaches.
 */
function diamond(root: BlockId, tip: BlockId, parentsOf: (id: BlockId) => readonly BlockId[], work: (id: BlockId) => bigint): BlockId[] {
  const floor = work(root);
  const children = new Map<BlockId, BlockId[]>();
  const seen = new Set<BlockId>([tip]);
  const stack = [tip];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === root) continue;
    for (const p of parentsOf(id)) {
      if (p !== root && work(p) <= floor) continue;
      const list = children.get(p);
      if (list === undefined) children.set(p, [id]);
      else list.push(id);
      if (!seen.has(p)) {
        seen.add(p);
        stack.push(p);
      }
    }
  }
  const kept = new Set<BlockId>([root]);
  const queue = [root];
  for (let q = 0; q < queue.length; q++) {
    for (const child of children.get(queue[q]!) ?? []) {
      if (!kept.has(child)) {
        kept.add(child);
        queue.push(child);
      }
    }
  }
  const weights = new Map([...kept].map((id) => [id, work(id)]));
  return [...kept].sort((a, b) => {
    const d = weights.get(a)! - weights.get(b)!;
    return d < 0n ? -1 : d > 0n ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
}
