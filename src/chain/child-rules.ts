/**
 * What a block's `bits` and earliest timestamp must be, read off its selected parent's chain: the DAA window is the
 * last `daaWindowBlocks` selected-chain blocks (consensus/difficulty.ts turns its two ends into a target), and the
 * past median time is the median timestamp of the last `pastMedianTimeWindow` of them.
 */
import { daaWindow, nextBits, pastMedianTime, type DaaPoint } from '../consensus/difficulty.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { chainAncestorAt, type IndexedBlock } from './block-index.ts';

function daaPoint(block: IndexedBlock): DaaPoint {
  const h = block.header;
  return { timestampMs: h.timestampMs, daaScore: h.daaScore, blueScore: h.blueScore, blueWork: h.blueWork, bits: h.bits };
}

/** The bits a child of `selectedParent` must carry. */
export function expectedBits(params: NetworkParams, selectedParent: IndexedBlock): number {
  const daa = daaWindow(params, selectedParent.height);
  const start = chainAncestorAt(selectedParent, daa.startHeight);
  return nextBits(params, daaPoint(selectedParent), daaPoint(start), daa.windowBlocks);
}

/** Median timestamp (ms) of the last pastMedianTimeWindow blocks of `selectedParent`'s chain, itself included. */
export function pastMedianTimeMs(params: NetworkParams, selectedParent: IndexedBlock): number {
  const stamps: number[] = [];
  let walk: IndexedBlock | null = selectedParent;
  while (walk && stamps.length < params.pastMedianTimeWindow) {
    stamps.push(walk.header.timestampMs);
    walk = walk.selectedParent;
  }
  return pastMedianTime(stamps);
}
