/**
 * Rewards from the ledger (src/state/ledger.ts) for mining_reward and get_mining_stats: what a block actually paid
 * its own miner under the rule of docs/design.md "Consensus" — a blue block pays its miner subsidy + the fees of its accepted
 * transactions when a chain block merges it; a red block's reward goes to the merging chain block's miner instead,
 * so its own miner gets 0. Known once the block is merged on the current selected chain (undefined before).
 */
import type { IndexedBlock } from '../chain/block-index.ts';
import type { Ledger } from '../state/ledger.ts';
import type { MiningRewardReader } from './mining-events.ts';

export function createLedgerRewardReader(ledger: Pick<Ledger, 'mergedBy' | 'acceptanceOf'>): MiningRewardReader {
  return {
    source: 'ledger',
    rewardOf(block: IndexedBlock) {
      const merger = ledger.mergedBy(block.id);
      if (merger === null) return undefined;
      const merged = ledger.acceptanceOf(merger)?.merged.find((m) => m.id === block.id);
      if (merged === undefined) return undefined;
      return merged.blue ? merged.subsidy + merged.fees : 0n;
    },
  };
}
