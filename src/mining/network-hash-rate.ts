/**
 * The network's hash rate, `estimated` from chain data (issue #6: never a measured figure): the work behind blocks
 * over a window of the selected chain, divided by the time it spanned. Apart from hash-rate.ts, whose meter the
 * browser miner loads without the PoW code.
 */
import type { Chain } from '../chain/chain.ts';
import type { IndexedBlock } from '../chain/block-index.ts';
import { compactToTarget, workFromTarget } from '../consensus/pow.ts';
import type { HashRate } from './control.ts';
import { networkHashRateWindowBlocks } from './mining-limits.ts';

/** Expected hashes behind a block: its target's work (2^256 / (target + 1)). */
export function blockWork(block: IndexedBlock): bigint {
  return workFromTarget(compactToTarget(block.header.bits));
}

/**
 * The network's rate estimated from chain data: the work of every block created over the last `windowBlocks`
 * selected-chain blocks, divided by the time they spanned. Blue work counts blues only, so it is scaled by
 * DAA-score blocks per blue block, as the DAA does (src/consensus/difficulty.ts). 0 until two chain blocks
 * after genesis exist (genesis' timestamp predates the network).
 */
export function estimateNetworkHashRate(chain: Chain, windowBlocks: number = networkHashRateWindowBlocks): HashRate & { windowMs: number } {
  const tip = chain.selectedTip();
  const startHeight = Math.max(1, tip.height - windowBlocks);
  const start = chain.blockAtHeight(startHeight);
  if (start === undefined || tip.height <= startHeight) return { hashesPerSecond: 0, source: 'estimated', windowMs: 0 };
  const blues = tip.header.blueScore - start.header.blueScore;
  const blocks = tip.header.daaScore - start.header.daaScore;
  const work = blues > 0 ? ((tip.header.blueWork - start.header.blueWork) * BigInt(blocks)) / BigInt(blues) : 0n;
  const windowMs = Math.max(1, tip.header.timestampMs - start.header.timestampMs);
  return { hashesPerSecond: Number((work * 1000n) / BigInt(windowMs)), source: 'estimated', windowMs };
}
