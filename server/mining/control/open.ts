/** Opens the mining control's state (state.ts) over a chain. */
import { decodeAddress } from '../../../src/crypto/address.ts';
import { createMiningEvents } from '../../../src/mining/mining-events.ts';
import { hashRateSampleIntervalMs } from '../../../src/mining/mining-limits.ts';
import { backfillBlockStats, createBlockStatsIndex } from '../../../src/mining/mining-stats.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { sampleEngines } from './sample.ts';
import type { MiningControlDeps, MiningControlState } from './state.ts';

/** Loads the statistics from the chain, attaches to its commits and starts the hash-counter sampler. */
export function openMiningControlState(deps: MiningControlDeps): MiningControlState {
  const { chain, clock, logger, params } = deps;
  const createdAtMs = clock.nowMs();
  const statsIndex = createBlockStatsIndex({ maxTarget: params.maxTarget });
  const backfilled = backfillBlockStats(chain, statsIndex, createdAtMs);
  const ownMiners = new Map<string, string>();
  if (deps.configuredMinerAddress !== undefined) {
    ownMiners.set(toHex(decodeAddress(deps.configuredMinerAddress, params.hrp)), deps.configuredMinerAddress);
  }
  const events = createMiningEvents({
    chain,
    ...(deps.rewards === undefined ? {} : { rewards: deps.rewards }),
    onReward: (block, units) => statsIndex.addReward(block.header.timestampMs, units),
    onListenerError: (error) => logger.error({ err: error }, 'mining event listener failed'),
  });
  const unsubscribe = chain.onBlockAccepted((event) => {
    statsIndex.addBlock(event.block, clock.nowMs());
    events.handleAccepted(event);
  });
  logger.debug({ blocks: backfilled }, 'mining statistics loaded');
  const state: MiningControlState = {
    ...deps, createdAtMs, statsIndex, ownMiners, events, unsubscribe,
    sampler: setInterval(() => sampleEngines(state), hashRateSampleIntervalMs),
    reward: undefined, session: null, lastSession: null, queue: Promise.resolve(),
  };
  state.sampler.unref();
  return state;
}
