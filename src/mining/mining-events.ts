/**
 * The mining_events topic (seed: `block_found` with `block_hash`, `difficulty_adjustment` with `new_difficulty`,
 * `mining_reward` with `reward_amount`), fed only by real chain commits:
 *   - block_found: a block this node's miners found was committed by the chain (not merely submitted);
 *   - difficulty_adjustment: the selected tip changed and its difficulty differs from the previous selected tip's;
 *   - mining_reward: the reward of a block found here became known. The reward comes from a `MiningRewardReader`
 *     (the ledger's credited amount, or the emission subsidy); with none wired, no reward event is invented.
 * docs/mining.md "Events".
 */
import type { IndexedBlock } from '../chain/block-index.ts';
import type { BlockAcceptedEvent, Chain } from '../chain/chain.ts';
import { compactToTarget, difficultyFromTarget } from '../consensus/pow.ts';
import { encodeAddress } from '../crypto/address.ts';
import { unitsToCoins } from '../crypto/amount.ts';
import { MiningError } from './errors.ts';
import { toHash0x } from '../util/bytes.ts';
import type { MiningEvent } from './control.ts';
import { foundBlocksTrackedMax, miningEventListenersMax, pendingRewardBlocksMax, pendingRewardsMax } from './mining-limits.ts';

/** The reward port: what a block paid its miner, once known. */
export interface MiningRewardReader {
  readonly source: 'ledger' | 'emission';
  /** Units credited to the block's miner for this block; undefined while not (yet) known. */
  rewardOf(block: IndexedBlock): bigint | undefined;
}

export interface MiningEventsOptions {
  readonly chain: Chain;
  readonly rewards?: MiningRewardReader;
  /** Told of each reward as it becomes known (the statistics add it up). */
  readonly onReward?: (block: IndexedBlock, units: bigint) => void;
  /** Told of each committed block this node found. */
  readonly onFoundCommitted?: (block: IndexedBlock) => void;
  /** A throwing listener is reported here and never stops the others. */
  readonly onListenerError?: (error: unknown) => void;
}

export interface MiningEvents {
  /** Marks a block hash (0x hex) as found here, before it is handed to the chain. */
  noteFound(blockHash: string): void;
  /** Feed of the chain's accepted blocks (chain.onBlockAccepted). */
  handleAccepted(event: BlockAcceptedEvent): void;
  onEvent(listener: (event: MiningEvent) => void): () => void;
  /** Found blocks committed so far, by GPU / CPU backends (from their headers' gpu_mining flag). */
  committedFound(): { readonly total: number; readonly gpu: number };
}

const tipDifficulty = (chain: Chain, block: IndexedBlock): number =>
  difficultyFromTarget(compactToTarget(block.header.bits), chain.params.maxTarget);

export function createMiningEvents(options: MiningEventsOptions): MiningEvents {
  const { chain, rewards } = options;
  const listeners = new Set<(event: MiningEvent) => void>();
  const found = new Set<string>();
  const pendingRewards = new Map<string, { block: IndexedBlock; waitedBlocks: number }>();
  let lastTipDifficulty = tipDifficulty(chain, chain.selectedTip());
  let committed = 0;
  let committedGpu = 0;

  const emit = (event: MiningEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        options.onListenerError?.(error);
      }
    }
  };

  const settleRewards = (): void => {
    if (rewards === undefined) return;
    for (const [hash, pending] of pendingRewards) {
      const units = rewards.rewardOf(pending.block);
      if (units === undefined) {
        if (++pending.waitedBlocks > pendingRewardBlocksMax) pendingRewards.delete(hash);
        continue;
      }
      pendingRewards.delete(hash);
      options.onReward?.(pending.block, units);
      if (units === 0n) continue; // a red block: its reward went to the merging chain block's miner
      const miner = encodeAddress(chain.params.hrp, pending.block.header.miner);
      emit({ type: 'mining_reward', reward_amount: unitsToCoins(units), block_hash: hash, miner });
    }
  };

  return {
    noteFound(blockHash) {
      if (found.size >= foundBlocksTrackedMax) found.delete(found.values().next().value!);
      found.add(blockHash);
    },
    handleAccepted({ block, selectedTipChanged }) {
      const hash = toHash0x(block.hash);
      if (found.delete(hash)) {
        committed++;
        if (block.header.gpuMining) committedGpu++;
        options.onFoundCommitted?.(block);
        emit({ type: 'block_found', block_hash: hash, height: block.height, gpu_mining: block.header.gpuMining });
        if (rewards !== undefined) {
          if (pendingRewards.size >= pendingRewardsMax) pendingRewards.delete(pendingRewards.keys().next().value!);
          pendingRewards.set(hash, { block, waitedBlocks: 0 });
        }
      }
      if (selectedTipChanged) {
        const tip = chain.selectedTip();
        const difficulty = tipDifficulty(chain, tip);
        if (difficulty !== lastTipDifficulty) {
          emit({ type: 'difficulty_adjustment', new_difficulty: difficulty, old_difficulty: lastTipDifficulty, block_hash: toHash0x(tip.hash) });
          lastTipDifficulty = difficulty;
        }
      }
      settleRewards();
    },
    onEvent(listener) {
      if (listeners.size >= miningEventListenersMax) {
        throw new MiningError(`mining events: at most ${miningEventListenersMax} listeners, got one more`);
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    committedFound: () => ({ total: committed, gpu: committedGpu }),
  };
}
