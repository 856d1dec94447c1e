/**
 * Verifies a pruning-point proof (docs/pruning-proof.md "Verification"; rusty-kaspa's `ProofContext::from_proof`):
 * levels from the top down, each header checked and added to its level's GHOSTDAG, then the level's four closing
 * rules. Pure: the full node and the browser tab run it unchanged. What it returns is what the comparison
 * (compare-proofs.ts) and the joining code need: the pruning point and each level's GHOSTDAG.
 *
 * Cost: one PoW hash per header object (cached), one GHOSTDAG insertion per header and level, each bounded by the
 * mergeset size limit. A level whose list, parents and work equal the level above's is not recomputed.
 */
import type { BlockHeader } from '../codec/header.ts';
import { blockLevelMax } from '../consensus/block-level.ts';
import { blockHash, compactToTarget, hashMeetsTarget } from '../consensus/pow.ts';
import { WeftError } from '../errors.ts';
import { toHex } from '../util/bytes.ts';
import {
  type BlockId,
  type LevelDag,
  type ProofParams,
  blockAtDepth,
  createLevelDag,
  levelOfId,
  levelParentIds,
  levelWork,
} from './level-dag.ts';
import { ProofError } from './proof-errors.ts';
import type { PruningProof } from './pruning-proof.ts';

/** One verified level: its GHOSTDAG over the proof's headers and its selected tip. */
export interface VerifiedLevel {
  readonly level: number;
  /** The level's first header (hanging from the virtual origin). */
  readonly root: BlockId;
  /** The level's selected tip (its last header). */
  readonly tip: BlockId;
  readonly tipBlueScore: number;
  readonly tipBlueWork: bigint;
  readonly headerCount: number;
  /** GHOSTDAG data of the level's headers, at this level. */
  readonly blocks: Pick<LevelDag, 'get' | 'has' | 'selectedTip'>;
}

export interface VerifiedProof {
  /** The last header of level 0. */
  readonly pruningPoint: BlockHeader;
  readonly pruningPointId: BlockId;
  readonly pruningPointLevel: number;
  /** Index L: level L, 0..blockLevelMax. */
  readonly levels: readonly VerifiedLevel[];
  /** Distinct headers (by id) over all levels. */
  readonly distinctHeaders: number;
}

export function verifyPruningProof(proof: PruningProof, params: ProofParams): VerifiedProof {
  const top = blockLevelMax(params.maxTarget);
  const lists = proof.levels;
  if (lists.length !== top + 1) {
    throw new ProofError('levels', `proof: expected ${top + 1} levels, got ${lists.length}`, { levels: lists.length });
  }
  const ppHeader = lists[0]![lists[0]!.length - 1];
  if (ppHeader === undefined) throw new ProofError('levels', 'proof: level 0 is empty; expected it to end at the pruning point');
  const ids = new Map<BlockHeader, BlockId>();
  const idOf = (h: BlockHeader): BlockId => {
    let id = ids.get(h);
    if (id === undefined) {
      id = toHex(blockHash(h));
      ids.set(h, id);
    }
    return id;
  };
  const ppId = idOf(ppHeader);
  const ppLevel = levelOfId(ppId, params);
  const levels: VerifiedLevel[] = new Array(top + 1);
  const distinct = new Set<BlockId>();

  for (let level = top; level >= 0; level--) {
    const list = lists[level]!;
    if (list.length === 0) throw new ProofError('levels', `proof level ${level}: empty; expected at least its selected tip`);
    const above = level < top ? lists[level + 1]! : undefined;
    const reused = above !== undefined && sameLevelDag(list, above, level, params.maxTarget, idOf) ? levels[level + 1]!.blocks : undefined;
    const dag = reused ?? verifyLevelHeaders(list, level, params, idOf);
    for (const h of list) distinct.add(idOf(h));

    const tip = dag.selectedTip()!;
    if (level < top) {
      const next = levels[level + 1]!;
      const required = blockAtDepth(next.blocks, next.tip, params.m);
      if (!dag.has(required)) {
        throw new ProofError('interlock', `proof level ${level}: block ${required}, ${params.m} deep below level ${level + 1}'s tip, is missing`, { level, required });
      }
    }
    if (level <= ppLevel ? tip !== ppId : !levelParentIds(ppHeader, level).includes(tip)) {
      const expected = level <= ppLevel ? `the pruning point ${ppId}` : `one of the pruning point's parents at level ${level}`;
      throw new ProofError('tip', `proof level ${level}: selected tip ${tip}; expected ${expected}`, { level, tip });
    }
    const last = idOf(list[list.length - 1]!);
    if (last !== tip) throw new ProofError('tip-last', `proof level ${level}: last header ${last}; expected the selected tip ${tip}`, { level, tip, last });
    const tipData = dag.get(tip)!;
    const root = idOf(list[0]!);
    if (root !== params.genesis && tipData.blueScore < 2 * params.m) {
      throw new ProofError('too-short', `proof level ${level}: selected tip blue score ${tipData.blueScore}; expected at least ${2 * params.m} (2M) or a genesis root`, {
        level,
        blueScore: tipData.blueScore,
      });
    }
    levels[level] = { level, root, tip, tipBlueScore: tipData.blueScore, tipBlueWork: tipData.blueWork, headerCount: list.length, blocks: dag };
  }
  return { pruningPoint: ppHeader, pruningPointId: ppId, pruningPointLevel: ppLevel, levels, distinctHeaders: distinct.size };
}

/** Rules 2–6 over one level's list, in the order level/PoW, duplicate, disconnected, blue work, GHOSTDAG. */
function verifyLevelHeaders(list: readonly BlockHeader[], level: number, params: ProofParams, idOf: (h: BlockHeader) => BlockId): LevelDag {
  const dag = createLevelDag(level, params);
  const headers = new Map<BlockId, BlockHeader>();
  list.forEach((header, i) => {
    const id = idOf(header);
    const headerLevel = levelOfId(id, params);
    if (headerLevel < level) {
      throw new ProofError('header-level', `proof level ${level}: header ${id} is at level ${headerLevel}; expected ≥ ${level}`, { level, id });
    }
    if (id !== params.genesis && !meetsOwnTarget(id, header, params.maxTarget)) {
      throw new ProofError('header-level', `proof level ${level}: header ${id} fails its proof of work (bits 0x${header.bits.toString(16)}, or bits easier than the pow limit)`, { level, id });
    }
    if (headers.has(id)) throw new ProofError('duplicate', `proof level ${level}: header ${id} appears twice`, { level, id });
    const parents = levelParentIds(header, level).filter((p) => headers.has(p));
    if (parents.length === 0 && i !== 0) {
      throw new ProofError('disconnected', `proof level ${level}: header ${id} (#${i}) has none of its level-${level} parents earlier in the list`, { level, id });
    }
    for (const p of parents) {
      if (headers.get(p)!.blueWork >= header.blueWork) {
        throw new ProofError('blue-work', `proof level ${level}: header ${id} claims blue work ${header.blueWork}, not above its parent ${p}'s ${headers.get(p)!.blueWork}`, {
          level,
          id,
          parent: p,
        });
      }
    }
    headers.set(id, header);
    try {
      dag.add(id, parents, levelWork(header, level, params.maxTarget));
    } catch (error) {
      if (error instanceof WeftError && error.kind === 'dag_rule') {
        throw new ProofError('ghostdag', `proof level ${level}: header ${id}: ${error.message}`, { level, id });
      }
      throw error;
    }
  });
  return dag;
}

/** The hash meets the header's bits, which must be canonical and no easier than the pow limit. */
function meetsOwnTarget(id: BlockId, header: BlockHeader, maxTarget: bigint): boolean {
  let target: bigint;
  try {
    target = compactToTarget(header.bits);
  } catch {
    return false;
  }
  return target <= maxTarget && hashMeetsTarget(hexBytes(id), target);
}

const hexBytes = (id: BlockId): Uint8Array => Uint8Array.from(id.match(/../g)!, (b) => Number.parseInt(b, 16));

/**
 * Level L's sub-DAG is level L + 1's when the lists hold the same headers in the same order, every header has the
 * same parents at both levels and the same work: then GHOSTDAG gives the same data, and level L is not recomputed
 * (the levels below the lowest level any block reached, and the all-genesis levels at the top).
 */
function sameLevelDag(
  list: readonly BlockHeader[],
  above: readonly BlockHeader[],
  level: number,
  maxTarget: bigint,
  idOf: (h: BlockHeader) => BlockId,
): boolean {
  if (list.length !== above.length) return false;
  for (let i = 0; i < list.length; i++) {
    const a = list[i]!;
    const b = above[i]!;
    if (a !== b && idOf(a) !== idOf(b)) return false;
    const pa = levelParentIds(a, level);
    const pb = levelParentIds(b, level + 1);
    if (pa !== pb && (pa.length !== pb.length || pa.some((p, j) => p !== pb[j]))) return false;
    if (list.length > 1 && levelWork(a, level, maxTarget) !== levelWork(b, level + 1, maxTarget)) return false;
  }
  return true;
}
