/** The one way RPC handlers say that data is gone with the blocks below this node's pruning point. */
import { toHash0x } from '../util/bytes.ts';
import type { BlockId } from '../consensus/ghostdag.ts';
import { DataPrunedError } from './errors.ts';
import type { ChainView } from './ports.ts';

/** Throws DataPrunedError when `block` is below the pruning point of a pruned node; returns otherwise. */
export function assertNotPruned(chain: ChainView, block: BlockId, what: string): void {
  if (!chain.isPruned?.(block)) return;
  const point = chain.pruning?.()?.pruningPoint;
  if (point === undefined) return;
  throw new DataPrunedError(what, { hash: toHash0x(point.hash), blueScore: point.header.blueScore });
}
