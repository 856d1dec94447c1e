/**
 * Interval arithmetic for the reachability tree labelling, after rusty-kaspa
 * `consensus/src/processes/reachability/interval.rs`. Intervals are inclusive `[start, end]` of integer points;
 * the empty interval at a position is `[start, start - 1]`.
 *
 * Kaspa labels with u64. Weft labels with JavaScript numbers, so every point stays a safe integer:
 * `[1, 2^53 - 2]` leaves a margin of one on both sides, so `end + 1` and `start - 1` stay exact. The labels are an
 * index, not consensus data: any valid labelling answers every query the same way, so the smaller range only means
 * the root capacity bound is 2^53 points instead of 2^64 (at 1 block/s and 2^14 slack per chain block, ~2^39
 * chain blocks, which is far beyond any lifetime).
 */
import { assert } from '../errors.ts';

/** The first point any interval may use. */
export const intervalStartMin = 1;
/** The last point any interval may use (2^53 − 2). */
export const intervalEndMax = Number.MAX_SAFE_INTEGER - 1;

/** Size of the left part when splitting `size` points in half; the left part gets the odd point. */
export function halfSize(size: number): number {
  return Math.ceil(size / 2);
}

/**
 * Fractions 2^sizes[i] / Σ_j 2^sizes[j], computed relative to the largest size so nothing overflows; tiny
 * fractions underflow towards zero, which is what the rule wants (they all weigh the same: nothing).
 */
export function exponentialFractions(sizes: readonly number[]): number[] {
  let maxSize = 0;
  for (const s of sizes) if (s > maxSize) maxSize = s;
  const fractions = sizes.map((s) => 1 / 2 ** (maxSize - s));
  let sum = 0;
  for (const f of fractions) sum += f;
  return fractions.map((f) => f / sum);
}

/**
 * Part sizes for splitting `total` points among subtrees of the given `sizes` (Kaspa `split_exponential`): every part
 * gets at least its subtree size, and the spare capacity goes mostly to the largest subtree, because under GHOSTDAG
 * the heaviest subtree (the selected chain) is the one that keeps growing. The last part takes the rounding rest.
 */
export function splitExponentialSizes(total: number, sizes: readonly number[]): number[] {
  let sizesSum = 0;
  for (const s of sizes) sizesSum += s;
  assert(sizes.length > 0 && sizesSum > 0, 'cannot split an interval into zero parts');
  assert(total >= sizesSum, `interval of ${total} points cannot hold subtrees of ${sizesSum} blocks`);
  if (total === sizesSum) return sizes.slice();
  const totalBias = total - sizesSum;
  let remainingBias = totalBias;
  const fractions = exponentialFractions(sizes);
  const out = new Array<number>(sizes.length);
  for (let i = 0; i < sizes.length; i++) {
    const bias = i === sizes.length - 1 ? remainingBias : Math.min(remainingBias, Math.round(totalBias * fractions[i]!));
    out[i] = sizes[i]! + bias;
    remainingBias -= bias;
  }
  return out;
}
