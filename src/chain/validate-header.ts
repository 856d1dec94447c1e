/**
 * The header stages of the validation pipeline, cheapest first: in isolation (no store reads), PoW (one hash),
 * then in context (parents known, GHOSTDAG, DAA, timestamps). Nothing is written before all stages pass.
 */
import type { BlockHeader } from '../codec/header.ts';
import type { BlockId, GhostdagData, GhostdagEngine } from '../consensus/ghostdag.ts';
import { InvalidParentsError, MergesetTooLargeError } from '../consensus/ghostdag-errors.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { compactToTarget, hashMeetsTarget } from '../consensus/pow.ts';
import { headerParentsMax } from '../limits.ts';
import { compareBytes } from '../util/bytes.ts';
import { BlockRuleError } from './errors.ts';
import type { IndexedBlock } from './block-index.ts';
import { expectedBits, pastMedianTimeMs } from './child-rules.ts';

/**
 * Rules that need nothing but the header and the clock, for a non-genesis header. Returns the target the bits
 * encode. Every non-genesis block is of the network's header version (genesis is version 1 everywhere).
 */
export function validateHeaderInIsolation(header: BlockHeader, params: NetworkParams, nowMs: number): bigint {
  if (header.version !== params.headerVersion) {
    throw new BlockRuleError('header.version', `version ${header.version}, expected ${params.headerVersion} on ${params.name}`);
  }
  if (header.parents.length === 0) throw new BlockRuleError('header.parents.missing', 'a non-genesis block needs a parent');
  if (header.parents.length > Math.min(params.maxParents, headerParentsMax)) {
    throw new BlockRuleError('header.parents.too-many', `${header.parents.length} parents, at most ${params.maxParents}`);
  }
  for (let i = 1; i < header.parents.length; i++) {
    if (compareBytes(header.parents[i - 1]!, header.parents[i]!) >= 0) {
      throw new BlockRuleError('header.parents.unsorted', `parent ${i} is not above parent ${i - 1}: parents must be sorted and unique`);
    }
  }
  if (header.miner.length !== 33 || header.miner[0]! > 1) {
    throw new BlockRuleError('header.miner.invalid', 'miner must be a 33-byte address of type 0 (standard) or 1 (multisig)');
  }
  if (header.timestampMs > nowMs + params.timestampFutureBoundMs) {
    throw new BlockRuleError(
      'header.timestamp.future',
      `timestamp ${header.timestampMs} is more than ${params.timestampFutureBoundMs} ms ahead of ${nowMs}`,
    );
  }
  let target: bigint;
  try {
    target = compactToTarget(header.bits);
  } catch (cause) {
    throw new BlockRuleError('header.bits.invalid', `bits 0x${header.bits.toString(16)} is not a valid compact target`, cause);
  }
  if (target <= 0n || target > params.maxTarget) {
    throw new BlockRuleError('header.bits.invalid', `bits 0x${header.bits.toString(16)} encodes a target outside 1..maxTarget`);
  }
  return target;
}

export function validatePow(hash: Uint8Array, target: bigint): void {
  if (!hashMeetsTarget(hash, target)) {
    throw new BlockRuleError('pow.insufficient', 'block hash is above the target its bits encode');
  }
}

interface HeaderContext {
  readonly ghostdag: GhostdagData;
  readonly mergesetSize: number;
  readonly selectedParentDaaScore: number;
  readonly expectedBits: number;
  readonly pastMedianTimeMs: number;
}

/** Rules that need the parents: GHOSTDAG's figures, the DAA's bits and the past median time. */
function validateHeaderInContext(header: BlockHeader, ctx: HeaderContext): void {
  if (header.bits !== ctx.expectedBits) {
    throw new BlockRuleError('context.bits.mismatch', `bits 0x${header.bits.toString(16)}, DAA expects 0x${ctx.expectedBits.toString(16)}`);
  }
  if (header.timestampMs <= ctx.pastMedianTimeMs) {
    throw new BlockRuleError('context.timestamp.too-old', `timestamp ${header.timestampMs} ≤ past median time ${ctx.pastMedianTimeMs}`);
  }
  if (header.blueScore !== ctx.ghostdag.blueScore) {
    throw new BlockRuleError('context.blue-score.mismatch', `blue score ${header.blueScore}, GHOSTDAG gives ${ctx.ghostdag.blueScore}`);
  }
  if (header.blueWork !== ctx.ghostdag.blueWork) {
    throw new BlockRuleError('context.blue-work.mismatch', `blue work ${header.blueWork}, GHOSTDAG gives ${ctx.ghostdag.blueWork}`);
  }
  const daaScore = ctx.selectedParentDaaScore + ctx.mergesetSize;
  if (header.daaScore !== daaScore) {
    throw new BlockRuleError('context.daa-score.mismatch', `DAA score ${header.daaScore}, expected ${daaScore}`);
  }
}

/** GHOSTDAG for a header's parents, with the engine's DAG-rule failures turned into the block's coded rule errors. */
export function ghostdagOfParents(engine: Pick<GhostdagEngine, 'computeBlock'>, parentIds: readonly BlockId[], work: bigint): GhostdagData {
  try {
    return engine.computeBlock(parentIds, work);
  } catch (cause) {
    if (cause instanceof MergesetTooLargeError) throw new BlockRuleError('context.mergeset.too-large', cause.message);
    if (cause instanceof InvalidParentsError) throw new BlockRuleError('context.parents.redundant', cause.message);
    throw cause;
  }
}

/** The context stage against the selected parent: its DAA window's bits, its past median time, GHOSTDAG's figures. */
export function validateHeaderAgainstParent(header: BlockHeader, ghostdag: GhostdagData, selectedParent: IndexedBlock, params: NetworkParams): void {
  validateHeaderInContext(header, {
    ghostdag,
    mergesetSize: ghostdag.mergesetBlues.length + ghostdag.mergesetReds.length,
    selectedParentDaaScore: selectedParent.header.daaScore,
    expectedBits: expectedBits(params, selectedParent),
    pastMedianTimeMs: pastMedianTimeMs(params, selectedParent),
  });
}
