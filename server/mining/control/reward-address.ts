/** Where a session pays when start_mining names no miner_address (docs/mining.md). */
import type { MiningControlState, RewardAddress } from './state.ts';

/** The node's reward address, resolved on first use and kept (it may read the wallet). */
export function rewardAddress(state: MiningControlState): RewardAddress {
  return (state.reward ??= state.rewardAddress());
}

/** For get_mining_info: the address, or null when it cannot be had (a locked wallet): a read never fails for it. */
export function rewardText(state: MiningControlState): string | null {
  try {
    return rewardAddress(state).text;
  } catch (error) {
    state.logger.warn({ err: error }, 'reward address unavailable');
    return null;
  }
}
