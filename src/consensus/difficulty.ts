/**
 * The difficulty adjustment (DAA), in the spirit of Kaspa's windowed DAA (rusty-kaspa processes/difficulty.rs) but
 * O(1) per block: the window is the selected-parent chain from S (the new block's selected parent) back to A, and
 * only its two end headers are read (docs/consensus.md "Difficulty adjustment"):
 *
 *   blocks  = S.daaScore − A.daaScore              blocks created in the window, reds included
 *   elapsed = max(S.timestampMs − A.timestampMs, 1)
 *   work    = (S.blueWork − A.blueWork) · blocks / (S.blueScore − A.blueScore)
 *             the work done in the window: blue work per blue block, times every block
 *   next    = work · targetBlockTimeMs / elapsed   the work per block that the observed hash rate does in one
 *                                                  target block time
 *
 * The new target is 2^256/next − 1, clamped to [current/daaStepFactorMax, current·daaStepFactorMax] and to
 * [1, maxTarget]. Using blue work (the harmonic mean of the window's targets) rather than Kaspa's arithmetic mean
 * of targets keeps the estimate unbiased when difficulty moves inside the window (its span).
 *
 * Genesis is never a window end: its timestamp is fixed long before the network starts. A child of genesis, or of
 * genesis' chain child, copies its selected parent's bits; after that the window is what exists, up to
 * daaWindowBlocks chain blocks (daaWindow below picks it).
 */
import { assert } from '../errors.ts';
import type { NetworkParams } from './params.ts';
import { compactToTarget, targetFromWork, targetToCompact } from './pow.ts';

/** What the DAA reads from a window end: header fields, so a node needs only the two end headers. */
export interface DaaPoint {
  readonly timestampMs: number;
  readonly daaScore: number;
  readonly blueScore: number;
  readonly blueWork: bigint;
  readonly bits: number;
}

export type DaaParams = Pick<NetworkParams, 'targetBlockTimeMs' | 'daaWindowBlocks' | 'daaStepFactorMax' | 'maxTarget'>;

export interface DaaWindow {
  /** Chain height (selected-chain length from genesis) of the window start A. */
  readonly startHeight: number;
  /** Chain blocks from A to S: S.height − A.height; 0 means "copy S's bits". */
  readonly windowBlocks: number;
}

/** The window for a child of the chain block at `selectedParentHeight`: never starting at genesis (height 0). */
export function daaWindow(params: Pick<NetworkParams, 'daaWindowBlocks'>, selectedParentHeight: number): DaaWindow {
  if (selectedParentHeight <= 1) return { startHeight: selectedParentHeight, windowBlocks: 0 };
  const startHeight = Math.max(1, selectedParentHeight - params.daaWindowBlocks);
  return { startHeight, windowBlocks: selectedParentHeight - startHeight };
}

/**
 * The bits a child of S must carry. `windowEnd` = S, `windowStart` = A, `windowBlocks` = chain blocks from A to S
 * (daaWindow gives A's height). windowBlocks 0 copies S's bits.
 */
export function nextBits(params: DaaParams, windowEnd: DaaPoint, windowStart: DaaPoint, windowBlocks: number): number {
  if (windowBlocks <= 0) return windowEnd.bits;
  assert(windowStart.daaScore > 0, 'the DAA window must not start at genesis (use daaWindow)');
  const blocks = windowEnd.daaScore - windowStart.daaScore;
  const blues = windowEnd.blueScore - windowStart.blueScore;
  const blueWork = windowEnd.blueWork - windowStart.blueWork;
  assert(blocks >= windowBlocks && blues >= windowBlocks && blueWork > 0n, 'DAA window ends out of order');
  const elapsedMs = Math.max(windowEnd.timestampMs - windowStart.timestampMs, 1);

  const nextWork = (blueWork * BigInt(blocks) * BigInt(params.targetBlockTimeMs)) / (BigInt(blues) * BigInt(elapsedMs));
  let target = targetFromWork(nextWork);

  const current = compactToTarget(windowEnd.bits);
  const step = BigInt(params.daaStepFactorMax);
  const lowest = current / step > 0n ? current / step : 1n;
  if (target < lowest) target = lowest;
  if (target > current * step) target = current * step;
  if (target > params.maxTarget) target = params.maxTarget;
  return targetToCompact(target);
}

/** Median of chain timestamps (the new block's must exceed it); for an even count, the upper middle. */
export function pastMedianTime(timestampsMs: readonly number[]): number {
  assert(timestampsMs.length > 0, 'past median time of no timestamps');
  const sorted = [...timestampsMs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
